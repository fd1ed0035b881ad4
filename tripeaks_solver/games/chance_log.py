"""The chances the advice computed for a game, kept beside its record.

``NAME.txt.chances`` next to the record ``NAME.txt``: one JSON object a line, an
``analysis.chances.entry`` (the digest of what the player could see, the samples, the
seed, the scheme, and every legal move's wins and points), appended as the advice
computes them. It is a cache, not a record: the record stays what ``replay`` and every
older version read, a game without it loads as before (its chances are computed again),
a line that cannot be read (cut short by a kill, another version's) is skipped, and a
write that fails costs only the time to compute them again. An entry is valid wherever
its key matches (the chances are a function of the view, the samples, the seed and the
scheme alone), so a correction of the record needs no rewrite of the file: entries of
views that no longer occur are never asked for. :meth:`ChanceLog.load` puts them back
in the process's cache (the review of a game continued after a restart, or ``analyze
--record`` in another process, reuses them) and says the samples and seed last used.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

SUFFIX = ".chances"
MOST_BYTES = 64 * 1024 * 1024  # a larger file is not read (not one a game writes)


class ChanceLog:
    """The chances file of the record ``record``. Safe to share between threads."""

    def __init__(self, record: Path) -> None:
        self.path = record.with_name(record.name + SUFFIX)
        self.lock = threading.Lock()

    def load(self) -> tuple[int | None, int | None]:
        """Put every readable entry back in the cache; the samples and seed of the last
        one (None, None without any)."""
        from ..analysis.chances import remember

        samples = seed = None
        try:
            if self.path.stat().st_size > MOST_BYTES:
                return None, None
            text = self.path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None, None
        for line in text.splitlines():
            try:
                item = json.loads(line)
            except ValueError:
                continue
            if remember(item):
                samples, seed = int(item["samples"]), int(item["seed"])
        return samples, seed

    def keep(self, entry: dict) -> None:
        """Append ``entry`` (one line, written whole or not at all as far as a reader
        cares: a torn line is skipped)."""
        line = json.dumps(entry, separators=(",", ":")) + "\n"
        with self.lock:
            try:
                with open(self.path, "a", encoding="utf-8") as f:
                    f.write(line)
            except OSError:
                pass  # a cache: the chances are computed again when asked for


__all__ = ["SUFFIX", "ChanceLog"]
