"""The ``tripeaks-solve`` command group; each command lives in a module of its own."""

from __future__ import annotations

import click


class _DefaultToSolve(click.Group):
    """``tripeaks-solve CODE …`` means ``tripeaks-solve solve CODE …``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args:
            click.echo(ctx.get_help())
            ctx.exit(0)
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h", "--version"):
            args = ["solve", *args]
        return super().parse_args(ctx, args)


@click.group(cls=_DefaultToSolve, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tripeaks-solver")
def cli() -> None:
    """Exact TriPeaks solitaire answers.

    \b
    tripeaks-solve TP1-E-AAAAAAD           solve a deal under Easy and Classic rules
    tripeaks-solve --layout "9c Kd ?? ..." solve a deal typed in (?? = unseen card)
    tripeaks-solve deal TP1-E-AAAAAAD      show the layout
    tripeaks-solve replay CODE MOVE...     check and score a recorded game
    tripeaks-solve batch 0 10000 --csv F   win rates and best scores of many deals

    Every command takes the rule variants (--empty-waste, --joker, --draw-when-stuck,
    --open, --wrap/--no-wrap) and, where scores matter, --scoring.
    """
