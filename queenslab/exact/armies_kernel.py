"""The compiled part of the line-colouring search for peaceable armies (``exact.armies``).

A colouring gives each line of the board one of two colours; a cell is white when its
four lines are white and black when they are all black. ``search_pairs`` walks the
colourings of the rows and the columns (a key: the columns in the low bits, the rows
above them) and asks of each whether some colouring of the diagonals gives at least
``target`` white and ``target`` black cells. A cell is the crossing of one diagonal of
each direction, so the diagonals form a bipartite graph whose edges are the cells: one
side of each connected part is enumerated (every subset coloured white), and the other
side is a knapsack solved exactly by dynamic programming (each of its lines gives its
white cells or its black cells, never both).

Arrays, as ``exact.armies.Plan`` builds them:

- ``open_rows[r]``: the open columns of row r, as bits;
- ``cells[k] = (row, col, part, u, v, layer)``: the open cells sorted by part; ``u``
  indexes the enumerated side of the part, ``v`` the other; on a torus of even side two
  cells cross the same two diagonals, and ``layer`` tells them apart (0 for the first);
- ``part_start`` (parts + 1 offsets into ``cells``), ``part_u`` and ``part_v`` (sizes);
- ``images[g, j, byte]``: the bits that byte ``j`` of a key becomes under symmetry g
  (identity first), so the image of a key is a few table lookups.
"""

from __future__ import annotations

import numpy as np

from queenslab.compiled.jit import njit
from queenslab.exact.constellation_kernel import popcount


@njit(cache=True, nogil=True)
def image(key, g, images):  # type: ignore[no-untyped-def]
    """The key under symmetry g."""
    moved = np.int64(0)
    j = 0
    while key:
        moved |= images[g, j, key & 0xFF]
        key >>= 8
        j += 1
    return moved


@njit(cache=True, nogil=True)
def canonical(key, full, images):  # type: ignore[no-untyped-def]
    """Whether ``key`` is the least of its images under the symmetries and the colour
    swap (which complements every bit): one key per orbit is searched."""
    if key ^ full < key:
        return False
    for g in range(1, images.shape[0]):
        moved = image(key, g, images)
        if moved < key or moved ^ full < key:
            return False
    return True


@njit(cache=True, nogil=True)
def candidates(rows, cols, cells, start, end, wmask, bmask):  # type: ignore[no-untyped-def]
    """Fill a part's masks: ``wmask[layer, v]`` the enumerated-side lines whose crossing
    with line v is a white candidate (its row and column white), ``bmask`` the black ones;
    return the numbers of white and black candidates."""
    wmask[:] = 0
    bmask[:] = 0
    white = 0
    black = 0
    for k in range(start, end):
        in_rows = (rows >> cells[k, 0]) & 1
        in_cols = (cols >> cells[k, 1]) & 1
        if in_rows and in_cols:
            wmask[cells[k, 5], cells[k, 4]] |= np.int64(1) << cells[k, 3]
            white += 1
        elif not in_rows and not in_cols:
            bmask[cells[k, 5], cells[k, 4]] |= np.int64(1) << cells[k, 3]
            black += 1
    return white, black


