"""The solver API (`solve`, `count_solutions`, `iter_solutions`, `forced_cells`), native engine.

Cross-checks the native engine against the brute-force oracle (tests/bruteforce.py) on
random tiny puzzles and against the published solutions of the corpus, and covers the
edge cases: no solution, limits, huge grids, 1x1, ``?`` clues, bad engine names.
"""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nurikabe import (
    UNKNOWN_CLUE,
    Limit,
    Puzzle,
    Status,
    count_solutions,
    forced_cells,
    solve,
)
from nurikabe.errors import InvalidPuzzleError
from nurikabe.solver import (
    ENGINES,
    EngineUnavailableError,
    Result,
    Stats,
    UnknownEngineError,
    engine_names,
    iter_solutions,
)
from nurikabe.solver import forced as forced_module
from tests.bruteforce import black_masks, is_solution
from tests.corpus import corpus, sample

Q = UNKNOWN_CLUE


def black_cells(mask: int, cols: int) -> set[tuple[int, int]]:
    return {divmod(i, cols) for i in range(mask.bit_length()) if mask >> i & 1}


# -- random tiny puzzles ------------------------------------------------------------------------


@st.composite
def tiny_puzzles(draw: st.DrawFn, max_cells: int = 20) -> Puzzle:
    """Puzzles of up to `max_cells` cells, half of them built around a random shading.

    Clues taken from the white regions of a random shading are often solvable and
    often ambiguous, which exercises counting better than clues thrown at random.
    """
    rows = draw(st.integers(1, 5))
    cols = draw(st.integers(1, max(1, min(5, max_cells // rows))))
    n = rows * cols
    clues: dict[int, int] = {}
    if draw(st.booleans()):
        black = draw(st.integers(0, (1 << n) - 1))
        seen = black
        for start in range(n):
            if seen >> start & 1:
                continue
            region, todo = [], [start]
            seen |= 1 << start
            while todo:
                i = todo.pop()
                region.append(i)
                r, c = divmod(i, cols)
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    j = rr * cols + cc
                    if 0 <= rr < rows and 0 <= cc < cols and not seen >> j & 1:
                        seen |= 1 << j
                        todo.append(j)
            cell = draw(st.sampled_from(sorted(region)))
            size = len(region) + draw(st.sampled_from([0, 0, 0, 0, 1, -1]))
            clues[cell] = Q if draw(st.integers(0, 9)) == 0 else max(1, size)
    else:
        cells = draw(st.lists(st.integers(0, n - 1), max_size=min(5, n), unique=True))
        for cell in cells:
            clues[cell] = draw(st.sampled_from([1, 1, 2, 2, 3, 3, 4, 5, Q]))
    return Puzzle(rows, cols, {i: min(v, n) for i, v in clues.items()})


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_puzzles())
def test_native_agrees_with_brute_force(puzzle: Puzzle) -> None:
    expected = black_masks(puzzle)
    result = count_solutions(puzzle, limit=Limit(solutions=None, seconds=30), keep=None)
    assert result.complete
    assert result.count == len(expected)
    assert {board.black_mask for board in result.solutions} == expected
    decided = solve(puzzle)
    want = {0: Status.NONE, 1: Status.UNIQUE}.get(len(expected), Status.MULTIPLE)
    assert decided.status is want
    for board in decided.solutions:
        assert board.black_mask in expected
        assert board.is_complete()


# -- the corpus ---------------------------------------------------------------------------------


@pytest.mark.parametrize("doc", sample(12, max_cells=100), ids=lambda d: d.meta["id"])
def test_corpus_sample_unique_and_published(doc) -> None:  # type: ignore[no-untyped-def]
    result = solve(doc.puzzle, limit=Limit(solutions=2, seconds=30))
    assert result.status is Status.UNIQUE, result.limit_hit
    assert result.solution is not None
    assert result.solution.black_mask == doc.solution.black_mask
    assert is_solution(doc.puzzle, black_cells(result.solution.black_mask, doc.puzzle.cols))
    assert result.stats.engine == "native"
    assert result.stats.seconds >= 0 and result.stats.nodes >= 0


@pytest.mark.parametrize("doc", corpus(), ids=lambda d: d.meta["id"])
def test_whole_corpus(doc) -> None:  # type: ignore[no-untyped-def]
    """Every published puzzle is proven unique with its published solution (about 15 s)."""
    result = solve(doc.puzzle, limit=Limit(solutions=2, seconds=120))
    assert result.status is Status.UNIQUE, result.limit_hit
    assert result.solution is not None
    assert result.solution.black_mask == doc.solution.black_mask


# -- statuses and witnesses ---------------------------------------------------------------------

TWO_WAYS = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])


def test_multiple_has_a_witness() -> None:
    result = solve(TWO_WAYS)
    assert result.status is Status.MULTIPLE
    assert len(result.solutions) == 2
    diff = result.difference()
    assert diff and diff.mask == result.solutions[0].black_mask ^ result.solutions[1].black_mask
    for board in result.solutions:
        assert is_solution(TWO_WAYS, black_cells(board.black_mask, 3))


def test_iter_solutions_lists_them_all() -> None:
    boards = list(iter_solutions(TWO_WAYS))
    assert {b.black_mask for b in boards} == black_masks(TWO_WAYS)
    assert len(list(iter_solutions(TWO_WAYS, limit=Limit(solutions=1, seconds=None)))) == 1


@pytest.mark.parametrize(
    ("grid", "status", "rows"),
    [
        ([[0]], Status.UNIQUE, ["#"]),
        ([[1]], Status.UNIQUE, ["."]),
        ([[Q]], Status.UNIQUE, ["."]),
        ([[0, 0, 0, 0, 0]], Status.UNIQUE, ["#####"]),  # no clues, no room for a pool
        ([[0, 0, 0], [0, 0, 0], [0, 0, 0]], Status.NONE, None),  # no clues: all sea, pools
        ([[1, 1]], Status.NONE, None),  # adjacent clues
        ([[4, 0, 0], [0, 0, 0], [0, 0, 4]], Status.NONE, None),  # clues cannot all fit
        ([[2, 0], [0, 3]], Status.NONE, None),  # more white than the grid holds apart
        ([[4, 0], [0, 0]], Status.UNIQUE, ["..", ".."]),  # one island fills the grid
        ([[Q, 0, 0], [0, 0, 0], [0, 0, 1]], Status.MULTIPLE, None),
    ],
)
def test_small_cases(grid: list[list[int]], status: Status, rows: list[str] | None) -> None:
    puzzle = Puzzle.from_grid(grid)
    result = solve(puzzle)
    assert result.status is status
    assert result.complete or status is Status.MULTIPLE
    if rows is not None:
        assert result.solutions[0].to_rows() == rows
    count = len(black_masks(puzzle))
    assert (
        count == 0
        if status is Status.NONE
        else count == 1
        if status is Status.UNIQUE
        else count >= 2
    )


def test_start_assumptions() -> None:
    puzzle = Puzzle.from_grid([[1, 0, 0], [0, 0, 0], [0, 0, 3]])
    solution = solve(puzzle).solution
    assert solution is not None
    agree = puzzle.empty_board()
    agree.set_black(1)
    assert solve(puzzle, start=agree).status is Status.UNIQUE
    clash = puzzle.empty_board()
    clash.set_white(1)
    assert solve(puzzle, start=clash).status is Status.NONE
    # On an ambiguous puzzle, an assumption picks one of the solutions.
    first = solve(TWO_WAYS).solutions[0]
    pick = TWO_WAYS.empty_board()
    pick.set_black(1) if first.black_mask >> 1 & 1 else pick.set_white(1)
    result = solve(TWO_WAYS, start=pick)
    assert result.status is Status.UNIQUE and result.solutions[0] == first


# -- counting and limits ------------------------------------------------------------------------

MANY = Puzzle(10, 10, {44: Q})
"""One ``?`` island on a 10x10: any island that leaves a connected, pool-free sea. Millions."""


def test_count_exact() -> None:
    result = count_solutions(TWO_WAYS)
    assert (result.count, result.complete, result.limit_hit) == (2, True, None)
    assert result.status is Status.MULTIPLE
    assert str(result) == "2 solutions"
    none = count_solutions(Puzzle.from_grid([[1, 1]]))
    assert (none.count, none.complete, none.status) == (0, True, Status.NONE)


def test_count_with_a_solution_limit_is_a_lower_bound() -> None:
    result = count_solutions(MANY, limit=Limit(solutions=500, seconds=30))
    assert result.count == 500
    assert not result.complete and result.limit_hit == "solutions"
    assert result.status is Status.MULTIPLE
    assert len(result.solutions) == 2  # only the witness is kept
    assert str(result).startswith("at least 500 solutions")


def test_count_with_a_time_limit_is_a_lower_bound() -> None:
    began = time.perf_counter()
    result = count_solutions(MANY, limit=Limit(solutions=None, seconds=0.5))
    assert time.perf_counter() - began < 3
    assert not result.complete and result.limit_hit == "seconds"
    assert result.status is (Status.MULTIPLE if result.count >= 2 else Status.UNKNOWN)
    assert str(result).startswith(f"at least {result.count} solution")


def test_node_limit() -> None:
    result = solve(MANY, limit=Limit(solutions=None, seconds=None, nodes=5))
    assert not result.complete and result.limit_hit == "nodes"


def test_huge_grid_stops_at_the_time_limit() -> None:
    """A 100x100 grid with a lattice of ``?`` clues: far too big, so UNKNOWN, never a hang."""
    clues = {r * 100 + c: Q for r in range(0, 100, 7) for c in range(0, 100, 7)}
    puzzle = Puzzle(100, 100, clues)
    began = time.perf_counter()
    result = solve(puzzle, limit=Limit(solutions=2, seconds=1.0))
    assert time.perf_counter() - began < 5
    assert result.status in (Status.UNKNOWN, Status.MULTIPLE)
    if result.status is Status.UNKNOWN:
        assert result.limit_hit == "seconds" and not result.complete


def test_huge_grid_with_few_clues() -> None:
    puzzle = Puzzle(200, 200, {0: 5, 200 * 200 - 1: 3})
    began = time.perf_counter()
    result = solve(puzzle, limit=Limit(solutions=2, seconds=1.0))
    assert time.perf_counter() - began < 5
    assert result.status in (Status.NONE, Status.UNKNOWN)


# -- forced cells -------------------------------------------------------------------------------


@pytest.mark.parametrize("doc", sample(3, max_cells=64), ids=lambda d: d.meta["id"])
def test_forced_cells_of_a_unique_puzzle_is_its_solution(doc) -> None:  # type: ignore[no-untyped-def]
    forced = forced_cells(doc.puzzle)
    assert forced.status is Status.UNIQUE and forced.complete
    assert forced.black.mask == doc.solution.black_mask
    assert forced.white.mask == doc.puzzle.grid.full & ~doc.solution.black_mask
    assert forced.forced == forced.solution == doc.solution
    assert not forced.undetermined and not forced.unresolved


SIX = Puzzle.from_clues(6, 6, [(1, 1, 8), (2, 4, 8), (3, 2, 9)])


def test_forced_cells_of_an_ambiguous_puzzle() -> None:
    every = [b.black_mask for b in iter_solutions(SIX, limit=Limit(solutions=None, seconds=60))]
    assert len(every) >= 2
    full = SIX.grid.full
    always_black = full
    always_white = full
    for mask in every:
        always_black &= mask
        always_white &= full & ~mask
    forced = forced_cells(SIX)
    assert isinstance(forced, Result) and forced.forced is not None
    assert (forced.forced.black_mask, forced.forced.white_mask) == (always_black, always_white)
    assert forced.status is Status.MULTIPLE and forced.complete
    assert forced.black.mask == always_black
    assert forced.white.mask == always_white
    assert forced.undetermined.mask == full & ~(always_black | always_white)
    assert len(forced.solutions) == 2
    assert forced.solutions[0].black_mask != forced.solutions[1].black_mask


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_puzzles(max_cells=16))
def test_forced_cells_agree_with_brute_force(puzzle: Puzzle) -> None:
    every = black_masks(puzzle)
    forced = forced_cells(puzzle)
    if not every:
        assert forced.status is Status.NONE
        assert not forced.black and not forced.white and not forced.undetermined
        return
    full = puzzle.grid.full
    always_black, always_white = full, full
    for mask in every:
        always_black &= mask
        always_white &= full & ~mask
    assert forced.status is (Status.UNIQUE if len(every) == 1 else Status.MULTIPLE)
    assert (forced.black.mask, forced.white.mask) == (always_black, always_white)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_puzzles(max_cells=16))
