"""The ``tripeaks-solve`` command group; each command lives in a module of its own."""

from __future__ import annotations

import click

from ..errors import did_you_mean

GROUP_OPTIONS = ("--help", "-h", "--version")
HELP_WORD = "help"  # `help CMD` is `CMD --help`; `help` alone the group's help


def code_shaped(word: str) -> bool:
    """Whether a first argument that names no command is meant for ``solve``: an option,
    ``-`` (codes on standard input), a deal number, or something like a game code
    (``TP1-E-…``, or any word with a hyphen: a mistyped code is then reported as a
    code)."""
    word = word.strip()
    return (word.startswith("-") or "-" in word or word[:2].upper() == "TP"
            or (word.isdigit() and word.isascii()))


class _DefaultToSolve(click.Group):
    """``tripeaks-solve CODE …`` means ``tripeaks-solve solve CODE …``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if ctx.resilient_parsing:  # shell completion: complete, never print nor exit
            if args == [HELP_WORD]:  # `help <Tab>`: the command names
                args = []
            if args and args[0] not in self.commands and args[0] not in GROUP_OPTIONS:
                args = ["solve", *args]
            return super().parse_args(ctx, args)
        if not args:
            raise click.exceptions.NoArgsIsHelpError(ctx)
        if args[0] == HELP_WORD:
            args = self._help_args(ctx, args[1:])
        first = args[0]
        if first not in self.commands and first not in GROUP_OPTIONS:
            if not code_shaped(first):
                raise click.UsageError(self._unknown(first), ctx)
            args = ["solve", *args]
        return super().parse_args(ctx, args)

    def _help_args(self, ctx: click.Context, words: list[str]) -> list[str]:
        """``help`` alone is ``--help``; ``help CMD`` is ``CMD --help``."""
        if not words or words in ([HELP_WORD], ["--help"], ["-h"]):
            return ["--help"]
        if len(words) > 1:
            raise click.UsageError(f"{HELP_WORD} takes one command name, got {len(words)} "
                                   "words", ctx)
        if words[0] not in self.commands:
            raise click.UsageError(self._unknown(words[0]), ctx)
        return [words[0], "--help"]

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list:
        """Commands, and in first place the options of ``solve`` too, as it is the default."""
        items = super().shell_complete(ctx, incomplete)
        if incomplete.startswith("-") and "solve" in self.commands:
            seen = {item.value for item in items}
            items += [item for item in self.commands["solve"].shell_complete(ctx, incomplete)
                      if item.value not in seen]
        return items

    def _unknown(self, word: str) -> str:
        names = sorted(self.commands)
        hint = did_you_mean(word, names)
        if hint:
            return f"no command {word!r}{hint}"
        return (f"no command {word!r} (commands: {', '.join(names)}; or a game code such as "
                "TP1-E-AAAAAAD)")


@click.group(cls=_DefaultToSolve, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tripeaks-solver")
def cli() -> None:
    """Exact TriPeaks solitaire answers.

    \b
    tripeaks-solve coach                   play along with a game in an app, advised
    tripeaks-solve coach --peek            the same, looking at every card first (undo)
    tripeaks-solve peek CODE               the taps that show every card, simulated
    tripeaks-solve TP1-E-AAAAAAD           solve a deal under Easy and Classic rules
    tripeaks-solve - < codes.txt           solve the codes read from standard input
    tripeaks-solve --layout "9c Kd ?? ..." solve a deal typed in (?? = unseen card)
    tripeaks-solve pysol:123456            solve PySolFC's Three Peaks game 123456
    tripeaks-solve deal TP1-E-AAAAAAD      show the layout
    tripeaks-solve replay CODE MOVE...     check and score a recorded game
    tripeaks-solve batch 0 10000 --csv F   win rates and best scores of many deals
    tripeaks-solve report deals.csv        summary and plot of a batch CSV
    tripeaks-solve hint CODE MOVE...       every move of a game in progress, valued
    tripeaks-solve analyze CODE MOVE...    where a played game lost points or the win
    tripeaks-solve play CODE               watch a player (--player) play to the end
    tripeaks-solve help COMMAND            the help of a command (COMMAND --help)

    CODE is a game code (TP1-E-AAAAAAD), a deal number, or a PySolFC game number
    (pysol:123456, the cards PySolFC deals for it). Every command that plays a deal
    takes the rule options (--rules, --empty-waste, --joker, --draw-when-stuck, --open,
    --wrap/--no-wrap), and those that score it take --scoring.
    """
