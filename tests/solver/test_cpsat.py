"""The CP-SAT engines (``cpsat``, ``cpsat-fast``) against the brute-force oracle, the corpus
and the native engine. Skipped when OR-Tools is not installed.
"""

from __future__ import annotations

import time

import pytest

pytest.importorskip("ortools")

from hypothesis import HealthCheck, given, settings

from nurikabe import UNKNOWN_CLUE, Limit, Puzzle, Status, count_solutions, solve
from nurikabe.solver import forced_cells
from nurikabe.solver.cpsat import CpSatSearch, search
from tests.bruteforce import black_masks
from tests.corpus import sample
from tests.solver.test_solve import TWO_WAYS, tiny_puzzles

CPSAT_ENGINES = ["cpsat", "cpsat-fast"]
CAP = 12
"""Solutions to enumerate at most per random puzzle: each one costs a CP-SAT solve."""


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_puzzles(max_cells=16))
def test_cpsat_engines_agree_with_brute_force(puzzle: Puzzle) -> None:
    expected = black_masks(puzzle)
    for engine in CPSAT_ENGINES:
        result = count_solutions(
            puzzle, limit=Limit(solutions=CAP, seconds=30), engine=engine, keep=None
        )
        found = {board.black_mask for board in result.solutions}
        assert len(found) == result.count  # never the same shading twice
        if len(expected) < CAP:
            assert result.complete and found == expected, engine
        else:
            assert result.count == CAP and found <= expected, engine


@pytest.mark.parametrize("engine", CPSAT_ENGINES)
@pytest.mark.parametrize("doc", sample(4, max_cells=64), ids=lambda d: d.meta["id"])
def test_corpus_sample(doc, engine: str) -> None:  # type: ignore[no-untyped-def]
    result = solve(doc.puzzle, limit=Limit(solutions=2, seconds=60), engine=engine)
    assert result.status is Status.UNIQUE
    assert result.solutions[0].black_mask == doc.solution.black_mask
    assert result.solutions[0] == solve(doc.puzzle).solutions[0]  # the native engine agrees
    assert result.stats.engine == engine and result.stats.nodes >= 0


@pytest.mark.slow
@pytest.mark.parametrize("doc", sample(40, max_cells=100), ids=lambda d: d.meta["id"])
def test_corpus_more(doc) -> None:  # type: ignore[no-untyped-def]
    # The pruned model proves every one; the book's baseline model may run out of time
    # (janko 963 takes it more than 200 s), but it never answers wrongly.
    fast = solve(doc.puzzle, limit=Limit(solutions=2, seconds=120), engine="cpsat-fast")
    assert fast.status is Status.UNIQUE
    assert fast.solutions[0].black_mask == doc.solution.black_mask
    plain = solve(doc.puzzle, limit=Limit(solutions=2, seconds=120), engine="cpsat")
    if plain.status is Status.UNKNOWN:
        assert plain.limit_hit == "seconds"
        assert all(b.black_mask == doc.solution.black_mask for b in plain.solutions)
    else:
        assert plain.status is Status.UNIQUE
        assert plain.solutions[0].black_mask == doc.solution.black_mask


@pytest.mark.parametrize("engine", CPSAT_ENGINES)
@pytest.mark.parametrize(
    ("grid", "status", "rows"),
    [
        ([[0]], Status.UNIQUE, ["#"]),
        ([[UNKNOWN_CLUE]], Status.UNIQUE, ["."]),
        ([[4, 0], [0, 0]], Status.UNIQUE, ["..", ".."]),  # no sea at all
        ([[UNKNOWN_CLUE, 0], [0, 0]], Status.MULTIPLE, None),
        ([[0, 0, 0], [0, 0, 0], [0, 0, 0]], Status.NONE, None),
        ([[1, 1]], Status.NONE, None),
        ([[2, 0], [0, 3]], Status.NONE, None),
    ],
)
def test_small_cases(
    engine: str, grid: list[list[int]], status: Status, rows: list[str] | None
) -> None:
    result = solve(Puzzle.from_grid(grid), engine=engine)
    assert result.status is status
    if rows is not None:
        assert result.solutions[0].to_rows() == rows


