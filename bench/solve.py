"""Benchmark of the exact engines over the corpus: every engine, side by side, per puzzle.

Run by ``make bench`` as ``python bench/solve.py --corpus ../shared/corpus/puzzles.jsonl``.
For each puzzle each engine solves with ``Limit(solutions=2, seconds=--timeout)`` (so a
puzzle counts as solved only when its uniqueness is proven) and the solution is checked
against the published one. Times are CPU seconds of this process by default (``--clock``;
the machine is shared, and the limits themselves stay in wall time). The CP-SAT engines
and the pure-Python engine (``python``, the compiled engine's fallback) only get an evenly
spread sample of the puzzles of at most ``--limit-cells`` cells, where they finish in
reasonable time.

Prints one line per puzzle, then a table per size class (<= 100 cells, 101-399, >= 400):
solved and proven unique / attempted, median, p90, max and total in-process time, and
the native/CP-SAT time ratio over the puzzles both engines solved. Then the whole-process
start-up time of ``nurikabe solve`` on a 10x10 and the peak RSS of solving the largest
puzzle, each measured in a subprocess. Writes a JSON summary to bench/results/.

This script owns no library code; it calls the public solver API only.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from nurikabe import Limit, Puzzle, Status, solve
from nurikabe.formats import Document, write
from nurikabe.formats.jsonl import read_file
from nurikabe.research.families import FAMILIES
from nurikabe.solver import engine_names

HERE = Path(__file__).resolve().parent
CLASSES = [("<=100", 0, 100), ("101-399", 101, 399), (">=400", 400, 10**9)]

SAMPLED = ("cpsat", "cpsat-fast", "reference")
"""The baselines, given only the sample of small puzzles (`--cpsat-sample`): the CP-SAT
models and our former pure-Python engine need seconds to minutes on the larger ones."""


def size_class(cells: int) -> str:
    return next(name for name, low, high in CLASSES if low <= cells <= high)


def percentile(values: list[float], q: float) -> float:
    """The q-quantile by nearest rank (q in [0, 1])."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1))
    return ordered[k]


def spread(docs: list[Document], n: int | None) -> list[Document]:
    """An evenly spread, deterministic sample of `n` documents (all when n is None)."""
    if n is None or n >= len(docs):
        return docs
    step = len(docs) / n
    return [docs[int(k * step)] for k in range(n)]


# -- measuring ----------------------------------------------------------------------------------


def run_one(doc: Document, engine: str, timeout: float, clock: str) -> dict[str, Any]:
    """Solve `doc` with `engine`; `seconds` is the time by `clock` (``cpu`` or ``wall``)."""
    began = time.perf_counter()
    cpu0 = time.process_time()
    result = solve(doc.puzzle, limit=Limit(solutions=2, seconds=timeout), engine=engine)
    cpu = time.process_time() - cpu0
    wall = time.perf_counter() - began
    correct = (
        result.status is Status.UNIQUE
        and doc.solution is not None
        and result.solutions[0].black_mask == doc.solution.black_mask
    )
    if result.status is Status.UNIQUE and not correct:
        print(f"  !! {doc.meta.get('id')}: {engine} disagrees with the published solution")
    return {
        "status": result.status.value,
        "seconds": round(cpu if clock == "cpu" else wall, 6),
        "cpu": round(cpu, 6),
        "wall": round(wall, 6),
        "nodes": result.stats.nodes,
        "ok": correct,
    }


def class_table(rows: list[dict[str, Any]], engines: list[str]) -> list[dict[str, Any]]:
    """Per size class and engine: solved/attempted and time statistics."""
    table = []
    for name, _, _ in CLASSES:
        in_class = [r for r in rows if r["class"] == name]
        for engine in engines:
            runs = [r[engine] for r in in_class if engine in r]
            if not runs:
                continue
            times = [run["seconds"] for run in runs]
            table.append(
                {
                    "class": name,
                    "engine": engine,
                    "puzzles": len(in_class),
                    "attempted": len(runs),
                    "solved": sum(1 for run in runs if run["ok"]),
                    "median": statistics.median(times),
                    "p90": percentile(times, 0.9),
                    "max": max(times),
                    "total": sum(times),
                }
            )
    return table


