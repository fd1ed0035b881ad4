"""``coach``: an interactive session for a game played in an app. The player tells what
they see and what they did; the coach shows the board as they see it and recommends the
fair player's move (the exact best one once every card is known), and keeps the game's
record in a file as it grows, so that nothing is lost.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..analysis.observed import (
    NeedsObservation,
    Observed,
    ObservedGame,
    Start,
    name_place,
    seen_help,
)
from ..analysis.records import header, looks_like_record, make_start, parse_record_file, torn_note
from ..batch.errors import BatchError
from ..batch.files import LockedFile, write_all
from ..errors import IllegalMoveError, InputError
from ..model.cards import Card
from ..model.game import UNDO_LIMIT, Status
from ..model.messages import language_from_env
from ..model.moves import Move
from .common import SEED, STDIN, plural, refuse_unused, rule_options
from .games import RULE_PARAMS, Typed, game_options, read_game
from .group import cli
from .hint import SCORE_LABEL, new_seed, position_lines
from .peek import undo_limit_option

if TYPE_CHECKING:
    from ..analysis.hints import FairAdvice, Hint
    from ..analysis.peek import Step as PeekStep
    from ..model.rules import Rules

COMMANDS = {"q": "quit", "quit": "quit", "exit": "quit", "?": "help", "h": "help",
            "help": "help", "b": "board", "board": "board", "r": "record", "record": "record",
            "p": "peek", "peek": "peek"}
HELP = """\
Type what you did in the app, one move a line:
  8h         you removed 8♥ (if it turned up a card, say it: 8h:Ks, or answer the question)
  d          you drew a card (d:9h says what it showed)
  u          you took back the last move (the cards you saw stay known)
Commands: ? this help, b the board again, r the record so far, p peek (start or stop
looking at the cards with moves and undos, in an app with undo), q stop (Ctrl-D too).
The record is saved after every move; coach --record FILE continues it.
Moves are counted as the app counts them: a move taken back still counts."""
ADVICE = """\
  It plays the careful move, unless playing on over guesses at the cards you have not
  seen shows a better one. "Still winnable" is the share of those guesses that a player
  who saw every card could still win: a ceiling, not your odds."""
TURN_KEYS = ("moves_played", "status", "score", "stock_left", "cards_left", "waste", "known",
             "unknown", "exact", "recommended", "player", "seed", "moves", "need", "peek",
             "error", "record_file", "final")


def data_dir() -> Path:
    """Where the coach keeps its records by default: ``$XDG_DATA_HOME/tripeaks-solver``
    (``~/.local/share/tripeaks-solver``), or the platform's application directory."""
    base = os.environ.get("XDG_DATA_HOME")
    if base:
        return Path(base) / "tripeaks-solver"
    if sys.platform.startswith("linux") or sys.platform.startswith("freebsd"):
        return Path.home() / ".local" / "share" / "tripeaks-solver"
    return Path(click.get_app_dir("tripeaks-solver"))


def default_record(start: Start) -> Path:
    """A new file for the record of ``start``, named after it and the time it began."""
    if start.kind == "code":
        name = start.text
    elif start.kind == "seen":
        name = "seen-" + "".join(start.text.split())
    else:
        name = "layout-" + "".join(t for t in start.text.split() if t != "??")[:24]
    name = re.sub(r"[^A-Za-z0-9-]", "", name)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    folder = data_dir() / "games"
    path = folder / f"{name}-{stamp}.txt"
    n = 2
    while path.exists():
        path = folder / f"{name}-{stamp}-{n}.txt"
        n += 1
    return path


