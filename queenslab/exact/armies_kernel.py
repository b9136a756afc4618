"""The compiled part of the line-colouring search for peaceable armies (``exact.armies``).

A colouring gives each line of the board one of two colours; a cell is white when its
four lines are white and black when they are all black. ``search_pairs`` walks the
colourings of the rows and the columns (a key: the columns in the low bits, the rows
above them) and asks of each whether some colouring of the diagonals gives at least
``target`` white and ``target`` black cells. A cell is the crossing of one diagonal of
each direction, so the diagonals form a bipartite graph whose edges are the cells: one
side of each connected part is searched depth first (each line white or black), and for
each colouring of that side the other side is a knapsack solved exactly by dynamic
programming (each of its lines gives its white cells or its black cells, never both).

Three bounds keep the work small, each sound, so the answer is exact:

- the candidates: white cells lie on white rows and columns, black ones on black rows
  and columns, so a pair with fewer than ``target`` of either is out at once;
- a relaxation per part: one side of its diagonals coloured alone, each cell counted on
  that side's line only, is a knapsack whose frontier no colouring of the part beats (the
  smaller of the two sides' frontiers is kept); the parts' relaxations combined rule most
  pairs out before any search;
- the parts are searched one after the other, each asked only for what could still reach
  the target with the exact frontiers of the parts before it and the relaxations of the
  parts after it; a node of the depth-first search whose best case (its open lines
  counted on both sides, each line of the other side giving one colour: a knapsack)
  meets no such requirement is cut with all it holds.

Arrays, as ``exact.armies_plan.Plan`` builds them:

- ``open_rows[r]``: the open columns of row r, as bits;
- ``cells[k] = (row, col, part, u, v, layer)``: the open cells sorted by part; ``u``
  indexes the enumerated side of the part, ``v`` the other; on a torus of even side two
  cells cross the same two diagonals, and ``layer`` tells them apart (0 for the first);
- ``part_start`` (parts + 1 offsets into ``cells``), ``part_u`` and ``part_v`` (sizes);
- ``images[g, j, byte]``: the bits that byte ``j`` of a key becomes under symmetry g
  (identity first), so the image of a key is a few table lookups.

A yes needs no whole frontier: a few colourings of each part (``sample``) give points
that some colouring surely reaches, and a part whose search meets what, with them, reaches
the target ends there. So small targets are answered at once at any n, and a yes leaves,
per part, the points an answer is read back from (``front`` and ``chosen``).

Every ``POLL`` nodes or pairs the loops look at ``stop[0]``, a flag another thread sets:
a stop is seen within milliseconds however long the search of one pair. No kernel returns
an array: boxing one runs Python code, where a signal handler's exception (Ctrl-C) was
lost and the call ended in a SystemError; the caller passes every array in.
"""

from __future__ import annotations

import numpy as np

from queenslab.compiled.jit import njit
from queenslab.exact.constellation_kernel import popcount

#: Nodes (or pairs) between two looks at the stop flag.
POLL = 1 << 12
#: What ``reaches`` and ``frontier`` answer: no (or the whole frontier searched), yes (the
#: target is reached), a stop came first; ``search_pairs`` answers STOPPED too.
NO, YES, STOPPED = 0, 1, -2
#: Black cells no part can bring: a requirement that cannot be met.
UNREACHABLE = np.int64(1) << 62


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
def knapsack(white, black, count, cap, g, h):  # type: ignore[no-untyped-def]
    """Each of ``count`` lines gives its ``white`` cells or its ``black`` ones: leave in
    ``g[w]`` the most black cells with w white (white counts above ``cap`` count as
    ``cap``), -1 where none. Returns the largest w reached; ``h`` is scratch."""
    for w in range(cap + 1):
        g[w] = -1
    g[0] = 0
    top = 0  # the most white cells so far (capped): g is -1 above it
    for line in range(count):
        gain_w = white[line]
        gain_b = black[line]
        reach = min(cap, top + gain_w)
        for w in range(reach + 1):
            h[w] = -1
        for w in range(top + 1):
            most = g[w]
            if most < 0:
                continue
            if most + gain_b > h[w]:  # the line black
                h[w] = most + gain_b
            up = min(cap, w + gain_w)  # the line white
            if most > h[up]:
                h[up] = most
        top = reach
        for w in range(top + 1):
            g[w] = h[w]
    return top


@njit(cache=True, nogil=True)
def at_least(out, chosen, cap):  # type: ignore[no-untyped-def]
    """Turn "the most black with w white" into "with at least w white", ``chosen`` (what
    gives each point) along."""
    for w in range(cap - 1, -1, -1):
        if out[w + 1] > out[w]:
            out[w] = out[w + 1]
            chosen[w] = chosen[w + 1]


