"""One row of the batch CSV: the answers for one deal under one rule set, and the
checks that a row read back from a file could have been written by a run."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import InputError
from ..model.cards import DECK_SIZE
from ..model.codes import DEAL_COUNT, GameCode
from ..model.dealing import Deal
from ..model.geometry import PEAK_COUNT, TABLEAU_SIZE
from ..model.pysol import PysolGame
from ..model.rules import RULE_SETS, VARIANT_OPTIONS
from ..model.scoring import (
    ORIGINAL_BONUS_AFTER,
    ORIGINAL_DRAW_COST,
    PEAK_BONUS,
    PYSOL_MAX,
    PYSOL_START,
    RUN_SCHEMES,
    SCHEMES,
    START_SCORE,
    Scheme,
    run_points,
    win_score,
)
from ..solver.solve import Solution
from .extras import Extras, RowExtras, layout_of

CSV_HEADER = ("code", "deal", "rules", "variant", "scoring", "winnable", "min_draws",
              "best_score", "max_removed", "states", "seconds", "line")
PYSOL_COLUMNS = ("pysol",)
"""After ``line``: only in a file of ``batch pysol:START pysol:STOP``, the PySolFC game
number of each row as PySolFC shows it (``deal`` is then its place in the range)."""
MUST_CLEAR_COLUMNS = ("must_clear",)
"""After ``line``, before the columns of --difficulty and --player: only in a file of
``batch --must-clear``, where every row holds ``true``."""
ANSWER_FIELDS = ("winnable", "min_draws", "best_score", "max_removed")

# The type of each column's value in Python (Row.as_dict): an empty field is None in the
# whole-number columns; the other columns are text (the player columns hold one value per
# player, joined with ";").
INT_COLUMNS = frozenset(("deal", "min_draws", "best_score", "max_removed", "states", "seed",
                         "difficulty_games"))
FLOAT_COLUMNS = frozenset(("seconds", "difficulty"))
BOOL_COLUMNS = frozenset(("winnable", "must_clear"))


def column_value(column: str, text: str) -> int | float | bool | str | None:
    """A CSV field of ``column`` as a Python value: whole numbers as int (None when
    empty), ``seconds`` and ``difficulty`` as float, ``true``/``false`` as bool, the
    rest as the text."""
    if column in INT_COLUMNS:
        return None if text == "" else int(text)
    if column in FLOAT_COLUMNS:
        return float(text)
    if column in BOOL_COLUMNS:
        return text == "true"
    return text


# Strict number syntax: int() would also take " 5", "5_0" and "+5", float() "nan" and "inf".
_INT = re.compile(r"-?[0-9]{1,15}")
_SECONDS = re.compile(r"[0-9]{1,12}(\.[0-9]{0,12})?")


@dataclass(frozen=True)
class Row:
    """The answers for one deal under one rule set: one line of the batch CSV.

    ``min_draws`` is None on a lost deal, under the original scoring and, with
    ``best_score``, when the run did not ask for optimal scores. ``max_removed`` is None
    when the solver did not establish it (a lost deal searched without ``optimal``, or
    under the original scoring). None is an empty CSV field. ``variant`` names the
    non-default rule options (``Rules.variant``); ``best_score`` is the optimum of the
    ``scoring`` scheme. A deal typed in (``batch --layout-file``) has no code: its
    ``line`` holds its cards and ``deal`` its place in the file (0 for the first layout);
    a PySolFC game (``batch pysol:…``) too, with ``pysol`` its number as PySolFC shows it
    and ``deal`` its place in the range.
    With ``must_clear`` (``batch --must-clear``) ``best_score`` is that of the best win,
    and a lost deal has no ``best_score`` nor ``max_removed``.
    """

    deal: int
    rules: str
    winnable: bool
    min_draws: int | None
    best_score: int | None
    max_removed: int | None
    states: int
    seconds: float
    variant: str = ""
    scoring: Scheme = Scheme.APP
    line: str = ""
    extra: RowExtras | None = None  # the columns of --difficulty and --player (extras.py)
    must_clear: bool = False
    pysol: str = ""  # the PySolFC game number (batch pysol:…), as PySolFC shows it

    @classmethod
    def from_solution(cls, number: int, sol: Solution, typed: bool = False,
                      extra: RowExtras | None = None) -> Row:
        return cls(number, sol.rules.name, sol.winnable, sol.min_draws, sol.best_score,
                   sol.max_removed, sol.states, sol.seconds, sol.rules.variant, sol.scheme,
                   sol.deal.line() if typed else "", extra, sol.must_clear,
                   sol.deal.pysol or "")

    @property
    def extras(self) -> Extras:
        """The --difficulty and --player options the row was made with."""
        return Extras() if self.extra is None else self.extra.settings()

    @property
    def code(self) -> str:
        if self.line:
            return ""
        return str(GameCode(self.deal, self.rules, "joker" in self.variant.split("+")))

    @property
    def key(self) -> tuple[int, str]:
        return self.deal, self.rules

    @property
    def optimal(self) -> bool:
        """Was this row solved for the optimum (a best score is always known then, but
        under must_clear on a lost deal)?"""
        return self.best_score is not None or self.must_clear

    def answer(self) -> tuple:
        """The columns that depend only on the deal and the rules."""
        return tuple(getattr(self, name) for name in ANSWER_FIELDS)

    def csv_fields(self) -> list[str]:
        def opt(v: int | None) -> str:
            return "" if v is None else str(v)

        return [self.code, str(self.deal), self.rules, self.variant, str(self.scoring),
                "true" if self.winnable else "false", opt(self.min_draws),
                opt(self.best_score), opt(self.max_removed), str(self.states),
                f"{self.seconds:.6f}", self.line] + [self.pysol] * bool(self.pysol) + [
                    "true"] * self.must_clear + (
                    [] if self.extra is None else self.extra.fields())

    def columns(self) -> tuple[str, ...]:
        """The CSV columns of this row: the header's, and those its options add."""
        return (CSV_HEADER + PYSOL_COLUMNS * bool(self.pysol)
                + MUST_CLEAR_COLUMNS * self.must_clear + self.extras.columns())

    def as_dict(self) -> dict[str, int | float | bool | str | None]:
        """The row as ``{column: value}``: its CSV fields, each read back by
        :func:`column_value` (so equal to the CSV file's row read the same way)."""
        return {column: column_value(column, text) for column, text
                in zip(self.columns(), self.csv_fields(), strict=True)}

    def csv_line(self) -> str:
        return ",".join(self.csv_fields()) + "\n"  # no field ever needs quoting

    @classmethod
    def from_csv_fields(cls, fields: list[str], added: tuple[str, ...] = ()) -> Row:
        """Read a CSV line back (``added``: the header's columns after ``line``:
        PYSOL_COLUMNS, MUST_CLEAR_COLUMNS, then those of --difficulty and --player);
        ValueError says what is wrong with it, including answers that no run can
        produce (see :func:`check_answers`)."""
        width = len(CSV_HEADER) + len(added)
        if len(fields) != width:
            raise ValueError(f"{len(fields)} fields, expected {width}")
        (code, deal, rules, variant, scoring, winnable, min_draws, best_score, max_removed,
         states, seconds, line) = fields[:len(CSV_HEADER)]
        rest = fields[len(CSV_HEADER):]
        pysol = ""
        if added[:1] == PYSOL_COLUMNS:
            pysol = rest[0]
            if not pysol or PysolGame.parse(pysol).shown != pysol:
                raise ValueError(f"pysol is {pysol[:24]!r}, not a PySolFC game number as "
                                 "PySolFC shows it")
            added, rest = added[1:], rest[1:]
        must_clear = added[:1] == MUST_CLEAR_COLUMNS
        if must_clear:
            if rest[0] != "true":
                raise ValueError(f"must_clear is {rest[0][:20]!r}, expected true")
            added, rest = added[1:], rest[1:]
        extra = None
        if added:
            extra = RowExtras.parse(rest, *layout_of(added))
        if rules not in RULE_SETS:
            raise ValueError(f"unknown rules {rules!r}")
        if variant and not set(variant.split("+")) <= set(VARIANT_OPTIONS):
            raise ValueError(f"unknown variant {variant!r}")
        if scoring not in SCHEMES:
            raise ValueError(f"unknown scoring {scoring!r}")
        if winnable not in ("true", "false"):
            raise ValueError(f"winnable is {winnable!r}, expected true or false")
        if not _SECONDS.fullmatch(seconds):
            raise ValueError(f"seconds is {seconds!r}, expected a number of seconds")
        row = cls(_int(deal, "deal"), rules, winnable == "true",
                  _int_or_none(min_draws, "min_draws"), _int_or_none(best_score, "best_score"),
                  _int_or_none(max_removed, "max_removed"), _int(states, "states"),
                  float(seconds), variant, Scheme(scoring), line, extra, must_clear, pysol)
        if not 0 <= row.deal < DEAL_COUNT:
            raise ValueError(f"deal {row.deal} is outside 0 … {DEAL_COUNT - 1}")
        if code != row.code:
            raise ValueError(f"code {code!r} does not name deal {row.deal} under {rules} rules")
        if line:
            _check_line(line)
        if pysol and line != Deal.from_pysol(pysol).line():
            raise ValueError(f"line is not the deal of PySolFC game {pysol}")
        if pysol and not line:
            raise ValueError(f"PySolFC game {pysol} has no line")
        check_answers(row)
        if extra is not None:
            extra.check(row.winnable)
        return row


