/* Counting the inner boards of border constellations, one depth-first search per thread.

   The host (gpu_plan.py) turns each constellation into states a few inner rows deep: a
   state is the set of rows still to fill and the cells its queens attack, as three masks
   with absolute diagonals (bit r + c of `d1`, bit c - r + n - 1 of `d2`), so border rows
   are simply not in `rows` and the search jumps over them. Each thread claims states from
   a counter (threads that finish early take more) and walks each one with an explicit
   stack of one word per row in shared memory, laid out [row][thread] so the threads of a
   warp touch 32 different banks. Per queen placed (a node) the search looks ahead at the
   next row and the last one; the last two rows are never descended into: for each queen
   of the row before them, the pairs that fit are |B|·|F| minus the attacking pairs, with
   B and F the free cells of the two rows. The host expansion follows the same rules, so
   the node count does not depend on how deep the host went.

   The same file compiles as C with gcc (tests/gpu_host.py): outside CUDA, the thread and
   block indexes are variables that `run_grid` steps through one thread at a time, the
   stack is a buffer of the host's, atomics are plain additions and a warp has one lane. */

#ifdef __CUDACC__
typedef unsigned int u32;
typedef unsigned long long u64;
#define KERNEL extern "C" __global__
#define DEVICE static __device__ __forceinline__
#define POPCOUNT(x) __popc(x)
#define LOWEST_ROW(x) (__ffs(x) - 1)
#define HIGHEST_ROW(x) (31 - __clz(x))
#define CLAIM(counter) atomicAdd((counter), 1ULL)
#define ADD(target, value) atomicAdd((target), (value))
#define LANE (threadIdx.x & 31u)
extern __shared__ u32 shared_stack[];
DEVICE u64 warp_sum(u64 x) {
    for (int step = 16; step > 0; step >>= 1) x += __shfl_down_sync(0xffffffffu, x, step);
    return x;
}
#else
#include <stdint.h>
#include <stdlib.h>
typedef uint32_t u32;
typedef uint64_t u64;
#define KERNEL static
#define DEVICE static inline
#define POPCOUNT(x) __builtin_popcount(x)
#define LOWEST_ROW(x) __builtin_ctz(x)
#define HIGHEST_ROW(x) (31 - __builtin_clz(x))
#define CLAIM(counter) ((*(counter))++)
#define ADD(target, value) (*(target) += (value))
#define LANE 0u
static _Thread_local struct { u32 x; } threadIdx, blockDim;
static _Thread_local u32 *shared_stack;
DEVICE u64 warp_sum(u64 x) { return x; }
#endif

/* The board as the queens placed so far leave it. */
typedef struct {
    int n;
    u32 full, down;
    u64 d1, d2;
} Board;

/* The cells of row r that no queen attacks. */
DEVICE u32 free_cells(const Board *b, int r) {
    return b->full & ~(b->down | (u32)(b->d1 >> r) | (u32)(b->d2 >> (b->n - 1 - r)));
}

/* Place (or, applied again, remove) the queen `bit` of row r. */
DEVICE void toggle(Board *b, int r, u32 bit) {
    b->down ^= bit;
    b->d1 ^= (u64)bit << r;
    b->d2 ^= ((u64)bit << (b->n - 1)) >> r;
}

/* Solutions of the last two rows, `gap` rows apart, with free cells `pen` and `last`: a
   queen of `pen` takes its own column and its two diagonals from `last`. */
DEVICE u32 pairs(u32 pen, u32 last, int gap) {
    return POPCOUNT(pen) * POPCOUNT(last) - POPCOUNT(pen & last) - POPCOUNT((pen << gap) & last)
           - POPCOUNT((pen >> gap) & last);
}

/* Count one state: its solutions and nodes added to *solutions and *nodes. `stack` is this
   thread's column of the shared stack, `stride` words between two rows. */
