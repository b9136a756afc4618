/* Counting the inner boards of border constellations: a warp whose threads step together.

   The host (gpu_plan.py) turns each constellation into states a few inner rows deep: a
   state is the set of rows still to fill and the cells its queens attack, as three masks
   with absolute diagonals (bit r + c of `d1`, bit c - r + n - 1 of `d2`), so border rows
   are simply not in `rows` and the search jumps over them. It sorts a launch's states by
   their rows, so the threads of a warp mostly search states of one shape.

   Each thread runs one loop, and every turn of it is one node, the same instructions for
   every thread whatever its depth: take the lowest untried cell of the frame on top of its
   stack, write back the cells left, unmark the frame when none is left, and when the child
   lives, write its frame on the next level and mark it. Choices are selects and predicated
   stores, not branches; the one branch is taken when a thread of the warp needs a new
   state (a warp vote): those threads claim their next (one atomic add each, so persistent
   threads share the work to its end) while the others wait a moment, instead of a warp
   waiting for its longest state.

   The queens of the state (the border's, the host's) attack each open row in a way fixed
   for the whole search, so when it claims a state a thread writes, for each open row but
   the last, a `Row` (one per level of its stack): the free cells the state leaves in the
   next open row and the gap to it. A frame holds only what the thread's own queens do, as
   in the classic search: its untried cells, their columns and their two diagonals as 32-bit
   masks relative to the frame's row (a step down by g rows shifts them by g; a bit shifted
   out leaves the board for good, since these queens are all above the rows still to fill).
   A frame is one 16-byte word, so a turn reads its frame and its row in two loads and
   writes in two stores; which levels hold a frame is a register mask, so the top level is
   one bit scan. A queen is a node; one whose next row has no free cell goes no further; the
   last row is never pushed: a queen of the row before it finds its solutions by a bit
   count, and these are nodes too. The host expansion follows the same rules, so the node
   count does not depend on how deep the host went.

   The same file compiles as C with gcc (tests/gpu_host.py): outside CUDA, the thread and
   block indexes are variables that `run_grid` steps through one thread at a time, the
   stack is a buffer of the host's, atomics are plain additions and a warp has one lane. */

#ifdef __CUDACC__
typedef unsigned int u32;
typedef unsigned long long u64;
#define KERNEL extern "C" __global__
#define DEVICE static __device__ __forceinline__
#define ALIGNED(bytes) __align__(bytes)
#define POPCOUNT(x) __popc(x)
#define LOWEST_ROW(x) (__ffs(x) - 1)
#define HIGHEST_ROW(x) (31 - __clz(x))
/* Shifts by an amount taken mod 32, one funnel-shift instruction (no clamp to test). */
#define SHL(x, s) __funnelshift_l(0u, (x), (s))
#define SHR(x, s) __funnelshift_r((x), 0u, (s))
#define CLAIM(counter) atomicAdd((counter), 1ULL)
#define ADD(target, value) atomicAdd((target), (value))
#define LANE (threadIdx.x & 31u)
#define ANY(x) __any_sync(0xffffffffu, (x))
#ifndef BLOCK_THREADS /* the launch's block size, so the stack's offsets are constants */
#define BLOCK_THREADS 64
#endif
#define STRIDE BLOCK_THREADS
extern __shared__ __align__(16) unsigned char shared_stack[];
/* The stack is read and written at 32-bit shared-memory addresses (ld/st.shared), which
   spares two instructions of address arithmetic a node that plain C accesses cost. */
#define STACK_BASE ((u32)__cvta_generic_to_shared(shared_stack))
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
#define ALIGNED(bytes) __attribute__((aligned(bytes)))
#define POPCOUNT(x) __builtin_popcount(x)
#define LOWEST_ROW(x) __builtin_ctz(x)
#define HIGHEST_ROW(x) (31 - __builtin_clz(x))
#define SHL(x, s) ((x) << ((s) & 31u))
#define SHR(x, s) ((x) >> ((s) & 31u))
#define CLAIM(counter) ((*(counter))++)
#define ADD(target, value) (*(target) += (value))
#define LANE 0u
#define ANY(x) (x)
#define STRIDE blockDim.x
static _Thread_local struct { u32 x; } threadIdx, blockDim;
static _Thread_local unsigned char *shared_stack;
DEVICE u64 warp_sum(u64 x) { return x; }
#endif