class RecordFile:
    """The session's record file, locked while the session runs; every move is appended
    and synced to the disk before the next is read, so a crash loses none."""

    def __init__(self, path: Path, make_folder: bool = False) -> None:
        self.path = path
        self.make_folder = make_folder  # the default folder is made; one typed must exist
        self.file: LockedFile | None = None

    def open(self) -> str:
        """Lock the file (made if missing) and return what it holds."""
        if self.make_folder:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise InputError(f"cannot make {self.path.parent} for the record: "
                                 f"{exc.strerror or exc} (give --record FILE)") from None
        try:
            self.file = LockedFile(self.path, "the record", "record")
        except BatchError as exc:
            raise InputError(str(exc).replace("another run", "another session")) from None
        size = self.file.size
        data = os.pread(self.file.fd, size, 0) if size else b""
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            self.close()
            raise InputError(f"{self.path} is not a game record (not UTF-8 text): "
                             "give another --record file") from None

    def write(self, text: str) -> None:
        assert self.file is not None
        fd = self.file.fd
        os.lseek(fd, 0, os.SEEK_END)
        try:
            write_all(fd, text.encode("utf-8"))
            os.fsync(fd)
        except OSError as exc:
            raise InputError(f"cannot write the record {self.path}: "
                             f"{exc.strerror or exc}") from None

    def end_torn_tail(self, text: str, torn: str | None) -> None:
        """End the last line with its line end; one cut short that was not read as a
        move (``torn``) is kept as a comment, so that what the file held stays in it."""
        if not text or text.endswith("\n"):
            return
        assert self.file is not None
        if torn is not None:
            body = text.rpartition("\n")[0]
            os.ftruncate(self.file.fd, len((body + "\n").encode("utf-8")))
            self.write(f"# cut short, left out: {torn}\n")
        else:
            self.write("\n")

    def close(self) -> None:
        if self.file is not None:
            self.file.close(discard=True)
            self.file = None


@dataclass(frozen=True)
class PeekTurn:
    """Where a peek stands: the next step (None when no line shows another card), the
    moves to take back to where it began, the taps so far, the cards still unknown."""

    step: PeekStep | None
    back: int
    taps: int
    unknown: int

    @property
    def finished(self) -> bool:
        return self.step is None and not self.back

    def text(self, rules: Rules) -> str:
        if self.step is None:
            why = ("every card is known" if not self.unknown else
                   f"no line shows the other {plural(self.unknown, 'card')} with the cards known")
            return f"Peek: {why}; undo {self.back} to go back to where the peek began."
        step = self.step
        moves = " ".join(m.pretty for m in step.moves)
        todo = f"undo {step.undos}, then {moves}" if step.undos else moves
        if step.moves == (Move.DRAW,) and not step.undos:
            return "Peek: draw, and say the card."
        shown = " and ".join(name_place(p, rules) for p in step.shows)
        return f"Peek: {todo}, and say the card that turns up ({shown})."

    def done_text(self) -> str:
        taps = plural(self.taps, "tap")
        if not self.unknown:
            return f"Peek done in {taps}: every card is known."
        return (f"Peek done in {taps}: {plural(self.unknown, 'card')} stay unknown (no line "
                "within the undo limit shows them with the cards known).")

    def json(self, rules: Rules) -> dict:
        step = self.step
        return {"undos": self.back if step is None else step.undos,
                "moves": [] if step is None else [m.token for m in step.moves],
                "shows": [] if step is None else [{"place": p, "name": name_place(p, rules)}
                                                  for p in step.shows],
                "back": self.back, "taps": self.taps, "unknown": self.unknown}


