"""The puzzle model: validation, soundness flags, boards, moves, undo."""

from __future__ import annotations

import pytest

from nurikabe import (
    UNKNOWN_CLUE,
    Board,
    Color,
    FormatError,
    IllegalMoveError,
    InvalidPuzzleError,
    Move,
    Puzzle,
    PuzzleIssue,
)
from nurikabe.errors import InvalidBoardError


def test_puzzle_is_frozen_and_hashable() -> None:
    a = Puzzle.from_clues(3, 5, [(0, 0, 2), (2, 4, 1)])
    b = Puzzle(3, 5, {14: 1, 0: 2})
    assert a == b and hash(a) == hash(b)
    assert {a: 1}[b] == 1
    with pytest.raises(AttributeError):
        a.rows = 4
    assert a.clues == {0: 2, 14: 1}
    assert a.clue_at(2, 4) == 1 and a.clue_at(1, 1) is None
    assert a.clue_mask == 1 | 1 << 14


@pytest.mark.parametrize(
    ("rows", "cols", "clues", "words"),
    [
        (0, 0, {}, "at least one row"),
        (0, 5, {}, "at least one row"),
        (3, 300, {}, "larger than the supported"),
        (2, 2, {0: 0}, "not a positive number"),
        (2, 2, {0: -3}, "not a positive number"),
        (2, 2, {0: 5}, "larger than the grid"),
        (2, 2, {4: 1}, "off the"),
    ],
)
def test_invalid_puzzles(rows: int, cols: int, clues: dict[int, int], words: str) -> None:
    with pytest.raises(InvalidPuzzleError, match=words):
        Puzzle(rows, cols, clues)


def test_invalid_puzzle_error_is_value_error() -> None:
    with pytest.raises(ValueError):
        Puzzle.from_clues(2, 2, [(0, 0, 1), (0, 0, 2)])


def test_issues_flags() -> None:
    assert Puzzle.from_grid([[1, 0, 1]]).issues() == PuzzleIssue.NONE
    assert Puzzle.from_grid([[1, 1, 0]]).issues() == PuzzleIssue.ADJACENT_CLUES
    assert Puzzle.from_grid([[2, 0, 2]]).issues() == PuzzleIssue.CLUES_EXCEED_AREA
    both = Puzzle.from_grid([[3, 3, 0]]).issues()
    assert both == PuzzleIssue.ADJACENT_CLUES | PuzzleIssue.CLUES_EXCEED_AREA
    # A single clue may fill the grid: no sea at all is a valid solution.
    assert Puzzle.from_grid([[0, 3, 0]]).issues() == PuzzleIssue.NONE
    assert Puzzle.from_grid([[UNKNOWN_CLUE, 0]]).has_unknown_clues


def test_with_and_without_clue() -> None:
    p = Puzzle.from_grid([[2, 0, 0]])
    assert p.with_clue(2, 1).clues == {0: 2, 2: 1}
    assert p.without_clue(0).clues == {}
    assert p.clues == {0: 2}


def test_move_text_round_trip() -> None:
    for text in ("r1c1=#", "r3c4=.", "r12c30=?"):
        assert str(Move.parse(text)) == text
    assert Move.parse(" R2C3 = x ") == Move(1, 2, Color.BLACK)
    for bad in ("", "r0c1=#", "r1c1=z", "r1c1", "c1r1=#", "r1c1=##"):
        with pytest.raises(FormatError):
            Move.parse(bad)


def test_board_play_and_undo() -> None:
    p = Puzzle.from_clues(2, 3, [(0, 0, 2)])
    board = p.empty_board()
    assert board.color_at(0, 0) is Color.WHITE
    assert board.unknown_mask == 0b111110
    board.play("r1c2=.")
    board.play(Move(1, 2, Color.BLACK))
    assert board.to_rows() == ["..?", "??#"]
    board.undo()
    assert board.to_rows() == ["..?", "???"]
    board.undo()
    assert not board.can_undo()
    with pytest.raises(IllegalMoveError, match="holds a clue"):
        board.play("r1c1=#")
    with pytest.raises(IllegalMoveError, match="off the"):
        board.play("r3c1=#")
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        board.undo()


def test_board_apply_several_moves_is_one_undo() -> None:
    p = Puzzle.from_clues(2, 2, [(0, 0, 1)])
    board = p.empty_board()
    board.apply([Move(0, 1, Color.BLACK), Move(1, 0, Color.BLACK)])
    assert board.black_cells().coords() == [(0, 1), (1, 0)]
    board.undo()
    assert board.black_mask == 0


def test_board_copy_is_independent() -> None:
    p = Puzzle.from_clues(2, 2, [(0, 0, 1)])
    board = p.empty_board()
    copy = board.copy()
    copy.set_black(3)
    assert board.black_mask == 0 and copy.black_mask == 8
    assert board != copy
    copy.clear(3)
    assert board == copy


def test_board_from_rows() -> None:
    p = Puzzle.from_clues(2, 3, [(0, 0, 2)])
    board = Board.from_rows(p, ["2.#", "##?"])
    assert board.to_rows() == ["..#", "##?"]
    shaded_clue = Board.from_rows(p, ["#.#", "##."])
    assert 0 in shaded_clue.black_cells()
    with pytest.raises(FormatError, match="expected 2 rows"):
        Board.from_rows(p, ["2.#"])
    with pytest.raises(FormatError, match="expected 3 cells"):
        Board.from_rows(p, ["2.#", "##"])
    with pytest.raises(FormatError, match="unknown cell"):
        Board.from_rows(p, ["2.#", "#%#"])


def test_cellset() -> None:
    p = Puzzle.from_clues(2, 3, [(0, 0, 2)])
    cells = Board.from_rows(p, ["2.#", "##?"]).black_cells()
    assert len(cells) == 3 and 2 in cells and (1, 0) in cells and (5, 5) not in cells
    assert cells == {2, 3, 4}
    assert repr(cells) == "CellSet([r1c3, r2c1, r2c2])"


# Library misuse refused at the boundary.


EXAMPLE_URL = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"


PUZZLE = Puzzle.from_url(EXAMPLE_URL)


@pytest.mark.parametrize(
    "masks", [(-1, 0), (0, -1), (1 << 25, 0), (0, 1 << 40), (1.5, 0), (True, 0), (3, 1)]
)
def test_board_masks_checked(masks: tuple[int, int]) -> None:
    with pytest.raises(InvalidBoardError):
        Board(PUZZLE, *masks)


def test_board_needs_a_puzzle() -> None:
    with pytest.raises(InvalidBoardError):
        Board(EXAMPLE_URL, 0, 0)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "clues",
    [{0: 1.5}, {0: "1"}, {0: True}, {0.0: 1}, {"0": 1}, {0: None}, {0: 2.0}],
)
def test_puzzle_clues_must_be_whole_numbers(clues: dict[object, object]) -> None:
    with pytest.raises(InvalidPuzzleError, match="not a whole number"):
        Puzzle(3, 3, clues)  # type: ignore[arg-type]


@pytest.mark.parametrize("size", [(True, 3), (3, False), (2.0, 3)])
def test_puzzle_size_must_be_int(size: tuple[int, int]) -> None:
    with pytest.raises(InvalidPuzzleError):
        Puzzle(*size, {0: 1})


def test_undo_with_nothing_to_undo() -> None:
    board = PUZZLE.empty_board()
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        board.undo()
    assert isinstance(IllegalMoveError("x"), ValueError)
