"""The Starlette application: the page, its JSON API, and the guards a local server
needs (Host and Origin checked, an optional token, bodies kept small, every error a
short JSON answer, never a traceback).
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
from collections.abc import Callable, Iterable
from pathlib import Path

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import InputError
from ..model.i18n import _, current
from .hub import Hub, NotFound
from .lang import Speaking, catalog, page_html
from .review import PRIORITY
from .solving import solve_page
from .table import Conflict, Table, check_samples

STATIC = Path(__file__).parent / "static"
MAX_BODY = 16 * 1024  # the largest request the page sends is a layout: about 200 bytes
TOKEN_COOKIE = "tripeaks_token"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
DEFAULT_SAMPLES = 1000
log = logging.getLogger("tripeaks_solver.web")
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                               "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store"}


class TooLarge(Exception):
    pass


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status, headers=HEADERS)


def ok(data: dict, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status, headers=HEADERS)


# --- the guards ------------------------------------------------------------------------
class Guard:
    """The outermost layer: Host (DNS rebinding), the token, Origin (CSRF) on requests
    that change state, the body's size; and the last catch of any error, logged in one
    line and answered as JSON."""

    def __init__(self, app, hosts: Callable[[], Iterable[str]] | None,
                 token: str | None) -> None:
        self.app = app
        self.hosts = hosts
        self.token = token

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        refusal = self.refuse(request)
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
                    cookie = (f"{TOKEN_COOKIE}={self.token}; Path=/; HttpOnly; "
                              "SameSite=Strict").encode()
                    message = {**message, "headers": [*message.get("headers", []),
                                                      (b"set-cookie", cookie)]}
            await send(message)

        try:
            await self.app(scope, limited, watched)
        except Exception as exc:  # noqa: BLE001  (the last catch: one line logged, JSON sent)
            if not isinstance(exc, TooLarge):
                log.error("error on %s %s: %s: %s", request.method, request.url.path,
                          type(exc).__name__, exc)
            if not started:
                answer = (error(413, f"request body over {MAX_BODY} bytes")
                          if isinstance(exc, TooLarge) else error(500, "internal error"))
                await answer(scope, receive, send)

    def refuse(self, request: Request) -> Response | None:
        host = request.headers.get("host", "")
        if not host or self.hosts is not None and host not in set(self.hosts()):
            return error(421 if request.headers.get("host") else 400,
                         "unknown Host header: open the address the server printed")
        if self.token:
            given = request.query_params.get("token") or request.cookies.get(TOKEN_COOKIE, "")
            if not secrets.compare_digest(given.encode(), self.token.encode()):
                return error(403, "a token is needed: open the address the server printed")
        if request.method not in SAFE_METHODS:
            origin = request.headers.get("origin")
            if origin is not None and origin != f"http://{host}":
                return error(403, "request from another site refused")
            site = request.headers.get("sec-fetch-site")
            if site is not None and site not in ("same-origin", "none"):
                return error(403, "request from another site refused")
            kind = request.headers.get("content-type", "").split(";")[0].strip()
            if kind != "application/json":
                return error(415, "send JSON (Content-Type: application/json)")
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            return error(413, f"request body over {MAX_BODY} bytes")
        return None


# --- the handlers ----------------------------------------------------------------------
async def body(request: Request) -> dict:
    raw = await request.body()
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise InputError(_("the request body is not JSON")) from None
    if not isinstance(data, dict):
        raise InputError(_("expected a JSON object"))
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


def make_app(folder: Path, hosts: Callable[[], Iterable[str]] | None,
             token: str | None = None, warm: bool = False, lang: str | None = None,
             fallback: str = "en"):
    """The application serving the games of ``folder`` to requests whose Host header
    is one of ``hosts()`` (any, when None: a server on every address, with a token),
    with ``token``, only to those that give it (in the address, then in a cookie).
    Each request speaks its page's language (web/lang.py: ``lang`` the server's
    ``--lang``, ``fallback`` its environment's)."""
    hub = Hub(folder)
    heavy = anyio.CapacityLimiter(1)  # searches one at a time: the machine's cores

    async def work(fn, *args, limiter=None):
        return await anyio.to_thread.run_sync(fn, *args, limiter=limiter)

    async def page(request: Request) -> Response:
        html = (STATIC / "index.html").read_text(encoding="utf-8")
        return HTMLResponse(page_html(html, current()), headers=HEADERS)

    async def messages(request: Request) -> Response:
        return Response(catalog(current()), media_type="application/json", headers=HEADERS)

    async def list_games(request: Request) -> Response:
        return ok({"folder": str(hub.folder), "games": await work(hub.games)})

    async def new_game(request: Request) -> Response:
        table = await work(hub.create, await body(request))
        return ok(await work(table.state), 201)

    async def table_of(request: Request):
        return await work(hub.table, request.path_params["name"])

    async def state(request: Request) -> Response:
        table = await table_of(request)
        return ok(await work(table.state))

    async def token_call(request: Request, field: str, what: str, call) -> Response:
        """``call(table, token, at)`` with the body's short text ``field``."""
        data = await body(request)
        token = data.get(field)
        if not isinstance(token, str) or len(token) > 40:
            raise InputError(f"{field}: {what}")
        table = await table_of(request)
        return ok(await work(call, table, token, number(data.get("at"), "at")))

    async def move(request: Request) -> Response:
        return await token_call(request, "move", "a card (8h), draw or undo", Table.move)

    async def reveal(request: Request) -> Response:
        return await token_call(request, "card", "a card token (Ks)", Table.reveal)

    async def cancel(request: Request) -> Response:
        await body(request)
        table = await table_of(request)
        return ok(await work(table.cancel))

    async def peek(request: Request) -> Response:
        data = await body(request)
        table = await table_of(request)
        return ok(await work(table.peek, number(data.get("at"), "at")))

    def advice_args(request: Request) -> tuple[int, int | None]:
        q = request.query_params
        samples = number(q.get("samples"), "samples")
        samples = check_samples(DEFAULT_SAMPLES if samples is None else samples)
        return samples, number(q.get("seed"), "seed")

    async def advice(request: Request) -> Response:
        table = await table_of(request)
        samples, seed = advice_args(request)
        at = number(request.query_params.get("at"), "at")
        with PRIORITY.urgent():  # the move list's judging pauses meanwhile
            return ok(await work(table.advice, at, samples, seed, limiter=heavy))

    async def analysis(request: Request) -> Response:
        table = await table_of(request)
        samples, seed = advice_args(request)
        return ok(await work(table.analysis, samples, seed, limiter=heavy))

    # --- the player's page: corrections, the peek's last step, the move list judged ----
    async def correct(request: Request) -> Response:
        data = await body(request)
        told, right = data.get("told"), data.get("to")
        if not isinstance(told, str) or not isinstance(right, str) or max(
                len(told), len(right)) > 10:
            raise InputError("told, to: the card told and the card it was (Ks, Qh)")
        table = await table_of(request)
        return ok(await work(table.correct, told, right, number(data.get("at"), "at")))

    async def peek_next(request: Request) -> Response:
        data = await body(request)
        table = await table_of(request)
        return ok(await work(table.peek_next, number(data.get("at"), "at")))

    async def review(request: Request) -> Response:
        table = await table_of(request)
        samples, seed = advice_args(request)
        at = number(request.query_params.get("at"), "at")
        return ok(await work(table.review, at, samples, seed))

    async def review_board(request: Request) -> Response:
        table = await table_of(request)
        ply = number(request.path_params["ply"], "move")
        return ok(await work(table.review_board, ply, limiter=heavy))

    async def solve(request: Request) -> Response:
        data = await body(request)
        return ok(await work(solve_page, data.get("text"), data.get("scoring", "app"),
                             limiter=heavy))

    async def input_error(request: Request, exc: Exception) -> Response:
        status = 404 if isinstance(exc, NotFound) else 409 if isinstance(exc, Conflict) else 400
        return error(status, str(exc).splitlines()[0] if str(exc) else "bad request")

    async def http_error(request: Request, exc: HTTPException) -> Response:
        return error(exc.status_code, exc.detail if isinstance(exc.detail, str) else "error")

    async def too_large(request: Request, exc: TooLarge) -> Response:
        return error(413, f"request body over {MAX_BODY} bytes")

    async def server_error(request: Request, exc: Exception) -> Response:
        return error(500, "internal error")

    @contextlib.asynccontextmanager
    async def lifespan(app):
        if warm:
            import threading

            threading.Thread(target=_warm_up, daemon=True).start()
        try:
            yield
        finally:
            hub.close()

    routes = [
        Route("/", page), Route("/play/{name}", page), Route("/solve", page),
        Route("/api/messages", messages),
        Route("/api/games", list_games), Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{name}", state),
        Route("/api/games/{name}/move", move, methods=["POST"]),
        Route("/api/games/{name}/reveal", reveal, methods=["POST"]),
        Route("/api/games/{name}/cancel", cancel, methods=["POST"]),
        Route("/api/games/{name}/peek", peek, methods=["POST"]),
        Route("/api/games/{name}/advice", advice),
        Route("/api/games/{name}/analysis", analysis),
        Route("/api/games/{name}/correct", correct, methods=["POST"]),
        Route("/api/games/{name}/peek-next", peek_next, methods=["POST"]),
        Route("/api/games/{name}/review", review),
        Route("/api/games/{name}/review/{ply}", review_board),
        Route("/api/solve", solve, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    # Starlette's types want every handler to take any Exception; each takes its own.
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={
        InputError: input_error,
        HTTPException: http_error, TooLarge: too_large,  # type: ignore[dict-item]
        Exception: server_error})
    app.state.hub = hub
    return Speaking(Guard(app, hosts, token), lang, fallback)


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
