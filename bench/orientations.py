"""The 8 orientations of a puzzle (turned and mirrored), for benchmarks.

A puzzle in another orientation is the same puzzle with its cells numbered otherwise, so
the engines scan, probe and branch in another order. Running the corpus in all 8 is a
stand-in for published puzzles we do not have, and keeps a change from being tuned,
unawares, to the one orientation the corpus gives. Orientation 0 is the published one.
"""

from __future__ import annotations

from nurikabe.puzzle import Board, Puzzle

TURNS = tuple(range(8))


def label(pid: str, turn: int) -> str:
    """A puzzle's id in benchmark output: ``ID`` published, ``ID/TURN`` turned."""
    return pid + (f"/{turn}" if turn else "")


def orient_cell(rows: int, cols: int, cell: int, turn: int) -> int:
    """Where `cell` of a rows x cols grid goes in orientation `turn` (0-7): bit 4
    transposes, then bit 1 mirrors the rows and bit 2 the columns; 0 is the identity."""
    r, c = divmod(cell, cols)
    if turn & 4:
        r, c, rows, cols = c, r, cols, rows
    if turn & 1:
        r = rows - 1 - r
    if turn & 2:
        c = cols - 1 - c
    return r * cols + c


def orient(puzzle: Puzzle, solution: Board | None, turn: int) -> tuple[Puzzle, Board | None]:
    """The puzzle and its solution in orientation `turn` (see `orient_cell`)."""
    rows, cols = (puzzle.cols, puzzle.rows) if turn & 4 else (puzzle.rows, puzzle.cols)
    clues = []
    for cell, value in puzzle.clues.items():
        r, c = divmod(orient_cell(puzzle.rows, puzzle.cols, cell, turn), cols)
        clues.append((r, c, value))
    turned = Puzzle.from_clues(rows, cols, clues)
    if solution is None:
        return turned, None
    black = 0
    for cell in range(puzzle.rows * puzzle.cols):
        if solution.black_mask >> cell & 1:
            black |= 1 << orient_cell(puzzle.rows, puzzle.cols, cell, turn)
    white = (1 << rows * cols) - 1 & ~black
    return turned, Board(turned, black, white)