@njit(cache=True, nogil=True)
def gains(wmask, bmask, v_count, may_w, may_b, gains_w, gains_b):  # type: ignore[no-untyped-def]
    """Per line v of the other side, the white candidates on it whose enumerated line may
    be white (``may_w``) and the black ones whose line may be black; returns their sums."""
    most_w = 0
    most_b = 0
    for v in range(v_count):
        gains_w[v] = 0
        gains_b[v] = 0
        for layer in range(wmask.shape[0]):  # a torus of even side: doubled crossings
            gains_w[v] += popcount(wmask[layer, v] & may_w)
            gains_b[v] += popcount(bmask[layer, v] & may_b)
        most_w += gains_w[v]
        most_b += gains_b[v]
    return most_w, most_b


@njit(cache=True, nogil=True)
def meets(gains_w, gains_b, v_count, cap, need_w, need_b, needs, g, h):  # type: ignore[no-untyped-def]
    """Whether the other side's lines, each giving its ``gains_w`` or its ``gains_b``
    (a knapsack), meet one of the ``needs`` requirements. With a node's best-case gains
    this cuts far more than their sums: a line gives one colour, never both."""
    knapsack(gains_w, gains_b, v_count, cap, g, h)
    for w in range(cap - 1, -1, -1):  # the most black with at least w white
        g[w] = max(g[w], g[w + 1])
    for i in range(needs):  # noqa: SIM110 - a loop, which Numba compiles to plain code
        if g[need_w[i]] >= need_b[i]:
            return True
    return False


@njit(cache=True, nogil=True)
def sample(u_count, v_count, wmask, bmask, cap, out, chosen):  # type: ignore[no-untyped-def]
    """Points of a part's frontier that a few colourings surely reach (``out`` and
    ``chosen`` as ``frontier`` leaves them, -1 where none of them does): the enumerated
    lines white where they hold a white candidate, where they hold more white candidates
    than black, and where they hold no black one; the other side exactly (a knapsack).
    Cheap, and enough for any small target."""
    full = (np.int64(1) << u_count) - 1
    white = np.zeros(u_count, np.int64)
    black = np.zeros(u_count, np.int64)
    for layer in range(wmask.shape[0]):
        for v in range(v_count):
            for u in range(u_count):
                white[u] += (wmask[layer, v] >> u) & 1
                black[u] += (bmask[layer, v] >> u) & 1
    some_white = np.int64(0)
    more_white = np.int64(0)
    no_black = np.int64(0)
    for u in range(u_count):
        bit = np.int64(1) << u
        if white[u] > 0:
            some_white |= bit
        if white[u] > black[u]:
            more_white |= bit
        if black[u] == 0:
            no_black |= bit
    g = np.empty(cap + 1, np.int64)
    h = np.empty(cap + 1, np.int64)
    gains_w = np.empty(v_count, np.int64)
    gains_b = np.empty(v_count, np.int64)
    out[:] = -1
    chosen[:] = -1
    for subset in (some_white, more_white, no_black):
        gains(wmask, bmask, v_count, subset, full ^ subset, gains_w, gains_b)
        top = knapsack(gains_w, gains_b, v_count, cap, g, h)
        for w in range(top + 1):
            if g[w] > out[w]:
                out[w] = g[w]
                chosen[w] = subset
    at_least(out, chosen, cap)


