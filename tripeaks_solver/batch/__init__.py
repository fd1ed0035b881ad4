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
"""
