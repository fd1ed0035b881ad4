"""What ``batch --difficulty R`` and ``batch --player P`` add to a row: the columns, their
values for a deal (computed in the workers, next to the exact solve), and the checks a
row read back must pass.

Columns, after ``line``: ``seed`` (with either option), then ``difficulty``, ``rating``,
``difficulty_games`` (with ``--difficulty``), then ``player``, ``player_won``,
``player_score``, ``player_moves`` (with ``--player``). Several players share these
four columns: each holds one value per player joined with ``;``, in the order the
players were given (``player`` = ``greedy;random``, ``player_won`` = ``true;false``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..analysis.difficulty import RATINGS, difficulties, rating_of
from ..analysis.player_spec import MAX_SEED
from ..analysis.players import PerfectPlayer, make_player, play
from ..model.dealing import Deal
from ..model.game import Status
from ..model.position import Position
from ..model.rules import Rules
from ..model.scoring import Scheme
from ..solver.solve import Solution

SEED_COLUMNS = ("seed",)
DIFFICULTY_COLUMNS = ("difficulty", "rating", "difficulty_games")
PLAYER_COLUMNS = ("player", "player_won", "player_score", "player_moves")
MAX_GAMES = 10_000  # --difficulty R at most this
_FLOAT = re.compile(r"0(\.[0-9]{1,20})?|1(\.0)?")  # repr of a share of at most MAX_GAMES
_INT = re.compile(r"-?[0-9]{1,15}")
_SEED = re.compile(r"-?[0-9]{1,19}")  # every seed up to MAX_SEED


@dataclass(frozen=True)
class Extras:
    """The options of a run that add columns: ``games`` (R of --difficulty, None
    without), ``players`` (their labels, e.g. ``pimc:100``) and the ``seed``."""

    games: int | None = None
    players: tuple[str, ...] = ()
    seed: int = 0

    @property
    def active(self) -> bool:
        return self.games is not None or bool(self.players)

    def columns(self) -> tuple[str, ...]:
        """The columns these options add (none for a plain batch)."""
        return columns_of(self.games is not None, bool(self.players))


PLAIN = Extras()  # a batch without --difficulty or --player


def columns_of(difficulty: bool, players: bool) -> tuple[str, ...]:
    if not (difficulty or players):
        return ()
    return SEED_COLUMNS + DIFFICULTY_COLUMNS * difficulty + PLAYER_COLUMNS * players


def layout_of(columns: tuple[str, ...]) -> tuple[bool, bool]:
    """(difficulty, players) of the added ``columns``; ValueError for no known layout."""
    for d in (False, True):
        for p in (False, True):
            if columns_of(d, p) == columns:
                return d, p
    raise ValueError("unknown columns")


@dataclass(frozen=True)
class PlayCell:
    """One player's game of a deal."""

    player: str
    won: bool
    score: int
    moves: int