def ratios(rows: list[dict[str, Any]], engines: list[str]) -> list[dict[str, Any]]:
    """native / other on the puzzles both solved, per size class and overall."""
    out = []
    for other in engines:
        if other == "native" or "native" not in engines:
            continue
        for name in [*(c[0] for c in CLASSES), "all"]:
            both = [
                r
                for r in rows
                if (name == "all" or r["class"] == name)
                and r.get("native", {}).get("ok")
                and r.get(other, {}).get("ok")
            ]
            if not both:
                continue
            native = [r["native"]["seconds"] for r in both]
            theirs = [r[other]["seconds"] for r in both]
            out.append(
                {
                    "class": name,
                    "versus": other,
                    "puzzles": len(both),
                    "total_ratio": sum(native) / sum(theirs),
                    "median_ratio": statistics.median(
                        a / b for a, b in zip(native, theirs, strict=True)
                    ),
                }
            )
    return out


def startup_time(doc: Document, runs: int = 5) -> dict[str, Any]:
    """Whole-process time of ``nurikabe solve FILE`` on `doc`, with byte-code caching allowed."""
    exe = shutil.which("nurikabe", path=str(Path(sys.executable).parent)) or shutil.which(
        "nurikabe"
    )
    if exe is None:
        return {"error": "the nurikabe command is not installed"}
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # measure what an installed user sees
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "puzzle.jsonl"
        path.write_text(write(doc, "jsonl") + "\n", encoding="utf-8")
        subprocess.run([exe, "solve", str(path)], env=env, capture_output=True, check=False)
        walls, cpus = [], []
        for _ in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            began = time.perf_counter()
            done = subprocess.run([exe, "solve", str(path)], env=env, capture_output=True)
            walls.append(time.perf_counter() - began)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return {
        "puzzle": doc.meta.get("id"),
        "exit_code": done.returncode,
        "median_wall": statistics.median(walls),
        "min_wall": min(walls),
        "median_cpu": statistics.median(cpus),
        "load_average": os.getloadavg()[0],
    }


_RSS_SCRIPT = """
import json, resource, sys, time
from nurikabe import Limit, solve
from nurikabe.formats.jsonl import load

def peak_kib():
    # VmHWM belongs to this process image; ru_maxrss can carry the parent's peak over a fork.
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

doc = load(sys.stdin.read())
base = peak_kib()
began = time.perf_counter()
result = solve(doc.puzzle, limit=Limit(solutions=2, seconds=float(sys.argv[1])), engine=sys.argv[2])
print(json.dumps({"status": result.status.value, "seconds": time.perf_counter() - began,
                  "rss_before_kib": base, "peak_rss_kib": peak_kib()}))
"""


def peak_rss(doc: Document, engine: str, timeout: float) -> dict[str, Any]:
    """Peak resident memory of a fresh process solving `doc` (ru_maxrss, KiB on Linux)."""
    done = subprocess.run(
        [sys.executable, "-c", _RSS_SCRIPT, str(timeout), engine],
        input=write(doc, "jsonl"),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1:]}
    info: dict[str, Any] = json.loads(done.stdout)
    info.update(puzzle=doc.meta.get("id"), cells=doc.puzzle.area, engine=engine)
    return info


def git_state() -> dict[str, Any]:
    """The commit measured, and whether the solver sources differ from it."""

    def git(*args: str) -> str:
        done = subprocess.run(
            ["git", *args], cwd=HERE.parent, capture_output=True, text=True, check=False
        )
        return done.stdout.strip()

    return {
        "commit": git("rev-parse", "--short", "HEAD"),
        "solver_changes": git("status", "--porcelain", "src/nurikabe/solver").splitlines(),
    }


