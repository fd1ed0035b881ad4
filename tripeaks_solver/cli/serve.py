"""``serve``: the local web page to play along, peek and step through best lines."""

from __future__ import annotations

import errno
import ipaddress
import os
import secrets
import socket
import sys
from pathlib import Path

import click

from ..errors import EXIT_INTERRUPTED, InputError
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
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise InputError(f"port {port} is in use on {host}: give another --port "
                             "(--port 0 picks a free one)") from None
        raise InputError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def _wildcard(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


@cli.command("serve", short_help="Play along, peek and see best lines on a local web page.")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="The port to listen on (0: a free one, printed).")
@click.option("--host", default=LOOPBACK, show_default=True,
              help="The address to listen on. Another than the loopback lets other machines "
                   "in: the printed address then holds a token the page needs.")
@click.option("--data-dir", "data_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None,
              help="The folder of the game records (default: the one coach uses).")
@click.option("--open/--no-open", "open_browser", default=True, show_default=True,
              help="Open the page in the browser.")
def serve_command(port: int, host: str, data_dir: Path | None, open_browser: bool) -> None:
    """Serve a local web page to play a game along with advice (the coach's page),
    peek at the cards, and step through a deal's best line.

    The page lists the game records of the data directory (those the terminal coach
    writes, newest first) and continues any of them; every move is written to the
    record at once, as coach does. Ctrl-C stops the server.
    """
    import logging

    import uvicorn

    from ..web.app import make_app

    folder = data_dir if data_dir is not None else _records_folder()
    if folder.exists() and not folder.is_dir():
        raise InputError(f"--data-dir {folder}: not a folder")
    sock = _bind(host, port)
    port = sock.getsockname()[1]
    token = None
    shown = host
    if host != LOOPBACK and host != "localhost":
        token = secrets.token_urlsafe(24)
        click.echo(f"warning: --host {host} lets other machines reach the server; the page "
                   "needs the token in the address below", err=True)
        if _wildcard(host):
            shown = socket.gethostname()
    hosts = {f"{LOOPBACK}:{port}", f"localhost:{port}", f"{shown}:{port}", f"{host}:{port}"}
    if ":" in host:  # an IPv6 address is written in brackets in a Host header
        hosts.add(f"[{host}]:{port}")
    url = f"http://{LOOPBACK if token is None else shown}:{port}/"
    if token is not None:
        url += f"?token={token}"
    app = make_app(folder, (lambda: hosts) if not _wildcard(host) else None, token,
                   warm=True)
    click.echo(f"Serving {folder} on {url}  (Ctrl-C stops)")
    sys.stdout.flush()
    logging.basicConfig(format="tripeaks-solve serve: %(message)s", level=logging.WARNING)
    # uvicorn annotates the timeout as an int, but waits with asyncio.timeout: a float.
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                            timeout_graceful_shutdown=0.5,  # type: ignore[arg-type]
                            log_config=None)
    server = uvicorn.Server(config)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        # Stopped by Ctrl-C: the records are synced after every move; a search still
        # running in a worker thread must not hold the exit up.
        sys.stderr.write("tripeaks-solve: interrupted\n")
        sys.stderr.flush()
        sys.stdout.flush()
        os._exit(EXIT_INTERRUPTED)
