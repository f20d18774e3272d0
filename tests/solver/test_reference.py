"""Tests of the pure-Python exact engine (`nurikabe.solver.reference`, engine name `reference`).

Correctness against the published corpus solutions, against a brute-force oracle on
small random puzzles, hand-made edge cases, `start` assumptions and the limits.
"""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nurikabe.formats import Document
from nurikabe.puzzle import UNKNOWN_CLUE, Board, Puzzle
from nurikabe.solver.reference import ReferenceSearch, search
from nurikabe.solver.result import Limit, Status
from tests.corpus import CORPUS_PATH, corpus

needs_corpus = pytest.mark.skipif(not CORPUS_PATH.exists(), reason="corpus not available")


def brute_force(puzzle: Puzzle) -> list[int]:
    """Every solution's black mask, by trying all 2^n colorings against the rules."""
    grid = puzzle.grid
    clue_mask = puzzle.clue_mask
    found = []
    for black in range(1 << grid.size):
        if black & clue_mask:
            continue
        if grid.pool_corners(black) or not grid.is_connected(black):
            continue
        white = grid.full & ~black
        seen = 0
        for cell, value in puzzle.clues.items():
            island = grid.flood(1 << cell, white)
            if island & clue_mask != 1 << cell:
                break
            if value != UNKNOWN_CLUE and island.bit_count() != value:
                break
            seen |= island
        else:
            if seen == white:
                found.append(black)
    return found


def is_valid(puzzle: Puzzle, board: Board) -> bool:
    """Whether a full board obeys every rule."""
    return board.black_mask in brute_force_check(puzzle, board.black_mask)


def brute_force_check(puzzle: Puzzle, black: int) -> set[int]:
    """`{black}` when `black` is a solution of `puzzle`, else the empty set."""
    grid = puzzle.grid
    white = grid.full & ~black
    if black & puzzle.clue_mask or grid.pool_corners(black) or not grid.is_connected(black):
        return set()
    seen = 0
    for cell, value in puzzle.clues.items():
        island = grid.flood(1 << cell, white)
        if island & puzzle.clue_mask != 1 << cell:
            return set()
        if value != UNKNOWN_CLUE and island.bit_count() != value:
            return set()
        seen |= island
    return {black} if seen == white else set()


# -- the corpus -----------------------------------------------------------------------------------


SLOW = frozenset(
    [
        "janko-0029",
        "janko-0261",
        "janko-0510",
        "janko-0570",
        "janko-0660",
        "janko-0680",
        "janko-0690",
        "janko-0940",
        "janko-0943",
        "janko-0950",
        "janko-0956",
        "janko-0962",
        "janko-0967",
        "janko-0973",
        "janko-1055",
        "janko-1091",
        "janko-1108",
        "janko-1109",
        "grilops-issue10-1",
        "nikoli-stl-9",
    ]
)
"""Corpus puzzles the engine needs seconds for (or more): only in the slow full-corpus test."""


def _fast_sample() -> list[Document]:
    if not CORPUS_PATH.exists():
        return []
    docs = [d for d in corpus() if d.meta["id"] not in SLOW]
    small = [d for d in docs if d.puzzle.area <= 100]
    middle = [d for d in docs if 100 < d.puzzle.area < 400]
    return small[::4] + middle[::15]


def _check_corpus_doc(doc: Document, seconds: float = 60) -> None:
    result = search(doc.puzzle, Limit(solutions=2, seconds=seconds))
    assert result.status is Status.UNIQUE, doc.meta["id"]
    assert result.complete and result.limit_hit is None
    assert doc.solution is not None
    assert result.solutions[0].black_mask == doc.solution.black_mask, doc.meta["id"]
    assert result.stats.engine == "reference"


@needs_corpus
@pytest.mark.parametrize("doc", _fast_sample(), ids=lambda d: d.meta["id"])
def test_corpus_sample(doc: Document) -> None:
    _check_corpus_doc(doc, seconds=30)


