"""The counting kernel's work space, known to the kernel and to the callers that allocate it.

A module of its own because the callers that run the saved machine code
(``constellations``) must not import the kernel module, which imports Numba.
"""

#: Work space of the counting kernel per board row, in int64 words: its per-row masks,
#: inner rows, row table and stack (constellation_kernel.py).
WORK_PER_ROW = 16
