/* One n-queens placement in the manner of FrozenVoid's NQ.c (github.com/FrozenVoid/NQ.c).
 *
 * The second baseline of benchmarks/min_conflicts_vs_c.py, written from NQ.c's own
 * description (Docs/Algorithm.txt): no greedy start, only swaps with O(1) bookkeeping.
 * 1. Start from the identity board (every queen on one diagonal).
 * 2. Sliding window: for each row A in order that is attacked, swap it with a random
 *    row B after it (preferring attacked ones, a bounded number of draws); keep the swap
 *    when the total of collisions does not grow, undo it and draw again otherwise
 *    (a bounded number of times per row).
 * 3. End search: passes over the rows; each attacked row swaps with random rows,
 *    keeping swaps that lower the collisions, until none remains.
 * int32 columns and int32 counters per diagonal, as in NQ.c.
 *
 * usage: nqc N [SEED [OUTPUT]]  ->  prints "search_seconds S swaps K"; OUTPUT gets the
 * columns as raw little-endian int32.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t rng_state;

static uint64_t next_random(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int64_t below(int64_t k)
{
    return (int64_t)(((next_random() >> 32) * (uint64_t)k) >> 32);
}

static int64_t n, total;
static int32_t *col, *up, *down; /* up[r + c], down[r - c + n - 1] */

static int attacked(int64_t r)
{
    return up[r + col[r]] > 1 || down[r - col[r] + n - 1] > 1;
}

static void take(int64_t r) /* remove row r's queen from the counters */
{
    total -= (--up[r + col[r]] > 0);
    total -= (--down[r - col[r] + n - 1] > 0);
}

static void put(int64_t r)
{
    total += (up[r + col[r]]++ > 0);
    total += (down[r - col[r] + n - 1]++ > 0);
}

static void swap_rows(int64_t a, int64_t b)
{
    take(a);
    take(b);
    int32_t t = col[a];
    col[a] = col[b];
    col[b] = t;
    put(a);
    put(b);
}

int main(int argc, char **argv)
{
    if (argc < 2 || (n = atoll(argv[1])) < 4) {
        fprintf(stderr, "usage: nqc N [SEED [OUTPUT]] with N >= 4\n");
        return 2;
    }
    rng_state = argc > 2 ? strtoull(argv[2], NULL, 10) : 0;
    col = malloc(n * sizeof *col);
    up = calloc(2 * n, sizeof *up);
    down = calloc(2 * n, sizeof *down);
    if (!col || !up || !down)
        return 1;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int64_t r = 0; r < n; r++) {
        col[r] = (int32_t)r;
        put(r);
    }
    int64_t swaps = 0, draws = 64;
    for (int64_t a = 0; a + 1 < n && total > 0; a++) {
        for (int tries = 0; tries < 1024 && attacked(a); tries++) {
            int64_t b = a + 1 + below(n - a - 1);
            for (int64_t k = 0; k < draws && !attacked(b); k++)
                b = a + 1 + below(n - a - 1);
            int64_t before = total;
            swap_rows(a, b);
            if (total > before)
                swap_rows(a, b);
            else
                swaps++;
        }
    }
    while (total > 0) { /* passes over the attacked rows left */
        for (int64_t a = 0; a < n && total > 0; a++) {
            for (int tries = 0; tries < 64 && attacked(a); tries++) {
                int64_t b = below(n), before = total;
                swap_rows(a, b);
                if (total >= before)
                    swap_rows(a, b);
                else
                    swaps++;
            }
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("search_seconds %.6f swaps %lld\n",
           (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9, (long long)swaps);
    if (argc > 3) {
        FILE *out = fopen(argv[3], "wb");
        if (!out || fwrite(col, sizeof *col, n, out) != (size_t)n || fclose(out))
            return 1;
    }
    return 0;
}