@needs_corpus
@pytest.mark.slow
@pytest.mark.parametrize(
    "doc", list(corpus()) if CORPUS_PATH.exists() else [], ids=lambda d: d.meta["id"]
)
def test_corpus_full(doc: Document) -> None:
    """Every corpus puzzle: proven, or stopped by the time limit with nothing wrong found.

    The pure-Python engine is the reference twin of the compiled core, without the
    core's later rules; in a loaded run (session 11) it proved 492 of the 499 within
    120 s, and janko 29, 660, 680, 940, 950, 1055 and 1108 ran out of time. The fast
    sample above holds it to a proof on every puzzle outside `SLOW`."""
    result = search(doc.puzzle, Limit(solutions=2, seconds=120))
    assert doc.solution is not None
    if result.status is Status.UNKNOWN:
        assert result.limit_hit == "seconds", doc.meta["id"]
        assert all(b.black_mask == doc.solution.black_mask for b in result.solutions)
        return
    assert result.status is Status.UNIQUE, doc.meta["id"]
    assert result.complete and result.limit_hit is None
    assert result.solutions[0].black_mask == doc.solution.black_mask, doc.meta["id"]


# -- hand-made cases ------------------------------------------------------------------------------


def test_multiple_solutions_url_example() -> None:
    puzzle = Puzzle.from_clues(6, 6, [(1, 1, 8), (2, 4, 8), (3, 2, 9)])
    result = search(puzzle, Limit(solutions=2))
    assert result.status is Status.MULTIPLE
    a, b = result.solutions
    assert a.black_mask != b.black_mask
    assert is_valid(puzzle, a) and is_valid(puzzle, b)
    assert len(result.difference()) > 0


def test_one_by_one_with_clue() -> None:
    puzzle = Puzzle.from_grid([[1]])
    result = search(puzzle, Limit())
    assert result.status is Status.UNIQUE
    assert result.solutions[0].black_mask == 0 and result.solutions[0].white_mask == 1


def test_one_by_one_without_clue() -> None:
    puzzle = Puzzle(1, 1, {})
    result = search(puzzle, Limit())
    assert result.status is Status.UNIQUE
    assert result.solutions[0].black_mask == 1


def test_two_by_two_without_clues_is_a_pool() -> None:
    assert search(Puzzle(2, 2, {}), Limit()).status is Status.NONE


def test_no_clues_strip() -> None:
    result = search(Puzzle(1, 7, {}), Limit())
    assert result.status is Status.UNIQUE
    assert result.solutions[0].black_mask == (1 << 7) - 1


def test_adjacent_clues() -> None:
    puzzle = Puzzle.from_grid([[1, 2, 0], [0, 0, 0], [0, 0, 0]])
    result = search(puzzle, Limit())
    assert result.status is Status.NONE and result.complete


def test_clue_too_big_to_fit() -> None:
    # The 8 cannot grow past the 1's black border.
    puzzle = Puzzle.from_grid([[8, 0, 0], [0, 0, 0], [0, 0, 1]])
    assert search(puzzle, Limit()).status is Status.NONE
    # The whole grid white but a sea is still needed elsewhere: the clue fits exactly.
    assert search(Puzzle.from_grid([[4, 0], [0, 0]]), Limit()).status is Status.UNIQUE
    assert search(Puzzle.from_grid([[3, 0], [0, 1]]), Limit()).status is Status.NONE


def test_unknown_clues() -> None:
    q = UNKNOWN_CLUE
    assert search(Puzzle.from_grid([[q]]), Limit()).status is Status.UNIQUE
    result = search(Puzzle.from_grid([[q, 0]]), Limit(solutions=None))
    assert result.status is Status.MULTIPLE and result.count == 2
    puzzle = Puzzle.from_grid([[q, 0, 0], [0, 0, 0], [0, 0, 1]])
    result = search(puzzle, Limit(solutions=None))
    assert sorted(b.black_mask for b in result.solutions) == sorted(brute_force(puzzle))


def test_known_solution_of_small_puzzle() -> None:
    puzzle = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])
    result = search(puzzle, Limit(solutions=None))
    assert result.status is Status.MULTIPLE and result.complete
    assert sorted(b.black_mask for b in result.solutions) == sorted(brute_force(puzzle))


# -- start assumptions ----------------------------------------------------------------------------


