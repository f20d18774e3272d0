"""nurikabe: solve, check, explain, generate and play Nurikabe puzzles.

This module re-exports the public API only.
"""

from typing import TYPE_CHECKING, Any

from .errors import FormatError, IllegalMoveError, InvalidPuzzleError, NurikabeError

# Imported eagerly because the function shares its name with its module.
from .generate import GeneratedPuzzle, GenerationError, generate
from .grid import MAX_SIDE, Grid
from .puzzle import UNKNOWN_CLUE, Board, CellSet, Color, Move, Puzzle, PuzzleIssue

if TYPE_CHECKING:
    from .logic import Step, explain, grade, next_step
    from .render import render_svg, render_text
    from .rules import Violation, check, wrong_cells
    from .solver import Limit, Result, Status, count_solutions, forced_cells, solve

# The rest of the API is loaded on first use (PEP 562), so that `import nurikabe`
# and a command-line solve start fast.
_LAZY = {
    "Step": "logic",
    "explain": "logic",
    "grade": "logic",
    "next_step": "logic",
    "render_svg": "render",
    "render_text": "render",
    "Violation": "rules",
    "check": "rules",
    "wrong_cells": "rules",
    "Limit": "solver",
    "Result": "solver",
    "Status": "solver",
    "count_solutions": "solver",
    "forced_cells": "solver",
    "solve": "solver",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'nurikabe' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


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
