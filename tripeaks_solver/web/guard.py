"""The guards a local server needs, around the application: Host (DNS rebinding), the
token (its cookie named per port), Origin and Sec-Fetch-Site (CSRF, and any API request
from another site), the body's size; the last catch of any error, logged in one line
and answered as JSON; and logs that never flood (one line of a kind a minute).

Every request is handled in its language (web/lang.py), chosen here, outside all the
rest: a refusal a person may meet in a browser (an address by another name, one without
its token) and the last catch speak it too. Those only a script or another site meets
(Origin, Sec-Fetch-Site, the body's type and size) stay in English (docs/languages.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import quote, urlencode

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from ..model.i18n import _, speaking
from .jobs import Jobs
from .payloads import ErrorAnswer

MAX_BODY = 16 * 1024  # the largest request the page sends is a layout: about 200 bytes
MAX_DEPTH = 4  # the page's bodies are an object holding at most a list of strings
TOKEN_COOKIE = "tripeaks_token"  # the server on a port adds it: tripeaks_token_8765
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
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
    return JSONResponse(ErrorAnswer(error=message), status, headers={**HEADERS, **(headers or {})})


def ok(data: Mapping[str, Any], status: int = 200) -> JSONResponse:
    return JSONResponse(data, status, headers=HEADERS)


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
    token's cookie (one per port: two servers on one machine never share it);
    ``language(request)``: the language the request speaks (model.i18n.speaking);
    ``on_stop()``: called by :meth:`stop` too."""

    def __init__(self, app: Any, hosts: Callable[[], Iterable[str]] | None,
                 token: str | None, cookie: str = TOKEN_COOKIE,
                 jobs: Jobs | None = None,
                 language: Callable[[Request], str] | None = None,
                 on_stop: Callable[[], None] | None = None) -> None:
        self.app = app
        self.on_stop = on_stop
        self.hosts = hosts
        self.token = token
        self.cookie = cookie
        self.jobs = jobs
        self.language = language

    def stop(self) -> None:
        """The server is stopping: every search ends now (safe in a signal handler)."""
        if self.jobs is not None:
            self.jobs.stop_all()
        if self.on_stop is not None:  # the live streams (web.events) end too
            self.on_stop()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        with (speaking(self.language(request)) if self.language is not None
              else contextlib.nullcontext()):
            await self._guarded(request, scope, receive, send)

    async def _guarded(self, request: Request, scope, receive, send) -> None:
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
                          if isinstance(exc, TooLarge) else error(500, _("internal error")))
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
        # A path of this server: one slash first (``//host`` names another host),
        # percent-encoded (a header holds no other character).
        where = "/" + quote(request.scope["path"].lstrip("/"), safe="/") + (
            "?" + urlencode(rest) if rest else "")
        return Response(status_code=303, headers={**HEADERS, "Location": where,
                                                  "Set-Cookie": self.set_cookie().decode()})

    def refuse(self, request: Request) -> Response | None:
        host = request.headers.get("host", "")
        if not host or self.hosts is not None and host not in set(self.hosts()):
            return error(421 if request.headers.get("host") else 400,
                         _("unknown Host header: open the address the server printed"))
        if self.token:
            given = request.query_params.get("token") or request.cookies.get(self.cookie, "")
            if not secrets.compare_digest(given.encode(), self.token.encode()):
                return error(403, _("a token is needed: open the address the server printed"))
        if request.method not in SAFE_METHODS or request.url.path.startswith("/api/"):
            # A change, or any API request (a GET too: another site's <img> must not
            # make the server work), only from this server's own page.
            origins = request.headers.getlist("origin")
            sites = request.headers.getlist("sec-fetch-site")
            if len(origins) > 1 or len(sites) > 1:  # a browser sends each once at most
                return error(400, "Origin or Sec-Fetch-Site given more than once")
            if origins and origins[0] != f"http://{host}":
                return error(403, "request from another site refused")
            if sites and sites[0] not in ("same-origin", "none"):
                return error(403, "request from another site refused")
        if request.method == "POST":
            kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                return error(415, "send JSON (Content-Type: application/json)")
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            return error(413, f"request body over {MAX_BODY} bytes")
        return None


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


def _retry_on_a_closed_socket(context: dict[str, Any]) -> bool:
    """Whether ``context`` is asyncio retrying to accept on a listening socket closed since
    (Python 3.11: out of descriptors, it schedules a retry a second later that no close
    cancels; run after the server stopped, it fails on the closed socket, harmlessly)."""
    callback = getattr(context.get("handle"), "_callback", None)
    return (isinstance(context.get("exception"), ValueError)
            and getattr(callback, "__name__", "") == "_start_serving")


def quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
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
        if _retry_on_a_closed_socket(context):
            return
        if default is not None:
            default(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handler)


__all__ = ["HEADERS", "MAX_BODY", "MAX_DEPTH", "TOKEN_COOKIE", "ClientGone", "Guard", "TooLarge", "depth",
           "error", "log", "ok", "once", "quiet_accept_errors"]
