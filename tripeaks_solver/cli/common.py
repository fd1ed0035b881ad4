"""What the commands share: exit codes, the rule options, codes and layouts as typed."""

from __future__ import annotations

from pathlib import Path

import click

from ..codes import GameCode
from ..errors import InputError
from ..layout import Layout, parse_layout_file
from ..render import peak_name
from ..rules import Rules, select_rules
from ..scoring import SCHEMES

EXIT_ILLEGAL = 1
EXIT_INPUT = 2


def parse_code(text: str) -> GameCode:
    try:
        return GameCode.parse(text)
    except InputError as exc:
        raise click.UsageError(str(exc)) from None


def rule_options(with_scoring: bool = True):
    """The variant options (and --scoring), as one decorator for every command."""

    def decorate(f):
        opts = [
            click.option("--empty-waste", is_flag=True,
                         help="The waste starts empty and takes any card first; the card "
                              "that would have started it heads the stock (24 cards)."),
            click.option("--joker", is_flag=True,
                         help="Deal 53 cards with one joker, which goes on any card and "
                              "takes any card (codes with a J flag, TP1-EJ-…, imply it)."),
            click.option("--draw-when-stuck", is_flag=True,
                         help="Draw only when no card can be removed (the traditional rule)."),
            click.option("--open", "open_peaks", is_flag=True,
                         help="Every peak card face up from the start (changes what is "
                              "shown, not what can be won)."),
            click.option("--wrap/--no-wrap", default=None,
                         help="K and A adjacent (Easy) or not (Classic), overriding the "
                              "rules letter and --rules."),
        ]
        if with_scoring:
            opts.append(click.option(
                "--scoring", type=click.Choice(SCHEMES), default="app", show_default=True,
                help="app: 500, −1 a move, +100 a peak; original: runs score 1, 2, 3 …, "
                     "−5 a draw, 15/15/30 for peaks; cards-left: fewest cards left, then "
                     "fewest moves."))
        for opt in reversed(opts):
            f = opt(f)
        return f

    return decorate


def pick_rules(choice: str, code_rules: str | None, opts: dict,
               joker: bool = False) -> tuple[Rules, ...]:
    """The rule sets a command runs under, from --rules (or the code's letter) and the
    variant options of its command line."""
    return select_rules(choice, code_rules, wrap=opts["wrap"],
                        empty_waste=opts["empty_waste"], joker=opts["joker"] or joker,
                        draw_when_stuck=opts["draw_when_stuck"], open=opts["open_peaks"])


def peak_mark(cleared: int, position: int) -> str:
    return f"  peak cleared ({peak_name(position)})" if cleared else ""


def read_layouts(layouts: tuple[str, ...], layout_file: Path | None) -> list[tuple[str, Layout]]:
    out = []
    for i, text in enumerate(layouts, 1):
        try:
            out.append((f"layout {i}", Layout.parse(text)))
        except InputError as exc:
            raise click.UsageError(f"--layout {i}: {exc}") from None
    if layout_file is not None:
        try:
            text = layout_file.read_text(encoding="utf-8-sig")  # a BOM from Windows editors
        except (OSError, UnicodeDecodeError) as exc:
            raise click.UsageError(f"cannot read {layout_file}: {exc}") from None
        try:
            out += [(f"{layout_file}:{n}", lay) for n, lay in parse_layout_file(text)]
        except InputError as exc:
            raise click.UsageError(f"{layout_file}: {exc}") from None
    return out


def complete_layouts(path: Path) -> tuple[tuple[int, ...], ...]:
    """The deals of a layout file for ``batch``: every card must be known."""
    layouts = read_layouts((), path)
    if not layouts:
        raise click.UsageError(f"{path} holds no layout")
    for name, lay in layouts:
        if lay.unknown_places:
            raise click.UsageError(f"{name}: batch needs every card known; for layouts with "
                                   "?? use tripeaks-solve --layout-file (win probability)")
    return tuple(tuple(int(c) for c in lay.places) for _, lay in layouts)
