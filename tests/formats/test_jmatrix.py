"""The J essay's matrices (nurikabe.formats.jmatrix): the essay's own sample, detection,
round trips of puzzles, boards and solutions, and one-line errors on bad input."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nurikabe import Board, Puzzle, solve
from nurikabe.errors import FormatError
from nurikabe.formats import detect, load, read_board, write
from nurikabe.puzzle import UNKNOWN_CLUE
from tests.corpus import CORPUS_PATH, sample

# The essay's first sample and its solution (0 white, _1 black), with J code around them.
ESSAY = """\
NB. the first sample
n1=: ".;._2 (0 : 0)
0 1 0 0 0
0 0 0 0 2
0 0 0 0 0
3 0 0 0 0
0 0 0 2 0
)
WHITE=:  0
BLACK=: _1
FREE =: _2
init=: + FREE*0=]
"""
SOLUTION = """\
_1  1 _1 _1 _1
_1 _1 _1  0  2
_1  0 _1 _1 _1
 3  0 _1  0 _1
_1 _1 _1  2 _1
"""
# `init n1`: every cell but the clues free.
INIT = """\
_2  1 _2 _2 _2
_2 _2 _2 _2  2
_2 _2 _2 _2 _2
 3 _2 _2 _2 _2
_2 _2 _2  2 _2
"""


def test_the_essay_sample_reads_and_solves_to_its_published_solution() -> None:
    doc = load(ESSAY)
    assert doc.format == "j" and doc.meta == {"id": "n1"}
    assert (doc.puzzle.rows, doc.puzzle.cols) == (5, 5)
    assert doc.puzzle.clues == {1: 1, 9: 2, 15: 3, 23: 2}
    assert doc.board is None and doc.solution is None
    published = load(SOLUTION)
    assert published.puzzle == doc.puzzle and published.board is None
    assert published.solution is not None
    result = solve(doc.puzzle)
    assert result.status.name == "UNIQUE" and result.solution is not None
    assert result.solution.to_rows() == published.solution.to_rows()


def test_a_board_with_free_cells_is_a_board() -> None:
    doc = load(INIT)
    assert doc.board is not None and doc.solution is None
    assert doc.board.black_mask == 0 and doc.board.white_mask == doc.puzzle.clue_mask
    assert detect(INIT) == "j"


def test_detection_leaves_plain_matrices_to_the_text_format() -> None:
    assert detect(ESSAY) == "j"
    assert detect(SOLUTION) == "j"
    assert detect("0 1 0\n0 0 2") == "text"  # no `_`: the thesis matrix, same meaning
    assert load("0 1 0\n0 0 2", format="j").puzzle == load("0 1 0\n0 0 2").puzzle
    assert detect('m=: ".;._2 noun define\n0 1\n2 0\n)') == "j"
    with pytest.raises(FormatError):
        detect("2_1\n1_3")  # J numbers are separated by spaces


def test_read_board_takes_a_j_solution() -> None:
    puzzle = load(ESSAY).puzzle
    board = read_board(SOLUTION, puzzle)
    solution = load(SOLUTION).solution
    assert solution is not None and board.black_mask == solution.black_mask
    with pytest.raises(FormatError, match="no board or solution"):
        read_board('m=: ".;._2 (0 : 0)\n0 1 0\n0 0 0\n)', Puzzle.from_grid([[0, 1, 0], [0, 0, 0]]))


def test_writing_is_the_block_form_and_reads_back() -> None:
    doc = load(ESSAY)
    text = write(doc, "j")
    assert text.splitlines()[0] == 'n1=: ".;._2 (0 : 0)' and text.splitlines()[-1] == ")"
    assert load(text).puzzle == doc.puzzle
    solved = load(SOLUTION)
    again = load(write(solved, "j"))
    assert again.solution is not None
    assert solved.solution is not None
    assert again.solution.to_rows() == solved.solution.to_rows()
    assert write(solved, "j").splitlines()[1:-1] == SOLUTION.splitlines()


@pytest.mark.skipif(not CORPUS_PATH.exists(), reason="the corpus is in ../shared")
def test_corpus_puzzles_and_solutions_round_trip() -> None:
    for doc in sample(25):
        assert doc.solution is not None
        back = load(write(doc, "j"))
        assert back.puzzle == doc.puzzle
        assert back.solution is not None
        assert back.solution.to_rows() == doc.solution.to_rows()
        assert load(write(doc.puzzle, "j")).puzzle == doc.puzzle


@st.composite
def boards(draw: st.DrawFn) -> Board:
    rows, cols = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    cells = rows * cols
    clue_cells = draw(st.sets(st.integers(0, cells - 1), min_size=1, max_size=min(cells, 5)))
    clues = {i: draw(st.integers(1, cells)) for i in clue_cells}
    puzzle = Puzzle(rows, cols, clues)
    colors = draw(st.lists(st.sampled_from("#.?"), min_size=cells, max_size=cells))
    black = sum(1 << i for i, c in enumerate(colors) if c == "#" and i not in clues)
    white = sum(1 << i for i, c in enumerate(colors) if c == ".") | puzzle.clue_mask
    return Board(puzzle, black, white & ~black)


@settings(max_examples=100, deadline=None)
@given(boards())
def test_random_boards_round_trip(board: Board) -> None:
    back = load(write(board.puzzle, "j", board=board))
    assert back.puzzle == board.puzzle
    if board.black_mask == 0 and board.unknown_mask == 0:
        return  # all white: written as the puzzle alone, 0 meaning an empty cell
    shading = back.board if back.board is not None else back.solution
    assert shading is not None
    assert shading.to_rows() == board.to_rows()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('n1=: ".;._2 (0 : 0)\n0 1\n', "no closing ')' line"),
        ('n1=: ".;._2 (0 : 0)\n)\n', "the block n1 has no rows"),
        ("_1 1 0\n0 _2", "expected 3 cells, got 2"),
        ("_1 _3 0\n0 0 1", "unknown cell '_3'"),
        ("_1 -1 0\n0 0 1", "unknown cell '-1'"),
        ("_1 9 0\n0 0 1", "clue 9 is larger than the grid"),
        ("_2 " * 300, "more than 256"),
    ],
)
def test_bad_input_is_one_clear_error(text: str, message: str) -> None:
    with pytest.raises(FormatError, match=re.escape(message)) as info:
        load(text, format="j")
    assert len(str(info.value).splitlines()) == 1


def test_a_question_mark_clue_has_no_j_form() -> None:
    puzzle = Puzzle(2, 2, {0: UNKNOWN_CLUE})
    with pytest.raises(FormatError, match="no '\\?' clue"):
        write(puzzle, "j")
