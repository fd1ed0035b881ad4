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

from ..batch.errors import BatchError
from ..batch.files import LockedFile, write_all
from ..cards import Card
from ..errors import IllegalMoveError, InputError
from ..game import Status
from ..messages import language_from_env
from ..moves import Move
from ..observed import (
    NeedsObservation,
    Observed,
    ObservedGame,
    Start,
    name_place,
    seen_help,
)
from ..records import header, looks_like_record, make_start, parse_record_file
from .common import SEED, plural, refuse_unused, rule_options
from .games import RULE_PARAMS, Typed, game_options, read_game
from .group import cli
from .hint import SCORE_LABEL, new_seed, position_lines

if TYPE_CHECKING:
    from ..hints import FairAdvice, Hint

COMMANDS = {"q": "quit", "quit": "quit", "exit": "quit", "?": "help", "h": "help",
            "help": "help", "b": "board", "board": "board", "r": "record", "record": "record"}
HELP = """\
Type what you did in the app, one move a line:
  8h         you removed 8♥ (if it turned up a card, say it: 8h:Ks, or answer the question)
  d          you drew a card (d:9h says what it showed)
  u          you took back the last move (the cards you saw stay known)
Commands: ? this help, b the board again, r the record so far, q stop (Ctrl-D too).
The record is saved after every move; coach --record FILE continues it."""
TURN_KEYS = ("moves_played", "status", "score", "stock_left", "cards_left", "waste", "known",
             "unknown", "exact", "recommended", "player", "seed", "moves", "need", "error",
             "record_file", "final")


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

    def cut_torn_tail(self, text: str) -> None:
        """Drop a last line cut short (no line end) that was not read as a move, and end
        a whole one with its line end."""
        if not text or text.endswith("\n"):
            return
        assert self.file is not None
        body, _, tail = text.rpartition("\n")
        try:
            Observed.parse(tail.strip()) if tail.strip() else None
            self.write("\n")
        except InputError:
            os.ftruncate(self.file.fd, len((body + "\n").encode("utf-8")))

    def close(self) -> None:
        if self.file is not None:
            self.file.close(discard=True)
            self.file = None


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
    pending: Move | None = None  # a move waiting for the cards it turned up
    need: tuple[int, ...] = ()
    said: list[Card] = field(default_factory=list)

    # --- output ---------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        if not self.as_json:
            click.echo(text)

    def turn(self, error: str | None = None, final: dict | None = None,
             advice: tuple[Hint | None, FairAdvice | None] | None = None) -> None:
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
        """Is the advice exact: the whole deal known (a code, or every card seen), and
        not --fair?"""
        return self.game.exact and not self.fair

    def known(self) -> int:
        """The places of the deal the advice may read: all of them when it is exact."""
        return len(self.game.knowledge.places) if self.exact() else len(self.game.known_places)

    def advise(self) -> tuple[Hint | None, FairAdvice | None]:
        """The exact hint when every card is known (and not --fair), else the fair one."""
        from ..fair import View
        from ..hints import fair_advice, hint

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
                 f"{plural(fa.rating.samples, 'completion')} of the unseen cards)")

    # --- input ----------------------------------------------------------------------
    def ask(self, prompt: str) -> str | None:
        """One line of input (None at its end). Interactive: after the prompt; from a
        pipe, a question about a card is still printed (it says what to give)."""
        if self.interactive:
            try:
                return input(prompt)
            except EOFError:
                click.echo()
                return None
        if self.pending is not None:
            self.say(prompt.rstrip())
        line = sys.stdin.readline()
        return None if not line else line.rstrip("\r\n")

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
        """The cards a pending move turned up, one or more on a line."""
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
        self.pending, self.need, self.said = None, (), []
        return self.play(Observed(move, shown))

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
@click.option("--analysis/--no-analysis", default=True, show_default=True,
              help="Judge the whole game at the end (exactly when every card became known).")
