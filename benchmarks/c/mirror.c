/* One-thread N-queens counter: bitmask search with the mirror symmetry only.
 *
 * The baseline of benchmarks/count_vs_c.py. The first queen goes in the left half of
 * row 0 (and, for odd n, in the middle column with the row-1 queen in the left half);
 * every solution found is counted twice. Plain recursion: on this machine it beat an
 * iterative version with an explicit stack. Nodes are queens placed, counted the same
 * way as the queenslab kernel counts them.
 *
 * usage: mirror N   ->   prints "N TOTAL NODES"
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef uint64_t mask_t;

static int last_row;
static mask_t full;
static uint64_t nodes;

/* Solutions below `row`, whose free columns are `avail`; the masks are the attacked ones. */
static uint64_t count_below(int row, mask_t left, mask_t down, mask_t right, mask_t avail)
{
    uint64_t solutions = 0;
    while (avail) {
        mask_t bit = avail & (~avail + 1);
        avail ^= bit;
        nodes++;
        if (row == last_row) {
            solutions++;
            continue;
        }
        mask_t l = (left | bit) << 1, d = down | bit, r = (right | bit) >> 1;
        solutions += count_below(row + 1, l, d, r, full & ~(l | d | r));
    }
    return solutions;
}

int main(int argc, char **argv)
{
    int n = argc == 2 ? atoi(argv[1]) : 0;
    if (n < 1 || n > 63) {
        fprintf(stderr, "usage: %s N  (1 <= N <= 63)\n", argv[0]);
        return 2;
    }
    last_row = n - 1;
    full = ((mask_t)1 << n) - 1;
    const mask_t half = ((mask_t)1 << (n / 2)) - 1;
    uint64_t total = 2 * count_below(0, 0, 0, 0, half);
    if (n % 2) {
        mask_t mid = (mask_t)1 << (n / 2);
        nodes++;
        if (n == 1) {
            total += 1;
        } else {
            mask_t l = mid << 1, d = mid, r = mid >> 1;
            total += 2 * count_below(1, l, d, r, half & ~(l | d | r));
        }
    }
    printf("%d %llu %llu\n", n, (unsigned long long)total, (unsigned long long)nodes);
    return 0;
}
