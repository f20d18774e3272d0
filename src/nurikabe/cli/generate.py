"""``nurikabe generate``: make new unique puzzles, in parallel, in any output format.

Also owns `run_jobs`, the process-pool runner with a progress bar and clean Ctrl-C
that ``nurikabe collection build`` shares. Each puzzle's seed is derived from
``--seed`` and its index, so the output does not depend on ``--jobs``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
from collections.abc import Callable
from typing import Any

from ..generate import DIFFICULTIES, SYMMETRIES, GenerationError, check_options
from ..generate.batch import derive_seed, make_record
from .common import CliError, jobs_option, number_option, seconds_option, write_output
from .progress import progress

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


def default_jobs() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _interruptible() -> None:
    """Let Ctrl-C and SIGTERM raise KeyboardInterrupt, even in a background job.

    A shell starts background jobs with SIGINT ignored, and Python then leaves it so;
    a batch must still stop cleanly and keep what it has made. SIGTERM ends a batch
    the same way as Ctrl-C (exit code 130).
    """

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    try:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread
        pass


_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _worker_start() -> None:
    """In a worker: ignore Ctrl-C (the parent decides) and die at once on SIGTERM.

    Ctrl-C in a terminal reaches every process of the group; the workers leave it to
    the parent, which keeps what is done and terminates them.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def run_jobs(
    jobs: list[dict[str, Any]],
    workers: int,
    *,
    desc: str = "generate",
    work: Callable[[dict[str, Any]], dict[str, Any]] = make_record,
    on_record: Callable[[dict[str, Any]], None] | None = None,
) -> tuple[list[dict[str, Any]], bool]:
    """Run `work` on every job, on `workers` processes; results in job order.

    `on_record` is called with each record as soon as it is made (in the order they
    finish), for callers that store as they go. Returns the records finished and
    whether Ctrl-C or SIGTERM stopped the run early: the records done by then are kept,
    and the worker processes are terminated at once (they ignore Ctrl-C themselves).
    """
    done: dict[int, dict[str, Any]] = {}
    interrupted = False

    def keep(record: dict[str, Any]) -> None:
        done[record["index"]] = record
        if on_record is not None:
            on_record(record)
        next(bar, None)

    _interruptible()
    bar = progress(iter(range(len(jobs))), total=len(jobs), desc=desc)
    if workers <= 1 or len(jobs) <= 1:
        try:
            for job in jobs:
                keep(work(job))
        except KeyboardInterrupt:
            interrupted = True
    else:
        # Imported here: worker pools cost start-up time every other command would pay.
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(
            min(workers, len(jobs)), initializer=_worker_start
        )
        try:
            for record in pool.imap_unordered(work, jobs):
                keep(record)
            pool.close()
        except KeyboardInterrupt:
            interrupted = True
        finally:
            # A second Ctrl-C or SIGTERM must not interrupt the clean-up.
            previous = [signal.signal(sig, signal.SIG_IGN) for sig in _STOP_SIGNALS]
            try:
                pool.terminate()
                pool.join()
            finally:
                for sig, handler in zip(_STOP_SIGNALS, previous, strict=True):
                    signal.signal(sig, handler)
    for _ in bar:  # close the bar
        pass
    order = [job["index"] for job in jobs]
    return [done[i] for i in order if i in done], interrupted


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
    records, interrupted = run_jobs(jobs, args.jobs)
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
    p.add_argument(
        "--jobs",
        type=jobs_option,
        default=default_jobs(),
        help="worker processes (default: all cores)",
    )
    p.set_defaults(func=cmd_generate)
