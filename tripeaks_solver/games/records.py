"""Game records on disk: plain text holding the start as seen, the rule options, the
scoring scheme and the observed moves, one move a line so that the file grows as the
game does (``coach`` writes it; ``coach``, ``hint``, ``analyze`` and ``replay`` read it
with ``--record FILE``)::

    # tripeaks-solver game record (tripeaks-solve coach --record FILE continues it)
    start: seen Jd 4s Ac 8h 4c 2h 8c 6h 8d 8s 9c
    rules: easy
    variant: empty-waste
    scoring: app
    moves:
    8h:Ks
    draw:9h

``start`` is ``code TP1-E-AAAAAAD`` (or ``code pysol:…``, a PySolFC game), ``layout`` and its 52 tokens, or ``seen`` and the
cards seen at the start; ``variant`` lists the rule options (``none`` when there are
none; an empty value is read the same).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..errors import IllegalMoveError, InputError
from ..model.codes import GameCode, NamedDeal, is_deal_number, tp_code
from ..model.dealing import Deal
from ..model.i18n import _
from ..model.layout import Layout
from ..model.observed import START_KINDS, Observed, ObservedGame, Start
from ..model.pysol import PysolGame, is_pysol
from ..model.rules import VARIANT_OPTIONS, Rules
from ..model.scoring import SCHEMES, Scheme

MAGIC = "# tripeaks-solver game record"
# What every reader takes as a record (the list, the page, coach, replay): lines of at
# most MAX_LINE bytes ended by LF or CRLF, MAX_RECORD bytes in all (a played game's
# record holds some kilobytes; one of megabytes is no record a coach wrote).
MAX_LINE = 4096
MAX_RECORD = 1_000_000
HEADER_KEYS = ("start", "rules", "variant", "scoring")
NO_VARIANT = "none"


@dataclass(frozen=True)
class GameRecord:
    """A record read from a file: the start, the scoring, and the observed moves."""

    start: Start
    scoring: Scheme
    moves: tuple[Observed, ...]
    torn: str | None = None  # a last line cut short that was left out


def make_start(kind: str, text: str, rules: Rules) -> Start:
    """The start a record names: ``code``, ``layout`` or ``seen`` and its text."""
    if kind == "code" and is_pysol(text):
        game = PysolGame.parse(text)
        return Start.of_deal("code", str(game), Deal.of(game, rules.joker), rules)
    if kind == "code":
        code = GameCode.parse(text)
        if code.joker and not rules.joker:  # the code says so (TP1-EJ-…)
            rules = rules.with_options(joker=True)
        shown = str(GameCode(code.number, rules.name, rules.joker))
        return Start.of_deal("code", shown, Deal.from_number(code.number, rules.joker), rules)
    if kind == "layout":
        return Start.of_layout(Layout.parse(text), rules)
    if kind == "seen":
        return Start.of_seen(text, rules)
    raise InputError(_("unknown start {kind} (expected one of {kinds})", kind=repr(kind),
                       kinds=", ".join(START_KINDS)))


def header(start: Start, scoring: Scheme) -> str:
    """The lines a record file begins with, up to ``moves:``."""
    return (f"{MAGIC} (tripeaks-solve coach --record FILE continues it)\n"
            f"start: {start.kind} {start.text}\n"
            f"rules: {start.rules.name}\n"
            f"variant: {start.rules.variant or NO_VARIANT}\n"
            f"scoring: {scoring}\n"
            "moves:\n")


def looks_like_record(text: str) -> bool:
    """Whether a file's text begins as a game record does."""
    return text.startswith(MAGIC)


