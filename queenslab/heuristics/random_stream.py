"""A seeded splitmix64 stream that shows its next draws, so kernels can prefetch.

A kernel whose next memory address depends on a random number can only prefetch it if it
knows that number in advance. The stream keeps its next ``AHEAD`` outputs in a ring
(``peek``); ``draw`` hands out the oldest and computes a new one. The sequence of draws
is plain splitmix64 whatever the kernels peek at, so a seed always gives the same board.

State (caller-owned, so kernels can run in chunks): ``[counter, position, ring...]``.
"""

from __future__ import annotations

import numpy as np

from queenslab.compiled.jit import njit

#: Draws visible in advance (a power of two).
AHEAD = 16
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_HALF = np.uint64(32)


@njit(inline="always")
def _splitmix(counter):
    z = counter
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _fill(state):
    for k in range(AHEAD):
        state[0] += _GOLDEN
        state[2 + k] = _splitmix(state[0])


def new_stream(seed: int | None) -> np.ndarray:
    """The stream for ``seed``; ``None`` behaves as 0 so runs stay reproducible."""
    state = np.zeros(2 + AHEAD, dtype=np.uint64)
    state[0] = (seed or 0) & 0xFFFFFFFFFFFFFFFF
    _fill(state)
    return state


@njit(inline="always")
def draw(state):
    """The next 64 random bits."""
    slot = 2 + np.int64(state[1] & np.uint64(AHEAD - 1))
    value = state[slot]
    state[0] += _GOLDEN
    state[slot] = _splitmix(state[0])
    state[1] += np.uint64(1)
    return value


@njit(inline="always")
def peek(state, ahead):
    """What ``draw`` will return after ``ahead`` more draws (0 <= ahead < AHEAD)."""
    return state[2 + np.int64((state[1] + np.uint64(ahead)) & np.uint64(AHEAD - 1))]


@njit(inline="always")
def below(bits, k):
    """An integer in [0, k) from 64 random bits, for 0 < k < 2^32 (multiply, no division).

    Lemire's multiply-shift on the top 32 bits: no value is more than k / 2^32 likelier
    than another, far below anything a local search notices.
    """
    return np.int64(((bits >> _HALF) * np.uint64(k)) >> _HALF)