@pytest.mark.parametrize("engine", CPSAT_ENGINES)
def test_witness_and_start(engine: str) -> None:
    result = solve(TWO_WAYS, engine=engine)
    assert result.status is Status.MULTIPLE and result.difference()
    first = result.solutions[0]
    pick = TWO_WAYS.empty_board()
    pick.set_black(1) if first.black_mask >> 1 & 1 else pick.set_white(1)
    again = solve(TWO_WAYS, engine=engine, start=pick)
    assert again.status is Status.UNIQUE and again.solutions[0] == first


def test_forced_cells_with_cpsat() -> None:
    cpsat = forced_cells(TWO_WAYS, engine="cpsat-fast")
    native = forced_cells(TWO_WAYS)
    assert cpsat.status is Status.MULTIPLE
    assert (cpsat.black, cpsat.white, cpsat.undetermined) == (
        native.black,
        native.white,
        native.undetermined,
    )


def test_time_limit_is_respected() -> None:
    """A 30x30 lattice of ``?`` clues: CP-SAT must stop near the limit, model building included."""
    puzzle = Puzzle(
        30, 30, {r * 30 + c: UNKNOWN_CLUE for r in range(0, 30, 5) for c in range(0, 30, 5)}
    )
    began = time.perf_counter()
    result = count_solutions(puzzle, limit=Limit(solutions=None, seconds=1.0), engine="cpsat")
    assert time.perf_counter() - began < 6
    assert not result.complete and result.limit_hit == "seconds"


def test_search_function_and_node_limit() -> None:
    result = search(TWO_WAYS, Limit(solutions=None, seconds=10))
    assert result.status is Status.MULTIPLE and result.count == 2 and result.complete
    engine = CpSatSearch(TWO_WAYS, Limit(solutions=None, seconds=10, nodes=1))
    boards = list(engine.solutions())
    assert len(boards) >= 1 and engine.limit_hit == "nodes" and not engine.complete


@pytest.mark.parametrize("engine", CPSAT_ENGINES)
def test_huge_model_stops_while_building(engine: str) -> None:
    """A 50x50 with 289 clues makes a model of ~700k literals: the limit must still hold.

    Counted in CPU time of the process (CP-SAT's threads included), which a loaded
    machine does not stretch as it stretches wall time.
    """
    clues = {r * 50 + c: 3 for r in range(0, 50, 3) for c in range(0, 50, 3)}
    began = time.process_time()
    result = solve(Puzzle(50, 50, clues), limit=Limit(seconds=1.0), engine=engine)
    assert time.process_time() - began < 6
    assert result.status is Status.UNKNOWN and result.limit_hit == "seconds"


def test_cp_sat_never_takes_ctrl_c_itself() -> None:
    """CP-SAT's own SIGINT handler logs, so allocates, inside the signal handler: a Ctrl-C
    landing while the search allocated deadlocked the process. `_solve` turns it off and
    stops the search itself when Python's handler raises `KeyboardInterrupt`."""
    from ortools.sat.python import cp_model

    from nurikabe.solver.cpsat import _solve

    model = cp_model.CpModel()
    x = model.new_bool_var("x")
    model.add(x == 1)
    solver = cp_model.CpSolver()
    assert _solve(solver, model) == cp_model.OPTIMAL
    assert solver.parameters.catch_sigint_signal is False
    assert solver.boolean_value(x)


# CP-SAT keeps its time limit while it builds the model.


@pytest.mark.parametrize("engine", ["cpsat", "cpsat-fast"])
@pytest.mark.parametrize("size", [100, 256])
def test_cpsat_refuses_models_it_cannot_build_in_time(engine: str, size: int) -> None:
    pytest.importorskip("ortools")
    from ortools.sat.python import cp_model  # noqa: F401 - loaded before the clock starts

    puzzle = Puzzle(size, size, {0: 1})
    began = time.perf_counter()
    result = solve(puzzle, limit=Limit(solutions=2, seconds=0.5), engine=engine)
    took = time.perf_counter() - began
    assert result.status is Status.UNKNOWN and result.limit_hit == "seconds"
    assert took < 0.5 * 1.1 + 0.1, took  # before: 58 s at 100x100, minutes at 256x256
