"""A walkthrough as one self-contained HTML page: an SVG frame per step and its sentence.

Each frame shows the board after the step, with the cells the step decided and the
cells it relied on highlighted (through `nurikabe.render.svg.render_svg` when it is
installed, else a small built-in drawing). The page has no scripts and no external
resources, so it can be saved or mailed as it is.

Imports `puzzle`, `logic.engine`, `logic.steps`; `render.svg` inside the function.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from ..puzzle import Board, Puzzle
from .engine import Walkthrough

__all__ = ["walkthrough_html"]

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
h1 { font-size: 1.4em; }
.step { display: inline-block; vertical-align: top; margin: 0 1.5em 2em 0; max-width: 26em; }
.step p { margin: 0.4em 0; font-size: 0.95em; }
.tech { color: #555; font-size: 0.85em; }
.trial { color: #8a3b00; }
"""


def _fallback_svg(puzzle: Puzzle, board: Board, highlight: int, premises: int) -> str:
    size = 24 if max(puzzle.rows, puzzle.cols) <= 20 else 14
    w, h = puzzle.cols * size, puzzle.rows * size
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w + 2}" height="{h + 2}">']
    for i in range(puzzle.area):
        r, c = divmod(i, puzzle.cols)
        bit = 1 << i
        fill = "#222" if board.black_mask & bit else "#fff"
        if highlight & bit:
            fill = "#2a6fdb" if board.black_mask & bit else "#bcd5ff"
        elif premises & bit:
            fill = "#7a5b00" if board.black_mask & bit else "#ffe9a8"
        out.append(
            f'<rect x="{c * size + 1}" y="{r * size + 1}" width="{size}" '
            f'height="{size}" fill="{fill}" stroke="#888"/>'
        )
        if i in puzzle.clues:
            v = puzzle.clues[i]
            out.append(
                f'<text x="{c * size + 1 + size / 2}" y="{r * size + 1 + size * 0.7}" '
                f'font-size="{size * 0.6}" text-anchor="middle">{"?" if v < 0 else v}'
                "</text>"
            )
        elif board.white_mask & bit:
            out.append(
                f'<circle cx="{c * size + 1 + size / 2}" cy="{r * size + 1 + size / 2}" '
                f'r="{size / 10}" fill="#444"/>'
            )
    out.append("</svg>")
    return "".join(out)


def _renderer() -> Callable[[Puzzle, Board, int, int], str]:
    try:
        from ..render.svg import render_svg
    except ImportError:
        return _fallback_svg

    def draw(puzzle: Puzzle, board: Board, highlight: int, premises: int) -> str:
        return render_svg(puzzle, board, highlight=highlight, premises=premises)

    return draw


def walkthrough_html(walk: Walkthrough, *, title: str = "Nurikabe walkthrough") -> str:
    """The page for `walk`: the puzzle, then one frame per step with its sentence.

    >>> from nurikabe import Puzzle
    >>> from nurikabe.logic import explain
    >>> page = walkthrough_html(explain(Puzzle.from_grid([[1, 0, 0], [0, 0, 0], [0, 0, 3]])))
    >>> page.startswith("<!DOCTYPE html>"), page.count("<svg") >= 2
    (True, True)
    """
    puzzle = walk.puzzle
    draw = _renderer()
    board = puzzle.empty_board()
    grade = walk.grade
    summary = f"{walk.status}, {len(walk.steps)} steps"
    if grade is not None:
        summary += f", grade {grade.level} (score {grade.score})"
    if walk.stopped is not None:
        summary += f"; {walk.stopped}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p>{puzzle.rows}x{puzzle.cols}, {len(puzzle.clues)} clues: {html.escape(summary)}.</p>",
        '<div class="step">' + draw(puzzle, board, 0, 0) + "<p>The puzzle.</p></div>",
    ]
    for number, step in enumerate(walk.steps, start=1):
        if step.kind in ("deduction", "trial"):
            board.apply(step)
        highlight = step.mask if step.kind != "contradiction" else step.wrong_mask
        cls = ' class="trial"' if step.kind == "trial" else ""
        parts.append(
            '<div class="step">'
            + draw(puzzle, board, highlight, step.premise_mask)
            + f'<p class="tech">{number}. {html.escape(step.technique)}'
            + (f" (depth {step.trial_depth})" if step.trial_depth else "")
            + f"</p><p{cls}>{html.escape(step.message)}</p></div>"
        )
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