def test_forced_cells_cell_by_cell_agree_with_brute_force(puzzle: Puzzle) -> None:
    """The same, with the quick enumeration cut to one solution so every cell is searched."""
    every = black_masks(puzzle)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(forced_module, "QUICK_SOLUTIONS", 1)
        forced = forced_cells(puzzle)
    full = puzzle.grid.full
    always_black, always_white = full, full
    for mask in every:
        always_black &= mask
        always_white &= full & ~mask
    if not every:
        assert forced.status is Status.NONE
        return
    assert forced.status is (Status.UNIQUE if len(every) == 1 else Status.MULTIPLE)
    assert (forced.black.mask, forced.white.mask) == (always_black, always_white)
    assert forced.undetermined.mask == full & ~(always_black | always_white)


def test_forced_cells_cell_by_cell_on_the_six(monkeypatch: pytest.MonkeyPatch) -> None:
    quick = forced_cells(SIX)
    monkeypatch.setattr(forced_module, "QUICK_SOLUTIONS", 1)
    slow = forced_cells(SIX)
    assert (slow.status, slow.black, slow.white, slow.undetermined) == (
        quick.status,
        quick.black,
        quick.white,
        quick.undetermined,
    )


def test_forced_cells_with_no_solution_and_with_no_time() -> None:
    none = forced_cells(Puzzle.from_grid([[1, 1]]))
    assert none.status is Status.NONE and not none.black and not none.white
    assert not none.undetermined and not none.unresolved
    cut = forced_cells(MANY, limit=Limit(solutions=None, seconds=0.3))
    assert cut.status in (Status.MULTIPLE, Status.UNKNOWN)
    assert cut.stats.seconds < 3


