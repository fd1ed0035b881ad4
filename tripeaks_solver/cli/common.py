"""What the commands share: exit codes, the rule options, codes and layouts as typed,
standard input (``-``) and bounded reading of input files."""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

import click

from ..analysis.player_spec import DEFAULT_SAMPLES, MAX_SEED, PLAYER_NAMES, SAMPLED, parse_player
from ..batch.files import file_kind
from ..errors import InputError, did_you_mean
from ..games.portable import flags
from ..limits import MAX_ADVICE_SEED
from ..model.codes import NamedDeal, game_code
from ..model.i18n import LANGUAGES, _, language_from_env, set_language
from ..model.layout import Layout, parse_layout_file
from ..model.render import peak_name
from ..model.rules import Rules, select_rules
from ..model.scoring import SCHEMES, Scheme

EXIT_ILLEGAL = 1
EXIT_INPUT = 2
STDIN = "-"
# A layout is 52 tokens of at most 4 characters; a longer line is not input for us
# (/dev/zero, a binary file) and must not be read into memory whole.
MAX_LINE = 4096
# Every --seed: the players add the deal number to it and the generators take 64 bits.
SEED = click.IntRange(0, MAX_SEED)
ADVICE_SEED = click.IntRange(0, MAX_ADVICE_SEED)


class InputPath(click.Path):
    """A file to read, or - for standard input. An empty argument is refused as such
    (as a path, "" would name the current directory); a directory is refused when it is
    read (read_input), in the language of the command's --lang, which click's own
    check would not be."""

    def __init__(self, path_type: type = Path) -> None:
        super().__init__(path_type=path_type, allow_dash=True)

    def convert(self, value, param, ctx):
        if value == "":
            self.fail("the path is empty: give a file, or - for standard input", param, ctx)
        return super().convert(value, param, ctx)


class Choice(click.Choice):
    """click's Choice (which the shell completes), whose error names the closest
    choice: ``'clasic' is not one of … (did you mean 'classic'?)``."""

    def convert(self, value, param, ctx):
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as exc:
            hint = did_you_mean(str(value), [str(c) for c in self.choices])
            if not hint:
                raise
            self.fail(f"{exc.message.rstrip('.')}{hint}", param, ctx)


class PlayerType(click.ParamType):
    """A player, ``name[:N]`` (``greedy``, ``fair:200``): checked as typed, with the
    closest name of a mistyped one; the shell completes the names. The value is the
    player's label (``fair:100`` for ``fair``)."""

    name = "player"

    def convert(self, value, param, ctx):
        try:
            return parse_player(value).label
        except InputError as exc:
            self.fail(str(exc), param, ctx)

    def shell_complete(self, ctx, param, incomplete):
        from click.shell_completion import CompletionItem

        name, colon, _rest = incomplete.lower().partition(":")
        if colon:  # a sampling player's count: offer the default
            words = [f"{name}:{DEFAULT_SAMPLES}"] if name in SAMPLED else []
        else:
            words = [n for n in PLAYER_NAMES if n.startswith(name)]
        return [CompletionItem(w) for w in words]


@contextlib.contextmanager
def progress_bar(total: int, unit: str) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr when it is a terminal; yields ``advance(done)``, which
    moves the bar to ``done`` of ``total``."""
    from tqdm import tqdm

    tqdm.monitor_interval = 0  # no monitor thread
    bar = tqdm(total=total, unit=unit, file=sys.stderr, disable=not sys.stderr.isatty(),
               dynamic_ncols=True, leave=False)

    def advance(done: int) -> None:
        bar.update(done - bar.n)

    try:
        yield advance
    finally:
        bar.close()


def _choose_language(ctx: click.Context, param: click.Parameter, value: str | None) -> str:
    # Chosen first (the option is eager), so that every text after it is in the language.
    return set_language(value or language_from_env())


lang_option = click.option(
    "--lang", type=Choice(LANGUAGES), default=None, is_eager=True, callback=_choose_language,
    help="Language of what people read: en, vi (Vietnamese) or sk (Slovak), in the app's "
         "own words (default: from LC_ALL, LC_MESSAGES or LANG, else English). JSON, CSV, "
         "card tokens and commands stay as they are.")
"""``--lang`` (into the parameter ``lang``: the language chosen, never None)."""


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 move``, ``2 moves``, ``1,000 completions``."""
    return f"{n:,} {word if n == 1 else words or word + 's'}"


