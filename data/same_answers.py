"""Check a remade batch CSV against the one it replaces: every column but ``states``
and ``seconds`` byte for byte the same, row by row.

    git show HEAD:data/deals-0-9999.csv > /tmp/old.csv
    python3 data/same_answers.py /tmp/old.csv data/deals-0-9999.csv

Prints the rows compared and how many rows' ``states`` changed; exits 1 when any
other cell differs (naming the first few), 2 when the files' headers or row counts do.
"""

from __future__ import annotations

import csv
import sys

FOLLOW_THE_RUN = ("states", "seconds")


def rows(path: str) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def main(old_path: str, new_path: str) -> int:
    old, new = rows(old_path), rows(new_path)
    if not old or old[0] != new[0] or len(old) != len(new):
        print(f"not the same table: headers {old[:1]} and {new[:1]}, "
              f"{len(old)} and {len(new)} lines")
        return 2
    header = old[0]
    skip = {header.index(c) for c in FOLLOW_THE_RUN if c in header}
    states = header.index("states")
    differ = [(n, header[j], a[j], b[j]) for n, (a, b) in enumerate(zip(old, new), 1)
              for j in range(len(header)) if j not in skip and a[j] != b[j]]
    changed = sum(a[states] != b[states] for a, b in zip(old[1:], new[1:], strict=True))
    print(f"{len(old) - 1:,} rows: {len(differ):,} cells differ outside "
          f"{' and '.join(FOLLOW_THE_RUN)}; states changed in {changed:,} rows")
    for n, column, a, b in differ[:5]:
        print(f"  line {n}, {column}: {a!r} -> {b!r}")
    return 1 if differ else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
