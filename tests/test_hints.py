"""Hints on random players' boards, checked against the published solutions.

A player's board is any mix of correct cells (black cells and dots) and unknown cells,
sometimes with mistakes. Whatever it is, a hint must name exactly the wrong cells
first; on a board without mistakes it must decide only undecided cells, and agree
with the unique solution.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corpus import needs_corpus, sample
from nurikabe import Board, Color, next_step
from nurikabe.formats import Document

pytestmark = needs_corpus

EXAMPLES = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _docs() -> list[Document]:
    return sample(30, max_cells=100)


@st.composite
def positions(draw: st.DrawFn) -> tuple[Document, Board, int]:
    """A corpus puzzle, a board holding a random part of its solution, and a random set
    of non-clue cells (a subset of the board's decided cells) to get wrong."""
    docs = _docs()
    doc = docs[draw(st.integers(0, len(docs) - 1))]
    puzzle, solution = doc.puzzle, doc.solution
    assert solution is not None
    area = puzzle.area
    known = draw(st.integers(0, (1 << area) - 1))
    if draw(st.booleans()):  # mostly-empty boards, as at the start of a game
        known &= draw(st.integers(0, (1 << area) - 1))
    board = puzzle.empty_board()
    for i in range(area):
        if known >> i & 1 and i not in puzzle.clues:
            board.set_color(i, solution.color(i))
    decided = (board.black_mask | board.white_mask) & ~puzzle.clue_mask
    flips = decided & draw(st.integers(0, (1 << area) - 1)) if draw(st.booleans()) else 0
    return doc, board, flips


@given(positions())
@EXAMPLES
def test_hint_names_the_wrong_cells_or_a_sound_new_step(position) -> None:
    doc, board, flips = position
    puzzle, solution = doc.puzzle, doc.solution
    for i in range(puzzle.area):
        if flips >> i & 1:
            wrong = Color.WHITE if solution.color(i) is Color.BLACK else Color.BLACK
            board.set_color(i, wrong)
    before = board.copy()
    step = next_step(puzzle, board, solution=solution)
    assert board == before, "a hint must not change the player's board"
    if flips:
        assert step is not None and step.kind == "wrong-cells"
        assert step.mask == flips
        return
    if board.is_complete():
        assert step is None
        return
    assert step is not None and step.kind in ("deduction", "trial"), step
    assert step.mask and not step.mask & (board.black_mask | board.white_mask)
    assert not step.black_mask & ~solution.black_mask
    assert not step.white_mask & solution.black_mask
    assert step.message


@pytest.mark.parametrize("doc", _docs()[:5], ids=lambda d: d.meta["id"])
def test_hints_alone_finish_the_puzzle(doc: Document) -> None:
    """A player who follows every hint from the empty board reaches the solution."""
    puzzle, solution = doc.puzzle, doc.solution
    board = puzzle.empty_board()
    for _ in range(puzzle.area):
        step = next_step(puzzle, board, solution=solution)
        if step is None:
            break
        board.apply(step)
    assert board == solution