DEVICE void search(int n, u32 rows, u32 down, u64 d1, u64 d2, u32 *stack, u32 stride,
                   u64 *solutions, u64 *nodes) {
    Board b = {n, n == 32 ? 0xffffffffu : (1u << n) - 1u, down, d1, d2};
    if (rows == 0) { /* every row holds its queen: the state is a solution */
        *solutions += 1;
        return;
    }
    const int first = LOWEST_ROW(rows), last = HIGHEST_ROW(rows);
    if (first == last) {
        const u32 found = POPCOUNT(free_cells(&b, last));
        *solutions += found;
        *nodes += found;
        return;
    }
    const int pen = HIGHEST_ROW(rows & ~(1u << last)); /* the second-to-last row */
    if (first == pen) {
        const u32 open = free_cells(&b, pen);
        const u32 found = pairs(open, free_cells(&b, last), last - pen);
        *solutions += found;
        *nodes += POPCOUNT(open) + found;
        return;
    }
    u64 found = 0, visited = 0;
    int r = first;
    u32 avail = free_cells(&b, r);
    for (;;) {
        if (avail) {
            const u32 bit = avail & (0u - avail);
            const int next = LOWEST_ROW(rows & ~((2u << r) - 1u));
            visited++;
            toggle(&b, r, bit);
            if (next == pen) { /* the last two rows by counting */
                const u32 open = free_cells(&b, pen);
                const u32 fit = pairs(open, free_cells(&b, last), last - pen);
                found += fit;
                visited += POPCOUNT(open) + fit;
            } else {
                const u32 child = free_cells(&b, next);
                if (child && free_cells(&b, last)) { /* descend, keeping `bit` in the record */
                    stack[r * stride] = avail;
                    r = next;
                    avail = child;
                    continue;
                }
            }
            toggle(&b, r, bit);
            avail ^= bit;
            continue;
        }
        if (r == first) break;
        r = HIGHEST_ROW(rows & ((1u << r) - 1u)); /* back to the row above */
        avail = stack[r * stride];
        const u32 bit = avail & (0u - avail); /* the queen that row holds */
        toggle(&b, r, bit);
        avail ^= bit;
    }
    *solutions += found;
    *nodes += visited;
}

/* Count `count` states: sums[0] += weighted solutions, sums[1] += solutions, sums[2] +=
   nodes. Threads claim states from *claim (zero at launch) until none is left; the block
   needs n * blockDim.x words of dynamic shared memory for the stacks. */
KERNEL void count_states(int n, u64 count, const u32 *rows, const u32 *down, const u64 *d1,
                         const u64 *d2, const unsigned char *weight, u64 *claim, u64 *sums) {
    u32 *stack = shared_stack + threadIdx.x;
    u64 total = 0, solutions = 0, nodes = 0;
    for (u64 i = CLAIM(claim); i < count; i = CLAIM(claim)) {
        u64 found = 0;
        search(n, rows[i], down[i], d1[i], d2[i], stack, blockDim.x, &found, &nodes);
        total += found * weight[i];
        solutions += found;
    }
    total = warp_sum(total);
    solutions = warp_sum(solutions);
    nodes = warp_sum(nodes);
    if (LANE == 0) {
        ADD(&sums[0], total);
        ADD(&sums[1], solutions);
        ADD(&sums[2], nodes);
    }
}

#ifndef __CUDACC__
/* The host build's launch: every thread of `threads` in turn, on one stack buffer.
   Returns 0, or -1 when the stack cannot be allocated. */
int run_grid(u32 threads, int n, u64 count, const u32 *rows, const u32 *down, const u64 *d1,
             const u64 *d2, const unsigned char *weight, u64 *claim, u64 *sums) {
    shared_stack = (u32 *)calloc((size_t)n * threads, sizeof(u32));
    if (!shared_stack) return -1;
    blockDim.x = threads;
    for (threadIdx.x = 0; threadIdx.x < threads; threadIdx.x++)
        count_states(n, count, rows, down, d1, d2, weight, claim, sums);
    free(shared_stack);
    shared_stack = 0;
    return 0;
}
#endif
