"""The defaults measured by benchmarks/defaults.py: generated, never edited by hand.

Each run had the CPU seconds of its kind's BUDGET; proven runs are ranked by CPU seconds,
the frontier's too (SOURCES: ``--frontier``, with a budget of their own). Each kind's rows
come from the run named in SOURCES.
"""

from typing import Any

#: Kind -> the CPU seconds each run had: a backend's reach is the largest n it proved
#: within them.
BUDGET = {"independent-domination": 8.0, "domination": 8.0, "coloring": 8.0, "peaceable": 8.0}
#: Kind -> ((first n, last n, backend, model, symmetry, start), ...): the fastest setting
#: (start "heuristic": graph-search's answer first; model, symmetry and start None: the
#: backend's own search).
BEST: dict[str, list[tuple[Any, ...]]] = {
    "independent-domination": [(1, 1000000000, "independent-search", None, None, None)],
    "domination": [
        (1, 10, "sat", "hilbert", "lex-leader", "none"),
        (11, 12, "sat", "hilbert", "lex-leader", "heuristic"),
        (13, 13, "sat", "hilbert", "lex-leader", "none"),
        (14, 1000000000, "sat", "lines", "lex-leader", "heuristic"),
    ],
    "coloring": [
        (1, 7, "cpsat", "exact-cover", "none", "none"),
        (8, 1000000000, "sat", "exact-cover", "none", "heuristic"),
    ],
    "peaceable": [
        (1, 6, "sat", "lines", "lex-leader", "none"),
        (7, 1000000000, "armies", None, None, None),
    ],
}
#: Kind -> backend -> ((first n, last n, model, symmetry, start), ...): its fastest setting.
SETTINGS = {
    "independent-domination": {
        "cpsat": [
            (1, 12, "lines", "none", "none"),
            (13, 1000000000, "lines", "lex-leader", "none"),
        ],
        "milp": [(1, 1000000000, "cells", "none", "none")],
        "maxsat": [
            (1, 10, "cells", "lex-leader", "none"),
            (11, 1000000000, "hilbert", "lex-leader", "none"),
        ],
        "sat": [
            (1, 12, "hilbert", "none", "none"),
            (13, 1000000000, "lines", "lex-leader", "none"),
        ],
        "portfolio": [
            (1, 12, "hilbert", "none", "none"),
            (13, 1000000000, "lines", "lex-leader", "none"),
        ],
    },
    "domination": {
        "cpsat": [
            (1, 12, "lines", "none", "none"),
            (13, 1000000000, "lines", "lex-leader", "none"),
        ],
        "milp": [(1, 10, "hilbert", "none", "none"), (11, 1000000000, "lines", "none", "none")],
        "maxsat": [(1, 1000000000, "hilbert", "lex-leader", "none")],
        "sat": [
            (1, 10, "hilbert", "lex-leader", "none"),
            (11, 12, "hilbert", "lex-leader", "heuristic"),
            (13, 13, "hilbert", "lex-leader", "none"),
            (14, 1000000000, "lines", "lex-leader", "heuristic"),
        ],
        "portfolio": [
            (1, 10, "hilbert", "none", "none"),
            (11, 12, "lines", "lex-leader", "none"),
            (13, 1000000000, "hilbert", "lex-leader", "none"),
        ],
    },
    "coloring": {
        "cpsat": [
            (1, 7, "exact-cover", "none", "none"),
            (8, 1000000000, "exact-cover", "none", "heuristic"),
        ],
        "milp": [
            (1, 7, "exact-cover", "none", "none"),
            (8, 1000000000, "exact-cover", "none", "heuristic"),
        ],
        "maxsat": [
            (1, 7, "exact-cover", "none", "none"),
            (8, 1000000000, "exact-cover", "none", "heuristic"),
        ],
        "sat": [
            (1, 7, "exact-cover", "none", "none"),
            (8, 1000000000, "exact-cover", "none", "heuristic"),
        ],
        "portfolio": [(1, 1000000000, "exact-cover", "none", "heuristic")],
    },
    "peaceable": {
        "cpsat": [
            (1, 6, "basic", "lex-leader", "none"),
            (7, 1000000000, "lines", "lex-leader", "none"),
        ],
        "milp": [(1, 1000000000, "basic", "none", "none")],
        "maxsat": [(1, 1000000000, "basic", "lex-leader", "none")],
        "sat": [(1, 1000000000, "lines", "lex-leader", "none")],
        "portfolio": [(1, 1000000000, "basic", "lex-leader", "none")],
    },
}
#: Kind -> backend -> the largest n proven within BUDGET (0: none of the n measured).
REACH = {
    "independent-domination": {
        "cpsat": 13,
        "milp": 11,
        "maxsat": 11,
        "sat": 13,
        "portfolio": 13,
        "independent-search": 13,
    },
    "domination": {"cpsat": 13, "milp": 13, "maxsat": 11, "sat": 13, "portfolio": 13},
    "coloring": {"cpsat": 10, "milp": 10, "maxsat": 10, "sat": 10, "portfolio": 10},
    "peaceable": {"cpsat": 7, "milp": 6, "maxsat": 7, "sat": 7, "portfolio": 7, "armies": 12},
}
#: Kind -> the command, machine and time that measured its rows.
SOURCES = {
    "independent-domination": (
        "python benchmarks/defaults.py --n independent-domination:9,11,13 "
        "--backends independent-search --frontier independent-domination:15 "
        "--frontier-budget 60 --write --log /tmp/hd/defaults2.jsonl on vm: AMD "
        "EPYC, 2 cores, Python 3.11.7, load average 13.84, 2026-11-29 00:39 UTC"
    ),
    "domination": (
        "python benchmarks/defaults.py --n domination:9,11,13 --backends sat "
        "--frontier domination:14 --frontier-budget 200 --write --resume "
        "/tmp/mine/bench/domination.jsonl --log "
        "/tmp/mine/bench/domination2.jsonl on vm: AMD EPYC, 2 cores, Python "
        "3.11.7, load average 9.77, 2026-11-28 21:01 UTC"
    ),
    "coloring": (
        "python benchmarks/defaults.py --n coloring:7,8,10 --frontier "
        "coloring:12 --frontier-budget 300 --write --resume "
        "/tmp/mine/bench/coloring.jsonl --log /tmp/mine/bench/coloring2.jsonl "
        "on vm: AMD EPYC, 2 cores, Python 3.11.7, load average 11.43, "
        "2026-11-28 20:50 UTC"
    ),
    "peaceable": (
        "python benchmarks/defaults.py --n peaceable:6,7,9,10,11,12 --write "
        "--log /tmp/bench/defaults2.jsonl on vm: AMD EPYC, 2 cores, Python "
        "3.11.7, load average 1.32, 2026-11-28 06:41 UTC"
    ),
}
