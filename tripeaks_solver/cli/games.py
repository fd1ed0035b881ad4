"""The game a command is about: its start as typed (a code, a layout, the cards seen at
the start, or a record file) and its observed record, replayed with one-line errors.
``hint``, ``analyze``, ``replay`` and ``coach`` share it; ``coach`` may ask for it."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import click

from ..errors import IllegalMoveError, InputError
from ..games.records import make_start, parse_record_file, torn_note
from ..model.i18n import _, ngettext
from ..model.observed import (
    Observed,
    ObservedGame,
    Start,
    move_error,
    parse_observed,
    seen_help,
)
from ..model.pysol import PysolInfo, pysol_info, pysol_title
from ..model.rules import Rules
from ..model.scoring import Scheme
from .common import (
    EXIT_ILLEGAL,
    STDIN,
    InputPath,
    expand_stdin,
    lang_option,
    parse_code,
    pick_rules,
    read_input,
    read_layouts,
    refuse_unused,
)

RULE_PARAMS = ("rule_choice", "empty_waste", "joker", "draw_when_stuck", "open_peaks", "wrap")


@dataclass(frozen=True)
class Typed:
    """What a command line (or a record file) named: the start, the scoring scheme, the
    observed moves, and the deal number when the start is a code."""

    start: Start
    scoring: Scheme
    moves: tuple[Observed, ...]
    number: int | None = None

    @property
    def code(self) -> str | None:
        """The game code of the start (None for a PySolFC game: see ``pysol``)."""
        if self.start.kind != "code" or self.pysol is not None:
            return None
        return self.start.text

    @property
    def pysol(self) -> PysolInfo | None:
        """The ``pysol`` key of the JSON outputs (model.pysol.pysol_info)."""
        return pysol_info(self.start.deal, self.start.rules, self.scoring)

    def title(self, game: ObservedGame | None = None) -> str:
        """``TP1-E-AAAAAAD  (deal 3, Easy rules)``, ``game seen in an app  (Easy rules,
        41 cards unknown)``."""
        from ..games.turns import rules_name

        rules = rules_name(self.start.rules)
        games = pysol_title(self.start.deal, self.start.rules, self.scoring)
        if games is not None:
            return _("{code}  ({games}; {rules})", code=self.start.text, games=games,
                     rules=rules)
        if self.number is not None:
            return _("{code}  (deal {number}, {rules})", code=self.start.text,
                     number=self.number, rules=rules)
        knowledge = game.knowledge if game is not None else self.start.knowledge
        unknown = len(knowledge.unknown_places)
        if not unknown:
            return _("{title}  ({rules})", title=self.start.title, rules=rules)
        return ngettext("{title}  ({rules}, {n} card unknown)",
                        "{title}  ({rules}, {n} cards unknown)", unknown,
                        title=self.start.title, rules=rules)


def game_options(f):
    """The options naming a game (--layout, --layout-file, --seen, --record) and the
    language of the game's messages (--lang); --rules comes with the other rule options
    (common.rule_options)."""
    opts = [
        click.option("--layout", "layouts", multiple=True, metavar="CARDS",
                     help="A deal typed in (52 cards in `deal --format line` order) instead "
                          "of a code; ?? for a card the player has not seen."),
        click.option("--layout-file", type=InputPath(), default=None,
                     help="A file holding that one layout line (- for standard input)."),
        click.option("--seen", metavar="CARDS", default=None,
                     help="A game in an app, as the player sees it at the start: the 10 "
                          "face-up cards left to right, then the waste card (no waste card "
                          "with --empty-waste; all 28 peak cards, row by row, under --open)."),
        click.option("--record", "record_path", type=InputPath(), default=None,
                     help="A game record file (as `coach` writes): its start, rules, "
                          "scoring and moves; MOVES typed after it are played on."),
        lang_option,
    ]
    for opt in reversed(opts):
        f = opt(f)
    return f


def read_game(words: tuple[str, ...], layouts: tuple[str, ...], layout_file: Path | None,
              seen: str | None, record_path: Path | None, rule_choice: str, scoring: Scheme,
              opts: dict) -> Typed:
    """The start and the moves: a code first among ``words`` unless --layout, --seen or
    --record names the start; the other words are observed moves (``-`` among them:
    the moves read from standard input)."""
    starts = sum((bool(layouts) or layout_file is not None, seen is not None,
                  record_path is not None))
    if starts > 1:
        raise click.UsageError("give one start: a code, --layout, --seen or --record")
    number = None
    if record_path is not None:
        refuse_unused(RULE_PARAMS, "the record holds its rules")
        name, text = read_input(record_path, record=True)
        record = parse_record_file(text, name)
        if record.torn is not None:
            click.echo(torn_note(name, record.torn), err=True)
        if click.get_current_context().get_parameter_source("scoring") in (
                None, click.core.ParameterSource.DEFAULT):
            scoring = record.scoring
        start, moves = record.start, record.moves
        if start.kind == "code":
            number = parse_code(start.text).number
    elif seen is not None:
        rules = _rules(rule_choice, None, opts)
        start = make_start("seen", seen, rules)
        moves = ()
    elif layouts or layout_file is not None:
        typed = read_layouts(layouts, layout_file)
        if len(typed) != 1:
            raise click.UsageError("give one deal: one --layout, or a --layout-file of one line"
                                   if typed else f"{layout_file} holds no layout")
        start = Start.of_layout(typed[0][1], _rules(rule_choice, None, opts))
        moves = ()
    else:
        if not words:
            raise click.UsageError("give a game code (e.g. TP1-E-AAAAAAD), --seen, --layout "
                                   "or --record")
        gc = parse_code(words[0])
        rules = _rules(rule_choice, gc.rules, opts, gc.joker, gc.number is None)
        start = make_start("code", str(gc), rules)  # a deal number becomes its code
        number = gc.number
        moves = ()
        words = words[1:]
    stdin_taken = STDIN in (str(layout_file), str(record_path))
    return Typed(start, scoring, tuple(moves) + tuple(read_moves(words, stdin_taken)), number)


def _rules(choice: str, code_rules: str | None, opts: dict, joker: bool = False,
           pysol: bool = False) -> Rules:
    return pick_rules(choice, code_rules, opts, joker, pysol)[0]


def read_moves(words: tuple[str, ...], stdin_taken: bool = False) -> list[Observed]:
    """Observed moves from the command line; ``-`` reads more from standard input (one
    or more a line, ``#`` comments), once (``stdin_taken``: the start was read there)."""
    try:
        return parse_observed(expand_stdin(words, stdin_taken))
    except InputError as exc:
        raise click.UsageError(str(exc)) from None


def play_game(typed: Typed, lang: str | None, on_error=None) -> ObservedGame:
    """The game after the record. A move that contradicts what is known, or lacks the
    cards it showed, is malformed input (exit 2); an illegal move exits 1 with the
    game's message, after ``on_error(game, message, number)`` (the JSON of the command
    under --json)."""
    game = ObservedGame(typed.start, lang)
    for number, step in enumerate(typed.moves, 1):
        try:
            game.play(step)
        except InputError as exc:
            raise InputError(move_error(number, step.said, exc)) from None
        except IllegalMoveError as exc:
            if on_error is not None:
                on_error(game, str(exc), number)
            click.echo(move_error(number, step.said, exc), err=True)
            sys.exit(EXIT_ILLEGAL)
    return game


def read_line(prompt: str, interactive: bool, echo: bool) -> str | None:
    """One line of input (None at its end), after the prompt; from a pipe the prompt and
    the line read are printed with ``echo``, as a terminal would show them."""
    if interactive:
        try:
            return input(prompt)
        except EOFError:
            click.echo()
            return None
    line = sys.stdin.readline() if sys.stdin is not None else ""
    if line and echo:
        click.echo(prompt + line.rstrip("\r\n"))
    return line.rstrip("\r\n") if line else None


def ask_start(rule_choice: str, scoring: Scheme, opts: dict, interactive: bool) -> Typed | None:
    """The start of a game played along (``coach``), asked for on standard input: the
    cards seen, or a game code; None when the player stops (q, end of input)."""
    from ..games.records import start_from_text
    from ..games.turns import rules_name

    rules = _rules(rule_choice, None, opts)
    if interactive:
        example = "Jd 4s Ac 8h 4c 2h 8c 6h 8d 8s 9c"
        click.echo(
            _("What do you see? Type {what} (e.g. {example}), or a game code; q stops. Cards "
              "as seen play under {rules} (for Classic: coach --rules classic).",
              what=seen_help(rules), example=example, rules=rules_name(rules)) if rules.wrap
            else _("What do you see? Type {what} (e.g. {example}), or a game code; q stops. "
                   "Cards as seen play under {rules} (for Easy: coach --rules easy).",
                   what=seen_help(rules), example=example, rules=rules_name(rules)))
    while True:
        text = read_line(_("Start: "), interactive, echo=False)
        if text is None and not interactive:
            raise click.UsageError(_("no start given: the first line of standard input (or "
                                     "--seen, a code, --layout) names it"))
        if text is None:
            return None
        text = text.strip()
        if not text:
            continue
        if text.lower() in ("q", "quit", "exit"):
            return None
        try:
            start = start_from_text(text, rules, lambda code: pick_rules(
                rule_choice, code.rules, opts, code.joker, code.number is None)[0])
            return Typed(start, scoring, ())
        except (InputError, click.UsageError) as exc:
            message = exc.format_message() if isinstance(exc, click.UsageError) else str(exc)
            if not interactive:
                raise click.UsageError(message) from None
            click.echo(f"  {message}")