@rule_options()
def coach_command(words: tuple[str, ...], rule_choice: str, layouts: tuple[str, ...],
                  layout_file: Path | None, seen: str | None, record_path: Path | None,
                  lang: str | None, fair: bool, samples: int, seed: int | None,
                  as_json: bool, analysis: bool, scoring: str, **opts) -> None:
    """Follow a game played in an app, move by move, with advice.

    Start it with what you see: --seen "the 10 face-up cards left to right, then the
    waste card" (or a code, or --layout); without any, it asks. Then type each move you
    make in the app (8h, d, u); when a move turns up a card, it asks which (or say it at
    once: 8h:Ks, d:9h). Every turn shows the board as you see it and the move the
    strongest fair player would make. The record is saved after every move to --record
    FILE (by default a new file under your data directory, named at the start);
    coach --record FILE continues a game. Reads one line a move from a pipe too.
    """
    interactive = sys.stdin is not None and sys.stdin.isatty() and not as_json
    if interactive:
        try:
            import readline  # noqa: F401  (line editing and history for input())
        except ImportError:
            pass
    path = Path(record_path) if record_path is not None else None
    existing = path is not None and path.exists() and path.stat().st_size > 0
    if existing:
        if words or layouts or layout_file is not None or seen is not None:
            raise click.UsageError(f"{path} holds a game already: give no start to "
                                   "continue it, or another --record file for a new game")
        refuse_unused(RULE_PARAMS, "the record holds its rules")
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
        if click.get_current_context().get_parameter_source("scoring") in (
                None, click.core.ParameterSource.DEFAULT):
            scoring = stored.scoring
        typed = Typed(stored.start, scoring, stored.moves)
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
    if record_file is None:
        record_file = RecordFile(default_record(typed.start), make_folder=True)
    try:
        if not existing:
            record_file.open()
            record_file.write(header(typed.start, typed.scoring)
                              + "".join(o.token + "\n" for o in game.record))
        else:
            record_file.cut_torn_tail(text)
        seed = new_seed() if seed is None else seed
        session = Session(game, typed.scoring, samples, seed, fair, as_json, interactive,
                          record_file)
        _run(session, continued=existing, analysis=analysis)
    finally:
        record_file.close()


def _ask_start(rule_choice: str, scoring: str, opts: dict, interactive: bool,
               as_json: bool) -> Typed | None:
    """The start asked for on standard input: the cards seen, or a game code."""
    from .games import _rules

    rules = _rules(rule_choice, None, opts)
    if interactive:
        click.echo(f"What do you see? Type {seen_help(rules)} (e.g. Jd 4s Ac 8h 4c 2h 8c 6h 8d "
                   "8s 9c), or a game code.")
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
        try:
            if "-" in text and len(text.split()) == 1:
                from .common import parse_code, pick_rules

                gc = parse_code(text)
                rules = pick_rules(rule_choice, gc.rules, opts, gc.joker)[0]
                return Typed(make_start("code", text, rules), scoring, (), gc.number)
            return Typed(Start.of_seen(text, rules), scoring, ())
        except (InputError, click.UsageError) as exc:
            message = exc.format_message() if isinstance(exc, click.UsageError) else str(exc)
            if not interactive:
                raise click.UsageError(message) from None
            click.echo(f"  {message}")


def _run(session: Session, continued: bool, analysis: bool) -> None:
    game = session.game
    where = "Continuing" if continued else "Recording to"
    session.say(f"{where} {session.record.path}  (coach --record FILE continues it)")
    if not session.exact():
        session.say(f"Advice: the fair:{session.samples} player, seed {session.seed} "
                    "(? for help, q to stop)")
    show = True
    error = None
    advised: dict[int, tuple] = {}  # the advice of the position after n moves of the record
    while True:
        advice = (None, None)
        if session.pending is None and game.game.status is Status.IN_PLAY:
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
        session.turn(error=error, advice=advice)
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
        result = session.handle(line)
        error = None
        show = True
        if result == "quit":
            session.pending, session.need = None, ()
            break
        if result == "help":
            session.say(HELP)
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
    session.say()
    session.board()
    label = SCORE_LABEL[session.scoring]
    session.say(f"Game {result}: {label} {_score(position, session.scoring)}, "
                f"{plural(game.game.moves, 'move')}")
    review = None
    if analysis and game.record:
        from ..hints import analyze_game
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
    session.say("Record: " + " ".join(game.tokens))
    session.say(f"Saved in {session.record.path}: tripeaks-solve analyze --record "
                f"{session.record.path}")
    final = {"result": result, "score": _score(position, session.scoring),
             "moves": game.game.moves, "record": game.tokens,
             "analysis": None if review is None else {
                 "exact": review.exact, "best_start": review.best_start,
                 "final_best": review.final_best, "lost_at": review.lost_at,
                 "lost_total": review.lost_total, "moves": review.rows()}}
    session.turn(final=final)
