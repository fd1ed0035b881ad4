"""``batch --difficulty R`` and ``batch --player P``: the added columns, the summary, resume."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from cli_run import assert_one_line_error, run

from tripeaks_solver import CLASSIC, EASY, Deal
from tripeaks_solver.analysis.difficulty import RATINGS, difficulties
from tripeaks_solver.analysis.players import play
from tripeaks_solver.analysis.stats import wilson_interval
from tripeaks_solver.batch.csvfile import read_existing
from tripeaks_solver.batch.rows import CSV_HEADER, Row
from tripeaks_solver.solver.solve import solve

RULES = {"easy": EASY, "classic": CLASSIC}
DEALS = range(21)
GAMES = 20
SEED = 7
ADDED = ("seed", "difficulty", "rating", "difficulty_games",
         "player", "player_won", "player_score", "player_moves")
OPTS = ("--difficulty", str(GAMES), "--player", "greedy", "--player", "random",
        "--seed", str(SEED))


def batch(capsys, *args: str) -> tuple[int, str, str]:
    return run(capsys, "batch", *args)


def lines_of(path: Path) -> list[list[str]]:
    """Header and rows, the timing column dropped."""
    with open(path, newline="") as f:
        lines = list(csv.reader(f))
    timing = lines[0].index("seconds")
    return [line[:timing] + line[timing + 1:] for line in lines]


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> tuple[Path, dict]:
    """Deals 0-20, both rules, difficulty and two players, one job."""
    path = tmp_path_factory.mktemp("players") / "p.csv"
    try:
        from tripeaks_solver.cli import main
        main(["batch", str(DEALS.start), str(DEALS.stop), "--jobs", "1", "--csv", str(path),
              "--json", *OPTS])
    except SystemExit as exc:
        assert exc.code == 0
    return path


@pytest.fixture(scope="module")
def expected() -> dict:
    """Per (deal, rules): the verdict, the difficulty and both players' games, computed
    directly with the solver, difficulty.difficulties and players.play."""
    out = {}
    for name, rules in RULES.items():
        deals = [Deal.from_number(n) for n in DEALS]
        won = [solve(d, rules, optimal=False).winnable for d in deals]
        diffs = difficulties(deals, rules, GAMES, SEED)  # solving again: independent
        for n, deal, w, d in zip(DEALS, deals, won, diffs, strict=True):
            games = [play(deal, p, rules, seed=SEED + n) for p in ("greedy", "random")]
            out[n, name] = (w, d, games)
    return out


def test_columns_are_the_direct_answers(made, expected):
    lines = lines_of(made)
    assert tuple(lines[0]) == tuple(c for c in CSV_HEADER if c != "seconds") + ADDED
    assert len(lines) - 1 == 2 * len(DEALS)
    for line in lines[1:]:
        f = dict(zip(lines[0], line, strict=True))
        won, d, games = expected[int(f["deal"]), f["rules"]]
        assert f["winnable"] == ("true" if won else "false")
        assert f["seed"] == str(SEED) and f["difficulty_games"] == str(GAMES)
        assert float(f["difficulty"]) == d.value and f["rating"] == d.rating
        assert f["player"] == "greedy;random"
        assert f["player_won"] == ";".join("true" if g.won else "false" for g in games)
        assert f["player_score"] == ";".join(str(g.score) for g in games)
        assert f["player_moves"] == ";".join(str(len(g.moves)) for g in games)


def test_summary_counts(made, expected, capsys):
    code, out, err = run(capsys, "report", str(made), "--json")
    assert code == 0, err
    s = json.loads(out)
    assert (s["difficulty_games"], s["players"], s["seed"]) == (GAMES, ["greedy", "random"],
                                                                  SEED)
    for name in RULES:
        mine = {n: expected[n, name] for n in DEALS}
        t = s["rules"][name]
        ratings = [d.rating for _, d, _ in mine.values()]
        assert t["ratings"] == {w: ratings.count(w) for w in RATINGS}
        assert t["ratings"]["impossible"] == sum(not w for w, _, _ in mine.values())
        exact = sum(w for w, _, _ in mine.values())
        for i, who in enumerate(("greedy", "random")):
            wins = sum(g[i].won for _, _, g in mine.values())
            lost = sum(w and not g[i].won for w, _, g in mine.values())
            p = t["players"][who]
            assert p["wins"] == wins and p["winnable_lost"] == lost
            assert p["win_rate"] == round(wins / len(DEALS), 6)
            assert p["win_rate_95"] == [round(x, 6) for x in wilson_interval(wins, len(DEALS))]
            assert p["exact_win_rate"] == round(exact / len(DEALS), 6)
    code, text, _ = run(capsys, "report", str(made))
    assert code == 0 and text.count("difficulty ratings (20 greedy games)") == 2
    assert text.count("player greedy:") == 2 and text.count("player random:") == 2
    # the batch's own summary is the report's (without the report's keys)
    code, out, _ = batch(capsys, "0", "21", "--jobs", "1", "--json", *OPTS)
    assert code == 0
    run_summary = json.loads(out)
    assert {k: s[k] for k in run_summary} == run_summary


def test_text_summary_names_the_additions(capsys):
    code, out, _ = batch(capsys, "0", "3", "--rules", "easy", "--jobs", "1", *OPTS)
    assert code == 0
    assert "difficulty ratings (20 greedy games): easy" in out
    assert "player greedy:" in out and "player random:" in out and "winnable deals lost" in out


def test_perfect_wins_exactly_the_winnable(capsys):
    code, out, err = batch(capsys, "0", "21", "--jobs", "1", "--player", "perfect", "--json")
    assert code == 0, err
    for t in json.loads(out)["rules"].values():
        p = t["players"]["perfect"]
        assert p["wins"] == t["wins"] and p["win_rate"] == t["win_rate"]
        assert p["exact_win_rate"] == t["win_rate"] and p["winnable_lost"] == 0


SUMMARY_KEYS = {"start", "stop", "deals", "optimal", "variant", "scoring", "must_clear",
                "rules", "cross", "difficulty_games", "players", "seed", "layout_file", "pysol"}
RULE_KEYS = {"deals", "wins", "win_rate", "win_rate_95", "best_score_mean",
             "best_score_median", "min_draws", "ratings", "players"}


def test_plain_batch_csv_unchanged_json_keys_the_same(tmp_path, capsys):
    path = tmp_path / "plain.csv"
    code, out, _ = batch(capsys, "0", "2", "--jobs", "1", "--csv", str(path), "--json")
    assert code == 0
    assert path.read_text().splitlines()[0] == ",".join(CSV_HEADER)
    s = json.loads(out)
    assert set(s) == SUMMARY_KEYS and set(s["rules"]) == {"easy", "classic"}
    assert all(set(t) == RULE_KEYS for t in s["rules"].values())
    assert (s["difficulty_games"], s["players"], s["seed"], s["layout_file"]) == (
        None, [], None, None)
    assert s["rules"]["easy"]["ratings"] is None and s["rules"]["easy"]["players"] is None


@pytest.mark.parametrize("args", [
    ["--rules", "easy"], ["--rules", "classic", "--no-optimal"], ["--scoring", "original"],
    ["--player", "greedy", "--difficulty", "5", "--rules", "easy"],
    ["--must-clear", "--scoring", "original", "--player", "greedy"],
], ids=lambda a: " ".join(a))
def test_batch_json_has_every_key_whatever_the_options(capsys, args):
    code, out, err = batch(capsys, "0", "3", "--jobs", "1", "--json", *args)
    assert code == 0, err
    s = json.loads(out)
    assert set(s) == SUMMARY_KEYS and set(s["rules"]) == {"easy", "classic"}
    asked = [name for name, t in s["rules"].items() if t is not None]
    assert asked == ([a for a in ("easy", "classic") if a in args] or ["easy", "classic"])
    assert all(set(s["rules"][name]) == RULE_KEYS for name in asked)
    assert (s["cross"] is None) == (len(asked) == 1)
    for name in asked:
        t = s["rules"][name]
        optimal = "--no-optimal" not in args
        assert (t["best_score_mean"] is None) == (not optimal)
        assert (t["min_draws"] is None) == (not optimal or "original" in args)


def test_jobs_2_same_rows_and_resume_round_trip(made, tmp_path, capsys):
    path = tmp_path / "j2.csv"
    code, _, err = batch(capsys, "0", "21", "--jobs", "2", "--csv", str(path), *OPTS)
    assert code == 0, err
    assert lines_of(path) == lines_of(made)
    text = made.read_text().splitlines(keepends=True)
    cut = tmp_path / "cut.csv"
    cut.write_text("".join(text[:15]) + text[15][:30])  # a torn last line
    code, _, err = batch(capsys, "0", "21", "--jobs", "1", "--csv", str(cut), "--resume",
                         *OPTS)
    assert code == 0, err
    assert lines_of(cut) == lines_of(made)
    # read back, each row keeps its added values
    rows = read_existing(cut).rows
    assert all(r.extra is not None and r.extra.games == GAMES for r in rows)


@pytest.mark.parametrize("opts", [
    (),
    ("--difficulty", str(GAMES)),
    ("--difficulty", "21", "--player", "greedy", "--player", "random", "--seed", str(SEED)),
    ("--difficulty", str(GAMES), "--player", "greedy", "--seed", str(SEED)),
    ("--difficulty", str(GAMES), "--player", "random", "--player", "greedy", "--seed",
     str(SEED)),
    OPTS[:-1] + ("8",),
])
def test_resume_refuses_other_options(made, tmp_path, capsys, opts):
    path = tmp_path / "r.csv"
    path.write_bytes(b"".join(made.read_bytes().splitlines(keepends=True)[:5]))
    before = path.read_bytes()
    code, _, err = batch(capsys, "0", "21", "--jobs", "1", "--csv", str(path), "--resume",
                         *opts)
    assert_one_line_error(code, err, "resume it with the same options")
    assert path.read_bytes() == before


def test_resume_of_a_header_only_file_refuses_other_columns(tmp_path, capsys):
    path = tmp_path / "h.csv"
    path.write_text(",".join(CSV_HEADER) + "\n")
    code, _, err = batch(capsys, "0", "2", "--jobs", "1", "--csv", str(path), "--resume",
                         "--difficulty", "5")
    assert_one_line_error(code, err, "added columns none")


def test_plain_file_refused_by_extras_and_back(tmp_path, capsys):
    path = tmp_path / "plain.csv"
    assert batch(capsys, "0", "2", "--jobs", "1", "--csv", str(path))[0] == 0
    code, _, err = batch(capsys, "0", "3", "--jobs", "1", "--csv", str(path), "--resume",
                         "--player", "greedy")
    assert_one_line_error(code, err, "no --difficulty or --player")


def _fields(made: Path) -> tuple[list[str], list[list[str]]]:
    with open(made, newline="") as f:
        lines = list(csv.reader(f))
    return lines[0], lines[1:]


def _lost_row(made: Path) -> dict[str, str]:
    head, rows = _fields(made)
    return next(dict(zip(head, r, strict=True)) for r in rows if r[5] == "false")


@pytest.mark.parametrize("change, words", [
    ({"difficulty": "0.5"}, "a lost deal has difficulty"),
    ({"rating": "expert"}, "rating"),
    ({"player_won": "true;false"}, "won a deal the exact solver calls lost"),
    ({"difficulty": "1.5"}, "difficulty is"),
    ({"difficulty": "nan"}, "difficulty is"),
    ({"player_won": "true"}, "different numbers"),
    ({"player": "greedy;bogus"}, "unknown player"),
    ({"difficulty_games": "0"}, "difficulty_games"),
    ({"seed": "-1"}, "seed"),
])
def test_bad_added_values_are_refused(made, change, words):
    head = _fields(made)[0]
    f = _lost_row(made) | change
    with pytest.raises(ValueError, match=words):
        Row.from_csv_fields([f[c] for c in head], tuple(head[len(CSV_HEADER):]))


def test_won_row_checks(made):
    head, rows = _fields(made)
    f = next(dict(zip(head, r, strict=True)) for r in rows if r[5] == "true")
    added = tuple(head[len(CSV_HEADER):])
    Row.from_csv_fields([f[c] for c in head], added)  # as written: fine
    value = float(f["difficulty"])
    other = "impossible" if f["rating"] != "impossible" else "easy"
    with pytest.raises(ValueError, match="rating"):
        Row.from_csv_fields([(f | {"rating": other})[c] for c in head], added)
    with pytest.raises(ValueError, match="no share"):
        bad = f | {"difficulty": "0.123", "difficulty_games": "20"}
        Row.from_csv_fields([bad[c] for c in head], added)
    assert 0 <= value <= 1


@pytest.mark.parametrize("args, words", [
    (("--difficulty", "0"), "--difficulty"),
    (("--difficulty", "100001"), "--difficulty"),
    (("--player", "wizard"), "--player"),
    (("--player", "greedy", "--player", "greedy"), "twice"),
    (("--player", "greedy", "--seed", "-1"), "--seed"),
])
def test_bad_options(args, words, capsys):
    code, _, err = batch(capsys, "0", "2", *args)
    assert code == 2 and words in err and "Traceback" not in err


@pytest.mark.slow  # the default run checks the Dask engine without players (test_batch.py)
def test_dask_engine_same_rows(made, tmp_path, capsys):
    pytest.importorskip("dask.distributed")
    path = tmp_path / "dask.csv"
    code, _, err = batch(capsys, "0", "21", "--engine", "dask", "--jobs", "1", "--csv",
                         str(path), *OPTS)
    assert code == 0, err
    assert lines_of(path) == lines_of(made)


def test_perfect_columns_are_plays_line(tmp_path, capsys):
    path = tmp_path / "perfect.csv"
    for extra in ((), ("--no-optimal",)):  # replayed from the batch's solve, or solved
        code, _, err = batch(capsys, "0", "6", "--jobs", "1", "--csv", str(path), "--force",
                             "--player", "perfect", *extra)
        assert code == 0, err
        for row in read_existing(path).rows:
            game = play(Deal.from_number(row.deal), "perfect", RULES[row.rules])
            (cell,) = row.extra.plays
            assert (cell.won, cell.score, cell.moves) == (game.won, game.score,
                                                          len(game.moves))


def test_layout_file_games_seeded_by_place(tmp_path, capsys):
    deals = [Deal.from_number(n) for n in (5, 9, 13)]
    layouts = tmp_path / "layouts.txt"
    layouts.write_text("".join(d.line() + "\n" for d in deals))
    path = tmp_path / "typed.csv"
    code, _, err = batch(capsys, "--layout-file", str(layouts), "--rules", "classic",
                         "--jobs", "1", "--csv", str(path), "--difficulty", "5", "--player",
                         "greedy", "--seed", "3")
    assert code == 0, err
    for place, row in enumerate(read_existing(path).rows):
        deal = Deal(deals[place].cards)
        d = difficulties([deal], CLASSIC, 5, 3 + place)[0]
        game = play(deal, "greedy", CLASSIC, seed=3 + place)
        assert (row.extra.difficulty, row.extra.rating) == (d.value, d.rating)
        assert row.extra.plays[0].score == game.score


# Every row's seed is one `play --seed` takes, up to the top of the range.
TOP_SEED = (1 << 62) - 1  # the largest `play --seed` takes, as its --help range says


def test_seeds_at_the_top_of_the_range_are_plays(capsys, tmp_path):
    path = tmp_path / "top.csv"
    base = TOP_SEED - 2  # deal 2 gets the very top
    code, _, err = run(capsys, "batch", "0", "3", "--rules", "easy", "--player", "greedy",
                       "--seed", str(base), "--jobs", "1", "--csv", str(path))
    assert code == 0, err
    for row in read_existing(path).rows:
        played = json.loads(run(capsys, "play", row.code, "--player", "greedy", "--seed",
                                str(base + row.deal), "--json")[1])
        cell = row.extra.plays[0]
        assert (cell.won, cell.score, cell.moves) == (played["won"], played["score"],
                                                      len(played["moves"]))


@pytest.mark.parametrize("args", [("0", "3"), ("5", "8")])
def test_a_seed_past_the_top_is_refused(capsys, tmp_path, args):
    last = int(args[1]) - 1
    path = tmp_path / "never.csv"
    code, _, err = run(capsys, "batch", *args, "--player", "greedy", "--seed",
                       str(TOP_SEED - last + 1), "--csv", str(path))
    assert_one_line_error(code, err, "--seed", str(TOP_SEED - last))
    assert not path.exists()
    assert run(capsys, "play", "TP1-E-AAAAAAB", "--seed", str(TOP_SEED + 1))[0] == 2
