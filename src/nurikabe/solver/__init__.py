"""Exact solving behind one API: `solve`, `count_solutions`, `iter_solutions`, `forced_cells`.

This package owns the engine registry `ENGINES` and what every engine shares. An
engine is a class constructed as ``Engine(puzzle, limit, *, start=None)`` whose
generator method ``solutions()`` yields full solution boards until the `Limit` is
reached, and which afterwards tells ``complete``, ``limit_hit``, ``nodes`` and
``seconds``. Engines live in their own modules and are imported only when used, so
that ``import nurikabe`` stays fast and OR-Tools is needed only by the CP-SAT engines.

- ``native`` (default): our own exact search, compiled (`solver.compiled` around
  ``_csolve.c``, which the install builds: it is required).
- ``python``: the pure-Python reference engine (`solver.native`): slower and with fewer
  rules, the same answers; a test oracle and a cross-check, not a fallback.
- ``cpsat``: the book chapter's CP-SAT model, as a baseline (`solver.cpsat`, needs the
  ``cpsat`` extra).
- ``cpsat-fast``: the same model with geometrically pruned domains.
- ``portfolio``: ``native`` on the whole limit, joined by ``cpsat-fast`` when it is still
  undecided after a quarter of the time limit, the first to decide winning
  (`solver.portfolio`); its `Stats.engine` says which decided (``portfolio/native``,
  ``portfolio/cpsat-fast``).

Unsolvable, ambiguous and timed-out are results (`Status`), not exceptions.

>>> from nurikabe import Puzzle
>>> p = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])
>>> result = solve(p)
>>> result.status.name, result.difference()
('MULTIPLE', CellSet([...]))

Imports `puzzle`, `grid`, `errors` and `solver.result`.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Protocol

from ..errors import InvalidPuzzleError, NurikabeError
from ..puzzle import Board, CellSet, Puzzle
from .result import Limit, Result, Stats, Status

__all__ = [
    "ENGINES",
    "CountResult",
    "EngineUnavailableError",
    "Forced",
    "Limit",
    "Result",
    "Search",
    "Stats",
    "Status",
    "UnknownEngineError",
    "count_solutions",
    "engine_names",
    "forced_cells",
    "iter_solutions",
    "run_search",
    "solve",
]

ENGINES: dict[str, tuple[str, str]] = {
    "native": ("nurikabe.solver.compiled", "CompiledSearch"),
    "python": ("nurikabe.solver.native", "NativeSearch"),
    "cpsat": ("nurikabe.solver.cpsat", "CpSatSearch"),
    "cpsat-fast": ("nurikabe.solver.cpsat", "FastCpSatSearch"),
    "expand": ("nurikabe.solver.expand", "ExpandSearch"),
    "portfolio": ("nurikabe.solver.portfolio", "PortfolioSearch"),
}
"""Engine name -> (module, class). The first one is the default."""

DEFAULT_ENGINE = "native"

DEFAULT_LIMIT = Limit(solutions=2, seconds=60)
"""What `solve` looks for by default: enough to decide uniqueness, within a minute."""

QUICK_SOLUTIONS = 64
"""How many solutions `forced_cells` enumerates outright before it goes cell by cell."""

COUNT_LIMIT = Limit(solutions=None, seconds=60)
"""What `count_solutions` and `forced_cells` may spend by default."""


class UnknownEngineError(NurikabeError):
    """An engine name that is not in `ENGINES`."""


class EngineUnavailableError(NurikabeError):
    """A known engine whose optional dependency is not installed."""


def engine_names() -> list[str]:
    """The names of every engine, the default first."""
    return list(ENGINES)


class Search(Protocol):
    """What an engine class gives: a solution generator and, afterwards, how it went."""

    complete: bool
    limit_hit: str | None
    nodes: int
    seconds: float

    def solutions(self) -> Iterator[Board]: ...


def _engine_class(engine: str) -> Callable[..., Search]:
    try:
        module_name, class_name = ENGINES[engine]
    except (KeyError, TypeError):
        raise UnknownEngineError(
            f"unknown engine {engine!r} (known: {', '.join(engine_names())})"
        ) from None
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        missing = getattr(exc, "name", None) or ""
        if missing.startswith("ortools"):
            raise EngineUnavailableError(
                f"the {engine} engine needs OR-Tools: pip install 'nurikabe[cpsat]'"
            ) from exc
        if missing == module_name:
            raise EngineUnavailableError(f"the {engine} engine is not built yet") from exc
        raise
    cls: Callable[..., Search] = getattr(module, class_name)
    return cls


def _new_search(puzzle: Puzzle, limit: Limit, start: Board | None, engine: str) -> Search:
    if not isinstance(puzzle, Puzzle):
        hint = " (read it first: Puzzle.from_url(...))" if isinstance(puzzle, str) else ""
        raise InvalidPuzzleError(f"expected a Puzzle, not {type(puzzle).__name__}{hint}")
    return _engine_class(engine)(puzzle, limit, start=start)


def _status(found: int, complete: bool) -> Status:
    if found >= 2:
        return Status.MULTIPLE
    if not complete:
        return Status.UNKNOWN
    return Status.UNIQUE if found == 1 else Status.NONE


def _stats(search: Search, engine: str) -> Stats:
    """The `Stats` of a finished search; an engine of engines (the portfolio) names the
    one that answered, and may add counters of its own (``search.extra``)."""
    answered = getattr(search, "answered_by", None)
    name = f"{engine}/{answered}" if answered else engine
    stats = Stats(engine=name, seconds=search.seconds, nodes=search.nodes)
    stats.extra.update(getattr(search, "extra", {}))
    return stats


def run_search(search: Search, puzzle: Puzzle, limit: Limit | None = None) -> Result:
    """Drain an engine's search into a `Result` (for engines' own ``search`` functions)."""
    solutions = list(search.solutions())
    stats = _stats(search, getattr(search, "engine", ""))
    return Result(
        puzzle,
        _status(len(solutions), search.complete),
        solutions,
        stats,
        complete=search.complete,
        limit_hit=search.limit_hit,
    )


def solve(
    puzzle: Puzzle,
    *,
    limit: Limit = DEFAULT_LIMIT,
    engine: str = DEFAULT_ENGINE,
    start: Board | None = None,
) -> Result:
    """Solve `puzzle`, finding up to ``limit.solutions`` solutions (2 decides uniqueness).

    The status is UNIQUE, MULTIPLE (then `Result.difference()` is the witness),
    NONE, or UNKNOWN when a limit stopped the search before it could tell; the
    solutions found so far are kept either way. `start` is a partial board of
    assumptions (its black and white cells are taken as given), so NONE with a
    `start` means no solution extends it. ``?`` clues are islands of any size.

    >>> from nurikabe import Puzzle
    >>> p = Puzzle.from_grid([[1, 0, 0], [0, 0, 0], [0, 0, 3]])
    >>> r = solve(p)
    >>> r.status.name, r.solution.to_rows(), r.stats.engine
    ('UNIQUE', ['.##', '##.', '#..'], 'native')

    Raises:
        UnknownEngineError: `engine` is no engine name.
        EngineUnavailableError: the engine's optional dependency is missing.
        InvalidPuzzleError: `puzzle` is not a `Puzzle` (a URL string, say).
    """
    search = _new_search(puzzle, limit, start, engine)
    result = run_search(search, puzzle, limit)
    result.stats = _stats(search, engine)
    return result


def iter_solutions(
    puzzle: Puzzle,
    *,
    limit: Limit = Limit(solutions=None, seconds=None),  # noqa: B008 - Limit is frozen
    engine: str = DEFAULT_ENGINE,
    start: Board | None = None,
) -> Iterator[Board]:
    """Yield the solutions of `puzzle` one by one (all of them, unless `limit` says otherwise).

    >>> from nurikabe import Puzzle
    >>> p = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])
    >>> len(list(iter_solutions(p)))
    2

    Raises:
        UnknownEngineError, EngineUnavailableError: as `solve`.
    """
    search = _new_search(puzzle, limit, start, engine)
    yield from search.solutions()


@dataclass
class CountResult(Result):
    """What `count_solutions` found: `count` solutions, exact when `complete`, else a lower bound.

    Only the first `kept` solutions are stored in `solutions` (enough for the witness
    of `difference()`), so counting millions costs no memory.
    """

    total: int = 0
    """Solutions seen."""

    @property
    def count(self) -> int:
        """Solutions seen: exact when `complete`, a lower bound otherwise."""
        return self.total

    def __str__(self) -> str:
        noun = "solution" if self.total == 1 else "solutions"
        if self.complete:
            return f"{self.total} {noun}"
        return f"at least {self.total} {noun} ({self.limit_hit} limit hit)"


def count_solutions(
    puzzle: Puzzle,
    *,
    limit: Limit = COUNT_LIMIT,
    engine: str = DEFAULT_ENGINE,
    start: Board | None = None,
    keep: int | None = 2,
) -> CountResult:
    """Count the solutions of `puzzle`, up to the limit.

    With no limit hit, ``result.count`` is exact and ``result.complete`` is True;
    when a limit stops the count, ``result.count`` is a lower bound,
    ``result.complete`` is False and ``result.limit_hit`` names the limit. The
    status is as for `solve` (MULTIPLE as soon as two are found). Only the first
    `keep` solutions are stored (all of them when `keep` is None).

    >>> from nurikabe import Puzzle, Limit
    >>> p = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])
    >>> r = count_solutions(p)
    >>> r.count, r.complete, r.status.name
    (2, True, 'MULTIPLE')
    >>> r = count_solutions(p, limit=Limit(solutions=1))
    >>> r.count, r.complete, r.limit_hit, str(r)
    (1, False, 'solutions', 'at least 1 solution (solutions limit hit)')

    Raises:
        UnknownEngineError, EngineUnavailableError: as `solve`.
    """
    search = _new_search(puzzle, limit, start, engine)
    kept: list[Board] = []
    total = 0
    for board in search.solutions():
        total += 1
        if keep is None or len(kept) < keep:
            kept.append(board)
    return CountResult(
        puzzle,
        _status(total, search.complete),
        kept,
        _stats(search, engine),
        complete=search.complete,
        limit_hit=search.limit_hit,
        total=total,
    )


@dataclass
class Forced:
    """The cells with the same color in every solution, as `forced_cells` found them.

    Unpacks as ``status, black, white, undetermined``. When `complete` is False a
    limit stopped the work, and the cells in `unresolved` are neither proven forced
    nor shown to differ.
    """

    status: Status
    """UNIQUE, MULTIPLE, NONE, or UNKNOWN when a limit stopped it before two solutions showed up."""
    black: CellSet
    """Cells black in every solution."""
    white: CellSet
    """Cells white in every solution (the clue cells among them)."""
    undetermined: CellSet
    """Cells black in some solution and white in another."""
    unresolved: CellSet
    """Cells a limit kept from being settled (empty when `complete`)."""
    complete: bool = True
    """Whether every cell was settled."""
    solutions: list[Board] = field(default_factory=list)
    """Up to two different solutions (a witness when MULTIPLE)."""
    stats: Stats = field(default_factory=Stats)
    """Time and nodes over all the searches."""

    def __iter__(self) -> Iterator[object]:
        return iter((self.status, self.black, self.white, self.undetermined))


def forced_cells(
    puzzle: Puzzle,
    *,
    limit: Limit = COUNT_LIMIT,
    engine: str = DEFAULT_ENGINE,
) -> Forced:
    """The cells that have the same color in every solution (what a setter needs to see).

    First a short enumeration (up to `QUICK_SOLUTIONS` solutions, on at most half the
    time): when it exhausts the puzzle, the answer is read off the solutions, so a
    unique puzzle costs one solve and its forced cells are the whole solution.
    Otherwise, with S its first solution, for each cell not yet known to vary a search
    with that cell forced to the other color either finds a solution, which marks
    every cell where it differs from S as undetermined, or proves the cell forced.
    With no solution, every set is empty and the status is NONE. ``limit.seconds`` and
    ``limit.nodes`` bound the whole job; ``limit.solutions`` is ignored.

    >>> from nurikabe import Puzzle
    >>> p = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])
    >>> status, black, white, undetermined = forced_cells(p)
    >>> status.name, sorted(black), sorted(white), sorted(undetermined)
    ('MULTIPLE', [2, 4, 6], [0, 8], [1, 3, 5, 7])

    Raises:
        UnknownEngineError, EngineUnavailableError: as `solve`.
    """
    grid = puzzle.grid
    began = time.perf_counter()
    deadline = None if limit.seconds is None else began + limit.seconds
    nodes = 0

    def budget() -> Limit | None:
        remaining = None if deadline is None else deadline - time.perf_counter()
        if remaining is not None and remaining <= 0:
            return None
        left_nodes = None if limit.nodes is None else limit.nodes - nodes
        if left_nodes is not None and left_nodes <= 0:
            return None
        return replace(limit, solutions=1, seconds=remaining, nodes=left_nodes)

    def one(start: Board | None, step_limit: Limit) -> tuple[Board | None, bool]:
        nonlocal nodes
        search = _new_search(puzzle, step_limit, start, engine)
        found = next(iter(search.solutions()), None)
        nodes += search.nodes
        # `complete` is only meaningful when nothing was found.
        return found, found is not None or search.complete

    def finish(
        status: Status, black: int, white: int, varying: int, open_: int, solutions: list[Board]
    ) -> Forced:
        stats = Stats(engine=engine, seconds=time.perf_counter() - began, nodes=nodes)
        return Forced(
            status,
            CellSet(grid, black),
            CellSet(grid, white),
            CellSet(grid, varying),
            CellSet(grid, open_),
            complete=not open_,
            solutions=solutions,
            stats=stats,
        )

    # Step 1: a short enumeration, on at most half the time. It settles a unique puzzle
    # (every cell is forced) or one with few solutions at once, and otherwise seeds step 2
    # with the cells that already vary.
    first_limit = budget()
    if first_limit is None:
        return finish(Status.UNKNOWN, 0, 0, 0, grid.full, [])
    half = None if first_limit.seconds is None else first_limit.seconds / 2
    search = _new_search(
        puzzle, replace(first_limit, solutions=QUICK_SOLUTIONS, seconds=half), None, engine
    )
    found = list(search.solutions())
    nodes += search.nodes
    if not found:
        if search.complete:
            return finish(Status.NONE, 0, 0, 0, 0, [])
        retry = budget()
        first, settled = (None, False) if retry is None else one(None, retry)
        if first is None:
            if settled:
                return finish(Status.NONE, 0, 0, 0, 0, [])
            return finish(Status.UNKNOWN, 0, 0, 0, grid.full, [])
        found = [first]
    first = found[0]
    varying = 0
    for alternative in found[1:]:
        varying |= first.black_mask ^ alternative.black_mask
    solutions = found[:2]
    if search.complete:
        constant = grid.full & ~varying
        return finish(
            Status.UNIQUE if len(found) == 1 else Status.MULTIPLE,
            constant & first.black_mask,
            constant & first.white_mask,
            varying,
            0,
            solutions,
        )

    # Step 2: for each cell not yet seen to vary, look for a solution with it flipped.
    forced = puzzle.clue_mask  # clue cells are white in every solution
    pending = grid.full & ~forced
    while pending:
        cell = (pending & -pending).bit_length() - 1
        bit = 1 << cell
        pending &= ~bit
        if varying & bit:
            continue
        step_limit = budget()
        if step_limit is None:
            pending |= bit
            break
        start = puzzle.empty_board()
        if first.black_mask & bit:
            start.set_white(cell)
        else:
            start.set_black(cell)
        other, settled = one(start, step_limit)
        if other is not None:
            varying |= first.black_mask ^ other.black_mask
            if len(solutions) < 2:
                solutions.append(other)
        elif settled:
            forced |= bit
        else:
            pending |= bit
            break
    open_ = pending & ~varying
    forced &= ~varying
    if varying:
        status = Status.MULTIPLE
    elif open_:
        status = Status.UNKNOWN
    else:
        status = Status.UNIQUE
    return finish(
        status, forced & first.black_mask, forced & first.white_mask, varying, open_, solutions
    )
