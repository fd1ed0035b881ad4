"""Peek plans: the kernel's next step equals its slow twin's; every plan replays on the
plain-Python game with undo; a plan never depends on a card the player has not seen."""

from __future__ import annotations

import json
import random

import pytest
from helpers import deal_for
from naive_peek import naive_next_step

from tripeaks_solver.analysis.peek import (
    PeekPlan,
    cheapest_step,
    learn_by_elimination,
    next_step,
    plan_peek,
)
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.game import Game, Status
from tripeaks_solver.model.layout import Layout
from tripeaks_solver.model.moves import Move
from tripeaks_solver.model.rules import CLASSIC, EASY, Rules

RULE_SETS = [EASY, CLASSIC, Rules(wrap=True, joker=True), Rules(wrap=False, empty_waste=True)]


def random_moves(game: Game, rng: random.Random, count: int) -> list[Move]:
    """Up to ``count`` random legal moves played on ``game`` (no undo)."""
    played = []
    for _ in range(count):
        options = [Move.remove(c) for c in game.playable()]
        if game.stock_left and game.rules.may_draw(bool(options)):
            options.append(Move.DRAW)
        if not options or game.status is not Status.IN_PLAY:
            break
        move = rng.choice(options)
        game.play(move)
        played.append(move)
    return played


def situation(rng: random.Random) -> tuple:
    """A random peek in progress: rules, deal, base moves, the excursion line so far,
    and what the player knows (what the game showed, and some more)."""
    rules = rng.choice(RULE_SETS)
    deal = deal_for(rng.randrange(10**6), rules)
    game = Game(deal, rules)
    base = random_moves(game, rng, rng.randrange(12))
    known = set(game.visible_places())
    stack = random_moves(game, rng, rng.randrange(8))
    known |= game.visible_places()
    known |= set(rng.sample(range(len(deal.cards)), rng.randrange(30)))
    return rules, deal, base, stack, Layout.of_deal(deal, known)


@pytest.mark.parametrize("seed", [pytest.param(0, marks=pytest.mark.nojit), 1, 2, 3])
def test_cheapest_step_equals_its_slow_twin(seed: int) -> None:
    rng = random.Random(seed)
    steps = 0
    for _ in range(60):
        rules, _, base, stack, knowledge = situation(rng)
        limit = rng.choice([1, 2, 5, 100])
        back = rng.random() < 0.3
        free = not back and rng.random() < 0.5
        got = cheapest_step(knowledge, rules, base, stack, limit, back, free)
        want = naive_next_step(knowledge, rules, base, stack, limit, back, free)
        assert (got is None) == (want is None)
        if got is not None:  # the twin does not judge the app's message
            assert (got.undos, got.moves, got.shows) == (want.undos, want.moves, want.shows)
        steps += got is not None
    assert steps > 30  # most situations have a next card to show


def start_knowledge(deal: Deal, rules: Rules) -> Layout:
    return Layout.of_deal(deal, Game(deal, rules).visible_places())


def check_replays(plan: PeekPlan, deal: Deal, rules: Rules, base: list[Move],
                  limit: int) -> None:
    """The plan on the plain game: legal moves, shown cards as said, each undo back to
    the position before, and the game where it began (score too) at the end."""
    game = Game(deal, rules)
    for move in base:
        game.play(move)

    def where() -> tuple:
        return (game.removed, game.stock_index, game.waste, game.score_under("app"),
                game.score_under("original"))

    start = where()
    line = [start]  # the position before each move of the line in play
    known = set(game.visible_places())
    start_known = set(known)
    for excursion in plan.excursions:
        for i, move in enumerate(excursion.moves):
            assert len(line) - 1 < limit  # never deeper than the app can take back
            before = game.visible_places()
            game.play(move)
            line.append(where())
            new = game.visible_places() - before - known
            if i == len(excursion.moves) - 1:
                assert sorted(new) == sorted(excursion.shows)
                stuck = game.status is Status.STUCK  # "No more valid moves" in the app
                assert excursion.no_moves_message == stuck
            else:
                assert not new  # the moves on the way use known cards and show nothing
            known |= game.visible_places()
        for _ in range(excursion.undos):
            game.play(Move.UNDO)
            line.pop()
            assert where() == line[-1]
    assert where() == start and len(line) == 1
    assert set(plan.revealed) == known - start_known
    assert set(plan.unreachable) == set(plan.knowledge.unknown_places)
    if plan.by_elimination is not None:
        assert plan.knowledge.places[plan.by_elimination] == deal.cards[plan.by_elimination]
    assert all(c is None or c == deal.cards[p] for p, c in enumerate(plan.knowledge.places))
    assert plan.actions == sum(len(e.moves) + e.undos for e in plan.excursions)


