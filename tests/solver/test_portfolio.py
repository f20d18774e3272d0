"""Tests of the ``portfolio`` engine (`nurikabe.solver.portfolio`): the native search,
raced by a lean native search, a learning one and then by CP-SAT.

It must give the native engine's answer whenever the native search decides, and the
brute-force oracle's on tiny puzzles (``?`` clues among them) whichever engine answers;
the lean color order finds the same solutions as the default one; on sparse puzzles the
default order leaves undecided the lean search, the learning search or CP-SAT must
decide; it keeps to its time limit and Ctrl-C stops every engine; without OR-Tools the
racers race the default search alone.
"""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings

from nurikabe import Puzzle
from nurikabe.solver import Limit, Result, Status, count_solutions, solve
from nurikabe.solver import portfolio as portfolio_module
from nurikabe.solver.native import NativeSearch
from tests.bruteforce import black_masks, is_solution
from tests.solver.test_solve import tiny_puzzles

needs_cpsat = pytest.mark.skipif(
    not portfolio_module.cpsat_available(), reason="OR-Tools is not installed"
)

SPARSE_10 = "https://puzz.link/p?nurikabe/10/10/zg1p-2bm2zg3m3q2r1j"
"""`bench/solve.py --sparse` 10x10, seed 8: a solution by construction, but the native
search finds none in its first few thousand nodes; CP-SAT finds two in about a second."""

SPARSE_20 = (
    "https://puzz.link/p?nurikabe/20/20/zzzh-8en1zvag1g2l2s1u1p2p4h2zg2r3i2j1j2w2o2i1g1g1r3m1g1g1"
    "p1g2k1o1m4r1g1g2zmcm2h1zg1"
)
"""`bench/solve.py`'s sparse 20x20 of seed 4: the native engine, its finder and annealer
included, does not decide it within 30 s (the 15x15 of seed 0 that these tests used
before, which neither engine decided within 20 s, the annealer decides in about a
second)."""

SPARSE_15_NATIVE = (
    "https://puzz.link/p?nurikabe/15/15/zq-34k1v3r1m1p1g1i1j1g1l2g1o1k1g2h1n1q1g1h1g2q1s1m-22k3h7zj"
)
"""The 15x15 of seed 3: the native engine decides it in 1-2 s, CP-SAT not in 10 s."""

SPARSE_15_LEAN = (
    "https://puzz.link/p?nurikabe/15/15/q1i1g1g1g2g1g1h1s1i1h3h1g2g1o1r2i1h1j3n1x-35zi-23zzzl8t"
)
"""The 15x15 of seed 11: the lean color order finds two solutions in 75 nodes, the
default order none in 2,000."""

SPARSE_15_LEARN = (
    "https://puzz.link/p?nurikabe/15/15/g1u3r4lczk1zk-442i8r2l4zg1g2k2zg1v3h1i5k1k1r1o"
)
"""The 15x15 of seed 4: the native search that learns from conflicts finds two solutions
in about 220 nodes, the default and the lean orders none in 4,000."""


def _agrees_with_oracle(puzzle: Puzzle, nodes: int | None = None) -> None:
    expected = black_masks(puzzle)
    counted = count_solutions(
        puzzle, limit=Limit(solutions=None, seconds=30, nodes=nodes), engine="portfolio", keep=None
    )
    assert counted.complete
    assert {board.black_mask for board in counted.solutions} == expected
    assert counted.count == len(expected)
    decided = solve(puzzle, limit=Limit(solutions=2, seconds=30, nodes=nodes), engine="portfolio")
    native = solve(puzzle)
    want = {0: Status.NONE, 1: Status.UNIQUE}.get(len(expected), Status.MULTIPLE)
    assert decided.status is native.status is want
    for board in decided.solutions:
        assert board.black_mask in expected


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_puzzles())
def test_native_answers_agree_with_the_oracle(puzzle: Puzzle) -> None:
    _agrees_with_oracle(puzzle)


@needs_cpsat
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_puzzles(max_cells=16))
def test_answers_handed_to_cpsat_agree_with_the_oracle(puzzle: Puzzle) -> None:
    """With no node for the native search, every answer comes from CP-SAT (which a node
    limit does not bound)."""
    _agrees_with_oracle(puzzle, nodes=0)
    result = solve(puzzle, limit=Limit(solutions=2, seconds=30, nodes=0), engine="portfolio")
    assert result.stats.engine == "portfolio/cpsat-fast"
    assert result.stats.extra["native_nodes"] == 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_puzzles())
