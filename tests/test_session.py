"""The coach's session driven directly, as a second front end (the page in a browser)
drives it: moves and the cards they turned up in, plain data out. Every game is
checked against the plain game playing the same moves on the deal the test knows, and
against its record file read back."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from test_observed import seen_text, shown_places

from tripeaks_solver.errors import InputError
from tripeaks_solver.games.records import parse_record_file
from tripeaks_solver.games.session import TURN_KEYS, CoachSession, RecordWriteError
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.game import Game, Status
from tripeaks_solver.model.moves import Move
from tripeaks_solver.model.observed import Start
from tripeaks_solver.model.rules import EASY


def turned_up(game: Game, move: Move) -> list[str]:
    """Play ``move`` on the plain game; the cards it turned up, left to right."""
    before = shown_places(game)
    game.play(move)
    return [game.deal.cards[p].token for p in sorted(shown_places(game) - before)]


def replayed(path: Path, deal: Deal) -> tuple[Game, list[str]]:
    """The record file's moves played on the plain game, and its tokens."""
    record = parse_record_file(path.read_text(encoding="utf-8"), str(path))
    game = Game(deal, record.start.rules)
    for step in record.moves:
        game.play(step.move)
    return game, [o.token for o in record.moves]


def new_session(tmp_path: Path, number: int = 2, **kw) -> tuple[CoachSession, Deal, Path]:
    deal = Deal.from_number(number)
    path = tmp_path / f"game{number}.txt"
    start = Start.of_seen(seen_text(deal, EASY), EASY)
    kw = {"samples": 20, "seed": 3} | kw
    return CoachSession.new(start, "app", record=path, **kw), deal, path


def test_a_whole_game_with_cards_said_and_asked_for(tmp_path: Path) -> None:
    session, deal, path = new_session(tmp_path)
    game = Game(deal, EASY)
    asked = undone = 0
    while session.status is Status.IN_PLAY:
        turn = session.turn_data(session.advise())
        assert tuple(turn) == TURN_KEYS and turn["score"] == game.score
        assert turn["moves_played"] == game.moves and turn["need"] is None
        move = Move.parse(turn["recommended"])
        cards = turned_up(game, move)
        if cards and game.moves % 2:  # say the move alone: the session asks for the cards
            session.play(move.token)
            assert [n["place"] for n in session.turn_data()["need"]] and session.pending
            session.answer(" ".join(cards))
            asked += 1
        else:
            session.play(move.token + (":" + ",".join(cards) if cards else ""))
        assert session.pending is None
        if cards and not undone:  # take it back, and play it again: the card stays known
            known = session.known
            session.undo()
            game.undo()
            assert session.known == known and session.game.game.score == game.score
            session.play(move.token)  # its cards known now: nothing asked
            game.play(move)
            undone += 1
    assert asked and undone
    final = session.final()
    session.close()
    plain, tokens = replayed(path, deal)
    assert final["score"] == plain.score == game.score
    assert final["result"] == {Status.WON: "won", Status.STUCK: "stuck"}[plain.status]
    assert tokens == final["record"] and "undo" in tokens


def test_continuing_a_record(tmp_path: Path) -> None:
    session, deal, path = new_session(tmp_path, 1)
    game = Game(deal, EASY)
    for token in ("Js", "Th", "d", "d"):
        cards = turned_up(game, Move.parse(token))
        session.play(token + (":" + ",".join(cards) if cards else ""))
    tokens = session.game.tokens
    session.close()
    again = CoachSession.resume(path, samples=20, seed=3)
    assert again.game.tokens == tokens and again.notes == []
    assert again.game.game.score == game.score and again.scoring == "app"
    cards = turned_up(game, Move.DRAW)
    again.play(f"d:{cards[0]}")
    again.close()
    plain, saved = replayed(path, deal)
    assert saved == tokens + [f"draw:{cards[0]}"] and plain.score == game.score


def test_one_session_a_file(tmp_path: Path) -> None:
    session, _, path = new_session(tmp_path)
    with pytest.raises(InputError, match="in use by another session"):
        CoachSession.resume(path)
    session.play("d:" + Deal.from_number(2).cards[29].token)
    session.close()
    text = path.read_text()
    start = Start.of_seen(seen_text(Deal.from_number(2), EASY), EASY)
    with pytest.raises(InputError, match="holds a game already"):
        CoachSession.new(start, record=path)
    assert path.read_text() == text


def test_a_last_line_cut_short_is_kept_when_the_game_goes_on(tmp_path: Path) -> None:
    session, _, path = new_session(tmp_path, 1)
    session.play("Js")
    session.close()
    path.write_text(path.read_text() + "Th:")  # killed as it wrote
    text = path.read_text()
    again = CoachSession.resume(path)
    assert len(again.notes) == 1 and "'Th:'" in again.notes[0]
    assert again.game.tokens == ["Js"]
    again.close()
    assert path.read_text() == text  # opening and leaving writes nothing
    again = CoachSession.resume(path)
    card = Deal.from_number(1).cards[29].token
    again.play(f"d:{card}")
    again.close()
    assert path.read_text() == text[:-3] + f"# cut short, left out: Th:\ndraw:{card}\n"