@dataclass
class Session:
    """The state of one coach session and its input and output."""

    game: ObservedGame
    scoring: str
    samples: int
    seed: int
    fair: bool
    as_json: bool
    interactive: bool
    record: RecordFile
    undo_limit: int = UNDO_LIMIT
    peek_base: int | None = None  # peeking: the moves of the record before the peek began
    peek_began: int = 0  # the record's length when the player asked for the peek
    pending: Move | None = None  # a move waiting for the cards it turned up
    need: tuple[int, ...] = ()
    said: list[Card] = field(default_factory=list)

    # --- output ---------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        if not self.as_json:
            click.echo(text)

    def turn(self, error: str | None = None, final: dict | None = None,
             advice: tuple[Hint | None, FairAdvice | None] | None = None,
             peek: PeekTurn | None = None) -> None:
        """One JSON object (under --json): where the game stands and the advice."""
        if not self.as_json:
            return
        position = self.game.position()
        h, fa = advice or (None, None)
        moves: list[dict] = []
        recommended = player = None
        if h is not None:
            moves = [{"move": m.move.token, "share": 1.0 if m.winnable else 0.0,
                      "share_95": [1.0, 1.0] if m.winnable else [0.0, 0.0],
                      "best_score": m.best_score} for m in h.moves]
            recommended = h.moves[0].move.token if h.moves else None
            player = "exact"
        elif fa is not None:
            moves = [{"move": m.move.token, "share": m.share, "share_95": list(m.share_95),
                      "best_score": None} for m in fa.rating.moves]
            recommended = fa.recommended and fa.recommended.token
            player = fa.player
        known = self.known()
        out = {"moves_played": position.moves_played, "status": position.status.value,
               "score": _score(position, self.scoring), "stock_left": position.stock_left,
               "cards_left": position.cards_left,
               "waste": None if position.waste is None else position.waste.token,
               "known": known, "unknown": len(self.game.knowledge.places) - known,
               "exact": self.exact(),
               "recommended": recommended, "player": player,
               "seed": None if player in (None, "exact") else self.seed, "moves": moves,
               "need": [{"place": p, "name": name_place(p, self.game.rules)}
                        for p in self.need] or None,
               "peek": None if peek is None else peek.json(self.game.rules),
               "error": error, "record_file": str(self.record.path), "final": final}
        assert tuple(out) == TURN_KEYS
        click.echo(json.dumps(out, ensure_ascii=False))
        sys.stdout.flush()

    def board(self) -> None:
        position = self.game.position()
        title = "Your game" if self.game.start.kind != "code" else self.game.start.text
        for line in position_lines(title, position, self.scoring, reveal=False):
            self.say(line)
        total = len(self.game.knowledge.places)
        unknown = total - self.known()
        self.say(f"Known: {self.known()} of {total} cards"
                 + (f" ({unknown} not seen yet)" if unknown else " (every card)"))

    # --- advice ---------------------------------------------------------------------
    def exact(self) -> bool:
        """Is the advice exact: every card seen, or the whole deal known (a code, a full
        layout) and not --fair?"""
        return self.game.knowledge.complete or self.game.exact and not self.fair

    def known(self) -> int:
        """The places of the deal the advice may read: all of them when it is exact."""
        return len(self.game.knowledge.places) if self.exact() else len(self.game.known_places)

    def advise(self) -> tuple[Hint | None, FairAdvice | None]:
        """The exact hint when every card is known (and not --fair), else the fair one."""
        from ..analysis.fair import View
        from ..analysis.hints import fair_advice, hint

        position = self.game.position()
        if self.exact():
            return hint(position, self.scoring), None
        view = View.of(position, self.game.known_places)
        return None, fair_advice(view, self.samples, self.seed, 0, self.scoring)

    def show_advice(self, h: Hint | None, fa: FairAdvice | None) -> None:
        if h is not None:
            if not h.moves:
                return
            best = h.moves[0]
            state = "winnable" if best.winnable else "no win left"
            self.say(f"Best: {best.move.pretty}  (exact, every card known: {state}, best "
                     f"{SCORE_LABEL[self.scoring]} {best.best_score})")
            self.say("  " + "   ".join(f"{m.move.pretty} {m.best_score}{m.mark and ' ' + m.mark}"
                                       for m in h.moves))
            return
        if fa is None or fa.recommended is None:
            return
        self.say(f"Recommended: {fa.recommended.pretty}  ({fa.player} player, seed {fa.seed})")
        shares = "   ".join(f"{m.move.pretty} {100 * m.share:.0f}%" for m in fa.rating.moves)
        self.say(f"  still winnable after: {shares}  (of "
                 f"{plural(fa.rating.samples, 'guess', 'guesses')} at the unseen cards)")

    # --- peek -----------------------------------------------------------------------
    def toggle_peek(self) -> str | None:
        """Start a peek here, or stop the one going on: a message when there is none to
        start."""
        if self.peek_base is not None:
            back = self.peek_turn().back
            self.peek_base = None
            self.say("Peek stopped." + (f" Undo {back} to go back to where it began (or "
                                        "play on from here)." if back else ""))
            return None
        if self.exact():
            return "every card is known already: nothing to peek"
        if not self.undo_limit:
            return "the app cannot undo (--undo-limit 0): nothing to peek"
        self.peek_base = self.peek_began = len(self.game.record)
        return None

    def peek_turn(self) -> PeekTurn:
        """The next step of the peek, from what the player knows and the moves played
        since it began that are still on the board."""
        from ..analysis.peek import next_step

        moves = self.game.moves
        stack: list[Move] = []
        for i in range(self.peek_base, len(moves)):
            if not moves[i].is_undo:
                stack.append(moves[i])
            elif stack:
                stack.pop()
            else:  # taken back past where the peek began: it begins here now
                self.peek_base = i + 1
        knowledge = self.game.knowledge
        step = None
        if not knowledge.complete:
            step = next_step(knowledge, self.game.rules, moves[:self.peek_base], stack,
                             self.undo_limit)
        return PeekTurn(step, len(stack), len(moves) - self.peek_began,
                        len(knowledge.unknown_places))

    # --- input ----------------------------------------------------------------------
    def ask(self, prompt: str) -> str | None:
        """One line of input (None at its end), after the prompt; from a pipe the prompt
        and the line read are printed, as a terminal would show them."""
        if self.interactive:
            try:
                return input(prompt)
            except EOFError:
                click.echo()
                return None
        line = sys.stdin.readline()
        if not line:
            return None
        line = line.rstrip("\r\n")
        self.say(prompt + line)  # a log of the session reads as it would on a terminal
        return line

    def prompt(self) -> str:
        if self.pending is not None:
            p = self.need[len(self.said)]
            if self.pending.is_draw:
                return "The card you drew: which is it? "
            return f"{name_place(p, self.game.rules).capitalize()} turned up: which card? "
        return "Your move (a card, d, u; ? for help): "

    def handle(self, line: str) -> str | None:
        """Act on one input line; returns an error message, or None."""
        text = line.strip()
        if not text:
            return None
        word = text.lower()
        if self.pending is not None and word not in COMMANDS:
            return self.answer(text)
        if word in COMMANDS:
            return COMMANDS[word]  # the caller acts on commands
        try:
            step = Observed.parse(text)
        except InputError as exc:
            return str(exc)
        return self.play(step)

    def answer(self, text: str) -> str | None:
        """The cards a pending move turned up, one or more on a line (or the move again
        with them: d:9h)."""
        try:
            step = Observed.parse(text)
            if step.move == self.pending and step.shown and not self.said:
                return self._answered(step)
        except InputError:
            pass
        try:
            cards = [Card.parse(w) for w in text.replace(",", " ").split()]
        except InputError as exc:
            return f"{exc}; say the card that turned up (e.g. 7s), or q to stop"
        if len(self.said) + len(cards) > len(self.need):
            self.said = []
            return (f"{self.pending.pretty} turned up {plural(len(self.need), 'card')} you "
                    f"have not seen, not {len(cards)}: say {'it' if len(self.need) == 1 else 'them'}"
                    " again")
        self.said += cards
        if len(self.said) < len(self.need):
            return None
        move, said = self.pending, iter(self.said)
        places = self.game.shows(move)
        known = self.game.knowledge.places
        shown = tuple(known[p] if known[p] is not None else next(said) for p in places)
        return self._answered(Observed(move, shown))

    def _answered(self, step: Observed) -> str | None:
        """Play the pending move with the cards said; when they cannot be right, ask
        again."""
        pending, need = self.pending, self.need
        self.pending, self.need, self.said = None, (), []
        error = self.play(step)
        if error is not None:
            self.pending, self.need = pending, need
            return f"{error}: say {'it' if len(need) == 1 else 'them'} again (q to stop)"
        return None

    def play(self, step: Observed) -> str | None:
        try:
            self.game.play(step)
        except NeedsObservation as exc:
            self.pending, self.need, self.said = step.move, exc.places, []
            return None
        except (InputError, IllegalMoveError) as exc:
            return str(exc)
        self.record.write(self.game.record[-1].token + "\n")
        return None


