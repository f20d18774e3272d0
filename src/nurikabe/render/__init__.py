"""Pictures of puzzles and boards: `render_text` (terminals) and `render_svg` (pages, notebooks).

Pure functions, state in, string out: nothing here reads files, keeps state or
decides anything about the puzzle. Callers pass what to show (a board, cells to
mark, highlight or flag as errors), usually taken from `nurikabe.rules` or the
logic engine.

Imports only `grid` and `puzzle`.
"""

from __future__ import annotations

from .svg import render_svg
from .text import as_mask, render_text

__all__ = ["as_mask", "render_svg", "render_text"]