def cpsat_workers() -> int | None:
    try:
        from nurikabe.solver.cpsat import WORKERS
    except ImportError:
        return None
    return WORKERS


# -- reporting ----------------------------------------------------------------------------------


def print_tables(table: list[dict[str, Any]], ratio_rows: list[dict[str, Any]]) -> None:
    print()
    print(
        f"{'class':8} {'engine':11} {'solved':>9} {'median s':>9} {'p90 s':>8} "
        f"{'max s':>8} {'total s':>9}"
    )
    for row in table:
        solved = f"{row['solved']}/{row['attempted']}"
        print(
            f"{row['class']:8} {row['engine']:11} {solved:>9} {row['median']:9.3f} "
            f"{row['p90']:8.3f} {row['max']:8.2f} {row['total']:9.1f}"
        )
    if ratio_rows:
        print()
        print("native / CP-SAT time on the puzzles both solved (below 1: native is faster)")
        print(f"{'class':8} {'versus':11} {'puzzles':>8} {'total':>8} {'median':>8}")
        for row in ratio_rows:
            print(
                f"{row['class']:8} {row['versus']:11} {row['puzzles']:>8} "
                f"{row['total_ratio']:8.3f} {row['median_ratio']:8.3f}"
            )


FAMILY_SIZES = {
    "corner": list(range(5, 52, 2)),
    "two-clue": list(range(3, 52)),
    "lattice": [10, 20, 30, 40, 50],
    "brick": [10, 20, 30, 40, 50],
    "diamond": [10, 20, 30, 40, 50],
    "merged": [10, 20, 30, 40, 50],
}
"""The sizes n (n x n) each family is run at (a family added to `FAMILIES` without
sizes here runs at `OTHER_SIZES`)."""

OTHER_SIZES = [10, 20, 30, 40, 50]


def run_families(names: list[str], timeout: float, give_up: int) -> list[dict[str, Any]]:
    """Solve each family's members (native engine, CPU seconds) from the smallest up; a
    family stops after `give_up` members in a row not proven unique."""
    rows: list[dict[str, Any]] = []
    for name in names:
        misses = 0
        print(f"\nfamily {name}: n, CPU s, status, nodes")
        for n in FAMILY_SIZES.get(name, OTHER_SIZES):
            member = FAMILIES[name](n)
            cpu0 = time.process_time()
            result = solve(member.puzzle, limit=Limit(solutions=2, seconds=timeout))
            cpu = time.process_time() - cpu0
            ok = (
                result.status is Status.UNIQUE
                and result.solutions[0].black_mask == member.solution.black_mask
            )
            cells = member.puzzle.area
            rows.append(
                {
                    "family": name,
                    "n": n,
                    "cells": cells,
                    "class": size_class(cells),
                    "seconds": round(cpu, 6),
                    "status": result.status.value,
                    "nodes": result.stats.nodes,
                    "ok": ok,
                }
            )
            status = "ok" if ok else result.status.value
            print(f"  {n:3}  {cpu:8.3f}  {status:8} {result.stats.nodes}")
            misses = 0 if ok else misses + 1
            if misses >= give_up:
                print(f"  (stopped after {give_up} in a row not proven)")
                break
    print("\nfamily     class    proven  median s    max s")
    for name in names:
        for cls in ("<=100", "101-399", ">=400"):
            sel = [r for r in rows if r["family"] == name and r["class"] == cls]
            if not sel:
                continue
            ok = [r["seconds"] for r in sel if r["ok"]]
            med = f"{statistics.median(ok):9.3f}" if ok else "        -"
            top = f"{max(ok):8.3f}" if ok else "       -"
            print(f"{name:10} {cls:8} {len(ok):3}/{len(sel):<3} {med} {top}")
    return rows