def test_the_lean_order_finds_the_same_solutions(puzzle: Puzzle) -> None:
    """The lean color order changes which branch comes first, never the answer."""
    limit = Limit(solutions=None, seconds=30)
    default = NativeSearch(puzzle, limit)
    lean = NativeSearch(puzzle, limit, lean=True)
    masks = {board.black_mask for board in default.solutions()}
    assert {board.black_mask for board in lean.solutions()} == masks
    assert default.complete and lean.complete


def test_the_lean_search_decides_what_the_default_order_leaves_open() -> None:
    """A node limit (each native search's own) stops the default order with no solution;
    the lean search, racing it from the start, finds two long before CP-SAT would join."""
    result = _decided_past_node_limit(SPARSE_15_LEAN, 600)
    assert result.stats.engine == "portfolio/lean"
    assert result.stats.extra["lean_nodes"] < 600
    assert "cpsat_seconds" not in result.stats.extra
    assert "learn_nodes" not in result.stats.extra  # decided before the learning search


def test_the_learning_search_decides_what_the_other_orders_leave_open() -> None:
    """The default and the lean searches stop with no solution (at their node limit, or
    the lean one at its share of the time on a loaded machine); the learning search, which
    takes the racer's core after the lean one, finds two."""
    result = _decided_past_node_limit(SPARSE_15_LEARN, 1200)
    assert result.stats.engine == "portfolio/learn"
    assert 0 < result.stats.extra["lean_nodes"] <= 1200
    assert result.stats.extra["learn_nodes"] < 1200
    assert "cpsat_seconds" not in result.stats.extra


def test_the_learning_search_finds_the_same_solutions() -> None:
    """On a grid with a few hundred solutions, the learning search lists each once."""
    puzzle = Puzzle.from_grid([[3, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 3]])
    limit = Limit(solutions=None, seconds=30)
    default = NativeSearch(puzzle, limit)
    learning = NativeSearch(puzzle, limit, learn=True)
    listed = [board.black_mask for board in learning.solutions()]
    assert len(listed) == len(set(listed))
    assert set(listed) == {board.black_mask for board in default.solutions()}
    assert set(listed) == black_masks(puzzle)
    assert default.complete and learning.complete


def test_without_the_racers_the_default_order_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(portfolio_module, "LEAN", False)
    monkeypatch.setattr(portfolio_module, "LEARN", False)
    monkeypatch.setattr(portfolio_module, "cpsat_available", lambda: False)
    puzzle = Puzzle.from_url(SPARSE_15_LEAN)
    result = solve(puzzle, limit=Limit(solutions=2, seconds=60, nodes=300), engine="portfolio")
    assert result.status is Status.UNKNOWN and result.limit_hit == "nodes"
    assert "lean_nodes" not in result.stats.extra
    assert "learn_nodes" not in result.stats.extra


def _decided_past_node_limit(url: str, nodes: int) -> Result:
    """The portfolio's answer on a puzzle the native engine leaves open at `nodes` nodes:
    two solutions, each checked."""
    puzzle = Puzzle.from_url(url)
    limit = Limit(solutions=2, seconds=60, nodes=nodes)
    native = solve(puzzle, limit=limit)
    assert native.status is Status.UNKNOWN and native.limit_hit == "nodes"
    result = solve(puzzle, limit=limit, engine="portfolio")
    assert result.status is Status.MULTIPLE
    masks = {board.black_mask for board in result.solutions}
    assert len(masks) == 2
    cells = puzzle.grid.size
    for mask in masks:
        assert is_solution(puzzle, {divmod(i, puzzle.cols) for i in range(cells) if mask >> i & 1})
    return result


def _portfolio_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("nurikabe-portfolio")]


def test_a_native_answer_is_kept() -> None:
    puzzle = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])
    result = solve(puzzle, engine="portfolio")
    native = solve(puzzle)
    assert result.status is native.status is Status.MULTIPLE
    # The default and the lean native searches race on two threads: either may decide,
    # and each finds the two solutions in its own order.
    assert sorted(b.black_mask for b in result.solutions) == sorted(
        b.black_mask for b in native.solutions
    )
    assert result.stats.engine in ("portfolio/native", "portfolio/lean")
    assert "cpsat_seconds" not in result.stats.extra


