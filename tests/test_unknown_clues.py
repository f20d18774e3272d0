"""The logic engine on puzzles with ``?`` clues (an island of unknown size, at least 1).

A ``?`` island may already be complete and may grow as far as the room left allows, so
no argument about its size holds; it still counts as a clue (two clues in one island,
reaching a stray white cell). Every step of every walkthrough and every hint must agree
with the solution:

- corpus puzzles with random clues turned ``?``, kept when the exact solver (sound for
  ``?``) still proves them unique, walked through and hinted from random boards taken
  from their solution;
- the example of issue 14 (janko 544 with one clue turned ``?``), which used to say the
  ``?`` "can only grow through" a cell;
- small random grids with ``?`` clues against the brute-force oracle, where a step must
  hold in every solution (unique or not).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bruteforce import black_masks
from corpus import needs_corpus, sample
from nurikabe import Board, Limit, Puzzle, Step, explain, grade, next_step, solve
from nurikabe.formats import read
from nurikabe.puzzle import UNKNOWN_CLUE
from nurikabe.solver import Status

ISSUE_EXAMPLE = "https://puzz.link/p?nurikabe/10/10/o.8x3g3g3u3p3h5j2h5i4i3z"
"""Janko 544 with one clue turned ``?`` (issue 14: step 9 used to be wrong)."""

SECONDS = 10.0
"""CPU time of one walkthrough here (they take milliseconds; a stop is not a failure)."""


def _wrong(step: Step, black: int) -> int:
    """The cells `step` decides against the solution with black cells `black`."""
    return (step.black_mask & ~black) | (step.white_mask & black)


def _check_walk(puzzle: Puzzle, solution: Board) -> None:
    walk = explain(puzzle, seconds=SECONDS)
    for n, step in enumerate(walk.steps, 1):
        assert step.kind in ("deduction", "trial"), (n, step.message)
        assert not _wrong(step, solution.black_mask), (n, step.message)
    assert walk.grade is not None
    if walk.status == "solved":
        assert walk.board == solution
        # The grade is the walkthrough's, and says it was solved. The steps depend on
        # counted work alone, so given the time the same walkthrough comes again; with
        # only the same time, a walkthrough that finished close to its limit could stop.
        again = grade(puzzle, seconds=4 * SECONDS)
        assert again == walk.grade and again.solved
    else:
        assert not walk.grade.solved and walk.grade.level == "extreme"


def test_issue_example_is_explained_soundly() -> None:
    puzzle = read(ISSUE_EXAMPLE)
    result = solve(puzzle)
    assert result.status is Status.UNIQUE
    solution = result.solution
    assert solution is not None
    walk = explain(puzzle, seconds=SECONDS)
    for step in walk.steps:
        assert not _wrong(step, solution.black_mask), step.message
    assert not any("? at r1c10 can only grow" in s.message for s in walk.steps)
    assert walk.status == "solved" and walk.board == solution


def test_complete_question_mark_island_is_not_grown() -> None:
    """A ``?`` of one cell walled in on three sides: it need not grow through the fourth."""
    puzzle = Puzzle.from_clues(3, 3, [(0, 0, UNKNOWN_CLUE), (2, 2, 3)])
    board = puzzle.empty_board()
    board.set_black(1)  # r1c2
    step = next_step(puzzle, board, solution=None)
    # Both r2c1 white and r2c1 black are possible for the ? alone; nothing may claim it
    # "must grow".
    assert step is None or "can only grow" not in step.message


# -- corpus puzzles with clues turned ? ------------------------------------------------------


def _docs():
    return sample(40, max_cells=100)


@st.composite
def unknown_clue_puzzles(draw: st.DrawFn) -> tuple[Puzzle, Board]:
    """A corpus puzzle with one to three clues turned ``?``, still unique, and its solution."""
    docs = _docs()
    doc = docs[draw(st.integers(0, len(docs) - 1))]
    clues = dict(doc.puzzle.clues)
    cells = sorted(clues)
    chosen = draw(st.lists(st.sampled_from(cells), min_size=1, max_size=3, unique=True))
    for cell in chosen:
        clues[cell] = UNKNOWN_CLUE
    puzzle = Puzzle(doc.puzzle.rows, doc.puzzle.cols, clues)
    result = solve(puzzle, limit=Limit(solutions=2, seconds=10))
    assume(result.status is Status.UNIQUE)
    solution = result.solution
    assert solution is not None and doc.solution is not None
    assert solution.black_mask == doc.solution.black_mask  # still the published one
    return puzzle, solution


CORPUS_EXAMPLES = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@needs_corpus
@given(unknown_clue_puzzles())
@CORPUS_EXAMPLES
def test_walkthrough_with_question_marks_agrees_with_solution(case) -> None:
    puzzle, solution = case
    _check_walk(puzzle, solution)


@needs_corpus
@given(unknown_clue_puzzles(), st.data())
@CORPUS_EXAMPLES
def test_hints_with_question_marks_agree_with_solution(case, data) -> None:
    puzzle, solution = case
    area = puzzle.area
    known = data.draw(st.integers(0, (1 << area) - 1))
    if data.draw(st.booleans()):  # mostly-empty boards, as at the start of a game
        known &= data.draw(st.integers(0, (1 << area) - 1))
    board = puzzle.empty_board()
    for i in range(area):
        if known >> i & 1 and i not in puzzle.clues:
            board.set_color(i, solution.color(i))
    step = next_step(puzzle, board, solution=solution)
    if board.is_complete():
        assert step is None
        return
    if step is None:
        return  # nothing found (allowed; never wrong)
    assert step.kind in ("deduction", "trial"), step.message
    assert step.mask and not step.mask & (board.black_mask | board.white_mask)
    assert not _wrong(step, solution.black_mask), step.message


# -- small grids against the brute-force oracle ----------------------------------------------


@st.composite
def small_puzzles(draw: st.DrawFn) -> Puzzle:
    """A random grid of up to 16 cells with random clues, at least one of them ``?``."""
    rows = draw(st.integers(2, 4))
    cols = draw(st.integers(2, 4))
    area = rows * cols
    cells = draw(st.lists(st.integers(0, area - 1), min_size=1, max_size=4, unique=True))
    values = [draw(st.sampled_from([UNKNOWN_CLUE, 1, 2, 3, 4, 5][: area + 1])) for _ in cells]
    values[0] = UNKNOWN_CLUE
    return Puzzle(rows, cols, dict(zip(cells, values, strict=True)))


@given(small_puzzles())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_small_question_mark_puzzles_against_brute_force(puzzle: Puzzle) -> None:
    """Every step holds in every solution; a puzzle with a solution is never called
    impossible; a solved walkthrough ends on the unique solution."""
    solutions = black_masks(puzzle)
    walk = explain(puzzle, seconds=SECONDS)
    if not solutions:
        assert walk.status != "solved"
        return
    for step in walk.steps:
        assert step.kind != "contradiction", step.message
        for black in solutions:
            assert not _wrong(step, black), step.message
    if walk.status == "solved":
        assert walk.board is not None
        assert {walk.board.black_mask} == solutions


@pytest.mark.parametrize("value", [UNKNOWN_CLUE, 2])
def test_question_mark_that_may_be_complete(value: int) -> None:
    """A 1x3 strip with the clue in the middle: a ``?`` has several solutions (1, 2 or 3
    cells), so no step may decide a cell; a 2 has two, and neither may be taken."""
    puzzle = Puzzle(1, 3, {1: value})
    solutions = black_masks(puzzle)
    walk = explain(puzzle, seconds=SECONDS)
    assert walk.status == "stuck"
    for step in walk.steps:
        assert step.kind != "contradiction"
        for black in solutions:
            assert not _wrong(step, black), step.message


@needs_corpus
@pytest.mark.slow
def test_every_small_corpus_puzzle_with_one_clue_turned_question_mark() -> None:
    """The whole-corpus form of the property test: every puzzle of up to 100 cells, with
    each of its clues in turn turned ``?`` (kept when still unique), is walked through
    with no wrong step (about 900 puzzles, two minutes)."""
    from corpus import corpus

    kept = 0
    for doc in corpus():
        puzzle = doc.puzzle
        if puzzle.area > 100:
            continue
        for cell in sorted(puzzle.clues):
            clues = dict(puzzle.clues)
            clues[cell] = UNKNOWN_CLUE
            changed = Puzzle(puzzle.rows, puzzle.cols, clues)
            result = solve(changed, limit=Limit(solutions=2, seconds=10))
            if result.status is not Status.UNIQUE or result.solution is None:
                continue
            kept += 1
            walk = explain(changed, seconds=SECONDS)
            for step in walk.steps:
                assert step.kind in ("deduction", "trial"), (changed.to_url(), step.message)
                assert not _wrong(step, result.solution.black_mask), (
                    changed.to_url(),
                    step.message,
                )
    assert kept > 500
