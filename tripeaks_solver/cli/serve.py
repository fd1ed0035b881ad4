"""``serve``: the local web page to play along, peek and step through best lines."""

from __future__ import annotations

import errno
import ipaddress
import os
import secrets
import signal
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..errors import EXIT_INTERRUPTED, InputError
from ..model.i18n import _, language_from_env
from .common import lang_option
from .group import cli

LOOPBACK = "127.0.0.1"


def _records_folder() -> Path:
    """The folder where the terminal coach keeps its records by default."""
    from ..games.record_file import games_dir

    return games_dir()


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (an InputError when it cannot be had)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise InputError(f"--host {host}: {exc.strerror}") from None
    family, address = infos[0][0], infos[0][4]
    # TCP by its number: asyncio sets TCP_NODELAY only on such sockets' connections (an
    # answer's head and body would otherwise wait ~40 ms for the client's delayed ACK).
    sock = socket.socket(family, socket.SOCK_STREAM, infos[0][2] or socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise InputError(_("port {port} is in use on {host}: give another --port (--port "
                               "0 picks a free one)", port=port, host=host)) from None
        raise InputError(_("cannot listen on {host}:{port}: {why}", host=host, port=port,
                           why=exc.strerror or exc)) from None
    return sock


def _address(sock: socket.socket) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    """The address the socket listens on, as the system bound it (``--host 0`` is
    0.0.0.0, a name its address)."""
    return ipaddress.ip_address(sock.getsockname()[0].split("%")[0])


def _is_loopback(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether ``address`` is this machine's own (an IPv4 one written as IPv6 too:
    ``::ffff:127.0.0.1``)."""
    mapped = getattr(address, "ipv4_mapped", None)
    return (mapped or address).is_loopback


def _url_host(address: ipaddress.IPv4Address | ipaddress.IPv6Address | str) -> str:
    """A host as a URL and a Host header write it: an IPv6 address in brackets."""
    text = str(address)
    return f"[{text}]" if ":" in text else text


def _lan_address() -> str | None:
    """This machine's address on its local network, as another machine reaches it (the
    source address of a route out; a UDP socket connected sends nothing), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only the route is looked up
            address = ipaddress.ip_address(probe.getsockname()[0])
    except (OSError, ValueError):
        return None
    return None if address.is_loopback or address.is_unspecified else str(address)


def qr_text(url: str, tty: bool = False) -> str:
    """``url`` as a QR code drawn with text (half blocks), for a phone's camera: light
    modules as the characters drawn (a terminal's text is light on dark), or in explicit
    black and white on a terminal that takes colours (``tty``)."""
    import io

    import qrcode

    code = qrcode.QRCode(border=2)
    code.add_data(url)
    code.make(fit=True)
    out = io.StringIO()
    if tty:
        code.print_tty(out=out)
    else:
        code.print_ascii(out=out, invert=True)
    return out.getvalue()


