"""Grids for the property tests of the compiled walks: rows across 64-bit words, or tall
and thin, with a seeded source of random masks (grids of hundreds of cells are drawn from
a seed, not cell by cell)."""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import strategies as st

from nurikabe.grid import Grid


def wide_grid(draw: st.DrawFn) -> tuple[Grid, Callable[[float], int], random.Random]:
    """A grid of one to a few 64-bit words a row (or a tall thin one), a function giving a
    random mask of it with cells taken at a density, and the seeded generator behind it."""
    if draw(st.booleans()):
        grid = Grid.of(draw(st.integers(1, 6)), draw(st.integers(1, 140)))
    else:
        grid = Grid.of(draw(st.integers(2, 90)), draw(st.integers(1, 4)))
    rng = random.Random(draw(st.integers(0, 2**32)))

    def mask(density: float) -> int:
        return grid.mask_of([i for i in range(grid.size) if rng.random() < density])

    return grid, mask, rng
