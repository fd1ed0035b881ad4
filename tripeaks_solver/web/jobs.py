"""The searches the server runs for its pages (advice, analysis) as jobs.

One job per question (its key: the game as it stands, the samples, the seed), shared by
every request that waits for it; when the last of them leaves (its client went away),
the job is told to stop and its search ends within about 0.1 s (the searches ask a
``should_stop`` between short kernel calls: ``analysis.fair``). A job waiting for its
turn that nobody waits for any more never starts. Each lane is one worker thread
taking its jobs in turn: cheap questions and expensive ones go to different lanes, so a
cheap one never waits behind an expensive one. A background lane (the move list's
judging) gives way to the others: its job begins, and goes on at each ``should_stop``,
only while no job of another lane is waiting or running, so it never delays an advice.
The answers are kept in caches of a bounded size, the least recently used dropped
first.

The jobs run in plain threads, not on the event loop, and a request waits for its job
through the loop it runs on: requests of two event loops (a test client in two
threads) can share a job. A job runs in the context of the request that began it (its
language: the words of an error it raises, model.i18n).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import queue
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from typing import Any

from ..analysis.fair import Cancelled, StopCheck

Compute = Callable[[StopCheck], Any]  # compute(should_stop) -> the answer


class Stopping(Exception):
    """The server is stopping: it takes no new search, and those running end."""


class LRU:
    """A mapping of at most ``size`` entries; the least recently used goes first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable, default: Any = None) -> Any:
        if key not in self.items:
            return default
        self.items.move_to_end(key)
        return self.items[key]

    def put(self, key: Hashable, value: Any) -> None:
        self.items[key] = value
        self.items.move_to_end(key)
        while len(self.items) > self.size:
            self.items.popitem(last=False)

    def __len__(self) -> int:
        return len(self.items)

    def __contains__(self, key: Hashable) -> bool:
        return key in self.items


class Job:
    """One search: its function, the flag that stops it, its result when done."""

    def __init__(self, key: tuple, compute: Compute, lane: str = "") -> None:
        self.key = key
        self.compute = compute
        self.lane = lane
        self.stop = threading.Event()
        self.future: Future[Any] = Future()
        self.waiters = 0
        self.context = contextvars.copy_context()  # the request's that began it

    def run(self, should_stop: StopCheck | None = None) -> None:
        """Compute the answer; ``should_stop`` (by default the job's flag) is asked
        before it begins and by the search."""
        if not self.future.set_running_or_notify_cancel():
            return
        check = self.stop.is_set if should_stop is None else should_stop
        try:
            if check():  # nobody waits any more: never started
                raise Cancelled
            result = self.context.run(self.compute, check)
        except BaseException as exc:  # noqa: BLE001  (handed to whoever waits)
            self.future.set_exception(exc)
        else:
            self.future.set_result(result)


class Lane:
    """One worker thread (made on the first job) running its jobs in turn; with
    ``gate``, each job's ``should_stop`` is ``gate(job)``."""

    def __init__(self, name: str, gate: Callable[[Job], bool] | None = None) -> None:
        self.name = name
        self.gate = gate
        self.queue: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self.thread: threading.Thread | None = None
        self.lock = threading.Lock()

    def submit(self, job: Job) -> None:
        with self.lock:
            if self.thread is None:
                # A daemon: a search never holds the process's exit up.
                self.thread = threading.Thread(target=self._work, daemon=True,
                                               name=f"tripeaks-{self.name}")
                self.thread.start()
        self.queue.put(job)

    def _work(self) -> None:
        while True:
            job = self.queue.get()
            if job is None:
                return
            gate = self.gate
            job.run(None if gate is None else functools.partial(gate, job))

    def close(self) -> None:
        self.queue.put(None)


