"""The Starlette application: the page and its JSON API, behind the guards of
``web.guard``; every error a short JSON answer with its right status (the request's
4xx, the server's own failures 503 or 507), never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..analysis.fair import Cancelled
from ..errors import InputError
from ..games.files import os_errno
from ..limits import MAX_ADVICE_SEED, REVIEW_SAMPLES
from ..model.i18n import N_, _, current
from .advice import check_samples
from .events import Events
from .facts import facts_json, with_facts
from .guard import (
    HEADERS,
    MAX_BODY,
    MAX_DEPTH,
    TOKEN_COOKIE,
    ClientGone,
    Guard,
    TooLarge,
    depth,
    error,
    log,
    ok,
    once,
    quiet_accept_errors,
)
from .hub import Held, Hub, NotFound
from .jobs import Jobs, Stopping
from .lang import catalog, page_html, request_language
from .payloads import GameList, GameState, ShareInfo
from .solving import MAX_TEXT, solve_page
from .table import Conflict, Table

STATIC = Path(__file__).parent / "static"
DEFAULT_SAMPLES = REVIEW_SAMPLES  # the advice's: the review reuses its chances
# The server's own failures: its disk full (507), or the machine refusing (503).
FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
STOPPING = N_("the server is stopping")


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


class PageFiles(StaticFiles):
    """The page's scripts and styles, with the page's headers (no frame, no sniffing,
    no referrer); never an HTML file: the page itself is served by its routes, with its
    headers and its bounds filled in."""

    async def get_response(self, path: str, scope: Any) -> Response:
        if path.strip("/").lower().endswith((".html", ".htm")):
            raise HTTPException(404, "Not Found")
        response = await super().get_response(path, scope)
        for name, value in HEADERS.items():
            if name != "Cache-Control":  # the scripts may be kept (their ETag says when)
                response.headers.setdefault(name, value)
        return response


# --- the handlers ----------------------------------------------------------------------
async def body(request: Request) -> dict:
    raw = await request.body()
    if depth(raw) > MAX_DEPTH:
        raise InputError(f"the request body nests deeper than {MAX_DEPTH} levels")
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise InputError(_("the request body is not JSON")) from None
    if not isinstance(data, dict):
        raise InputError(_("expected a JSON object"))
    return data


MAX_NUMBER = MAX_ADVICE_SEED  # the largest whole number a request may carry (a seed)


def number(value, what: str, default: int | None = None) -> int | None:
    """``value`` as a whole number from 0 (``default`` when absent); ``what`` names it in
    the error: the page's field (its samples and seed, typed by the player, in the page's
    words), else the request's parameter."""
    if value is None or value == "":
        return default
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InputError(_("{what}: a whole number", what=what))
    # Digits 0-9 only: int() reads "+7", " 7", "7_0" and digits of other scripts, which
    # the page would show as typed.
    if isinstance(value, str) and not (value.isascii() and value.isdigit()):
        negative = value[:1] == "-" and value[1:].isascii() and value[1:].isdigit()
        raise InputError(_("{what}: a whole number from 0", what=what) if negative
                         else _("{what}: a whole number", what=what))
    if isinstance(value, str) and len(value.lstrip("0")) > 30:  # past every bound
        raise InputError(_("{what}: a whole number from 0", what=what))
    out = int(value)
    if not 0 <= out <= MAX_NUMBER:
        raise InputError(_("{what}: a whole number from 0", what=what))
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
             cookie: str = TOKEN_COOKIE, lang: str | None = None,
             fallback: str = "en", share: str | None = None) -> Guard:
    """The application serving the games of ``folder`` to requests whose Host header
    is one of ``hosts()`` (any, when None: a server on every address, with a token),
    with ``token``, only to those that give it (in the address, then in the cookie
    ``cookie``). ``Guard.stop()`` ends every search (the server is stopping). Each
    request speaks its page's language (web/lang.py: ``lang`` the server's ``--lang``,
    ``fallback`` its environment's). ``share``: the address with its token that other
    machines open (a server on the LAN), shown on the page as a QR code."""
    events = Events()
    hub = Hub(folder, changed=lambda name: events.publish(name, None))
    jobs = Jobs(caches={"advice": 256, "analysis": 32, "solve": 16, "review": 32,
                        "board": 64})

    async def work(fn, *args):
        return await anyio.to_thread.run_sync(fn, *args)

    async def job(request: Request, key: tuple, compute, lane: str) -> Any:
        """The answer of a job (web.jobs), given up when the client goes away (the job
        stops when nobody else waits for it)."""
        waiting = asyncio.ensure_future(jobs.get(key, compute, lane))
        gone = asyncio.ensure_future(_gone(request))
        try:
            done, _pending = await asyncio.wait({waiting, gone},
                                         return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
            if not waiting.done():
                waiting.cancel()
        if waiting in done:
            return waiting.result()
        raise ClientGone

    async def page(request: Request) -> Response:
        html = (STATIC / "index.html").read_text(encoding="utf-8")
        return HTMLResponse(page_html(with_facts(html), current()), headers=HEADERS)

    async def messages(request: Request) -> Response:
        return Response(catalog(current()), media_type="application/json", headers=HEADERS)

    async def facts(request: Request) -> Response:
        return Response(facts_json(), media_type="application/json", headers=HEADERS)

    async def list_games(request: Request) -> Response:
        return ok(GameList(folder=str(hub.folder), games=await work(hub.games)))

    async def new_game(request: Request) -> Response:
        table = await work(hub.create, await body(request))
        return ok(await work(table.state), 201)

    async def on_table(request: Request, call: Callable[[Table], Any]) -> Any:
        return await work(hub.call, request.path_params["name"], call)

    async def state(request: Request) -> Response:
        return ok(await on_table(request, Table.state))

    async def change(request: Request, call: Callable[[Table], GameState]) -> GameState:
        """``call(table)``, a change of the game: every open tab of it is told."""
        out = await on_table(request, call)
        events.publish(request.path_params["name"], out["at"])
        return out

    async def game_events(request: Request) -> Response:
        name = request.path_params["name"]
        if not hub.path_of(name).is_file():
            raise NotFound(_("no record {name} in the data directory", name=repr(name)))
        return events.stream(name)

    async def share_info(request: Request) -> Response:
        return ok(ShareInfo(url=share, svg=qr_svg(share) if share else None))

    async def token_call(request: Request, field: str, what: str, call) -> Response:
        """``call(table, token, at)`` with the body's short text ``field``."""
        data = await body(request)
        token = data.get(field)
        if not isinstance(token, str) or len(token) > 40:
            raise InputError(f"{field}: {what}")
        at = number(data.get("at"), "at")
        return ok(await change(request, lambda table: call(table, token, at)))

    async def move(request: Request) -> Response:
        return await token_call(request, "move", "a card (8h), draw or undo", Table.move)

    async def reveal(request: Request) -> Response:
        return await token_call(request, "card", "a card token (Ks)", Table.reveal)

    async def cancel(request: Request) -> Response:
        at = number((await body(request)).get("at"), "at")
        return ok(await change(request, lambda table: table.cancel(at)))

    async def peek(request: Request) -> Response:
        at = number((await body(request)).get("at"), "at")
        return ok(await change(request, lambda table: table.peek(at)))

    def advice_args(request: Request) -> tuple[int, int | None]:
        q = request.query_params
        samples = number(q.get("samples"), _("Samples"))  # the start form's fields
        samples = check_samples(DEFAULT_SAMPLES if samples is None else samples)
        return samples, number(q.get("seed"), _("Seed"))

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

    # --- the player's page: corrections, the peek's last step, the move list judged ----
    async def correct(request: Request) -> Response:
        data = await body(request)
        told, right = data.get("told"), data.get("to")
        if not isinstance(told, str) or not isinstance(right, str) or max(
                len(told), len(right)) > 10:
            raise InputError("told, to: the card told and the card it was (Ks, Qh)")
        at = number(data.get("at"), "at")
        return ok(await change(request, lambda table: table.correct(told, right, at)))

    async def peek_next(request: Request) -> Response:
        at = number((await body(request)).get("at"), "at")
        return ok(await change(request, lambda table: table.peek_next(at)))

    async def review(request: Request) -> Response:
        samples, seed = advice_args(request)
        at = number(request.query_params.get("at"), "at")
        (key, compute, lane), head = await on_table(
            request, lambda table: table.review_job(at, samples, seed))
        return ok({**head, **await job(request, key, compute, lane)})

    async def review_board(request: Request) -> Response:
        ply = number(request.path_params["ply"], "move") or 0  # a path's part: never empty
        key, compute, lane = await on_table(request, lambda table: table.board_job(ply))
        return ok(await job(request, key, compute, lane))

    async def solve(request: Request) -> Response:
        data = await body(request)
        text = data.get("text")
        if not isinstance(text, str) or len(text) > MAX_TEXT:  # the field the player fills
            raise InputError(_("give a game code (TP1-E-AAAAAAB) or a layout of 52 cards"))
        scoring = text_field(data, "scoring", "app", "app, original or cards-left")
        return ok(await job(request, ("solve", text, scoring),
                            lambda should_stop: solve_page(text, scoring, should_stop),
                            "heavy"))

    async def input_error(request: Request, exc: Exception) -> Response:
        status = status_of(exc)
        if status >= 500:
            once(("errno", os_errno(exc)), "%s %s: %s", request.method, request.url.path, exc)
        return error(status, str(exc).splitlines()[0] if str(exc) else "bad request")

    async def os_error(request: Request, exc: Exception) -> Response:
        why = getattr(exc, "strerror", None) or str(exc)
        once(("errno", os_errno(exc)), "%s %s: %s", request.method, request.url.path, why)
        return error(status_of(exc), _("the server cannot do it now: {why}", why=why))

    async def stopping(request: Request, exc: Exception) -> Response:
        return error(503, _(STOPPING))

    async def client_gone(request: Request, exc: Exception) -> Response:
        return Response(status_code=499)  # never seen: nobody is there to read it

    async def http_error(request: Request, exc: HTTPException) -> Response:
        return error(exc.status_code, exc.detail if isinstance(exc.detail, str) else "error",
                     dict(exc.headers or {}))

    async def too_large(request: Request, exc: TooLarge) -> Response:
        return error(413, f"request body over {MAX_BODY} bytes")

    async def server_error(request: Request, exc: Exception) -> Response:
        return error(500, _("internal error"))

    @contextlib.asynccontextmanager
    async def lifespan(app):
        quiet_accept_errors(asyncio.get_running_loop())
        events.start()
        hub.start()
        if warm:
            import threading

            threading.Thread(target=_warm_up, daemon=True).start()
        try:
            yield
        finally:
            events.close()
            jobs.close()
            hub.close()

    routes = [
        Route("/", page), Route("/play/{name}", page), Route("/solve", page),
        Route("/api/messages", messages), Route("/api/facts", facts),
        Route("/api/games", list_games), Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{name}", state),
        Route("/api/games/{name}/events", game_events),
        Route("/api/share", share_info),
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
        Mount("/static", PageFiles(directory=STATIC), name="static"),
    ]
    # Starlette's types want every handler to take any Exception; each takes its own.
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={
        InputError: input_error, OSError: os_error, Stopping: stopping, Cancelled: stopping,
        ClientGone: client_gone, ClientDisconnect: client_gone,
        HTTPException: http_error, TooLarge: too_large,  # type: ignore[dict-item]
        Exception: server_error})
    app.state.hub = hub
    app.state.jobs = jobs
    app.state.events = events
    # Each request in its language, chosen by the guards, around everything else: the
    # refusals, the handlers and the error handlers say it in that language.
    return Guard(app, hosts, token, cookie, jobs,
                 language=lambda request: request_language(request, lang, fallback),
                 on_stop=events.close)


def qr_svg(text: str) -> str:
    """``text`` as a QR code: an SVG image, black on white (as a phone's camera reads
    it best), drawn by qrcode without an imaging library."""
    import io

    import qrcode
    import qrcode.image.svg

    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathFillImage, border=2)
    out = io.BytesIO()
    image.save(out)
    return out.getvalue().decode()


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
