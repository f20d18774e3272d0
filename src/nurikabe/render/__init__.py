"""Pictures of puzzles and boards: `render_text` (terminals), `render_svg` (pages, notebooks),
`walkthrough_html` (a walkthrough as one page) and, with reportlab, `render.pdf` (booklets).

Pure functions, state in, string out: nothing here reads files, keeps state or
decides anything about the puzzle. Callers pass what to show (a board, cells to
mark, highlight or flag as errors), usually taken from `nurikabe.rules` or the
logic engine.

Imports only `grid` and `puzzle` (and the types of what it draws: a solver's `Result`, a
`Walkthrough`); `render.pdf` also checks a solution it is given (`rules`) and solves a
puzzle given without one (`solver`). tests/test_layers.py lists these exceptions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .svg import render_svg
    from .text import as_mask, render_text
    from .walkthrough import walkthrough_html

__all__ = ["as_mask", "render_svg", "render_text", "walkthrough_html"]

# Each picture is loaded on first use (PEP 562): a terminal needs no SVG writer.
_LAZY = {
    "as_mask": "text",
    "render_text": "text",
    "render_svg": "svg",
    "walkthrough_html": "walkthrough",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
