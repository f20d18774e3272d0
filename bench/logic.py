"""Benchmark of the logic engine over a corpus: soundness, coverage, speed, grades.

For every puzzle it runs a full walkthrough (`nurikabe.logic.explain`), checks every
step against the published solution, and records time, steps, trials and grade. It
prints a table per size class (up to 100 cells, 101-399, 400 and more), the grade
distribution, and hint timings on 10x10 positions, and writes a JSON summary under
bench/results/.

    python bench/logic.py --corpus ../shared/corpus/puzzles.jsonl [--jobs 2] [--seconds 60]
    python bench/logic.py --sample 40 --seconds 10        # a seeded random sample
    python bench/logic.py --ids janko-0029,janko-0962     # given puzzles only
    python bench/logic.py --orientations --out /tmp/o.json  # each in its 8 orientations

`--orientations` explains every puzzle in each of its 8 orientations (turned and
mirrored, bench/orientations.py): the same puzzle numbered otherwise, a stand-in for
published puzzles we do not have. Rows of other orientations than the published one get
the id ``ID/TURN``.

Times are recorded as wall time (`seconds`) and CPU time (`cpu_seconds`); `--seconds`
bounds each walkthrough's CPU time, so a busy machine changes the wall times only.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from nurikabe.formats.jsonl import read_file
from nurikabe.logic import LEVELS, explain, next_step
from nurikabe.logic.state import State

sys.path.insert(0, str(Path(__file__).resolve().parent))
from orientations import TURNS, label, orient

ROOT = Path(__file__).resolve().parent
CLASSES = (("<=100", 0, 100), ("101-399", 101, 399), (">=400", 400, 1 << 30))


def _run(args: tuple[str, int, int, float]) -> dict[str, Any]:
    path, index, turn, seconds = args
    doc = _docs(path)[index]
    puzzle, solution = orient(doc.puzzle, doc.solution, turn)
    start, cpu_start = time.perf_counter(), time.process_time()
    walk = explain(puzzle, seconds=seconds)
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    wrong = 0
    for step in walk.steps:
        if step.kind not in ("deduction", "trial") or (
            solution is not None
            and (step.black_mask & ~solution.black_mask or step.white_mask & solution.black_mask)
        ):
            wrong += 1
    grade = walk.grade
    assert grade is not None
    return {
        "id": label(doc.meta.get("id", str(index)), turn),
        "size": f"{puzzle.rows}x{puzzle.cols}",
        "cells": puzzle.area,
        "status": walk.status,
        "seconds": elapsed,
        "cpu_seconds": cpu,
        "steps": len(walk.steps),
        "wrong_steps": wrong,
        "trials": grade.trials,
        "max_depth": grade.max_depth,
        "level": grade.level,
        "score": grade.score,
        "points": round(grade.points, 2),
        "hardest": grade.hardest,
    }


_CACHE: dict[str, list[Any]] = {}


def _docs(path: str) -> list[Any]:
    if path not in _CACHE:
        _CACHE[path] = read_file(path)
    return _CACHE[path]


def _hints(docs: list[Any], n: int) -> list[float]:
    """Times of hints on `n` positions of 10x10 puzzles (part-way through a walkthrough)."""
    rng = random.Random(7)
    tens = [d for d in docs if d.puzzle.rows == 10 and d.puzzle.cols == 10]
    times = []
    for doc in rng.sample(tens, min(n, len(tens))):
        walk = explain(doc.puzzle, max_tier=4)
        plain = [s for s in walk.steps if s.kind == "deduction"]
        state = State(doc.puzzle)
        for s in plain[: len(plain) * rng.randint(2, 8) // 10]:
            state.decide(s.black_mask, s.white_mask)
        board = state.to_board()
        start = time.perf_counter()
        next_step(doc.puzzle, board, solution=doc.solution)
        times.append(time.perf_counter() - start)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(ROOT.parent.parent / "shared/corpus/puzzles.jsonl"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--seconds", type=float, default=60.0, help="CPU time per walkthrough (explain's bound)"
    )
    parser.add_argument("--limit", type=int, default=0, help="only the first N puzzles")
    parser.add_argument("--max-cells", type=int, default=0)
    parser.add_argument("--ids", default="", help="only these puzzle ids (comma-separated)")
    parser.add_argument("--sample", type=int, default=0, help="a random sample of N puzzles")
    parser.add_argument("--seed", type=int, default=1, help="seed of --sample")
    parser.add_argument(
        "--orientations",
        action="store_true",
        help="each puzzle in its 8 orientations (turned and mirrored)",
    )
    parser.add_argument(
        "--out",
        default="",
        help="JSON summary (default results/logic.json, or "
        "results/logic-sample.json with --ids or --sample)",
    )
    args = parser.parse_args(argv)
    docs = _docs(args.corpus)
    indices = [
        i for i, d in enumerate(docs) if not args.max_cells or d.puzzle.area <= args.max_cells
    ]
    if args.ids:
        wanted = set(args.ids.split(","))
        indices = [i for i in indices if docs[i].meta.get("id", str(i)) in wanted]
    if args.sample:
        indices = sorted(random.Random(args.seed).sample(indices, min(args.sample, len(indices))))
    if args.limit:
        indices = indices[: args.limit]
    if not args.out:
        partial = args.ids or args.sample
        args.out = str(ROOT / "results" / ("logic-sample.json" if partial else "logic.json"))
    turns = TURNS if args.orientations else (0,)
    tasks = [(args.corpus, i, turn, args.seconds) for i in indices for turn in turns]
    rows: list[dict[str, Any]] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for row in pool.map(_run, tasks, chunksize=1):
            rows.append(row)
            print(
                f"{row['id']:28s} {row['size']:>6s} {row['status']:7s} {row['steps']:5d} "
                f"{row['cpu_seconds'] * 1000:9.1f} ms {row['level']:8s} trials={row['trials']} "
                f"depth={row['max_depth']}" + (" WRONG" if row["wrong_steps"] else ""),
                file=sys.stderr,
                flush=True,
            )
    summary: dict[str, Any] = {"puzzles": len(rows), "classes": {}}
    print(
        f"{'class':9s} {'n':>4s} {'solved':>7s} {'no-trial':>9s} {'median ms':>10s} "
        f"{'max ms':>9s} {'cpu med':>8s} {'cpu max':>8s} {'wrong':>6s} {'deepest':>8s}"
    )
    for name, lo, hi in CLASSES:
        part = [r for r in rows if lo <= r["cells"] <= hi]
        if not part:
            continue
        times = [r["seconds"] * 1000 for r in part]
        cpu = [r["cpu_seconds"] * 1000 for r in part]
        entry = {
            "n": len(part),
            "solved": sum(r["status"] == "solved" for r in part),
            "no_trial": sum(r["status"] == "solved" and not r["trials"] for r in part),
            "median_ms": statistics.median(times),
            "max_ms": max(times),
            "median_cpu_ms": statistics.median(cpu),
            "max_cpu_ms": max(cpu),
            "wrong_steps": sum(r["wrong_steps"] for r in part),
            "deepest_trial": max(r["max_depth"] for r in part),
        }
        summary["classes"][name] = entry
        print(
            f"{name:9s} {entry['n']:4d} {entry['solved']:7d} {entry['no_trial']:9d} "
            f"{entry['median_ms']:10.1f} {entry['max_ms']:9.1f} {entry['median_cpu_ms']:8.1f} "
            f"{entry['max_cpu_ms']:8.1f} {entry['wrong_steps']:6d} "
            f"{entry['deepest_trial']:8d}"
        )
    ten = [r["seconds"] * 1000 for r in rows if r["size"] == "10x10"]
    ten_cpu = [r["cpu_seconds"] * 1000 for r in rows if r["size"] == "10x10"]
    big = [r for r in rows if r["size"] in ("20x36", "36x20")]
    levels = Counter(r["level"] for r in rows)
    summary["grades"] = {lv: levels.get(lv, 0) for lv in LEVELS}
    summary["solved_share"] = sum(r["status"] == "solved" for r in rows) / max(1, len(rows))
    summary["no_trial_share"] = sum(
        r["status"] == "solved" and not r["trials"] for r in rows
    ) / max(1, len(rows))
    summary["deepest_trial"] = max((r["max_depth"] for r in rows), default=0)
    summary["median_10x10_ms"] = statistics.median(ten) if ten else None
    summary["median_10x10_cpu_ms"] = statistics.median(ten_cpu) if ten_cpu else None
    summary["max_36x20_s"] = max((r["seconds"] for r in big), default=None)
    summary["max_36x20_cpu_s"] = max((r["cpu_seconds"] for r in big), default=None)
    summary["seconds_36x20"] = {r["id"]: round(r["cpu_seconds"], 2) for r in big}
    hint_times = [t * 1000 for t in _hints([_docs(args.corpus)[i] for i in indices], 40)]
    summary["hint_10x10_median_ms"] = statistics.median(hint_times) if hint_times else None
    by_hardest: dict[str, Counter[str]] = {}
    for r in rows:
        by_hardest.setdefault(str(r["hardest"]), Counter())[r["level"]] += 1
    # How the scores spread within each level: the range, the median, how many distinct
    # scores, and how many sit at the top of the level's range (98, the most the curve
    # gives; 99 under the old capped formula).
    spread: dict[str, Any] = {}
    for n, lv in enumerate(LEVELS):
        scores = sorted(r["score"] for r in rows if r["level"] == lv)
        if not scores:
            continue
        spread[lv] = {
            "min": scores[0],
            "median": statistics.median(scores),
            "max": scores[-1],
            "distinct": len(set(scores)),
            "at_top": sum(s >= 100 * n + 98 for s in scores) if n < 4 else None,
        }
    summary["score_spread"] = spread
    summary["stuck"] = [r["id"] for r in rows if r["status"] != "solved"]
    summary["wrong"] = [r["id"] for r in rows if r["wrong_steps"]]
    summary["rows"] = rows
    print("grades: " + ", ".join(f"{lv} {n}" for lv, n in summary["grades"].items()))
    print(
        f"solved {summary['solved_share']:.1%}, without trial {summary['no_trial_share']:.1%}, "
        f"deepest trial {summary['deepest_trial']}"
    )
    if ten:
        print(
            f"10x10 walkthrough median {summary['median_10x10_ms']:.1f} ms "
            f"({summary['median_10x10_cpu_ms']:.1f} ms CPU)"
        )
    if hint_times:
        print(f"10x10 hint median {summary['hint_10x10_median_ms']:.1f} ms")
    if big:
        print(
            f"36x20 walkthrough max {summary['max_36x20_s']:.2f} s "
            f"({summary['max_36x20_cpu_s']:.2f} s CPU)"
        )
    for lv, entry in spread.items():
        print(
            f"scores {lv}: {entry['min']}-{entry['max']}, median {entry['median']}, "
            f"{entry['distinct']} distinct"
            + (f", {entry['at_top']} at the top" if entry["at_top"] is not None else "")
        )
    if summary["stuck"]:
        print("stuck: " + " ".join(summary["stuck"]))
    if summary["wrong"]:
        print("WRONG STEPS: " + " ".join(summary["wrong"]))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 1 if summary["wrong"] else 0


if __name__ == "__main__":
    sys.exit(main())