def check_distinct_outputs(plot_path: Path | None, csv_path: Path | None) -> None:
    """Refuse a --plot and a --csv that are one file: the same name, or two names (hard
    links) for one existing file."""
    if plot_path is None or csv_path is None:
        return
    try:
        same = os.path.samefile(plot_path, csv_path)
    except OSError:  # one of them does not exist yet
        same = False
    if same or plot_path.resolve() == csv_path.resolve():
        raise click.UsageError("--plot and --csv name the same file")


def install_hint(extra: str) -> str:
    """How to add an optional extra (``plot``, ``dask``): the package is installed from
    its clone, not from an index, so ``pip install 'tripeaks-solver[plot]'`` would fail."""
    return f"python3 -m pip install -e '.[{extra}]' in the clone of the repository"


def require_matplotlib() -> None:
    """Refuse --plot (batch, report, analyze) where matplotlib is missing, saying how to
    add it."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise click.UsageError("--plot needs matplotlib, an optional extra: "
                               + install_hint("plot")) from None


def check_plot_flag(plot_path: Path | None, optimal: bool = True) -> None:
    """The checks of batch's and report's --plot that need no file: a PNG name, scores
    to draw, matplotlib."""
    if plot_path is None:
        return
    if plot_path.suffix.lower() != ".png":
        raise click.UsageError(f"--plot writes a PNG image: {plot_path} should end in .png")
    if not optimal:
        raise click.UsageError("--plot draws best scores and draws, which --no-optimal skips")
    require_matplotlib()


def refuse_unused(names: tuple[str, ...], why: str) -> None:
    """A one-line error naming the first option of ``names`` (parameter names) that the
    user typed although it does nothing here (``why``: when it would count)."""
    ctx = click.get_current_context()
    for name in names:
        source = ctx.get_parameter_source(name)
        if source is not None and source not in (click.core.ParameterSource.DEFAULT,
                                                 click.core.ParameterSource.DEFAULT_MAP):
            raise click.UsageError(f"{_typed_flag(ctx, name)} does nothing here: {why}")


def _typed_flag(ctx: click.Context, name: str) -> str:
    """The option as the user typed it (``--rules``, ``--no-wrap``), from its parameter
    name (``rule_choice``, ``wrap``)."""
    param = next((p for p in ctx.command.params if p.name == name), None)
    if param is None:
        return "--" + name.replace("_", "-")
    opts = param.opts
    if getattr(param, "secondary_opts", None) and ctx.params.get(name) is False:
        opts = param.secondary_opts
    return next((o for o in opts if o.startswith("--")), opts[0])


def parse_code(text: str) -> NamedDeal:
    """A game code, a deal number (``1132``: the deal under Easy rules unless ``--rules
    classic``, as for a layout, whose code the command then prints), or a PySolFC game
    number (``pysol:123456``: PySolFC's deal, under its rules unless told otherwise)."""
    try:
        return game_code(text)
    except InputError as exc:
        raise click.UsageError(str(exc)) from None


def _lines(stream: IO, name: str) -> Iterator[str]:
    """The lines of ``stream`` (bytes read as UTF-8, a BOM dropped), none longer than
    MAX_LINE bytes (characters for a text stream): an endless line stops at the limit
    instead of filling memory."""
    number = 0
    while True:
        raw = stream.readline(MAX_LINE + 2)  # room for the line end
        if not raw:
            return
        number += 1
        binary = isinstance(raw, bytes)
        if number == 1:
            raw = raw.removeprefix(b"\xef\xbb\xbf" if binary else "\ufeff")
        if len(raw.rstrip(b"\r\n" if binary else "\r\n")) > MAX_LINE:
            unit = "bytes" if binary else "characters"
            raise click.UsageError(f"{name}: line {number} is longer than {MAX_LINE:,} {unit}")
        if not binary:
            yield raw
            continue
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise click.UsageError(f"{name}: line {number} is not UTF-8 text ({exc.reason} "
                                   f"at byte {exc.start + 1})") from None


def read_input(path: Path | str, record: bool = False) -> tuple[str, str]:
    """(display name, text) of an input file, or of standard input for ``-``. Only a
    regular file is opened: a FIFO would block, a device never end. Lines are bounded.
    Its errors are in the current language (``record``: the file is a game's record)."""
    if str(path) == STDIN:
        if sys.stdin is None:  # started with standard input closed
            raise click.UsageError(_("cannot read standard input: it is closed"))
        stream = getattr(sys.stdin, "buffer", sys.stdin)
        try:
            return "standard input", "".join(_lines(stream, "standard input"))
        except OSError as exc:
            raise click.UsageError(_("cannot read standard input: {why}", why=exc)) from None
    name = str(path)

    def unreadable(exc: OSError) -> click.UsageError:
        why = exc.strerror or exc  # the system's own words
        return click.UsageError(_("cannot read the record {path}: {why}", path=name, why=why)
                                if record else _("cannot read {path}: {why}", path=name, why=why))

    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer before fstat refuses it;
        # O_BINARY: Windows' lines as they are (split here, not by the system).
        fd = os.open(path, os.O_RDONLY | flags("O_NONBLOCK", "O_BINARY"))
    except OSError as exc:
        raise unreadable(exc) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise click.UsageError(_("{path} is {kind}, not a regular file (give a file, or - "
                                     "for standard input)", path=name,
                                     kind=file_kind(mode, True)))
        with os.fdopen(fd, "rb", closefd=False) as f:
            return name, "".join(_lines(f, name))
    except OSError as exc:
        raise unreadable(exc) from None
    finally:
        os.close(fd)


def words_of(line: str) -> list[str]:
    """The words of an input line, a ``#`` and what follows it left out (a comment)."""
    return line.split("#", 1)[0].split()


def expand_stdin(words: tuple[str, ...], stdin_taken: bool = False) -> tuple[str, ...]:
    """A record's words with ``-`` replaced by the lines of standard input, each with
    its ``#`` comment left out (one or more moves a line). ``stdin_taken``: another
    option of the command reads standard input already."""
    if STDIN not in words:
        return words
    if stdin_taken or words.count(STDIN) > 1:
        raise click.UsageError("standard input (-) can be read only once")
    _name, text = read_input(STDIN)
    read = tuple(" ".join(words_of(line)) for line in text.splitlines())
    at = words.index(STDIN)
    return words[:at] + read + words[at + 1:]


def read_codes(source: Path | str = STDIN) -> list[tuple[str, str, NamedDeal]]:
    """Game codes (or deal numbers, or PySolFC game numbers) separated by spaces or lines
    (``#`` starts a comment), from a file or standard input: (where, word, code), where
    names the line."""
    name, text = read_input(source)
    out = []
    for number, raw in enumerate(text.splitlines(), 1):
        for word in words_of(raw):
            try:
                out.append((f"{name}:{number}", word, game_code(word)))
            except InputError as exc:
                raise click.UsageError(f"{name}, line {number}: {exc}") from None
    return out


# The rule sets a command that plays one deal can run under; solve and batch add both.
ONE_RULE_SET = ("code", "easy", "classic")
_RULE_WORDS = {"code": "code (the game code's letter; Easy for a layout)",
               "easy": "easy (K and A adjacent)", "classic": "classic (K and A not adjacent)",
               "both": "both (Easy, then Classic)"}


must_clear_option = click.option(
    "--must-clear", is_flag=True,
    help="Count only the lines that clear the board: the best score among the wins, and "
         "none when no win is left. It changes the best score only under --scoring "
         "original, whose best line may otherwise end stuck with a win left.")
"""``--must-clear`` of solve, hint and batch (into the parameter ``must_clear``)."""


def rule_options(with_scoring: bool = True, choices: tuple[str, ...] = ONE_RULE_SET,
                 default: str = "code"):
    """The rule options of every command that plays a deal, as one decorator: --rules
    (one of ``choices``, into the parameter ``rule_choice``), the variant options, and
    --scoring unless ``with_scoring`` is false."""
    many = "both" in choices
    rules_help = (f"Rule set{'s to run under' if many else ''}: "
                  + ", ".join(_RULE_WORDS[c] for c in choices) + ".")

    def decorate(f):
        opts = [
            click.option("--rules", "rule_choice", type=Choice(choices), default=default,
                         show_default=True, help=rules_help),
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
                         help="K and A adjacent (Easy) or not (Classic), overriding --rules "
                              "and the code's rules letter."),
        ]
        if with_scoring:
            opts.append(click.option(
                "--scoring", type=Choice(SCHEMES), default="app", show_default=True,
                callback=lambda _ctx, _param, value: Scheme(value),
                help="app: 500, −1 a move, +100 a peak; original: runs score 1, 2, 3 …, "
                     "−5 a draw, 15/15/30 for peaks; cards-left: fewest cards left, then "
                     "fewest moves; pysol: PySolFC's Three Peaks hand (−52, runs 1, 1, 1, "
                     "1, 2 … doubled by each empty peak, 10/20/40 for peaks, 10 a stock "
                     "card at a win)."))
        for opt in reversed(opts):
            f = opt(f)
        return f

    return decorate


