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
