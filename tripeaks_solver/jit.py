"""numba's ``njit`` for the kernels (placeholder until the cache-handling version lands)."""

from numba import njit

__all__ = ["njit"]
