"""The value objects every engine shares: `Limit`, `Status`, `Stats`, `Result`.

Imports only `puzzle` and `grid`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from ..puzzle import Board, CellSet, Puzzle

__all__ = ["Limit", "Result", "SearchBase", "Stats", "Status"]


@dataclass(frozen=True)
class Limit:
    """How far a search may go. Any field left None is unbounded.

    >>> Limit(solutions=2, seconds=10)
    Limit(solutions=2, seconds=10, nodes=None)
    """

    solutions: int | None = 2
    """Stop after finding this many solutions (2 is enough to decide uniqueness)."""
    seconds: float | None = 60.0
    """Stop after this much wall-clock time."""
    nodes: int | None = None
    """Stop after this many search nodes."""


class Status(enum.Enum):
    """The four outcomes of a search."""

    UNIQUE = "unique"
    """Exactly one solution, proven."""
    MULTIPLE = "multiple"
    """Two or more solutions (the count may be a lower bound, see `Result.complete`)."""
    NONE = "none"
    """No solution, proven."""
    UNKNOWN = "unknown"
    """A limit was hit before anything could be proven (solutions found so far are kept)."""


@dataclass
class Stats:
    """How a search went."""

    engine: str = ""
    """Name of the engine that ran."""
    seconds: float = 0.0
    """Wall-clock time of the search."""
    nodes: int = 0
    """Search nodes (branching points) visited."""
    extra: dict[str, float] = field(default_factory=dict)
    """Engine-specific counters."""


@dataclass
class Result:
    """What a search found.

    `solutions` holds up to `Limit.solutions` full boards. `complete` is True when
    the search space was exhausted, so `count` is exact; when it is False, `count`
    is a lower bound.
    """

    puzzle: Puzzle
    status: Status
    solutions: list[Board] = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)
    complete: bool = True
    """Whether the search covered every possibility (the solution count is exact)."""
    limit_hit: str | None = None
    """Which limit stopped the search: ``"solutions"``, ``"seconds"`` or ``"nodes"``."""

    @property
    def count(self) -> int:
        """Solutions found (exact when `complete`)."""
        return len(self.solutions)

    @property
    def solution(self) -> Board | None:
        """The solution when it is unique, else None."""
        return self.solutions[0] if self.status is Status.UNIQUE else None

    def difference(self) -> CellSet:
        """For two or more solutions: the cells where the first two differ (a witness)."""
        grid = self.puzzle.grid
        if len(self.solutions) < 2:
            return CellSet(grid, 0)
        a, b = self.solutions[0], self.solutions[1]
        return CellSet(grid, a.black_mask ^ b.black_mask)


class SearchBase:
    """What every engine class keeps: its inputs, and afterwards how the search went.

    Engines (see `solver.Search`) subclass it and add their own counters.
    """

    engine = ""
    """The engine's name, for `Stats.engine`."""

    def __init__(self, puzzle: Puzzle, limit: Limit, *, start: Board | None = None) -> None:
        self.puzzle = puzzle
        self.limit = limit
        self.start = start
        """A partial board whose black and white cells are taken as given, or None."""
        self.complete = False
        """Whether the whole space was searched (the solutions found are all there are)."""
        self.limit_hit: str | None = None
        """Which limit stopped the search: ``"solutions"``, ``"seconds"`` or ``"nodes"``."""
        self.nodes = 0
        """Search nodes (for CP-SAT: branches over all solves)."""
        self.seconds = 0.0
        """Wall-clock time spent inside the search."""
