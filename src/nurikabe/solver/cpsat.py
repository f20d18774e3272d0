"""The CP-SAT engines: Nurikabe as a constraint model for Google OR-Tools (an optional extra).

This module owns two engines behind the common search interface (see `nurikabe.solver`):

``cpsat``
    The formulation of the book chapter (background.md A), exactly as described there,
    kept as the baseline the native engine is compared with:

    - a region *label* per cell, 0 for the sea and *k* for the island of clue *k*
      (clues are numbered 1..K in cell order), with a *sea* boolean per cell that is
      true exactly when the label is 0;
    - a *distance* integer per cell (a BFS-like depth in the region's spanning tree);
    - every clue cell carries its own label and distance 0;
    - the count of label *k* equals clue *k* (no count for a ``?`` clue);
    - two adjacent white cells share a label;
    - the sea holds ``R*C - sum(clues)`` cells (not fixed when there is a ``?`` clue);
    - no 2x2 block is all sea;
    - exactly one sea cell is the sea *root*, with distance 0, and every cell that is
      neither a clue nor the root has a neighbour with the same label and a distance one
      less. Following those parents strictly lowers the distance, so it ends at the
      region's root: every region is a tree, hence connected.

    Uniqueness and counting: solve, add a clause forbidding the shading just found (on the
    sea booleans only, since labels and distances of one shading are not unique), solve
    again, and so on.

``cpsat-fast``
    The same model with domains cut by geometry before CP-SAT sees it: a cell may carry
    label *k* only when its Manhattan distance to clue *k* is below the clue, island
    distances are bounded by the clue, and adjacency is stated per label on booleans
    rather than on the integer labels. The sea root is fixed to the first sea cell in
    cell order, which removes the symmetry a uniqueness proof would otherwise have to
    refute root by root. Same solutions, far fewer variables; 3-10x faster on 10x10s.

CP-SAT runs with `WORKERS` = 1 worker. That is the fair per-core comparison with the
single-threaded native engine, and on this 2-core machine, shared with other jobs, one
worker measured no slower than two (2 workers won on some puzzles, lost 2-3x on others).
Pass ``workers=`` to the search class, or set `WORKERS`, to change it. The time limit is
honoured on every solve with the time remaining; a node limit is checked between solves
against CP-SAT's branch count.

Imports `puzzle`, `grid`, `limits` and `solver.result`; imports ``ortools`` when a search starts,
so that importing this module is cheap and fails only when the engine is used.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

from ..grid import bits
from ..limits import OutOfTime
from ..puzzle import UNKNOWN_CLUE, Board, Puzzle
from .result import Limit, Result, SearchBase

__all__ = ["WORKERS", "CpSatSearch", "FastCpSatSearch", "search"]

WORKERS = 1
"""CP-SAT worker threads per solve (see the module docstring for why one)."""

BUILD_RATE = 50_000
"""Model terms built per second (see `CpSatSearch._check_size`): measured 45,000-60,000
on a shared 2-core machine, building 30x30 to 100x100 models with 1 to 60 clues."""

CELL_TERMS = 15
"""Terms a cell costs to build besides its labels (booleans, distance, parents, pools):
building took about 300 us per cell and 20 us per label."""

INSTALL_HINT = "the cpsat engine needs OR-Tools: pip install 'nurikabe[cpsat]'"


def _cp_model() -> Any:
    try:
        from ortools.sat.python import cp_model
    except ImportError as exc:
        from . import EngineUnavailableError

        raise EngineUnavailableError(INSTALL_HINT) from exc
    return cp_model


def _solve(solver: Any, model: Any) -> Any:
    """``solver.solve(model)``, stopped cleanly by Ctrl-C.

    CP-SAT's own Ctrl-C handler is turned off (``catch_sigint_signal``): it logs from
    inside the signal handler, which allocates memory, so a Ctrl-C that lands while
    the search is itself allocating deadlocks the process for good (seen in the test
    suite, with the search in malloc under the handler's malloc). Instead, in the main
    thread, the search runs in a helper thread while the main thread waits, where
    Python's own handler raises `KeyboardInterrupt`; the search is then stopped
    (``stop_search``), waited for, and the interrupt goes on up. In any other thread
    (no Ctrl-C reaches it) the search runs in place.
    """
    solver.parameters.catch_sigint_signal = False
    if threading.current_thread() is not threading.main_thread():
        return solver.solve(model)
    done: list[Any] = []
    failed: list[BaseException] = []
    finished = threading.Event()

    def run() -> None:
        try:
            done.append(solver.solve(model))
        except BaseException as exc:  # handed to the waiting thread
            failed.append(exc)
        finally:
            finished.set()

    helper = threading.Thread(target=run, name="nurikabe-cpsat-solve", daemon=True)
    helper.start()
    try:
        while not finished.wait(0.1):
            pass
    except BaseException:
        solver.stop_search()
        # Wait for the search to end (a few milliseconds) whatever else comes: leaving
        # it running in native code while the process exits aborts the process.
        while True:
            try:
                finished.wait()
                break
            except BaseException:
                continue
        raise
    helper.join()
    if failed:
        raise failed[0]
    return done[0]


class CpSatSearch(SearchBase):
    """A search for the solutions of `puzzle` with the book chapter's CP-SAT model.

    Iterate `solutions()` to get full solution boards, one CP-SAT solve each, until the
    `limit` is reached or no solution is left; afterwards `complete`, `limit_hit`,
    `nodes` and `seconds` say how it went. `start` is a partial board of assumptions:
    its black cells are forced black and its white cells white.

    Raises:
        EngineUnavailableError: OR-Tools is not installed (when `solutions()` starts).
    """

    engine = "cpsat"
    fast = False

    def __init__(
        self,
        puzzle: Puzzle,
        limit: Limit = Limit(),  # noqa: B008 - Limit is frozen
        *,
        start: Board | None = None,
        workers: int | None = None,
    ) -> None:
        super().__init__(puzzle, limit, start=start)
        self.workers = workers
        """CP-SAT worker threads; None means the module's `WORKERS` at search time."""
        self.solves = 0
        """CP-SAT solve calls made."""
        self._deadline: float | None = None
        self._solver: Any = None
        self._stopped = False

    def stop(self) -> None:
        """Stop the search soon, from any thread: `solutions()` then ends with
        ``limit_hit`` ``"cancelled"`` (the portfolio stops it when the native search has
        decided)."""
        self._stopped = True
        solver = self._solver
        if solver is not None:
            solver.stop_search()

    # -- the model -----------------------------------------------------------------------------

    def _check_time(self) -> None:
        """Give up building (`OutOfTime`) when the time limit has passed: huge grids make
        huge models."""
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise OutOfTime

    def _check_size(self, terms: int) -> None:
        """Refuse, before building it, a model that cannot be built in the time left.

        `terms` counts `CELL_TERMS` per cell plus one per label a cell may carry;
        building runs at about `BUILD_RATE` of them a second, so a model needing longer
        than the time left ends the search at once with the time limit hit.
        """
        if self._deadline is not None:
            left = self._deadline - time.perf_counter()
            if terms > BUILD_RATE * left:
                raise OutOfTime

    def _build(self, cp_model: Any) -> tuple[Any, list[Any]]:
        """The model and the per-cell sea booleans."""
        puzzle = self.puzzle
        grid = puzzle.grid
        n = grid.size
        self._check_size((CELL_TERMS + 1) * n)  # every cell has a label at least
        model = cp_model.CpModel()
        clue_cells = list(puzzle.clues)  # sorted by cell: clue k is clue_cells[k - 1]
        k_count = len(clue_cells)
        label_of_clue = {cell: k + 1 for k, cell in enumerate(clue_cells)}

        # Which labels a cell may carry, and how deep it may lie in its region's tree.
        allowed: list[list[int]] = []
        max_dist: list[int] = []
        for c in range(n):
            self._check_time()
            r, col = grid.coords(c)
            if c in label_of_clue:
                allowed.append([label_of_clue[c]])
                max_dist.append(0)
                continue
            labels = [0]
            if self.fast:
                for k, cell in enumerate(clue_cells, start=1):
                    value = puzzle.clues[cell]
                    cr, cc = grid.coords(cell)
                    if value == UNKNOWN_CLUE or abs(cr - r) + abs(cc - col) < value:
                        labels.append(k)
            else:
                labels.extend(range(1, k_count + 1))
            allowed.append(labels)
            max_dist.append(n - 1)
        self._check_size(CELL_TERMS * n + sum(len(labels) for labels in allowed))
        neighbors = [list(bits(grid.neighbors[c])) for c in range(n)]

        member: list[dict[int, Any]] = []
        label: list[Any] = []
        sea: list[Any] = []
        dist: list[Any] = []
        for c in range(n):
            self._check_time()
            name = grid.name(c)
            lits = {k: model.new_bool_var(f"is{k}_{name}") for k in allowed[c]}
            member.append(lits)
            model.add_exactly_one(lits.values())
            if len(allowed[c]) == 1:
                model.add(lits[allowed[c][0]] == 1)
            lab = model.new_int_var_from_domain(
                cp_model.Domain.from_values(allowed[c]), f"label_{name}"
            )
            model.add(lab == sum(k * lit for k, lit in lits.items()))
            label.append(lab)
            if 0 not in lits:  # a clue cell: its sea boolean is a constant false
                lits[0] = model.new_bool_var(f"is0_{name}")
                model.add(lits[0] == 0)
            sea.append(lits[0])
            dist.append(model.new_int_var(0, max_dist[c], f"dist_{name}"))

        # Island sizes: the count of label k is clue k.
        for k, cell in enumerate(clue_cells, start=1):
            self._check_time()
            value = puzzle.clues[cell]
            if value != UNKNOWN_CLUE:
                model.add(sum(member[c][k] for c in range(n) if k in member[c]) == value)
                if self.fast:
                    for c in range(n):
                        if k in member[c] and c != cell:
                            model.add(dist[c] <= value - 1).only_enforce_if(member[c][k])

        # Adjacent white cells share a label.
        for c in range(n):
            self._check_time()
            for d in neighbors[c]:
                if d < c:
                    continue
                if self.fast:
                    for k in (member[c].keys() | member[d].keys()) - {0}:
                        a, b = member[c].get(k), member[d].get(k)
                        if a is not None and b is not None:
                            model.add_bool_or([~a, sea[d], b])
                            model.add_bool_or([~b, sea[c], a])
                        elif a is not None:
                            model.add_implication(a, sea[d])
                        elif b is not None:
                            model.add_implication(b, sea[c])
                else:
                    model.add(label[c] == label[d]).only_enforce_if(~sea[c], ~sea[d])

        # The sea's size, when every clue is known.
        if not puzzle.has_unknown_clues:
            model.add(sum(sea) == n - puzzle.known_clue_total)

        # No pool.
        for corner in range(n):
            self._check_time()
            r, col = grid.coords(corner)
            if r + 1 < grid.rows and col + 1 < grid.cols:
                block = [corner, corner + 1, corner + grid.cols, corner + grid.cols + 1]
                model.add_bool_or([~sea[c] for c in block])

        # Connectivity: one root per region, every other cell has a parent one step closer.
        roots = []
        root_of: dict[int, Any] = {}
        for c in range(n):
            self._check_time()
            if c in label_of_clue:
                model.add(dist[c] == 0)
                continue
            root = model.new_bool_var(f"root_{grid.name(c)}")
            roots.append(root)
            root_of[c] = root
            model.add_implication(root, sea[c])
            model.add(dist[c] == 0).only_enforce_if(root)
            parents = [root]
            for d in neighbors[c]:
                if self.fast and not set(allowed[c]) & set(allowed[d]):
                    continue
                parent = model.new_bool_var(f"parent_{grid.name(c)}_{grid.name(d)}")
                parents.append(parent)
                model.add(label[d] == label[c]).only_enforce_if(parent)
                model.add(dist[d] + 1 == dist[c]).only_enforce_if(parent)
            model.add_bool_or(parents)
        if self.fast:
            # Symmetry breaking: the sea root is the sea cell that comes first in cell order,
            # so that a uniqueness proof need not refute every choice of root.
            seen = None  # true when some earlier cell is sea
            for c in range(n):
                self._check_time()
                if c in label_of_clue:
                    continue
                root = root_of[c]
                if seen is None:
                    model.add(root == sea[c])
                else:
                    model.add_implication(root, ~seen)
                    model.add_bool_or([~sea[c], seen, root])
                later = model.new_bool_var(f"seen_{grid.name(c)}")
                model.add_max_equality(later, [sea[c]] if seen is None else [seen, sea[c]])
                seen = later
        if not puzzle.has_unknown_clues:
            model.add(sum(roots) == (1 if n > puzzle.known_clue_total else 0))
        else:
            any_sea = model.new_bool_var("any_sea")
            model.add_max_equality(any_sea, sea)
            model.add(sum(roots) == any_sea)

        # Assumptions.
        if self.start is not None:
            for c in range(n):
                if self.start.black_mask >> c & 1:
                    model.add(sea[c] == 1)
                elif self.start.white_mask >> c & 1:
                    model.add(sea[c] == 0)
        return model, sea

    # -- the search ----------------------------------------------------------------------------

    def solutions(self) -> Iterator[Board]:
        """Yield every solution, one CP-SAT solve each, until the limit is reached.

        Raises:
            EngineUnavailableError: OR-Tools is not installed.
        """
        began = time.perf_counter()
        limit = self.limit
        deadline = None if limit.seconds is None else began + limit.seconds
        self._deadline = deadline
        cp_model = _cp_model()
        self.complete = False
        self.limit_hit = None
        try:
            try:
                model, sea = self._build(cp_model)
            except OutOfTime:
                self.limit_hit = "seconds"
                return
            found = 0
            while True:
                if limit.solutions is not None and found >= limit.solutions:
                    self.limit_hit = "solutions"
                    return
                if limit.nodes is not None and self.nodes >= limit.nodes:
                    self.limit_hit = "nodes"
                    return
                solver = cp_model.CpSolver()
                self._solver = solver
                if self._stopped:
                    self.limit_hit = "cancelled"
                    return
                solver.parameters.num_workers = self.workers or WORKERS
                if deadline is not None:
                    remaining = deadline - time.perf_counter()
                    if remaining <= 0:
                        self.limit_hit = "seconds"
                        return
                    solver.parameters.max_time_in_seconds = remaining
                status = _solve(solver, model)
                self.solves += 1
                self.nodes += int(solver.num_branches)
                if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                    black = 0
                    for c, var in enumerate(sea):
                        if solver.boolean_value(var):
                            black |= 1 << c
                    found += 1
                    self.seconds = time.perf_counter() - began
                    yield Board(self.puzzle, black, self.puzzle.grid.full & ~black)
                    # Forbid this shading and look again.
                    model.add_bool_or(
                        [~var if black >> c & 1 else var for c, var in enumerate(sea)]
                    )
                elif status == cp_model.INFEASIBLE:
                    self.complete = True
                    return
                elif status == cp_model.UNKNOWN and self._stopped:
                    self.limit_hit = "cancelled"
                    return
                elif status == cp_model.UNKNOWN:
                    # Not stopped (see above) and not refusing Ctrl-C (`_solve` turns its
                    # handler off): the time ran out.
                    self.limit_hit = "seconds"
                    return
                else:  # MODEL_INVALID: a bug in the model, not in the input
                    raise RuntimeError(f"CP-SAT rejected the model: {solver.status_name(status)}")
        finally:
            self.seconds = time.perf_counter() - began


class FastCpSatSearch(CpSatSearch):
    """`CpSatSearch` on the geometrically pruned model (engine ``cpsat-fast``)."""

    engine = "cpsat-fast"
    fast = True


def search(
    puzzle: Puzzle,
    limit: Limit = Limit(),  # noqa: B008 - Limit is frozen
    *,
    start: Board | None = None,
) -> Result:
    """Search `puzzle` with the baseline CP-SAT model; see `nurikabe.solver.solve`.

    Raises:
        EngineUnavailableError: OR-Tools is not installed.
    """
    from . import run_search

    return run_search(CpSatSearch(puzzle, limit, start=start), puzzle, limit)
