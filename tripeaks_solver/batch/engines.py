"""Engines that solve chunks of deals: local worker processes, or tasks on a Dask cluster.

Each engine is a context manager with ``workers`` (how many chunks run at once) and
``map_ordered(chunks, solver)``, which yields each chunk's rows in chunk order while
keeping a bounded number of chunks in flight.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Self

from ..model.scoring import Scheme
from .errors import BatchError

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from dask.distributed import Client, LocalCluster

    from .rows import Row

    Results = Generator[list[Row], None, None]  # each chunk's rows, in chunk order

MAX_JOBS = 256
"""The most worker processes a run starts (more would only queue for the cores)."""
_START_FAILED = 3  # a worker's exit status when it could not get ready
_STOP_SIGNALS = ({signal.SIGINT, signal.SIGTERM} if hasattr(signal, "pthread_sigmask")
                 else set())


def default_jobs() -> int:
    """All cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def dask_available() -> bool:
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        return False
    return True


def _ordered(submit: Callable, chunks: Iterator, window: int) -> Results:
    """Results of ``submit(chunk)`` in chunk order, with at most ``window`` in flight."""
    pending: deque = deque()
    for chunk in chunks:
        pending.append(submit(chunk))
        if len(pending) >= window:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def _watch_parent(parent: int) -> None:
    # A worker whose parent was killed (kill -9) would wait for work forever.
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(1)


def _init_worker(parent: int, scoring: Scheme, inherited: tuple[int, ...]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler, if forked
    if _STOP_SIGNALS:  # blocked since the fork (see LocalEngine.__enter__)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    for fd in inherited:  # the run's locked files: the lock is the parent's alone
        try:
            os.close(fd)
        except OSError:
            pass
    try:
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
        from ..solver.solve import warm_up  # here: `batch --help` reads MAX_JOBS, not the kernels

        warm_up(scoring)
    except (RuntimeError, OSError, MemoryError):  # no thread, no process, no memory
        # No traceback per worker: the parent sees a broken pool and says so in one line.
        os._exit(_START_FAILED)


class LocalEngine:
    """Chunks in worker processes (``jobs`` > 1) or in this process (``jobs`` = 1).

    Every worker is started on entry, so that a failure to start one (a limit on
    processes) is reported at once, with the started ones stopped, not part way.
    ``inherited`` are file descriptors the workers close (the run's locked outputs).
    """

    def __init__(self, jobs: int, scoring: Scheme = Scheme.APP, inherited: tuple[int, ...] = ()
                 ) -> None:
        if not 1 <= jobs <= MAX_JOBS:
            raise BatchError(f"a local run takes 1 to {MAX_JOBS} jobs, not {jobs}", "engine")
        self.workers = jobs
        self.scoring = scoring
        self.inherited = inherited
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> Self:
        from ..solver.solve import warm_up

        warm_up(self.scoring)  # forked workers inherit the loaded kernels
        if self.workers > 1:
            import concurrent.futures as cf

            methods = mp.get_all_start_methods()
            ctx = mp.get_context("fork" if "fork" in methods and sys.platform == "linux"
                                 else None)
            try:
                # A forked worker runs the parent's signal handlers until its initializer
                # replaces them: a Ctrl-C, or the SIGTERM with which the pool stops the
                # others when one fails, would print a traceback from it. So Ctrl-C and
                # SIGTERM stay blocked across the forks (all made by the first submit);
                # the workers unblock them once their own handlers are set.
                old_mask = (signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
                            if _STOP_SIGNALS else None)
                try:
                    # Only a forked worker has the run's descriptors; a spawned one
                    # (macOS, Windows) may have others under the same numbers.
                    forked = ctx.get_start_method() == "fork"
                    self._pool = pool = cf.ProcessPoolExecutor(
                        self.workers, mp_context=ctx, initializer=_init_worker,
                        initargs=(os.getpid(), self.scoring, self.inherited if forked else ()))
                    started = pool.submit(os.getpid)  # starts them all (fork: at once)
                finally:
                    if old_mask is not None:
                        signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
                started.result()
            except (OSError, RuntimeError, BrokenProcessPool) as exc:
                self._abandon()
                if isinstance(exc, BrokenProcessPool):
                    why = "a worker failed as it started (a limit on processes or threads?)"
                else:
                    why = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
                raise BatchError(f"cannot start {self.workers} worker processes: {why}",
                                 "engine") from None
        return self

    def _abandon(self) -> None:
        """Stop whatever workers started; nothing may wait for them at exit. A second
        Ctrl-C while this runs is ignored: cut short, it left the pool half shut and
        the exit waiting for it for ever."""
        main = threading.current_thread() is threading.main_thread()
        old = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            children = mp.active_children()
            for proc in children:
                proc.kill()
            for proc in children:
                proc.join()
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None
        finally:
            if main:
                signal.signal(signal.SIGINT, old)

    def map_ordered(self, chunks: Iterator, solver: Callable) -> Results:
        pool = self._pool
        if pool is None:
            return (solver(chunk) for chunk in chunks)
        return self._guarded(_ordered(lambda c: pool.submit(solver, c), chunks,
                                      16 * self.workers))

    def _guarded(self, results: Results) -> Results:
        try:
            yield from results
        except BrokenProcessPool:
            self._abandon()
            raise BatchError("a worker process ended without finishing its deals (killed, "
                             "or out of memory?)", "engine") from None
        finally:
            results.close()

    def __exit__(self, exc_type, *exc) -> None:
        if self._pool is None:
            return
        if exc_type is not None:  # stopped (Ctrl-C, kill, an error): the chunks in flight
            self._abandon()       # are solved again on --resume, so do not wait for them
        else:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class DaskEngine:
    """Chunks as tasks on a Dask cluster: at ``scheduler``, or a local one of ``jobs``."""

    def __init__(self, scheduler: str | None, jobs: int) -> None:
        self.scheduler = scheduler
        self.jobs = jobs
        self.workers = jobs
        self._client: Client | None = None
        self._cluster: LocalCluster | None = None

    def __enter__(self) -> Self:
        import logging

        from dask.distributed import Client, LocalCluster

        try:
            if self.scheduler:
                self._client = client = Client(self.scheduler, timeout="10s")
            else:
                self._cluster = LocalCluster(n_workers=self.jobs, threads_per_worker=1,
                                             processes=True, dashboard_address=None,
                                             silence_logs=logging.ERROR)
                self._client = client = Client(self._cluster)
        except (OSError, TimeoutError, ValueError) as exc:  # unreachable, or a bad address
            self.__exit__()
            where = self.scheduler or "a local cluster"
            raise BatchError(f"cannot reach the Dask scheduler at {where}: {exc}",
                             "engine") from None
        self.workers = max(1, sum(client.nthreads().values()))
        return self

    def map_ordered(self, chunks: Iterator, solver: Callable) -> Results:
        client = self._client
        if client is None:
            raise RuntimeError("map_ordered runs inside the engine's with block")
        return _ordered(lambda c: client.submit(solver, c, pure=False), chunks,
                        8 * self.workers)

    def __exit__(self, *exc) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None


__all__ = ["MAX_JOBS", "DaskEngine", "LocalEngine", "dask_available",
           "default_jobs"]
