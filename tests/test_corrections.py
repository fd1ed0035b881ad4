"""``fix OLD NEW``: a card said wrong is corrected and the game played again with the
right card, typed to the coach on a pipe and called on the session; a fix that would
contradict what is known is refused with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_run import run
from test_coach_edges import SEEN, coach

from tripeaks_solver.games.records import parse_record_file
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.game import Game
from tripeaks_solver.model.rules import EASY

DEAL1 = Deal.from_number(1)  # stock: 4s 6c 7c …; SEEN is its start


def test_a_card_said_wrong_is_fixed_on_a_pipe(capsys, monkeypatch, tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    # The first draw showed 4♠; the player said 6♣, the card the second draw shows.
    lines = ["d", "6c", "d", "6c", "fix 6c Js", "fix 6c 4s", "6c", "q"]
    code, out, err = coach(capsys, monkeypatch, tmp_path, "\n".join(lines).encode() + b"\n",
                           "--seen", SEEN, "--record", str(path), "--samples", "10",
                           "--no-analysis")
    assert code == 0, err
    assert ("6♣ is known already (stock card 1, said with move 1, draw): if that was "
            "another card, fix 6c CARD corrects it") in out
    assert ("J♠ is known already (the bottom row, 8th card from the left, said at the "
            "start): fix that card first") in out
    assert "6♣, said with move 1, draw, is now 4♠" in out
    record = parse_record_file(path.read_text(), "g")
    assert [o.token for o in record.moves] == ["draw:4s", "draw:6c"]
    game = Game(DEAL1, EASY)
    for step in record.moves:
        game.play(step.move)
    assert game.waste.token == "6c"
    code, _out, err = run(capsys, "replay", "--record", str(path))
    assert code == 0, err



def test_fix_plays_the_corrected_game_again(tmp_path: Path) -> None:
    from test_session import new_session

    session, _, path = new_session(tmp_path, 1)
    session.play("d:6c")  # really 4s
    session.play("u")
    session.play("d")  # the card known (wrongly): nothing asked
    assert session.game.tokens == ["draw:6c", "undo", "draw:6c"]
    assert "is now 4♠" in session.fix("6c", "4s")
    assert session.game.tokens == ["draw:4s", "undo", "draw:4s"]
    with pytest.raises(Exception, match="was not said"):
        session.fix("9h", "9d")
    with pytest.raises(Exception, match="fix OLD NEW"):
        session.fix("4s")
    session.close()
    assert [o.token for o in parse_record_file(path.read_text(), "g").moves] == [
        "draw:4s", "undo", "draw:4s"]


# --- a correction while a move waits for the card it turned up (issue 54, D1) -------------
PLAYED = "Jd 4s Ac 8h 4c 2h 8c 6h 8d 8s 9c"  # 8h on 9c, a draw (2c), then Ac waits


def waiting_on_ac(tmp_path: Path):
    from tripeaks_solver.games.session import CoachSession
    from tripeaks_solver.model.observed import Start

    path = tmp_path / "w.txt"
    session = CoachSession.new(Start.of_seen(PLAYED, EASY), "app", record=path, samples=10,
                               seed=1)
    for said in ("8h", "d", "2c", "Ac"):
        session.play(said)
    assert session.pending is not None and session.pending.token == "Ac"
    return session, path


@pytest.mark.parametrize("wrong, right", [("Ac", "Qd"), ("2c", "5c")])
def test_a_correction_that_leaves_the_waiting_move_unplayable_drops_it(tmp_path, wrong, right):
    """Q♦ does not go on 2♣, nor A♣ on 5♣: the move waiting for its card is dropped, and
    the session says so and goes on (it was never written)."""
    session, path = waiting_on_ac(tmp_path)
    said = session.fix(wrong, right)
    assert "dropped" in said and "A♣" in said
    assert session.pending is None and session.need == () and session.said == []
    assert session.game.tokens == ["8h", f"draw:{'5c' if wrong == '2c' else '2c'}"]
    assert "Your move" in session.question()
    session.play("u")  # the session plays on
    session.close()
    assert [o.token for o in parse_record_file(path.read_text(), "w").moves] == [
        *session.game.tokens]


def test_a_correction_of_the_waiting_moves_card_it_still_plays_keeps_the_question(tmp_path):
    session, path = waiting_on_ac(tmp_path)
    said = session.fix("Ac", "Ad")  # A♦ goes on 2♣ as well
    assert "dropped" not in said
    assert session.pending is not None and session.pending.token == "Ad"
    session.answer("5s")
    assert session.pending is None and session.game.tokens[-1] == "Ad:5s"
    session.close()
    assert parse_record_file(path.read_text(), "w").moves[-1].token == "Ad:5s"


def test_a_correction_to_a_card_said_for_the_open_question_is_refused(tmp_path):
    """A two-card question with its first card said: that card cannot be what another
    card told was; the question and its card said stay (D14)."""
    from test_session import new_session

    session, deal, _path = new_session(tmp_path, 1)
    for token in ("Kc", "Ad", "d", "d", "d"):
        session.play(token)
        while session.pending is not None:
            session.answer(deal.cards[session.need[len(session.said)]].token)
    session.play("6s")
    assert len(session.need) == 2
    first = deal.cards[session.need[0]]
    session.answer(first.token)
    told = session.game.record[-1].shown[0]  # the last draw's card
    with pytest.raises(Exception, match="said already"):
        session.fix(told.token, first.token)
    assert session.said == [first] and len(session.need) == 2
    session.answer(deal.cards[session.need[1]].token)
    assert session.pending is None
    session.close()


def test_the_terminal_coach_fixing_the_waiting_moves_card_goes_on(capsys, monkeypatch,
                                                                  tmp_path):
    path = tmp_path / "c.txt"
    lines = ["8h", "d", "2c", "Ac", "fix Ac Qd", "5s", "q"]
    code, out, err = coach(capsys, monkeypatch, tmp_path, "\n".join(lines).encode() + b"\n",
                           "--seen", PLAYED, "--record", str(path), "--samples", "10",
                           "--seed", "1", "--no-analysis")
    assert code == 0, err
    assert "Traceback" not in err and "dropped" in out
    assert [o.token for o in parse_record_file(path.read_text(), "c").moves] == [
        "8h", "draw:2c"]


def test_a_temporary_file_left_by_a_killed_correction_blocks_no_other(tmp_path: Path) -> None:
    """A correction killed between its temporary file and the rename leaves the file
    behind; a later session with the same process id (as in a container, where a
    server is always process 1) corrects all the same (issue 54, D8)."""
    import os

    from test_session import new_session

    session, _, path = new_session(tmp_path, 1)
    session.play("d:6c")
    for name in (f".{path.name}.{os.getpid()}.tmp", f".{path.name}.tmp"):
        (tmp_path / name).write_text("")
    assert "is now 4♠" in session.fix("6c", "4s")
    session.close()
    assert [o.token for o in parse_record_file(path.read_text(), "g").moves] == ["draw:4s"]
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == sorted(
        [f".{path.name}.{os.getpid()}.tmp", f".{path.name}.tmp"])  # nothing more left
