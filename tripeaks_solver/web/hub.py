"""The games of a data directory: their record files listed, new ones started, and the
tables the server holds (one per record file, so two tabs share one game)."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

from ..errors import InputError
from ..games.record_file import default_record
from ..games.records import make_start
from ..games.session import CoachSession
from ..model.codes import GameCode
from ..model.i18n import _
from ..model.layout import Layout
from ..model.observed import Start
from ..model.rules import VARIANT_OPTIONS, Rules
from ..model.scoring import SCHEMES
from .table import Table

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,150}")
IDLE_SECONDS = 60  # a game left alone this long is let go: a terminal coach may take it


class NotFound(InputError):
    """A record name that names no record file of the data directory."""


class Hub:
    """The record files of ``folder`` and the games the server holds open."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.lock = threading.Lock()
        self.tables: dict[str, Table] = {}

    # --- names -----------------------------------------------------------------------
    def path_of(self, name: str) -> Path:
        """The record file called ``name`` in the folder: a bare file name, never one
        that leaves it (InputError otherwise)."""
        if not isinstance(name, str) or not NAME.fullmatch(name) or ".." in name:
            raise InputError("not a record name: a bare file name of the data directory")
        path = self.folder / name
        if path.resolve().parent != self.folder.resolve():
            raise InputError("not a record name: a bare file name of the data directory")
        return path

    # --- the list -----------------------------------------------------------------------
    def games(self) -> list[dict]:
        """The record files (as ``coach --list`` lists them), newest first, with their
        start, rules, moves and result; those a page cannot name are left out."""
        from ..games.record_file import saved_games

        with self.lock:
            self._let_go()
            held = set(self.tables)
        out = []
        for game in saved_games(self.folder):
            if not NAME.fullmatch(game.path.name):
                continue
            readable = game.moves is not None
            out.append({"file": game.path.name,
                        "modified": game.modified.isoformat(timespec="seconds"),
                        "start": game.start if readable else None,
                        "rules": game.rules if readable else None,
                        "scoring": game.scoring if readable else None, "moves": game.moves,
                        "score": game.score, "result": game.result if readable else None,
                        "error": None if readable else game.result, "open": game.path.name in held,
                        "held": game.path.name not in held and held_elsewhere(game.path)})
        return out

    # --- tables ----------------------------------------------------------------------
    def table(self, name: str) -> Table:
        """The game in record file ``name``, opened (and locked) on first use."""
        path = self.path_of(name)
        with self.lock:
            self._let_go(keep=name)
            table = self.tables.get(name)
            if table is not None:
                table.used = time.monotonic()
                return table
            if not path.is_file():
                raise NotFound(_("no record {name} in the data directory", name=repr(name)))
            table = Table(name, _held(name, lambda: CoachSession.resume(path)))
            self.tables[name] = table
            return table

    def create(self, spec: dict) -> Table:
        """A new game from the page's start form: ``start`` (``seen``, ``code`` or
        ``layout`` text), ``rules``, ``variants``, ``scoring``."""
        start, scoring = parse_start(spec)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot make the data directory: {exc.strerror}") from None
        with self.lock:
            path = default_record(start, self.folder)
            session = _held(path.name, lambda: CoachSession.new(start, scoring, record=path))
            table = Table(path.name, session)
            self.tables[path.name] = table
            return table

    def _let_go(self, keep: str | None = None) -> None:
        """Close the games no page has touched for a while (none waiting for a card or
        peeking): their record files are free for a terminal coach again."""
        now = time.monotonic()
        for name, table in list(self.tables.items()):
            core = table.core
            if (name != keep and now - table.used > IDLE_SECONDS and core.pending is None
                    and not core.peeking and table.lock.acquire(blocking=False)):
                try:
                    core.close()
                    del self.tables[name]
                finally:
                    table.lock.release()

    def close(self) -> None:
        with self.lock:
            for table in self.tables.values():
                table.close()
            self.tables.clear()


def held_elsewhere(path: Path) -> bool:
    """Does another process (a terminal coach) hold the record's lock?"""
    import fcntl
    import os

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # closing it lets go of a lock taken
    return False


def _held(name: str, make):
    """A session on record ``name``: a record another session holds is refused, said
    for the page."""
    try:
        return make()
    except InputError as exc:
        if "in use" in str(exc):
            raise InputError(_("{name} is open in another session (a terminal coach?): "
                               "finish it there, then reload this page", name=name)) from None
        raise


def parse_start(spec: dict) -> tuple[Start, str]:
    """The start and scoring of the page's start form (InputError when malformed)."""
    if not isinstance(spec, dict):
        raise InputError("expected a JSON object")
    text = spec.get("start")
    if not isinstance(text, str) or not text.strip():
        raise InputError(_("start: the cards seen, a game code or a layout"))
    text = " ".join(text.replace(",", " ").split())
    scoring = spec.get("scoring", "app")
    if scoring not in SCHEMES:
        raise InputError(f"scoring: one of {', '.join(SCHEMES)}")
    variants = spec.get("variants", [])
    if not isinstance(variants, list) or any(v not in VARIANT_OPTIONS for v in variants):
        raise InputError(f"variants: a list of {', '.join(VARIANT_OPTIONS)}")
    name = spec.get("rules", "easy")
    if not isinstance(name, str):
        raise InputError("rules: easy or classic")
    rules = Rules.named(name).with_options(**{VARIANT_OPTIONS[v]: True for v in variants})
    words = text.split()
    if len(words) == 1 and "-" in text:
        code = GameCode.parse(text)
        # The code names its rules; the form's variants apply to it.
        rules = rules.with_options(wrap=code.rules == "easy", joker=code.joker or rules.joker)
        return make_start("code", text, rules), scoring
    if len(words) == 52 or "??" in words:
        return Start.of_layout(Layout.parse(text), rules), scoring
    return Start.of_seen(text, rules, option=False), scoring  # the page has no --seen


__all__ = ["Hub", "NotFound", "parse_start"]
