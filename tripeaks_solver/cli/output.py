"""Output in an encoding without the suit symbols (``PYTHONIOENCODING=latin-1``, ASCII):
cards fall back to the machine letters (``K♣`` -> ``Kc``, the joker ``Jk``), and any
other character the encoding lacks to its plain letters (``ặ`` -> ``a``) or ``?``,
instead of a crash."""

from __future__ import annotations

import codecs
import io
import sys
import unicodedata

from ..model.cards import SUIT_SYMBOLS, SUITS

ERRORS = "tripeaks-plain"
_ASCII = "tripeaks-ascii"  # ASCII by another name: see fit_streams
_PLAIN = {**dict(zip(SUIT_SYMBOLS, SUITS, strict=True)), "🃏": "Jk", "–": "-", "—": "-",
          "−": "-", "…": "...", "×": "x", "‘": "'", "’": "'", "“": '"', "”": '"', "→": "->",
          "≤": "<=", "≥": ">=", "đ": "d", "Đ": "D"}


def _encodes(text: str, encoding: str) -> bool:
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return False
    return True


def _plain(ch: str, encoding: str) -> str:
    if ch in _PLAIN:
        return _PLAIN[ch]
    kept = "".join(c for c in unicodedata.normalize("NFKD", ch)
                   if not unicodedata.combining(c) and _encodes(c, encoding))
    return kept or "?"


def _replace(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    text = exc.object[exc.start:exc.end]
    return "".join(_plain(ch, exc.encoding) for ch in text), exc.end


def _search(name: str) -> codecs.CodecInfo | None:
    if name != _ASCII.replace("-", "_") and name != _ASCII:
        return None
    ascii_codec = codecs.lookup("ascii")
    return codecs.CodecInfo(ascii_codec.encode, ascii_codec.decode, name=_ASCII,
                            incrementalencoder=ascii_codec.incrementalencoder,
                            incrementaldecoder=ascii_codec.incrementaldecoder,
                            streamreader=ascii_codec.streamreader,
                            streamwriter=ascii_codec.streamwriter)


codecs.register_error(ERRORS, _replace)
codecs.register(_search)


def fit_streams() -> None:
    """Standard output and error, when their encoding cannot write the suits: write
    what it lacks plainly (see the module's docstring) rather than fail."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if not isinstance(stream, io.TextIOWrapper) or _encodes(SUIT_SYMBOLS, stream.encoding):
            continue
        encoding = stream.encoding
        # click takes an ASCII stream for a misconfigured terminal and writes UTF-8 to it
        # instead; the same codec by another name is taken at its word.
        if codecs.lookup(encoding).name == "ascii":
            encoding = _ASCII
        try:
            stream.reconfigure(encoding=encoding, errors=ERRORS)
        except (ValueError, OSError):  # already read from, or closed: leave it as it is
            pass
