"""``nurikabe generate``: make new unique puzzles, in parallel, in any output format.

Also owns `run_jobs`, which runs generator jobs through `nurikabe.batch.run_batch` (all
cores, a Dask cluster, a progress bar, Ctrl-C keeping what is done, a resumable store)
for ``generate``, ``print --generate`` and ``collection build``. Each puzzle's seed is
derived from ``--seed`` and its index, so the output does not depend on ``--jobs``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from typing import Any

from ..generator import DIFFICULTIES, SYMMETRIES, GenerationError, check_options
from ..generator.jobs import derive_seed, make_record
from .batching import batch_options, run_in_order
from .common import CliError, number_option, seconds_option, write_output

FORMATS = ("puzzlink", "url", "janko", "text", "jsonl")

_FLAGS = {
    "max_island": "--max-island",
    "mean_island": "--mean-island",
    "clue_density": "--clue-density",
    "seconds must": "--seconds must",
}
"""The library's names of the options, as the command spells them."""

MAX_COUNT = 1_000_000
"""The most puzzles one ``generate`` makes."""


def parse_size(text: str) -> tuple[int, int]:
    """``10x10`` -> (10, 10); a single number is a square."""
    try:
        if "x" in text.lower():
            r, c = text.lower().split("x", 1)
            rows, cols = int(r), int(c)
        else:
            rows = cols = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size like 10x10: {text!r}") from None
    if rows < 1 or cols < 1:
        raise argparse.ArgumentTypeError(f"not a size like 10x10: {text!r}")
    return rows, cols


def run_jobs(
    jobs: list[dict[str, Any]],
    workers: int,
    *,
    desc: str = "generate",
    work: Callable[[dict[str, Any]], dict[str, Any]] = make_record,
    on_record: Callable[[dict[str, Any]], None] | None = None,
    cluster: str | None = None,
    store: str | None = None,
) -> tuple[list[dict[str, Any]], bool]:
    """Run `work` on every job through `nurikabe.batch.run_batch`; results in job order.

    Each job is a dict with ``index`` (unique); with the default `work` it holds the
    fields of a `GenerateJob`, otherwise it goes to `work` as it is (a `FunctionJob`).
    `workers` <= 1 runs in this process; `cluster` sends the jobs to a Dask scheduler;
    `store` keeps the records in an SQLite file that a rerun resumes from.
    `on_record` is called with each record in job order, as soon as the jobs before it
    are done, for callers that store as they go. Returns the records finished and
    whether Ctrl-C or SIGTERM stopped the run early: the records done by then are kept,
    and the worker processes are ended at once.
    """
    from ..batch import FunctionJob, Job
    from ..generator.jobs import GenerateJob

    typed: list[Job] = [
        GenerateJob(**job)
        if work is make_record
        else FunctionJob(f"{desc} #{job['index']}", work, job)
        for job in jobs
    ]
    done: list[dict[str, Any]] = []

    def keep(job: Job, record: dict[str, Any]) -> None:
        done.append(record)
        if on_record is not None:
            on_record(record)

    report = run_in_order(typed, keep, workers=workers, cluster=cluster, store=store, desc=desc)
    return done, report.interrupted


def format_record(record: dict[str, Any], fmt: str) -> str:
    """One generated puzzle in output format `fmt`."""
    if fmt == "jsonl":
        out = {k: v for k, v in record.items() if k not in ("index", "seconds", "difficulty")}
        return json.dumps(out)
    if fmt in ("puzzlink", "url"):
        return str(record["url"])
    from ..formats import write
    from ..puzzle import Board, Puzzle

    puzzle = Puzzle.from_clues(record["rows"], record["cols"], record["clues"])
    if fmt == "text":
        return write(puzzle, "text").rstrip("\n")
    solution = Board.from_rows(puzzle, record["solution"])
    return write(puzzle, "janko", solution=solution).rstrip("\n")