/* The thread's own queens above a row: cells left to try, columns, diagonals. */
typedef struct ALIGNED(16) { u32 avail, cols, left, right; } Frame;
/* What the state leaves below a frame's row: the next open row's free cells, and `shape`:
   the gap g to that row (bits 0-4) and whether it is the last row (bit 31). */
typedef struct ALIGNED(8) { u32 free, shape; } Row;
#define LAST_NEXT 0x80000000u
/* Shared memory a level of the stack takes: a block's frames, then their rows. */
#define LEVEL_BYTES (STRIDE * (u32)(sizeof(Frame) + sizeof(Row)))

#ifdef __CUDACC__
DEVICE Frame load_frame(u32 at) {
    Frame f;
    asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(f.avail), "=r"(f.cols), "=r"(f.left), "=r"(f.right) : "r"(at));
    return f;
}
DEVICE Row load_row(u32 at) {
    Row row;
    asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(row.free), "=r"(row.shape) : "r"(at));
    return row;
}
DEVICE void store_avail(u32 at, u32 avail) {
    asm volatile("st.shared.u32 [%0], %1;" ::"r"(at), "r"(avail) : "memory");
}
DEVICE void store_row(u32 at, Row row) {
    asm volatile("st.shared.v2.u32 [%0], {%1, %2};" ::"r"(at), "r"(row.free), "r"(row.shape)
                 : "memory");
}
DEVICE void store_frame(u32 at, Frame f) {
    asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};"
                 ::"r"(at), "r"(f.avail), "r"(f.cols), "r"(f.left), "r"(f.right) : "memory");
}
#else
#define STACK_BASE 0u
DEVICE Frame load_frame(u32 at) { return *(const Frame *)(shared_stack + at); }
DEVICE Row load_row(u32 at) { return *(const Row *)(shared_stack + at); }
DEVICE void store_avail(u32 at, u32 avail) { ((Frame *)(shared_stack + at))->avail = avail; }
DEVICE void store_row(u32 at, Row row) { *(Row *)(shared_stack + at) = row; }
DEVICE void store_frame(u32 at, Frame f) { *(Frame *)(shared_stack + at) = f; }
#endif

/* The cells of row `r` that the state's queens (columns `down`, diagonals d1, d2) leave. */
DEVICE u32 free_cells(int n, u32 full, u32 down, u64 d1, u64 d2, int r) {
    return full & ~(down | (u32)(d1 >> r) | (u32)(d2 >> (n - 1 - r)));
}

/* A thread's state is done: add its solutions to the thread's sums (a queen of the last row
   is a node too). */
DEVICE void settle(u64 *total, u64 *solutions, u64 *nodes, u64 *found, u32 w) {
    *total += *found * w;
    *solutions += *found;
    *nodes += *found;
    *found = 0;
}

/* One node, the same steps for every thread: place the queen of the lowest untried cell of
   the frame on top of the stack (`stacked` is not 0), write back the cells left, write the
   child's frame on the next level and mark it when it lives, unmark a spent frame. The
   thread's frames are at `frames` + level * LEVEL_BYTES, their rows at `shapes` + the same. */
DEVICE void turn(u32 frames, u32 shapes, u32 *stacked, u64 *found, u64 *nodes) {
    const u32 level = (u32)HIGHEST_ROW(*stacked), top = frames + level * LEVEL_BYTES;
    const Frame frame = load_frame(top);
    const Row row = load_row(shapes + level * LEVEL_BYTES);
    const u32 bit = frame.avail & (0u - frame.avail), rest = frame.avail ^ bit;
    store_avail(top, rest);
    const u32 cols = frame.cols | bit, left = frame.left | bit, right = frame.right | bit;
    const u32 g = row.shape; /* the shifts take it mod 32 */
    const Frame child = {row.free & ~(cols | SHR(left, g) | SHL(right, g)), cols, SHR(left, g),
                         SHL(right, g)};
    const int counted = (int)row.shape < 0; /* the child is the last row */
    *found += counted ? POPCOUNT(child.avail) : 0u;
    *nodes += 1;
    const int lives = child.avail && !counted;
    /* A living child's frame goes to the next level (a predicated store, not a branch) and
       is marked; a spent frame is unmarked, so the search goes back past it. */
    if (lives) store_frame(top + LEVEL_BYTES, child);
    *stacked += ((lives ? 2u : 0u) - (rest ? 0u : 1u)) << level; /* mark, unmark */
}