def test_a_failed_write_leaves_the_file_and_the_game_as_they_were(tmp_path: Path,
                                                                  monkeypatch) -> None:
    import errno
    import os

    from tripeaks_solver.games import record_file

    session, deal, path = new_session(tmp_path, 1)
    session.play("Js")
    text, tokens, known = path.read_bytes(), session.game.tokens, session.known

    def half_then_full(fd: int, data: bytes) -> None:
        os.write(fd, data[:2])  # part of the line gets out, then the disk is full
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(record_file, "write_all", half_then_full)
    card = deal.cards[29].token
    with pytest.raises(RecordWriteError, match="No space left"):
        session.play(f"d:{card}")
    assert path.read_bytes() == text
    assert session.game.tokens == tokens and session.known == known
    assert session.game.position().stock_left == Game(deal, EASY).stock_left
    monkeypatch.undo()
    session.play(f"d:{card}")  # the disk has room again
    session.close()
    assert replayed(path, deal)[1] == ["Js", f"draw:{card}"]


def test_a_peek_walked_through(tmp_path: Path) -> None:
    session, deal, path = new_session(tmp_path, 3)
    assert session.toggle_peek() == ""
    game = Game(deal, EASY)
    taps = 0
    while (turn := session.peek_turn()) is not None and not turn.finished:
        step = turn.step
        assert session.turn_data(peek=turn)["peek"]["undos"] == (turn.back if step is None
                                                                  else step.undos)
        if step is None or step.undos:
            session.undo()
            game.undo()
        else:
            cards = turned_up(game, step.moves[0])
            session.play(step.moves[0].token + (":" + ",".join(cards) if cards else ""))
        taps += 1
    assert turn is not None and turn.taps == taps and not session.peeking
    assert session.exact and session.unknown == 0
    assert game.removed == 0 and game.stock_index == 0  # back where it began
    assert session.advise().player == "exact"
    session.close()
    assert replayed(path, deal)[0].score == game.score


def test_a_peek_stopped_says_how_far_back(tmp_path: Path) -> None:
    session, deal, _ = new_session(tmp_path, 1)
    session.toggle_peek()
    session.play("d:" + deal.cards[29].token)
    assert session.toggle_peek().startswith("Peek stopped. Undo 1 ")
    assert session.peek_turn() is None
    session.close()


def test_advice_in_a_worker_thread_leaves_the_session_alone(tmp_path: Path) -> None:
    session, _, _ = new_session(tmp_path)
    key = session.state_key()
    job = session.advice_job()
    out = []
    worker = threading.Thread(target=lambda: out.append(job()))
    worker.start()
    worker.join()
    assert session.state_key() == key
    assert out[0].recommended == session.advise().recommended
    session.close()


def test_bad_moves_leave_the_session_as_it_was(tmp_path: Path) -> None:
    session, _, path = new_session(tmp_path, 1)
    text = path.read_text()
    for bad, needle in [("zz", "not a move"), ("As", "No such card"), ("u", "Nothing to undo"),
                        ("d:2c", "known")]:
        with pytest.raises(InputError, match=needle):
            session.play(bad)
    session.play("d")
    assert session.need == (29,) and "drew" in session.question()
    with pytest.raises(InputError, match="not a card"):
        session.answer("Zz")
    session.cancel()
    assert session.pending is None and session.game.tokens == []
    session.close()
    assert path.read_text() == text


def test_a_fix_keeps_the_file_locked_and_whole(tmp_path: Path) -> None:
    session, deal, path = new_session(tmp_path, 1)
    session.play("d:6c")  # the first stock card is 4s
    mode = path.stat().st_mode
    session.fix("6c", "4s")
    with pytest.raises(InputError, match="in use by another session"):
        CoachSession.resume(path)
    assert path.stat().st_mode == mode
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no file left over
    session.play("d:6c")
    session.close()
    assert replayed(path, deal)[1] == ["draw:4s", "draw:6c"]
    again = CoachSession.resume(path)
    assert again.game.tokens == ["draw:4s", "draw:6c"]
    again.close()


def _ended(status: Status) -> tuple[Deal, list[Move]]:
    """A deal among the first 60 and moves that end it with ``status``, on the plain game:
    a card whenever one plays (won), or a draw whenever one can (stuck)."""
    for number in range(60):
        deal, moves = Deal.from_number(number), []
        game = Game(deal, EASY)
        while game.status is Status.IN_PLAY:
            cards = [Move.parse(c.token) for c in game.playable()]
            draw = game.stock_left > 0
            move = (Move.DRAW if draw else cards[0]) if status is Status.STUCK else \
                (cards[0] if cards else Move.DRAW)
            game.play(move)
            moves.append(move)
        if game.status is status:
            return deal, moves
    raise AssertionError(f"no deal ends {status}")


@pytest.mark.parametrize("status", [Status.WON, Status.STUCK])
def test_the_session_refuses_what_the_app_does_after_the_end(tmp_path: Path, status) -> None:
    # The rule lives in the session that the page and the terminal share: a move after
    # the end is refused, an undo too after a win (the app ends the game there).
    deal, moves = _ended(status)
    start = Start.of_deal("code", deal.code, deal, EASY)
    session = CoachSession.new(start, "app", record=tmp_path / "game.txt", samples=20, seed=3)
    for move in moves:
        session.play(move.token)
    assert session.status is status and session.pending is None
    with pytest.raises(InputError, match=r"^the game is over \((won|stuck)\)$"):
        session.play(Move.DRAW.token)
    if status is Status.WON:
        with pytest.raises(InputError, match="the app ends it there, with no undo"):
            session.undo()
    else:
        session.undo()
        assert session.status is Status.IN_PLAY
    session.close()
