"""One pool for all parallel work: threads, forked processes or a Dask cluster, behind one
interface and one stop protocol.

A run's parallel work is a sequence of jobs (cubes of a split, chunks of a counting plan,
instances of a study) and a worker function, ``work(claimed, should_stop)``: it takes the
jobs it is handed one by one from the iterator ``claimed`` (so a worker can keep one
solver for all its jobs), yields results as it finds them, and ends soon once
``should_stop()`` says so. ``pool.stream(work, jobs, run)`` yields every worker's results
in the order they come.

The stop protocol is the run's: when ``run.should_stop()`` says stop (its deadline,
``run.stop()``, Ctrl-C in the consumer), no job is handed out any more, the running ones
end, and the stream raises LimitReached once every worker has ended; with ``drain`` it
first yields what the stopped workers handed back (a checkpoint keeps it). Closing the
stream early stops the workers too, and an exception in a worker is raised in the
consumer. The consumer waits in slices of ``POLL_SECONDS``, so a deadline or Ctrl-C is
seen within one slice, whatever the workers are doing; its look at ``run.should_stop()``
also sets the run's stop flag, which compiled kernels poll. No exception is ever injected
into a thread.

- ``Serial``: in the calling thread, for small work (starting workers would cost more).
- ``Threads``: for workers whose native code releases the GIL (Numba, CP-SAT).
- ``Processes``: forked workers, for solvers that hold the GIL (pysat) or that a stop must
  be able to kill. Every worker walks the same job sequence, inherited at the fork (never
  pickled), and runs the jobs whose numbers it claims from a shared counter; a stop
  terminates them. Under a CPU limit each worker stops itself at its share of the CPU
  left: the parent's clock sees a child's CPU only once it has ended. Processes are
  forked before this run starts any thread of its own (progress bars draw from the main
  thread and have none).
- ``Cluster``: each job a task on a Dask cluster (work and jobs must pickle); a stop
  cancels the tasks.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from queenslab.core.errors import LimitReached, QueensError, UsageError
from queenslab.core.run import Run, cpu_seconds, never
from queenslab.runtime.stop import POLL_SECONDS, leave_sigint_to_parent

if TYPE_CHECKING:
    from distributed import Client

J = TypeVar("J")
T = TypeVar("T")
ShouldStop = Callable[[], bool]
#: A worker: the jobs it claims, one at a time, and ``should_stop`` -> its results.
Work = Callable[[Iterator[J], ShouldStop], Iterable[T]]
#: Messages waiting for the consumer, per worker, before the workers wait in turn.
QUEUED_PER_WORKER = 4
#: Seconds a worker has to die of the SIGTERM that ends it before it is killed.
TERMINATE_GRACE = 2.0
#: Seconds to reach a Dask scheduler before giving up with one line.
CONNECT_TIMEOUT = 3.0
_ITEM, _FAILED, _DONE = range(3)
_END = object()


class Pool(Generic[J, T]):
    """Runs ``work`` over ``jobs`` and streams the results (see the module's docstring)."""

    def stream(
        self, work: Work[J, T], jobs: Iterable[J], run: Run, *, drain: bool = False
    ) -> Generator[T, None, None]:
        raise NotImplementedError


class Serial(Pool[J, T]):
    """Every job in the calling thread, one after the other."""

    def stream(
        self, work: Work[J, T], jobs: Iterable[J], run: Run, *, drain: bool = False
    ) -> Generator[T, None, None]:
        items = iter(work(_claimed(iter(jobs), run.should_stop), run.should_stop))
        with _closing(items):
            for item in items:
                if run.should_stop() and not drain:
                    raise LimitReached
                yield item
        if run.should_stop():
            raise LimitReached


class Threads(Pool[J, T]):
    """``workers`` threads sharing one job sequence (taken under a lock)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def stream(
        self, work: Work[J, T], jobs: Iterable[J], run: Run, *, drain: bool = False
    ) -> Generator[T, None, None]:
        source, lock = iter(jobs), threading.Lock()
        halt = threading.Event()  # the consumer is gone: workers end without a word
        channel: queue.Queue[tuple[int, Any]] = queue.Queue(self.workers * QUEUED_PER_WORKER)

        def should_stop() -> bool:
            return halt.is_set() or run.should_stop()

        def next_job() -> Any:
            with lock:
                return next(source, _END)

        def put(message: tuple[int, Any]) -> bool:
            while not halt.is_set():
                try:
                    channel.put(message, timeout=POLL_SECONDS)
                    return True
                except queue.Full:
                    continue
            return False

        def worker(done: threading.Event) -> None:
            try:
                _pump(work(_taken(next_job, should_stop), should_stop), put)
            finally:
                done.set()
                put((_DONE, None))

        finished = [threading.Event() for _ in range(self.workers)]
        for number, done in enumerate(finished):
            threading.Thread(
                target=worker, args=(done,), name=f"queenslab-pool-{number}", daemon=True
            ).start()
        try:
            yield from _consumed(lambda: channel.get(timeout=POLL_SECONDS), self.workers, run,
                                 drain, stop_workers=lambda: False)  # fmt: skip
        except BaseException:  # Ctrl-C, a failure, or a consumer that stopped early
            run.stop()  # kernels that poll the run's flag end too
            raise
        finally:
            halt.set()
            _wait_for(finished)


class Processes(Pool[J, T]):
    """``workers`` forked processes, each walking the job sequence and claiming by number.

    Where the platform cannot fork, threads do the work (the jobs would have to pickle).
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def stream(
        self, work: Work[J, T], jobs: Iterable[J], run: Run, *, drain: bool = False
    ) -> Generator[T, None, None]:
        import multiprocessing  # here: its import costs every command's start-up ~10 ms

        if "fork" not in multiprocessing.get_all_start_methods():
            yield from Threads[J, T](self.workers).stream(work, jobs, run, drain=drain)
            return
        context = multiprocessing.get_context("fork")
        channel = context.Queue(self.workers * QUEUED_PER_WORKER)
        counter = context.Value("q", 0)
        cpu = run.cpu_left()
        deadline = WorkerLimits(run.wall_clock_end(), None if cpu is None else cpu / self.workers)
        args = (work, jobs, counter, deadline, channel)
        # Not daemons: a worker may fork a child of its own (a model built in a forked
        # child, runtime.forked); the finally below ends every worker in any case.
        children = [
            context.Process(target=_child, args=args, name=f"pool-{i}") for i in range(self.workers)
        ]

        def terminate() -> bool:
            for child in children:
                if child.is_alive():
                    child.terminate()
            return True  # nothing more will come

        try:
            for child in children:
                child.start()
            yield from _consumed(lambda: channel.get(timeout=POLL_SECONDS), self.workers, run,
                                 drain=False, stop_workers=terminate)  # fmt: skip
        finally:
            terminate()
            for child in children:
                if child.pid is not None:
                    child.join(TERMINATE_GRACE)
                    # A SIGTERM can be lost (one that came before the worker reset the
                    # handler it inherited): the worker then waited for ever on the full
                    # queue, and this join with it (a doctest of docs/api.md, once).
                    if child.is_alive():
                        child.kill()
                        child.join()
            channel.close()


class Cluster(Pool[J, T]):
    """Each job a task on the Dask cluster of ``client``; the results of a task come
    together when it finishes. Tasks are pure, so Dask reruns a lost worker's tasks."""

    def __init__(self, client: Client) -> None:
        self.client = client

    def stream(
        self, work: Work[J, T], jobs: Iterable[J], run: Run, *, drain: bool = False
    ) -> Generator[T, None, None]:
        from concurrent.futures import CancelledError

        from distributed import as_completed

        futures = [
            self.client.submit(_task, work, job, pure=False)
            for job in _claimed(iter(jobs), run.should_stop)
        ]
        results = as_completed(futures)
        with _quiet_dask_log():
            try:
                while not results.is_empty():
                    if run.should_stop():
                        raise LimitReached
                    if self.client.status not in ("running", "connecting"):
                        raise QueensError(f"lost the Dask scheduler ({self.client.status})")
                    if not results.has_ready():
                        time.sleep(POLL_SECONDS)
                        continue
                    for future in results.next_batch(block=False):
                        yield from future.result()
            except (OSError, TimeoutError, CancelledError) as exc:  # the scheduler went away
                with contextlib.suppress(Exception):  # closed here, where its log is quiet
                    self.client.close(timeout=CONNECT_TIMEOUT)
                raise QueensError(f"lost the Dask scheduler ({type(exc).__name__})") from None
            finally:
                with contextlib.suppress(Exception):  # cancelling after a lost scheduler fails
                    self.client.cancel(futures)
        if run.should_stop():
            raise LimitReached


def connect(address: str) -> Client:
    """A client of the Dask scheduler at ``address``; one line when it cannot be reached.

    A TCP address is tried with a plain socket first: a refused connection is an answer at
    once, where Dask's client would retry it for its whole timeout.
    """
    from distributed import Client

    try:
        _reachable(address)
        return Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:  # ValueError: a malformed address
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def _reachable(address: str) -> None:
    """Raise OSError when nothing listens at a ``tcp://host:port`` address."""
    import socket
    from urllib.parse import urlsplit

    if not address.startswith("tcp://"):
        return  # another transport: Dask's client judges it
    parts = urlsplit(address)
    if parts.hostname is None or parts.port is None:
        raise ValueError("expected tcp://HOST:PORT")
    socket.create_connection((parts.hostname, parts.port), timeout=CONNECT_TIMEOUT).close()


class WorkerLimits:
    """``should_stop`` for a worker process: the run's deadline as a ``time.time()`` value,
    and the CPU seconds the worker may use (its own clock starts at zero at the fork).

    Picklable, unlike the run itself; a stop or Ctrl-C ends the process from outside.
    """

    def __init__(self, end: float | None, cpu: float | None = None) -> None:
        self.end = end
        self.cpu = cpu

    def __call__(self) -> bool:
        if self.end is not None and time.time() >= self.end:
            return True
        return self.cpu is not None and cpu_seconds() >= self.cpu


# -- the parts every kind shares ----------------------------------------------------------


def _claimed(jobs: Iterator[J], should_stop: ShouldStop) -> Iterator[J]:
    """The jobs in order, none handed out once ``should_stop()`` says stop."""
    for job in jobs:
        if should_stop():
            return
        yield job


def _taken(next_job: Callable[[], Any], should_stop: ShouldStop) -> Iterator[Any]:
    """Jobs as ``next_job()`` hands them out, until none is left or a stop."""
    while not should_stop():
        job = next_job()
        if job is _END:
            return
        yield job


def _pump(items: Iterable[T], put: Callable[[tuple[int, Any]], bool]) -> None:
    """Send a worker's results (or its exception) to the consumer, until it is gone."""
    try:
        results = iter(items)
        with _closing(results):
            for item in results:
                if not put((_ITEM, item)):
                    return
    except BaseException as exc:  # raised again by the consumer
        put((_FAILED, exc))


def _consumed(
    get: Callable[[], tuple[int, Any]],
    workers: int,
    run: Run,
    drain: bool,
    stop_workers: Callable[[], bool],
) -> Iterator[Any]:
    """The workers' results until every worker has ended; LimitReached after a stop.

    ``stop_workers()`` is called once at a stop; True means no worker will send more.
    """
    stopped = False
    while workers:
        if not stopped and run.should_stop():
            stopped = True
            if stop_workers():
                break
        try:
            kind, payload = get()
        except queue.Empty:
            continue
        if kind == _DONE:
            workers -= 1
        elif kind == _FAILED:
            raise payload
        elif not stopped or drain:
            yield payload
    if stopped or run.should_stop():
        raise LimitReached


def _wait_for(finished: list[threading.Event]) -> None:
    """Wait until every worker thread has ended, in slices: waiting on an Event, never in
    ``Thread.join``, whose Ctrl-C before Python 3.13 marks a running thread as finished
    (CPython gh-90882). A Ctrl-C here waits on, then is raised again, as it came: SIGTERM's
    ``Terminated`` raised as a plain KeyboardInterrupt made the command exit 130, not 143."""
    interrupted: KeyboardInterrupt | None = None
    for done in finished:
        while True:
            try:
                if done.wait(POLL_SECONDS):
                    break
            except KeyboardInterrupt as signal:
                interrupted = signal
    if interrupted is not None:
        raise interrupted


def _child(
    work: Work[Any, Any], jobs: Iterable[Any], counter: Any, deadline: WorkerLimits, channel: Any
) -> None:
    """A worker process: the jobs whose numbers it claims, its results into the queue."""
    leave_sigint_to_parent()

    def claim() -> int:
        with counter.get_lock():
            number: int = counter.value
            counter.value = number + 1
        return number

    def numbered() -> Iterator[Any]:
        wanted = claim()
        for number, job in enumerate(_claimed(iter(jobs), deadline)):
            if number == wanted:
                yield job
                wanted = claim()

    def put(message: tuple[int, Any]) -> bool:
        try:
            channel.put(message)
        except Exception as exc:  # an exception or result that does not pickle
            channel.put((_FAILED, RuntimeError(f"{type(exc).__name__}: {exc}")))
        return True

    try:
        _pump(work(numbered(), deadline), put)
        if deadline():  # stopped by its limit, which the parent's CPU clock does not show yet
            put((_FAILED, LimitReached()))
    finally:
        put((_DONE, None))


def _task(work: Work[J, T], job: J) -> list[T]:
    """One job as a Dask task: a pure function of its arguments, so Dask may rerun it."""
    return list(work(iter([job]), never))


@contextlib.contextmanager
def _closing(items: Iterator[Any]) -> Iterator[None]:
    """Close a generator when the block ends (a plain iterator has nothing to close)."""
    try:
        yield
    finally:
        close = getattr(items, "close", None)
        if close is not None:
            close()


@contextlib.contextmanager
def _quiet_dask_log() -> Iterator[None]:
    """A lost scheduler is one line, not pages of Dask's log: its loggers have handlers of
    their own and do not propagate, so each one is quietened while tasks run."""
    import logging

    loggers = [
        logging.getLogger(name)
        for name in list(logging.root.manager.loggerDict)
        if name.split(".")[0] == "distributed"
    ]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


__all__ = [
    "CONNECT_TIMEOUT",
    "Cluster",
    "Pool",
    "Processes",
    "Serial",
    "Threads",
    "WorkerLimits",
    "connect",
]
