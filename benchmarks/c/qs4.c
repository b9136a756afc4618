/* One n-queens placement by QS4 (Sosic & Gu, IEEE TKDE 6(5), 1994), in plain C.
 *
 * The baseline of benchmarks/min_conflicts_vs_c.py, written from the paper's description
 * in the form of the public C++ implementation (mengxuehu/n-queens-puzzle) the issue
 * measured: int32 columns and int32 counters per diagonal.
 * 1. Shuffle the columns; each row in turn takes the first column left in the shuffled
 *    list whose two diagonals are still empty (first fit), until no column fits or only
 *    n / 10000 rows are left.
 * 2. The remaining rows take the remaining columns as they come.
 * 3. Repair: every attacked queen swaps with random rows until a swap lowers the number
 *    of collisions (a collision = a queen beyond the first on a diagonal); passes over
 *    the board repeat until there are none.
 *
 * usage: qs4 N [SEED [OUTPUT]]  ->  prints "search_seconds S swaps K"; OUTPUT gets the
 * columns as raw little-endian int32 (what queens writes into an .npy body).
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

static int64_t below(int64_t k) /* in [0, k), multiply-shift */
{
    return (int64_t)(((next_random() >> 32) * (uint64_t)k) >> 32);
}

static int64_t n;
static int32_t *col, *up, *down; /* up[r + c], down[r - c + n - 1] */

static int64_t collisions_at(int64_t r, int64_t c)
{
    return (up[r + c] > 1) + (down[r - c + n - 1] > 1);
}

/* Move row r's queen from column a to column b; returns the change in collisions. */
static int64_t move(int64_t r, int64_t a, int64_t b)
{
    int64_t delta = 0;
    delta -= (--up[r + a] > 0);
    delta -= (--down[r - a + n - 1] > 0);
    delta += (up[r + b]++ > 0);
    delta += (down[r - b + n - 1]++ > 0);
    return delta;
}

static int64_t initial_placement(void)
{
    int32_t *rest = malloc(n * sizeof *rest);
    if (!rest)
        exit(1);
    for (int64_t i = 0; i < n; i++)
        rest[i] = (int32_t)i;
    for (int64_t i = n - 1; i > 0; i--) { /* Fisher-Yates */
        int64_t j = below(i + 1);
        int32_t t = rest[i];
        rest[i] = rest[j];
        rest[j] = t;
    }
    int64_t left = n / 10000, begin = 0, row = 0;
    for (; row < n - left; row++) {
        int64_t k = begin;
        while (k < n && (up[row + rest[k]] || down[row - rest[k] + n - 1]))
            k++;
        if (k == n)
            break;
        int32_t c = rest[k]; /* the used column leaves the list; failures stay in front */
        rest[k] = rest[begin];
        rest[begin++] = c;
        col[row] = c;
        up[row + c] = 1;
        down[row - c + n - 1] = 1;
    }
    int64_t collisions = 0;
    for (; row < n; row++) {
        int32_t c = rest[begin++];
        col[row] = c;
        collisions += (up[row + c]++ > 0) + (down[row - c + n - 1]++ > 0);
    }
    free(rest);
    return collisions;
}

int main(int argc, char **argv)
{
    if (argc < 2 || (n = atoll(argv[1])) < 4) {
        fprintf(stderr, "usage: qs4 N [SEED [OUTPUT]] with N >= 4\n");
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
    int64_t collisions = initial_placement(), swaps = 0;
    while (collisions > 0) {
        for (int64_t i = 0; i < n && collisions > 0; i++) {
            if (!collisions_at(i, col[i]))
                continue;
            for (int tries = 0; tries < 4096; tries++) {
                int64_t j = below(n);
                int64_t ci = col[i], cj = col[j];
                if (j == i)
                    continue;
                int64_t delta = move(i, ci, cj) + move(j, cj, ci);
                if (delta < 0) {
                    col[i] = (int32_t)cj;
                    col[j] = (int32_t)ci;
                    collisions += delta;
                    swaps++;
                    break;
                }
                move(j, ci, cj);
                move(i, cj, ci);
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
