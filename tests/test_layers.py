"""The package's layers: folders that are the layers, every import down or within its
own folder, no import cycle, small modules and folders, few modules at the top.

Read from the source with ``ast``: every import (at module level or inside a function,
relative or absolute), so it holds compiled or not, whatever is installed. docs/design.md
draws the same layers.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import tripeaks_solver

ROOT = Path(tripeaks_solver.__file__).resolve().parent
PACKAGE = ROOT.name
MAX_LINES = 450
MAX_MODULES = 15  # a folder a reader can take in at once (the package itself aside)

# Each folder and the folders below it that its modules may import (their own folder
# and errors.py aside). web/ is the local web page (serve); cli/ may start it.
LAYERS = {
    "model": set(),
    "kernels": {"model"},
    "solver": {"model", "kernels"},
    "analysis": {"model", "kernels", "solver"},
    "games": {"model", "kernels", "solver", "analysis"},
    "batch": {"model", "kernels", "solver", "analysis", "games"},
    "web": {"model", "kernels", "solver", "analysis", "games", "batch"},
    "cli": {"model", "kernels", "solver", "analysis", "games", "batch", "web"},
}
LIBRARY = {"model", "kernels", "solver", "analysis", "games", "batch"}
# The modules at the top and what each may import (errors.py, limits.py: anyone may
# import them).
TOP = {
    "errors": set(),
    "limits": set(),  # the shared limits (anyone may import it, as errors.py)
    "console": {"cli"},  # the entry point: catches a Ctrl-C, then loads the commands
    "__main__": {"console"},
    "api": LIBRARY,  # the Python API
    "__init__": LIBRARY | {"api"},
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def imports_of(name: str, path: Path) -> set[str]:
    """The package's modules that module ``name`` imports, anywhere in it: a submodule
    when the import names one (``from . import a, b`` imports a and b), else the module
    or package imported from."""
    is_package = path.name == "__init__.py"
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == PACKAGE)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                here = name.split(".") if is_package else name.split(".")[:-1]
                base = here[:len(here) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if source.split(".")[0] != PACKAGE:
                continue
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                out.add(sub if sub in MODULES else source)
    out.discard(name)
    return out


GRAPH = {name: imports_of(name, path) for name, path in MODULES.items()}


def place(name: str) -> str:
    """The folder of a module (``kernels``), or its own name at the top (``errors``),
    or ``__init__`` for the package itself."""
    parts = name.split(".")[1:]
    return parts[0] if parts else "__init__"


def allowed(importer: str, target: str) -> bool:
    here, there = place(importer), place(target)
    if there in ("errors", "limits") or (here == there and here in LAYERS):
        return True
    if here in LAYERS:
        return there in LAYERS[here]
    return there in TOP[here]


def test_the_import_graph_was_read():
    # The checks below read this graph: it must hold what is plainly there.
    assert len(MODULES) > 40
    assert f"{PACKAGE}.kernels.win" in GRAPH[f"{PACKAGE}.kernels.optimum"]
    assert f"{PACKAGE}.model.geometry" in GRAPH[f"{PACKAGE}.kernels.shared"]
    assert f"{PACKAGE}.cli.coach" in GRAPH[f"{PACKAGE}.cli"]  # from . import …, coach, …
    assert f"{PACKAGE}.cli" in GRAPH[f"{PACKAGE}.console"]  # inside main()
    assert f"{PACKAGE}.solver.solve" in GRAPH[f"{PACKAGE}.batch.engines"]  # inside a method


def test_folders_are_the_layers_and_few_modules_stay_at_the_top():
    folders = {p.name for p in ROOT.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders - set(LAYERS) == set(), "a folder that is not a layer"
    assert all((ROOT / f / "__init__.py").is_file() for f in folders)
    top = {p.stem for p in ROOT.glob("*.py")}
    assert top <= set(TOP), top - set(TOP)


def test_every_import_goes_down_or_within_its_folder():
    bad = sorted(f"{a} imports {b}" for a, targets in GRAPH.items() for b in targets
                 if not allowed(a, b))
    assert not bad, "\n".join(bad)


def test_only_the_api_imports_the_package_itself():
    # tripeaks_solver/__init__.py exports the API: no module of the package imports
    # from it (``from .. import errors`` names a module, and is not such an import).
    users = sorted(a for a, targets in GRAPH.items() if PACKAGE in targets)
    assert not users, users


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_cycles_are_found():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_two_modules_import_each_other():
    found = cycles(GRAPH)
    assert not found, "\n".join(" <-> ".join(c) for c in found)


def test_no_folder_holds_more_than_fifteen_modules():
    sizes = {folder: sum(place(m) == folder and not m.endswith(f".{folder}")
                         for m in MODULES) for folder in LAYERS}
    assert sizes["analysis"] > 5 and sizes["games"] > 5  # counted, not an empty count
    assert {f: n for f, n in sizes.items() if n > MAX_MODULES} == {}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_every_module_is_short(name):
    path = MODULES[name]
    where = path.relative_to(ROOT).as_posix()
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{where}: {lines} lines"


def test_numba_kernels_live_in_kernels_and_cache():
    # The kernels' argument count: tests/test_jit.py (at most six).
    kernels = {}
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef):
                for d in node.decorator_list:
                    if "njit" in ast.unparse(d):
                        kernels[f"{name}.{node.name}"] = ast.unparse(d)
    assert len(kernels) > 50
    assert {k for k in kernels if place(k.rsplit(".", 1)[0]) != "kernels"} == set()
    assert {k: d for k, d in kernels.items() if "cache=True" not in d} == {}


def test_the_shared_limits_are_written_once():
    # limits.py holds the numbers more than one part keeps; a module that writes one
    # of them again (a *_SAMPLES constant of the same value, or the same name) would let
    # the terminal and the page drift apart. LIGHT_SAMPLES (the page's lanes) is another
    # number that happens to be 200.
    from tripeaks_solver import limits

    values = {getattr(limits, n) for n in limits.__all__}
    again = []
    for name, path in MODULES.items():
        if name == f"{PACKAGE}.limits":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name)):
                continue
            target = node.targets[0].id
            value = node.value.value if isinstance(node.value, ast.Constant) else None
            if target in limits.__all__ or (target.endswith("SAMPLES") and value in values
                                            and target != "LIGHT_SAMPLES"):
                again.append(f"{name}: {target} = {value}")
    assert not again, again
