"""nurikabe: solve, check, explain, generate and play Nurikabe puzzles.

This module re-exports the public API only.
"""

from .errors import FormatError, IllegalMoveError, InvalidPuzzleError, NurikabeError
from .generate import GeneratedPuzzle, GenerationError, generate
from .grid import MAX_SIDE, Grid

# The logic engine is pure Python with no third-party imports: cheap to load.
from .logic import Step, explain, grade, next_step
from .puzzle import UNKNOWN_CLUE, Board, CellSet, Color, Move, Puzzle, PuzzleIssue
from .render import render_svg, render_text
from .rules import Violation, check, wrong_cells

# The solver package is light: engines (and OR-Tools) are imported only when a search runs.
from .solver import Limit, Result, Status, count_solutions, forced_cells, solve

__version__ = "0.1.0"

__all__ = [
    "MAX_SIDE",
    "UNKNOWN_CLUE",
    "Board",
    "CellSet",
    "Color",
    "FormatError",
    "GeneratedPuzzle",
    "GenerationError",
    "Grid",
    "IllegalMoveError",
    "InvalidPuzzleError",
    "Limit",
    "Move",
    "NurikabeError",
    "Puzzle",
    "PuzzleIssue",
    "Result",
    "Status",
    "Step",
    "Violation",
    "__version__",
    "check",
    "count_solutions",
    "explain",
    "forced_cells",
    "generate",
    "grade",
    "next_step",
    "render_svg",
    "render_text",
    "solve",
    "wrong_cells",
]
