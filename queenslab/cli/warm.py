"""``queens warm``: compile every kernel once, so that no later command pauses to compile.

Each command compiled the kernels it ran at its own first run: a count, a cross-check, a
min-conflicts solve paused 10 to 30 s each in a first hour. Here every built-in backend
loads its kernels (``Backend.load`` runs each on a tiny board, with the argument types its
searches pass) and the kernels outside the backends run on tiny inputs, all into the one
cache that every command and every copy of the package share (``compiled.jit``). A bar
on a terminal, nothing when piped; then where the cache is, on stdout.
"""

from __future__ import annotations

import argparse
import io
import time
from collections.abc import Callable

from queenslab.cli import arguments as a
from queenslab.core.errors import ExitCode
from queenslab.runtime import progress

HELP = "compile every kernel now, once for every later command"
EXAMPLES = """examples:
  queens warm
  NUMBA_CACHE_DIR=/tmp/kernels queens warm"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """No options: it compiles everything there is."""


def run(args: argparse.Namespace) -> int:
    from queenslab.compiled.native import cache_root

    steps = _steps()
    with progress.progress_bar("compiling kernels") as bar:
        for done, (name, step) in enumerate(steps):
            started = time.perf_counter()
            step()
            a.say(args, f"{name}: {time.perf_counter() - started:.1f} s")
            if bar is not None:
                bar(done + 1, len(steps))
    print(f"kernels compiled into {cache_root()}")
    return ExitCode.OK


def _steps() -> list[tuple[str, Callable[[], object]]]:
    """The built-in backends that can run here, then the kernels no backend loads."""
    from queenslab import registry

    steps: list[tuple[str, Callable[[], object]]] = []
    for info in registry.backends():
        cls = registry.backend_class(info.name)
        if info.available and cls.__module__.startswith("queenslab."):
            steps.append((info.name, cls().load))
    return [*steps, ("proofs", _proofs), ("validation", _validation), ("covers", _covers),
            ("las-vegas study", _las_vegas_study)]  # fmt: skip


def _proofs() -> None:
    """DRAT to LRAT and the LRAT check (``queens decide --proof``, ``check-proof``): a
    two-variable refutation beside a chain of implications longer than the reader's first
    hash table, so that the table grows."""
    from queenslab.proofs import drat, lrat

    chain = [(-v, v + 1) for v in range(3, drat.FIRST_CLAUSES + 3)]
    formula = [(1, 2), (1, -2), (-1, 2), (-1, -2), *chain]
    written = io.StringIO()
    drat.to_lrat(formula, ["1 0", "d -3 4 0", "0"], written)
    lrat.check(formula, written.getvalue().splitlines(keepends=True))


def _validation() -> None:
    """The one-pass check of huge boards, on the answers of the searches that reach them."""
    from queenslab import api
    from queenslab.boards.base import KERNEL_FROM

    for backend in ("explicit", "min-conflicts"):
        api.solve(KERNEL_FROM, backend=backend, seed=0)


def _covers() -> None:
    """Exact cover (colourings: ``problems.coloring_exact_cover``, the folded search)."""
    from queenslab.exact.dancing_cells import first_cover
    from queenslab.problems.coloring_symmetric import colouring

    first_cover([[0], [1], [0, 1]], 2)
    colouring(5, ("rot180",))


def _las_vegas_study() -> None:
    """``queens lv-study``'s batches of trials."""
    from queenslab.lab.lv_study import monte_carlo_rows

    monte_carlo_rows(4, 2, 0)
