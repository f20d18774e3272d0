"""The value objects every engine shares: `Limit`, `Status`, `Stats`, `Result`
(and `CountResult`, what `count_solutions` gives), and `SearchBase`.

Plain classes rather than dataclasses: `dataclasses` imports `inspect` and `ast`, a few
milliseconds of every ``nurikabe solve`` process (docs/solver.md, start-up).

Imports only `puzzle`.
"""

from __future__ import annotations

import enum

from ..puzzle import Board, CellSet, Puzzle

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing typing
if TYPE_CHECKING:
    from types import EllipsisType

__all__ = ["CountResult", "Limit", "Result", "SearchBase", "Stats", "Status"]


class Limit:
    """How far a search may go. Any field left None is unbounded. Immutable and hashable.

    >>> Limit(solutions=2, seconds=10)
    Limit(solutions=2, seconds=10, nodes=None)
    >>> Limit(seconds=10).replace(nodes=500)
    Limit(solutions=2, seconds=10, nodes=500)
    """

    __slots__ = ("nodes", "seconds", "solutions")

    solutions: int | None
    """Stop after finding this many solutions (2 is enough to decide uniqueness)."""
    seconds: float | None
    """Stop after this much wall-clock time."""
    nodes: int | None
    """Stop after this many search nodes."""

    def __init__(
        self, solutions: int | None = 2, seconds: float | None = 60.0, nodes: int | None = None
    ) -> None:
        object.__setattr__(self, "solutions", solutions)
        object.__setattr__(self, "seconds", seconds)
        object.__setattr__(self, "nodes", nodes)

    def replace(
        self,
        *,
        solutions: int | EllipsisType | None = ...,
        seconds: float | EllipsisType | None = ...,
        nodes: int | EllipsisType | None = ...,
    ) -> Limit:
        """A copy with the fields given set to new values (``...`` keeps a field)."""
        return Limit(
            self.solutions if solutions is ... else solutions,
            self.seconds if seconds is ... else seconds,
            self.nodes if nodes is ... else nodes,
        )

    def _key(self) -> tuple[int | None, float | None, int | None]:
        return (self.solutions, self.seconds, self.nodes)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a Limit (it is immutable)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a Limit (it is immutable)")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Limit)
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple[type[Limit], tuple[int | None, float | None, int | None]]:
        return (Limit, self._key())

    def __repr__(self) -> str:
        return (
            f"Limit(solutions={self.solutions!r}, seconds={self.seconds!r}, nodes={self.nodes!r})"
        )


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


