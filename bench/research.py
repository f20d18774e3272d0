"""Benchmark of the thesis's studies: enumeration, island shapes, island expansion, mining.

Run as ``python bench/research.py --corpus ../shared/corpus/puzzles.jsonl``. Sections:

1. Enumeration: the census of every grid with at most ``--max-cells`` (25) cells, one
   size after another in this process (CPU seconds of the process and wall time), the
   5x5 figures beside the thesis's, and the two time targets (5x5 <= 120 s, every
   size <= 25 cells <= 900 s).
2. Island shapes to ``--shapes`` (14) cells against the thesis's figure 8.
3. The ``expand`` engine (the thesis's solver) against the default engine on the corpus
   puzzles of at most ``--expand-cells`` (64) cells without ``?`` clues, each with
   ``Limit(solutions=2, seconds=--timeout)``.
4. With ``--mine N``: the logic engine on a uniform random sample of N correct 5x5
   puzzles (0 wrong steps expected).

Writes a JSON summary to bench/results/research-DATE.json. This script owns no library
code; it calls the public API only.
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

from nurikabe import Limit, solve
from nurikabe.formats.jsonl import read_file
from nurikabe.research.enumerate import census, grid_sizes
from nurikabe.research.mine import mine_size
from nurikabe.research.shapes import THESIS_TABLE, shape_counts

ROOT = Path(__file__).resolve().parent

THESIS_5X5 = {
    "correct": 935_763,
    "ones_only": 303,
    "no_ones": 128_407,
    "clues_per_puzzle": (4.72, 0.58),
    "clue_value": (2.48, 1.62),
    "black_share": (53.1, 7.8),
    "unique_share": 45.4,
    "two_share": 18.4,
    "three_share": 10.2,
    "max_solutions": (212, 10),
}


def _timed(fn, *args, **kwargs):  # type: ignore[no-untyped-def]
    cpu, wall = time.process_time(), time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.process_time() - cpu, time.perf_counter() - wall


def bench_enumerate(max_cells: int) -> dict[str, Any]:
    rows_out = []
    total_cpu = total_wall = 0.0
    five = None
    print(
        f"{'size':>6} {'boards':>10} {'correct':>11} {'solvable':>11} {'max':>9} "
        f"{'correct/all':>11} {'cpu s':>7} {'wall s':>7}"
    )
    for rows, cols in grid_sizes(max_cells):
        c, cpu, wall = _timed(census, rows, cols)
        total_cpu += cpu
        total_wall += wall
        most, reached = c.max_solutions
        row = {
            "size": f"{rows}x{cols}",
            "boards": c.boards,
            "correct": c.correct,
            "solvable": c.solvable,
            "max_solutions": most,
            "max_reached_by": reached,
            "correct_share": float(c.correct_share),
            "cpu": round(cpu, 3),
            "wall": round(wall, 3),
        }
        rows_out.append(row)
        print(
            f"{row['size']:>6} {c.boards:>10,} {c.correct:>11,} {c.solvable:>11,} "
            f"{f'{most}x{reached}':>9} {row['correct_share']:>11.3e} {cpu:>7.2f} {wall:>7.2f}"
        )
        if (rows, cols) == (5, 5):
            five = c.summary() | {"cpu": cpu, "wall": wall}
    print(
        f"all {len(rows_out)} sizes: {total_cpu:.1f} s CPU, {total_wall:.1f} s wall "
        f"(target <= 900 s)"
    )
    out: dict[str, Any] = {
        "sizes": rows_out,
        "total_cpu": round(total_cpu, 2),
        "total_wall": round(total_wall, 2),
    }
    if five is not None:
        print("\n5x5 against the thesis:")
        ours = {
            "correct": five["correct"],
            "ones_only": five["ones_only"],
            "no_ones": five["no_ones"],
            "clues_per_puzzle": tuple(round(x, 2) for x in five["clues_per_puzzle"]),
            "clue_value": tuple(round(x, 2) for x in five["clue_value"]),
            "black_share": tuple(round(100 * x, 1) for x in five["black_share"]),
            "unique_share": round(100 * five["unique_share"], 1),
            "two_share": round(100 * five["two_share"], 1),
            "three_share": round(100 * five["three_share"], 1),
            "max_solutions": (five["max_solutions"], five["max_reached_by"]),
        }
        for key, theirs in THESIS_5X5.items():
            mark = "=" if ours[key] == theirs else "differs"
            print(f"  {key:<18} ours {ours[key]!s:<22} thesis {theirs!s:<18} {mark}")
        print(f"  5x5 census: {five['cpu']:.1f} s CPU, {five['wall']:.1f} s wall (target <= 120 s)")
        out["5x5"] = {"ours": ours, "thesis": THESIS_5X5, "cpu": five["cpu"], "wall": five["wall"]}
    return out


def bench_shapes(max_size: int) -> dict[str, Any]:
    table, cpu, wall = _timed(shape_counts, max_size)
    print(f"\n{'k':>3} {'free':>15} {'wall':>13} {'corner':>11}  thesis differs")
    for t in table:
        note = ""
        if t.k <= 9:
            diffs = [
                name
                for name in ("free", "wall", "corner")
                if getattr(t, name) != THESIS_TABLE[name][t.k - 1]
            ]
            note = ", ".join(f"{n} (thesis {THESIS_TABLE[n][t.k - 1]:,})" for n in diffs)
        print(f"{t.k:>3} {t.free:>15,} {t.wall:>13,} {t.corner:>11,}  {note}")
    print(f"shapes to {max_size}: {cpu:.2f} s CPU")
    return {
        "table": [[t.k, t.free, t.wall, t.corner] for t in table],
        "cpu": round(cpu, 3),
        "wall": round(wall, 3),
    }


def bench_expand(corpus: str, max_cells: int, timeout: float) -> dict[str, Any]:
    docs = [
        d
        for d in read_file(corpus)
        if d.puzzle.rows * d.puzzle.cols <= max_cells
        and all(v > 0 for v in d.puzzle.clues.values())
    ]
    rows_out = []
    print(
        f"\nexpand vs native on {len(docs)} corpus puzzles of <= {max_cells} cells "
        f"(limit {timeout:g} s each)"
    )
    for d in docs:
        p = d.puzzle
        limit = Limit(solutions=2, seconds=timeout)
        mine, cpu_e, _ = _timed(solve, p, limit=limit, engine="expand")
        theirs, cpu_n, _ = _timed(solve, p, limit=limit)
        same = mine.status == theirs.status and mine.solution == theirs.solution
        rows_out.append(
            {
                "id": d.meta.get("id", ""),
                "size": f"{p.rows}x{p.cols}",
                "clues": len(p.clues),
                "expand_status": mine.status.name.lower(),
                "expand_cpu": round(cpu_e, 4),
                "expand_nodes": mine.stats.nodes,
                "native_status": theirs.status.name.lower(),
                "native_cpu": round(cpu_n, 4),
                "agree": same,
            }
        )
    solved = [r for r in rows_out if r["expand_status"] != "unknown"]  # unknown: a limit hit
    agree = sum(r["agree"] for r in solved)
    print(f"expand finished {len(solved)}/{len(rows_out)}, agreeing with native on {agree}")
    if solved:
        print(
            f"median CPU s: expand {statistics.median(r['expand_cpu'] for r in solved):.4f}, "
            f"native {statistics.median(r['native_cpu'] for r in solved):.4f}; "
            f"max expand {max(r['expand_cpu'] for r in solved):.2f}"
        )
    slowest = sorted(rows_out, key=lambda r: -r["expand_cpu"])[:5]
    for r in slowest:
        print(
            f"  {r['id']:<28} {r['size']:>6} {r['clues']:>3} clues: expand "
            f"{r['expand_status']} {r['expand_cpu']:.2f} s, native {r['native_cpu']:.4f} s"
        )
    return {"puzzles": rows_out, "finished": len(solved), "agree": agree}


def bench_mine(sample: int) -> dict[str, Any]:
    summary, cpu, wall = _timed(mine_size, 5, 5, sample=sample, seed=17)
    data = summary.to_json()
    print(
        f"\nmining {sample} correct 5x5 puzzles: levels {data['levels']}, "
        f"wrong steps {data['wrong_steps']}, stuck {data['stuck']}, "
        f"{1000 * cpu / sample:.2f} ms CPU a puzzle"
    )
    return data | {"cpu": round(cpu, 2), "wall": round(wall, 2)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--corpus", default=str(ROOT.parent.parent / "shared" / "corpus" / "puzzles.jsonl")
    )
    ap.add_argument("--max-cells", type=int, default=25)
    ap.add_argument("--shapes", type=int, default=14)
    ap.add_argument("--expand-cells", type=int, default=64)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--mine", type=int, default=0, help="mine a sample of N correct 5x5 puzzles")
    ap.add_argument("--out", help="JSON summary path (default bench/results/research-DATE.json)")
    args = ap.parse_args()

    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    summary: dict[str, Any] = {"commit": commit, "date": datetime.date.today().isoformat()}
    summary["enumerate"] = bench_enumerate(args.max_cells)
    summary["shapes"] = bench_shapes(args.shapes)
    summary["expand"] = bench_expand(args.corpus, args.expand_cells, args.timeout)
    if args.mine:
        summary["mine"] = bench_mine(args.mine)
    out = Path(args.out) if args.out else ROOT / "results" / f"research-{summary['date']}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    print(f"\nsummary: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