@njit(cache=True, nogil=True)
def frontier(u_count, v_count, wmask, bmask, cap, need_w, need_b, needs, out, chosen):  # type: ignore[no-untyped-def]
    """``out[w]`` = the most black cells of the part with at least w white ones (w up to
    ``cap``, white counts above it count as ``cap``), -1 where none; ``chosen[w]`` the
    enumerated subset reaching it. Only subsets whose best case meets one of the ``needs``
    requirements (white >= need_w[i] and black >= need_b[i]) are searched: the others
    cannot help. Returns the number of subsets searched."""
    for w in range(cap + 1):
        out[w] = -1
        chosen[w] = -1
    g = np.empty(cap + 1, np.int64)
    h = np.empty(cap + 1, np.int64)
    gains_w = np.empty(v_count, np.int64)
    gains_b = np.empty(v_count, np.int64)
    full = (np.int64(1) << u_count) - 1
    layers = wmask.shape[0]
    first_w = wmask[0]
    first_b = bmask[0]
    searched = 0
    for subset in range(np.int64(1) << u_count):
        most_w = 0
        most_b = 0
        others = full ^ subset
        for v in range(v_count):
            gains_w[v] = popcount(first_w[v] & subset)
            gains_b[v] = popcount(first_b[v] & others)
            for layer in range(1, layers):  # a torus of even side: doubled crossings
                gains_w[v] += popcount(wmask[layer, v] & subset)
                gains_b[v] += popcount(bmask[layer, v] & others)
            most_w += gains_w[v]
            most_b += gains_b[v]
        useful = False
        for i in range(needs):
            if most_w >= need_w[i] and most_b >= need_b[i]:
                useful = True
                break
        if not useful:
            continue
        searched += 1
        for w in range(cap + 1):
            g[w] = -1
        g[0] = 0
        top = 0  # the most white cells so far (capped): g is -1 above it
        for v in range(v_count):
            gain_w = gains_w[v]
            gain_b = gains_b[v]
            reach = min(cap, top + gain_w)
            for w in range(reach + 1):
                h[w] = -1
            for w in range(top + 1):
                black = g[w]
                if black < 0:
                    continue
                if black + gain_b > h[w]:  # line v black
                    h[w] = black + gain_b
                up = min(cap, w + gain_w)  # line v white
                if black > h[up]:
                    h[up] = black
            top = reach
            for w in range(top + 1):
                g[w] = h[w]
        for w in range(top + 1):
            if g[w] > out[w]:
                out[w] = g[w]
                chosen[w] = subset
    for w in range(cap - 1, -1, -1):  # at least w white: the best of every w' >= w
        if out[w + 1] > out[w]:
            out[w] = out[w + 1]
            chosen[w] = chosen[w + 1]
    return searched


@njit(cache=True, nogil=True)
def staircase(combined, cap, later_w, later_b, need_w, need_b):  # type: ignore[no-untyped-def]
    """What the next part must bring so that the parts so far (``combined``, as ``out`` of
    ``frontier``) and the best case of the later parts reach ``cap`` of each colour: one
    requirement per corner of the combined frontier. Returns their number."""
    needs = 0
    for w in range(cap + 1):
        if combined[w] < 0 or (w < cap and combined[w] == combined[w + 1]):
            continue  # unreachable, or dominated by the corner at w + 1
        need_w[needs] = max(0, cap - w - later_w)
        need_b[needs] = max(0, cap - combined[w] - later_b)
        needs += 1
    return needs


@njit(cache=True, nogil=True)
def combine(combined, part, cap, into):  # type: ignore[no-untyped-def]
    """``into[w]`` = the most black cells of both with at least w white (capped)."""
    for w in range(cap + 1):
        into[w] = -1
    for a in range(cap + 1):
        if combined[a] < 0:
            continue
        for b in range(cap + 1):
            if part[b] < 0:
                continue
            w = min(cap, a + b)
            if combined[a] + part[b] > into[w]:
                into[w] = combined[a] + part[b]
    for w in range(cap - 1, -1, -1):
        if into[w + 1] > into[w]:
            into[w] = into[w + 1]


@njit(cache=True, nogil=True)
def side_allows(white, black, target, g, h):  # type: ignore[no-untyped-def]
    """Whether the lines of one side of the diagonals, each coloured alone (a white line
    gives its ``white`` candidates, a black one its ``black``), could give ``target`` of
    each colour: a relaxation (a cell counts on one of its two diagonals only), so a no
    rules the pair out before its parts are searched."""
    g[:] = -1
    g[0] = 0
    for line in range(white.shape[0]):
        h[:] = -1
        for w in range(target + 1):
            if g[w] < 0:
                continue
            if g[w] + black[line] > h[w]:
                h[w] = g[w] + black[line]
            up = min(target, w + white[line])
            if g[w] > h[up]:
                h[up] = g[w]
        g[:] = h
    return g[target] >= target


@njit(cache=True, nogil=True)
def sides_allow(rows, cols, target, cells, part_u, part_v):  # type: ignore[no-untyped-def]
    """``side_allows`` for both sides of the diagonals."""
    u_first = np.zeros(part_u.shape[0] + 1, np.int64)
    v_first = np.zeros(part_v.shape[0] + 1, np.int64)
    for p in range(part_u.shape[0]):
        u_first[p + 1] = u_first[p] + part_u[p]
        v_first[p + 1] = v_first[p] + part_v[p]
    u_white = np.zeros(u_first[-1], np.int64)
    u_black = np.zeros(u_first[-1], np.int64)
    v_white = np.zeros(v_first[-1], np.int64)
    v_black = np.zeros(v_first[-1], np.int64)
    for k in range(cells.shape[0]):
        in_rows = (rows >> cells[k, 0]) & 1
        in_cols = (cols >> cells[k, 1]) & 1
        u = u_first[cells[k, 2]] + cells[k, 3]
        v = v_first[cells[k, 2]] + cells[k, 4]
        if in_rows and in_cols:
            u_white[u] += 1
            v_white[v] += 1
        elif not in_rows and not in_cols:
            u_black[u] += 1
            v_black[v] += 1
    g = np.empty(target + 1, np.int64)
    h = np.empty(target + 1, np.int64)
    return side_allows(v_white, v_black, target, g, h) and side_allows(
        u_white, u_black, target, g, h
    )


