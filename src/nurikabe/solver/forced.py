"""`forced_cells`: the cells with the same color in every solution, as a `Result`.

A setter's question (is this cell decided yet?), answered with proof: a short
enumeration first, then one search per cell not yet seen to vary, each with the cell
flipped. The answer is the `Result.forced` board (black where every solution is
black, white where every one is white), with `Result.undetermined` and, when a limit
stopped the work, `Result.unresolved`.

Imports `puzzle`, `solver.result` and `solver.engines`.
"""

from __future__ import annotations

import time

from ..puzzle import Board, CellSet, Puzzle
from .engines import DEFAULT_ENGINE, new_search
from .result import Limit, Result, Stats, Status

__all__ = ["COUNT_LIMIT", "QUICK_SOLUTIONS", "forced_cells"]

QUICK_SOLUTIONS = 64
"""How many solutions `forced_cells` enumerates outright before it goes cell by cell."""

COUNT_LIMIT = Limit(solutions=None, seconds=60)
"""What `count_solutions` and `forced_cells` may spend by default."""


def forced_cells(
    puzzle: Puzzle,
    *,
    limit: Limit = COUNT_LIMIT,
    engine: str = DEFAULT_ENGINE,
) -> Result:
    """The cells that have the same color in every solution (what a setter needs to see),
    as the `Result.forced` board, with `Result.undetermined` and `Result.unresolved`.

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
    >>> r = forced_cells(p)
    >>> r.status.name, sorted(r.black), sorted(r.white), sorted(r.undetermined)
    ('MULTIPLE', [2, 4, 6], [0, 8], [1, 3, 5, 7])
    >>> print(r.forced)
    .?#
    ?#?
    #?.

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
        return limit.replace(solutions=1, seconds=remaining, nodes=left_nodes)

    def one(start: Board | None, step_limit: Limit) -> tuple[Board | None, bool]:
        nonlocal nodes
        search = new_search(puzzle, step_limit, start, engine)
        found = next(iter(search.solutions()), None)
        nodes += search.nodes
        # `complete` is only meaningful when nothing was found.
        return found, found is not None or search.complete

    def finish(
        status: Status, black: int, white: int, varying: int, open_: int, solutions: list[Board]
    ) -> Result:
        stats = Stats(engine=engine, seconds=time.perf_counter() - began, nodes=nodes)
        return Result(
            puzzle,
            status,
            solutions,
            stats,
            complete=not open_,
            forced=Board(puzzle, black, white),
            undetermined=CellSet(grid, varying),
            unresolved=CellSet(grid, open_),
        )

    # Step 1: a short enumeration, on at most half the time. It settles a unique puzzle
    # (every cell is forced) or one with few solutions at once, and otherwise seeds step 2
    # with the cells that already vary.
    first_limit = budget()
    if first_limit is None:
        return finish(Status.UNKNOWN, 0, 0, 0, grid.full, [])
    half = None if first_limit.seconds is None else first_limit.seconds / 2
    search = new_search(
        puzzle, first_limit.replace(solutions=QUICK_SOLUTIONS, seconds=half), None, engine
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