def parse_record_file(text: str, name: str) -> GameRecord:
    """Read a record file's text (``name`` for the messages). A last line without its
    line end is a move cut short as it was written and is left out (``torn``)."""
    if not looks_like_record(text):
        raise InputError(_("{name} is not a game record (it does not begin with {magic})",
                           name=name, magic=repr(MAGIC)))
    if len(text) > MAX_RECORD or len(text.encode("utf-8")) > MAX_RECORD:
        raise InputError(too_large(name))
    if "\r" in text.split("\n", 1)[0].rstrip("\r"):
        raise InputError(_("{name}: its lines end in CR alone (an old Mac editor's line "
                           "ends): save it with LF or CRLF line ends", name=name))
    lines = text.split("\n")
    for number, raw in enumerate(lines, 1):
        if len(raw) > MAX_LINE // 4 and len(raw.rstrip("\r").encode("utf-8")) > MAX_LINE:
            raise InputError(_("{name}: line {number} is longer than {most} bytes",
                               name=name, number=number, most=f"{MAX_LINE:,}"))
    cut = lines.pop()  # "" when the text ends with a line end
    fields: dict[str, str] = {}
    moves: list[Observed] = []
    in_moves = False
    for number, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = _("{name}, line {number}", name=name, number=number)
        if in_moves:
            moves += _moves(line, where)
            continue
        key, colon, value = line.partition(":")
        key = key.strip()
        if not colon or key not in HEADER_KEYS + ("moves",):
            raise InputError(_("{where}: expected one of {keys}, then a colon", where=where,
                               keys=", ".join((*HEADER_KEYS, "moves"))))
        if key == "moves":
            in_moves = True
            if value.strip():
                moves += _moves(value, where)
            continue
        if key in fields:
            raise InputError(_("{where}: a second {key} line", where=where, key=repr(key)))
        fields[key] = value.strip()
    # A last line without its line end is a move cut short as it was written (a write
    # that failed, a kill): left out, even when what is left reads as a move (``8h``
    # of ``8h:Ks``), since the move that stands is only the whole line.
    torn = cut.strip() if in_moves and cut.split("#", 1)[0].strip() else None
    missing = [k for k in HEADER_KEYS if k not in fields and k != "variant"]
    if missing or not in_moves:
        what = missing[0] if missing else "moves"
        raise InputError(_("{name}: the record has no {key} line", name=name, key=repr(what)))
    rules = _rules(fields["rules"], fields.get("variant", ""), name)
    scoring = fields["scoring"]
    if scoring not in SCHEMES:
        raise InputError(_("{name}: unknown scoring {scoring} (expected one of {schemes})",
                           name=name, scoring=repr(scoring), schemes=", ".join(SCHEMES)))
    kind, _sep, start_text = fields["start"].partition(" ")
    try:
        start = make_start(kind, start_text.strip(), rules)
    except InputError as exc:
        said = str(exc).replace("--seen ", f"{kind} ", 1)  # a line of the file, no option
        raise InputError(f"{name}: start: {said}") from None
    return GameRecord(start, Scheme(scoring), tuple(moves), torn)


def too_large(name: str) -> str:
    """Why a file over MAX_RECORD bytes is not read as a record."""
    return _("{name} is larger than {most} bytes: not a game record", name=name,
             most=f"{MAX_RECORD:,}")


def start_from_text(text: str, rules: Rules, code_rules: Callable[[NamedDeal], Rules]
                    ) -> Start:
    """The start a player typed: a game code or a PySolFC game number (played under
    ``code_rules(code)``), a deal number (under ``rules``, named by its code) or the cards
    seen (``seen_help(rules)``)."""
    text = text.strip()
    if is_pysol(text):
        game = PysolGame.parse(text)
        return make_start("code", str(game), code_rules(game))
    if is_deal_number(text):
        gc = tp_code(text)
        code = GameCode(gc.number, rules.name, rules.joker)
        return make_start("code", str(code), code_rules(code))
    if "-" in text and len(text.split()) == 1:
        return make_start("code", text, code_rules(GameCode.parse(text)))
    return Start.of_seen(text, rules, option=False)  # typed at a prompt: no --seen


def replay_record(start: Start, moves: Iterable[Observed], lang: str | None = None
                  ) -> ObservedGame:
    """The game after ``moves`` from ``start``; an InputError names the move that
    cannot be played (``move N (token) of the record: …``)."""
    game = ObservedGame(start, lang)
    for number, step in enumerate(moves, 1):
        try:
            game.play(step)
        except (InputError, IllegalMoveError) as exc:
            raise InputError(_("move {number} ({move}) of the record: {error}",
                               number=number, move=step.said, error=exc)) from None
    return game


def torn_note(name: str, torn: str) -> str:
    """What is said of a last line cut short and left out."""
    shown = torn if len(torn) <= 40 else torn[:40] + "…"
    return _("note: the last line of {file}, {line}, has no line end: left out (a move cut "
             "short as it was written)", file=name, line=repr(shown))


def _moves(text: str, where: str) -> list[Observed]:
    out = []
    for token in text.split():
        try:
            out.append(Observed.parse(token))
        except InputError as exc:
            raise InputError(f"{where}: {exc}") from None
    return out


def _rules(name: str, variant: str, where: str) -> Rules:
    try:
        rules = Rules.named(name)
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None
    options = {}
    words = variant.replace("+", " ").split()
    for option in [] if words == [NO_VARIANT] else words:
        if option not in VARIANT_OPTIONS:
            raise InputError(_("{where}: unknown rule option {option} (expected {options})",
                               where=where, option=repr(option),
                               options=", ".join(VARIANT_OPTIONS)))
        options[VARIANT_OPTIONS[option]] = True
    return rules.with_options(**options)


__all__ = ["MAX_LINE", "MAX_RECORD", "GameRecord", "header", "looks_like_record", "make_start", "parse_record_file",
           "replay_record", "start_from_text", "too_large", "torn_note"]
