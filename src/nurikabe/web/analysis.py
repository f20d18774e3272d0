"""The studio's analysis of a draft: status, forced and open cells, witness, grade.

`analyze` runs the library's public searches on one draft, each under a time limit:
`solver.forced_cells` (status, forced cells, the two-solution witness) and, for a
unique puzzle, `logic.explain` (grade and the techniques the solve needs). Between the
two it asks `cancelled()`, so a draft that a newer edit has replaced stops early (the
server instead kills the worker process of a stale analysis: `lanes`).

Imports the library only; no web code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..logic import explain
from ..logic.techniques import technique
from ..puzzle import Board, Puzzle
from ..solver import Limit, Status, forced_cells

__all__ = ["FORCED_SECONDS", "GRADE_SECONDS", "Analysis", "analyze"]

FORCED_SECONDS = 3.0
"""Wall time the forced-cell search may take on one draft."""
GRADE_SECONDS = 2.0
"""CPU time the logic engine may take to grade a unique draft."""


@dataclass
class Analysis:
    """What the studio shows for a draft."""

    status: Status
    black: list[int]
    """Cells black in every solution (found so far, when the limit was hit)."""
    white: list[int]
    """Cells white in every solution, clues included."""
    open: list[int]
    """Cells black in one solution and white in another."""
    unresolved: list[int]
    """Cells the time limit kept from being settled."""
    witness: list[str] = field(default_factory=list)
    """For several solutions: two of them, as board strings (``#`` and ``.``)."""
    level: str | None = None
    score: int | None = None
    techniques: list[tuple[str, str, int]] = field(default_factory=list)
    """For a graded puzzle: (id, name, steps) of each technique the solve used."""
    solved_by_logic: bool | None = None
    """For a unique puzzle graded in time: whether the logic engine solved it."""


def _board_text(board: Board) -> str:
    return "".join(board.to_rows())


def analyze(
    puzzle: Puzzle,
    *,
    cancelled: Callable[[], bool] = lambda: False,
    forced_seconds: float = FORCED_SECONDS,
    grade_seconds: float = GRADE_SECONDS,
    graded: bool = True,
) -> Analysis | None:
    """The analysis of `puzzle`, or None when `cancelled()` says it is no longer wanted.
    With `graded` False a unique puzzle is not graded (the grade can take seconds)."""
    forced = forced_cells(puzzle, limit=Limit(solutions=None, seconds=forced_seconds))
    out = Analysis(
        status=forced.status,
        black=list(forced.black),
        white=list(forced.white),
        open=list(forced.undetermined),
        unresolved=list(forced.unresolved),
    )
    if forced.status is Status.MULTIPLE and len(forced.solutions) >= 2:
        out.witness = [_board_text(b) for b in forced.solutions[:2]]
    if forced.status is Status.UNIQUE and graded:
        if cancelled():
            return None
        walk = explain(puzzle, seconds=grade_seconds)
        if walk.grade is not None:
            out.level = walk.grade.level
            out.score = walk.grade.score
            out.solved_by_logic = walk.solved
            out.techniques = [
                (tid, technique(tid).name, n) for tid, n in sorted(walk.grade.counts.items())
            ]
    return None if cancelled() else out
