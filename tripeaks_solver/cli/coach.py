"""``coach``: an interactive session for a game played in an app, in a terminal. The
game itself (what the player has seen, the advice, the peek, the record file) is an
:class:`games.session.CoachSession`; this is its terminal: prompts and printing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from ..games.prompt import Reply, end_line, respond, toggle_peek
from ..games.record_file import RecordFile, games_dir
from ..games.records import replay_record
from ..games.saved import saved_games
from ..games.session import CoachSession
from ..games.turns import ADVICE, TURN_KEYS, Advice, rules_name, score_label, scoring_name
from ..model.game import Status
from ..model.i18n import _, current, ngettext, pgettext
from ..model.pysol import pysol_line
from ..model.scoring import Scheme
from .common import ADVICE_SEED, STDIN, refuse_unused, rule_options
from .games import RULE_PARAMS, ask_start, game_options, read_game, read_line
from .group import cli
from .hint import position_lines
from .peek import undo_limit_option

__all__ = ["TURN_KEYS", "coach_command"]


class Terminal:
    """What the session prints (text, or JSON under --json) and reads."""

    def __init__(self, session: CoachSession, as_json: bool, interactive: bool) -> None:
        self.session, self.as_json, self.interactive = session, as_json, interactive

    def say(self, *lines: str) -> None:
        for text in lines if not self.as_json else ():
            click.echo(text)

    def turn(self, advice: Advice | None = None, **kw) -> None:
        if self.as_json:
            click.echo(json.dumps(self.session.turn_data(advice, **kw), ensure_ascii=False))
            sys.stdout.flush()

    def board(self) -> None:
        s = self.session
        title = _("Your game") if s.game.start.kind != "code" else s.game.start.text
        self.say("", *position_lines(title, s.game.position(), s.scoring, reveal=False),
                 s.known_line())


@cli.command("coach", short_help="Play along with a game in an app: advice move by move.")
@click.argument("words", nargs=-1, metavar="[CODE]")
@game_options
@click.option("--fair", is_flag=True,
              help="With a code or a full layout: advise from only what the player has seen "
                   "(otherwise the coach, knowing every card, gives the exact best move).")
@click.option("--samples", type=click.IntRange(1, 100_000), default=1000, show_default=True,
              help="Completions of the unseen cards a recommendation looks at (the fair:N "
                   "player's N, and the shares shown).")
@click.option("--seed", type=ADVICE_SEED, default=None,
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
@click.option("--continue", "resume", is_flag=True,
              help="Continue the newest game saved under the data directory (--list).")
@click.option("--list", "list_games", is_flag=True,
              help="List the games saved under the data directory, newest first, and stop.")
@rule_options()
def coach_command(words: tuple[str, ...], rule_choice: str, layouts: tuple[str, ...],
                  layout_file: Path | None, seen: str | None, record_path: Path | None,
                  lang: str | None, fair: bool, samples: int, seed: int | None,
                  as_json: bool, peek: bool, undo_limit: int, analysis: bool, scoring: Scheme,
                  resume: bool, list_games: bool, **opts) -> None:
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
    given = words or layouts or layout_file is not None or seen is not None
    if list_games or resume:
        if given or record_path is not None or list_games and resume:
            raise click.UsageError(f"--{'list' if list_games else 'continue'} takes no start "
                                   "and no --record" + (" or --continue" * list_games))
        if list_games:
            return _list(as_json)
        newest = saved_games()
        if not newest:
            raise click.UsageError(_("--continue: no saved game in {folder}",
                                     folder=games_dir()))
        record_path = newest[0].path
    path = Path(record_path) if record_path is not None else None
    if path is not None and given and path.exists() and path.stat().st_size > 0:
        raise click.UsageError(_("{path} holds a game already: give no start to continue it, "
                                 "or another --record file for a new game", path=path))
    settings: dict[str, Any] = {"samples": samples, "seed": seed, "fair": fair,
                                "undo_limit": undo_limit,
                                "lang": current()}  # --lang, else the environment's
    # The file is taken (locked, made if missing) before the start is asked for: no other
    # session can write a game into it meanwhile.
    record = RecordFile(path) if path is not None else None
    session = None
    try:
        existing = record is not None and bool(record.open()) and not given
        if existing and record is not None:
            refuse_unused(RULE_PARAMS + ("scoring",), "the record holds its rules and scoring")
            session = CoachSession.resume(record, **settings)
            exact = session.game.exact
        else:
            typed = (read_game(words, layouts, layout_file, seen, None, rule_choice, scoring,
                               opts) if given else ask_start(rule_choice, scoring, opts,
                                                              interactive))
            if typed is None:
                return
            exact = replay_record(typed.start, typed.moves).exact
        if exact and not fair:  # checked before the record is written
            refuse_unused(("samples", "seed"), "the coach knows every card of this deal and "
                          "gives the exact best move (add --fair to be advised blind)")
        if session is None:
            assert typed is not None  # a new game: its start was read above
            session = CoachSession.new(typed.start, typed.scoring, moves=typed.moves,
                                       record=record, **settings)
        for note in session.notes:
            click.echo(note, err=True)
        _run(Terminal(session, as_json, interactive), existing, analysis, peek)
    finally:
        if record is not None:
            record.close()
        elif session is not None:
            session.record.close()


def _run(term: Terminal, continued: bool, analysis: bool, peek: bool) -> None:
    session = term.session
    term.say(_("Continuing {file}  (coach --record FILE continues it)", file=session.path)
             if continued else
             _("Recording to {file}  (coach --record FILE continues it)", file=session.path),
             _("{rules}, {scoring}", rules=rules_name(session.rules),
               scoring=scoring_name(session.scoring)))
    pysol = pysol_line(session.game.start.deal, session.rules, session.scoring)
    if pysol:  # a PySolFC game (pysol:N): which of its games this is
        term.say(pysol)
    if not session.exact:
        term.say(_("Advice: the fair:{samples} player, seed {seed} (? for help, q to stop)",
                   samples=session.samples, seed=session.seed), _(ADVICE))
    show, undid = True, False  # undid: the last line was an undo
    error = _say(term, toggle_peek(session, "  --peek: ")) if peek else None
    advised: tuple[tuple, Advice] | None = None  # the advice of the position keyed
    while True:
        advice = None
        turn = session.peek_turn()
        if turn is not None and turn.finished:
            term.say("", turn.done_text())
            turn = None
        if session.pending is None and turn is not None:
            # a peek may pass a stuck end: undo takes it back
            if show and not (undid and turn.step is not None and turn.step.undos):
                term.board()  # in a run of undos, no board each time
            if show:
                term.say(turn.text(session.rules))
        elif session.pending is None and session.status is Status.IN_PLAY:
            if show:
                term.board()
            try:
                if advised is None or advised[0] != session.state_key():
                    advised = (session.state_key(), session.advise())
                advice = advised[1]
                if show:
                    term.say(*advice.lines(score_label(session.scoring)))
            except KeyboardInterrupt:
                if not term.interactive:
                    raise
                term.say(_("(advice interrupted)"))
        elif session.pending is None:
            break  # won or stuck
        term.turn(advice, error=error, peek=turn)
        try:
            line = read_line(session.question(), term.interactive, echo=not term.as_json)
        except KeyboardInterrupt:
            if not term.interactive:
                raise
            click.echo("\n" + _("(Ctrl-C: the move is dropped; q or Ctrl-D stops, the record "
                              "is saved)"))
            session.cancel()
            show, error = False, None
            continue
        played = len(session.game.record)
        reply = respond(session, line)
        error = _say(term, reply)
        if reply.stops:
            break
        if reply.command == "board" and session.pending is not None:
            term.board()
        show = reply.command not in ("help", "record") and error is None \
            and session.pending is None
        undid = len(session.game.record) > played and session.game.record[-1].move.is_undo
    _finish(term, analysis, error)


def _list(as_json: bool) -> None:
    """The saved games, newest first."""
    games = saved_games()
    if as_json:
        click.echo(json.dumps({"folder": str(games_dir()), "games": [g.data() for g in games]},
                              ensure_ascii=False))
        return
    if games:
        click.echo(ngettext("{n} saved game in {folder}, newest first (coach --continue "
                            "continues the first):",
                            "{n} saved games in {folder}, newest first (coach --continue "
                            "continues the first):", len(games), folder=games_dir()))
    else:
        click.echo(ngettext("{n} saved game in {folder}, newest first",
                            "{n} saved games in {folder}, newest first", 0, folder=games_dir()))
    for g in games:
        click.echo(g.text())


def _say(term: Terminal, reply: Reply) -> str | None:
    """Show what a line did; its error, if any."""
    term.say(*reply.lines)
    return reply.error


def _finish(term: Terminal, analysis: bool, error: str | None) -> None:
    session = term.session
    game = session.game
    if session.result != "stopped":  # a stopped game's board was the last thing shown
        term.board()
    term.say(end_line(session))
    review = None
    if analysis and game.record:
        from .analyze import review_lines
        from .common import progress_bar

        try:
            with progress_bar(len(game.record), pgettext("progress bar", "move")) as advance:
                review = session.review(progress=advance)
        except KeyboardInterrupt:
            if not term.interactive:
                raise
            term.say(_("(analysis interrupted)"))
        if review is not None:
            title = game.start.title if game.start.kind != "code" else game.start.text
            term.say("", *review_lines(title, review, session.review_samples, session.seed))
    term.say("", _("Record: {moves}", moves=" ".join(game.tokens) or _("(no move)")),
             _("Saved in {file}: tripeaks-solve analyze --record {file}", file=session.path))
    term.turn(error=error, final=session.final(review))
