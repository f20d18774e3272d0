"""Grid geometry on bitsets: cell index <-> (row, col), neighbour masks, bit helpers.

A cell is the int ``r * cols + c``; a set of cells is a Python int with bit *i*
set for cell *i* (a *mask*). The hot code of every engine works on masks, so the
operations here (dilation, flood fill, components, pool detection) are a few
big-int shifts and ands each. Column masks keep horizontal shifts from wrapping
across row ends. Flood fills, which take one such layer after another, and the
dilation, called most of all, run in the compiled `_cgrid` (the same shifts and ands
on 64-bit words).

This module imports only `_cgrid` from the package.

>>> g = Grid.of(3, 4)
>>> g.cell(1, 2), g.coords(6), g.name(6)
(6, (1, 2), 'r2c3')
>>> sorted(bits(g.neighbors[6]))
[2, 5, 7, 10]
>>> g.components(0b1001_0000_0011)
[3, 256, 2048]
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Iterator
from functools import cached_property, lru_cache

from ._cgrid import Dilation as _Dilation
from ._cgrid import cells as _cells
from ._cgrid import components as _components
from ._cgrid import grow as _grow

__all__ = ["MAX_SIDE", "Grid", "bits", "lowest", "popcount"]

MAX_SIDE = 256
"""Largest number of rows or columns the library accepts."""


def bits(mask: int) -> list[int]:
    """The cells of `mask` in increasing order (a list, made in `_cgrid`).

    >>> bits(0b10110)
    [1, 2, 4]
    """
    return _cells(mask)


def _pool_corners(cols: int, not_last_col: int) -> Callable[[int], int]:
    """The pool finder of a grid (see `Grid.pool_corners`): a closure over the grid's
    masks, as the hottest functions of the engines read them faster from there than as
    attributes (a grid pickles as its size, see `Grid.__reduce__`)."""

    def pool_corners(mask: int) -> int:
        pairs = mask & (mask >> 1) & not_last_col
        return pairs & (pairs >> cols)

    return pool_corners


def _lowest_key(mask: int) -> int:
    return (mask & -mask).bit_length()


def lowest(mask: int) -> int:
    """The smallest cell of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def popcount(mask: int) -> int:
    """Number of cells in `mask`."""
    return mask.bit_count()