def pick_rules(choice: str, code_rules: str | None, opts: dict,
               joker: bool = False, pysol: bool = False) -> tuple[Rules, ...]:
    """The rule sets a command runs under, from --rules (or the code's letter) and the
    variant options of its command line. A PySolFC deal (``pysol``) runs under PySolFC's
    rules (Easy) unless --rules or --wrap was typed, and never with the joker."""
    if pysol:
        if opts["joker"]:
            raise click.UsageError("--joker needs a 53-card deal: a PySolFC game (pysol:N) "
                                   "has 52 cards")
        ctx = click.get_current_context(silent=True)
        typed = ctx is not None and ctx.get_parameter_source("rule_choice") not in (
            None, click.core.ParameterSource.DEFAULT, click.core.ParameterSource.DEFAULT_MAP)
        if not typed:
            choice = "code"
    return select_rules(choice, code_rules, wrap=opts["wrap"],
                        empty_waste=opts["empty_waste"], joker=opts["joker"] or joker,
                        draw_when_stuck=opts["draw_when_stuck"], open=opts["open_peaks"])


def peak_mark(cleared: int, position: int) -> str:
    if not cleared:
        return ""
    return "  " + {"left": _("peak cleared (left)"), "middle": _("peak cleared (middle)"),
                   "right": _("peak cleared (right)")}[peak_name(position)]


def read_layouts(layouts: tuple[str, ...], layout_file: Path | None) -> list[tuple[str, Layout]]:
    out = []
    for i, text in enumerate(layouts, 1):
        try:
            out.append((f"layout {i}", Layout.parse(text)))
        except InputError as exc:
            raise click.UsageError(f"--layout {i}: {exc}") from None
    if layout_file is not None:
        name, text = read_input(layout_file)  # - is standard input; a BOM is dropped
        try:
            out += [(f"{name}:{n}", lay) for n, lay in parse_layout_file(text)]
        except InputError as exc:
            raise click.UsageError(f"{name}: {exc}") from None
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
    return tuple(tuple(int(c) for c in lay.deal().cards) for _where, lay in layouts)
