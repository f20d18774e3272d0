"""``nurikabe research``: the thesis's studies from the command line (enumeration, shapes,
mining, families).

Only parses arguments and prints what `nurikabe.research` computes.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .common import CliError, count_option, number_option, print_json, seconds_option
from .progress import counter

if TYPE_CHECKING:
    from ..research.enumerate import Census


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "research",
        help="reproduce the Leiden thesis's studies (enumeration, island shapes)",
        description="Studies of small grids: every correct puzzle, island shapes.",
    )
    studies = parser.add_subparsers(dest="study", metavar="STUDY")

    enum = studies.add_parser(
        "enumerate",
        help="every correct puzzle of a small grid, with every solution count",
        description=(
            "Enumerate every clue set (values 1..MAX) of an MxN grid that has a solution, "
            "count its solutions, and print the statistics of the correct ones (exactly one "
            "solution). Grids up to 48 cells are accepted; past about 30 cells a run takes "
            "hours and should use --shards."
        ),
    )
    enum.add_argument("--size", required=True, metavar="MxN", help="grid size, e.g. 5x5")
    enum.add_argument("--max-clue", type=int, default=9, metavar="MAX", help="largest clue (9)")
    enum.add_argument(
        "--shards", type=int, default=1, metavar="N", help="split the clue sets in N pieces"
    )
    enum.add_argument(
        "--shard",
        type=int,
        action="append",
        metavar="K",
        help="run only shard K (repeatable; default: all, one after another)",
    )
    enum.add_argument(
        "--store",
        metavar="FILE",
        help="run the shards as a batch kept in this SQLite file (resumable; Ctrl-C keeps "
        "finished shards)",
    )
    enum.add_argument(
        "--group",
        type=count_option,
        default=1,
        metavar="G",
        help="shards that share one enumeration of the boards (1): on a big grid most of a "
        "shard's time is that enumeration; costs 8 bytes per valid board (500 MB on 6x6)",
    )
    enum.add_argument(
        "--workers", type=int, metavar="N", help="with --store: local processes (all cores)"
    )
    enum.add_argument(
        "--cluster", metavar="ADDRESS", help="with --store: a Dask scheduler, tcp://host:8786"
    )
    enum.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    enum.add_argument(
        "-o", "--output", metavar="FILE", help="write every correct puzzle as JSON lines to FILE"
    )
    enum.add_argument(
        "--figures", metavar="DIR", help="write the per-cell pictures (figure 16) as SVG to DIR"
    )
    enum.set_defaults(func=run_enumerate)

    shapes = studies.add_parser(
        "shapes",
        help="how many island shapes of each size contain a given cell",
        description=(
            "Count the shapes (fixed polyominoes placed on the grid) of k cells that contain "
            "a given cell: free, next to one wall, in a corner (the thesis's figure 8)."
        ),
    )
    shapes.add_argument("--max", type=int, default=9, metavar="K", help="largest size (9)")
    shapes.add_argument("--json", action="store_true", help="print one JSON object")
    shapes.set_defaults(func=run_shapes)

    mine = studies.add_parser(
        "mine",
        help="walk every correct puzzle of a small grid through the logic engine",
        description=(
            "Grade every correct puzzle of an MxN grid (or a uniform random --sample of them) "
            "with the logic engine, checking every step against the unique solution; print "
            "the share of each level, trial use, the techniques ever needed, the hardest."
        ),
    )
    mine.add_argument("--size", required=True, metavar="MxN", help="grid size, e.g. 5x5")
    mine.add_argument(
        "--sample", type=count_option, metavar="N", help="a uniform random sample of N"
    )
    mine.add_argument("--seed", type=int, default=0, help="seed of the sample (0)")
    mine.add_argument(
        "--shards",
        type=count_option,
        default=1,
        metavar="S",
        help="take only the puzzles of one census shard of S (for grids past 30 cells)",
    )
    mine.add_argument("--shard", type=int, default=0, metavar="K", help="that shard (0)")
    mine.add_argument(
        "--workers", type=_WORKERS, default=1, metavar="N", help="processes (1, at most 64)"
    )
    mine.add_argument(
        "--seconds", type=seconds_option, default=60.0, help="CPU bound per walkthrough (60)"
    )
    mine.add_argument("--json", action="store_true", help="print one JSON object")
    mine.set_defaults(func=run_mine)

    family = studies.add_parser(
        "family",
        help="a member of one of the thesis's scalable families, proven unique",
        description=(
            "Make the n x n member of a scalable family (corner: a clue floor(n/2)^2 in each "
            "corner, n odd; two-clue: two clues adding up to n^2 - n; lattice and brick: "
            "1-clues on a regular pattern; diamond: that lattice with rotated squares of "
            "radius 2; merged: with three rotated squares of radius 1 merged into one "
            "island), prove it unique with the exact engine and check "
            "the solution against the family's known one. Exit 0 when proven."
        ),
    )
    family.add_argument("name", choices=sorted(_family_names()), help="the family")
    family.add_argument(
        "--size", type=_FAMILY_SIZE, required=True, metavar="N", help="n, from 3 to 99"
    )
    family.add_argument(
        "--timeout", type=seconds_option, default=60.0, metavar="S", help="seconds (60)"
    )
    family.add_argument("--json", action="store_true", help="print one JSON object")
    family.set_defaults(func=run_family)

    def usage(args: argparse.Namespace) -> int:
        parser.print_help()
        return 2

    parser.set_defaults(func=usage)


_WORKERS = number_option(int, low=1, high=64, what="workers")
_FAMILY_SIZE = number_option(int, low=3, high=99, what="--size")


def _family_names() -> list[str]:
    from ..research.families import FAMILIES

    return list(FAMILIES)


def run_family(args: argparse.Namespace) -> int:
    from ..research.families import FAMILIES
    from ..solver import Limit, Status, solve

    member = FAMILIES[args.name](args.size)
    result = solve(member.puzzle, limit=Limit(solutions=2, seconds=args.timeout))
    known = result.solution is not None and result.solution == member.solution
    record = {
        "family": args.name,
        "n": args.size,
        "url": member.puzzle.to_url(),
        "status": result.status.value,
        "solution_as_known": known,
        "seconds": round(result.stats.seconds, 6),
        "nodes": result.stats.nodes,
    }
    if args.json:
        print_json(record)
    else:
        print(record["url"])
        verdict = "unique, the known solution" if known else result.status.value
        print(
            f"{args.name} n={args.size}: {verdict} ({result.stats.seconds:.3f} s, "
            f"{result.stats.nodes} nodes)"
        )
    if result.status is Status.UNIQUE and known:
        return 0
    return 4 if result.status is Status.UNKNOWN else 1


def _size(text: str) -> tuple[int, int]:
    try:
        rows, cols = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise CliError(f"--size {text!r}: expected MxN, e.g. 5x5") from None
    return rows, cols


def run_enumerate(args: argparse.Namespace) -> int:
    from ..research.enumerate import census_shards
    from ..research.pictures import heatmap_svg

    rows, cols = _size(args.size)
    shards = args.shard if args.shard else list(range(max(args.shards, 1)))
    start = time.perf_counter()
    total = None
    if args.store:
        if args.output:
            raise CliError("-o cannot be used with --store (shards keep figures, not puzzles)")
        total = _batch_census(args, rows, cols, shards)
    for k in range(0, 0 if args.store else len(shards), args.group):
        for part in census_shards(
            rows,
            cols,
            shards[k : k + args.group],
            max_clue=args.max_clue,
            shards=args.shards,
            keep_correct=bool(args.output),
        ):
            total = part if total is None else total.merge(part)
    assert total is not None
    seconds = time.perf_counter() - start
    summary = total.summary()
    summary["shards"] = sorted(shards) if args.shard else args.shards
    summary["seconds"] = round(seconds, 3)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as out:
                for n, puzzle in enumerate(total.correct_puzzles(), 1):
                    clues = [[i // cols, i % cols, v] for i, v in sorted(puzzle.clues.items())]
                    record = {"id": f"{rows}x{cols}-{n}", "rows": rows, "cols": cols}
                    record["clues"] = clues
                    out.write(json.dumps(record, separators=(",", ":")) + "\n")
        except OSError as exc:
            raise CliError(f"{args.output}: cannot write: {exc.strerror or exc}") from None
    if args.figures:
        folder = Path(args.figures)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            name = f"{rows}x{cols}"
            (folder / f"clue-probability-{name}.svg").write_text(
                heatmap_svg(
                    rows,
                    cols,
                    total.clue_probability(),
                    title=f"{name}: share with a clue here",
                ),
                encoding="utf-8",
            )
            (folder / f"mean-clue-{name}.svg").write_text(
                heatmap_svg(rows, cols, total.mean_clue_at(), title=f"{name}: mean clue here"),
                encoding="utf-8",
            )
        except OSError as exc:
            raise CliError(f"{args.figures}: cannot write: {exc.strerror or exc}") from None
    if args.json:
        print_json(summary)
        return 0
    _print_summary(summary)
    return 0


def _batch_census(args: argparse.Namespace, rows: int, cols: int, shards: list[int]) -> Census:
    from ..batch import load_results, run_batch
    from ..research.enumerate import EnumerationError, check_request
    from ..research.jobs import EnumerateShard, EnumerateShards, merge_census

    for shard in shards:
        try:
            check_request(rows, cols, args.max_clue, args.shards, shard)
        except EnumerationError as exc:
            raise CliError(str(exc)) from None
    jobs: list[EnumerateShard | EnumerateShards] = [
        EnumerateShard(rows, cols, args.max_clue, args.shards, k) for k in shards
    ]
    if args.group > 1 and not args.shard:
        jobs = [
            EnumerateShards(
                rows, cols, args.max_clue, args.shards, k, min(args.group, len(shards) - k)
            )
            for k in range(0, len(shards), args.group)
        ]
    report = run_batch(jobs, args.store, workers=args.workers, cluster=args.cluster)
    if report.failed:
        key, message = next(iter(report.failed.items()))
        raise CliError(f"{len(report.failed)} shard(s) failed, first {key}: {message}")
    if report.interrupted:
        raise KeyboardInterrupt
    stored = load_results(args.store)
    return merge_census(stored[job.key] for job in jobs)


def _print_summary(s: Mapping[str, Any]) -> None:
    def pm(key: str, scale: float = 1.0, unit: str = "") -> str:
        mean, sd = s[key]
        return f"{mean * scale:.2f}{unit} +/- {sd * scale:.2f}{unit}"

    lines = [
        f"grid {s['size']}, clues 1..{s['max_clue']}: {s['boards']:,} valid boards",
        f"correct puzzles:       {s['correct']:,}",
        f"solvable clue sets:    {s['solvable']:,}",
        f"only clues of 1:       {s['ones_only']:,}",
        f"no clue of 1:          {s['no_ones']:,}",
        f"clues per puzzle:      {pm('clues_per_puzzle')}",
        f"clue value:            {pm('clue_value')}",
        f"black share:           {pm('black_share', 100, ' %')}",
        f"solvable with 1/2/3 solutions: {100 * s['unique_share']:.1f} % / "
        f"{100 * s['two_share']:.1f} % / {100 * s['three_share']:.1f} %",
        f"most solutions:        {s['max_solutions']} ({s['max_reached_by']} clue sets)",
        f"clues of a correct puzzle: {s['fewest_clues']} to {s['most_clues']}; puzzles by "
        "clue count: " + ", ".join(f"{k}: {n:,}" for k, n in s["clue_counts"].items()),
        f"largest island:        {s['largest_island']}"
        + (
            " (the clue limit: bigger clues were not counted)"
            if s["largest_island"] == s["max_clue"]
            else ""
        ),
        f"correct among all grids: {s['correct_share']:.3e}",
        f"time:                  {s['seconds']} s",
    ]
    print("\n".join(lines))


def run_mine(args: argparse.Namespace) -> int:
    from ..research.enumerate import EnumerationError, check_request
    from ..research.mine import mine_size

    rows, cols = _size(args.size)
    if rows * cols > 30 and args.shards < 2:
        raise CliError(
            f"--size {args.size}: past 30 cells, mine one census shard (--shards 4096 --shard 0)"
        )
    try:
        check_request(rows, cols, 9, args.shards, args.shard)
    except EnumerationError as exc:
        raise CliError(str(exc)) from None
    if args.sample is not None and args.sample < 1:
        raise CliError("--sample must be at least 1")
    start = time.perf_counter()
    reached = [0, 0]  # puzzles done, puzzles to mine
    with contextlib.ExitStack() as stack:
        bar: list[Callable[[int], None]] = []

        def show(done: int, total: int) -> None:
            reached[:] = [done, total]
            if not bar:  # the total is known once the census is taken
                bar.append(stack.enter_context(counter(total, desc="mine", unit="puzzle")))
            bar[0](done)

        try:
            summary = mine_size(
                rows,
                cols,
                sample=args.sample,
                seed=args.seed,
                workers=args.workers,
                seconds=args.seconds,
                shards=args.shards,
                shard=args.shard,
                progress=show,
            )
        except KeyboardInterrupt:
            done, total = reached
            what = f"mined {done:,} of {total:,} puzzles" if total else "no census yet"
            raise CliError(f"interrupted; {what}", 130) from None
    data = summary.to_json()
    data["size"] = f"{rows}x{cols}"
    data["sample"] = args.sample
    data["shards"] = [args.shard, args.shards]
    data["seconds"] = round(time.perf_counter() - start, 2)
    if args.json:
        print_json(data)
        return 0
    print(f"{data['puzzles']:,} correct {rows}x{cols} puzzles, {data['steps']:,} steps")
    for level, n in data["levels"].items():
        print(f"  {level:<8} {n:>9,}  {100 * data['level_shares'][level]:6.2f} %")
    print(f"with trial steps: {data['with_trials']:,}; stuck: {data['stuck']}; ", end="")
    print(f"wrong steps: {data['wrong_steps']}")
    if data["lost"]:
        print(f"lost: {data['lost']:,} puzzles (their worker process died)")
    print("techniques (puzzles needing each):")
    for name, n in data["technique_puzzles"].items():
        print(f"  {name:<28} {n:>9,}")
    print("hardest:")
    for h in data["hardest"]:
        print(f"  {h['score']:>4} {h['level']:<8} {h['url']}")
    print(f"time: {data['seconds']} s (CPU {data['cpu_seconds']} s)")
    return 0


def run_shapes(args: argparse.Namespace) -> int:
    from ..research.shapes import shape_counts

    if not 1 <= args.max <= 20:
        raise CliError(f"--max {args.max}: must be 1..20")
    start = time.perf_counter()
    table = shape_counts(args.max)
    seconds = time.perf_counter() - start
    if args.json:
        print_json(
            {
                "free": [t.free for t in table],
                "wall": [t.wall for t in table],
                "corner": [t.corner for t in table],
                "seconds": round(seconds, 3),
            }
        )
        return 0
    print(f"{'k':>3} {'free':>16} {'wall':>14} {'corner':>12}")
    for k, t in enumerate(table, 1):
        print(f"{k:>3} {t.free:>16,} {t.wall:>14,} {t.corner:>12,}")
    print(f"time: {seconds:.2f} s")
    return 0
