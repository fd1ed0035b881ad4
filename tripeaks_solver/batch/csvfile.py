"""The batch CSV as a file: read back row by row (to resume or report), written chunk by
chunk under a lock (or to a stream such as standard output).

A file whose last line has no newline was cut by a stop or a kill: that torn line is
dropped, every complete row is kept. Reading never holds more than a line in memory.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TextIO

from .errors import BatchError
from .extras import columns_of, layout_of
from .files import LockedFile, bounded_lines, open_output, open_regular, write_all
from .rows import CSV_HEADER, MUST_CLEAR_COLUMNS, PYSOL_COLUMNS, Row

HEADER_LINE = ",".join(CSV_HEADER) + "\n"
_HEADERS = tuple(",".join(CSV_HEADER + PYSOL_COLUMNS * g + MUST_CLEAR_COLUMNS * m
                          + columns_of(d, p)).encode() + b"\n"
                 for g in (False, True) for m in (False, True) for d in (False, True)
                 for p in (False, True))


class CsvReader:
    """The rows of a batch CSV, read from ``f`` (binary) one line at a time.

    Iterate :meth:`rows` for (line number, Row); afterwards ``end`` is the byte just past
    the last complete line, ``torn`` says whether a torn last line followed it, and
    ``header`` whether the file had its complete header line, ``added`` the columns
    its header names after ``line`` (those of a PySolFC range, --must-clear, --difficulty
    and --player).
    """

    def __init__(self, f: IO[bytes], name: str) -> None:
        self.f = f
        self.name = name
        self.end = 0
        self.torn = False
        self.header = False
        self.added: tuple[str, ...] = ()

    def _not_ours(self, why: str) -> BatchError:
        return BatchError(f"{self.name} {why}", "not-batch", "csv")

    def rows(self) -> Iterator[tuple[int, Row]]:
        for number, line in bounded_lines(self.f, self.name, "csv"):
            if not line.endswith(b"\n"):  # the last line, cut part way
                if number == 1 and not any(h.startswith(line) for h in _HEADERS):
                    raise self._not_ours("does not start with the batch CSV header")
                self.torn = True
                return
            if number == 1:
                self.added = self._added_columns(line)
                self.header = True
            else:
                try:
                    row = Row.from_csv_fields(line.decode("utf-8").rstrip("\r\n").split(","),
                                              self.added)
                except (UnicodeDecodeError, ValueError) as exc:
                    raise self._not_ours(f"line {number} is not a batch row ({exc})") from None
                yield number, row
            self.end += len(line)

    def _added_columns(self, line: bytes) -> tuple[str, ...]:
        names = tuple(line.decode("utf-8", "replace").rstrip("\r\n").split(","))
        added = names[len(CSV_HEADER):]
        try:
            if names[:len(CSV_HEADER)] != CSV_HEADER:
                raise ValueError
            rest = added[len(PYSOL_COLUMNS):] if added[:1] == PYSOL_COLUMNS else added
            layout_of(rest[len(MUST_CLEAR_COLUMNS):] if rest[:1] == MUST_CLEAR_COLUMNS
                      else rest)
        except ValueError:
            raise self._not_ours(f"does not start with the batch CSV header "
                                 f"{HEADER_LINE.strip()!r}") from None
        return added


@dataclass
class ExistingRows:
    """Every complete row of a batch CSV and where they end (for small files and tests)."""

    rows: list[Row]
    keep_bytes: int  # the file is cut here before appending (drops a torn last line)
    torn: bool  # was there a torn (unterminated) last line?
    needs_header: bool


def read_existing(path: Path) -> ExistingRows:
    """All the complete rows of the batch CSV at ``path``; BatchError when it is not one."""
    with open_regular(path, "the CSV", "csv") as f:
        reader = CsvReader(f, str(path))
        rows = [row for _, row in reader.rows()]
    return ExistingRows(rows, reader.end, reader.torn, not reader.header)


class CsvOutput:
    """Where a run's rows go: a locked file, or a stream (standard output).

    ``mode`` is ``new`` (an existing file is refused unless empty), ``replace`` (an
    existing file is emptied when the run starts writing) or ``resume`` (its complete
    rows are read with :meth:`reader`, then kept). Nothing is written before
    :meth:`begin`, so a run that cannot start changes no file.
    """

    def __init__(self, path: Path | None, mode: str = "new", stream: TextIO | None = None,
                 added: tuple[str, ...] = ()) -> None:
        self.path = path
        self.header_line = ",".join(CSV_HEADER + added) + "\n"
        self.name = str(path) if path is not None else "standard output"
        self._stream = stream
        self._file: LockedFile | None = None
        self._keep = 0  # bytes kept when the run begins; 0 writes a fresh header
        self.wrote = False
        if path is None:
            return
        self._file = open_output(path, "the CSV", "csv", replace=mode != "new")

    @property
    def fd(self) -> int | None:
        return None if self._file is None else self._file.fd

    def reader(self) -> CsvReader:
        """A reader of the file's rows as they are now; what it finds is kept."""
        if self._file is None:
            raise ValueError(f"{self.name} is no file to read back")
        f = os.fdopen(os.dup(self._file.fd), "rb")  # the same file, the lock stays ours
        f.seek(0)
        return _KeepingReader(f, self)

    def begin(self) -> None:
        """Ready the output: cut a resumed file after its last complete row (or empty a
        replaced one) and write the header when there is none."""
        if self._file is not None:
            try:
                os.ftruncate(self._file.fd, self._keep)
                os.lseek(self._file.fd, self._keep, os.SEEK_SET)
            except OSError as exc:
                raise self._write_error(exc) from None
        if self._keep == 0:
            self._write(self.header_line.encode())

    def write_rows(self, rows: list[Row]) -> None:
        """Append rows, all or none: a failed write is cut back to the last whole row."""
        self._write("".join(r.csv_line() for r in rows).encode())

    def _write(self, data: bytes) -> None:
        if self._file is None:
            self._write_stream(data)
            return
        fd = self._file.fd
        at = os.lseek(fd, 0, os.SEEK_CUR)
        try:
            write_all(fd, data)
        except OSError as exc:
            try:
                os.ftruncate(fd, at)
                os.lseek(fd, at, os.SEEK_SET)
            except OSError:
                pass  # the reader drops a torn last line anyway
            raise self._write_error(exc) from None
        self.wrote = True

    def _write_stream(self, data: bytes) -> None:
        stream = self._stream
        if stream is None:
            raise ValueError("a CSV output is a file or a stream: it has neither")
        try:
            try:
                fd = stream.fileno()
            except (AttributeError, io.UnsupportedOperation, ValueError):
                stream.write(data.decode())
                stream.flush()
            else:
                stream.flush()
                write_all(fd, data)  # unbuffered: nothing left to fail at exit
        except BrokenPipeError:
            if self._file is None:
                raise  # the reader of standard output went away (| head): not an error
            raise self._write_error(BrokenPipeError()) from None
        except OSError as exc:
            raise self._write_error(exc) from None
        self.wrote = True

    def _write_error(self, exc: OSError) -> BatchError:
        why = exc.strerror or exc
        if self._file is None:
            return BatchError(f"cannot write the CSV to standard output: {why}", "write", "csv")
        return BatchError(f"cannot write the CSV {self.name}: {why}; its complete rows are kept",
                          "write", "csv")

    def close(self) -> None:
        """Release the file; one this run created and never wrote to is removed."""
        if self._file is not None:
            self._file.close(discard=not self.wrote)


class _KeepingReader(CsvReader):
    """A reader whose findings (where complete rows end) become what the output keeps."""

    def __init__(self, f: IO[bytes], out: CsvOutput) -> None:
        super().__init__(f, out.name)
        self._out = out

    def rows(self) -> Iterator[tuple[int, Row]]:
        try:
            yield from super().rows()
        finally:
            self.f.close()
        self._out._keep = self.end if self.header else 0


__all__ = ["HEADER_LINE", "CsvOutput", "CsvReader", "ExistingRows", "read_existing"]
