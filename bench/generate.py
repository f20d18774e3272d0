"""Benchmark of the generator: time per puzzle, uniqueness re-checked, level hit, and quality.

Run as ``python bench/generate.py --corpus ../shared/corpus/puzzles.jsonl``. For each
size and level it generates ``--count`` puzzles one after another on one core (seeds
``--first-seed``, ``--first-seed`` + 1, ...; ``--jsonl PATH`` also writes them), timing
each call of `nurikabe.generate` (wall clock, and CPU time of this process, which is the
one-core figure even on a busy machine), then re-solves every puzzle with
the native engine (and, with ``--cpsat N``, the first N of each size with the CP-SAT
engine) and re-grades it. Prints a table (made, failed, median and max seconds,
unique, level equal to the request), then the quality table of the generated puzzles
beside the published corpus puzzles of the same size (clues per 100 cells, white
share, island sizes, grades). Writes a JSON summary to bench/results/.

This script owns no library code; it calls the public API only.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

from nurikabe import GenerationError, Limit, Status, generate, solve
from nurikabe.cli.collection import quality_profile, stats_table
from nurikabe.formats.jsonl import read_file
from nurikabe.logic import LEVELS, grade

ROOT = Path(__file__).resolve().parent


def _size(text: str) -> tuple[int, int]:
    r, c = text.lower().split("x")
    return int(r), int(c)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--corpus", default=str(ROOT.parent.parent / "shared" / "corpus" / "puzzles.jsonl")
    )
    ap.add_argument("--sizes", default="10x10,15x15")
    ap.add_argument("--levels", default=",".join(LEVELS))
    ap.add_argument("--count", type=int, default=5, help="puzzles per size and level")
    ap.add_argument("--seconds", type=float, default=300, help="budget per puzzle")
    ap.add_argument("--cpsat", type=int, default=2, help="puzzles per size re-solved by CP-SAT")
    ap.add_argument(
        "--published",
        type=int,
        default=40,
        help="published puzzles per size graded for the quality table",
    )
    ap.add_argument(
        "--out", default=None, help="JSON summary file (default: bench/results/generate-DATE.json)"
    )
    ap.add_argument(
        "--jsonl",
        default=None,
        metavar="PATH",
        help="also write every generated puzzle as a jsonl record (for `collection stats "
        "--generated`)",
    )
    ap.add_argument("--first-seed", type=int, default=0, help="seeds run from here (0)")
    ap.add_argument(
        "--build-sample",
        default=None,
        metavar="N10,N15,N20",
        help="instead: time the first N jobs of each (size, level) of the collection build "
        "(seed 2026, its budget) and estimate the build",
    )
    args = ap.parse_args()
    if args.build_sample:
        return build_sample([int(n) for n in args.build_sample.split(",")], args.out)

    rows_out: list[dict[str, Any]] = []
    quality: dict[str, Any] = {}
    records: list[str] = []
    for size_text in args.sizes.split(","):
        size = _size(size_text)
        made_all = []
        size_cpu: list[float] = []
        cpsat_left = args.cpsat
        for level in args.levels.split(","):
            times, cpu, made, failed, unique, level_ok, cpsat_ok = [], [], 0, 0, 0, 0, 0
            for seed in range(args.first_seed, args.first_seed + args.count):
                began, began_cpu = time.perf_counter(), time.process_time()
                try:
                    g = generate(*size, difficulty=level, rng=seed, seconds=args.seconds)
                except GenerationError:
                    failed += 1
                    times.append(time.perf_counter() - began)
                    cpu.append(time.process_time() - began_cpu)
                    continue
                times.append(time.perf_counter() - began)
                cpu.append(time.process_time() - began_cpu)
                made += 1
                made_all.append((g.puzzle, g.grade.level))
                records.append(json.dumps(g.to_json()) + "\n")
                r = solve(g.puzzle, limit=Limit(solutions=2, seconds=120))
                unique += (
                    r.status is Status.UNIQUE
                    and r.solution is not None
                    and r.solution.to_rows() == g.solution.to_rows()
                )
                level_ok += grade(g.puzzle).level == level
                if cpsat_left > 0:
                    cpsat_left -= 1
                    c = solve(g.puzzle, limit=Limit(solutions=2, seconds=300), engine="cpsat")
                    cpsat_ok += c.status is Status.UNIQUE
            row = {
                "size": size_text,
                "level": level,
                "made": made,
                "failed": failed,
                "median_s": statistics.median(times) if times else None,
                "max_s": max(times) if times else None,
                "median_cpu_s": statistics.median(cpu) if cpu else None,
                "max_cpu_s": max(cpu) if cpu else None,
                "unique": unique,
                "level_ok": level_ok,
                "cpsat_unique": cpsat_ok,
            }
            rows_out.append(row)
            size_cpu += cpu
            print(
                f"{size_text:6s} {level:8s} made {made}/{args.count} "
                f"wall median {row['median_s']:.2f}s max {row['max_s']:.2f}s "
                f"cpu median {row['median_cpu_s']:.2f}s max {row['max_cpu_s']:.2f}s "
                f"unique {unique}/{made} level {level_ok}/{made} cpsat-unique {cpsat_ok}",
                flush=True,
            )
        if size_cpu:
            # The size's figure: every level in equal numbers, as the target reads.
            rows_out.append(
                {
                    "size": size_text,
                    "level": "all",
                    "made": len(made_all),
                    "median_cpu_s": statistics.median(size_cpu),
                    "max_cpu_s": max(size_cpu),
                }
            )
            print(
                f"{size_text:6s} {'all':8s} made {len(made_all)}/{len(size_cpu)} "
                f"cpu median {statistics.median(size_cpu):.2f}s max {max(size_cpu):.2f}s",
                flush=True,
            )
        docs = [d for d in read_file(args.corpus) if (d.puzzle.rows, d.puzzle.cols) == size]
        step = max(1, len(docs) // max(1, args.published))
        sample = docs[::step][: args.published]
        published = [(d.puzzle, grade(d.puzzle).level) for d in sample]
        gen_profile, pub_profile = quality_profile(made_all), quality_profile(published)
        quality[size_text] = {"generated": gen_profile, "published": pub_profile}
        print(f"\nquality, {size_text} (published: {len(published)} corpus puzzles)")
        print(stats_table(gen_profile, pub_profile))
        print()

    if args.jsonl:
        Path(args.jsonl).write_text("".join(records), encoding="utf-8")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    out = (
        Path(args.out)
        if args.out
        else (ROOT / "results" / f"generate-{datetime.date.today().isoformat()}.json")
    )
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({"commit": commit, "rows": rows_out, "quality": quality}, indent=1))
    print(f"wrote {out}")
    return 0


def build_sample(counts: list[int], out_path: str | None) -> int:
    """CPU seconds of a sample of the collection build's jobs, and the plan's total."""
    from nurikabe.collection import PLAN, build_jobs
    from nurikabe.generator.jobs import make_record

    per = {name: n for (name, _, _, _), n in zip(PLAN, counts, strict=False)}
    seen: dict[tuple[str, str], int] = {}
    cpu: dict[tuple[str, str], list[float]] = {}
    fails: dict[tuple[str, str], int] = {}
    for job in build_jobs(2026):
        key = (job["collection"], job["difficulty"])
        if seen.get(key, 0) >= per.get(key[0], 0):
            continue
        seen[key] = seen.get(key, 0) + 1
        work = {k: v for k, v in job.items() if k not in ("collection", "number")}
        began = time.process_time()
        record = make_record(work)
        cpu.setdefault(key, []).append(time.process_time() - began)
        fails[key] = fails.get(key, 0) + ("error" in record)
    rows, total = [], 0.0
    for name, _, _, levels in PLAN:
        for level, count in levels:
            times = cpu.get((name, level))
            if not times:
                continue
            mean = statistics.mean(times)
            total += mean * count
            rows.append(
                {
                    "collection": name,
                    "level": level,
                    "n": len(times),
                    "mean_cpu_s": mean,
                    "median_cpu_s": statistics.median(times),
                    "max_cpu_s": max(times),
                    "failed": fails[(name, level)],
                    "plan": count,
                }
            )
            print(
                f"{name} {level:8s} n={len(times)} cpu mean {mean:.2f} median "
                f"{statistics.median(times):.2f} max {max(times):.2f} failed "
                f"{fails[(name, level)]} -> {count} x mean = {mean * count:.0f} s"
            )
    print(f"the whole plan: about {total:.0f} s of CPU")
    out = (
        Path(out_path)
        if out_path
        else (ROOT / "results" / f"generate-build-{datetime.date.today().isoformat()}.json")
    )
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({"rows": rows, "total_cpu_s": total}, indent=1))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