/* Count `count` states: sums[0] += weighted solutions, sums[1] += solutions, sums[2] +=
   nodes. Threads claim states from *claim (zero at launch) until none is left; the block
   has BLOCK_THREADS threads (an even number) and `levels` * LEVEL_BYTES bytes of dynamic
   shared memory, `levels` at least the most rows a state has to fill, less one.

   A thread whose state is done claims the next at once, while the others of its warp wait
   a moment, rather than the warp waiting for its longest state: the warp takes new states
   when any of its threads needs one, then steps on together, until a thread finds none
   left; the warp then finishes the states it holds. */
KERNEL void count_states(int n, u64 count, const u32 *rows, const u32 *down, const u64 *d1,
                         const u64 *d2, const unsigned char *weight, u64 *claim, u64 *sums) {
    /* The thread's frame and row at level 0; level k lies k * LEVEL_BYTES above them. */
    const u32 frames = STACK_BASE + threadIdx.x * (u32)sizeof(Frame);
    const u32 shapes = STACK_BASE + STRIDE * (u32)sizeof(Frame) + threadIdx.x * (u32)sizeof(Row);
    const u32 full = n == 32 ? 0xffffffffu : (1u << n) - 1u;
    u64 total = 0, solutions = 0, nodes = 0, found = 0;
    u32 w = 0;           /* the state's weight */
    u32 stacked = 0;     /* the levels that hold a frame with cells left */
    int none_left = 0;
    for (;;) {
        if (ANY(!stacked)) {
            while (!stacked) { /* this thread's state is done: take the next */
                settle(&total, &solutions, &nodes, &found, w);
                const u64 i = CLAIM(claim);
                if (i >= count) {
                    none_left = 1;
                    break;
                }
                const u32 open = rows[i];
                w = weight[i];
                if (!open) { /* every row holds its queen: the state is a solution */
                    total += w;
                    solutions += 1;
                    continue;
                }
                const int first = LOWEST_ROW(open), end = HIGHEST_ROW(open);
                const u32 cells = free_cells(n, full, down[i], d1[i], d2[i], first);
                if (first == end) {
                    found = POPCOUNT(cells);
                    continue;
                }
                u32 at = shapes, r = (u32)first;
                for (u32 below = open & (open - 1u); below; below &= below - 1u) {
                    const u32 next = (u32)LOWEST_ROW(below);
                    const Row row = {free_cells(n, full, down[i], d1[i], d2[i], (int)next),
                                     (next - r) | (next == (u32)end ? LAST_NEXT : 0u)};
                    store_row(at, row);
                    r = next;
                    at += LEVEL_BYTES;
                }
                const Frame start = {cells, 0u, 0u, 0u};
                store_frame(frames, start);
                stacked = cells ? 1u : 0u;
            }
            if (ANY(none_left)) break;
        }
        turn(frames, shapes, &stacked, &found, &nodes);
    }
    while (stacked) turn(frames, shapes, &stacked, &found, &nodes);
    settle(&total, &solutions, &nodes, &found, w);
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
   `levels` levels. Returns 0, or -1 when `threads` is odd (a level's frames would not
   all be 16-byte aligned) or the stack cannot be allocated. */
int run_grid(u32 threads, u32 levels, int n, u64 count, const u32 *rows, const u32 *down,
             const u64 *d1, const u64 *d2, const unsigned char *weight, u64 *claim, u64 *sums) {
    if (threads % 2) return -1;
    blockDim.x = threads;
    shared_stack = (unsigned char *)aligned_alloc(sizeof(Frame), levels * LEVEL_BYTES);
    if (!shared_stack) return -1;
    for (threadIdx.x = 0; threadIdx.x < threads; threadIdx.x++)
        count_states(n, count, rows, down, d1, d2, weight, claim, sums);
    free(shared_stack);
    shared_stack = 0;
    return 0;
}
#endif
