"""The GPU counter's host side: the constellation plan cut into batches, batches into states.

The GPU counts from the plan the CPU counter uses (constellations.py): one border
constellation per symmetry orbit, with its weight. Consecutive constellations form a
*batch*, the unit of a launch sequence, of a Dask task and of a checkpoint row. A batch is
counted by turning each of its constellations into a *state* (the rows still to fill, the
cells the queens placed attack) and expanding the states row by row on the host until
there are enough of them to keep a GPU busy and each is small enough to finish in a
fraction of a launch; the device (gpu_kernel.cu) then searches every state, one per
thread, and sums the solutions times the constellation's weight.

Counting classes follows the CPU counter's rule: a constellation that no symmetry fixes
has as many classes as solutions, so it goes to the device; one that a symmetry fixes
goes, in a batch of its own, to the CPU kernels' general search, which sees each solution.

The expansion follows the kernel's rules exactly (a queen is a node, the last row's
included; a queen whose next row has no free cell goes no further; states with three rows
or fewer are left to the kernel), so the nodes counted do not depend on how deep the host
went.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from queenslab.exact.constellations import Constellations

Array = np.ndarray
#: The kernel's masks are 32-bit: one bit per column.
MAX_N = 32
#: A batch's states: expanded until there are this many (an H100 holds about 2^18 threads
#: at once) and none has more than ``MAX_ROWS_LEFT`` rows to fill, so one state is a small
#: part of a launch; never past ``MAX_STATES`` (25 bytes a state), which a step, at most n
#: new states for one, cannot overshoot.
MIN_STATES = 1 << 18
MAX_ROWS_LEFT = 16
MAX_STATES = 1 << 26
#: Batches of a count up to n = 20; each size past it has 4 times more (its work grows
#: about 8 times), so a batch stays a second or so of an H100's time.
BATCHES_UP_TO_20 = 8
_POP16 = np.array([bin(x).count("1") for x in range(1 << 16)], dtype=np.uint8)


class Device(Protocol):
    """Where the states of a batch are searched: a GPU, or the CPU build in the tests."""

    def count(self, states: States, stop: Array) -> tuple[int, int, int] | None:
        """(weighted solutions, solutions, nodes) of all ``states``; None when ``stop[0]``
        was set before they were all searched."""
        ...


@dataclass(frozen=True)
class States:
    """Partial placements, one per future thread, as the kernel reads them (one array per
    field, so the threads of a warp read neighbouring words)."""

    n: int
    rows: Array  # uint32: rows still to fill
    down: Array  # uint32: columns taken
    d1: Array  # uint64: bit r + c for each queen (r, c)
    d2: Array  # uint64: bit c - r + n - 1
    weight: Array  # uint8: the constellation's orbit size

    def __len__(self) -> int:
        return len(self.rows)

    def levels(self) -> int:
        """Frames a thread's stack needs: the most rows a state has to fill, less one (at
        least one)."""
        return max(1, int(popcount(self.rows).max(initial=0)) - 1)

    def by_shape(self) -> States:
        """The states sorted by their rows to fill, so the threads of a warp, which claim
        neighbouring states, search boards of one depth and shape."""
        return self.pick(np.argsort(self.rows, kind="stable"))

    def pick(self, ids: Array) -> States:
        """The states ``ids`` (indices or a mask), in that order."""
        return States(
            self.n, self.rows[ids], self.down[ids], self.d1[ids], self.d2[ids], self.weight[ids]
        )


def start(part: Constellations) -> States:
    """One state per constellation: its three or four border queens placed."""
    n, (i, j, k, l) = part.n, part.border.T  # noqa: E741
    m = n - 1
    edge = (np.zeros_like(i), np.full_like(i, m))
    cells = ((edge[0], i), (edge[1], j), (k, edge[0]), (l, edge[1]))  # (row, column) arrays
    inner = np.uint32(((1 << m) - 1) & ~1)  # rows 1 .. n - 2
    rows = np.full(len(part), inner, dtype=np.uint32)
    down = np.zeros(len(part), dtype=np.uint32)
    d1 = np.zeros(len(part), dtype=np.uint64)
    d2 = np.zeros(len(part), dtype=np.uint64)
    one = np.uint64(1)
    for r, c in cells:  # a corner queen appears twice: or-ing it again changes nothing
        rows &= ~(np.uint32(1) << r.astype(np.uint32))
        down |= np.uint32(1) << c.astype(np.uint32)
        d1 |= one << (r + c).astype(np.uint64)
        d2 |= one << (c - r + m).astype(np.uint64)
    return States(n, rows, down, d1, d2, part.weight.astype(np.uint8))


def popcount(x: Array) -> Array:
    """Set bits of each uint32."""
    counts: Array = _POP16[x & 0xFFFF].astype(np.int64) + _POP16[x >> 16]
    return counts


def _lowest(x: Array) -> Array:
    """Index of the lowest set bit of each (nonzero) uint32."""
    return np.frexp((x & (~x + np.uint32(1))).astype(np.float64))[1].astype(np.uint64) - 1


def _highest(x: Array) -> Array:
    """Index of the highest set bit of each (nonzero) uint32."""
    return np.frexp(x.astype(np.float64))[1].astype(np.uint64) - 1


def _free(s: States, r: Array) -> Array:
    """The cells of row ``r`` (one per state) that no queen attacks."""
    attacked = s.down.astype(np.uint64) | (s.d1 >> r) | (s.d2 >> (np.uint64(s.n - 1) - r))
    free: Array = (~attacked & np.uint64((1 << s.n) - 1)).astype(np.uint32)
    return free


def step(s: States) -> tuple[States, int]:
    """Place the queen of the first open row of every state with four rows or more to fill:
    the states with fewer, unchanged, then the new ones (those whose next row keeps a free
    cell); and the queens placed."""
    deep = popcount(s.rows) >= 4
    keep, go = s.pick(~deep), s.pick(deep)
    r = _lowest(go.rows)
    rows = go.rows & ~(np.uint32(1) << r.astype(np.uint32))
    nxt = _lowest(rows)
    free = _free(go, r)
    parts, placed = [keep], 0
    for c in range(s.n):
        ids = np.flatnonzero(free >> np.uint32(c) & np.uint32(1))
        if not len(ids):
            continue
        placed += len(ids)
        bit = np.uint64(1 << c)
        rr = r[ids]
        child = States(
            s.n, rows[ids], go.down[ids] | np.uint32(1 << c), go.d1[ids] | (bit << rr),
            go.d2[ids] | ((bit << np.uint64(s.n - 1)) >> rr), go.weight[ids],
        )  # fmt: skip
        parts.append(child.pick(_free(child, nxt[ids]) != 0))
    return _concat(s.n, parts), placed


def expand(s: States) -> tuple[States, int]:
    """Step until the states are many and small enough (see MIN_STATES); the queens placed."""
    placed = 0
    while len(s) * s.n <= MAX_STATES:
        left = popcount(s.rows)
        if not (left >= 4).any() or (len(s) >= MIN_STATES and left.max() <= MAX_ROWS_LEFT):
            break
        s, more = step(s)
        placed += more
    return s, placed


def _concat(n: int, parts: list[States]) -> States:
    fields = ("rows", "down", "d1", "d2", "weight")
    return States(n, *(np.concatenate([getattr(p, f) for p in parts]) for f in fields))


def default_batch(n: int, size: int) -> int:
    """Constellations per batch for a plan of ``size`` of them (see BATCHES_UP_TO_20)."""
    batches: int = BATCHES_UP_TO_20 * 4 ** max(0, n - 20)
    return max(1, -(-size // batches))


@dataclass(frozen=True)
class Batches:
    """A count split into batches of constellations (parallel.Plan): ids 0..len-1.

    ``constellations`` is in batch order: batch b holds rows bounds[b]:bounds[b + 1].
    Batches marked ``on_host`` (one constellation fixed by a symmetry, when counting classes)
    go to the CPU kernels, the others to ``device``.
    """

    constellations: Constellations
    bounds: Array
    on_host: Array
    device: Device

    method = "constellation batches"

    @property
    def n(self) -> int:
        return self.constellations.n

    def __len__(self) -> int:
        return len(self.bounds) - 1

    def take(self, ids: Array) -> Batches:
        """A self-contained part (small enough to ship to a Dask worker)."""
        sizes = np.diff(self.bounds)[ids]
        rows = [np.arange(self.bounds[b], self.bounds[b + 1]) for b in ids]
        members = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
        bounds = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        return Batches(self.constellations.take(members), bounds, self.on_host[ids], self.device)

    def fingerprint(self) -> str:
        """The plan's digest with the cut into batches: a checkpoint refuses any other."""
        digest = hashlib.sha256(f"{self.method}|{self.constellations.fingerprint()}|".encode())
        for array in (self.bounds, self.on_host):
            digest.update(np.ascontiguousarray(array, dtype=np.int64).tobytes())
        return digest.hexdigest()

    def count(self, stop: Array) -> Array:
        """Rows of (total, unique, nodes) per batch, nodes -1 where ``stop[0]`` came first."""
        result = np.zeros((len(self), 3), dtype=np.int64)
        result[:, 2] = -1
        for b in range(len(self)):
            if stop[0]:
                break
            part = self.constellations.take(np.arange(self.bounds[b], self.bounds[b + 1]))
            if self.on_host[b]:
                rows = part.count(stop)
                if (rows[:, 2] < 0).any():
                    break
                result[b] = rows.sum(axis=0)
                continue
            states, placed = expand(start(part))
            found = self.device.count(states.by_shape(), stop)
            if found is None:
                break
            total, solutions, nodes = found
            result[b] = total, solutions, len(part) + placed + nodes  # a border is one node
        return result


def batches(plan: Constellations, device: Device, batch: int | None = None) -> Batches:
    """Cut ``plan`` into batches of ``batch`` constellations (default: ``default_batch``).

    When the plan counts classes, each constellation fixed by a symmetry is a batch of its
    own for the CPU kernels, spread evenly among the device's batches, so the threads that
    take batches in order keep the GPU busy while they count them.
    """
    on_host = plan.stabilizer != 1 if plan.unique else np.zeros(len(plan), dtype=bool)
    host, rest = np.flatnonzero(on_host), np.flatnonzero(~on_host)
    size = batch or default_batch(plan.n, len(rest))
    groups = [rest[s : s + size] for s in range(0, len(rest), size)]
    devices = len(groups)
    places = [b + 0.5 for b in range(devices)]  # host batch i goes at i * devices / len(host)
    places += [i * devices / len(host) for i in range(len(host))]
    groups += [host[i : i + 1] for i in range(len(host))]
    order = np.argsort(places, kind="stable")
    bounds = np.concatenate([[0], np.cumsum([len(groups[g]) for g in order])]).astype(np.int64)
    members = np.concatenate([groups[g] for g in order]) if len(order) else rest
    return Batches(plan.take(members), bounds, order >= devices, device)