@dataclass(frozen=True)
class RowExtras:
    """The added values of one row (``difficulty`` None without --difficulty)."""

    seed: int
    games: int | None = None
    difficulty: float | None = None
    rating: str = ""
    plays: tuple[PlayCell, ...] = ()

    def settings(self) -> Extras:
        return Extras(self.games, tuple(p.player for p in self.plays), self.seed)

    def fields(self) -> list[str]:
        out = [str(self.seed)]
        if self.games is not None:
            out += [repr(self.difficulty), self.rating, str(self.games)]
        if self.plays:
            out += [";".join(p.player for p in self.plays),
                    ";".join("true" if p.won else "false" for p in self.plays),
                    ";".join(str(p.score) for p in self.plays),
                    ";".join(str(p.moves) for p in self.plays)]
        return out

    @classmethod
    def parse(cls, fields: list[str], difficulty: bool, players: bool) -> RowExtras:
        """The added fields of a CSV line (their layout known from the header)."""
        seed = _int(fields[0], "seed", _SEED)
        games = value = None
        rating = ""
        at = 1
        if difficulty:
            text, rating, count = fields[1:4]
            if not _FLOAT.fullmatch(text):
                raise ValueError(f"difficulty is {text[:20]!r}, expected a number 0 … 1")
            value = float(text)
            games = _int(count, "difficulty_games")
            at = 4
        plays: tuple[PlayCell, ...] = ()
        if players:
            names, won, score, moves = (f.split(";") for f in fields[at:at + 4])
            if not len(names) == len(won) == len(score) == len(moves):
                raise ValueError("the player columns hold different numbers of values")
            for w in won:
                if w not in ("true", "false"):
                    raise ValueError(f"player_won is {w!r}, expected true or false")
            plays = tuple(PlayCell(n, w == "true", _int(s, "player_score"),
                                   _int(m, "player_moves"))
                          for n, w, s, m in zip(names, won, score, moves, strict=True))
        return cls(seed, games, value, rating, plays)

    def check(self, winnable: bool) -> None:
        """Raise ValueError when the values contradict each other or the exact verdict."""
        if not 0 <= self.seed <= MAX_SEED:
            raise ValueError(f"seed is {self.seed}, outside 0 … {MAX_SEED}")
        if self.games is not None:
            value, games = self.difficulty, self.games
            if value is None:
                raise ValueError("difficulty_games without a difficulty")
            if not 1 <= games <= MAX_GAMES:
                raise ValueError(f"difficulty_games is {games}, outside 1 … {MAX_GAMES}")
            if not 0 <= value <= 1:
                raise ValueError(f"difficulty is {value}, outside 0 … 1")
            if not winnable and value != 1:
                raise ValueError(f"a lost deal has difficulty {value}, not 1")
            if not math.isclose(value * games, round(value * games), abs_tol=1e-6):
                raise ValueError(f"difficulty {value} is no share of {games} games")
            if self.rating not in RATINGS or self.rating != rating_of(value, winnable):
                raise ValueError(f"rating {self.rating!r} is not that of difficulty {value}"
                                 f" on a {'won' if winnable else 'lost'} deal")
        names = [p.player for p in self.plays]
        if len(set(names)) != len(names):
            raise ValueError("a player is named twice")
        for p in self.plays:
            try:
                label = make_player(p.player).name
            except ValueError:
                label = None
            if label != p.player:
                raise ValueError(f"unknown player {p.player!r}")
            if p.won and not winnable:
                raise ValueError(f"player {p.player} won a deal the exact solver calls lost")
            if p.player == "perfect" and p.won != winnable:
                raise ValueError("player perfect lost a winnable deal")
            if p.moves < 0:
                raise ValueError(f"player_moves is {p.moves}, a count")


def _int(text: str, name: str, syntax: re.Pattern = _INT) -> int:
    if not syntax.fullmatch(text):
        raise ValueError(f"{name} is {text[:20]!r}, expected a whole number")
    return int(text)


def _perfect(deal: Deal, rules: Rules, sol: Solution | None) -> PlayCell:
    # The batch's own optimal app-score solve is the line play() would find: replay it
    # rather than solve again (under another scheme or without optimum, play solves).
    if sol is None or sol.best_score is None or sol.scheme != Scheme.APP:
        result = play(deal, "perfect", rules)
        return PlayCell("perfect", result.won, result.score, len(result.moves))
    game = Position(deal, rules).game()
    for move in sol.moves:
        game.play(move)
    return PlayCell("perfect", game.status is Status.WON, int(game.score_under(Scheme.APP)),
                    len(sol.moves))


def compute_extras(extras: Extras, deals: list[tuple[int, Deal, bool]], rules: Rules,
                   winnable: list[bool], solutions: list[Solution] | None = None
                   ) -> list[RowExtras]:
    """The added values for ``deals`` (number, deal, typed in) under ``rules``, given
    the exact verdicts (and the solutions, which ``perfect`` replays). Deal n's games
    are seeded from seed + n (its place in the file for a deal typed in), whatever the
    chunk holds."""
    n = len(deals)
    diffs: list = [None] * n
    if extras.games is not None:
        numbered = [i for i, (_, _, typed) in enumerate(deals) if not typed]
        found = difficulties([deals[i][1] for i in numbered], rules, extras.games,
                             extras.seed, [winnable[i] for i in numbered]) if numbered else []
        for i, d in zip(numbered, found, strict=True):
            diffs[i] = d
        for i, (number, deal, typed) in enumerate(deals):
            if typed:  # no deal number: the place in the file picks the games
                diffs[i] = difficulties([deal], rules, extras.games, extras.seed + number,
                                        [winnable[i]])[0]
    who = [make_player(p) for p in extras.players]
    out = []
    for i, (number, deal, _) in enumerate(deals):
        plays = []
        for player in who:
            if isinstance(player, PerfectPlayer):
                plays.append(_perfect(deal, rules, None if solutions is None else solutions[i]))
                continue
            result = play(deal, player, rules, seed=extras.seed + number)
            plays.append(PlayCell(player.name, result.won, result.score, len(result.moves)))
        d = diffs[i]
        out.append(RowExtras(extras.seed, extras.games, None if d is None else d.value,
                             "" if d is None else d.rating, tuple(plays)))
    return out


__all__ = ["DIFFICULTY_COLUMNS", "MAX_GAMES", "PLAIN", "PLAYER_COLUMNS", "Extras", "PlayCell",
           "RowExtras", "columns_of", "compute_extras", "layout_of"]
