"""The thesis's solver as an engine: island expansion (``expand``).

Each island grows from its clue cell through its neighbourhood, one cell at a time,
until it has its size; a cell already tried at a level is never tried again below it
(Redelmeier's rule), so each shape of each island is generated exactly once. Islands are
placed one after another, each kept off the cells of the islands already placed, of the
other clues and of their neighbours; the cells left over are the sea, and a board is a
solution when the sea is connected and has no 2x2 pool. One pruning is added to the
thesis's brute force: after each island, a 2x2 block that no placed island covers and no
island still to place can reach would be a pool, so the branch is dropped.

Every configuration is visited, so the engine finds ALL solutions and counts them, as the
thesis's did; it is exponential in the islands' sizes and meant for small puzzles and for
comparison with the default engine (bench/research.py). Puzzles with ``?`` clues are not
taken (`ExpandError`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from ..errors import NurikabeError
from ..limits import OutOfBudget, OutOfTime
from ..puzzle import UNKNOWN_CLUE, Board, Puzzle
from .result import Limit, SearchBase

__all__ = ["ExpandError", "ExpandSearch"]


class ExpandError(NurikabeError):
    """A puzzle the island-expansion engine cannot take (a ``?`` clue)."""


class ExpandSearch(SearchBase):
    """Every solution of `puzzle` by island expansion, within `limit`.

    >>> p = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])
    >>> s = ExpandSearch(p, Limit(solutions=None))
    >>> sorted(str(b).replace("\\n", "/") for b in s.solutions()), s.complete
    (['.##/.#./##.', '..#/###/#..'], True)
    """

    engine = "expand"

    def __init__(self, puzzle: Puzzle, limit: Limit, *, start: Board | None = None) -> None:
        super().__init__(puzzle, limit, start=start)
        if any(v == UNKNOWN_CLUE for v in puzzle.clues.values()):
            raise ExpandError("the expand engine does not take '?' clues")
        grid = puzzle.grid
        self._nbrs = grid.neighbors
        self._cells = [[i for i in range(grid.size) if m >> i & 1] for m in self._nbrs]
        self._pools = [
            (1 | 2 | 1 << grid.cols | 2 << grid.cols) << (r * grid.cols + c)
            for r in range(grid.rows - 1)
            for c in range(grid.cols - 1)
        ]
        self._deadline: float | None = None

    def _ball(self, cell: int, radius: int, allowed: int) -> int:
        """The cells of `allowed` within `radius` steps of `cell` through `allowed`."""
        reach = 1 << cell
        frontier = reach
        for _ in range(radius):
            grown = 0
            m = frontier
            while m:
                low = m & -m
                grown |= self._nbrs[low.bit_length() - 1]
                m ^= low
            frontier = grown & allowed & ~reach
            if not frontier:
                break
            reach |= frontier
        return reach

    def _around(self, mask: int) -> int:
        out = mask
        m = mask
        while m:
            low = m & -m
            out |= self._nbrs[low.bit_length() - 1]
            m ^= low
        return out

    def _connected(self, region: int) -> bool:
        if not region:
            return True
        reach = region & -region
        while True:
            grown = self._around(reach) & region
            if grown == reach:
                return reach == region
            reach = grown

    def _shapes(self, seed: int, size: int, allowed: int) -> Iterator[int]:
        """Each connected set of `size` cells of `allowed` holding `seed`, once."""
        cells = self._cells

        def grow(island: int, untried: list[int], seen: int, k: int) -> Iterator[int]:
            untried = list(untried)
            while untried:
                cell = untried.pop()
                placed = island | 1 << cell
                self.nodes += 1
                if k + 1 == size:
                    yield placed
                    continue
                more = list(untried)
                now = seen
                for d in cells[cell]:
                    if allowed >> d & 1 and not now >> d & 1:
                        now |= 1 << d
                        more.append(d)
                yield from grow(placed, more, now, k + 1)

        yield from grow(0, [seed], 1 << seed, 0)

    def solutions(self) -> Iterator[Board]:
        """Yield solution boards until the space or the limit runs out."""
        began = time.perf_counter()
        puzzle = self.puzzle
        full = puzzle.grid.full
        limit = self.limit
        if limit.seconds is not None:
            self._deadline = began + limit.seconds
        given_black = self.start.black_mask if self.start is not None else 0
        given_white = self.start.white_mask if self.start is not None else 0
        clues = sorted(puzzle.clues.items())
        clue_mask = sum(1 << cell for cell, _ in clues)
        wanted = limit.solutions
        found = 0
        if wanted is not None and wanted <= 0:
            self.limit_hit = "solutions"
            return
        if sum(v for _, v in clues) > puzzle.grid.size or given_black & clue_mask:
            self.complete = True
            return
        try:
            for white in self._place(clues, 0, 0, full & ~given_black, clue_mask):
                black = full & ~white
                if given_white & ~white:
                    continue
                if any(black & pool == pool for pool in self._pools):
                    continue
                if not self._connected(black):
                    continue
                found += 1
                self.seconds += time.perf_counter() - began
                yield Board(puzzle, black, white)
                began = time.perf_counter()
                if wanted is not None and found >= wanted:
                    self.limit_hit = "solutions"
                    return
            self.complete = True
        except OutOfBudget:
            self.limit_hit = "nodes"
        except OutOfTime:
            self.limit_hit = "seconds"
        finally:
            self.seconds += time.perf_counter() - began

    def _place(
        self, clues: list[tuple[int, int]], i: int, white: int, free: int, clue_mask: int
    ) -> Iterator[int]:
        """Every placement of islands i.. given the white cells of those placed so far."""
        if i == len(clues):
            yield white
            return
        self._check_limits()
        cell, size = clues[i]
        if not free >> cell & 1:  # next to a placed island, or given black
            return
        others = clue_mask & ~(1 << cell)
        allowed = free & ~self._around(others) | (1 << cell)
        for island in self._shapes(cell, size, allowed):
            rest_free = free & ~self._around(island)
            placed = white | island
            if self._pool_certain(clues, i + 1, placed, rest_free):
                continue
            yield from self._place(clues, i + 1, placed, rest_free, clue_mask)

    def _pool_certain(self, clues: list[tuple[int, int]], i: int, white: int, free: int) -> bool:
        """Whether some 2x2 block is bound to be black: no island covers or can reach it."""
        cover = white
        for cell, size in clues[i:]:
            cover |= self._ball(cell, size - 1, free | 1 << cell)
        return any(not pool & cover for pool in self._pools)

    def _check_limits(self) -> None:
        """Raise `OutOfBudget` at `Limit.nodes` nodes, `OutOfTime` past `Limit.seconds`."""
        limit = self.limit
        if limit.nodes is not None and self.nodes >= limit.nodes:
            raise OutOfBudget
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise OutOfTime
