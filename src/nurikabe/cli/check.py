"""``nurikabe check``: which rules a board breaks, as lines or JSON, with an exit code.

Only reads the two sources and calls `nurikabe.rules.check`. Exit codes: 0 the
board breaks no rule, 1 it breaks some (each violation listed), 2 bad input.
"""

from __future__ import annotations

import argparse
import sys

from ..errors import FormatError, NurikabeError
from ..formats import read_board
from ..puzzle import Board
from ..rules import check
from .common import CliError, load_source, print_json, read_source

EXIT_VALID = 0
EXIT_INVALID = 1


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "check",
        help="check a board against the rules",
        description=(
            "Check BOARD (rows of '#' black, '.' white, '?' unknown, clue numbers allowed for "
            "'.'; or a pzprv3 save, a janko block, a JSON record) against PUZZLE. Without "
            "BOARD, the board PUZZLE's own file holds (a pzprv3 save, say). Unknown cells "
            "count as white unless --partial. Exit codes: 0 valid, 1 rules broken, 2 bad input."
        ),
    )
    parser.add_argument("puzzle", metavar="PUZZLE", help="puzzle file, URL, or '-' for stdin")
    parser.add_argument("board", metavar="BOARD", nargs="?", help="board file, or '-' for stdin")
    parser.add_argument(
        "--all", action="store_true", help="run every rule (default: stop at the first broken)"
    )
    parser.add_argument(
        "--partial",
        action="store_true",
        help="a board in progress: report only what no filling of the unknowns can mend "
        "(every rule is run)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help='print {"valid": bool, "violations": [{"code", "cells" (0-based [r, c]), "message"}]}',
    )
    parser.set_defaults(func=run)


def _board(args: argparse.Namespace) -> Board:
    if args.board == "-" and args.puzzle == "-":
        raise CliError("PUZZLE and BOARD cannot both be '-' (standard input)")
    document = load_source(args.puzzle)
    if args.board is None:
        if document.board is None:
            raise CliError(f"{args.puzzle}: holds no board; give a BOARD file to check")
        return document.board
    text, name = read_source(args.board)
    try:
        return read_board(text, document.puzzle, source=name)
    except FormatError as exc:
        raise CliError(str(exc.located(name))) from None
    except NurikabeError as exc:
        raise CliError(f"{name}: {exc}") from None


def run(args: argparse.Namespace) -> int:
    board = _board(args)
    puzzle = board.puzzle
    mode = "partial" if args.partial else "all" if args.all else "first"
    violations = check(puzzle, board, mode=mode)
    valid = not violations
    if args.json:
        print_json({"valid": valid, "violations": [v.to_json() for v in violations]})
        return EXIT_VALID if valid else EXIT_INVALID
    unknown = board.unknown_mask & ~puzzle.clue_mask
    if valid:
        if mode == "partial" and unknown:
            print(f"valid: nothing is wrong so far ({unknown.bit_count()} cells still unknown)")
        else:
            print("valid: the board breaks no rule")
    for violation in violations:
        print(f"{violation.code}: {violation.message}")
    if mode != "partial" and unknown:
        print(
            f"note: {unknown.bit_count()} unknown cells counted as white "
            "(--partial checks a board in progress)",
            file=sys.stderr,
        )
    return EXIT_VALID if valid else EXIT_INVALID
