"""``nurikabe show``: draw a puzzle (and the board or solution its source holds) as text or SVG.

Only reads the source and calls `nurikabe.render`; with ``--solution`` and no
solution in the source, asks the solver for it, and with ``--errors`` marks the
cells `nurikabe.rules.check` flags.
"""

from __future__ import annotations

import argparse

from ..formats import Document
from ..puzzle import Board
from .common import CliError, load_source, seconds_option, source_id, write_output

SOLVE_SECONDS = 30.0
"""How long ``--solution`` lets the solver look for a solution the source lacks."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "show",
        help="draw a puzzle as text or SVG",
        description=(
            "Draw a puzzle (a file, URL, or '-' for stdin) with the board its source holds, "
            "if any. Exit codes: 0 drawn, 1 --solution found no single solution, 2 bad input."
        ),
    )
    parser.add_argument("src", metavar="SRC", help="puzzle file, URL, or '-' for stdin")
    parser.add_argument(
        "--format",
        choices=("text", "svg"),
        help="text (default) or svg; -o FILE.svg chooses svg",
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    parser.add_argument(
        "--solution",
        action="store_true",
        help="show the solution (the source's, else the solver's)",
    )
    parser.add_argument(
        "--seconds",
        type=seconds_option,
        default=SOLVE_SECONDS,
        help=f"with --solution: time the solver may take (default {SOLVE_SECONDS:g})",
    )
    parser.add_argument(
        "--errors",
        action="store_true",
        help="mark the cells of broken rules (a partial check while cells are unknown)",
    )
    parser.add_argument(
        "--ascii", action="store_true", help="text with ASCII characters only (no box drawing)"
    )
    parser.set_defaults(func=run)


def solution_of(document: Document, name: str, seconds: float = SOLVE_SECONDS) -> Board:
    """The solution the document holds, else the unique one the solver finds.

    Raises:
        CliError: (exit code 1) the puzzle has no solution, several, or none was found in time.
    """
    if document.solution is not None:
        return document.solution
    from ..solver import Limit, Status, solve

    result = solve(document.puzzle, limit=Limit(solutions=2, seconds=seconds))
    if result.status is Status.UNIQUE and result.solution is not None:
        return result.solution
    why = {
        Status.NONE: "has no solution",
        Status.MULTIPLE: "has more than one solution",
        Status.UNKNOWN: f"was not solved within {seconds:g} s",
    }[result.status]
    raise CliError(f"{name}: the puzzle {why}", code=1)


def run(args: argparse.Namespace) -> int:
    document = load_source(args.src)
    board = (
        solution_of(document, source_id(args.src), args.seconds)
        if args.solution
        else document.board
    )
    errors = 0
    if args.errors and board is not None:
        from ..rules import check, violation_mask

        mode = "partial" if board.unknown_mask & ~document.puzzle.clue_mask else "all"
        errors = violation_mask(check(document.puzzle, board, mode=mode))
    fmt = args.format
    if fmt is None:
        fmt = "svg" if args.output and args.output.lower().endswith(".svg") else "text"
    if fmt == "svg":
        from ..render.svg import render_svg

        title = document.meta.get("id") or document.meta.get("title") or source_id(args.src)
        text = render_svg(document.puzzle, board, errors=errors, title=str(title))
    else:
        from ..render.text import render_text

        text = render_text(document.puzzle, board, marks=errors, unicode=not args.ascii)
    write_output(text, args.output)
    return 0
