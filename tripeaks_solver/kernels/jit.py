"""numba's ``njit`` with a cache that never stops the program, and a compile notice.

``njit`` takes numba's call forms (``@njit``, ``@njit(cache=True)``,
``@njit(cache=True, inline="always")``, ``@njit("int64(int64)", cache=True)``). With
``cache=True`` it caches where numba would (``NUMBA_CACHE_DIR``, the module's
``__pycache__``, the user's cache directory) and, when none of those is writable (a
read-only install run with an unwritable home), in a private directory under
``$TMPDIR`` (or the system's temporary directory); when that fails too, the function
is compiled in every process instead of numba's "no locator available" error at
import. A cache entry that cannot be read (a truncated or corrupted file) counts as
missing: the function is compiled again and the entry rewritten.

``compile_notice()`` wraps the first call of the kernels: when numba actually compiles
(not when it loads from the cache), it says so once on stderr if stderr is a terminal.

``chunks(n)`` splits a long kernel call into short ones: compiled code never checks for
signals, so Ctrl-C (KeyboardInterrupt) takes effect only when a call returns.
"""

from __future__ import annotations

import contextlib
import inspect
import os
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import IO, Any, ClassVar

import numba
from numba.core import event, types
from numba.core.caching import (
    CompileResultCacheImpl,
    FunctionCache,
    IndexDataCacheFile,
    _CacheLocator,
    _SourceFileBackedLocatorMixin,
)
from numba.core.dispatcher import Dispatcher

__all__ = ["COMPILE_NOTICE", "cache_path", "chunks", "compile_notice", "njit", "uncached"]

COMPILE_NOTICE = "compiling search kernels, first run only…"
UNCACHED_NOTICE = ("compiling search kernels (no writable cache directory: set "
                   "NUMBA_CACHE_DIR to keep them between runs)…")

_uncached: list[str] = []  # qualified names of the functions no directory could cache
_noticed = False