@needs_cpsat
def test_a_sparse_puzzle_the_native_search_leaves_open_is_decided(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The node limit stops the native search after 400 nodes, the puzzle still open;
    CP-SAT then finds two solutions in the time left (no racer here)."""
    monkeypatch.setattr(portfolio_module, "LEAN", False)
    monkeypatch.setattr(portfolio_module, "LEARN", False)
    result = _decided_past_node_limit(SPARSE_10, 400)
    assert result.stats.engine == "portfolio/cpsat-fast"
    assert result.stats.extra["native_nodes"] == 400


@needs_cpsat
def test_a_native_answer_after_cpsat_joined_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The native search keeps its whole limit while CP-SAT runs beside it: on a 15x15
    the native engine decides in about a second and CP-SAT not in 10 s, the portfolio with
    CP-SAT joining at once (and no racer) answers as the native engine does, and
    stops CP-SAT."""
    monkeypatch.setattr(portfolio_module, "NATIVE_SHARE", 0.0)
    monkeypatch.setattr(portfolio_module, "LEAN", False)
    monkeypatch.setattr(portfolio_module, "LEARN", False)
    monkeypatch.setattr(portfolio_module, "CPSAT_MAX_CELLS", 15 * 15)
    puzzle = Puzzle.from_url(SPARSE_15_NATIVE)
    native = solve(puzzle, limit=Limit(solutions=2, seconds=60))
    assert native.status is Status.MULTIPLE
    began = time.perf_counter()
    result = solve(puzzle, limit=Limit(solutions=2, seconds=60), engine="portfolio")
    assert time.perf_counter() - began < 30
    assert result.status is Status.MULTIPLE and result.stats.engine == "portfolio/native"
    assert "cpsat_seconds" in result.stats.extra


def test_the_time_limit_holds_in_total() -> None:
    puzzle = Puzzle.from_url(SPARSE_20)
    began = time.perf_counter()
    result = solve(puzzle, limit=Limit(solutions=2, seconds=2.0), engine="portfolio")
    spent = time.perf_counter() - began
    assert result.status is Status.UNKNOWN and result.limit_hit == "seconds"
    assert spent < 2.0 * 1.1 + 0.1
    # a 20x20 is over CPSAT_MAX_CELLS: the learning search keeps the racer's core
    assert puzzle.grid.size > portfolio_module.CPSAT_MAX_CELLS
    assert "cpsat_seconds" not in result.stats.extra
    assert result.stats.extra["learn_seconds"] > 0.5


def test_without_ortools_it_is_the_native_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """No CP-SAT: the native search gets the whole limit (same nodes, same answer), the
    lean and then the learning one race it."""
    monkeypatch.setattr(portfolio_module, "cpsat_available", lambda: False)
    puzzle = Puzzle.from_url(SPARSE_10)
    limit = Limit(solutions=2, seconds=60, nodes=300)
    result = solve(puzzle, limit=limit, engine="portfolio")
    native = solve(puzzle, limit=limit)
    assert result.status is native.status is Status.UNKNOWN
    assert result.stats.extra["native_nodes"] == native.stats.nodes == 300
    assert "cpsat_seconds" not in result.stats.extra
    assert result.stats.engine == "portfolio/native"
    assert result.stats.extra["learn_nodes"] == 300  # the learning search to the end


@pytest.mark.parametrize("share", [1.0, 0.0], ids=["native-and-lean", "native-and-cpsat"])
def test_ctrl_c_stops_every_engine(share: float, monkeypatch: pytest.MonkeyPatch) -> None:
    if share == 0.0 and not portfolio_module.cpsat_available():
        pytest.skip("OR-Tools is not installed")
    monkeypatch.setattr(portfolio_module, "NATIVE_SHARE", share)
    monkeypatch.setattr(portfolio_module, "CPSAT_MAX_CELLS", 20 * 20)
    puzzle = Puzzle.from_url(SPARSE_20)
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    began = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            solve(puzzle, limit=Limit(solutions=2, seconds=30), engine="portfolio")
    finally:
        timer.cancel()
    assert time.perf_counter() - began < 5
    assert _portfolio_threads() == []  # the default search and the racers ended