@njit(cache=True, nogil=True)
def reaches(rows, cols, target, cells, part_start, part_u, part_v, counts):  # type: ignore[no-untyped-def]
    """Whether some colouring of the diagonals gives ``target`` cells of each colour with
    these rows and columns; ``counts[1]`` gains the subsets searched."""
    if not sides_allow(rows, cols, target, cells, part_u, part_v):
        return False
    parts = part_u.shape[0]
    width = 1
    for p in range(parts):
        width = max(width, part_v[p])
    layers = 1 + cells[:, 5].max() if cells.shape[0] else 1
    wmask = np.empty((parts, layers, width), np.int64)
    bmask = np.empty((parts, layers, width), np.int64)
    part_w = np.empty(parts, np.int64)
    part_b = np.empty(parts, np.int64)
    for p in range(parts):
        part_w[p], part_b[p] = candidates(
            rows, cols, cells, part_start[p], part_start[p + 1], wmask[p], bmask[p]
        )
    combined = np.full(target + 1, -1, np.int64)
    combined[0] = 0
    out = np.empty(target + 1, np.int64)
    chosen = np.empty(target + 1, np.int64)
    merged = np.empty(target + 1, np.int64)
    need_w = np.empty(target + 1, np.int64)
    need_b = np.empty(target + 1, np.int64)
    later_w = part_w.sum()
    later_b = part_b.sum()
    for p in range(parts):
        later_w -= part_w[p]
        later_b -= part_b[p]
        needs = staircase(combined, target, later_w, later_b, need_w, need_b)
        if needs == 0:
            return False
        counts[1] += frontier(
            part_u[p], part_v[p], wmask[p], bmask[p], target, need_w, need_b, needs, out, chosen,
        )  # fmt: skip
        combine(combined, out, target, merged)
        combined[:] = merged
    return combined[target] >= target


@njit(cache=True, nogil=True)
def search_pairs(  # type: ignore[no-untyped-def]
    rows,
    first,
    last,
    target,
    n_cols,
    open_rows,
    cells,
    part_start,
    part_u,
    part_v,
    images,
    counts,
):
    """The first column colouring in [first, last) that, with the row colouring ``rows``,
    reaches ``target`` cells of each colour (one per orbit of the symmetries), or -1.
    ``counts[0]`` gains the pairs whose diagonals were searched, ``counts[1]`` the subsets."""
    n_rows = open_rows.shape[0]
    full = (np.int64(1) << (n_rows + n_cols)) - 1
    all_cols = (np.int64(1) << n_cols) - 1
    for cols in range(first, last):
        white = 0
        black = 0
        for r in range(n_rows):
            if (rows >> r) & 1:
                white += popcount(open_rows[r] & cols)
            else:
                black += popcount(open_rows[r] & (all_cols ^ cols))
        if white < target or black < target:
            continue
        if not canonical((np.int64(rows) << n_cols) | cols, full, images):
            continue
        counts[0] += 1
        if reaches(rows, cols, target, cells, part_start, part_u, part_v, counts):
            return cols
    return -1


@njit(cache=True, nogil=True)
def part_frontier(rows, cols, cells, start, end, u_count, v_count, cap, out, chosen):  # type: ignore[no-untyped-def]
    """A part's whole frontier for one pair (every subset searched): what an answer is
    read back from."""
    layers = 1 + cells[start:end, 5].max()
    wmask = np.empty((layers, v_count), np.int64)
    bmask = np.empty((layers, v_count), np.int64)
    candidates(rows, cols, cells, start, end, wmask, bmask)
    everything = np.zeros(1, np.int64)
    frontier(u_count, v_count, wmask, bmask, cap, everything, everything, 1, out, chosen)
    return wmask, bmask
