"""``nurikabe solve``: solve, prove unique, count or list solutions, of one puzzle or a batch.

Exit codes: 0 unique, 1 no solution, 3 several solutions, 4 a limit was hit before
the answer was known (for ``--count`` and ``--all``: before every solution was seen),
5 a solution found but its uniqueness not checked (``--limit 1``: status ``found``),
2 bad input, 130 interrupted. A batch (a JSON-lines file with several records, a
folder of puzzle files, or ``--batch``) exits with the most serious code of its
puzzles, in the order 2, 4, 3, 1, 5, 0.

The puzzles, their exit codes and solving one live in `nurikabe.cli.solve_items`; a
batch runs in `nurikabe.cli.solve_batch` (imported only then). Only the solver API is
called; this module imports nothing heavy at start-up (no OR-Tools, no tqdm, no
dataclasses), so that solving one 10x10 stays well under 0.3 s as a whole process.
"""

from __future__ import annotations

import argparse
import sys
import time

from ..puzzle import Board
from ..solver import (
    DEFAULT_ENGINE,
    CountResult,
    Limit,
    Result,
    Stats,
    Status,
    engine_names,
    iter_solutions,
)
from .batching import batch_options
from .common import CliError, count_option, emit, print_json, seconds_option
from .solve_items import (
    EXIT_LIMIT,
    EXIT_OF_STATUS,
    Item,
    Outcome,
    found_only,
    read_items,
    solve_item,
)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "solve",
        help="solve a puzzle, prove it unique, count or list its solutions",
        description=(
            "Solve a puzzle (a file, URL, '-' for stdin), or every puzzle of a JSON-lines "
            "file or a folder. Exit codes: 0 unique, 1 none, 3 multiple, 4 limit hit, "
            "5 found (--limit 1: a solution, uniqueness not checked), 2 bad input."
        ),
    )
    parser.add_argument("src", metavar="SRC", help="puzzle file, URL, '-', JSON-lines file, folder")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--count", action="store_true", help="count the solutions")
    what.add_argument("--all", action="store_true", help="print every solution")
    parser.add_argument(
        "--limit",
        type=count_option,
        metavar="N",
        help="stop after N solutions (default: 2, enough to decide; unbounded with --count/--all)",
    )
    parser.add_argument(
        "--timeout",
        type=seconds_option,
        default=60.0,
        metavar="S",
        help="seconds per puzzle (default: 60)",
    )
    parser.add_argument(
        "--engine",
        default=DEFAULT_ENGINE,
        choices=engine_names(),
        metavar="NAME",
        help=f"solver engine: {', '.join(engine_names())} (default: {DEFAULT_ENGINE})",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per puzzle")
    parser.add_argument("--svg", metavar="FILE", help="also draw the solution as SVG")
    parser.add_argument(
        "--batch", action="store_true", help="treat SRC as a batch even with one record"
    )
    batch_options(
        parser,
        store_help="a batch: keep each puzzle's answer in this SQLite file as it comes; a "
        "rerun with the same options resumes from it",
    )
    parser.set_defaults(func=run)


# -- printing -----------------------------------------------------------------------------------


def _seconds(result: Result) -> str:
    return f"{result.stats.engine}, {result.stats.seconds:.3f} s"


def _print_text(outcome: Outcome, args: argparse.Namespace) -> None:
    from ..render.text import render_for_terminal

    item, result = outcome.item, outcome.result
    if result is None:
        print(f"nurikabe: {item.error}", file=sys.stderr)
        return
    puzzle = result.puzzle
    name = item.id
    if args.all:
        for n, board in enumerate(result.solutions, start=1):
            print(f"solution {n}:")
            print(render_for_terminal(puzzle, board))
            print()
    if args.count or args.all:
        print(f"{name}: {result} ({_seconds(result)})")
        if not result.complete:
            print(f"{name}: that count is a lower bound; raise --limit or --timeout to go on")
        if args.count and result.count == 1 and result.complete:
            print(render_for_terminal(puzzle, result.solutions[0]))
        return
    status = result.status
    if status is Status.UNIQUE:
        print(f"{name}: unique solution ({_seconds(result)})")
        print(render_for_terminal(puzzle, result.solutions[0]))
    elif status is Status.NONE:
        print(f"{name}: no solution ({_seconds(result)})")
    elif status is Status.MULTIPLE:
        diff = result.difference()
        cells = " ".join(puzzle.grid.name(i) for i in diff)
        print(f"{name}: more than one solution ({_seconds(result)}); two differ at {cells}")
        left = render_for_terminal(puzzle, result.solutions[0], marks=diff.mask).splitlines()
        right = render_for_terminal(puzzle, result.solutions[1], marks=diff.mask).splitlines()
        width = max(len(line) for line in left)
        print("solution 1".ljust(width) + "   solution 2")
        for a, b in zip(left, right, strict=True):
            print(a.ljust(width) + "   " + b)
        print("(the cells where they differ are in brackets)")
    elif found_only(result):
        print(f"{name}: solution found, uniqueness not checked ({_seconds(result)})")
        print(render_for_terminal(puzzle, result.solutions[0]))
    else:
        print(
            f"{name}: undecided, the {result.limit_hit} limit was hit ({_seconds(result)}); "
            "raise --timeout to go on"
        )
        if result.solutions:
            print("one solution found, its uniqueness not proven:")
            print(render_for_terminal(puzzle, result.solutions[0]))


def _write_svg(path: str, outcome: Outcome) -> None:
    from ..render.svg import result_svg

    if outcome.result is None:
        return
    svg = result_svg(outcome.result)
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(svg)
    except OSError as exc:
        raise CliError(f"{path}: cannot write: {exc.strerror or exc}") from None


# -- the command --------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    is_batch, items, total = read_items(args.src, args.batch)
    if not is_batch and args.all:
        return _stream_all(next(items), args)
    if not is_batch:
        outcome = solve_item(next(items), args)
        if args.json:
            print_json(outcome.record)
        else:
            _print_text(outcome, args)
        if args.svg:
            _write_svg(args.svg, outcome)
        return outcome.code
    if args.svg:
        raise CliError("--svg draws one puzzle; it cannot be used with a batch")
    from .solve_batch import run_batch_of_items

    return run_batch_of_items(items, total, args)


def _stream_all(item: Item, args: argparse.Namespace) -> int:
    """``--all`` on one puzzle: print each solution as soon as it is found.

    Only the first two are kept (for the status), so memory stays bounded however many
    there are. The search ran to the end when the solutions stopped coming before the
    ``--limit`` count and the ``--timeout``. With ``--json`` the output is the same one
    object as for other solves, written as it goes: its ``solutions`` list first.
    """
    from ..render.text import render_for_terminal

    if item.document is None:
        raise CliError(item.error or f"{item.id}: cannot read")
    puzzle = item.document.puzzle
    limit = Limit(solutions=args.limit, seconds=args.timeout)
    began = time.perf_counter()
    kept: list[Board] = []
    found = 0
    limit_hit: str | None = None
    if args.json:
        import json

        sys.stdout.write(f'{{"id": {json.dumps(item.id)}, "solutions": [')
    for board in iter_solutions(puzzle, limit=limit, engine=args.engine):
        found += 1
        if len(kept) < 2:
            kept.append(board)
        if args.json:
            sys.stdout.write(("" if found == 1 else ", ") + json.dumps(board.to_rows()))
            sys.stdout.flush()
        else:
            emit(f"solution {found}:\n{render_for_terminal(puzzle, board)}\n\n")
        if time.perf_counter() - began >= args.timeout:  # printing counts too
            limit_hit = "seconds"
            break
    seconds = time.perf_counter() - began
    if limit_hit is None and limit.solutions is not None and found >= limit.solutions:
        limit_hit = "solutions"
    elif limit_hit is None and seconds >= args.timeout:
        limit_hit = "seconds"
    complete = limit_hit is None
    status = Status.MULTIPLE if found >= 2 else Status.UNKNOWN
    if found < 2 and complete:
        status = Status.UNIQUE if found == 1 else Status.NONE
    result = CountResult(
        puzzle,
        status,
        kept,
        Stats(engine=args.engine, seconds=seconds),
        complete=complete,
        limit_hit=limit_hit,
        total=found,
    )
    code = EXIT_OF_STATUS[status] if complete else EXIT_LIMIT
    if args.json:
        rest = {
            "status": status.value,
            "seconds": round(seconds, 6),
            "engine": args.engine,
            "count": found,
            "complete": complete,
        }
        emit("], " + json.dumps(rest, separators=(", ", ": "))[1:])
        return code
    lines = [f"{item.id}: {result} ({_seconds(result)})"]
    if not complete:
        lines.append(f"{item.id}: that count is a lower bound; raise --limit or --timeout to go on")
    emit("\n".join(lines))
    return code