def test_value_objects_are_immutable_hashable_and_copy_and_pickle_whole() -> None:
    """Limit, Stats and Result are plain classes (no dataclasses on the solve path): they
    compare, copy and pickle (for worker processes) as the dataclasses did."""
    limit = Limit(solutions=3, seconds=1.5, nodes=7)
    assert limit == Limit(3, 1.5, 7) and hash(limit) == hash(Limit(3, 1.5, 7))
    assert limit != Limit(3, 1.5, 8) and {limit: 1}[Limit(3, 1.5, 7)] == 1
    assert limit.replace(nodes=None) == Limit(3, 1.5, None)
    assert limit.replace(solutions=None, seconds=2) == Limit(None, 2, 7)
    with pytest.raises(AttributeError):
        limit.nodes = 8
    result = forced_cells(SIX)
    for value in (limit, Stats("reference", 1.0, 2, {"rounds": 3.0}), result):
        for clone in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
            assert clone == value and type(clone) is type(value)
    assert repr(limit) == "Limit(solutions=3, seconds=1.5, nodes=7)"


# -- engines ------------------------------------------------------------------------------------


def test_engine_registry() -> None:
    assert engine_names()[0] == "native"
    assert {"native", "cpsat"} <= set(ENGINES)


def test_unknown_engine_is_a_clear_value_error() -> None:
    with pytest.raises(UnknownEngineError, match=r"unknown engine 'fast'.*native.*cpsat"):
        solve(TWO_WAYS, engine="fast")
    with pytest.raises(ValueError):
        count_solutions(TWO_WAYS, engine="")


def test_cpsat_without_ortools_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m.startswith("ortools")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "ortools", None)
    with pytest.raises(EngineUnavailableError, match=r"pip install 'nurikabe\[cpsat\]'"):
        solve(TWO_WAYS, engine="cpsat")


def test_import_stays_light() -> None:

    code = "import nurikabe, sys; print(sorted(m for m in ('ortools', 'tqdm') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# A URL given where a puzzle is wanted.


EXAMPLE_URL = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"


def test_solve_given_a_url() -> None:
    with pytest.raises(InvalidPuzzleError, match=r"Puzzle\.from_url"):
        solve(EXAMPLE_URL)  # type: ignore[arg-type]