@njit(cache=True, nogil=True)
def frontier(  # type: ignore[no-untyped-def]
    u_count, v_count, wmask, bmask, cap, need_w, need_b, needs, enough, out, chosen, counts, stop
):
    """``out[w]`` = the most black cells of the part with at least w white ones (w up to
    ``cap``, white counts above it count as ``cap``), -1 where none; ``chosen[w]`` the
    enumerated subset reaching it. Only subsets whose best case meets one of the ``needs``
    requirements (white >= need_w[i] and black >= need_b[i]) are searched: the others
    cannot help. Returns YES, the points so far in ``out``, as soon as a subset brings,
    with w white, ``enough[w]`` black (the target is then reached); STOPPED at a stop;
    else NO, ``out`` the whole frontier. ``counts[1]`` gains the knapsacks solved,
    ``counts[2]`` the nodes."""
    out[:] = -1
    chosen[:] = -1
    g = np.empty(cap + 1, np.int64)
    h = np.empty(cap + 1, np.int64)
    gains_w = np.empty(v_count, np.int64)
    gains_b = np.empty(v_count, np.int64)
    full = (np.int64(1) << u_count) - 1
    # Depth first over the enumerated lines, line `depth` next: `white[depth]` holds the
    # lines made white so far; the lines from `depth` on may still go either way, so the
    # best case of a node counts them on both sides, and a node whose best case meets no
    # requirement is cut with all its subsets: first by sums (cheap), then by a knapsack.
    white = np.zeros(u_count + 1, np.int64)
    turn = np.zeros(u_count + 1, np.int64)  # 0: enter, 1: the line white next, 2: black
    depth = 0
    status = NO
    while depth >= 0:
        if turn[depth] == 0:
            counts[2] += 1
            if (counts[2] & (POLL - 1)) == 0 and stop[0]:
                status = STOPPED
                break
            open_ = full ^ ((np.int64(1) << depth) - 1)
            most_w, most_b = gains(
                wmask, bmask, v_count, white[depth] | open_, full ^ white[depth], gains_w, gains_b
            )
            useful = False
            for i in range(needs):
                if most_w >= need_w[i] and most_b >= need_b[i]:
                    useful = True
                    break
            if not useful or (
                depth < u_count
                and not meets(gains_w, gains_b, v_count, cap, need_w, need_b, needs, g, h)
            ):
                depth -= 1
                continue
            if depth == u_count:  # a whole subset: its gains are exact
                counts[1] += 1
                top = knapsack(gains_w, gains_b, v_count, cap, g, h)
                for w in range(top + 1):
                    if g[w] > out[w]:
                        out[w] = g[w]
                        chosen[w] = white[depth]
                    if g[w] >= 0 and g[w] >= enough[w]:
                        status = YES
                if status == YES:
                    break
                depth -= 1
                continue
            turn[depth] = 1
        if turn[depth] == 1:
            turn[depth] = 2
            white[depth + 1] = white[depth] | (np.int64(1) << depth)
        elif turn[depth] == 2:
            turn[depth] = 3
            white[depth + 1] = white[depth]
        else:
            turn[depth] = 0
            depth -= 1
            continue
        depth += 1
        turn[depth] = 0
    at_least(out, chosen, cap)
    return status


@njit(cache=True, nogil=True)
def staircase(combined, cap, need_w, need_b):  # type: ignore[no-untyped-def]
    """What a part must bring so that, with what the other parts may bring (``combined``,
    as ``out`` of ``frontier``), ``cap`` cells of each colour are reached: one
    requirement per corner of ``combined``. Returns their number."""
    needs = 0
    for w in range(cap + 1):
        if combined[w] < 0 or (w < cap and combined[w] == combined[w + 1]):
            continue  # unreachable, or dominated by the corner at w + 1
        need_w[needs] = cap - w
        need_b[needs] = max(0, cap - combined[w])
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
    at_least(into, np.empty(cap + 1, np.int64), cap)


@njit(cache=True, nogil=True)
def relaxations(rows, cols, cells, part_u, part_v, cap, bound):  # type: ignore[no-untyped-def]
    """``bound[p]``: a frontier no colouring of part p's diagonals beats. Each side of
    the part coloured alone, a cell counted on that side's line only, is a knapsack over
    the side's lines; both sides bound the part, so the smaller of the two does."""
    parts = part_u.shape[0]
    lines = max(part_u.max(), part_v.max())
    white = np.zeros((parts, 2, lines), np.int64)
    black = np.zeros((parts, 2, lines), np.int64)
    for k in range(cells.shape[0]):
        in_rows = (rows >> cells[k, 0]) & 1
        in_cols = (cols >> cells[k, 1]) & 1
        p = cells[k, 2]
        if in_rows and in_cols:
            white[p, 0, cells[k, 3]] += 1
            white[p, 1, cells[k, 4]] += 1
        elif not in_rows and not in_cols:
            black[p, 0, cells[k, 3]] += 1
            black[p, 1, cells[k, 4]] += 1
    g = np.empty(cap + 1, np.int64)
    h = np.empty(cap + 1, np.int64)
    scratch = np.empty(cap + 1, np.int64)
    for p in range(parts):
        knapsack(white[p, 0], black[p, 0], part_u[p], cap, g, h)
        at_least(g, scratch, cap)
        bound[p, :] = g
        knapsack(white[p, 1], black[p, 1], part_v[p], cap, g, h)
        at_least(g, scratch, cap)
        for w in range(cap + 1):
            bound[p, w] = min(bound[p, w], g[w])


@njit(cache=True, nogil=True)
def suffixes(fronts, cap, into):  # type: ignore[no-untyped-def]
    """``into[p]``: the frontiers of parts p.. combined (``into[parts]``: nothing)."""
    parts = fronts.shape[0]
    into[parts, :] = -1
    into[parts, 0] = 0
    for p in range(parts - 1, -1, -1):
        combine(into[p + 1], fronts[p], cap, into[p])


