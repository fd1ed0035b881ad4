"""The Starlette application: the page, its JSON API, and the guards a local server
needs (Host, Origin and Sec-Fetch-Site checked, an optional token, bodies kept small
and shallow, every error a short JSON answer with its right status, never a traceback).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..analysis.fair import Cancelled
from ..errors import InputError
from ..games.files import os_errno
from .hub import Held, Hub, NotFound
from .jobs import Jobs, Stopping
from .solving import solve_page
from .table import Conflict, Table, check_samples

STATIC = Path(__file__).parent / "static"
MAX_BODY = 16 * 1024  # the largest request the page sends is a layout: about 200 bytes
MAX_DEPTH = 4  # the page's bodies are an object holding at most a list of strings
TOKEN_COOKIE = "tripeaks_token"  # the server on a port adds it: tripeaks_token_8765
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
DEFAULT_SAMPLES = 1000
# The server's own failures: its disk full (507), or the machine refusing (503).
FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
STOPPING = "the server is stopping"
log = logging.getLogger("tripeaks_solver.web")
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                               "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store"}


class TooLarge(Exception):
    pass


class ClientGone(Exception):
    """The client went away before its answer was ready (its search stopped)."""


def error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status, headers={**HEADERS, **(headers or {})})


def ok(data: dict, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status, headers=HEADERS)


def status_of(exc: BaseException) -> int:
    """The status of an error: the server's own failures 507 (its disk full) or 503 (the
    machine refusing: too many open files, a read-only disk), the request's 4xx."""
    number = os_errno(exc)
    if number is not None:
        return 507 if number in FULL else 503
    if isinstance(exc, NotFound):
        return 404
    if isinstance(exc, (Conflict, Held)):
        return 409
    return 400


class _Once:
    """Log a line of a kind at most once a minute: a failure that repeats (the machine
    out of file descriptors) is one line, not a flood."""

    def __init__(self) -> None:
        self.last: dict[object, float] = {}

    def __call__(self, kind: object, message: str, *args: object) -> None:
        now = time.monotonic()
        if now - self.last.get(kind, -1e9) >= 60:
            self.last[kind] = now
            log.error(message, *args)


once = _Once()


