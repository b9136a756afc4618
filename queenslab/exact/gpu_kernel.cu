/* Counting the inner boards of border constellations: a warp whose threads step together.

   The host (gpu_plan.py) turns each constellation into states a few inner rows deep: a
   state is the set of rows still to fill and the cells its queens attack, as three masks
   with absolute diagonals (bit r + c of `d1`, bit c - r + n - 1 of `d2`), so border rows
   are simply not in `rows` and the search jumps over them. It sorts a launch's states by
   their rows, so the threads of a warp mostly search states of one shape.

   Each thread runs one loop, and every turn of it is one node, the same instructions for
   every thread whatever its depth: take the lowest untried cell of the frame on top of its
   stack, write back the cells left, drop the frame when none is left, compute the child
   frame and push it when it lives. Choices are selects and predicated stores, not branches;
   the one branch is taken when a thread's state is done and it claims the next (one atomic
   add, so persistent threads share the work to its end). A frame is one row's masks
   relative to that row (`a` = d1 >> r, the row's columns at bits 0..n-1; `f` = d2 shifted
   so that they are at bits 32..32+n-1, those of the queens below the row beneath them; a
   step down by g rows is a shift by g, and a bit shifted out is a column off the board for
   every later row), its columns and its untried cells: three
   64-bit words in shared memory laid out [level][word][thread], so a warp's 32 threads
   read a word in two conflict-free passes.
   Which rows have a frame is a register mask, so its top row and level are two bit counts.
   Per queen placed (a node) the search looks ahead at the next row and the last one and
   does not push when either has no free cell; the last two rows are never pushed: for each
   queen of the row before them, the pairs that fit are |B|·|F| minus the attacking pairs,
   with B and F the free cells of the two rows. The host expansion follows the same rules,
   so the node count does not depend on how deep the host went.

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
#ifndef BLOCK_THREADS /* the launch's block size, so the stack's offsets are constants */
#define BLOCK_THREADS 64
#endif
#define STRIDE BLOCK_THREADS
extern __shared__ u64 shared_stack[];
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
#define STRIDE blockDim.x
static _Thread_local struct { u32 x; } threadIdx, blockDim;
static _Thread_local u64 *shared_stack;
DEVICE u64 warp_sum(u64 x) { return x; }
#endif

/* 64-bit words of a frame: its columns with its untried cells above them, `a`, `f`. */
enum { CELLS, A, F, FRAME_WORDS };

/* The cells of a row, `g` rows below a frame with masks down, a, f, that no queen attacks. */
DEVICE u32 free_below(u32 full, u32 down, u64 a, u64 f, int g) {
    return full & ~(down | (u32)(a >> g) | (u32)(f >> (32 - g)));
}

/* Solutions of the last two rows, `gap` rows apart, with free cells `pen` and `last`: a
   queen of `pen` takes its own column and its two diagonals from `last`. */
DEVICE u32 pairs(u32 pen, u32 last, int gap) {
    return POPCOUNT(pen) * POPCOUNT(last) - POPCOUNT(pen & last) - POPCOUNT((pen << gap) & last)
           - POPCOUNT((pen >> gap) & last);
}

/* Write the frame of `level` on the stack `frames` (STRIDE words between two words). */
DEVICE void put(u64 *frames, u32 level, u32 down, u32 avail, u64 a, u64 f) {
    u64 *const frame = frames + level * FRAME_WORDS * STRIDE;
    frame[CELLS * STRIDE] = (u64)avail << 32 | down;
    frame[A * STRIDE] = a;
    frame[F * STRIDE] = f;
}

/* Count `count` states: sums[0] += weighted solutions, sums[1] += solutions, sums[2] +=
   nodes. Threads claim states from *claim (zero at launch) until none is left; the block
   has BLOCK_THREADS threads and needs `levels` * FRAME_WORDS * BLOCK_THREADS 64-bit words of
   dynamic shared memory, `levels` at least the most rows a state has to fill, less one. */
