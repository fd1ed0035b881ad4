"""``python -m tripeaks_solver …``: the ``tripeaks-solve`` command."""

from .console import main

if __name__ == "__main__":
    main()
