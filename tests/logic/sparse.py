"""A sparse puzzle the exact engines are slow on, for the tests of what must not wait for
them (hints, the trial search's guide)."""

from __future__ import annotations

from nurikabe import Puzzle

SPARSE_15 = Puzzle.from_clues(
    15,
    15,
    [
        (0, 3, 19), (0, 11, 1), (1, 9, 8), (1, 12, 2), (3, 13, 1), (4, 8, 1), (5, 11, 1),
        (5, 13, 1), (7, 4, 46), (10, 0, 3), (10, 9, 17), (13, 2, 3), (13, 8, 1), (14, 4, 1),
        (14, 13, 18),
    ],
)  # fmt: skip
"""`bench/solve.py`'s sparse 15x15, seed 0: several solutions, and both the exact solver
and the guide's core take far longer than a hint's time to tell (a second solution is
hard to find; 20,000 of the guide core's nodes take seconds)."""