def _score(position, scoring: str) -> int:
    return position.cards_left if scoring == "cards-left" else position.score_under(scoring)


@cli.command("coach", short_help="Play along with a game in an app: advice move by move.")
@click.argument("words", nargs=-1, metavar="[CODE]")
@game_options
@click.option("--fair", is_flag=True,
              help="With a code or a full layout: advise from only what the player has seen "
                   "(otherwise the coach, knowing every card, gives the exact best move).")
@click.option("--samples", type=click.IntRange(1, 100_000), default=1000, show_default=True,
              help="Completions of the unseen cards a recommendation looks at (the fair:N "
                   "player's N, and the shares shown).")
@click.option("--seed", type=SEED, default=None,
              help="Seed of the recommendations (default: a new one, printed); hint --fair "
                   "--seed S on the same record recommends the same moves.")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per turn (for scripts reading standard output).")
@click.option("--peek", is_flag=True,
              help="In an app with undo: first look at every card with moves and undos, "
                   "the fewest taps the coach can plan (p starts or stops it during the "
                   "game), then play the exact best line.")
@undo_limit_option
@click.option("--analysis/--no-analysis", default=True, show_default=True,
              help="Judge the whole game at the end (exactly when every card became known).")
@rule_options()
def coach_command(words: tuple[str, ...], rule_choice: str, layouts: tuple[str, ...],
                  layout_file: Path | None, seen: str | None, record_path: Path | None,
                  lang: str | None, fair: bool, samples: int, seed: int | None,
                  as_json: bool, peek: bool, undo_limit: int, analysis: bool, scoring: str,
                  **opts) -> None:
    """Follow a game played in an app, move by move, with advice.

    Start it with what you see: --seen "the 10 face-up cards left to right, then the
    waste card" (or a code, or --layout); without any, it asks. Then type each move you
    make in the app (8h, d, u); when a move turns up a card, it asks which (or say it at
    once: 8h:Ks, d:9h). Every turn shows the board as you see it and the move the
    strongest fair player would make. The record is saved after every move to --record
    FILE (by default a new file under your data directory, named at the start);
    coach --record FILE continues a game. Reads one line a move from a pipe too.
    At the prompt: ? help, b the board, r the record, p peek, q stop. Easy rules
    unless --rules classic.

    In an app with undo, --peek (or p during the game) first walks you through
    looking at every card: a few moves to play, the card to say, the moves to undo,
    in the fewest taps the coach can plan; then it gives the exact best line.
    """
    interactive = sys.stdin is not None and sys.stdin.isatty() and not as_json
    if sys.stdin is not None and hasattr(sys.stdin, "reconfigure"):
        # Lines are read as UTF-8, as every command reads them; a byte that is not
        # becomes a mark the move's message shows, never a traceback.
        sys.stdin.reconfigure(encoding="utf-8", errors="replace")
    if interactive:
        try:
            import readline  # noqa: F401  (line editing and history for input())
        except ImportError:
            pass
    if record_path is not None and str(record_path) == STDIN:
        raise click.UsageError("--record -: the coach writes its record as the game goes, "
                               "so it needs a file name")
    path = Path(record_path) if record_path is not None else None
    existing = path is not None and path.exists() and path.stat().st_size > 0
    if existing:
        if words or layouts or layout_file is not None or seen is not None:
            raise click.UsageError(f"{path} holds a game already: give no start to "
                                   "continue it, or another --record file for a new game")
        refuse_unused(RULE_PARAMS + ("scoring",), "the record holds its rules and scoring")
    record_file = RecordFile(path) if path is not None else None
    given = words or layouts or layout_file is not None or seen is not None
    if existing:
        text = record_file.open()
        if not looks_like_record(text):
            record_file.close()
            raise InputError(f"{path} is not a game record: give a new file name, or "
                             "a record coach wrote")
        try:
            stored = parse_record_file(text, str(path))
        except InputError:
            record_file.close()
            raise
        typed = Typed(stored.start, stored.scoring, stored.moves)
    elif given:
        typed = read_game(words, layouts, layout_file, seen, None, rule_choice, scoring, opts)
    else:
        typed = _ask_start(rule_choice, scoring, opts, interactive, as_json)
        if typed is None:
            return
    # The moves of a record continued (or typed after a code) are played again.
    game = ObservedGame(typed.start, lang or language_from_env())
    for number, step in enumerate(typed.moves, 1):
        try:
            game.play(step)
        except (InputError, IllegalMoveError) as exc:
            if record_file is not None:
                record_file.close()
            raise InputError(f"move {number} ({step.said}) of the record: {exc}") from None
    if game.exact and not fair:
        refuse_unused(("samples", "seed"), "the coach knows every card of this deal and "
                      "gives the exact best move (add --fair to be advised blind)")
    if record_file is None:
        record_file = RecordFile(default_record(typed.start), make_folder=True)
    try:
        if not existing:
            record_file.open()
            record_file.write(header(typed.start, typed.scoring)
                              + "".join(o.token + "\n" for o in game.record))
        else:
            if stored.torn is not None:
                click.echo(torn_note(str(path), stored.torn), err=True)
            record_file.end_torn_tail(text, stored.torn)
        seed = new_seed() if seed is None else seed
        session = Session(game, typed.scoring, samples, seed, fair, as_json, interactive,
                          record_file, undo_limit)
        _run(session, continued=existing, analysis=analysis, peek=peek)
    finally:
        record_file.close()