def _private_temp_root() -> str | None:
    """A directory only this user can write, under $TMPDIR or the system's temporary
    directory, or None. Cache files are pickles that are loaded as code: a directory
    that someone else owns or can write is never used."""
    base = os.environ.get("TMPDIR") or tempfile.gettempdir()
    uid = os.geteuid() if hasattr(os, "geteuid") else None
    root = os.path.join(base, f"tripeaks-solver-numba-{uid if uid is not None else 'user'}")
    try:
        os.mkdir(root, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    try:
        st = os.lstat(root)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_mode & 0o022:
        return None
    if uid is not None and st.st_uid != uid:
        return None
    return root


class _TempDirLocator(_SourceFileBackedLocatorMixin, _CacheLocator):
    """The last resort: the private directory of ``_private_temp_root``."""

    def __init__(self, py_func: Callable, py_file: str, root: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(root, self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self) -> str:
        return self._cache_path

    @classmethod
    def from_function(cls, py_func: Callable, py_file: str) -> _TempDirLocator | None:
        root = _private_temp_root()
        if root is None or not os.path.exists(py_file):
            return None
        self = cls(py_func, py_file, root)
        try:
            self.ensure_cache_path()  # numba's check: create it and write a file in it
        except OSError:
            return None
        return self


class _Impl(CompileResultCacheImpl):
    # numba's own order (NUMBA_CACHE_DIR, __pycache__, user cache, IPython, zip), then ours.
    # numba's types call this class-level list an instance variable.
    _locator_classes: ClassVar[list] = [  # type: ignore[misc]
        *CompileResultCacheImpl._locator_classes, _TempDirLocator]


class _TolerantIndexDataCacheFile(IndexDataCacheFile):
    """numba's index and data files, where an unreadable file is a missing entry."""

    def _load_index(self) -> dict:
        try:
            return super()._load_index()
        except Exception:  # noqa: BLE001  truncated or corrupted: numba saves a fresh index
            return {}

    def load(self, key: Any) -> Any:
        try:
            return super().load(key)
        except Exception:  # noqa: BLE001  a broken pickle raises anything at all
            return None


class _TolerantCache(FunctionCache):
    """numba's function cache with our locators; a cache entry that cannot be read or
    rebuilt is compiled again, and one that cannot be written is not kept."""

    _impl_class = _Impl

    def __init__(self, py_func: Callable) -> None:
        super().__init__(py_func)
        self._cache_file = _TolerantIndexDataCacheFile(
            cache_path=self._cache_path, filename_base=self._impl.filename_base,
            source_stamp=self._impl.locator.get_source_stamp())

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        try:
            return super().load_overload(sig, target_context)
        except Exception:  # noqa: BLE001  an entry that does not rebuild: compile again
            return None

    def save_overload(self, sig: Any, data: Any) -> None:
        try:
            super().save_overload(sig, data)
        except OSError:  # the directory went away or filled up: run without keeping it
            pass


def _enable_cache(disp: Dispatcher) -> None:
    # What numba's Dispatcher.enable_caching does (numba 0.68), with our cache class.
    try:
        disp._cache = _TolerantCache(disp.py_func)  # type: ignore[attr-defined]  # private
    except (RuntimeError, OSError):  # no locator at all: numba's NullCache stays
        _uncached.append(disp.py_func.__qualname__)


def _compile_once_per_type(disp: Dispatcher) -> None:
    # numba compiles a kernel called from another with a constant argument once per
    # constant value (its type is Literal[int](20000), Literal[bool](True)): our
    # kernels took a third more compile time for those copies, and gain nothing from
    # them. So a call from a kernel compiles for the argument types alone.
    template = disp.get_call_template

    def get_call_template(args: tuple, kws: dict) -> Any:
        return template(tuple(types.unliteral(a) for a in args),
                        {k: types.unliteral(v) for k, v in kws.items()})

    # A method replaced on this one dispatcher, on purpose (numba's types forbid it).
    disp.get_call_template = get_call_template  # type: ignore[method-assign,assignment]


def _decorate(func: Callable, sigs: Any, cache: bool, options: dict) -> Any:
    disp = numba.njit(**options)(func)
    if not isinstance(disp, Dispatcher):  # NUMBA_DISABLE_JIT=1: the plain function
        return disp
    _compile_once_per_type(disp)
    if cache:
        _enable_cache(disp)
    if sigs is not None:  # eager compilation, as numba's jit does it
        from numba.core import typeinfer

        with typeinfer.register_dispatcher(disp):
            for sig in sigs if isinstance(sigs, list) else [sigs]:
                disp.compile(sig)
        disp.disable_compile()
    return disp


def njit(signature_or_function: Any = None, **options: Any) -> Any:
    """numba's ``njit``; ``cache=True`` caches where it can and never fails for it."""
    cache = bool(options.pop("cache", False))
    if inspect.isfunction(signature_or_function):
        return _decorate(signature_or_function, None, cache, options)

    def decorate(func: Callable) -> Any:
        return _decorate(func, signature_or_function, cache, options)

    return decorate


def cache_path(disp: Any) -> str | None:
    """The directory ``disp`` (a function made by ``njit``) is cached in, or None."""
    path = getattr(getattr(disp, "_cache", None), "cache_path", None)
    return path or None


CHUNK_SECONDS = 0.2  # the time a chunk aims at: Ctrl-C stops the work within about it


def chunks(n: int, seconds: float = CHUNK_SECONDS) -> Iterator[tuple[int, int]]:
    """Consecutive ranges ``(a, b)`` covering 0 … n, for a kernel called on one range at
    a time (its items independent, so the answers are those of one call over all). Each
    range is sized from how long the caller took over the one before (starting with one
    item, doubling while under half of ``seconds``, halving above twice it), so that a
    Ctrl-C, raised between calls, stops the work within about ``seconds``."""
    a, size = 0, 1
    while a < n:
        b = min(n, a + size)
        start = time.perf_counter()
        yield a, b
        took = time.perf_counter() - start
        if took < seconds / 2:
            size *= 2
        elif took > 2 * seconds:
            size = max(1, size // 2)
        a = b


def uncached() -> tuple[str, ...]:
    """The functions made with ``cache=True`` that no directory could cache."""
    return tuple(_uncached)


class _Notice(event.Listener):
    def __init__(self, stream: IO[str], text: str | None) -> None:
        self.stream = stream
        self.text = text

    def on_start(self, ev: event.Event) -> None:
        global _noticed
        if _noticed:
            return
        _noticed = True
        text = self.text or (UNCACHED_NOTICE if _uncached else COMPILE_NOTICE)
        with contextlib.suppress(OSError, ValueError):
            self.stream.write(text + "\n")
            self.stream.flush()

    def on_end(self, ev: event.Event) -> None:
        pass


@contextlib.contextmanager
def compile_notice(stream: IO[str] | None = None, text: str | None = None) -> Iterator[None]:
    """Within the block, the first compilation numba actually starts (a cache load is
    not one) prints one line on ``stream`` (stderr), once per process and only when the
    stream is a terminal: the notice is for someone waiting in front of it, and never
    joins the output or the one-line errors a script reads."""
    stream = sys.stderr if stream is None else stream
    try:
        live = stream.isatty()
    except (AttributeError, ValueError):
        live = False
    if not live or _noticed:
        yield
        return
    with event.install_listener("numba:compile", _Notice(stream, text)):
        yield
