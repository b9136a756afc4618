"""One call's run: its seed, a deadline that covers the whole call, a stop signal of its
own, the statistics the backend reports, and a progress callback.

The deadline starts when the call starts, so building and loading a model count against
``time_limit`` as much as the search does. The stop signal belongs to this run alone: two
counts in one process never stop each other. Compiled kernels poll ``stop_flag``, a
one-byte array that ``stop()`` and an expired deadline both set (``runtime.stop.watch``
sets it from a thread for kernels that never look at the clock).

A CPU limit (``cpu_limit``) counts the CPU seconds of this process and its finished
children, so runs on a shared machine compare; a forked child counts its own from where
the parent left off (``forked_child``). An anytime search tells what it learns (a better
answer, a better bound) through ``learn``: the run keeps the best of it, so a limit or
Ctrl-C still has an answer to give, and ``on_news`` shows it (a live line, a log).
"""

from __future__ import annotations

import math
import numbers
import resource
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from queenslab.core.errors import UsageError
from queenslab.core.integers import integer
from queenslab.core.stats import Stats

if TYPE_CHECKING:
    import numpy as np

#: Called with the number of finished work units and their total (None when unknown).
ProgressCallback = Callable[[int, int | None], None]
#: The shortest time limit taken: below it no search can even start.
MIN_TIME_LIMIT = 0.001


def check_time_limit(seconds: Any, what: str = "time limit") -> float | None:
    """The time limit as a float: a real number (Python or NumPy, not a bool or a string)
    of at least ``MIN_TIME_LIMIT`` seconds, or None for none."""
    if seconds is None:
        return None
    real = isinstance(seconds, numbers.Real) and not isinstance(seconds, bool)
    if not (real and math.isfinite(seconds) and seconds >= MIN_TIME_LIMIT):
        raise UsageError(
            f"{what} must be a finite number of seconds >= {MIN_TIME_LIMIT}, got {seconds!r}"
        )
    return float(seconds)


def cpu_seconds() -> float:
    """CPU seconds (user and system) of this process's threads and of its children that
    have ended and been waited for."""
    own, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                         resource.RUSAGE_CHILDREN))  # fmt: skip
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@dataclass(frozen=True)
class News:
    """What an anytime search knows at one moment: its best answer (the kind's answer and
    its value) and the best bound proven, each None while unknown."""

    objective: int | None = None
    answer: Any = None
    bound: int | None = None
    #: What the run searches with, when a rule chose it (``Run.choose``): the model, the
    #: symmetry breaking, the backend, and why.
    setting: str | None = None


#: Called with the event (``solution``: a better answer, ``bound``: a better bound,
#: ``chosen``: the setting was chosen, ``tick``: nothing new, time passes), what the run
#: knows now, and the seconds since the run began.
NewsCallback = Callable[[str, News, float], None]


def never() -> bool:
    """A ``should_stop`` that never says stop: for work that must run to its end."""
    return False


