"""The ``tripeaks-solve`` command: parse arguments, print, exit codes. No game logic here.

Exit codes: 0 done (whatever the verdict), 1 an illegal move in a replayed record,
2 malformed input (one line on stderr, never a traceback).
"""

from __future__ import annotations

import json
import sys
import textwrap
import time
from pathlib import Path

import click

from .codes import GameCode
from .dealing import Deal
from .errors import IllegalMoveError, InputError
from .game import SCHEMES, Game
from .layout import Layout, parse_layout_file
from .messages import LANGUAGES, language_from_env
from .probability import WinShare, win_probability
from .render import deal_picture, layout_picture, peak_name
from .rules import Rules
from .solver import Solution, solve, warm_up

EXIT_ILLEGAL = 1
EXIT_INPUT = 2


class _DefaultToSolve(click.Group):
    """``tripeaks-solve CODE …`` means ``tripeaks-solve solve CODE …``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args:
            click.echo(ctx.get_help())
            ctx.exit(0)
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h", "--version"):
            args = ["solve", *args]
        return super().parse_args(ctx, args)


def _code(text: str) -> GameCode:
    try:
        return GameCode.parse(text)
    except InputError as exc:
        raise click.UsageError(str(exc)) from None


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


# --- rule options shared by the commands ----------------------------------------------

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


def _with_options(rules: Rules, opts: dict, joker: bool = False) -> Rules:
    """``rules`` with the variant options of a command line applied."""
    return rules.with_options(
        empty_waste=opts["empty_waste"],
        joker=opts["joker"] or joker,
        draw_when_stuck=opts["draw_when_stuck"],
        open=opts["open_peaks"],
    )


def _pick_rules(choice: str, code_rules: str | None, opts: dict, joker: bool = False) -> list[Rules]:
    """The rule sets a command runs under: --rules (or the code's letter), then options."""
    if opts["wrap"] is not None:
        names = ["easy" if opts["wrap"] else "classic"]
    elif choice == "both":
        names = ["easy", "classic"]
    elif choice == "code":
        names = [code_rules or "easy"]
    else:
        names = [choice]
    return [_with_options(Rules.named(n), opts, joker) for n in names]


def _peak_mark(cleared: int, position: int) -> str:
    return f"  peak cleared ({peak_name(position)})" if cleared else ""


# --- deal -------------------------------------------------------------------------
def _deal_json(code: str, number: int, rules: Rules, deal: Deal) -> dict:
    waste, stock = deal.opening(rules)
    return {
        "code": code,
        "deal": number,
        "rules": rules.name,
        "variant": rules.variant,
        "tableau": [c.token for c in deal.tableau],
        "waste": None if waste is None else waste.token,
        "stock": [c.token for c in stock],
    }


@cli.command("deal")
@click.argument("code")
@click.option("--format", "fmt", type=click.Choice(["text", "line", "json"]), default="text",
              show_default=True,
              help="text: the peaks for people; line: 52 machine tokens (positions 0–27, "
                   "waste, stock in draw order); json: an object with tableau, waste, stock.")
@click.option("--reveal", is_flag=True, help="Show face-down cards and the stock (text format).")
@rule_options(with_scoring=False)
def deal_command(code: str, fmt: str, reveal: bool, **opts) -> None:
    """Show the layout of a deal: the peaks, the waste and the stock.

    CODE is a game code such as TP1-E-AAAAAAB.
    """
    gc = _code(code)
    rules = _pick_rules("code", gc.rules, opts, gc.joker)[0]
    deal = Deal.from_number(gc.number, rules.joker)
    shown = str(GameCode(gc.number, rules.name, rules.joker))
    if fmt == "line":
        click.echo(deal.line())
    elif fmt == "json":
        click.echo(json.dumps(_deal_json(shown, gc.number, rules, deal), ensure_ascii=False))
    else:
        click.echo(f"{shown}  (deal {gc.number}, {rules} rules)")
        click.echo(deal_picture(deal, rules, reveal=reveal))


# --- replay -------------------------------------------------------------------------
@cli.command("replay")
@click.argument("code")
@click.argument("moves", nargs=-1)
@click.option("--lang", type=click.Choice(LANGUAGES), default=None,
              help="Language of the app's messages (default: from LANG, else English).")
@click.option("--json", "as_json", is_flag=True, help="Print the replay as JSON.")
@rule_options()
def replay_command(code: str, moves: tuple[str, ...], lang: str | None, as_json: bool,
                   scoring: str, **opts) -> None:
    """Play a recorded game on CODE and score it.

    MOVES are cards to remove (Kc or K♣), draw (d) and undo (u); several may share
    one argument separated by spaces. An illegal move stops the replay (exit code 1).
    """
    gc = _code(code)
    lang = lang or language_from_env()
    rules = _pick_rules("code", gc.rules, opts, gc.joker)[0]
    game = Game(Deal.from_number(gc.number, rules.joker), rules, lang)
    tokens = [t for arg in moves for t in arg.replace(",", " ").split()]
    rows = []

    def scored() -> int | list[int]:
        value = game.score_under(scoring)
        return list(value) if isinstance(value, tuple) else value

    for i, token in enumerate(tokens, 1):
        try:
            action = game.play(token)
        except InputError as exc:
            raise click.UsageError(f"move {i}: {exc}") from None
        except IllegalMoveError as exc:
            if as_json:
                click.echo(json.dumps({"code": str(gc), "moves": rows, "error": str(exc),
                                       "error_move": i}, ensure_ascii=False))
            click.echo(f"move {i} ({token}): {exc}", err=True)
            sys.exit(EXIT_ILLEGAL)
        word = token.strip().lower()
        kind = "undo" if word in ("undo", "u") else "draw" if action.is_draw else "remove"
        rows.append({"move": i, "action": kind, "card": action.card.token, "score": scored(),
                     "peaks_cleared": action.peaks_cleared if kind == "remove" else 0})
        if not as_json:
            what = {"remove": action.card.pretty, "draw": f"draw {action.card.pretty}",
                    "undo": f"undo {action.card.pretty}"}[kind]
            mark = _peak_mark(action.peaks_cleared, action.position) if kind == "remove" else ""
            click.echo(f"{i:3d}. {what:<10} {_score_text(scoring, game)}{mark}")
    result = {"status": game.status.value, "scoring": scoring, "score": scored(),
              "moves": game.moves, "cards_left": game.cards_left, "stock_left": game.stock_left}
    if as_json:
        click.echo(json.dumps({"code": str(gc), "rules": rules.name, "variant": rules.variant,
                               "steps": rows, **result}, ensure_ascii=False))
    else:
        scored_text = "" if scoring == "cards-left" else f"{_score_text(scoring, game)}, "
        click.echo(f"{game.status.value.capitalize()}: {scored_text}{game.moves} moves, "
                   f"{game.cards_left} cards left in the peaks, {game.stock_left} in the stock")


def _score_text(scoring: str, game: Game) -> str:
    if scoring == "cards-left":
        return f"cards left {game.cards_left}"
    prefix = "original score" if scoring == "original" else "score"
    return f"{prefix} {game.score_under(scoring)}"


# --- solve --------------------------------------------------------------------------
RULE_CHOICES = ("code", "easy", "classic", "both")


def _verdict(sol: Solution) -> str:
    if sol.scheme == "cards-left" and sol.best_score is not None:
        left = f"{sol.best_score} cards left in {sol.best_moves} moves"
        return f"winnable, {left}" if sol.winnable else f"not winnable, at best {left}"
    if sol.scheme == "original" and sol.best_score is not None:
        word = "winnable" if sol.winnable else "not winnable"
        return f"{word}, best original score {sol.best_score}"
    if sol.winnable:
        if sol.min_draws is None:
            return "winnable"
        draws = "draw" if sol.min_draws == 1 else "draws"
        return f"winnable, best score {sol.best_score} ({sol.min_draws} {draws})"
    if sol.max_removed is None:
        return "not winnable"
    text = f"not winnable, at most {sol.max_removed} of 28 cards"
    return text if sol.best_score is None else f"{text}, best score {sol.best_score}"


def solution_json(code: str | None, number: int | None, sol: Solution, with_line: bool) -> dict:
    row = {"code": code, "deal": number, **sol.summary(), "variant": sol.rules.variant,
           "scoring": sol.scheme}
    if sol.scheme == "cards-left":
        row["best_moves"] = sol.best_moves
    if with_line:
        row["solution"] = sol.tokens
    return row


def _print_line(sol: Solution) -> None:
    if not sol.moves:
        return
    goal = "win" if sol.winnable and sol.scheme != "original" else "best end"
    click.echo(f"\n{sol.rules} line to the {goal}, {len(sol.moves)} moves:")
    label = {"app": "score", "original": "original score", "cards-left": "cards left"}[sol.scheme]
    for step in sol.steps():
        what = f"draw {step.card.pretty}" if step.is_draw else step.card.pretty
        mark = _peak_mark(step.peaks_cleared, sol.deal.position_of(step.card))
        click.echo(f"{step.number:4d}. {what:<10} {label} {step.score}{mark}")


def _share_text(share: WinShare) -> str:
    pct = 100 * share.share
    if share.exact:
        return f"winnable in {share.wins:,} of {share.total:,} completions ({pct:.1f}%, exact)"
    low, high = share.interval
    text = (f"winnable in {share.wins:,} of {share.total:,} sampled completions ({pct:.1f}%, "
            f"95% interval {100 * low:.1f}–{100 * high:.1f}%)")
    if share.wins == share.total:
        text += ": winnable in every sampled completion"
    elif share.wins == 0:
        text += ": winnable in none"
    return text


def _read_layouts(layouts: tuple[str, ...], layout_file: Path | None) -> list[tuple[str, Layout]]:
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


def _complete_layouts(path: Path) -> tuple[tuple[int, ...], ...]:
    """The deals of a layout file for ``batch``: every card must be known."""
    layouts = _read_layouts((), path)
    if not layouts:
        raise click.UsageError(f"{path} holds no layout")
    for name, lay in layouts:
        if lay.unknown_places:
            raise click.UsageError(f"{name}: batch needs every card known; for layouts with "
                                   "?? use tripeaks-solve --layout-file (win probability)")
    return tuple(tuple(int(c) for c in lay.places) for _, lay in layouts)


@cli.command("solve", short_help="Solve deals (the default command).")
@click.argument("codes", nargs=-1)
@click.option("--rules", "rule_choice", type=click.Choice(RULE_CHOICES), default="both",
              show_default=True,
              help="Rule sets to solve under: the code's own letter, easy, classic or both.")
@click.option("--layout", "layouts", multiple=True, metavar="CARDS",
              help="A deal typed in: 52 cards in `deal --format line` order (positions "
                   "0–27, waste, stock in draw order); ?? for a card you cannot see.")
@click.option("--layout-file", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="A file of layouts, one per line; blank lines and # comments skipped.")
@click.option("--samples", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Random completions solved for a layout with ?? cards (all of them "
                   "when there are no more distinct ones than this).")
@click.option("--seed", type=int, default=None, help="Seed for the random completions.")
@click.option("--json", "as_json", is_flag=True,
              help="Print a JSON list, one object per (deal, rules).")
@click.option("--no-solution", is_flag=True, help="Leave out the line of moves.")
@click.option("--fast", is_flag=True,
              help="Answer winnability only (depth-first, no optimal score).")
@rule_options()
def solve_command(codes: tuple[str, ...], rule_choice: str, layouts: tuple[str, ...],
                  layout_file: Path | None, samples: int, seed: int | None, as_json: bool,
                  no_solution: bool, fast: bool, scoring: str, **opts) -> None:
    """Solve deals: winnable under Easy and Classic, best score, a line reaching it.

    CODES are game codes such as TP1-E-AAAAAAD; --layout and --layout-file take deals
    typed in, where ?? marks a card you cannot see: the answer is then the share of the
    ways to fill them that can be won.
    """
    parsed = [_code(c) for c in codes]
    typed = _read_layouts(layouts, layout_file)
    if not parsed and not typed:
        raise click.UsageError("give a game code (e.g. TP1-E-AAAAAAD), --layout or --layout-file")
    jobs: list[tuple[str | None, int | None, str, list[Rules], Layout | None, Deal | None]] = []
    for gc in parsed:
        rule_sets = _pick_rules(rule_choice, gc.rules, opts, gc.joker)
        deal = Deal.from_number(gc.number, rule_sets[0].joker)
        jobs.append((str(gc), gc.number, gc.rules, rule_sets, None, deal))
    for name, lay in typed:
        rule_sets = _pick_rules(rule_choice, None, opts)
        known = None if lay.unknown_places else lay.deal()
        jobs.append((None, None, name, rule_sets, lay, known))
    out = []
    warmed = False
    for n, (code, number, own, rule_sets, lay, deal) in enumerate(jobs):
        if not as_json and n:
            click.echo("\n" + "=" * 60 + "\n")
        if deal is None:
            started = time.perf_counter()
            shares = [win_probability(lay, r, samples, seed) for r in rule_sets]
            seconds = time.perf_counter() - started
            if as_json:
                out += [{"layout": lay.line(), "rules": s.rules.name,
                         "variant": s.rules.variant, "wins": s.wins, "completions": s.total,
                         "exact": s.exact, "share": s.share} for s in shares]
                continue
            click.echo(f"{own}: {len(lay.unknown_places)} unknown cards")
            click.echo(layout_picture(lay))
            click.echo("")
            for s in shares:
                click.echo(f"{str(s.rules) + ':':<8} {_share_text(s)}")
            click.echo(f"\nSolved {sum(s.solved for s in shares):,} completions in {seconds:.2f} s")
            continue
        if not warmed:
            warm_up(scoring)
            warmed = True
        sols = [solve(deal, r, optimal=not fast, scheme=scoring) for r in rule_sets]
        if as_json:
            line = None if code else deal.line()
            for s in sols:
                row = solution_json(code, number, s, not no_solution)
                if line:
                    row["line"] = line
                out.append(row)
            continue
        click.echo(f"{code}  (deal {number})" if code else f"{own}")
        click.echo(deal_picture(deal, rule_sets[0]))
        click.echo("")
        for sol in sols:
            click.echo(f"{str(sol.rules) + ':':<8} {_verdict(sol)}")
        shown = next((s for s in sols if s.rules.name == own), sols[0])
        if not no_solution:
            _print_line(shown)
        states = ", ".join(f"{s.states:,} states ({s.rules.name})" for s in sols)
        total = sum(s.seconds for s in sols)
        click.echo(f"\nSearched {states} in {total * 1000:.1f} ms")
    if as_json:
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))