def _ask_start(rule_choice: str, scoring: str, opts: dict, interactive: bool,
               as_json: bool) -> Typed | None:
    """The start asked for on standard input: the cards seen, or a game code."""
    from .games import _rules

    rules = _rules(rule_choice, None, opts)
    other = "Classic" if rules.name == "easy" else "Easy"
    if interactive:
        click.echo(f"What do you see? Type {seen_help(rules)} (e.g. Jd 4s Ac 8h 4c 2h 8c 6h 8d "
                   f"8s 9c), or a game code; q stops. Cards as seen play under {rules} "
                   f"rules (for {other}: coach --rules {other.lower()}).")
    while True:
        if interactive:
            try:
                line = input("Start: ")
            except EOFError:
                click.echo()
                return None
        else:
            raw = sys.stdin.readline() if sys.stdin is not None else ""
            if not raw:
                raise click.UsageError("no start given: the first line of standard input (or "
                                       "--seen, a code, --layout) names it")
            line = raw.strip()
        text = line.strip()
        if not text:
            continue
        if COMMANDS.get(text.lower()) == "quit":
            return None
        try:
            if "-" in text and len(text.split()) == 1:
                from .common import parse_code, pick_rules

                gc = parse_code(text)
                rules = pick_rules(rule_choice, gc.rules, opts, gc.joker)[0]
                return Typed(make_start("code", text, rules), scoring, (), gc.number)
            return Typed(Start.of_seen(text, rules), scoring, ())
        except (InputError, click.UsageError) as exc:
            message = exc.format_message() if isinstance(exc, click.UsageError) else str(exc)
            message = message.replace("--seen ", "the start ", 1)  # not typed as an option
            if not interactive:
                raise click.UsageError(message) from None
            click.echo(f"  {message}")