def sparse_puzzle(rows: int, cols: int, sea_share: float, rng: random.Random) -> Puzzle:
    """A random puzzle with few clues and big islands: a sea grown cell by cell from a
    random cell, depth first (long corridors, so few islands), never closing a 2x2 pool,
    to `sea_share` of the grid; each component of the rest is an island, its clue on a
    random cell of it."""
    n = rows * cols
    black: set[int] = set()

    def near(i: int) -> list[int]:
        r, c = divmod(i, cols)
        out = [i - cols] if r else []
        out += [i + cols] if r + 1 < rows else []
        out += [i - 1] if c else []
        out += [i + 1] if c + 1 < cols else []
        return out

    def pools(i: int) -> bool:
        r, c = divmod(i, cols)
        for dr in (-1, 0):
            for dc in (-1, 0):
                r0, c0 = r + dr, c + dc
                if 0 <= r0 < rows - 1 and 0 <= c0 < cols - 1:
                    block = {r0 * cols + c0, r0 * cols + c0 + 1, (r0 + 1) * cols + c0}
                    block.add((r0 + 1) * cols + c0 + 1)
                    if all(j == i or j in black for j in block):
                        return True
        return False

    frontier = [rng.randrange(n)]
    while frontier and len(black) < sea_share * n:
        i = frontier.pop()
        if i in black or pools(i):
            continue
        black.add(i)
        fresh = [j for j in near(i) if j not in black]
        rng.shuffle(fresh)
        frontier.extend(fresh)
    clues: dict[int, int] = {}
    seen: set[int] = set(black)
    for i in range(n):
        if i in seen:
            continue
        island, queue = [i], [i]
        seen.add(i)
        while queue:
            for j in near(queue.pop()):
                if j not in seen:
                    seen.add(j)
                    island.append(j)
                    queue.append(j)
        clues[rng.choice(island)] = len(island)
    return Puzzle(rows, cols, clues)


SPARSE_ENGINES = ("native", "cpsat-fast", "portfolio")
"""The engines of the sparse table: the native search's weak spot, CP-SAT, and the
portfolio that hands the first over to the second."""


