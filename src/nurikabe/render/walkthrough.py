"""A walkthrough as one self-contained HTML page: an SVG frame per step and its sentence.

Each frame (`render_svg`) shows the board after the step, with the cells the step
decided and the cells it relied on highlighted. The page has no scripts and no
external resources, so it can be saved or mailed as it is.

Imports `puzzle` and `render.svg`; the walkthrough comes from `nurikabe.logic.explain`
(its type only is imported here, so the logic engine stays above the pictures).
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from .svg import render_svg

if TYPE_CHECKING:
    from ..logic.engine import Walkthrough

__all__ = ["walkthrough_html"]

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
h1 { font-size: 1.4em; }
.step { display: inline-block; vertical-align: top; margin: 0 1.5em 2em 0; max-width: 26em; }
.step p { margin: 0.4em 0; font-size: 0.95em; }
.tech { color: #555; font-size: 0.85em; }
.trial { color: #8a3b00; }
"""


def walkthrough_html(walk: Walkthrough, *, title: str = "Nurikabe walkthrough") -> str:
    """The page for `walk`: the puzzle, then one frame per step with its sentence.

    >>> from nurikabe import Puzzle
    >>> from nurikabe.logic import explain
    >>> page = walkthrough_html(explain(Puzzle.from_grid([[1, 0, 0], [0, 0, 0], [0, 0, 3]])))
    >>> page.startswith("<!DOCTYPE html>"), page.count("<svg") >= 2
    (True, True)
    """
    puzzle = walk.puzzle
    board = puzzle.empty_board()
    grade = walk.grade
    summary = f"{walk.status}, {len(walk.steps)} steps"
    if grade is not None:
        summary += f", grade {grade.level} (score {grade.score})"
    if walk.stopped is not None:
        summary += f"; {walk.stopped}"
    if walk.revealed:
        summary += (
            f"; {walk.revealed} cell{'s' if walk.revealed > 1 else ''} came from the solution "
            "where logic was stuck: logic alone did not finish"
        )
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p>{puzzle.rows}x{puzzle.cols}, {len(puzzle.clues)} clues: {html.escape(summary)}.</p>",
        '<div class="step">' + render_svg(puzzle, board) + "<p>The puzzle.</p></div>",
    ]
    for number, step in enumerate(walk.steps, start=1):
        if step.kind in ("deduction", "trial", "reveal"):
            board.apply(step)
        highlight = step.mask if step.kind != "contradiction" else step.wrong_mask
        cls = ' class="trial"' if step.kind in ("trial", "reveal") else ""
        parts.append(
            '<div class="step">'
            + render_svg(puzzle, board, highlight=highlight, premises=step.premise_mask)
            + f'<p class="tech">{number}. {html.escape(step.technique)}'
            + (f" (depth {step.trial_depth})" if step.trial_depth else "")
            + f"</p><p{cls}>{html.escape(step.message)}</p></div>"
        )
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
