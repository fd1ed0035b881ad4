"""Live updates for the open tabs of a game: each tab showing a game keeps one stream of
server-sent events open (``GET /api/games/NAME/events``) and is told, within the moment,
the game's new version (``at``) whenever a request or the record's file changes it; a
tab showing another version fetches the game again.

The streams are bounded (MAX_STREAMS at once: over it, 503), each holds nothing but a
queue of one value (a slow tab never piles up), a comment every PING_SECONDS finds a
client gone, and :meth:`Events.close` ends them all at once (the server stopping).
The guards (web.guard: Host, Origin, the token) stand before them as before any request.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, ClassVar

from starlette.responses import Response

from ..model.i18n import N_, _
from .guard import HEADERS

MAX_STREAMS = 64  # open streams at once, every game together (a file descriptor each)
PING_SECONDS = 15.0  # a comment this often: a client gone is found, proxies keep it open
RETRY_MS = 2000  # how soon a browser opens a stream again once it dropped
_END = object()  # put in a queue: the stream ends (the server stops)


class Events:
    """The streams of the open tabs, by game name. :meth:`publish` and :meth:`close`
    may be called from any thread (a worker, the hub's timer, a signal handler)."""

    def __init__(self, max_streams: int = MAX_STREAMS, ping: float = PING_SECONDS) -> None:
        self.max_streams = max_streams
        self.ping = ping
        self.loop: asyncio.AbstractEventLoop | None = None
        self.queues: dict[str, set[asyncio.Queue]] = {}
        self.closed = False

    @property
    def open(self) -> int:
        """How many streams are open."""
        return sum(len(q) for q in self.queues.values())

    def start(self) -> None:
        """Bind to the running event loop (the application's lifespan)."""
        self.loop = asyncio.get_running_loop()
        self.closed = False

    def publish(self, name: str, at: int | None) -> None:
        """Tell every tab of game ``name`` its version is now ``at`` (None: it changed,
        look again)."""
        self._soon(self._put, name, at)

    def close(self) -> None:
        """End every stream now, and refuse new ones."""
        self.closed = True
        self._soon(self._end_all)

    def _soon(self, fn: Any, *args: Any) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:  # the loop closed meanwhile: nobody is listening
            pass

    def _put(self, name: str, at: int | None) -> None:
        for queue in self.queues.get(name, ()):
            _only(queue, at)

    def _end_all(self) -> None:
        for queues in self.queues.values():
            for queue in queues:
                _only(queue, _END)

    def stream(self, name: str) -> Response:
        """The stream of game ``name``'s versions (a 503 when too many are open or the
        server is stopping)."""
        from .guard import error

        if self.closed:
            return error(503, "the server is stopping")
        if self.open >= self.max_streams:
            return error(503, f"too many live tabs ({self.max_streams}): close some")
        queue: asyncio.Queue = asyncio.Queue(maxsize=1)
        self.queues.setdefault(name, set()).add(queue)
        return _Stream(self, name, queue)

    def _drop(self, name: str, queue: asyncio.Queue) -> None:
        queues = self.queues.get(name)
        if queues is not None:
            queues.discard(queue)
            if not queues:
                del self.queues[name]


class Left:
    """The versions of a game a tab may still show, each with what left it (the latest
    KEPT), so that a stale tab's answer is told the truth: another tab answered this
    card, or cancelled this move (not "dropped: play it again")."""

    KEPT: ClassVar[int] = 32
    WHY: ClassVar[dict[str, str]] = {
        "answered": N_("another tab answered this card: the game is shown as it now stands"),
        "cancelled": N_("another tab cancelled this move: the game is shown as it now stands")}

    def __init__(self) -> None:
        self.how: dict[int, str] = {}

    def note(self, before: int, after: int, how: str) -> None:
        """The game went from version ``before`` to ``after`` by ``how`` (``answered``,
        ``cancelled``, ``moved``)."""
        if before != after:
            self.how.pop(before, None)
            self.how[before] = how
            if len(self.how) > self.KEPT:
                del self.how[next(iter(self.how))]

    def said(self, at: int | None) -> str | None:
        """Why a tab showing version ``at`` cannot answer its question, when known."""
        how = self.how.get(at) if at is not None else None
        return _(self.WHY[how]) if how in self.WHY else None


def _only(queue: asyncio.Queue, value: object) -> None:
    """``value`` the queue's only item (the latest version is all a tab needs; the end
    replaces anything)."""
    while not queue.empty():
        queue.get_nowait()
    queue.put_nowait(value)


class _Stream(Response):
    """The text/event-stream answer: ``retry``, then one ``at`` event per change and a
    comment every ``ping`` seconds, until the client goes or the server stops."""

    media_type = "text/event-stream"

    def __init__(self, events: Events, name: str, queue: asyncio.Queue) -> None:
        super().__init__(headers={**HEADERS, "X-Accel-Buffering": "no"})
        self.events, self.name, self.queue = events, name, queue
        # open-ended: no Content-Length (Response gives an empty body one)
        self.raw_headers = [(k, v) for k, v in self.raw_headers if k != b"content-length"]

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        gone = asyncio.ensure_future(_disconnected(receive))
        try:
            await send({"type": "http.response.start", "status": 200,
                        "headers": self.raw_headers})
            await send({"type": "http.response.body", "more_body": True,
                        "body": f"retry: {RETRY_MS}\n: {self.name}\n\n".encode()})
            while True:
                getter = asyncio.ensure_future(self.queue.get())
                done, _pending = await asyncio.wait(
                    {getter, gone}, timeout=self.events.ping,
                    return_when=asyncio.FIRST_COMPLETED)
                if gone in done:
                    getter.cancel()
                    return
                if getter not in done:
                    getter.cancel()
                    chunk = b": ping\n\n"
                else:
                    value = getter.result()
                    if value is _END:
                        break
                    chunk = f"event: at\ndata: {json.dumps({'at': value})}\n\n".encode()
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:  # the client went away while a chunk was sent
            pass
        finally:
            gone.cancel()
            self.events._drop(self.name, self.queue)


async def _disconnected(receive: Any) -> None:
    """Return when the client closes its connection."""
    while (await receive())["type"] != "http.disconnect":
        pass


__all__ = ["MAX_STREAMS", "PING_SECONDS", "Events", "Left"]
