"""What a line typed at the coach's prompt does (games/prompt.py), on a session driven
directly: the words, a move, a move's error, stopping with a card still to say, the
end's sentence. tests/test_coach*.py run the same through the terminal."""

from __future__ import annotations

from pathlib import Path

from test_session import new_session, turned_up

from tripeaks_solver.games.prompt import COMMANDS, end_line, respond
from tripeaks_solver.games.records import parse_record_file
from tripeaks_solver.games.turns import HELP
from tripeaks_solver.model.game import Game
from tripeaks_solver.model.i18n import _
from tripeaks_solver.model.moves import Move
from tripeaks_solver.model.rules import EASY


def test_the_words_answer_without_touching_the_game(tmp_path: Path) -> None:
    session, _deal, _path = new_session(tmp_path)
    assert respond(session, "?").lines == [_(HELP)] and COMMANDS["h"] == "help"
    assert respond(session, " R ").lines == ["Record: (no move yet)"]
    board = respond(session, "b")
    assert (board.command, board.lines, board.error, board.stops) == ("board", [], None, False)
    assert respond(session, "   ").command is None
    assert session.game.record == []


def test_a_move_is_played_and_a_bad_one_says_why(tmp_path: Path) -> None:
    session, deal, path = new_session(tmp_path)
    game = Game(deal, EASY)
    shown = turned_up(game, Move.DRAW)
    reply = respond(session, f"d:{shown[0]}")
    assert (reply.command, reply.error, reply.lines) == ("move", None, [])
    bad = respond(session, "zz")
    assert bad.command == "move" and bad.error and bad.lines == [f"  {bad.error}"]
    assert not bad.stops and session.pending is None
    assert [o.token for o in session.game.record] == [f"draw:{shown[0]}"]
    record = parse_record_file(path.read_text(encoding="utf-8"), str(path))
    assert [o.token for o in record.moves] == [f"draw:{shown[0]}"]


def test_stopping_with_a_card_to_say_drops_that_move_and_says_so(tmp_path: Path) -> None:
    session, _deal, _path = new_session(tmp_path)
    move = Move.DRAW
    respond(session, move.token)  # the card it turned up is not said
    assert session.pending is not None
    reply = respond(session, None)  # the input ended
    assert reply.stops and reply.error == (f"{move.name} was not recorded: the card it "
                                           "turned up was not said")
    assert session.pending is None and session.game.record == []
    assert end_line(session) == "Game stopped: score 500, 0 moves"


def test_stopping_plainly_says_nothing(tmp_path: Path) -> None:
    session, _deal, _path = new_session(tmp_path)
    assert respond(session, "q") == respond(session, "exit")
    assert respond(session, "quit").stops and respond(session, "q").lines == []