def replay_plans(rules: Rules, numbers: range, limits: tuple) -> None:
    rng = random.Random(str(rules))
    for number in numbers:
        deal = deal_for(number, rules)
        game = Game(deal, rules)
        base = random_moves(game, rng, rng.randrange(6))
        knowledge = Layout.of_deal(deal, game.visible_places())
        for limit, back in limits:
            plan = plan_peek(deal, rules, knowledge, base, limit, back)
            check_replays(plan, deal, rules, base, limit)
            if back:  # the simplest plan goes back to where it began every time
                depth = 0
                for e in plan.excursions:
                    depth += len(e.moves) - e.undos
                    assert depth == 0
            assert plan.complete == (not plan.unreachable)


@pytest.mark.parametrize("rules", [pytest.param(r, marks=() if i == 0 else pytest.mark.slow)
                                   for i, r in enumerate(RULE_SETS)], ids=str)
def test_plans_replay_with_undo(rules: Rules) -> None:
    replay_plans(rules, range(3), ((100, False), (30, False), (8, True), (4, False)))


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS, ids=str)
def test_more_plans_replay_with_undo(rules: Rules) -> None:
    replay_plans(rules, range(3, 15), ((100, False), (100, True), (30, False), (4, False),
                                       (1, False)))


@pytest.mark.slow
@pytest.mark.parametrize("rules", [EASY, CLASSIC], ids=str)
def test_whole_plans_equal_the_slow_twins(rules: Rules) -> None:
    """Step by step as the old greedy plan goes, the slow twin chooses the same step."""
    for number in range(3):
        deal = deal_for(number, rules)
        knowledge = start_knowledge(deal, rules)
        plan = plan_peek(deal, rules, knowledge, adaptive=False)
        stack: list[Move] = []
        known = knowledge
        for i, excursion in enumerate(plan.excursions):
            undos = plan.excursions[i - 1].undos if i else 0
            step = naive_next_step(known, rules, (), stack)
            assert step is not None
            assert (step.undos, step.moves, step.shows) == (undos, excursion.moves,
                                                            excursion.shows)
            if undos:
                del stack[-undos:]
            stack += excursion.moves
            for p in excursion.shows:
                known = known.learn(p, deal.cards[p])
            known = learn_by_elimination(known)[0]
        assert known.complete


def test_a_full_plan_shows_every_card_and_is_much_shorter_than_the_simplest() -> None:
    for rules in (EASY, CLASSIC):
        for number in range(4):
            deal = deal_for(number, rules)
            knowledge = start_knowledge(deal, rules)
            plan = plan_peek(deal, rules, knowledge)
            simple = plan_peek(deal, rules, knowledge, back_to_base=True)
            assert plan.complete and simple.complete
            assert plan.knowledge.filled() == deal
            assert plan.actions < simple.actions / 2


def test_no_undo_no_plan() -> None:
    deal = Deal.from_number(5)
    plan = plan_peek(deal, EASY, start_knowledge(deal, EASY), undo_limit=0)
    assert plan.excursions == () and plan.actions == 0 and not plan.complete
    assert set(plan.unreachable) == set(start_knowledge(deal, EASY).unknown_places)


def moved_unseen(deal: Deal, places: list[int], rng: random.Random) -> Deal:
    """``deal`` with the cards at ``places`` shuffled (so that one of them moves)."""
    cards = list(deal.cards)
    values = [cards[p] for p in places]
    while values == [cards[p] for p in places]:
        rng.shuffle(values)
    for p, c in zip(places, values, strict=True):
        cards[p] = c
    return Deal(tuple(cards))


def first_line_length(plan: PeekPlan) -> int:
    """How many excursions the first line takes (until the first undo)."""
    return next((i + 1 for i, e in enumerate(plan.excursions) if e.undos),
                len(plan.excursions))