def _run(session: Session, continued: bool, analysis: bool, peek: bool) -> None:
    game = session.game
    where = "Continuing" if continued else "Recording to"
    session.say(f"{where} {session.record.path}  (coach --record FILE continues it)")
    session.say(f"{game.rules} rules, {session.scoring} scoring")
    if not session.exact():
        session.say(f"Advice: the fair:{session.samples} player, seed {session.seed} "
                    "(? for help, q to stop)")
        session.say(ADVICE)
    show = True
    undid = False  # the last line was an undo
    error = session.toggle_peek() if peek else None
    if error is not None:
        session.say(f"  --peek: {error}")
    advised: dict[int, tuple] = {}  # the advice of the position after n moves of the record
    while True:
        advice = (None, None)
        peek = None
        if session.pending is None and session.peek_base is not None:
            peek = session.peek_turn()
            if peek.finished:
                session.say()
                session.say(peek.done_text())
                session.peek_base, peek = None, None
        in_play = game.game.status is Status.IN_PLAY
        if session.pending is None and peek is not None:
            # a peek may pass a stuck end: undo takes it back
            if show and undid and peek.step is not None and peek.step.undos:
                session.say(peek.text(game.rules))  # in a run of undos, no board each time
            elif show:
                session.say()
                session.board()
                session.say(peek.text(game.rules))
        elif session.pending is None and in_play:
            if show:
                session.say()
                session.board()
            try:
                if len(game.record) not in advised:
                    advised.clear()
                    advised[len(game.record)] = session.advise()
                advice = advised[len(game.record)]
                if show:
                    session.show_advice(*advice)
            except KeyboardInterrupt:
                if not session.interactive:
                    raise
                session.say("(advice interrupted)")
        elif session.pending is None:
            break  # won or stuck
        session.turn(error=error, advice=advice, peek=peek)
        while True:
            try:
                line = session.ask(session.prompt())
            except KeyboardInterrupt:
                if not session.interactive:
                    raise
                click.echo("\n(Ctrl-C: the move is dropped; q or Ctrl-D stops, the record is "
                           "saved)")
                session.pending, session.need, session.said = None, (), []
                continue
            break
        if line is None:
            break
        played = len(game.record)
        result = session.handle(line)
        undid = len(game.record) > played and game.record[-1].move.is_undo
        error = None
        show = True
        if result == "quit":
            session.pending, session.need = None, ()
            break
        if result == "help":
            session.say(HELP)
            show = False
        elif result == "peek":
            error = session.toggle_peek()
            if error is not None:
                session.say(f"  {error}")
                show = False
        elif result == "board":
            show = True
        elif result == "record":
            session.say("Record: " + (" ".join(game.tokens) or "(no move yet)"))
            show = False
        elif result is not None:
            error = result
            session.say(f"  {result}")
            show = False
        elif session.pending is not None:
            show = False
    _finish(session, analysis)


