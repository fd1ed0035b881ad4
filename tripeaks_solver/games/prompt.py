"""What a line typed at the coach's prompt does to a session, for any front end that
reads lines (the terminal's ``coach``): the words it knows (``q``, ``?``, ``b``, ``r``,
``p``, ``fix``), a move otherwise; and the sentences of a peek started or stopped and of
a game's end. The front end only prints what :func:`respond` says and asks again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import InputError
from ..model.i18n import _, fill
from .session import CoachSession, RecordWriteError
from .turns import HELP, n_moves, score_label, score_of

COMMANDS = {"q": "quit", "quit": "quit", "exit": "quit", "?": "help", "h": "help",
            "help": "help", "b": "board", "board": "board", "r": "record", "record": "record",
            "p": "peek", "peek": "peek"}


@dataclass
class Reply:
    """What a line did: ``command`` (a word of COMMANDS, ``fix``, ``move``, or None for
    an empty line), the ``lines`` to show, the ``error`` to report (also in ``lines``),
    and whether the session ``stops``."""

    command: str | None
    lines: list[str] = field(default_factory=list)
    error: str | None = None
    stops: bool = False


def respond(session: CoachSession, line: str | None) -> Reply:
    """Do what ``line`` says (None: the input ended, as ``q``). A move that turned up
    a card leaves the session waiting for it (``session.pending``); stopping then drops
    that move, which is not in the record, and says so."""
    command = COMMANDS.get(line.strip().lower()) if line is not None else "quit"
    if command == "quit" or line is None:
        if session.pending is None:
            return Reply("quit", stops=True)
        error = _("{move} was not recorded: the card it turned up was not said",
                  move=session.pending.name)
        session.cancel()
        return Reply("quit", [f"  {error}"], error, stops=True)
    if command == "help":
        return Reply(command, [_(HELP)])
    if command == "peek":
        return toggle_peek(session, "  ")
    if command == "record":
        moves = " ".join(session.game.tokens) or _("(no move yet)")
        return Reply(command, [_("Record: {moves}", moves=moves)])
    if command == "board":
        return Reply(command)
    words = line.split()
    if not words:
        return Reply(None)
    try:
        if words[0].lower() == "fix":
            return Reply("fix", [session.fix(*words[1:])])
    except InputError as exc:
        return Reply("fix", [f"  {exc}"], str(exc))
    try:
        session.play(line.strip())
    except RecordWriteError:  # the move was not made, and the session cannot go on
        raise
    except InputError as exc:
        return Reply("move", [f"  {exc}"], str(exc))
    return Reply("move")


def toggle_peek(session: CoachSession, lead: str) -> Reply:
    """Start or stop a peek; the error, after ``lead``, when there is nothing to peek."""
    try:
        note = session.toggle_peek()
    except InputError as exc:
        return Reply("peek", [f"{lead}{exc}"], str(exc))
    return Reply("peek", [note] if note else [])


def end_line(session: CoachSession) -> str:
    """The game's end in a sentence: won, stuck or stopped, the score and the moves."""
    result = {"won": _("Game won: {label} {score}, {moves}"),
              "stuck": _("Game stuck: {label} {score}, {moves}")}.get(
        session.result, _("Game stopped: {label} {score}, {moves}"))
    game = session.game
    return fill(result, {"label": score_label(session.scoring),
                         "score": score_of(game.position(), session.scoring),
                         "moves": n_moves(game.game.moves)})


__all__ = ["COMMANDS", "Reply", "end_line", "respond", "toggle_peek"]