def _more_files() -> None:
    """Raise the soft limit of open files to the hard one (macOS starts at 256): each
    connection and each game held open takes one."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = 4096 if hard == resource.RLIM_INFINITY else min(hard, 4096)
        if soft != resource.RLIM_INFINITY and soft < want:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    except (ImportError, ValueError, OSError):
        pass


@cli.command("serve", short_help="Play along, peek and see best lines on a local web page.")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="The port to listen on (0: a free one, printed).")
@click.option("--host", default=LOOPBACK, show_default=True,
              help="The address to listen on. One that is not the loopback (127.0.0.0/8, "
                   "::1) lets other machines in: the printed address then holds a token "
                   "the page needs.")
@click.option("--data-dir", "data_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None,
              help="The folder of the game records (default: the one coach uses).")
@click.option("--open/--no-open", "open_browser", default=True, show_default=True,
              help="Open the page in the browser.")
@lang_option
def serve_command(port: int, host: str, data_dir: Path | None, open_browser: bool,
                  lang: str) -> None:
    """Serve a local web page to play a game along with advice (the coach's page),
    peek at the cards, and step through a deal's best line.

    The page lists the game records of the data directory (those the terminal coach
    writes, newest first) and continues any of them; every move is written to the
    record at once, as coach does. It speaks the language chosen on it (its switch),
    else --lang, else the browser's, else LC_ALL, LC_MESSAGES or LANG. Ctrl-C stops
    the server.
    """
    try:
        _serve(port, host, data_dir, open_browser, lang)
    except KeyboardInterrupt:  # at any moment, even while the server starts
        _interrupted()


def _serve(port: int, host: str, data_dir: Path | None, open_browser: bool,
           lang: str) -> None:
    import logging

    import uvicorn

    from ..web.app import make_app
    from ..web.guard import TOKEN_COOKIE

    folder = data_dir if data_dir is not None else _records_folder()
    if folder.exists() and not folder.is_dir():
        raise InputError(_("--data-dir {folder}: not a folder", folder=folder))
    sock = _bind(host, port)
    port = sock.getsockname()[1]
    bound = _address(sock)
    token = None
    shown = _url_host(bound)
    if not _is_loopback(bound):
        token = secrets.token_urlsafe(24)
        if bound.is_unspecified:  # every interface: the machine's name reaches it
            shown = socket.gethostname()
            click.echo(_("warning: --host {host} ({address}: every address of this machine) "
                         "lets other machines reach the server; the page needs the token in "
                         "the address below", host=host, address=bound), err=True)
        else:
            where = f"{host} ({bound})" if host != str(bound) else host
            click.echo(_("warning: --host {host} lets other machines reach the server; the "
                         "page needs the token in the address below", host=where), err=True)
    hosts = {f"{LOOPBACK}:{port}", f"localhost:{port}", f"{shown}:{port}",
             f"{_url_host(bound)}:{port}"}
    if host != str(bound) and ":" not in host:  # the name given (--host localhost)
        hosts.add(f"{host}:{port}")
    url = f"http://{LOOPBACK if bound == ipaddress.ip_address(LOOPBACK) else shown}:{port}/"
    if token is not None:
        url += f"?token={token}"
    given = click.get_current_context().get_parameter_source("lang")
    share = None
    if token is not None:  # another machine (the phone) opens it: by the LAN's address
        lan = _lan_address() if bound.is_unspecified else None
        share = f"http://{_url_host(lan) if lan else shown}:{port}/?token={token}"
    app = make_app(folder, (lambda: hosts) if not bound.is_unspecified else None, token,
                   warm=True, cookie=f"{TOKEN_COOKIE}_{port}", fallback=language_from_env(),
                   lang=lang if given is click.core.ParameterSource.COMMANDLINE else None,
                   share=share)
    click.echo(_("Serving {folder} on {url}  (Ctrl-C stops)", folder=folder, url=url))
    if share is not None:
        click.echo(_("On a phone on this network, open {url} or scan:", url=share))
        click.echo(qr_text(share, tty=sys.stdout.isatty()), nl=False)
    sys.stdout.flush()
    _more_files()
    logging.basicConfig(format="tripeaks-solve serve: %(message)s", level=logging.WARNING)
    # uvicorn annotates the timeout as an int, but waits with asyncio.timeout: a float.
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                            timeout_graceful_shutdown=0.5,  # type: ignore[arg-type]
                            log_config=None, backlog=128)
    server = _stopping_server(config, app.stop)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    server.run(sockets=[sock])


def _interrupted(code: int = EXIT_INTERRUPTED) -> None:
    # Stopped by Ctrl-C: the records are synced after every move; a search still
    # running in a worker thread must not hold the exit up.
    sys.stderr.write("tripeaks-solve: interrupted\n")
    sys.stderr.flush()
    sys.stdout.flush()
    os._exit(code)


def _stopping_server(config: Any, stop: Callable[[], None]) -> Any:
    """uvicorn's server that, told to stop (Ctrl-C, SIGTERM), first stops every search,
    so that the requests waiting for one are answered (503) at once and the server
    exits within a second. (uvicorn is imported only when serve runs.)"""
    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            if self.should_exit:  # told twice: at once (every record is synced)
                _interrupted(EXIT_INTERRUPTED if sig == signal.SIGINT else 128 + sig)
            stop()
            super().handle_exit(sig, frame)

    return Server(config)
