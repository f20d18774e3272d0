"""Island shapes: how many islands of k cells can contain a given cell (the thesis's figure 8).

An island of k cells through a fixed cell is a fixed polyomino (a shape up to
translation) placed over that cell. Three positions are counted, as in the thesis:

- *free*: the cell far from any wall, so every placement fits: k times the number of
  fixed polyominoes of k cells;
- *wall*: the cell next to one wall (the island stays on one side of a line through the
  cell's edge): per polyomino, the number of its cells in its first row;
- *corner*: the cell in a corner: the polyominoes that hold their own corner cell
  (first row and first column).

The compiled core runs Redelmeier's algorithm, which generates each fixed polyomino
once; `shape_counts_python` is an independent, slow twin that grows and normalises
shapes as sets of cells, for checking up to k = 9 or so.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import NurikabeError

__all__ = ["THESIS_TABLE", "ShapeCount", "ShapeError", "shape_counts", "shape_counts_python"]

THESIS_TABLE = {
    "free": (1, 4, 18, 76, 315, 1296, 5320, 21800, 89190),
    "wall": (1, 3, 10, 33, 112, 391, 1394, 5094, 18485),
    "corner": (1, 2, 5, 13, 37, 112, 353, 1146, 3811),
}
"""The thesis's figure 8 as published, k = 1..9 (its wall entry for k = 8 is a misprint:
5,046 is right, see docs/research.md)."""

MAX_SIZE = 20


class ShapeError(NurikabeError):
    """A shape size outside 1..20."""


@dataclass(frozen=True)
class ShapeCount:
    """The number of islands of `k` cells through a cell that is free, by a wall, in a corner."""

    k: int
    free: int
    wall: int
    corner: int

    @property
    def fixed(self) -> int:
        """The number of fixed polyominoes of k cells."""
        return self.free // self.k


def shape_counts(max_size: int) -> list[ShapeCount]:
    """Counts for k = 1..max_size.

    >>> [(s.free, s.wall, s.corner) for s in shape_counts(3)]
    [(1, 1, 1), (4, 3, 2), (18, 10, 5)]

    Raises:
        ShapeError: `max_size` outside 1..20.
    """
    if not 1 <= max_size <= MAX_SIZE:
        raise ShapeError(f"shape size {max_size}: must be 1..{MAX_SIZE}")
    from . import _cenum

    return [ShapeCount(k, *row) for k, row in enumerate(_cenum.shapes(max_size), 1)]


Shape = frozenset[tuple[int, int]]


def _normalise(cells: set[tuple[int, int]] | Shape) -> Shape:
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return frozenset((r - top, c - left) for r, c in cells)


def shape_counts_python(max_size: int) -> list[ShapeCount]:
    """The same counts by growing every fixed polyomino as a set of cells (slow; k <= ~10).

    >>> [s.wall for s in shape_counts_python(4)]
    [1, 3, 10, 33]
    """
    if not 1 <= max_size <= MAX_SIZE:
        raise ShapeError(f"shape size {max_size}: must be 1..{MAX_SIZE}")
    out = []
    level: set[Shape] = {frozenset({(0, 0)})}
    for k in range(1, max_size + 1):
        free = wall = corner = 0
        for shape in level:
            free += k
            wall += sum(1 for r, _ in shape if r == 0)
            corner += (0, 0) in shape
        out.append(ShapeCount(k, free, wall, corner))
        if k < max_size:
            level = {
                _normalise(shape | {cell})
                for shape in level
                for r, c in shape
                for cell in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
                if cell not in shape
            }
    return out