class Grid:
    """Precomputed geometry of an R x C grid. Get instances with `Grid.of`, which caches them."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows = rows
        self.cols = cols
        self.size = rows * cols
        self.full = (1 << self.size) - 1
        """Mask of every cell."""
        first = 0
        for r in range(rows):
            first |= 1 << (r * cols)
        self.first_col = first
        self.last_col = first << (cols - 1)
        self.not_first_col = self.full & ~first
        self.not_last_col = self.full & ~self.last_col
        self.dilate: Callable[[int], int] = _Dilation(
            cols, self.not_first_col, self.not_last_col, self.full
        )
        """`dilate(mask)`: `mask` together with every orthogonal neighbour of its cells
        (``mask | (mask & not_first_col) >> 1 | (mask & not_last_col) << 1 | mask >> cols
        | (mask << cols) & full``, made in `_cgrid`: the engines' most called function)."""
        self.pool_corners: Callable[[int], int] = _pool_corners(cols, self.not_last_col)
        """`pool_corners(mask)`: top-left cells of the 2x2 blocks lying wholly inside `mask`."""

    @cached_property
    def neighbors(self) -> tuple[int, ...]:
        """Per cell, the mask of its orthogonal neighbours (built on first use)."""
        return tuple(self._neighbors_of(i) for i in range(self.size))

    @staticmethod
    @lru_cache(maxsize=64)
    def of(rows: int, cols: int) -> Grid:
        """The (cached) geometry of a `rows` x `cols` grid."""
        return Grid(rows, cols)

    def __repr__(self) -> str:
        return f"Grid.of({self.rows}, {self.cols})"

    def __reduce__(self) -> tuple[Callable[[int, int], Grid], tuple[int, int]]:
        # A grid pickles as its size (its dilation and pool finder are not picklable).
        return Grid.of, (self.rows, self.cols)

    def _neighbors_of(self, i: int) -> int:
        r, c = divmod(i, self.cols)
        m = 0
        if r > 0:
            m |= 1 << (i - self.cols)
        if r < self.rows - 1:
            m |= 1 << (i + self.cols)
        if c > 0:
            m |= 1 << (i - 1)
        if c < self.cols - 1:
            m |= 1 << (i + 1)
        return m

    # -- coordinates ---------------------------------------------------------------------------

    def cell(self, r: int, c: int) -> int:
        """The index of the cell at 0-based row `r`, column `c`."""
        return r * self.cols + c

    def coords(self, i: int) -> tuple[int, int]:
        """The 0-based (row, col) of cell `i`."""
        return divmod(i, self.cols)

    def name(self, i: int) -> str:
        """The 1-based name of cell `i` for people, like ``r4c3``."""
        r, c = divmod(i, self.cols)
        return f"r{r + 1}c{c + 1}"

    def contains(self, r: int, c: int) -> bool:
        """Whether (r, c) lies on the grid."""
        return 0 <= r < self.rows and 0 <= c < self.cols

    def mask_of(self, cells: Iterator[int] | list[int] | tuple[int, ...] | set[int]) -> int:
        """The mask of an iterable of cell indices."""
        m = 0
        for i in cells:
            m |= 1 << i
        return m

    # -- set operations ------------------------------------------------------------------------

    def border(self, mask: int) -> int:
        """The cells outside `mask` that touch it (its neighbourhood)."""
        return self.dilate(mask) & ~mask

    def flood(self, seed: int, within: int) -> int:
        """The cells of `within` connected to `seed` through `within` (`seed` itself included)."""
        region = seed & within
        if not region:
            return 0
        return self._grow(region, within, within & self.not_last_col, within & self.not_first_col)

    def spread(self, region: int, within: int, steps: int) -> int:
        """`region` with the cells of `within` it reaches through `within` in at most
        `steps` steps (a flood that stops after `steps` layers; none when `steps` <= 0).

        >>> g = Grid.of(1, 5)
        >>> bin(g.spread(0b1, 0b11110, 2))
        '0b111'
        """
        if steps <= 0:
            return region
        west, east = within & self.not_last_col, within & self.not_first_col
        return self._grow(region, within, west, east, steps)

    def _grow(self, region: int, within: int, west: int, east: int, steps: int = -1) -> int:
        """`region` and the cells of `within` it reaches within `steps` steps (-1: no limit);
        `west` and `east` are the cells of `within` off the last and off the first column
        (the targets of a step west and east). Layer by layer, in `_cgrid`'s words."""
        return _grow(region, within, west, east, self.cols, steps)

    def components(self, mask: int) -> list[int]:
        """The 4-connected components of `mask`, ordered by their smallest cell."""
        return _components(mask, mask & self.not_last_col, mask & self.not_first_col, self.cols)

    def joined(self, parts: list[int], added: int) -> list[int]:
        """The components of the cells of `parts` and `added` together, ordered by their
        smallest cell, given that `parts` are the components of a mask, in that order.

        Parts that touch no added cell stay as they are, in their order, and the others
        join through the added cells only, so when a few cells are added to a mask this
        does far less work than `components` of the whole; the joined parts are put in
        their places by bisection.
        """
        if not added:
            return list(parts)
        near = self.dilate(added)
        kept: list[int] = []
        touched: list[int] = []
        for part in parts:
            (touched if part & near else kept).append(part)
        groups: list[int] = []
        for piece in self.components(added):
            around = self.dilate(piece)
            group = piece
            for part in touched:
                if part & around:
                    group |= part
            # Two pieces touching one part end in one group.
            rest = []
            for other in groups:
                if other & group:
                    group |= other
                else:
                    rest.append(other)
            rest.append(group)
            groups = rest
        for group in groups:
            insort(kept, group, key=_lowest_key)
        return kept

    def is_connected(self, mask: int) -> bool:
        """Whether `mask` is empty or one 4-connected piece."""
        return not mask or self.flood(mask & -mask, mask) == mask

    def block(self, corner: int) -> int:
        """The 2x2 block whose top-left cell is `corner`."""
        return 0b11 << corner | 0b11 << (corner + self.cols)

    def pool_cells(self, mask: int) -> int:
        """Every cell of `mask` that belongs to some 2x2 block lying wholly inside `mask`."""
        corners = self.pool_corners(mask)
        right = corners << 1
        return corners | right | (corners << self.cols) | (right << self.cols)