class Run:
    """How one call searches, and what it tells about the search."""

    def __init__(
        self,
        seed: int | None = None,
        time_limit: float | None = None,
        progress: ProgressCallback | None = None,
        profile: bool = False,
        cpu_limit: float | None = None,
        on_news: NewsCallback | None = None,
    ) -> None:
        self.seed = None if seed is None else integer(seed, "seed", 0)
        #: Asked for the tree profile: stats["profile"][d] = nodes at depth d (d queens).
        self.profile = profile
        self.time_limit = check_time_limit(time_limit)
        self.progress = progress
        self.stats = Stats()
        self._start = time.perf_counter()
        self._end = None if self.time_limit is None else self._start + self.time_limit
        self.cpu_limit = check_time_limit(cpu_limit, "CPU limit")
        self._cpu_end = None if self.cpu_limit is None else cpu_seconds() + self.cpu_limit
        self._stopped = threading.Event()
        self._flag: np.ndarray | None = None
        self._reported: tuple[int, int | None] = (0, None)
        #: The best answer and bound learnt so far (``learn``).
        self.news = News()
        self.on_news = on_news
        self._news_lock = threading.Lock()
        #: The answers a count has found so far (``tally``): what a count stopped by a
        #: limit or Ctrl-C keeps, a lower bound on its total.
        self.found = 0
        #: What vets each answer a count materialises (the api sets the kind's checker):
        #: a count's answers are checked like those of every other task.
        self.vet: Callable[[Any], object] | None = None

    # -- the clock ----------------------------------------------------------------------
    def expired(self) -> bool:
        """True when the time or CPU limit has passed (cheap: call it every few thousand
        nodes)."""
        if self._end is not None and time.perf_counter() >= self._end:
            return True
        return self._cpu_end is not None and cpu_seconds() >= self._cpu_end

    def elapsed(self) -> float:
        """Seconds since the run began."""
        return time.perf_counter() - self._start

    def forked_child(self, parent_cpu: float, tell_parent: NewsCallback) -> None:
        """Called in a forked child, whose CPU clock starts at zero: the CPU left carries
        over from ``parent_cpu`` (the parent's ``cpu_seconds()`` at the fork), and the news
        go to the parent through ``tell_parent``."""
        if self._cpu_end is not None:
            self._cpu_end += cpu_seconds() - parent_cpu
        self.on_news = tell_parent

    def remaining(self) -> float | None:
        """Seconds left (never negative), or None when unlimited."""
        return None if self._end is None else max(0.0, self._end - time.perf_counter())

    def cpu_left(self) -> float | None:
        """CPU seconds left (never negative), or None when unlimited: what work run at the
        same time in several processes shares out."""
        return None if self._cpu_end is None else max(0.0, self._cpu_end - cpu_seconds())

    def wall_clock_end(self) -> float | None:
        """The deadline as a ``time.time()`` value, comparable in other processes."""
        left = self.remaining()
        return None if left is None else time.time() + left

    # -- stopping -----------------------------------------------------------------------
    def stop(self) -> None:
        """Ask every part of this run to stop soon (Ctrl-C, a caller giving up)."""
        self._stopped.set()
        if self._flag is not None:
            self._flag[0] = 1

    def should_stop(self) -> bool:
        """True when the run was stopped or its time is up."""
        if self._stopped.is_set():
            return True
        if self.expired():
            self.stop()
            return True
        return False

    @property
    def stop_flag(self) -> np.ndarray:
        """A one-byte array set to 1 when the run must stop, for compiled kernels to poll."""
        if self._flag is None:
            import numpy as np

            self._flag = np.zeros(1, dtype=np.uint8)
            if self._stopped.is_set():
                self._flag[0] = 1
        return self._flag

    # -- statistics ---------------------------------------------------------------------
    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        """Time a phase (``build``) into ``stats[name + "_seconds"]``."""
        start = time.perf_counter()
        try:
            yield
        finally:
            self.stats.add({f"{name}_seconds": time.perf_counter() - start})

    def report(self, done: int, total: int | None) -> None:
        self._reported = (done, total)
        if self.progress is not None:
            self.progress(done, total)

    def tally(self, answers: int) -> None:
        """A count found ``answers`` more answers (told as it goes, not only at its end)."""
        self.found += answers

    def counted(self, answer: Any) -> Any:
        """``answer``, materialised by a count, once ``vet`` has passed it."""
        if self.vet is not None:
            self.vet(answer)
            self.stats["checked"] = self.stats.get("checked", 0) + 1
        return answer

    # -- anytime news -------------------------------------------------------------------
    def learn(self, event: str, news: News) -> None:
        """A better answer (``event="solution"``: ``objective`` and ``answer``) or a better
        bound (``"bound"``) was found: keep it in ``self.news`` and pass it on. The search
        tells only improvements, in order; safe to call from a solver's threads."""
        with self._news_lock:
            known = self.news
            if event == "solution":
                bound = known.bound if news.bound is None else news.bound
                self.news = News(news.objective, news.answer, bound, known.setting)
            elif event == "chosen":
                self.news = News(known.objective, known.answer, known.bound, news.setting)
            else:
                self.news = News(known.objective, known.answer, news.bound, known.setting)
            if self.on_news is not None:
                self.on_news(event, self.news, self.elapsed())

    def choose(self, backend: str, model: str, symmetry: str, why: str) -> None:
        """The model and symmetry a rule chose for ``backend`` (``problems.defaults``): in
        the record (``stats["model"]``, ``"symmetry"``, ``"chosen"``) and told as news, so
        the live line says what runs and why while it runs."""
        self.stats["model"], self.stats["symmetry"], self.stats["chosen"] = model, symmetry, why
        breaking = "" if symmetry == "none" else f" + {symmetry}"
        self.learn("chosen", News(setting=f"{model}{breaking} on {backend}: {why}"))

    def tick(self) -> None:
        """Time passes with nothing new (a forked solver proving an optimum): the progress
        bar and the live line redraw their clocks (called by a waiting parent, a few times a
        second); the bar's clock stood at 0:00:00 otherwise."""
        self.report(*self._reported)
        if self.on_news is not None:
            self.on_news("tick", self.news, self.elapsed())


class PartRun(Run):
    """A part of a run that can end alone (one cube of a split, one round of a search):
    it stops when ``should_stop`` (the whole run's) says so or when it is stopped itself,
    which leaves the whole run going. Its clock and statistics are its own. A stop of the
    whole run stops the part, its ``stop_flag`` set too, so kernels polling it end (the
    whole run's deadline went unseen by them)."""

    def __init__(self, should_stop: Callable[[], bool]) -> None:
        super().__init__()
        self._outer = should_stop

    def should_stop(self) -> bool:
        if self._outer():
            self.stop()
            return True
        return super().should_stop()