def test_start_assumptions_are_honoured() -> None:
    puzzle = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])
    solutions = brute_force(puzzle)
    assert len(solutions) == 2
    for black in solutions:
        # Fix one cell where the two differ to this solution's color.
        diff = solutions[0] ^ solutions[1]
        cell = (diff & -diff).bit_length() - 1
        start = puzzle.empty_board()
        if black >> cell & 1:
            start.set_black(cell)
        else:
            start.set_white(cell)
        result = search(puzzle, Limit(), start=start)
        assert result.status is Status.UNIQUE
        assert result.solutions[0].black_mask == black


def test_start_contradicting_a_clue() -> None:
    puzzle = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])
    start = Board(puzzle, 1, 0)  # the clue cell black
    assert search(puzzle, Limit(), start=start).status is Status.NONE


@needs_corpus
def test_start_forced_cell_test() -> None:
    doc = corpus()[0]
    puzzle = doc.puzzle
    assert doc.solution is not None
    cell = (doc.solution.black_mask & -doc.solution.black_mask).bit_length() - 1
    start = puzzle.empty_board()
    start.set_white(cell)  # the opposite of the solution
    assert search(puzzle, Limit(), start=start).status is Status.NONE


# -- limits ---------------------------------------------------------------------------------------


def test_huge_grid_with_few_clues_times_out() -> None:
    puzzle = Puzzle.from_clues(60, 60, [(10, 10, 30), (40, 45, 50)])
    t0 = time.perf_counter()
    result = search(puzzle, Limit(solutions=2, seconds=1))
    elapsed = time.perf_counter() - t0
    assert elapsed < 1.5
    assert result.status is Status.UNKNOWN or result.complete
    assert result.stats.seconds <= elapsed


def test_node_limit() -> None:
    puzzle = Puzzle.from_clues(6, 6, [(1, 1, 8), (2, 4, 8), (3, 2, 9)])
    engine = ReferenceSearch(puzzle, Limit(solutions=None, nodes=3, seconds=None))
    list(engine.solutions())
    assert engine.nodes <= 3
    assert engine.limit_hit == "nodes" and not engine.complete


def test_solution_limit_and_generator() -> None:
    puzzle = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])
    engine = ReferenceSearch(puzzle, Limit(solutions=1))
    first = list(engine.solutions())
    assert len(first) == 1
    assert first[0].black_mask in brute_force(puzzle)
    assert engine.limit_hit == "solutions" and not engine.complete


# -- the brute-force oracle -----------------------------------------------------------------------


@st.composite
def small_puzzles(draw: st.DrawFn) -> Puzzle:
    rows, cols = draw(
        st.sampled_from(
            [(1, 1), (1, 4), (2, 2), (2, 3), (3, 3), (3, 4), (4, 3), (3, 5), (4, 4), (2, 6)]
        )
    )
    area = rows * cols
    n = draw(st.integers(0, min(5, area)))
    cells = draw(st.lists(st.integers(0, area - 1), min_size=n, max_size=n, unique=True))
    clues = {}
    for cell in cells:
        clues[cell] = draw(
            st.one_of(st.integers(1, min(area, 6)), st.just(UNKNOWN_CLUE))
            if draw(st.integers(0, 5)) == 0
            else st.integers(1, min(area, 6))
        )
    return Puzzle(rows, cols, clues)


@settings(max_examples=300, deadline=None)
@given(small_puzzles())
def test_agrees_with_brute_force(puzzle: Puzzle) -> None:
    expected = sorted(brute_force(puzzle))
    result = search(puzzle, Limit(solutions=None, seconds=None))
    assert result.complete
    got = sorted(b.black_mask for b in result.solutions)
    assert got == expected
    for board in result.solutions:
        assert board.white_mask == puzzle.grid.full & ~board.black_mask


@settings(max_examples=100, deadline=None)
@given(small_puzzles(), st.randoms(use_true_random=False))
def test_agrees_with_brute_force_under_assumptions(puzzle: Puzzle, rng: random.Random) -> None:
    expected = brute_force(puzzle)
    start = puzzle.empty_board()
    for cell in range(puzzle.area):
        roll = rng.random()
        if roll < 0.1:
            start.set_black(cell)
        elif roll < 0.2:
            start.set_white(cell)
    want = sorted(
        b for b in expected if b & start.black_mask == start.black_mask and not b & start.white_mask
    )
    result = search(puzzle, Limit(solutions=None, seconds=None), start=start)
    assert result.complete
    assert sorted(b.black_mask for b in result.solutions) == want
