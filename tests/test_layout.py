"""Layouts typed in: parsing and its errors, the command line (``--layout``,
``--layout-file``, ``batch --layout-file``) and the win share of layouts with ``??``
cards.

The exact shares are checked on hand-built layouts whose answers follow from the rules
alone (see ``CHAIN`` below): every completion is written out with the verdict derived
by hand, shown on the plain-Python game (a winning line replayed, or "nothing can ever
be played"), and also asked of the solver.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import shutil
import subprocess
from pathlib import Path

import pytest
from cli_run import assert_one_line_error, run
from helpers import BOTTOM_UP, RULE_IDS, RULE_SETS
from naive import may_follow

from tripeaks_solver import CLASSIC, EASY, Card, Deal, Game, InputError, Status
from tripeaks_solver.analysis.probability import distinct_rank_fillings, win_probability
from tripeaks_solver.model.layout import Layout, parse_layout_file
from tripeaks_solver.solver.solve import solve

RANKS = "A23456789TJQK"
EXE = shutil.which("tripeaks-solve")


def line_of(n: int) -> str:
    return Deal.from_number(n).line()


def rank(token: str) -> int:
    return RANKS.index(token[0].upper())


# --- the hand-built layouts --------------------------------------------------------------
#
# CHAIN: removing the tableau bottom row first, then row 3, row 2 and the tops (each row
# left to right, BOTTOM_UP) from the waste 3c, every card is one rank from the one
# before: 3 | 4 5 4 5 6 5 6 7 6 7 | 8 9 8 9 8 7 8 7 6 | 5 4 3 4 3 2 | 3 2 A. So the deal
# is won without a draw, under both rule sets. The stock holds A, 2, 9, T, J, Q, K
# only, and none of those is next to a bottom-row rank (4 … 7), even with K–A wrap.
#
# DEAD: CHAIN with the waste 3c and position 10 (9c) swapped. The waste is then 9c and
# every stock card one of A 2 9 T J Q K: no card that will ever top the waste follows a
# bottom-row card, nothing above the bottom row is ever uncovered, so nothing is ever
# removed and the deal is lost (0 of 28) under both rule sets.

CHAIN = (
    "3s 2d Ac 5s 4h 3d 4s 3h 2c 8c 9c 8d 9d 8h 7h 8s 7s 6s "
    "4c 5c 4d 5d 6c 5h 6d 7c 6h 7d "
    "3c "
    "Ad Ah As 2h 2s 9h 9s Tc Td Th Ts Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks"
)
WASTE = 28


def swapped(line: str, i: int, j: int) -> str:
    t = line.split()
    t[i], t[j] = t[j], t[i]
    return " ".join(t)


def hidden(line: str, places) -> str:
    return " ".join("??" if i in places else t for i, t in enumerate(line.split()))


def filled(line: str, places, tokens) -> Deal:
    t = line.split()
    for p, tok in zip(places, tokens, strict=True):
        t[p] = tok
    return Deal.from_cards(t)


DEAD = swapped(CHAIN, WASTE, 10)


def test_the_hand_built_layouts_are_what_the_comments_say():
    t = CHAIN.split()
    assert len(t) == 52 and len(set(t)) == 52
    walk = [rank(t[WASTE])] + [rank(t[p]) for p in BOTTOM_UP]
    assert all(abs(a - b) == 1 for a, b in itertools.pairwise(walk))  # no wrap needed
    bottom = {rank(t[p]) for p in range(18, 28)}
    assert bottom == {3, 4, 5, 6}  # ranks 4 … 7
    for wrap in (True, False):
        assert not any(may_follow(rank(s), b, wrap) for s in t[29:] for b in bottom)
    d = DEAD.split()
    assert d[WASTE] == "9c" and d[10] == "3c"
    for wrap in (True, False):
        assert not any(may_follow(rank(s), b, wrap) for s in d[28:] for b in bottom)


def play_line(deal: Deal, rules, draws: int, order) -> Game:
    """Draw ``draws`` times, then remove the tableau cards at ``order``."""
    g = Game(deal, rules, lang="en")
    for _ in range(draws):
        g.draw()
    for p in order:
        g.remove(deal.tableau[p])
    return g


def nothing_ever_plays(deal: Deal, rules) -> bool:
    """True when no card can be removed at any point: at every step the only legal move is a
    draw, so the draw-only line is the only line, and it ends stuck with 28 cards."""
    g = Game(deal, rules, lang="en")
    while True:
        if g.playable():
            return False
        if not g.stock_left:
            return g.status is Status.STUCK and g.cards_left == 28
        g.draw()


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_chain_wins_without_a_draw_and_dead_never_plays(rules):
    chain = Deal.from_cards(CHAIN.split())
    g = play_line(chain, rules, 0, BOTTOM_UP)
    assert g.status is Status.WON and g.score == 772
    assert solve(chain, rules).best_score == 772
    dead = Deal.from_cards(DEAD.split())
    assert nothing_ever_plays(dead, rules)
    sol = solve(dead, rules)
    assert not sol.winnable and sol.max_removed == 0


# Every completion of a few layouts with ?? cards, the verdict derived by hand:
# DEAD_END, or (draws, order): a winning line of that many draws then those removals.
DEAD_END = "dead"
SWAP_18_19 = [19, 18] + BOTTOM_UP[2:]
CASES = {
    # The waste and a covered card of another rank: with the 3 on the waste the chain
    # plays; with the 3 under the bottom row the layout is DEAD. One of two.
    "waste-and-covered": (CHAIN, (WASTE, 10), {
        ("3c", "9c"): (0, BOTTOM_UP),
        ("9c", "3c"): DEAD_END,
    }),
    # The waste and the last stock card: the 3 on the waste plays at once; the 3 last in
    # the stock is reached after 23 draws (a K on the waste follows no bottom card, and
    # drawing is always allowed), then the chain plays. Two of two.
    "waste-and-stock": (CHAIN, (WASTE, 51), {
        ("3c", "Ks"): (0, BOTTOM_UP),
        ("Ks", "3c"): (23, BOTTOM_UP),
    }),
    # Two bottom-row cards (4c, 5c): both are face up from the start, so in either order
    # the same chain of ranks plays, the first two removals taken in the other order.
    "two-bottom-cards": (CHAIN, (18, 19), {
        ("4c", "5c"): (0, BOTTOM_UP),
        ("5c", "4c"): (0, SWAP_18_19),
    }),
    # Two unknown cards of the same rank (3c, 3s): one rank filling of weight 2.
    "same-rank-pair": (CHAIN, (WASTE, 0), {
        ("3c", "3s"): (0, BOTTOM_UP),
        ("3s", "3c"): (0, BOTTOM_UP),
    }),
    # DEAD with two stock cards unknown: the stock still holds only A 2 9 T J Q K.
    "dead-two-stock": (DEAD, (36, 40), {
        ("Tc", "Jc"): DEAD_END,
        ("Jc", "Tc"): DEAD_END,
    }),
    "dead-same-rank": (DEAD, (48, 49), {
        ("Kc", "Kd"): DEAD_END,
        ("Kd", "Kc"): DEAD_END,
    }),
    # The waste and two covered 9s: won only when the 3 is on the waste (the 9s are
    # then back in their places), DEAD otherwise. 3 rank fillings of weight 2, 2 of 6.
    "three-unknowns": (CHAIN, (WASTE, 10, 12), {
        ("3c", "9c", "9d"): (0, BOTTOM_UP),
        ("3c", "9d", "9c"): (0, BOTTOM_UP),
        ("9c", "3c", "9d"): DEAD_END,
        ("9d", "3c", "9c"): DEAD_END,
        ("9c", "9d", "3c"): DEAD_END,
        ("9d", "9c", "3c"): DEAD_END,
    }),
}


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
@pytest.mark.parametrize("name", list(CASES))
def test_each_completion_by_hand_and_by_the_solver(name, rules):
    base, places, completions = CASES[name]
    originals = [base.split()[p] for p in places]
    # The table lists every completion: each order of the cards named nowhere.
    assert set(completions) == set(itertools.permutations(originals))
    for tokens, plan in completions.items():
        deal = filled(base, places, tokens)
        verdict = solve(deal, rules, optimal=False).winnable
        if plan == DEAD_END:
            assert nothing_ever_plays(deal, rules), tokens
            assert not verdict, tokens
        else:
            draws, order = plan
            g = play_line(deal, rules, draws, order)
            assert g.status is Status.WON and g.score == 772 - draws, tokens
            assert verdict, tokens


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
@pytest.mark.parametrize("name", list(CASES))
def test_exact_share_counts_the_completions_won(name, rules):
    base, places, completions = CASES[name]
    layout = Layout.parse(hidden(base, places))
    assert layout.unknown_places == sorted(places)
    wins = sum(plan != DEAD_END for plan in completions.values())
    rank_fillings = {tuple(rank(t) for t in tokens) for tokens in completions}
    assert distinct_rank_fillings(layout) == len(rank_fillings)
    share = win_probability(layout, rules)
    assert share.exact
    assert (share.wins, share.total) == (wins, len(completions))
    assert share.total == layout.completions == math.factorial(len(places))
    assert share.solved == len(rank_fillings)  # suits merged: one solve per rank filling
    assert share.share == wins / len(completions)
    assert share.interval == (share.share, share.share)
    assert share.rules == rules


def test_expected_shares_of_the_cases_written_out():
    # The same numbers as above, stated plainly for the reader (Easy; Classic is equal).
    got = {name: (s.wins, s.total, s.solved) for name, (base, places, _) in CASES.items()
           for s in [win_probability(hidden(base, places), EASY)]}
    assert got == {
        "waste-and-covered": (1, 2, 2),
        "waste-and-stock": (2, 2, 2),
        "two-bottom-cards": (2, 2, 2),
        "same-rank-pair": (2, 2, 1),
        "dead-two-stock": (0, 2, 2),
        "dead-same-rank": (0, 2, 1),
        "three-unknowns": (2, 6, 3),
    }


def test_merged_enumeration_equals_solving_every_completion():
    # Deal 1 with five row-2 cards and the waste unknown: 6! = 720 completions, 360 rank
    # fillings. Solving each of the 720 completions one by one gives the same count.
    line = line_of(1)
    places = [3, 4, 5, 6, 7, WASTE]
    layout = Layout.parse(hidden(line, places))
    missing = layout.missing_cards
    assert sorted(missing) == sorted(Card.parse(line.split()[p]) for p in places)
    brute = sum(solve(layout.deal(perm), CLASSIC, optimal=False).winnable
                for perm in itertools.permutations(missing))
    share = win_probability(layout, CLASSIC, samples=1000)
    assert share.exact and share.total == 720 and share.solved == 360
    assert share.wins == brute
    assert 0 < brute < 720  # a share strictly between 0 and 1 (540 when written)


# --- every card known -------------------------------------------------------------------


def test_known_layout_share_is_0_or_1_and_is_the_verdict():
    seen = set()
    lines = [line_of(n) for n in range(10)] + [CHAIN, DEAD]
    for line in lines:
        layout = Layout.parse(line)
        assert layout.unknown_places == [] and layout.completions == 1
        for rules in RULE_SETS:
            share = win_probability(layout, rules)
            assert share.exact and share.total == 1 and share.solved == 1
            assert share.wins in (0, 1)
            assert bool(share.wins) == solve(layout.deal(), rules).winnable
            seen.add(share.wins)
    assert seen == {0, 1}  # the sample holds won and lost deals (deal 8 Classic, DEAD)


# --- sampling ---------------------------------------------------------------------------


def test_sampling_every_completion_won_or_lost_by_hand():
    # CHAIN with the whole stock unknown: the tableau and waste 3c are fixed, so every
    # completion is won with no draw. DEAD with the whole stock unknown: the missing cards
    # are A 2 9 T J Q K only, so every completion is lost.
    stock = range(29, 52)
    for base, won in ((CHAIN, True), (DEAD, False)):
        layout = Layout.parse(hidden(base, stock))
        assert distinct_rank_fillings(layout) > 1000
        for rules in RULE_SETS:
            s = win_probability(layout, rules, samples=60, seed=7)
            assert not s.exact and s.total == 60 and 1 <= s.solved <= 60
            assert s.wins == (60 if won else 0)
            lo, hi = s.interval
            assert lo <= s.share <= hi
            assert (hi == 1.0 and lo < 1.0) if won else (lo == 0.0 and hi > 0.0)


@pytest.fixture(scope="module")
def many_unknowns() -> Layout:
    # Deal 0 as a player sees it: bottom row and waste known; the 18 face-down cards and
    # the stock unknown. About half of its completions are won under Classic.
    return Layout.parse(hidden(line_of(0), list(range(18)) + list(range(29, 52))))


def test_sampling_is_seeded_and_reproducible(many_unknowns):
    assert len(many_unknowns.unknown_places) == 41
    runs = {seed: win_probability(many_unknowns, CLASSIC, samples=80, seed=seed)
            for seed in range(5)}
    for seed, s in runs.items():
        assert not s.exact and s.total == 80 and s.solved <= 80
        lo, hi = s.interval
        assert 0.0 <= lo < s.share < hi <= 1.0
        again = win_probability(many_unknowns, CLASSIC, samples=80, seed=seed)
        assert (again.wins, again.total, again.solved) == (s.wins, s.total, s.solved)
    assert len({s.wins for s in runs.values()}) >= 2  # different seeds, different samples


def test_sampled_interval_contains_the_exact_share():
    # 360 rank fillings: solved exactly with samples >= 360, sampled with 359.
    layout = Layout.parse(hidden(line_of(1), [3, 4, 5, 6, 7, WASTE]))
    exact = win_probability(layout, CLASSIC, samples=360)
    sampled = win_probability(layout, CLASSIC, samples=359, seed=1)
    assert exact.exact and exact.total == 720
    assert not sampled.exact and sampled.total == 359
    lo, hi = sampled.interval
    assert lo <= exact.share <= hi
    assert abs(sampled.share - exact.share) < 0.1


def test_samples_below_one_is_refused():
    with pytest.raises(InputError, match="samples"):
        win_probability(hidden(CHAIN, (WASTE, 10)), EASY, samples=0)


# --- parsing ------------------------------------------------------------------------------


def test_people_and_machine_notation_mixed():
    machine = line_of(1).split()
    people = [Card.parse(t).pretty for t in machine]
    assert "10♥" in people and "K♣" in people
    mixed = []
    for i, (m, p) in enumerate(zip(machine, people)):
        mixed.append([m, p, m.lower(), p.replace("10", "T").upper()][i % 4])
    for text in (" ".join(mixed), ", ".join(mixed), "  \n".join(people)):
        layout = Layout.parse(text)
        assert layout.line() == line_of(1)
        assert layout.deal() == Deal.from_number(1)


def test_unknown_places_and_missing_cards():
    text = hidden(line_of(2), [0, 5, 28, 51])
    assert text.split().count("??") == 4
    layout = Layout.parse(text)
    assert layout.unknown_places == [0, 5, 28, 51]
    assert sorted(layout.missing_cards) == sorted(
        Card.parse(line_of(2).split()[p]) for p in (0, 5, 28, 51))
    assert layout.completions == 24
    assert layout.line() == text
    refilled = layout.deal([Card.parse(line_of(2).split()[p]) for p in (0, 5, 28, 51)])
    assert refilled == Deal.from_number(2)


def _replace(line: str, position: int, token: str) -> str:
    t = line.split()
    t[position - 1] = token  # positions count from 1, as the messages do
    return " ".join(t)


L1 = line_of(1)
MALFORMED = [
    # (id, text, words the one-line message must hold)
    ("51-tokens", " ".join(L1.split()[:51]), ["52", "got 51"]),
    ("53-tokens", L1 + " ??", ["52", "got 53"]),
    ("empty", "", ["52", "got 0"]),
    ("bad-card", _replace(L1, 7, "Xx"), ["token 7", "'Xx'"]),
    ("rank-1", _replace(L1, 1, "1c"), ["token 1", "'1c'"]),
    ("rank-11", _replace(L1, 52, "11h"), ["token 52", "'11h'"]),
    ("one-question-mark", _replace(L1, 30, "?"), ["token 30", "'?'"]),
    ("three-question-marks", _replace(L1, 30, "???"), ["token 30", "'???'"]),
    ("bad-suit", _replace(L1, 12, "Kx"), ["token 12", "'Kx'"]),
    ("duplicate", _replace(L1, 40, L1.split()[0]), ["token 40", "'7d'", "token 1"]),
    ("duplicate-people", _replace(L1, 5, "9♣"), ["token 5", "'9♣'", "token 2"]),
    ("duplicate-unknown-elsewhere", _replace(_replace(L1, 3, "??"), 44, "4s"),
     ["token 44", "'4s'", "token 30"]),
    ("joker", _replace(L1, 3, "Jk"), ["token 3", "'Jk'"]),
    ("joker-symbol", _replace(L1, 29, "🃏"), ["token 29", "'🃏'"]),
]
MALFORMED_IDS = [m[0] for m in MALFORMED]


@pytest.mark.parametrize(("text", "needles"), [m[1:] for m in MALFORMED], ids=MALFORMED_IDS)
def test_malformed_layout_is_one_line_input_error(text, needles):
    with pytest.raises(InputError) as info:
        Layout.parse(text)
    message = str(info.value)
    assert "\n" not in message
    for needle in needles:
        assert needle in message


@pytest.mark.parametrize(("text", "needles"), [m[1:] for m in MALFORMED], ids=MALFORMED_IDS)
def test_malformed_layout_on_the_command_line(capsys, text, needles):
    code, out, err = run(capsys, "--layout", text)
    assert_one_line_error(code, err, "--layout 1", *needles)
    assert out == ""


@pytest.mark.parametrize(("text", "needles"), [m[1:] for m in MALFORMED[:6]],
                         ids=MALFORMED_IDS[:6])
def test_malformed_layout_file_names_the_line(capsys, tmp_path, text, needles):
    path = tmp_path / "deals.txt"
    path.write_text(f"# two deals\n{line_of(0)}\n\n{text}\n", encoding="utf-8")
    if text == "":  # an empty line is skipped, not an error: the file holds one deal
        code, _, err = run(capsys, "--layout-file", str(path), "--json", "--rules", "easy")
        assert code == 0, err
        return
    code, out, err = run(capsys, "--layout-file", str(path))
    assert_one_line_error(code, err, str(path), "line 4", *needles)
    assert out == ""


def test_layout_file_skips_blank_lines_and_comments():
    text = (f"# my deals\n\n{line_of(0)}   # deal 0, a comment after the cards\n"
            f"   \n#{line_of(1)}\n"
            + " ".join(Card.parse(t).pretty for t in line_of(2).split()) + "\n"
            + f"\t{hidden(line_of(3), [0, 1])}\n")
    got = parse_layout_file(text)
    assert [n for n, _ in got] == [3, 6, 7]  # line numbers of the three deals
    assert [lay.line() for _, lay in got] == [line_of(0), line_of(2), hidden(line_of(3), [0, 1])]
    assert parse_layout_file("# nothing\n\n   # here\n") == []


def test_layout_file_error_names_the_line():
    text = f"# header\n{line_of(0)}\n\n{_replace(line_of(1), 9, 'Zz')}\n{line_of(2)}\n"
    with pytest.raises(InputError) as info:
        parse_layout_file(text)
    message = str(info.value)
    assert message.startswith("line 4: ") and "token 9" in message and "'Zz'" in message
    assert "\n" not in message


def test_unreadable_layout_file(capsys, tmp_path):
    code, _, err = run(capsys, "--layout-file", str(tmp_path / "missing.txt"))
    assert_one_line_error(code, err, "missing.txt")
    bad = tmp_path / "latin1.txt"
    bad.write_bytes(line_of(0).encode() + b" \xe9\n")
    code, _, err = run(capsys, "--layout-file", str(bad))
    assert_one_line_error(code, err, "latin1.txt")


@pytest.mark.skipif(EXE is None, reason="tripeaks-solve is not installed")
def test_installed_command_malformed_layout_one_line_no_traceback(tmp_path):
    bad = _replace(line_of(1), 7, "Xx")
    r = subprocess.run([EXE, "--layout", bad], check=False, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert "token 7 'Xx'" in r.stderr
    path = tmp_path / "deals.txt"
    path.write_text(f"{line_of(0)}\n{_replace(line_of(1), 40, '7d')}\n", encoding="utf-8")
    r = subprocess.run([EXE, "--layout-file", str(path)], check=False, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert "line 2" in r.stderr and "token 40" in r.stderr


# --- the command line: a typed-in deal gets the answers of its code --------------------

ANSWERS = ("rules", "winnable", "min_draws", "best_score", "max_removed", "states",
           "variant", "scoring")
SAME_DEALS = [0, 3, 8, 17, 25]  # deal 8 is lost under Classic


@pytest.mark.parametrize("extra", [[], ["--scoring", "cards-left"], ["--empty-waste"]],
                         ids=["app", "cards-left", "empty-waste"])
def test_layout_gets_the_answers_of_its_code(capsys, extra):
    codes = [f"TP1-E-{Deal.from_number(n).deal_id}" for n in SAME_DEALS]
    layouts = [a for n in SAME_DEALS for a in ("--layout", line_of(n))]
    code, out, err = run(capsys, *codes, "--json", "--no-solution", *extra)
    assert code == 0, err
    by_code = json.loads(out)
    code, out, err = run(capsys, *layouts, "--json", "--no-solution", *extra)
    assert code == 0, err
    by_layout = json.loads(out)
    assert len(by_code) == len(by_layout) == 2 * len(SAME_DEALS)
    assert [r["rules"] for r in by_layout] == ["easy", "classic"] * len(SAME_DEALS)
    for c, lay, n in zip(by_code, by_layout, [n for n in SAME_DEALS for _ in range(2)]):
        assert {k: c[k] for k in ANSWERS} == {k: lay[k] for k in ANSWERS}
        assert lay["code"] is None and lay["deal"] is None and lay["line"] == line_of(n)
        assert c["line"] is None
    lost = [r for r in by_layout if not r["winnable"]]
    assert lost and all(r["min_draws"] is None for r in lost)


def test_layout_file_gets_the_answers_of_its_codes(capsys, tmp_path):
    path = tmp_path / "deals.txt"
    path.write_text("# deals 7 and 8\n\n" + line_of(7) + "\n"
                    + ", ".join(Card.parse(t).pretty for t in line_of(8).split()) + "\n",
                    encoding="utf-8")
    code, out, err = run(capsys, "--layout-file", str(path), "--json")
    assert code == 0, err
    by_file = json.loads(out)
    code, out, err = run(capsys, "TP1-E-AAAAAAH", "TP1-E-AAAAAAI", "--json")
    assert code == 0, err
    by_code = json.loads(out)
    for c, f in zip(by_code, by_file, strict=True):
        assert {k: c[k] for k in ANSWERS} == {k: f[k] for k in ANSWERS}
        assert f["solution"] == c["solution"]


def test_layout_text_output_is_like_the_code(capsys):
    code, out, err = run(capsys, "--layout", line_of(3), "--rules", "classic")
    assert code == 0, err
    code, ref, err = run(capsys, "TP1-C-AAAAAAD", "--rules", "classic")
    assert code == 0, err
    assert out.splitlines()[0] == "layout 1"
    assert ref.splitlines()[0].startswith("TP1-C-AAAAAAD")

    def body(text: str) -> list[str]:  # all but the title and the timing line
        return [ln for ln in text.splitlines()[1:] if not ln.startswith("Searched")]

    assert body(out) == body(ref)
    assert "Classic line to the win" in out


# --- the command line with ?? cards ------------------------------------------------------


def test_cli_exact_share_json_and_text(capsys):
    text = hidden(CHAIN, (WASTE, 10))
    code, out, err = run(capsys, "--layout", text, "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert [(r["rules"], r["wins"], r["completions"], r["exact"], r["share"]) for r in rows] \
        == [("easy", 1, 2, True, 0.5), ("classic", 1, 2, True, 0.5)]
    assert all(r["line"] == text and r["variant"] == "" for r in rows)
    code, out, err = run(capsys, "--layout", text)
    assert code == 0, err
    assert "layout 1: 2 unknown cards" in out
    assert "Easy:    winnable in 1 of 2 completions (50.0%, exact)" in out
    assert "Classic: winnable in 1 of 2 completions (50.0%, exact)" in out
    assert "Waste: ??    Stock: 23 cards, 0 unknown" in out
    assert out.count("??") == 2  # the waste and position 10 of the picture


def test_cli_sampled_share_is_seeded(capsys):
    text = hidden(line_of(0), list(range(18)) + list(range(29, 52)))
    args = ("--layout", text, "--rules", "classic", "--samples", "30", "--json")
    first = run(capsys, *args, "--seed", "11")
    again = run(capsys, *args, "--seed", "11")
    assert first[0] == again[0] == 0
    assert first[1] == again[1]
    (row,) = json.loads(first[1])
    assert row["completions"] == 30 and row["exact"] is False
    assert 0 <= row["wins"] <= 30 and row["share"] == row["wins"] / 30
    code, out, err = run(capsys, "--layout", hidden(CHAIN, range(29, 52)), "--samples", "20",
                         "--seed", "1", "--rules", "easy")
    assert code == 0, err
    assert "winnable in 20 of 20 sampled completions" in out
    assert "winnable in every sampled completion" in out


# --- batch --layout-file ----------------------------------------------------------------


def _csv_rows(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_batch_layout_file_rows_match_the_code_range(capsys, tmp_path):
    deals = range(6, 10)  # deal 8 is lost under Classic
    path = tmp_path / "deals.txt"
    body = ["# four deals, typed in", ""]
    for n in deals:
        body += [f"# deal {n}", line_of(n), ""]
    path.write_text("\n".join(body), encoding="utf-8")
    typed, ref = tmp_path / "typed.csv", tmp_path / "ref.csv"
    code, out, err = run(capsys, "batch", "--layout-file", str(path), "--csv", str(typed),
                         "--jobs", "1", "--no-progress")
    assert code == 0, err
    assert f"Layouts of {path}" in out
    code, _, err = run(capsys, "batch", str(deals.start), str(deals.stop), "--csv", str(ref),
                       "--jobs", "1", "--no-progress")
    assert code == 0, err
    got, want = _csv_rows(typed), _csv_rows(ref)
    assert len(got) == len(want) == 2 * len(deals)
    for i, (g, w) in enumerate(zip(got, want)):
        n = deals[i // 2]
        assert g["code"] == "" and w["code"].endswith(Deal.from_number(n).deal_id)
        assert g["line"] == line_of(n) and w["line"] == ""
        assert g["deal"] == str(i // 2)  # its place in the file
        for k in ("rules", "variant", "scoring", "winnable", "min_draws", "best_score",
                  "max_removed", "states"):
            assert g[k] == w[k], (n, k)
    assert any(g["winnable"] == "false" for g in got)


def test_batch_layout_file_refuses_unknown_cards(capsys, tmp_path):
    path = tmp_path / "deals.txt"
    path.write_text(f"{line_of(0)}\n# next\n{hidden(line_of(1), [5])}\n", encoding="utf-8")
    out_csv = tmp_path / "out.csv"
    code, out, err = run(capsys, "batch", "--layout-file", str(path), "--csv", str(out_csv),
                         "--jobs", "1", "--no-progress")
    assert_one_line_error(code, err, f"{path}:3", "??")
    assert out == "" and not out_csv.exists()


def test_batch_layout_file_errors(capsys, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing here\n\n", encoding="utf-8")
    code, _, err = run(capsys, "batch", "--layout-file", str(empty), "--no-progress")
    assert_one_line_error(code, err, "no layout")
    bad = tmp_path / "bad.txt"
    bad.write_text(f"{line_of(0)}\n{_replace(line_of(1), 3, 'Jk')}\n", encoding="utf-8")
    code, _, err = run(capsys, "batch", "--layout-file", str(bad), "--no-progress")
    assert_one_line_error(code, err, "line 2", "token 3")
    code, _, err = run(capsys, "batch", "0", "3", "--layout-file", str(bad), "--no-progress")
    assert_one_line_error(code, err)