def _finish(session: Session, analysis: bool) -> None:
    game = session.game
    position = game.position()
    status = position.status
    result = {Status.WON: "won", Status.STUCK: "stuck"}.get(status, "stopped")
    if result != "stopped":  # a stopped game's board was the last thing shown
        session.say()
        session.board()
    label = SCORE_LABEL[session.scoring]
    session.say(f"Game {result}: {label} {_score(position, session.scoring)}, "
                f"{plural(game.game.moves, 'move')}")
    review = None
    if analysis and game.record:
        from ..analysis.hints import analyze_game
        from .analyze import review_lines
        from .common import progress_bar

        samples = min(session.samples, 200)
        try:
            with progress_bar(len(game.record), "move") as advance:
                review = analyze_game(game.start, game.record, session.scoring,
                                      fair=not game.exact, samples=samples, seed=session.seed,
                                      progress=advance)
        except KeyboardInterrupt:
            if not session.interactive:
                raise
            session.say("(analysis interrupted)")
        if review is not None:
            session.say()
            title = game.start.title if game.start.kind != "code" else game.start.text
            for line in review_lines(title, review, samples, session.seed):
                session.say(line)
    session.say()
    session.say("Record: " + (" ".join(game.tokens) or "(no move)"))
    session.say(f"Saved in {session.record.path}: tripeaks-solve analyze --record "
                f"{session.record.path}")
    final = {"result": result, "score": _score(position, session.scoring),
             "moves": game.game.moves, "record": game.tokens,
             "analysis": None if review is None else {
                 "exact": review.exact, "best_start": review.best_start,
                 "final_best": review.final_best, "lost_at": review.lost_at,
                 "lost_total": review.lost_total, "moves": review.rows()}}
    session.turn(final=final)
