"""Exact solving behind one API: `solve`, `count_solutions`, `iter_solutions`, `forced_cells`.

Every answer is a `Result` (`solver.result`). The engine registry `ENGINES` and the
engine protocol live in `solver.engines`; `forced_cells` in `solver.forced`. Engines
live in their own modules and are imported only when used, so that ``import nurikabe``
stays fast and OR-Tools is needed only by the CP-SAT engines.

- ``native`` (default): our own exact search, compiled (`solver.native` around
  ``_csolve.c``, which the install builds: it is required).
- ``reference``: the pure-Python reference engine (`solver.reference`): slower and with fewer
  rules, the same answers; a test oracle and a cross-check, not a fallback.
- ``cpsat``: the book chapter's CP-SAT model, as a baseline (`solver.cpsat`, needs the
  ``cpsat`` extra).
- ``cpsat-fast``: the same model with geometrically pruned domains.
- ``portfolio``: ``native`` on the whole limit, raced at first by a second native search
  in the core's ``lean`` branching order, then by one that learns from conflicts, which
  gives its core to ``cpsat-fast`` (on grids of at most 200 cells) when none has decided
  after half of the time limit; the first to decide wins (`solver.portfolio`); its
  `Stats.engine` says which decided (``portfolio/native``, ``portfolio/lean``,
  ``portfolio/learn``, ``portfolio/cpsat-fast``).

Unsolvable, ambiguous and timed-out are results (`Status`), not exceptions.

>>> from nurikabe import Puzzle
>>> p = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])
>>> result = solve(p)
>>> result.status.name, result.difference()
('MULTIPLE', CellSet([...]))

Imports `puzzle`, `solver.result`, `solver.engines` and `solver.forced`.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..puzzle import Board, Puzzle
from .engines import (
    DEFAULT_ENGINE,
    ENGINES,
    EngineUnavailableError,
    Search,
    UnknownEngineError,
    engine_names,
    new_search,
)
from .forced import COUNT_LIMIT, forced_cells
from .result import CountResult, Limit, Result, Stats, Status

__all__ = [
    "DEFAULT_ENGINE",
    "ENGINES",
    "CountResult",
    "EngineUnavailableError",
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

DEFAULT_LIMIT = Limit(solutions=2, seconds=60)
"""What `solve` looks for by default: enough to decide uniqueness, within a minute."""


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
    search = new_search(puzzle, limit, start, engine)
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
    search = new_search(puzzle, limit, start, engine)
    yield from search.solutions()


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
    search = new_search(puzzle, limit, start, engine)
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