class Stats:
    """How a search went."""

    __slots__ = ("engine", "extra", "nodes", "seconds")

    engine: str
    """Name of the engine that ran."""
    seconds: float
    """Wall-clock time of the search."""
    nodes: int
    """Search nodes (branching points) visited."""
    extra: dict[str, float]
    """Engine-specific counters."""

    def __init__(
        self,
        engine: str = "",
        seconds: float = 0.0,
        nodes: int = 0,
        extra: dict[str, float] | None = None,
    ) -> None:
        self.engine = engine
        self.seconds = seconds
        self.nodes = nodes
        self.extra = {} if extra is None else extra

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Stats)
        return (self.engine, self.seconds, self.nodes, self.extra) == (
            other.engine,
            other.seconds,
            other.nodes,
            other.extra,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (
            f"Stats(engine={self.engine!r}, seconds={self.seconds!r}, nodes={self.nodes!r},"
            f" extra={self.extra!r})"
        )


class Result:
    """What a search found.

    `solutions` holds up to `Limit.solutions` full boards. `complete` is True when
    the search space was exhausted, so `count` is exact; when it is False, `count`
    is a lower bound.

    A result of `forced_cells` also has the cells with the same color in every
    solution: `forced` (a board whose black and white cells are those; None for other
    results), with `undetermined` (black in one solution, white in another) and
    `unresolved` (cells a limit kept from being settled).
    """

    puzzle: Puzzle
    status: Status
    solutions: list[Board]
    stats: Stats
    complete: bool
    """Whether the search covered every possibility (the solution count is exact)."""
    limit_hit: str | None
    """Which limit stopped the search: ``"solutions"``, ``"seconds"`` or ``"nodes"``."""
    forced: Board | None
    """From `forced_cells`: black where every solution is black, white where every one is
    white (clue cells included), unknown elsewhere."""
    undetermined: CellSet
    """From `forced_cells`: the cells black in some solution and white in another (empty
    for other results)."""
    unresolved: CellSet
    """From `forced_cells`: the cells a limit kept from being settled (empty when
    `complete`, and for other results)."""

    def __init__(
        self,
        puzzle: Puzzle,
        status: Status,
        solutions: list[Board] | None = None,
        stats: Stats | None = None,
        *,
        complete: bool = True,
        limit_hit: str | None = None,
        forced: Board | None = None,
        undetermined: CellSet | None = None,
        unresolved: CellSet | None = None,
    ) -> None:
        self.puzzle = puzzle
        self.status = status
        self.solutions = [] if solutions is None else solutions
        self.stats = Stats() if stats is None else stats
        self.complete = complete
        self.limit_hit = limit_hit
        self.forced = forced
        none = CellSet(puzzle.grid, 0)
        self.undetermined = none if undetermined is None else undetermined
        self.unresolved = none if unresolved is None else unresolved

    @property
    def count(self) -> int:
        """Solutions found (exact when `complete`)."""
        return len(self.solutions)

    @property
    def solution(self) -> Board | None:
        """The solution when it is unique, else None."""
        return self.solutions[0] if self.status is Status.UNIQUE else None

    @property
    def black(self) -> CellSet:
        """From `forced_cells`: the cells black in every solution (empty for other results)."""
        mask = 0 if self.forced is None else self.forced.black_mask
        return CellSet(self.puzzle.grid, mask)

    @property
    def white(self) -> CellSet:
        """From `forced_cells`: the cells white in every solution (empty for other results)."""
        mask = 0 if self.forced is None else self.forced.white_mask
        return CellSet(self.puzzle.grid, mask)

    def difference(self) -> CellSet:
        """For two or more solutions: the cells where the first two differ (a witness)."""
        grid = self.puzzle.grid
        if len(self.solutions) < 2:
            return CellSet(grid, 0)
        a, b = self.solutions[0], self.solutions[1]
        return CellSet(grid, a.black_mask ^ b.black_mask)

    def _fields(self) -> tuple[object, ...]:
        return (
            self.puzzle,
            self.status,
            self.solutions,
            self.stats,
            self.complete,
            self.limit_hit,
            self.forced,
            self.undetermined,
            self.unresolved,
        )

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Result)
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(status={self.status}, count={self.count},"
            f" complete={self.complete}, limit_hit={self.limit_hit!r}, stats={self.stats!r})"
        )


class CountResult(Result):
    """What `count_solutions` found: `count` solutions, exact when `complete`, else a lower bound.

    Only the first `kept` solutions are stored in `solutions` (enough for the witness
    of `difference()`), so counting millions costs no memory.
    """

    total: int
    """Solutions seen."""

    def __init__(
        self,
        puzzle: Puzzle,
        status: Status,
        solutions: list[Board] | None = None,
        stats: Stats | None = None,
        *,
        complete: bool = True,
        limit_hit: str | None = None,
        total: int = 0,
    ) -> None:
        super().__init__(puzzle, status, solutions, stats, complete=complete, limit_hit=limit_hit)
        self.total = total

    @property
    def count(self) -> int:
        """Solutions seen: exact when `complete`, a lower bound otherwise."""
        return self.total

    def _fields(self) -> tuple[object, ...]:
        return (*super()._fields(), self.total)

    def __str__(self) -> str:
        noun = "solution" if self.total == 1 else "solutions"
        if self.complete:
            return f"{self.total} {noun}"
        return f"at least {self.total} {noun} ({self.limit_hit} limit hit)"


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
