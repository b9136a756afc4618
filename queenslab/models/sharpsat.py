"""Exact model counting without enumeration: Ganak (pyganak) on the N-queens CNF.

The count is projected on the board variables 1..n²; otherwise every assignment of the
encoding's auxiliary variables would count as a model of its own. Ganak prints "c o" lines
on standard output for some inputs, so its output descriptor is sent to /dev/null while it
runs: stdout belongs to the CLI's answer. Ganak has no time limit and cannot be stopped, so
every count runs in a forked child that is ended at the deadline, on a stop or on Ctrl-C.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, ClassVar

from queenslab.backend import Backend, Capability, Family
from queenslab.boards import VARIANTS
from queenslab.models import cnf
from queenslab.models.cubes import leave_sigint_to_parent
from queenslab.problem import Problem
from queenslab.result import CountResult, Status
from queenslab.run import Run

_POLL_SECONDS = 0.05  # how often the parent looks at the clock and for Ctrl-C


@contextmanager
def _quiet_stdout() -> Iterator[None]:
    """Silence file descriptor 1 (C++ code writes there directly, bypassing sys.stdout)."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as sink:
            os.dup2(sink.fileno(), 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def _send_count(counter: Any, sender: Any) -> None:
    leave_sigint_to_parent()
    with _quiet_stdout():
        total = int(counter.count())
    sender.send(total)


def _count_in_child(counter: Any, run: Run) -> int | None:
    """The count from a forked child, or None when the run had to stop first.

    Ganak has neither a time limit nor an interrupt, and a main thread inside it sees no
    Ctrl-C: the parent waits in short slices, looking at the run between them, and ends
    the child on a stop, the deadline or Ctrl-C.
    """
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_send_count, args=(counter, sender), daemon=True)
    child.start()
    sender.close()
    try:
        while not receiver.poll(_POLL_SECONDS):
            if run.should_stop():
                return None
            if not child.is_alive() and not receiver.poll():
                raise RuntimeError(f"Ganak ended without a count (exit code {child.exitcode})")
        return receiver.recv()
    finally:
        if child.is_alive():
            child.kill()  # Ganak runs native code: a Python SIGTERM handler never would
        child.join()


class SharpSatBackend(Backend):
    name = "sharpsat"
    family = Family.MODEL
    capabilities = frozenset({Capability.COUNT, Capability.GIVENS, Capability.BLOCKED})
    variants = frozenset(VARIANTS)
    summary = "Ganak #SAT counter on the CNF, projected on the board (cross-validation)"
    requires: ClassVar[Mapping[str, str]] = {"pyganak": "pyganak", "pysat": "python-sat"}
    options = (cnf.ENCODING_OPTION,)

    def load(self) -> None:
        import pyganak  # noqa: F401

    def count(self, problem: Problem, run: Run, unique: bool = False) -> CountResult:
        from pyganak import Counter

        n = problem.n
        with run.phase("build"):
            body, top = cnf.clauses(problem, self.settings["encoding"])
            counter = Counter()
            counter.new_vars(top)
            counter.add_clauses(body)
            counter.set_sampling_set(range(1, n * n + 1))
        run.stats.add(variables=top, constraints=len(body), auxiliary_variables=top - n * n)
        total = _count_in_child(counter, run)
        return CountResult(total, status=Status.SOLVED if total is not None else Status.LIMIT)