# --- the guards ------------------------------------------------------------------------
class Guard:
    """The outermost layer: Host (DNS rebinding), the token, Origin and Sec-Fetch-Site
    (CSRF, and any API request from another site), the body's size; and the last catch
    of any error, logged in one line and answered as JSON. ``cookie``: the name of the
    token's cookie (one per port: two servers on one machine never share it)."""

    def __init__(self, app: Any, hosts: Callable[[], Iterable[str]] | None,
                 token: str | None, cookie: str = TOKEN_COOKIE,
                 jobs: Jobs | None = None) -> None:
        self.app = app
        self.hosts = hosts
        self.token = token
        self.cookie = cookie
        self.jobs = jobs

    def stop(self) -> None:
        """The server is stopping: every search ends now (safe in a signal handler)."""
        if self.jobs is not None:
            self.jobs.stop_all()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        refusal = self.refuse(request)
        if refusal is None:
            refusal = self.token_visit(request)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        seen = 0

        async def limited():
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > MAX_BODY:
                raise TooLarge
            return message

        started = False

        async def watched(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                if self.token and request.query_params.get("token") == self.token:
                    message = {**message, "headers": [*message.get("headers", []),
                                                      (b"set-cookie", self.set_cookie())]}
            await send(message)

        try:
            await self.app(scope, limited, watched)
        except (ClientDisconnect, ClientGone, ConnectionError):
            log.debug("%s %s: the client went away", request.method, request.url.path)
        except Exception as exc:  # noqa: BLE001  (the last catch: one line logged, JSON sent)
            if not isinstance(exc, TooLarge):
                log.error("error on %s %s: %s: %s", request.method, request.url.path,
                          type(exc).__name__, exc)
            if not started:
                answer = (error(413, f"request body over {MAX_BODY} bytes")
                          if isinstance(exc, TooLarge) else error(500, "internal error"))
                await answer(scope, receive, send)

    def set_cookie(self) -> bytes:
        return (f"{self.cookie}={self.token}; Path=/; HttpOnly; SameSite=Strict").encode()

    def token_visit(self, request: Request) -> Response | None:
        """A page opened with ``?token=``: the cookie set, and the page sent again
        without the token (out of the address bar, and so out of the history)."""
        if (not self.token or request.method != "GET" or "token" not in request.query_params
                or request.url.path.startswith(("/api/", "/static/"))):
            return None
        rest = [(k, v) for k, v in request.query_params.multi_items() if k != "token"]
        where = request.url.path + ("?" + urlencode(rest) if rest else "")
        return Response(status_code=303, headers={**HEADERS, "Location": where,
                                                  "Set-Cookie": self.set_cookie().decode()})

    def refuse(self, request: Request) -> Response | None:
        host = request.headers.get("host", "")
        if not host or self.hosts is not None and host not in set(self.hosts()):
            return error(421 if request.headers.get("host") else 400,
                         "unknown Host header: open the address the server printed")
        if self.token:
            given = request.query_params.get("token") or request.cookies.get(self.cookie, "")
            if not secrets.compare_digest(given.encode(), self.token.encode()):
                return error(403, "a token is needed: open the address the server printed")
        if request.method not in SAFE_METHODS or request.url.path.startswith("/api/"):
            # A change, or any API request (a GET too: another site's <img> must not
            # make the server work), only from this server's own page.
            origin = request.headers.get("origin")
            if origin is not None and origin != f"http://{host}":
                return error(403, "request from another site refused")
            site = request.headers.get("sec-fetch-site")
            if site is not None and site not in ("same-origin", "none"):
                return error(403, "request from another site refused")
        if request.method == "POST":
            kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                return error(415, "send JSON (Content-Type: application/json)")
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            return error(413, f"request body over {MAX_BODY} bytes")
        return None


# --- the handlers ----------------------------------------------------------------------
def depth(raw: bytes) -> int:
    """How deep the arrays and objects of a JSON text nest (strings skipped), read
    before the text is parsed: a body of thousands of ``[`` is refused unparsed."""
    if raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH:
        return 0
    level = most = 0
    quoted = escaped = False
    for byte in raw:
        if quoted:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:
                quoted = False
        elif byte == 0x22:
            quoted = True
        elif byte in (0x5B, 0x7B):
            level += 1
            most = max(most, level)
        elif byte in (0x5D, 0x7D):
            level -= 1
    return most


async def body(request: Request) -> dict:
    raw = await request.body()
    if depth(raw) > MAX_DEPTH:
        raise InputError(f"the request body nests deeper than {MAX_DEPTH} levels")
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise InputError("the request body is not JSON") from None
    if not isinstance(data, dict):
        raise InputError("expected a JSON object")
    return data


def number(value, what: str, default: int | None = None) -> int | None:
    if value is None or value == "":
        return default
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InputError(f"{what}: a whole number")
    try:
        out = int(value)
    except ValueError:
        raise InputError(f"{what}: a whole number") from None
    if not 0 <= out < 2**63:
        raise InputError(f"{what}: a whole number from 0")
    return out


def text_field(data: dict, field: str, default: str | None, what: str) -> str:
    value = data.get(field, default)
    if not isinstance(value, str) or len(value) > 1000:
        raise InputError(f"{field}: {what}")
    return value


async def _gone(request: Request) -> None:
    """Return when the client goes away (its connection closed)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def make_app(folder: Path, hosts: Callable[[], Iterable[str]] | None,
             token: str | None = None, warm: bool = False,
             cookie: str = TOKEN_COOKIE) -> Guard:
    """The application serving the games of ``folder`` to requests whose Host header
    is one of ``hosts()`` (any, when None: a server on every address, with a token),
    with ``token``, only to those that give it (in the address, then in the cookie
    ``cookie``). ``Guard.stop()`` ends every search (the server is stopping)."""
    hub = Hub(folder)
    jobs = Jobs(caches={"advice": 256, "analysis": 32, "solve": 16})

    async def work(fn, *args):
        return await anyio.to_thread.run_sync(fn, *args)

    async def job(request: Request, key: tuple, compute, lane: str) -> Any:
        """The answer of a job (web.jobs), given up when the client goes away (the job
        stops when nobody else waits for it)."""
        waiting = asyncio.ensure_future(jobs.get(key, compute, lane))
        gone = asyncio.ensure_future(_gone(request))
        try:
            done, _ = await asyncio.wait({waiting, gone},
                                         return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
            if not waiting.done():
                waiting.cancel()
        if waiting in done:
            return waiting.result()
        raise ClientGone

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=HEADERS)

    async def list_games(request: Request) -> Response:
        return ok({"folder": str(hub.folder), "games": await work(hub.games)})

    async def new_game(request: Request) -> Response:
        table = await work(hub.create, await body(request))
        return ok(await work(table.state), 201)

    async def on_table(request: Request, call: Callable[[Table], Any]) -> Any:
        return await work(hub.call, request.path_params["name"], call)

    async def state(request: Request) -> Response:
        return ok(await on_table(request, Table.state))

    async def token_call(request: Request, field: str, what: str, call) -> Response:
        """``call(table, token, at)`` with the body's short text ``field``."""
        data = await body(request)
        token = data.get(field)
        if not isinstance(token, str) or len(token) > 40:
            raise InputError(f"{field}: {what}")
        at = number(data.get("at"), "at")
        return ok(await on_table(request, lambda table: call(table, token, at)))

    async def move(request: Request) -> Response:
        return await token_call(request, "move", "a card (8h), draw or undo", Table.move)

    async def reveal(request: Request) -> Response:
        return await token_call(request, "card", "a card token (Ks)", Table.reveal)

    async def cancel(request: Request) -> Response:
        at = number((await body(request)).get("at"), "at")
        return ok(await on_table(request, lambda table: table.cancel(at)))

    async def peek(request: Request) -> Response:
        at = number((await body(request)).get("at"), "at")
        return ok(await on_table(request, lambda table: table.peek(at)))

    def advice_args(request: Request) -> tuple[int, int | None]:
        q = request.query_params
        samples = number(q.get("samples"), "samples")
        samples = check_samples(DEFAULT_SAMPLES if samples is None else samples)
        return samples, number(q.get("seed"), "seed")

    async def advice(request: Request) -> Response:
        samples, seed = advice_args(request)
        at = number(request.query_params.get("at"), "at")
        key, compute, lane = await on_table(
            request, lambda table: table.advice_job(at, samples, seed))
        return ok(await job(request, key, compute, lane))

    async def analysis(request: Request) -> Response:
        samples, seed = advice_args(request)
        key, compute, lane = await on_table(
            request, lambda table: table.analysis_job(samples, seed))
        return ok(await job(request, key, compute, lane))

    async def solve(request: Request) -> Response:
        data = await body(request)
        text = text_field(data, "text", None, "a game code or a layout of 52 cards")
        scoring = text_field(data, "scoring", "app", "app, original or cards-left")
        return ok(await job(request, ("solve", text, scoring),
                            lambda should_stop: solve_page(text, scoring), "heavy"))

    async def input_error(request: Request, exc: Exception) -> Response:
        status = status_of(exc)
        if status >= 500:
            once(("errno", os_errno(exc)), "%s %s: %s", request.method, request.url.path, exc)
        return error(status, str(exc).splitlines()[0] if str(exc) else "bad request")

    async def os_error(request: Request, exc: Exception) -> Response:
        why = getattr(exc, "strerror", None) or str(exc)
        once(("errno", os_errno(exc)), "%s %s: %s", request.method, request.url.path, why)
        return error(status_of(exc), f"the server cannot do it now: {why}")

    async def stopping(request: Request, exc: Exception) -> Response:
        return error(503, STOPPING)

    async def client_gone(request: Request, exc: Exception) -> Response:
        return Response(status_code=499)  # never seen: nobody is there to read it

    async def http_error(request: Request, exc: HTTPException) -> Response:
        return error(exc.status_code, exc.detail if isinstance(exc.detail, str) else "error",
                     dict(exc.headers or {}))

    async def too_large(request: Request, exc: TooLarge) -> Response:
        return error(413, f"request body over {MAX_BODY} bytes")

    async def server_error(request: Request, exc: Exception) -> Response:
        return error(500, "internal error")

    @contextlib.asynccontextmanager
    async def lifespan(app):
        _quiet_accept_errors(asyncio.get_running_loop())
        hub.start()
        if warm:
            import threading

            threading.Thread(target=_warm_up, daemon=True).start()
        try:
            yield
        finally:
            jobs.close()
            hub.close()

    routes = [
        Route("/", page), Route("/play/{name}", page), Route("/solve", page),
        Route("/api/games", list_games), Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{name}", state),
        Route("/api/games/{name}/move", move, methods=["POST"]),
        Route("/api/games/{name}/reveal", reveal, methods=["POST"]),
        Route("/api/games/{name}/cancel", cancel, methods=["POST"]),
        Route("/api/games/{name}/peek", peek, methods=["POST"]),
        Route("/api/games/{name}/advice", advice),
        Route("/api/games/{name}/analysis", analysis),
        Route("/api/solve", solve, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    # Starlette's types want every handler to take any Exception; each takes its own.
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={
        InputError: input_error, OSError: os_error, Stopping: stopping, Cancelled: stopping,
        ClientGone: client_gone, ClientDisconnect: client_gone,
        HTTPException: http_error, TooLarge: too_large,  # type: ignore[dict-item]
        Exception: server_error})
    app.state.hub = hub
    app.state.jobs = jobs
    return Guard(app, hosts, token, cookie, jobs)


def _quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """Out of file descriptors, asyncio logs a traceback for every connection it cannot
    accept, many times a second: one line a minute instead (the connections wait in the
    system's queue and are served once descriptors are free)."""
    default = loop.get_exception_handler()

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") == "socket.accept() out of system resource":
            exc = context.get("exception")
            once("accept", "cannot accept connections (%s): they wait until some close",
                 getattr(exc, "strerror", None) or exc)
            return
        if default is not None:
            default(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handler)


def _warm_up() -> None:
    """Load the kernels before the first advice asks for them."""
    try:
        from ..analysis.fair import View
        from ..analysis.hints import fair_advice
        from ..model.dealing import Deal
        from ..model.position import Position
        from ..solver.solve import warm_up

        warm_up()
        fair_advice(View.of(Position(Deal.from_number(0))), 10, 0, 0)
    except Exception as exc:  # noqa: BLE001  (the first advice loads them, and says)
        log.error("warm-up failed: %s", exc)


__all__ = ["MAX_BODY", "make_app"]
