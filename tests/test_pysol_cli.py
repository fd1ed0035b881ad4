"""PySolFC game numbers (pysol:N) in every command, the API, batch and the page's server;
the deals checked against tests/data/pysol-deals.tsv, made by PySolFC's own code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import assert_one_line_error, run
from test_pysol import FACTS, GOLDEN_ROWS

import tripeaks_solver as tp
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.pysol import GAMES, OPEN_GAMES, pysol_games
from tripeaks_solver.model.rules import CLASSIC, EASY

KNOWN = [row for row in GOLDEN_ROWS if row["source"] == "known"]
BAD = ["pysol:0", "pysol:ms0", "pysol:ms8589934592", "pysol:abc", "pysol:" + "9" * 21,
       "pysol:"]


def _golden(form: str) -> str:
    return next(row["cards"] for row in GOLDEN_ROWS if row["form"] == form)


@pytest.mark.parametrize("form", ["2", "00042", "ms123456", "123456789012",
                                  "00000000000000100000", "#00042"])
def test_deal_json_prints_pysolfcs_cards(capsys, form: str) -> None:
    code, out, err = run(capsys, "deal", f"pysol:{form}", "--json")
    assert code == 0, err
    obj = json.loads(out)
    cards = _golden(form).split()
    assert obj["tableau"] == cards[:28] and obj["waste"] == cards[28]
    assert obj["stock"] == cards[29:]
    assert obj["code"] is None and obj["deal"] is None
    assert obj["pysol"] == {"number": Deal.from_pysol(form).pysol, "games": list(GAMES)}
    assert obj["rules"] == "easy" and obj["variant"] == ""


def test_pysolfcs_rules_are_easy_and_its_open_games_open(capsys) -> None:
    (facts,), = FACTS["#rules"]
    # One card dealt at a time, one pass through the stock, K and A adjacent (mod 13), no
    # stricter rule: the rules of Easy with no variant.
    assert facts == "num_deal=1 max_rounds=1 waste_mod=13 strictness=0"
    assert pysol_games(EASY) == GAMES
    assert pysol_games(EASY.with_options(open=True)) == OPEN_GAMES
    for other in (CLASSIC, EASY.with_options(draw_when_stuck=True),
                  EASY.with_options(empty_waste=True)):
        assert pysol_games(other) == ()
    code, out, _err = run(capsys, "deal", "pysol:617", "--open", "--json")
    assert code == 0 and json.loads(out)["pysol"]["games"] == list(OPEN_GAMES)
    code, out, _err = run(capsys, "deal", "pysol:617", "--rules", "classic", "--json")
    assert code == 0 and json.loads(out)["pysol"]["games"] == []


@pytest.mark.parametrize("row", KNOWN, ids=lambda r: r["form"])
def test_winnable_as_pysolfc_plays(row: dict[str, str]) -> None:
    # The reference file's winnability comes from PySolFC's rules: the default rules of a
    # pysol deal must answer the same.
    sol = tp.solve("pysol:" + row["form"], optimal=False)
    assert sol.rules == EASY
    assert sol.winnable == (row["winnable"] == "1")
    assert sol.deal.line() == row["cards"]


def test_solve_runs_pysolfcs_rules_unless_told(capsys) -> None:
    code, out, err = run(capsys, "solve", "pysol:3128", "--json", "--no-solution")
    assert code == 0, err
    rows = json.loads(out)
    assert [r["rules"] for r in rows] == ["easy"]
    assert rows[0]["winnable"] is False and rows[0]["code"] is None
    assert rows[0]["source"] == "pysol:ms3128" and rows[0]["line"] == _golden("3128")
    assert rows[0]["pysol"] == {"number": "ms3128", "games": list(GAMES)}
    code, out, err = run(capsys, "solve", "pysol:3128", "--rules", "both", "--json",
                         "--no-solution")
    assert code == 0, err
    assert [(r["rules"], r["pysol"]["games"]) for r in json.loads(out)] == [
        ("easy", list(GAMES)), ("classic", [])]
    # Other deals keep the key, null.
    code, out, err = run(capsys, "solve", "TP1-E-AAAAAAD", "--json", "--no-solution")
    assert all(r["pysol"] is None for r in json.loads(out))


def test_under_pysolfcs_scoring_the_answer_covers_its_scored_game_alone(capsys) -> None:
    # "Three Peaks" keeps no PySolFC score: a best PySolFC score is the Scored game's.
    assert pysol_games(EASY, "pysol") == ("Three Peaks (Scored)",)
    assert pysol_games(EASY.with_options(open=True), "pysol") == ("Three Peaks (Scored/Open)",)
    assert pysol_games(EASY, "app") == GAMES and pysol_games(CLASSIC, "pysol") == ()
    code, out, err = run(capsys, "solve", "pysol:617", "--scoring", "pysol")
    assert code == 0, err
    assert out.splitlines()[1] == "PySolFC game ms617: Three Peaks (Scored)"
    for command in (["solve", "pysol:617", "--no-solution"], ["hint", "pysol:617"]):
        code, out, err = run(capsys, *command, "--scoring", "pysol", "--json")
        assert code == 0, err
        data = json.loads(out)
        data = data[0] if isinstance(data, list) else data
        assert data["pysol"] == {"number": "ms617", "games": ["Three Peaks (Scored)"]}
    assert tp.solve("pysol:617", optimal=False).to_dict()["pysol"]["games"] == list(GAMES)


def test_text_says_which_pysolfc_games(capsys) -> None:
    code, out, err = run(capsys, "solve", "pysol:617")
    assert code == 0, err
    assert out.splitlines()[:2] == [
        "pysol:ms617", "PySolFC game ms617: Three Peaks and Three Peaks (Scored)"]
    code, out, err = run(capsys, "solve", "pysol:617", "--open", "--no-solution")
    assert "PySolFC game ms617: Three Peaks (Open) and Three Peaks (Scored/Open)" in out
    code, out, err = run(capsys, "deal", "pysol:123456")
    assert out.splitlines()[:2] == [
        "pysol:00000000000000123456  (Easy rules)",
        "PySolFC game 00000000000000123456: Three Peaks and Three Peaks (Scored)"]


@pytest.mark.parametrize("command", ["hint", "analyze", "replay", "peek"])
def test_game_commands_take_a_pysolfc_game(capsys, command: str) -> None:
    args = [command, "pysol:617", "--json"] + (["d"] if command in ("analyze", "replay") else [])
    code, out, err = run(capsys, *args)
    assert code == 0, err
    obj = json.loads(out)
    assert obj["code"] is None and obj["deal"] is None
    assert obj["pysol"] == {"number": "ms617", "games": list(GAMES)}
    assert obj["rules"] == "easy"
    code, out, err = run(capsys, *[a for a in args if a != "--json"])
    assert code == 0, err
    assert out.startswith("pysol:ms617  (PySolFC: Three Peaks and Three Peaks (Scored); "
                          "Easy rules)")


def test_play_takes_a_pysolfc_game(capsys) -> None:
    code, out, err = run(capsys, "play", "pysol:617", "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["pysol"]["number"] == "ms617" and obj["code"] is None
    # The record it prints replays on the same deal.
    code, out, err = run(capsys, "replay", "pysol:617", *obj["moves"], "--json")
    assert code == 0, err
    assert json.loads(out)["score"] == obj["score"]


def test_a_record_file_names_the_pysolfc_game(capsys, tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    record.write_text("# tripeaks-solver game record\nstart: code pysol:ms617\nrules: easy\n"
                      "variant: none\nscoring: app\nmoves:\ndraw\n")
    code, out, err = run(capsys, "replay", "--record", str(record), "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["pysol"]["number"] == "ms617" and obj["record"] == ["draw:" + _golden("617")
                                                                   .split()[29]]


def test_coach_starts_a_pysolfc_game(capsys, tmp_path: Path, monkeypatch) -> None:
    record = tmp_path / "c.txt"
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("q\n"))
    code, _out, err = run(capsys, "coach", "pysol:617", "--record", str(record),
                         "--no-analysis")
    assert code == 0, err
    assert "start: code pysol:ms617" in record.read_text()


@pytest.mark.parametrize("command", ["solve", "deal", "hint", "analyze", "replay", "play",
                                     "peek"])
@pytest.mark.parametrize("text", BAD)
def test_numbers_pysolfc_refuses_exit_2(capsys, command: str, text: str) -> None:
    code, _out, err = run(capsys, command, text)
    assert_one_line_error(code, err, "ms8589934591", "100000000000000000000")


def test_the_joker_is_refused(capsys) -> None:
    code, _out, err = run(capsys, "solve", "pysol:5", "--joker")
    assert_one_line_error(code, err, "--joker", "52 cards")


def test_api(capsys) -> None:
    sol = tp.solve("pysol:617")
    assert sol.to_dict()["pysol"] == {"number": "ms617", "games": list(GAMES)}
    assert tp.solve(Deal.from_pysol("617")).best_score == sol.best_score
    assert tp.hint("pysol:617").to_dict()["pysol"]["number"] == "ms617"


# --- batch --------------------------------------------------------------------------
def _csv(path: Path) -> list[dict[str, str]]:
    lines = path.read_text().splitlines()
    header = lines[0].split(",")
    return [dict(zip(header, line.split(","), strict=True)) for line in lines[1:]]


def test_batch_over_game_numbers(capsys, tmp_path: Path) -> None:
    out_csv = tmp_path / "p.csv"
    code, out, err = run(capsys, "batch", "pysol:31998", "pysol:32001", "--csv", str(out_csv),
                         "--jobs", "1", "--json")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["pysol"] == {"first": "ms31998", "last": "00000000000000032000"}
    rows = _csv(out_csv)
    assert [r["pysol"] for r in rows] == ["ms31998", "ms31999", "00000000000000032000"]
    assert [r["rules"] for r in rows] == ["easy"] * 3
    assert rows[0]["line"] == _golden("31998") and rows[2]["line"] == _golden("32000")
    assert rows[0]["winnable"] == "true"  # the reference file: game 31998 is won
    whole = out_csv.read_text()
    # Resume: cut after the first row, part of the second left torn.
    lines = whole.splitlines(keepends=True)
    out_csv.write_text(lines[0] + lines[1] + lines[2][:30])
    code, out, err = run(capsys, "batch", "pysol:31998", "pysol:32001", "--csv", str(out_csv),
                         "--jobs", "1", "--resume")
    assert code == 0, err
    cut = [line.rsplit(",", 3)[0].split(",")[:9] for line in out_csv.read_text().splitlines()]
    assert cut == [line.rsplit(",", 3)[0].split(",")[:9] for line in whole.splitlines()]
    assert [r["pysol"] for r in _csv(out_csv)] == [r["pysol"] for r in rows]
    # Another range cannot continue it.
    code, _out, err = run(capsys, "batch", "pysol:31997", "pysol:32001", "--csv",
                          str(out_csv), "--jobs", "1", "--resume")
    assert_one_line_error(code, err, "another deal")
    code, out, err = run(capsys, "report", str(out_csv))
    assert code == 0, err
    assert out.startswith(f"{out_csv}: 3 rows; PySolFC games at places 0 … 2 (3 deals)")
    # A row naming another game than its cards is not a batch row.
    lines = out_csv.read_text().splitlines(keepends=True)
    out_csv.write_text(lines[0] + lines[1].replace(",ms31998", ",ms31997"))
    code, _out, err = run(capsys, "report", str(out_csv))
    assert_one_line_error(code, err, "not the deal of PySolFC game ms31997")


@pytest.mark.parametrize("bounds, needle", [
    (("pysol:0", "pysol:5"), "ms8589934591"),
    (("pysol:5", "pysol:5"), "greater than START"),
    (("pysol:5", "pysol:ms9"), "both ms numbers"),
    (("pysol:5", "9"), "both as PySolFC game numbers"),
    (("pysol:ms5", "pysol:ms8589934593"), "one past the last"),
])
def test_batch_bad_ranges_write_nothing(capsys, tmp_path: Path, bounds, needle) -> None:
    out_csv = tmp_path / "p.csv"
    code, _out, err = run(capsys, "batch", *bounds, "--csv", str(out_csv), "--jobs", "1")
    assert_one_line_error(code, err, needle)
    assert not out_csv.exists()


def test_the_pages_server_reads_pysolfc_games() -> None:
    from tripeaks_solver.errors import InputError
    from tripeaks_solver.web.hub import parse_start
    from tripeaks_solver.web.solving import solve_page

    page = solve_page("pysol:617")
    assert page["title"] == "pysol:ms617" and page["line"] == _golden("617")
    assert page["pysol"] == {"number": "ms617", "games": list(GAMES)}
    start, _scoring = parse_start({"start": " pysol: #00617 "})
    assert start.text == "pysol:ms617" and start.deal is not None
    assert start.deal.line() == _golden("617")
    with pytest.raises(InputError):
        parse_start({"start": "pysol:ms0"})


def test_api_batch_over_game_numbers() -> None:
    rows = list(tp.batch("pysol:31999", "pysol:32001"))
    assert [(r["rules"], r["pysol"], r["deal"]) for r in rows] == [
        ("easy", "ms31999", 0), ("easy", "00000000000000032000", 1)]
    assert rows[1]["line"] == _golden("32000")
    assert [r["rules"] for r in tp.batch("pysol:2", "pysol:3", "both")] == ["easy", "classic"]
    assert len(list(tp.batch(0, 1))) == 2  # deal numbers: both rule sets, as before


def test_the_pages_http_api_takes_pysolfc_games(tmp_path: Path) -> None:
    pytest.importorskip("httpx")
    from test_web_api import client, start

    c = client(tmp_path)
    state = start(c, "pysol:617")
    record = next(tmp_path.rglob("*.txt")).read_text()
    assert "start: code pysol:ms617" in record and state["name"]
    r = c.post("/api/games", json={"start": "pysol:ms0"})
    assert r.status_code == 400 and "ms8589934591" in r.text
    r = c.post("/api/games", json={"start": "pysol:617", "variants": ["joker"]})
    assert r.status_code == 400 and "52 cards" in r.text
    data = c.post("/api/solve", json={"text": "pysol:617"}).json()
    assert data["line"] == _golden("617") and data["pysol"]["number"] == "ms617"
    assert c.post("/api/solve", json={"text": "pysol:0"}).status_code == 400
