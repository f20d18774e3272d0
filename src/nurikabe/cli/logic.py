"""``nurikabe hint``, ``nurikabe explain`` and ``nurikabe grade``: the logic engine's commands.

They only read sources and call `nurikabe.logic` (`hint`, `explain`, `grade`); the HTML
page comes from `nurikabe.render.walkthrough`. Bad input ends with one line and exit code
2. ``hint`` and ``explain`` say which of complete, stuck or out of time happened, each with
its own exit code (`EXIT_CODES`).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from typing import Any

from ..errors import FormatError, NurikabeError
from ..puzzle import Board, Puzzle
from .batching import batch_options
from .common import (
    CliError,
    load_source,
    print_json,
    read_source,
    seconds_option,
    source_id,
    write_output,
)

HINT_SECONDS = 20.0
"""CPU time ``hint`` gives the logic engine by default (as `next_step` does)."""

EXIT_COMPLETE = 3
"""``hint``: the board is already complete, there is nothing to hint."""
EXIT_STUCK = 4
"""``hint`` and ``explain``: logic is stuck (no technique and no trial finds a step), or
the puzzle is not proven unique; ``explain --reveal`` finished only with cells from the
solution."""
EXIT_STOPPED = 5
"""``hint`` and ``explain``: the CPU time (``--seconds``) ran out before a step was found."""

EXIT_CODES = (
    "exit codes: 0 a step (hint) or solved by logic alone (explain); 2 bad input; "
    f"{EXIT_COMPLETE} the board is already complete (hint); {EXIT_STUCK} logic is stuck: no "
    "technique and no trial finds a step (with --reveal the cells shown come from the "
    f"solution); {EXIT_STOPPED} the --seconds of CPU time ran out first"
)
"""The exit codes of ``hint`` and ``explain`` (their help's epilog)."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    levels = "easy, medium, hard, expert, extreme"
    hint = sub.add_parser(
        "hint",
        help="the next logical step on a board",
        description="Show the simplest step not yet made on BOARD (default: the empty board, "
        "or the board the source holds). Wrong cells are reported first. When logic finds "
        "no step it says why: the board is complete, logic is stuck, or the time ran out.",
        epilog=EXIT_CODES,
    )
    hint.add_argument("src", metavar="SRC", help="puzzle file, URL, or '-' for stdin")
    hint.add_argument("--board", metavar="FILE", help="the player's board ('#', '.', '?' rows)")
    hint.add_argument("--json", action="store_true", help="print the step as JSON")
    hint.add_argument("--max-level", default="extreme", help=f"hardest level to use ({levels})")
    hint.add_argument(
        "--seconds",
        type=seconds_option,
        default=HINT_SECONDS,
        help=f"CPU time for the hint, finding the solution it checks the board against "
        f"included (default {HINT_SECONDS:g})",
    )
    hint.add_argument(
        "--reveal",
        action="store_true",
        help="when logic finds no step, give one cell from the solution (the last resort)",
    )
    hint.set_defaults(func=run_hint)

    explain = sub.add_parser(
        "explain",
        help="a step-by-step walkthrough with reasons",
        description="Solve SRC step by step with the technique catalogue, saying why.",
        epilog=EXIT_CODES,
    )
    explain.add_argument("src", metavar="SRC", help="puzzle file, URL, or '-' for stdin")
    explain.add_argument("--html", metavar="FILE", help="write a self-contained HTML page")
    explain.add_argument("--json", action="store_true", help="print the walkthrough as JSON")
    explain.add_argument("--max-level", default="extreme", help=f"hardest level ({levels})")
    explain.add_argument(
        "--seconds", type=seconds_option, default=60.0, help="time for trial steps (default 60)"
    )
    explain.add_argument(
        "--reveal",
        action="store_true",
        help="where logic is stuck, copy one cell from the solution and go on (the "
        "walkthrough says so, and its grade says logic alone did not finish)",
    )
    explain.set_defaults(func=run_explain)

    grade = sub.add_parser(
        "grade",
        help="difficulty grade of a puzzle or of every puzzle of a JSON-lines file",
        description="Grade SRC (see docs/grading.md). With --batch (or a .jsonl SRC) every "
        "record is graded, one line each in file order, on all cores (--jobs) or a Dask "
        "cluster (--cluster), with a progress bar; Ctrl-C or SIGTERM keeps the lines "
        "printed (exit 130) and --store FILE lets a rerun resume.",
    )
    grade.add_argument("src", metavar="SRC", help="puzzle file, URL, .jsonl file or '-'")
    grade.add_argument("--batch", action="store_true", help="SRC is a JSON-lines file")
    grade.add_argument("--json", action="store_true", help="print JSON")
    grade.add_argument(
        "--seconds", type=seconds_option, default=60.0, help="time for trial steps (default 60)"
    )
    batch_options(
        grade,
        store_help="a batch: keep the grades in this SQLite file as they come; a rerun "
        "resumes from it",
    )
    grade.set_defaults(func=run_grade)


def _level(value: str) -> int:
    from ..logic import level_tier

    try:
        return level_tier(value) if not value.isdigit() else max(1, min(5, int(value)))
    except ValueError as exc:
        raise CliError(str(exc)) from None


def _read_board(path: str, puzzle: Puzzle) -> Board:
    from ..formats import read_board

    text, name = read_source(path)
    try:
        return read_board(text, puzzle, source=name)
    except FormatError as exc:
        raise CliError(str(exc.located(name))) from None
    except NurikabeError as exc:
        raise CliError(f"{name}: {exc}") from None


def run_hint(args: argparse.Namespace) -> int:
    from ..logic import hint

    doc = load_source(args.src)
    puzzle = doc.puzzle
    if args.board:
        board = _read_board(args.board, puzzle)
    elif doc.board is not None:
        board = doc.board
    else:
        board = puzzle.empty_board()
    found = hint(
        puzzle,
        board,
        solution=doc.solution,
        max_tier=_level(args.max_level),
        seconds=args.seconds,
    )
    code = {"complete": EXIT_COMPLETE, "stuck": EXIT_STUCK, "stopped": EXIT_STOPPED}.get(
        found.status, 0
    )
    step = found.step
    why = {
        "complete": "The board is complete: there is nothing left to deduce.",
        "stuck": "Logic is stuck: no technique, and no trial within the search's work "
        "budget, finds a step from here"
        + ("." if found.solution is not None else " (and the puzzle is not proven unique)."),
        "stopped": f"No step found within the {args.seconds:g} s of CPU time: the search "
        "ran out of time (more --seconds may find one).",
    }.get(found.status)
    if step is None and found.status in ("stuck", "stopped"):
        if args.reveal:
            step = found.reveal(board)
            if step is None:
                why = (why or "") + " No cell can be revealed: the solution is not known."
        elif found.solution is not None:
            why = (why or "") + " (--reveal gives a cell from the solution.)"
    if args.json:
        print_json(step.to_json() if step is not None else None)
        if why is not None:
            print(why, file=sys.stderr)
        return code
    if why is not None:
        print(why)
    if step is None:
        return code
    from ..render import render_text

    after = board.copy()
    if step.kind in ("deduction", "trial", "reveal"):
        after.apply(step)
    print(render_text(puzzle, after, marks=step.mask or step.wrong_mask))
    print(f"[{step.technique}] {step.message}")
    return code


def run_explain(args: argparse.Namespace) -> int:
    from ..logic import explain
    from .progress import counter

    doc = load_source(args.src)
    cells = doc.puzzle.area - len(doc.puzzle.clues)  # the clue cells start out white
    with counter(cells, desc="explain") as set_done:
        walk = explain(
            doc.puzzle,
            max_tier=_level(args.max_level),
            seconds=args.seconds,
            on_step=lambda _, unknown: set_done(cells - unknown),
            reveal=args.reveal,
        )
    if args.html:
        from ..render.walkthrough import walkthrough_html

        title = f"Nurikabe {source_id(args.src, doc)}"
        write_output(walkthrough_html(walk, title=title), args.html)
    code = _explain_code(walk.status, walk.revealed)
    if args.json:
        print_json(walk.to_json())
        return code
    if args.html and args.html != "-":
        print(f"wrote {args.html}: {walk.status}, {len(walk.steps)} steps", file=sys.stderr)
        return code
    for number, step in enumerate(walk.steps, start=1):
        depth = f" depth {step.trial_depth}" if step.trial_depth else ""
        print(f"{number:4d}. [{step.technique}{depth}] {step.message}")
    grade = walk.grade
    assert grade is not None
    print(f"{walk.status}: {len(walk.steps)} steps, grade {grade.level} (score {grade.score})")
    if walk.revealed:
        print(
            f"{walk.revealed} cell{'s' if walk.revealed > 1 else ''} came from the solution "
            "where logic was stuck: logic alone did not finish."
        )
    elif walk.status == "stuck":
        print(
            "Logic is stuck: no technique, and no trial within the search's work budget, "
            "finds the next step (--reveal goes on with cells from the solution)."
        )
    elif walk.status == "stopped":
        print(f"Out of time: {walk.stopped}.")
    return code


def _explain_code(status: str, revealed: int) -> int:
    if status == "stopped":
        return EXIT_STOPPED
    if status == "stuck" or revealed:
        return EXIT_STUCK
    return 0


def _grade_row(doc: Any, seconds: float, fallback: str) -> dict[str, Any]:
    from ..logic import grade

    g = grade(doc.puzzle, seconds=seconds)
    return {"id": doc.meta.get("id") or fallback, **g.to_json()}


def run_grade(args: argparse.Namespace) -> int:
    batch = args.batch or args.src.endswith(".jsonl")
    if not batch:
        doc = load_source(args.src)
        row = _grade_row(doc, args.seconds, source_id(args.src, doc))
        if args.json:
            print_json(row)
        else:
            print(
                f"{row['level']} (score {row['score']}, hardest {row['hardest']}, "
                f"trials {row['trials']}{'' if row['solved'] else ', stuck'})"
            )
        return 0
    return _grade_batch(args)


def _grade_batch(args: argparse.Namespace) -> int:
    """Every record of a JSON-lines file, graded through `nurikabe.batch.run_batch`: one
    line each in file order, whatever ``--jobs``/``--cluster``; ``--store`` resumes."""
    from ..batch import Job
    from ..formats.jsonl import iter_documents
    from ..logic.jobs import GradeJob
    from .batching import run_in_order

    text, name = read_source(args.src)
    try:
        docs = list(iter_documents(text))
    except FormatError as exc:
        raise CliError(str(exc.located(name))) from None
    ids = [doc.meta.get("id") or f"{name}:{n}" for n, doc in enumerate(docs, start=1)]
    jobs = [GradeJob(doc.puzzle.to_url(), args.seconds, index=n) for n, doc in enumerate(docs)]
    levels: Counter[str] = Counter()

    def show(job: Job, graded: dict[str, Any]) -> None:
        assert isinstance(job, GradeJob) and job.index is not None
        row = {"id": ids[job.index], **graded}
        levels[row["level"]] += 1
        if args.json:
            print_json(row)
        else:
            print(f"{row['id']}\t{row['level']}\t{row['score']}\t{row['hardest']}")
        sys.stdout.flush()

    report = run_in_order(
        jobs, show, workers=args.jobs, cluster=args.cluster, store=args.store, desc="grade"
    )
    print("grades: " + ", ".join(f"{k} {v}" for k, v in sorted(levels.items())), file=sys.stderr)
    if report.interrupted:
        print(
            f"nurikabe: interrupted; graded {sum(levels.values())} of {len(jobs)}", file=sys.stderr
        )
        return 130
    return 1 if report.failed else 0
