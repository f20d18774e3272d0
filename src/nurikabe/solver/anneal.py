"""Solutions of sparse puzzles found by local search: the annealer that races the native search.

A puzzle with few clues and big islands often has many solutions, yet depth-first search
(learning and restarts included) can spend seconds before it meets its first: each wrong
early choice of an island's shape sends it through a huge subtree of boards that fail
far below. Local search does not commit to choices. `Annealer` keeps a whole shading and
changes one cell at a time: every island holds its clue, stays connected and never
touches another island; what may still be wrong is counted as a cost (islands of the
wrong size, 2x2 pools, a sea in pieces), and moves that raise it are taken with a
probability that falls as the search cools (simulated annealing). A shading of cost 0 is
a solution, checked whole before it is handed back.

It can only ever find solutions, never prove there are no more, so it is a helper of an
exact search, not an engine: `NativeSearch` runs it in turns beside its depth-first
searches (`native.ANNEAL`) and counts what it finds with theirs. Work is counted in
moves, never in time, and the random numbers come from a fixed seed, so the same puzzle
gives the same turns on every machine.

Imports `errors`, `grid` and `puzzle`, and `rules` when it meets a solution (a solve
loads it no sooner: tests/test_package.py).
"""

from __future__ import annotations

import math
import random

from ..errors import InvalidPuzzleError
from ..grid import bits, popcount
from ..puzzle import UNKNOWN_CLUE, Board, Puzzle

__all__ = ["SEED", "Annealer"]

SEED = 2026
"""The seed of the annealer's random numbers (fixed: the same puzzle, the same moves)."""

START_HEAT = 2.0
"""The temperature a run starts (and restarts) from: a move that costs 2 more is taken
with probability 1/e."""

COOLING = 0.9995
"""The temperature's factor after each move made (and kept or undone)."""

COLDEST = 0.05
"""The temperature never falls below this."""

REHEAT_EVERY = 20_000
"""Moves between reheats to `START_HEAT / 2` (a cold search stuck in a valley gets out)."""

SIZE_WEIGHT = 2
"""Cost of each cell an island has too many or too few."""

SEA_WEIGHT = 2
"""Cost of each sea component beyond the first."""


class Annealer:
    """A local search for solutions of `puzzle` (numbered clues only; see `applies`).

    `run(moves)` goes on from where the last run stopped and returns the solutions it
    met that were not met before (black masks). Every one is a solution of the puzzle:
    the islands' shapes are kept valid, and a shading of cost 0 is checked against the
    rules before it counts.
    """

    def __init__(self, puzzle: Puzzle, seed: int = SEED) -> None:
        if not self.applies(puzzle):
            raise InvalidPuzzleError("the annealer needs a puzzle with numbered clues only")
        self.puzzle = puzzle
        grid = puzzle.grid
        self.grid = grid
        self.rng = random.Random(seed)
        clues = sorted(puzzle.clues.items())
        self.values = [value for _, value in clues]
        self.islands = [1 << cell for cell, _ in clues]
        """Each clue's island (a mask), in the order of the clue cells."""
        self.clue_mask = puzzle.clue_mask
        self.heat = START_HEAT
        self.moves = 0
        """Moves tried in all runs."""
        self.found: set[int] = set()
        """The black masks of the solutions met so far."""
        self.white = puzzle.clue_mask
        """The white cells: the islands' union."""
        self._grow_first()
        self.sizes = sum(
            abs(popcount(island) - value)
            for island, value in zip(self.islands, self.values, strict=True)
        )
        """Cells the islands have too many or too few, in all."""
        self.cost = SIZE_WEIGHT * self.sizes + self._sea_cost(self.white)
        """The current shading's cost (0: a solution)."""

    @staticmethod
    def applies(puzzle: Puzzle) -> bool:
        """Whether the annealer can search `puzzle`: at least one clue, none of them ``?``
        (an island of unknown size has no size to aim at)."""
        values = list(puzzle.clues.values())
        return bool(values) and UNKNOWN_CLUE not in values

    def _room(self, n: int) -> int:
        """The sea cells island `n` may take: next to it, touching no other island."""
        grid = self.grid
        island = self.islands[n]
        others = self.white & ~island
        return grid.border(island) & ~self.white & ~grid.dilate(others)

    def _grow_first(self) -> None:
        """Grow the islands from their clues at random, none beyond its size."""
        rng = self.rng
        count = len(self.islands)
        for _ in range(10 * self.grid.size):
            n = rng.randrange(count)
            if popcount(self.islands[n]) >= self.values[n]:
                continue
            room = self._room(n)
            if room:
                cell = 1 << rng.choice(list(bits(room)))
                self.islands[n] |= cell
                self.white |= cell

    def _sea_cost(self, white: int) -> int:
        """The cost of the sea of a shading with these white cells: its 2x2 pools and
        its components beyond the first."""
        grid = self.grid
        sea = grid.full & ~white
        pools = popcount(grid.pool_corners(sea))
        pieces = len(grid.components(sea)) - 1 if sea else 0
        return pools + SEA_WEIGHT * pieces

    def _move(self) -> tuple[int, int] | None:
        """A random island and its new shape (one cell more or less), or None."""
        rng = self.rng
        n = rng.randrange(len(self.islands))
        island = self.islands[n]
        size, value = popcount(island), self.values[n]
        if size < value or (size <= value and rng.random() < 0.5):
            room = self._room(n)
            if not room:
                return None
            return n, island | 1 << rng.choice(list(bits(room)))
        cells = island & ~self.clue_mask
        if not cells:
            return None
        shrunk = island & ~(1 << rng.choice(list(bits(cells))))
        if not self.grid.is_connected(shrunk):
            return None
        return n, shrunk

    def run(self, moves: int) -> list[int]:
        """Try `moves` moves; the black masks of the solutions met for the first time."""
        rng = self.rng
        values = self.values
        met = []
        for _ in range(moves):
            self.moves += 1
            if self.moves % REHEAT_EVERY == 0:
                self.heat = START_HEAT / 2
            move = self._move()
            if move is None:
                continue
            self.heat = max(COLDEST, self.heat * COOLING)
            n, shape = move
            old = self.islands[n]
            value = values[n]
            sizes = self.sizes - abs(popcount(old) - value) + abs(popcount(shape) - value)
            white = self.white ^ old ^ shape
            cost = SIZE_WEIGHT * sizes + self._sea_cost(white)
            rise = cost - self.cost
            if rise > 0 and rng.random() >= math.exp(-rise / self.heat):
                continue
            self.islands[n] = shape
            self.white, self.sizes, self.cost = white, sizes, cost
            if cost == 0:
                black = self.grid.full & ~white
                if black not in self.found and self._valid(black):
                    self.found.add(black)
                    met.append(black)
        return met

    def _valid(self, black: int) -> bool:
        """Whether the shading with these black cells solves the puzzle (the rules'
        own check, so that nothing the search keeps track of is taken on trust; loaded
        here, so that a solve that never meets a solution here loads no more)."""
        from ..rules import is_solved

        puzzle = self.puzzle
        board = Board(puzzle, black, puzzle.grid.full & ~black)
        return is_solved(puzzle, board, all_decided=True)
