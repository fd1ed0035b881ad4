"""Player names as typed (``greedy``, ``fair:200``), read and checked without loading
the players themselves (and so the kernels): the command line completes and checks
them at every Tab and every typo."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError, did_you_mean
from ..limits import PLAYER_SAMPLES

PLAYER_NAMES = ("random", "greedy", "careful", "pimc", "rollout", "fair", "perfect")
SAMPLED = ("pimc", "rollout", "fair")  # the players that take ``:N`` samples a decision
DEFAULT_SAMPLES = 100
MAX_SEED = (1 << 62) - 1
"""The largest seed of a player's game (``play --seed``, and ``batch``'s seed + n)."""


@dataclass(frozen=True)
class PlayerSpec:
    """A player's name and, for the sampling players, its samples a decision."""

    name: str
    samples: int = DEFAULT_SAMPLES

    @property
    def label(self) -> str:
        """``greedy``, ``fair:100``: the player's name in output, rows and summaries."""
        return f"{self.name}:{self.samples}" if self.name in SAMPLED else self.name


def parse_player(spec: str) -> PlayerSpec:
    """``random``, ``greedy``, ``careful``, ``pimc[:N]``, ``rollout[:N]``, ``fair[:N]``
    or ``perfect`` (N samples a decision, default 100), any case; InputError else."""
    name, colon, count = spec.strip().lower().partition(":")
    if name not in PLAYER_NAMES:
        hint = did_you_mean(name, PLAYER_NAMES) or f" (expected one of {', '.join(PLAYER_NAMES)})"
        raise InputError(f"unknown player {spec!r}{hint}")
    if not colon:
        return PlayerSpec(name)
    if name not in SAMPLED:
        raise InputError(f"player {name} takes no sample count")
    # ASCII digits only: str.isdigit() also takes "１０" and "²".
    if not (count.isascii() and count.isdigit()) or not 1 <= int(count) <= PLAYER_SAMPLES:
        raise InputError(f"bad sample count in {spec!r} (expected 1 … {PLAYER_SAMPLES})")
    return PlayerSpec(name, int(count))