# --- batch --------------------------------------------------------------------------
@cli.command("batch", short_help="Solve a range of deals: win rates, scores, CSV.")
@click.argument("start", required=False)
@click.argument("stop", required=False)
@click.option("--layout-file", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Solve the deals typed in this file (one per line, 52 cards in "
                   "`deal --format line` order) instead of a range of deal numbers.")
@click.option("--rules", "rule_choice", type=click.Choice(["both", "easy", "classic"]),
              default="both", show_default=True, help="Rule sets to solve every deal under.")
@click.option("--optimal/--no-optimal", default=True, show_default=True,
              help="Find best scores and fewest draws, or winnability only (faster).")
@click.option("--csv", "csv_path", type=click.Path(path_type=Path), default=None,
              help="Write one row per (deal, rules) to this CSV file.")
@click.option("--resume", is_flag=True,
              help="Continue the --csv file: keep its complete rows, solve and append the rest.")
@click.option("--force", is_flag=True,
              help="Overwrite an existing --csv file (unless --resume) and --plot file.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--jobs", type=click.IntRange(min=1), default=None, metavar="N",
              help="Worker processes (local engine) or local Dask workers [default: all cores].")
@click.option("--engine", type=click.Choice(["local", "dask"]), default="local",
              show_default=True, help="Run chunks in local processes or on a Dask cluster.")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Dask scheduler, e.g. tcp://host:8786 (default: start a local cluster).")
@click.option("--plot", "plot_path", type=click.Path(path_type=Path), default=None,
              help="Save histograms of best scores and fewest draws to this PNG.")
@click.option("--progress/--no-progress", default=None,
              help="Show a progress bar on stderr [default: when stderr is a terminal].")
@rule_options()
def batch_command(start: str | None, stop: str | None, layout_file: Path | None,
                  rule_choice: str, optimal: bool, csv_path: Path | None,
                  resume: bool, force: bool, as_json: bool, jobs: int | None, engine: str,
                  scheduler: str | None, plot_path: Path | None, progress: bool | None,
                  scoring: str, **opts) -> None:
    """Solve deals START … STOP-1 and summarise: win rates, best scores, draws.

    START and STOP are deal numbers or 7-letter deal ids (AAAAAAA is deal 0); the
    range is half-open. Rows come in deal order, Easy before Classic, whatever --jobs.
    With --layout-file the deals are those typed in the file, in its order.
    """
    import signal
    import threading

    from tqdm import tqdm

    from .analysis import BatchRun, BatchSpec, default_jobs, parse_range, rule_names

    rule_sets = _pick_rules(rule_choice, None, opts)
    names = tuple(r.name for r in rule_sets) if opts["wrap"] is not None else rule_names(
        rule_choice)
    layouts = None
    if layout_file is not None:
        if start is not None:
            raise click.UsageError("give START STOP or --layout-file, not both")
        layouts = _complete_layouts(layout_file)
        deals = range(len(layouts))
    elif start is None or stop is None:
        raise click.UsageError("give START and STOP (deal numbers or ids), or --layout-file")
    else:
        deals = parse_range(start, stop)
    spec = BatchSpec(deals, names, optimal, csv_path, resume, force, jobs or default_jobs(),
                     engine, scheduler, plot_path, rule_sets[0], scoring, layouts)
    show = sys.stderr.isatty() if progress is None else progress
    tqdm.monitor_interval = 0  # no monitor thread: worker processes are forked after this

    def terminate(signum, frame):  # a plain kill: stop like Ctrl-C, leaving complete rows
        raise SystemExit(128 + signum)

    with BatchRun(spec) as batch:
        if resume and (batch.kept or batch.torn):
            torn = ", dropped a torn last line" if batch.torn else ""
            click.echo(f"resuming {csv_path}: {batch.kept_in_range:,} rows of this range kept"
                       f"{torn}, {batch.pending_deals:,} deals to solve", err=True)
        bar = tqdm(total=batch.pending_deals, unit="deal", desc="batch", file=sys.stderr,
                   disable=not show, dynamic_ncols=True, smoothing=0.05)
        main_thread = threading.current_thread() is threading.main_thread()
        old_term = signal.signal(signal.SIGTERM, terminate) if main_thread else None
        try:
            summary = batch.run(on_progress=bar.update)
        except (KeyboardInterrupt, SystemExit):
            bar.close()
            if csv_path is not None:
                click.echo(f"tripeaks-solve: stopped; {csv_path} holds every finished row: "
                           "rerun with --resume to continue", err=True)
            raise
        finally:
            if main_thread:
                signal.signal(signal.SIGTERM, old_term)
            bar.close()
    result = summary.as_dict()
    if layout_file is not None:
        result["layout_file"] = str(layout_file)
    if as_json:
        click.echo(json.dumps(result, indent=2))
    else:
        click.echo(_batch_text(result))


def _pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def _batch_text(s: dict) -> str:
    """The summary dict of a batch, for people."""
    how = "optimal scores" if s["optimal"] else "winnability only (--no-optimal)"
    if s["optimal"] and s["scoring"] != "app":
        how += f" under the {s['scoring']} scoring"
    if s["variant"]:
        how += f", variant {s['variant']}"
    where = (f"Layouts of {s['layout_file']}" if "layout_file" in s
             else f"Deals {s['start']:,} … {s['stop'] - 1:,}")
    lines = [f"{where} ({s['deals']:,} deals), {how}", ""]
    for name, t in s["rules"].items():
        head = f"{name.capitalize():<9}"
        pad = " " * len(head)
        lo, hi = t["win_rate_95"]
        lines.append(f"{head}{t['deals']:,} deals, {t['wins']:,} won: {_pct(t['win_rate'])} "
                     f"(95% Wilson interval {_pct(lo)} – {_pct(hi)})")
        if s["optimal"]:
            if t["wins"]:
                median = t["best_score_median"]
                median = int(median) if median == int(median) else median
                lines.append(f"{pad}best score of won deals: mean {t['best_score_mean']:.2f}, "
                             f"median {median}")
                dist = "  ".join(f"{k}:{v:,}" for k, v in t["min_draws"].items())
                if dist:
                    lines += textwrap.wrap(f"fewest draws to win (draws:deals)  {dist}", 88,
                                           initial_indent=pad, subsequent_indent=pad + "  ")
            else:
                lines.append(f"{pad}no won deals")
    cross = s.get("cross")
    if cross:
        a, b = 13, 14  # column widths
        lines += [
            "",
            f"Easy × Classic ({cross['deals']:,} deals)",
            f"{'':<10}{'Classic won':>{a}}{'Classic lost':>{b}}",
            f"{'Easy won':<10}{cross['both']:>{a},}{cross['easy_only']:>{b},}",
            f"{'Easy lost':<10}{cross['classic_only']:>{a},}{cross['neither']:>{b},}",
            (f"Classic only: {cross['classic_only']:,} "
             + ("(can happen when drawing waits for no card to play: a Classic draw may "
                "be barred under Easy)" if "draw-when-stuck" in s["variant"] else
                "(must be 0: every Classic line is legal under Easy)")),
        ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the command, turning input errors into one line and exit code 2."""
    def fail(message: str) -> None:
        # One line, whatever the user typed: newlines in echoed arguments are shown escaped.
        one_line = message.replace("\r", "\\r").replace("\n", "\\n")
        click.echo(f"tripeaks-solve: error: {one_line}", err=True)
        sys.exit(EXIT_INPUT)

    try:
        code = cli.main(args=argv, prog_name="tripeaks-solve", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("tripeaks-solve: interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        fail(exc.format_message())
    except InputError as exc:
        fail(str(exc))
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