KERNEL void count_states(int n, u64 count, const u32 *rows, const u32 *down, const u64 *d1,
                         const u64 *d2, const unsigned char *weight, u64 *claim, u64 *sums) {
    u64 *const frames = shared_stack + threadIdx.x;
    const u32 full = n == 32 ? 0xffffffffu : (1u << n) - 1u;
    u64 total = 0, solutions = 0, nodes = 0, found = 0;
    u32 open = 0, pen = 0, last = 0, stacked = 0, w = 0; /* stacked: rows with a frame */
    for (;;) {
        if (!stacked) { /* the state is done: take the next */
            total += found * w;
            solutions += found;
            found = 0;
            const u64 i = CLAIM(claim);
            if (i >= count) break;
            open = rows[i];
            w = weight[i];
            const u64 a = d1[i], f = d2[i];
            if (!open) { /* every row holds its queen: the state is a solution */
                found = 1;
                continue;
            }
            const int first = LOWEST_ROW(open);
            last = HIGHEST_ROW(open);
            const u64 af = a >> first, ff = f << (first + 33 - n); /* row `first`'s frame */
            const u32 cells = free_below(full, down[i], af, ff, 0);
            if (first == (int)last) {
                found = POPCOUNT(cells);
                nodes += found;
                continue;
            }
            pen = HIGHEST_ROW(open & ~(1u << last));
            if (first == (int)pen) {
                found = pairs(cells, free_below(full, down[i], af, ff, last - first),
                              last - pen);
                nodes += POPCOUNT(cells) + found;
                continue;
            }
            put(frames, 0, down[i], cells, af, ff);
            stacked = cells ? 1u << first : 0u;
            continue;
        }
        /* One node: the same steps for every thread. */
        const int r = HIGHEST_ROW(stacked);
        u64 *const frame = frames + (u32)(POPCOUNT(stacked) - 1) * FRAME_WORDS * STRIDE;
        const u64 cells = frame[CELLS * STRIDE];
        const u32 avail = (u32)(cells >> 32), bit = avail & (0u - avail), rest = avail ^ bit;
        frame[CELLS * STRIDE] = cells ^ (u64)bit << 32;
        const u32 cols = (u32)cells | bit;
        const u64 a = frame[A * STRIDE] | bit, f = frame[F * STRIDE] | (u64)bit << 32;
        const int next = LOWEST_ROW(open & ~((2u << r) - 1u)), g = next - r;
        const u32 child = free_below(full, cols, a, f, g);
        const u32 ends = free_below(full, cols, a, f, (int)last - r);
        const u32 counted = 0u - (u32)(next == (int)pen); /* all ones: the last two rows */
        const u32 fit = pairs(child, ends, (int)(last - pen)) & counted;
        found += fit;
        nodes += 1u + ((POPCOUNT(child) + fit) & counted);
        stacked &= rest ? ~0u : ~(1u << r); /* the frame is spent: drop it */
        /* The child's frame goes above the top whether it lives or not; only a living one
           is counted in `stacked`, so a dead one is written over later. */
        put(frames, (u32)POPCOUNT(stacked), cols, child, a >> g, f << g);
        stacked |= (!counted && child && ends) ? 1u << next : 0u;
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
/* The host build's launch: every thread of `threads` in turn, on one stack buffer of
   `levels` frames a thread. Returns 0, or -1 when the stack cannot be allocated. */
int run_grid(u32 threads, u32 levels, int n, u64 count, const u32 *rows, const u32 *down,
             const u64 *d1, const u64 *d2, const unsigned char *weight, u64 *claim, u64 *sums) {
    shared_stack = (u64 *)calloc((size_t)levels * FRAME_WORDS * threads, sizeof(u64));
    if (!shared_stack) return -1;
    blockDim.x = threads;
    for (threadIdx.x = 0; threadIdx.x < threads; threadIdx.x++)
        count_states(n, count, rows, down, d1, d2, weight, claim, sums);
    free(shared_stack);
    shared_stack = 0;
    return 0;
}
#endif