def join_records(records: list[dict[str, Any]], fmt: str) -> str:
    sep = "\n" if fmt in ("jsonl", "puzzlink", "url") else "\n\n"
    return sep.join(format_record(r, fmt) for r in records)


def cmd_generate(args: argparse.Namespace) -> int:
    rows, cols = args.size
    try:  # every option against the grid, before any worker starts
        check_options(
            rows,
            cols,
            max_island=args.max_island,
            mean_island=args.mean_island,
            clue_density=args.clue_density,
            seconds=args.seconds,
        )
    except GenerationError as exc:
        message = str(exc)
        for name, flag in _FLAGS.items():
            message = message.replace(name, flag)
        raise CliError(message) from None
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    if args.seed is None:
        print(f"nurikabe: --seed {seed}", file=sys.stderr)
    options: dict[str, Any] = {
        "difficulty": args.difficulty,
        "symmetry": args.symmetry,
        "seconds": args.seconds,
    }
    for name in ("max_island", "mean_island", "clue_density"):
        if getattr(args, name) is not None:
            options[name] = getattr(args, name)
    jobs = [
        {"index": i, "rows": rows, "cols": cols, "seed": derive_seed(seed, i), **options}
        for i in range(args.count)
    ]
    records, interrupted = run_jobs(jobs, args.jobs, cluster=args.cluster, store=args.store)
    good = [r for r in records if "error" not in r]
    for r in records:
        if "error" in r:
            print(f"nurikabe: puzzle {r['index']}: {r['error']}", file=sys.stderr)
    if good:
        write_output(join_records(good, args.format), args.output)
    if interrupted:
        print(f"nurikabe: interrupted; kept {len(good)} of {args.count} puzzles", file=sys.stderr)
        return 130
    return 0 if len(good) == args.count else 1


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "generate",
        help="make new unique puzzles",
        description="Make new puzzles with exactly one solution, graded at the requested "
        "difficulty. Each puzzle's seed follows from --seed and its index, so the output "
        "is the same whatever --jobs. Exit 0: all made; 1: some could not be made within "
        "the budget; 2: bad options; 130: interrupted by Ctrl-C or SIGTERM (the puzzles "
        "done are written).",
    )
    p.add_argument(
        "--size", type=parse_size, default=(10, 10), metavar="RxC", help="grid size (default 10x10)"
    )
    p.add_argument(
        "--difficulty", choices=DIFFICULTIES, default="medium", help="grade wanted (default medium)"
    )
    p.add_argument(
        "--count",
        type=number_option(int, low=1, high=MAX_COUNT, what="--count"),
        default=1,
        help="how many puzzles (default 1)",
    )
    p.add_argument("--seed", type=int, default=None, help="batch seed (default: random)")
    p.add_argument(
        "--symmetry",
        choices=SYMMETRIES,
        default="none",
        help="symmetry of the clue positions (default none)",
    )
    p.add_argument(
        "--max-island",
        type=number_option(int, low=1, what="--max-island"),
        default=None,
        help="largest island size (at most the grid's cells)",
    )
    p.add_argument(
        "--mean-island",
        type=number_option(float, low=1, what="--mean-island"),
        default=None,
        help="mean island size aimed at (1 to --max-island)",
    )
    p.add_argument(
        "--clue-density",
        type=number_option(float, low=0, high=100, above=True, what="--clue-density"),
        default=None,
        help="clues per 100 cells aimed at (above 0, at most 100)",
    )
    p.add_argument(
        "--seconds",
        type=seconds_option,
        default=120.0,
        help="time budget per puzzle (default 120)",
    )
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="puzzlink",
        help="output format (default puzzlink URLs)",
    )
    p.add_argument("-o", "--output", default=None, help="output file (default stdout)")
    batch_options(
        p,
        store_help="keep the puzzles in this SQLite file as they are made; "
        "a rerun with the same options resumes from it",
    )
    p.set_defaults(func=cmd_generate)