def _check_line(line: str) -> None:
    """A deal typed in is written as ``deal --format line`` writes one: its cards in
    machine tokens, one space apart. ValueError otherwise."""
    try:
        deal = Deal.from_cards(line.split(" "))
    except InputError as exc:
        raise ValueError(f"line is not a deal ({exc})") from None
    if deal.line() != line:
        raise ValueError(f"line is not written as a run writes a deal ({line[:20]!r}…)")


def _int(text: str, name: str) -> int:
    if not _INT.fullmatch(text):
        raise ValueError(f"{name} is {text[:20]!r}, expected a whole number")
    return int(text)


def _int_or_none(text: str, name: str) -> int | None:
    """An empty field: None."""
    return _int(text, name) if text else None


def stock_size(variant: str) -> int:
    """Cards in the stock under ``variant``: the most draws a game can make."""
    options = set(variant.split("+"))
    return DECK_SIZE + ("joker" in options) - TABLEAU_SIZE - ("empty-waste" not in options)


def check_answers(row: Row) -> None:
    """Raise ValueError when the answers of ``row`` contradict each other or the rules of
    scoring (scoring.py): what the solver writes always passes."""
    if row.states < 0:
        raise ValueError(f"states is {row.states}, a count")
    most_draws = stock_size(row.variant)
    won, optimal, scheme = row.winnable, row.best_score is not None, row.scoring
    if row.must_clear and won != optimal:
        raise ValueError("a must_clear row has a best_score exactly when the deal is won")
    if row.must_clear and not won and row.max_removed is not None:
        raise ValueError("a must_clear row of a lost deal has a max_removed")
    draws_known = won and optimal and scheme not in RUN_SCHEMES
    if (row.min_draws is not None) != draws_known:
        raise ValueError("min_draws is given on a lost deal, without a best score or under "
                         "the original scoring" if row.min_draws is not None else
                         "a won deal with a best score has no min_draws")
    if row.min_draws is not None and not 0 <= row.min_draws <= most_draws:
        raise ValueError(f"min_draws {row.min_draws} is outside 0 … {most_draws}, the stock")
    if won and row.max_removed != TABLEAU_SIZE:
        raise ValueError(f"a won deal has max_removed {row.max_removed}, not {TABLEAU_SIZE}")
    if not won:
        if row.max_removed is not None and not 0 <= row.max_removed < TABLEAU_SIZE:
            raise ValueError(f"a lost deal has max_removed {row.max_removed}, outside "
                             f"0 … {TABLEAU_SIZE - 1}")
        if optimal and scheme not in RUN_SCHEMES and row.max_removed is None:
            raise ValueError("a lost deal solved for the optimum has no max_removed")
    best = row.best_score
    if best is None:  # not optimal
        return
    if scheme == Scheme.APP:
        if won and row.min_draws is not None and best != win_score(row.min_draws):
            raise ValueError(f"best_score {best} of a win in {row.min_draws} draws is not "
                             f"{win_score(row.min_draws)}")
        # A lost game clears at most all peaks but one: the peaks hold every card.
        top = START_SCORE + PEAK_BONUS * (PEAK_COUNT - 1)
        if not won and not 0 <= best <= top:
            raise ValueError(f"best_score {best} of a lost deal is outside 0 … {top}")
    elif scheme == Scheme.CARDS_LEFT:
        # a lost deal's max_removed is known (checked above)
        left = 0 if won or row.max_removed is None else TABLEAU_SIZE - row.max_removed
        if best != left:
            raise ValueError(f"best_score {best} is not the {left} cards left "
                             f"({TABLEAU_SIZE} − max_removed)")
    elif scheme == Scheme.PYSOL:
        if not PYSOL_START <= best <= PYSOL_MAX:
            raise ValueError(f"best_score {best} is outside {PYSOL_START} … {PYSOL_MAX}, "
                             "the PySolFC scores")
    else:
        lo = -ORIGINAL_DRAW_COST * most_draws
        hi = run_points(TABLEAU_SIZE) + ORIGINAL_BONUS_AFTER[PEAK_COUNT]
        if not lo <= best <= hi:
            raise ValueError(f"best_score {best} is outside {lo} … {hi}, the original scores")


__all__ = ["ANSWER_FIELDS", "CSV_HEADER", "MUST_CLEAR_COLUMNS", "PYSOL_COLUMNS", "Row", "check_answers",
           "column_value", "stock_size"]
