/* One-thread N-queens counter: bitmask search with the mirror symmetry only.
 *
 * The baseline of benchmarks/count_vs_c.py. The first queen goes in the left half of
 * row 0 (and, for odd n, in the middle column with the row-1 queen in the left half);
 * every solution found is counted twice. Nodes are queens placed, counted the same way
 * as the queenslab kernel counts them.
 *
 * usage: mirror N   ->   prints "N TOTAL NODES"
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef uint64_t mask_t;

static uint64_t nodes;

/* Solutions below a row whose free columns are `avail`, iteratively with an explicit stack. */
static uint64_t count_below(int n, int row, mask_t left, mask_t down, mask_t right, mask_t avail)
{
    const mask_t full = (n == 64) ? ~(mask_t)0 : (((mask_t)1 << n) - 1);
    mask_t stack_left[64], stack_down[64], stack_right[64], stack_avail[64];
    int base = row;
    uint64_t solutions = 0;

    stack_avail[row] = avail;
    stack_left[row] = left;
    stack_down[row] = down;
    stack_right[row] = right;
    while (row >= base) {
        mask_t bits = stack_avail[row];
        if (bits == 0) {
            row--;
            continue;
        }
        mask_t bit = bits & (~bits + 1);
        stack_avail[row] = bits ^ bit;
        nodes++;
        if (row == n - 1) {
            solutions++;
            continue;
        }
        mask_t l = (stack_left[row] | bit) << 1;
        mask_t d = stack_down[row] | bit;
        mask_t r = (stack_right[row] | bit) >> 1;
        row++;
        stack_left[row] = l;
        stack_down[row] = d;
        stack_right[row] = r;
        stack_avail[row] = full & ~(l | d | r);
    }
    return solutions;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s N\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[1]);
    if (n < 1 || n > 63) {
        fprintf(stderr, "N must be between 1 and 63\n");
        return 2;
    }
    const mask_t full = ((mask_t)1 << n) - 1;
    const mask_t half = ((mask_t)1 << (n / 2)) - 1;
    uint64_t total = 2 * count_below(n, 0, 0, 0, 0, half);
    if (n % 2) {
        mask_t mid = (mask_t)1 << (n / 2);
        nodes++;
        if (n == 1) {
            total += 1;
        } else {
            mask_t l = mid << 1, d = mid, r = mid >> 1;
            total += 2 * count_below(n, 1, l, d, r, half & ~(l | d | r));
        }
    }
    printf("%d %llu %llu\n", n, (unsigned long long)total, (unsigned long long)nodes);
    return 0;
}