@njit(cache=True, nogil=True)
def reaches(  # type: ignore[no-untyped-def]
    rows, cols, target, cells, part_start, part_u, part_v, counts, stop, front, chosen
):
    """YES when some colouring of the diagonals gives ``target`` cells of each colour with
    these rows and columns, else NO (STOPPED: a stop came first); ``counts`` gains the
    knapsacks and nodes (``frontier``). After a yes, ``front[p]`` and ``chosen[p]`` hold
    points of part p (as ``frontier``'s ``out`` and ``chosen``) that together reach the
    target.

    The parts are searched one after the other; each is asked only for what could still
    reach the target with the parts searched (their exact frontiers, combined) and the
    parts after it (their relaxations): most pairs end before any search, and most
    subsets of the first part are never searched. Each ends as soon as, with the parts
    searched and the points surely reached by the parts after it (``sample``), the target
    is reached."""
    parts = part_u.shape[0]
    bound = np.empty((parts, target + 1), np.int64)
    relaxations(rows, cols, cells, part_u, part_v, target, bound)
    later = np.empty((parts + 1, target + 1), np.int64)  # the relaxations of parts p..
    suffixes(bound, target, later)
    if later[0, target] < target:
        return NO
    width = part_v.max()
    layers = 1 + cells[:, 5].max()
    wmask = np.empty((layers, width), np.int64)
    bmask = np.empty((layers, width), np.int64)
    lower = np.empty((parts, target + 1), np.int64)  # the points each part surely reaches
    lower_chosen = np.empty((parts, target + 1), np.int64)
    for p in range(parts):
        candidates(rows, cols, cells, part_start[p], part_start[p + 1], wmask, bmask)
        sample(part_u[p], part_v[p], wmask, bmask, target, lower[p], lower_chosen[p])
    surely = np.empty((parts + 1, target + 1), np.int64)  # those of parts p.., combined
    suffixes(lower, target, surely)
    if surely[0, target] >= target:
        front[:parts] = lower
        chosen[:parts] = lower_chosen
        return YES
    combined = np.full(target + 1, -1, np.int64)
    combined[0] = 0
    ahead = np.empty(target + 1, np.int64)
    sure = np.empty(target + 1, np.int64)
    enough = np.empty(target + 1, np.int64)
    merged = np.empty(target + 1, np.int64)
    need_w = np.empty(target + 1, np.int64)
    need_b = np.empty(target + 1, np.int64)
    for p in range(parts):
        combine(combined, later[p + 1], target, ahead)
        needs = staircase(ahead, target, need_w, need_b)
        if needs == 0:
            return NO
        combine(combined, surely[p + 1], target, sure)
        for w in range(target + 1):
            rest = sure[target - w]
            enough[w] = target - rest if rest >= 0 else UNREACHABLE
        candidates(rows, cols, cells, part_start[p], part_start[p + 1], wmask, bmask)
        found = frontier(
            part_u[p], part_v[p], wmask, bmask, target, need_w, need_b, needs, enough,
            front[p], chosen[p], counts, stop,
        )  # fmt: skip
        if found != NO:
            front[p + 1 : parts] = lower[p + 1 :]
            chosen[p + 1 : parts] = lower_chosen[p + 1 :]
            return found
        combine(combined, front[p], target, merged)
        combined[:] = merged
    return YES if combined[target] >= target else NO


@njit(cache=True, nogil=True)
def search_pairs(  # type: ignore[no-untyped-def]
    rows,
    target,
    n_cols,
    open_rows,
    cells,
    part_start,
    part_u,
    part_v,
    images,
    counts,
    stop,
    front,
    chosen,
):
    """The first column colouring that, with the row colouring ``rows``, reaches
    ``target`` cells of each colour (one per orbit of the symmetries), -1 when none does,
    STOPPED when ``stop[0]`` came first; ``front`` and ``chosen`` as ``reaches`` leaves
    them for the one found. ``counts[0]`` gains the pairs whose diagonals were searched,
    ``counts[1]`` and ``counts[2]`` the knapsacks solved and nodes visited
    (``frontier``)."""
    n_rows = open_rows.shape[0]
    full = (np.int64(1) << (n_rows + n_cols)) - 1
    all_cols = (np.int64(1) << n_cols) - 1
    white_rows = popcount(np.int64(rows))
    for cols in range(np.int64(1) << n_cols):
        if (cols & (POLL - 1)) == 0 and stop[0]:
            return STOPPED
        white_cols = popcount(cols)  # at most this many candidates of each colour:
        if white_rows * white_cols < target or (
            (n_rows - white_rows) * (n_cols - white_cols) < target
        ):
            continue
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
        found = reaches(
            rows, cols, target, cells, part_start, part_u, part_v, counts, stop, front, chosen
        )
        if found == STOPPED:
            return STOPPED
        if found == YES:
            return cols
    return -1
