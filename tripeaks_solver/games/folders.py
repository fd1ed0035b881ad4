"""Where the coach and the page keep the records: the data folder by each system's
conventions (the one place that differs by system, with the locks of ``locking.py``),
and the names of new records.
"""

from __future__ import annotations

import datetime
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from ..model.observed import Start

APP = "tripeaks-solver"


def data_dir() -> Path:
    """Where the coach keeps its records by default: ``$XDG_DATA_HOME/tripeaks-solver``
    (``~/.local/share/tripeaks-solver``), or the platform's application directory
    (``%APPDATA%`` on Windows, ``~/Library/Application Support`` on macOS)."""
    base = os.environ.get("XDG_DATA_HOME")
    if base:
        return Path(base) / APP
    if sys.platform == "win32":
        root = os.environ.get("APPDATA") or os.environ.get("LOCALAPPDATA")
        return Path(root) / APP if root else Path.home() / "AppData" / "Roaming" / APP
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / APP
    return Path.home() / ".local" / "share" / APP


def games_dir() -> Path:
    """The folder of the records named by default."""
    return data_dir() / "games"


def default_record(start: Start, folder: Path | None = None) -> Path:
    """A new file for the record of ``start`` in ``folder`` (:func:`games_dir`), named
    after it and the time it began (a name no file has now: :meth:`RecordFile.new_in`
    takes one that no other session can take meanwhile)."""
    for n, path in enumerate(record_names(start, folder)):
        if n >= 10_000 or not path.exists():
            return path
    raise AssertionError("unreachable")


def record_names(start: Start, folder: Path | None = None) -> Iterator[Path]:
    """The names a record of ``start`` begun now may take, in order: NAME-STAMP.txt,
    NAME-STAMP-2.txt, … in ``folder`` (:func:`games_dir`)."""
    if start.kind == "code":
        name = start.text
    elif start.kind == "seen":
        name = "seen-" + "".join(start.text.split())
    else:
        name = "layout-" + "".join(t for t in start.text.split() if t != "??")[:24]
    name = re.sub(r"[^A-Za-z0-9-]", "", name)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    folder = games_dir() if folder is None else folder
    yield folder / f"{name}-{stamp}.txt"
    n = 2
    while True:
        yield folder / f"{name}-{stamp}-{n}.txt"
        n += 1


__all__ = ["APP", "data_dir", "default_record", "games_dir", "record_names"]