class Jobs:
    """The server's jobs: :meth:`get` the answer to a question, computed once."""

    def __init__(self, lanes: tuple[str, ...] = ("light", "heavy"),
                 caches: dict[str, int] | None = None,
                 background: tuple[str, ...] = ("background",)) -> None:
        self.lanes = {name: Lane(name) for name in lanes}
        self.lanes.update({name: Lane(name, self._give_way) for name in background})
        self.background = frozenset(background)
        self.foreground = 0  # jobs of the other lanes waiting or running
        self.turn = threading.Condition(threading.Lock())  # told when foreground falls
        sizes = {"advice": 256, "analysis": 32} if caches is None else caches
        # Each kind of answer has its own cache (key[0] names the kind).
        self.caches = {kind: LRU(size) for kind, size in sizes.items()}
        self.running: dict[tuple, Job] = {}
        self.lock = threading.Lock()
        self.stopping = False
        self.wakers: set[Callable[[], None]] = set()  # each waiter's, for stop_all
        self.started = 0  # jobs begun (a test counts them)

    def cached(self, key: tuple) -> Any:
        with self.lock:
            return self.caches[key[0]].get(key)

    async def get(self, key: tuple, compute: Compute, lane: str) -> Any:
        """The answer to ``key`` (``key[0]``: its kind, a cache's name): from the cache,
        from the job already running for it, or from a new job on ``lane``.
        Cancelled when the job was stopped (the server stopping); Stopping when the
        server takes no new search."""
        missing = object()
        with self.lock:
            if self.stopping:
                raise Stopping
            hit = self.caches[key[0]].get(key, missing)
            if hit is not missing:
                return hit
            job = self.running.get(key)
            new = job is None
            if job is None:
                job = self.running[key] = Job(key, compute, lane)
                job.future.add_done_callback(functools.partial(self._finished, job))
                self.started += 1
            job.waiters += 1
        if new:
            if lane not in self.background:
                with self.turn:
                    self.foreground += 1
            self.lanes[lane].submit(job)
        try:
            return await self._wait(job.future)
        finally:
            with self.lock:
                job.waiters -= 1
                if job.waiters == 0 and not job.future.done():
                    job.stop.set()  # the search ends at its next check
                    if self.running.get(key) is job:
                        del self.running[key]

    def _finished(self, job: Job, _: Future[Any]) -> None:
        with self.lock:
            if self.running.get(job.key) is job:
                del self.running[job.key]
            if not job.future.cancelled() and job.future.exception() is None:
                self.caches[job.key[0]].put(job.key, job.future.result())
        if job.lane not in self.background:
            with self.turn:
                self.foreground -= 1
                self.turn.notify_all()

    def _give_way(self, job: Job) -> bool:
        """A background job's ``should_stop``: first wait while a job of another lane
        waits or runs (its search pauses here), then say whether it should stop."""
        with self.turn:
            while self.foreground and not (job.stop.is_set() or self.stopping):
                self.turn.wait(0.1)  # stop_all takes no lock: looked at now and then
        return job.stop.is_set()

    def stop_all(self) -> None:
        """Stop every job (each ends within about 0.1 s), answer every request waiting
        for one now (Cancelled), and take no new one: the server is stopping. Safe to
        call from a signal handler (it takes no lock)."""
        self.stopping = True
        for job in list(self.running.values()):
            job.stop.set()
        for wake in list(self.wakers):
            wake()

    def close(self) -> None:
        self.stop_all()
        for lane in self.lanes.values():
            lane.close()

    async def _wait(self, future: Future[Any]) -> Any:
        """The result of ``future`` (set in another thread), awaited on this loop; when
        this waiter is cancelled, the future itself is not."""
        loop = asyncio.get_running_loop()
        waiter = loop.create_future()

        def settle(stopped: bool = False) -> None:
            if waiter.done():
                return
            if stopped:
                waiter.set_exception(Cancelled())
                return
            exc = future.exception()
            if exc is not None:
                waiter.set_exception(exc)
            else:
                waiter.set_result(future.result())

        def later(stopped: bool) -> None:
            try:
                loop.call_soon_threadsafe(settle, stopped)
            except RuntimeError:  # the loop is closed: nobody waits there any more
                pass

        def wake() -> None:
            later(True)

        self.wakers.add(wake)
        future.add_done_callback(lambda _: later(False))
        try:
            return await waiter
        finally:
            self.wakers.discard(wake)


__all__ = ["LRU", "Jobs", "Stopping"]
