"""nurikabe: solve, check, explain, generate and play Nurikabe puzzles.

This module re-exports the public API only, and loads each name on first use
(PEP 562), so that ``import nurikabe`` imports nothing else and a command-line
solve loads only what it runs.
"""

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing typing
if TYPE_CHECKING:
    from typing import Any

    from .errors import FormatError, IllegalMoveError, InvalidPuzzleError, NurikabeError
    from .generator import GeneratedPuzzle, GenerationError, generate
    from .grid import MAX_SIDE, Grid
    from .logic import Step, explain, grade, next_step
    from .puzzle import UNKNOWN_CLUE, Board, CellSet, Color, Move, Puzzle, PuzzleIssue
    from .render import render_svg, render_text
    from .rules import Violation, check, wrong_cells
    from .solver import Limit, Result, Status, count_solutions, forced_cells, solve

__version__ = "0.1.0"

# The module each public name lives in.
_LAZY = {
    "FormatError": "errors",
    "IllegalMoveError": "errors",
    "InvalidPuzzleError": "errors",
    "NurikabeError": "errors",
    "GeneratedPuzzle": "generator",
    "GenerationError": "generator",
    "generate": "generator",
    "MAX_SIDE": "grid",
    "Grid": "grid",
    "Step": "logic",
    "explain": "logic",
    "grade": "logic",
    "next_step": "logic",
    "UNKNOWN_CLUE": "puzzle",
    "Board": "puzzle",
    "CellSet": "puzzle",
    "Color": "puzzle",
    "Move": "puzzle",
    "Puzzle": "puzzle",
    "PuzzleIssue": "puzzle",
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


def __getattr__(name: str) -> "Any":
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'nurikabe' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


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