def run_sparse(
    count: int, sizes: list[tuple[int, int]], timeout: float, engines: list[str]
) -> list[dict[str, Any]]:
    """Solve `count` random sparse puzzles per size (seeds 0..count-1) with each engine,
    side by side. Most are not unique, so a puzzle counts as solved when decided (any
    status but UNKNOWN); the first table says how many got each status (first engine),
    the second per engine: solved, and median, p90 and max wall seconds over all the
    puzzles (an undecided one at the time it was given; CP-SAT runs threads of its own,
    so wall time is the fair clock here)."""
    rows_out: list[dict[str, Any]] = []
    for rows, cols in sizes:
        for seed in range(count):
            puzzle = sparse_puzzle(rows, cols, 0.45, random.Random(seed))
            row: dict[str, Any] = {
                "size": f"{rows}x{cols}",
                "seed": seed,
                "clues": len(puzzle.clues),
                "puzzle": puzzle.to_url(),
            }
            for engine in engines:
                began = time.perf_counter()
                result = solve(puzzle, limit=Limit(solutions=2, seconds=timeout), engine=engine)
                row[engine] = {
                    "status": result.status.value,
                    "seconds": round(time.perf_counter() - began, 6),
                    "nodes": result.stats.nodes,
                    "answered": result.stats.engine,
                }
            rows_out.append(row)
            parts = "  ".join(
                f"{e} {row[e]['seconds']:6.2f}s {row[e]['status']:8}" for e in engines
            )
            print(f"sparse {row['size']:>5} seed {seed:3}  {parts}", flush=True)
    print("\nsparse   n  unique  multiple  none  unknown  clues  island   (first engine)")
    for rows, cols in sizes:
        sel = [r for r in rows_out if r["size"] == f"{rows}x{cols}"]
        tally = {st: sum(r[engines[0]]["status"] == st.value for r in sel) for st in Status}
        clues = statistics.mean(r["clues"] for r in sel)
        island = (1 - 0.45) * rows * cols / clues
        print(
            f"{rows}x{cols:<4} {len(sel):3} {tally[Status.UNIQUE]:7} {tally[Status.MULTIPLE]:9} "
            f"{tally[Status.NONE]:5} {tally[Status.UNKNOWN]:8} {clues:6.1f} {island:7.1f}"
        )
    print(f"\nsparse  engine      solved  median s  p90 s   max s   ({timeout:g} s each, wall)")
    for rows, cols in sizes:
        sel = [r for r in rows_out if r["size"] == f"{rows}x{cols}"]
        for engine in engines:
            secs = [r[engine]["seconds"] for r in sel]
            solved = sum(r[engine]["status"] != Status.UNKNOWN.value for r in sel)
            print(
                f"{rows}x{cols:<4} {engine:11} {solved:3}/{len(sel):<3} "
                f"{statistics.median(secs):8.2f} {percentile(secs, 0.9):6.2f} {max(secs):7.2f}"
            )
    return rows_out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", required=True, help="JSON-lines corpus with solutions")
    parser.add_argument(
        "--engines",
        default=",".join(engine_names()),
        help=f"comma-separated engines (default: all, {','.join(engine_names())})",
    )
    parser.add_argument(
        "--limit-cells",
        type=int,
        default=150,
        help="largest puzzle (in cells) given to the CP-SAT engines (default 150)",
    )
    parser.add_argument("--sample", type=int, help="an evenly spread sample of N puzzles")
    parser.add_argument(
        "--cpsat-sample",
        type=int,
        default=40,
        help="give the CP-SAT engines an evenly spread sample of N of the puzzles they may "
        "take (default 40, to keep `make bench` near 20 minutes; 0 for all)",
    )
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per puzzle (60)")
    parser.add_argument(
        "--cpsat-timeout", type=float, help="seconds per puzzle for the CP-SAT engines (--timeout)"
    )
    parser.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="time reported in the tables: CPU time of this process (default; steadier on a "
        "shared machine, and CP-SAT's worker threads are counted) or wall time",
    )
    parser.add_argument("--out", help="JSON summary path (default bench/results/solve-DATE.json)")
    parser.add_argument("--no-process", action="store_true", help="skip start-up and RSS runs")
    parser.add_argument(
        "--families",
        default=",".join(FAMILIES),
        help=f"the thesis's families to run after the corpus ({','.join(FAMILIES)}; 'none')",
    )
    parser.add_argument(
        "--family-timeout", type=float, default=10.0, help="seconds per family member (10)"
    )
    parser.add_argument(
        "--family-give-up",
        type=int,
        default=2,
        help="stop a family after this many members in a row not proven (2)",
    )
    parser.add_argument("--skip-corpus", action="store_true", help="run only the families")
    parser.add_argument(
        "--sparse",
        type=int,
        default=20,
        help="random sparse puzzles (few clues, big islands) per size, 10x10 and 15x15 (20)",
    )
    parser.add_argument(
        "--sparse-engines",
        default=",".join(SPARSE_ENGINES),
        help=f"engines of the sparse table, side by side ({','.join(SPARSE_ENGINES)})",
    )
    parser.add_argument(
        "--sparse-timeout",
        type=float,
        default=None,
        help="seconds per sparse puzzle and engine (default: --family-timeout)",
    )
    args = parser.parse_args(argv)
    families = [f.strip() for f in args.families.split(",") if f.strip() and f != "none"]
    if any(f not in FAMILIES for f in families):
        parser.error(f"unknown family in {args.families!r}")

    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    sparse_engines = [e.strip() for e in args.sparse_engines.split(",") if e.strip()]
    unknown = [e for e in engines + sparse_engines if e not in engine_names()]
    if unknown:
        parser.error(f"unknown engine(s): {', '.join(unknown)}")
    docs = [] if args.skip_corpus else spread(read_file(args.corpus), args.sample)
    print(
        f"{len(docs)} puzzles; engines {', '.join(engines)}; {args.timeout:g} s per puzzle; "
        f"CP-SAT on up to {args.cpsat_sample or 'all'} puzzles of up to {args.limit_cells} cells "
        f"({cpsat_workers()} workers); python {platform.python_version()}, "
        f"{os.cpu_count()} cores"
    )

    eligible = [d for d in docs if d.puzzle.area <= args.limit_cells]
    cpsat_ids = {id(d) for d in spread(eligible, args.cpsat_sample or None)}
    rows: list[dict[str, Any]] = []
    began = time.perf_counter()
    try:
        for n, doc in enumerate(docs, start=1):
            cells = doc.puzzle.area
            row: dict[str, Any] = {
                "id": doc.meta.get("id"),
                "size": f"{doc.puzzle.rows}x{doc.puzzle.cols}",
                "cells": cells,
                "class": size_class(cells),
            }
            for engine in engines:
                if engine in SAMPLED and id(doc) not in cpsat_ids:
                    continue
                timeout = args.timeout
                if engine.startswith("cpsat") and args.cpsat_timeout is not None:
                    timeout = args.cpsat_timeout
                row[engine] = run_one(doc, engine, timeout, args.clock)
            rows.append(row)
            parts = "  ".join(
                f"{e} {row[e]['seconds']:7.3f}s {'ok' if row[e]['ok'] else row[e]['status']:8}"
                for e in engines
                if e in row
            )
            print(f"{n:4} {row['id']:28} {row['size']:>6}  {parts}", flush=True)
    except KeyboardInterrupt:
        print(f"interrupted after {len(rows)} puzzles; reporting those")
    wall = time.perf_counter() - began

    table = class_table(rows, engines)
    ratio_rows = ratios(rows, engines)
    if rows:
        print_tables(table, ratio_rows)
    family_rows = run_families(families, args.family_timeout, args.family_give_up)
    sparse_timeout = args.family_timeout if args.sparse_timeout is None else args.sparse_timeout
    sparse_rows = run_sparse(args.sparse, [(10, 10), (15, 15)], sparse_timeout, sparse_engines)

    process: dict[str, Any] = {}
    if not args.no_process and rows:
        ten = next((d for d in docs if d.puzzle.rows == d.puzzle.cols == 10), docs[0])
        process["startup"] = startup_time(ten)
        largest = max(docs, key=lambda d: d.puzzle.area)
        process["peak_rss"] = peak_rss(largest, "native", args.timeout)
        s = process["startup"]
        if "error" not in s:
            print(
                f"\nstart-up: `nurikabe solve` on {s['puzzle']} (10x10): median "
                f"{s['median_wall']:.3f} s wall (min {s['min_wall']:.3f}), "
                f"{s['median_cpu']:.3f} s CPU; load average {s['load_average']:.2f}"
            )
        r = process["peak_rss"]
        if "error" not in r:
            print(
                f"peak RSS solving the largest puzzle {r['puzzle']} ({r['cells']} cells, "
                f"native): {r['peak_rss_kib'] / 1024:.1f} MiB "
                f"(interpreter with nurikabe loaded: {r['rss_before_kib'] / 1024:.1f} MiB), "
                f"{r['status']} in {r['seconds']:.2f} s"
            )

    summary = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "command": " ".join(["python", "bench/solve.py", *(argv or sys.argv[1:])]),
        "git": git_state(),
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cores": os.cpu_count(),
        },
        "options": {
            "engines": engines,
            "timeout": args.timeout,
            "cpsat_timeout": args.cpsat_timeout or args.timeout,
            "clock": args.clock,
            "limit_cells": args.limit_cells,
            "sample": args.sample,
            "cpsat_sample": args.cpsat_sample,
            "cpsat_workers": cpsat_workers(),
        },
        "wall_seconds": round(wall, 1),
        "classes": table,
        "ratios": ratio_rows,
        "process": process,
        "puzzles": rows,
        "families": family_rows,
        "sparse": sparse_rows,
    }
    out = Path(args.out) if args.out else HERE / "results" / f"solve-{datetime.date.today()}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    print(f"\nsummary written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
