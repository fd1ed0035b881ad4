"""Batch analysis: ranges of deals -> rows -> CSV, summary statistics and plots.

The layer between the ``batch`` and ``report`` commands and the solver:

- ``run``: what a batch is asked for (:class:`BatchSpec`), its plan in chunks of deals
  and the run itself (:class:`BatchRun`): rows in deal order, Easy before Classic,
  whatever the number of workers, each chunk written and flushed at once;
- ``rows``: one CSV row (:class:`Row`) and the checks a row read back must pass;
- ``extras``: the columns ``--difficulty`` and ``--player`` add, computed in the
  workers next to the exact solve, and their checks;
- ``csvfile``: the CSV read back line by line (resume, report) and written under a lock,
  or to standard output;
- ``files``: regular files only, lines of bounded length, outputs created atomically
  and locked for the whole run;
- ``summary``: win rates, best scores, fewest draws, the Easy × Classic table, in
  memory bounded by the range;
- ``engines``: local worker processes, or tasks on a Dask cluster (an optional extra);
- ``plots``: the PNG of a summary (an optional extra, matplotlib);
- ``report``: the summary of an existing CSV, without solving.

The package imports none of them, so that ``--help`` and a bad argument start without
loading the solver.

The package is callable: ``tripeaks_solver.batch(start, stop, ...)``, which is
``tp.batch``, is :func:`run.solve_range` (the rows of a range as dicts of the CSV's
columns). A function of that name beside the package in ``tripeaks_solver`` would be
replaced by the package as soon as it is imported.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any


class _CallablePackage(ModuleType):
    def __call__(self, start: int | str, stop: int | str, rules: str | None = None,
                 **options: Any) -> Iterator[dict[str, int | float | bool | str | None]]:
        """``tp.batch``: the rows of deals ``start`` … ``stop`` - 1 under ``rules``
        (``both``, ``easy``, ``classic``; None: both, Easy alone for PySolFC's games,
        ``"pysol:1"``), a dict of the batch CSV's columns each; the
        keyword ``options`` are those of :func:`tripeaks_solver.batch.run.solve_range`."""
        from .run import solve_range  # the solver loads on the first call, not on import

        return solve_range(start, stop, rules, **options)


sys.modules[__name__].__class__ = _CallablePackage