@pytest.mark.parametrize("rules", [EASY, pytest.param(CLASSIC, marks=pytest.mark.slow)], ids=str)
def test_a_plan_is_blind_to_unseen_cards(rules: Rules) -> None:
    """Move the cards a plan has not shown by some excursion (early, half way, late in
    the first line, in the repairs): the plan up to there is the same."""
    rng = random.Random(7)
    for number in range(6):
        deal = deal_for(number, rules)
        knowledge = start_knowledge(deal, rules)
        plan = plan_peek(deal, rules, knowledge)
        n = len(plan.excursions)
        line = first_line_length(plan)
        for cut in sorted({1, n // 2, max(1, line - 2), max(1, n - 2)}):
            head = plan.excursions[:cut]
            shown = {p for e in head for p in e.shows}
            hidden = [p for p in knowledge.unknown_places if p not in shown]
            if len(hidden) < 2:
                continue
            other = moved_unseen(deal, hidden, rng)
            theirs = plan_peek(other, rules, knowledge).excursions
            # the steps up to the cut; the undos after the last one read what it shows
            assert theirs[:cut] == head


@pytest.mark.parametrize(("rules", "number"), [(EASY, 0), (CLASSIC, 1), (CLASSIC, 4)], ids=str)
def test_the_walk_through_asked_after_every_tap_is_the_plan(rules: Rules, number: int) -> None:
    """next_step asked after every single move and undo, with only the cards shown so
    far, says the rest of the step plan_peek simulates, tap for tap."""
    deal = deal_for(number, rules)
    knowledge = start_knowledge(deal, rules)
    plan = plan_peek(deal, rules, knowledge)
    taps: list[Move] = []
    for i, e in enumerate(plan.excursions):
        taps += [Move.UNDO] * (plan.excursions[i - 1].undos if i else 0) + list(e.moves)
    taps += [Move.UNDO] * (plan.excursions[-1].undos if plan.excursions else 0)
    stack: list[Move] = []
    known = knowledge
    walked: list[Move] = []
    while True:
        step = next_step(known, rules, (), stack)
        if step is None:
            break
        if step.undos:
            walked.append(Move.UNDO)
            stack.pop()
            continue
        move = step.moves[0]
        walked.append(move)
        game = Game(deal, rules)
        for m in stack:
            game.play(m)
        before = game.visible_places()
        game.play(move)
        stack.append(move)
        for p in game.visible_places() - before:
            known = known.learn(p, deal.cards[p]) if known.places[p] is None else known
        assert set(game.visible_places() - before) & set(knowledge.unknown_places) >= set(
            step.shows if len(step.moves) == 1 else ())
        known = learn_by_elimination(known)[0]
    walked += [Move.UNDO] * len(stack)
    assert walked == taps
    assert known == plan.knowledge


def test_a_seed_gives_the_same_plan_every_time() -> None:
    deal = deal_for(4, CLASSIC)
    knowledge = start_knowledge(deal, CLASSIC)
    plans = [plan_peek(deal, CLASSIC, knowledge, seed=s) for s in (5, 5, 6)]
    assert plans[0] == plans[1] and plans[0].seed == 5 and plans[2].seed == 6
    assert plan_peek(deal, CLASSIC, knowledge) == plan_peek(deal, CLASSIC, knowledge, seed=1)


# --- the command ----------------------------------------------------------------------
PEEK_KEYS = {"code", "deal", "pysol", "layout", "rules", "variant", "scoring", "undo_limit", "seed",
             "excursions", "actions", "moves", "undos", "revealed", "by_elimination",
             "unreachable", "complete", "best_score", "best_line"}


@pytest.mark.parametrize(("args", "rules", "number", "played"), [
    (["TP1-E-AAAAAAD"], EASY, 3, []),
    (["TP1-C-AAAAABQ", "--scoring", "original"], CLASSIC, 42, []),
    (["TP1-E-AAAAAAD", "8h", "d", "4s"], EASY, 3, ["8h", "d", "4s"]),
])
def test_peek_command_json_replays(capsys, args: list[str], rules: Rules, number: int,
                                   played: list[str]) -> None:
    """Every excursion of the JSON plan replays on the plain game and shows the cards it
    names; the best line after it reaches the best score printed; the text says the
    same number of taps."""
    from cli_run import run

    code, out, err = run(capsys, "peek", *args, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert set(data) == PEEK_KEYS and data["complete"] and not data["unreachable"]
    deal = Deal.from_number(number)
    game = Game(deal, rules)
    for token in played:
        game.play(token)
    start = (game.removed, game.stock_index, game.waste, game.score, game.original)
    seen = set(game.visible_places())
    for e in data["excursions"]:
        before = game.visible_places()
        for token in e["moves"]:
            game.play(token)
        new = sorted(game.visible_places() - before - seen)
        assert new == e["shows"] and e["cards"] == [deal.cards[p].token for p in new]
        assert e["no_moves_message"] == (game.status is Status.STUCK)
        seen |= game.visible_places()
        for _ in range(e["undos"]):
            game.play(Move.UNDO)
    assert (game.removed, game.stock_index, game.waste, game.score, game.original) == start
    assert data["actions"] == data["moves"] + data["undos"] == sum(
        len(e["moves"]) + e["undos"] for e in data["excursions"])
    assert len(seen) + (data["by_elimination"] is not None) == len(deal.cards)
    for token in data["best_line"]:
        game.play(token)
    scheme = data["scoring"]
    assert data["best_score"] == (game.cards_left if scheme == "cards-left"
                                  else game.score_under(scheme))
    code, text, _ = run(capsys, "peek", *args)
    assert code == 0 and f"{data['actions']} taps" in text
    assert f"{data['best_score']}, " in text
    assert text.count("No more valid moves") == sum(e["no_moves_message"]
                                                    for e in data["excursions"])
    assert data["seed"] == 1


def test_peek_command_seed(capsys) -> None:
    """--seed: the same seed, the same plan (and the seed in the JSON); the default is 1."""
    from cli_run import run

    outs = [run(capsys, "peek", "TP1-C-AAAAAAE", "--json", *extra)[1]
            for extra in ([], ["--seed", "1"], ["--seed", "9"], ["--seed", "9"])]
    assert outs[0] == outs[1] and outs[2] == outs[3]
    assert json.loads(outs[2])["seed"] == 9
    code, _, err = run(capsys, "peek", "TP1-C-AAAAAAE", "--seed", "-3")
    assert code == 2 and "--seed" in err


def test_peek_command_errors(capsys) -> None:
    from cli_run import assert_one_line_error, run

    out = run(capsys, "peek", "--seen", "Jd 4s Ac 8h 4c 2h 8c 6h 8d 8s 9c")
    assert_one_line_error(out[0], out[2], "coach --peek")
    line = Deal.from_number(3).line().split()
    line[3] = line[40] = "??"
    out = run(capsys, "peek", "--layout", " ".join(line))
    assert_one_line_error(out[0], out[2], "all known")
    out = run(capsys, "peek", "TP1-E-AAAAAAD", "--undo-limit", "-1")
    assert_one_line_error(out[0], out[2], "--undo-limit")
    out = run(capsys, "peek", "TP1-E-AAAAAAD", "Kc")
    assert_one_line_error(out[0], out[2], "move 1 (Kc)", exit_code=1)
    code, out, _ = run(capsys, "peek", "TP1-E-AAAAAAD", "--undo-limit", "0", "--json")
    data = json.loads(out)
    assert code == 0 and data["excursions"] == [] and data["actions"] == 0
    assert not data["complete"] and data["best_score"] is None and data["best_line"] is None
    assert len(data["unreachable"]) == 41
    code, out, _ = run(capsys, "peek", "TP1-E-AAAAAAD", "--undo-limit", "3")
    assert code == 0 and "36 cards stay unknown (16 in the peaks and 20 in the stock)" in out
    assert out.splitlines()[-3].endswith("undo 3: back to the start")


def _opening_plans(numbers: list[int], rules: Rules) -> list[PeekPlan]:
    plans = []
    for n in numbers:
        deal = Deal.from_number(n)
        plans.append(plan_peek(deal, rules, Layout.of_deal(deal, Game(deal, rules).visible_places())))
    return plans


def test_plans_do_not_depend_on_how_many_threads_search(monkeypatch) -> None:
    """The samples are split over threads, each with its own table: one thread or three
    give the same judgements, so the same plans."""
    from tripeaks_solver.analysis import peek_samples
    from tripeaks_solver.kernels import reveal

    plans = {}
    for workers in (1, 3):
        monkeypatch.setattr(peek_samples, "WORKERS", workers)
        monkeypatch.setattr(peek_samples, "_tables",
                            [reveal.new_table(peek_samples.CAP) for _ in range(workers)])
        monkeypatch.setattr(peek_samples, "_pool", None)
        peek_samples._judged.clear()
        plans[workers] = _opening_plans([2, 5], CLASSIC)
    assert plans[1] == plans[3]


def test_plans_made_on_two_threads_at_once_are_those_made_one_at_a_time() -> None:
    """The page peeks for two games on two threads: the searches' shared work space is
    taken by one at a time."""
    import threading

    from tripeaks_solver.analysis import peek_samples

    alone = [_opening_plans([n], CLASSIC)[0] for n in (1, 0)]
    peek_samples._judged.clear()
    together: dict[int, PeekPlan] = {}
    threads = [threading.Thread(
        target=lambda n=n: together.update({n: _opening_plans([n], CLASSIC)[0]}))
        for n in (1, 0)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [together[1], together[0]] == alone
