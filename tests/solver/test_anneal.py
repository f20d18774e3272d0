"""Tests of the annealer (`solver.anneal`), the local search that races the native
engine's depth-first searches (`native.ANNEAL`).

It may only ever hand back solutions: on random small puzzles every shading it keeps is
a solution of the brute-force oracle, none twice; on puzzles with many solutions it
meets several; the same puzzle gives the same moves. In the race it decides a sparse
grid that both depth-first searches leave open, and never joins a search from a given
board or with ``?`` clues (it has no size to aim at there).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from nurikabe import Board, Puzzle
from nurikabe.puzzle import UNKNOWN_CLUE
from nurikabe.solver import Limit, Status, native, solve
from nurikabe.solver.anneal import Annealer
from nurikabe.solver.native import NativeSearch
from tests.bruteforce import black_masks
from tests.solver.test_learning import small_puzzles

SPARSE_15_SEED_10 = Puzzle.from_clues(
    15,
    15,
    [
        (0, 2, 2), (0, 6, 3), (0, 14, 1), (1, 10, 1), (1, 12, 1), (2, 1, 1), (2, 6, 41),
        (2, 9, 1), (3, 13, 2), (4, 1, 1), (4, 14, 1), (5, 4, 4), (6, 1, 1), (7, 2, 1),
        (8, 0, 1), (8, 4, 1), (10, 4, 30), (13, 13, 27), (14, 0, 2), (14, 5, 1),
    ],
)  # fmt: skip
"""`bench/solve.py`'s sparse 15x15, seed 10: many solutions; the depth-first search and
the finder together meet none within 10 s of CPU (24,000 nodes), the annealer alone meets
two within about a second."""


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles())
def test_every_shading_kept_is_a_solution(puzzle: Puzzle) -> None:
    if UNKNOWN_CLUE in puzzle.clues.values():
        assert not Annealer.applies(puzzle)
        with pytest.raises(ValueError, match="numbered clues"):
            Annealer(puzzle)
        return
    annealer = Annealer(puzzle)
    met = annealer.run(3000)
    assert len(met) == len(set(met))
    assert set(met) <= black_masks(puzzle)
    assert set(met) == annealer.found
    assert annealer.run(0) == []


def test_a_puzzle_with_many_solutions_gives_several_each_once() -> None:
    puzzle = Puzzle(5, 5, {0: 7, 24: 6})
    expected = black_masks(puzzle)
    assert len(expected) > 20
    annealer = Annealer(puzzle)
    met = annealer.run(20_000) + annealer.run(20_000)
    assert len(met) >= 5
    assert len(met) == len(set(met)) and set(met) <= expected


def test_the_same_puzzle_gives_the_same_moves() -> None:
    puzzle = Puzzle(5, 5, {0: 7, 24: 6})
    first, second = Annealer(puzzle), Annealer(puzzle)
    assert first.run(5000) == second.run(5000)
    assert first.islands == second.islands and first.cost == second.cost


def test_a_unique_puzzle_gives_its_solution_only() -> None:
    puzzle = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 3]])
    expected = black_masks(puzzle)
    met = Annealer(puzzle).run(20_000)
    assert set(met) <= expected and len(met) <= len(expected)


@pytest.mark.parametrize("clues", [{}, {0: UNKNOWN_CLUE, 8: 2}])
def test_puzzles_it_cannot_search(clues: dict[int, int]) -> None:
    assert not Annealer.applies(Puzzle(3, 3, clues))


@pytest.mark.slow
def test_the_race_decides_a_sparse_grid_the_searches_leave_open() -> None:
    puzzle = SPARSE_15_SEED_10
    alone = NativeSearch(puzzle, Limit(solutions=2, nodes=3000), finder=False)
    assert list(alone.solutions()) == [] and alone.limit_hit == "nodes"
    search = NativeSearch(puzzle, Limit(solutions=2, seconds=120))
    found = [board.black_mask for board in search.solutions()]
    assert len(found) == len(set(found)) == 2
    assert search.anneal_moves > 0 and search.limit_hit == "solutions"
    for black in found:
        board = Board(puzzle, black, puzzle.grid.full & ~black)
        assert solve(puzzle, limit=Limit(solutions=2), start=board).status is Status.UNIQUE


def test_the_race_goes_without_it_where_it_cannot_help(monkeypatch: pytest.MonkeyPatch) -> None:
    """From a given board, and with ``?`` clues, the race is the two searches alone."""
    monkeypatch.setattr(native, "FINDER_AFTER", 1)
    monkeypatch.setattr(native, "FINDER_SLICE", 1)
    puzzle = Puzzle(5, 5, {0: 7, 24: 6})
    start = Board(puzzle, 0, 1)
    given = NativeSearch(puzzle, Limit(solutions=2, seconds=60), start=start)
    assert len(list(given.solutions())) == 2 and given.anneal_moves == 0
    unknown = NativeSearch(Puzzle(5, 5, {0: 7, 24: UNKNOWN_CLUE}), Limit(solutions=2, seconds=60))
    list(unknown.solutions())
    assert unknown.anneal_moves == 0


def test_a_race_on_many_solutions_hands_back_the_annealer_s(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the searches' turns one node long, the annealer's turn comes first and meets
    both solutions asked for."""
    monkeypatch.setattr(native, "FINDER_AFTER", 1)
    monkeypatch.setattr(native, "FINDER_SLICE", 1)
    puzzle = Puzzle(5, 5, {0: 7, 24: 6})
    search = NativeSearch(puzzle, Limit(solutions=2, seconds=60))
    found = [board.black_mask for board in search.solutions()]
    assert len(found) == len(set(found)) == 2 and set(found) <= black_masks(puzzle)
    assert search.anneal_moves == native.ANNEAL_SLICE * 25 and search.limit_hit == "solutions"


def test_switched_off_the_race_has_no_annealer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "ANNEAL", False)
    monkeypatch.setattr(native, "FINDER_AFTER", 1)
    monkeypatch.setattr(native, "FINDER_SLICE", 1)
    search = NativeSearch(Puzzle(5, 5, {0: 7, 24: 6}), Limit(solutions=2, seconds=60))
    assert len(list(search.solutions())) == 2 and search.anneal_moves == 0
