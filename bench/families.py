"""Benchmark of the thesis's scalable families with both engines.

Run as ``python bench/families.py`` (``make bench-families``). Two sections:

1. The exact engine: every family of `nurikabe.research.families.FAMILIES`, and a few
   other radii and lengths of the diamond families (``diamond-r1`` ...), for every odd
   n from ``--min`` (9) to ``--max`` (51), each member solved in this process with
   ``solve(p, limit=Limit(solutions=2, seconds=--timeout))``, CPU seconds of the
   process. "proven" = unique and equal to the family's known solution. One table row
   per family: n range, proven, median and max CPU seconds, nodes at most, and the
   members over ``--target`` (1 s).
2. The logic engine: ``explain`` on every member from 7x7 to 15x15 (``--logic-min``,
   ``--logic-max``), each walkthrough bounded by ``--logic-seconds`` (60) of CPU, every
   step checked against the known solution. One row per family: solved, stuck or
   stopped, wrong steps, trials, the most steps, max CPU seconds.

Writes a JSON summary (every member's row) to bench/results/families-DATE.json. This
script owns no library code; it calls the public API only.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from nurikabe import Limit, solve
from nurikabe.errors import InvalidPuzzleError
from nurikabe.logic import explain
from nurikabe.research.families import FAMILIES, Family, diamond_lattice, merged_diamonds
from nurikabe.solver import Status

ROOT = Path(__file__).resolve().parent

VARIANTS: dict[str, Callable[[int], Family]] = {
    **FAMILIES,
    "diamond-r1": lambda n: diamond_lattice(n, n, radius=1),
    "diamond-r4": lambda n: diamond_lattice(n, n, radius=4),
    "merged-r2-l2": lambda n: merged_diamonds(n, n, radius=2, length=2),
    "merged-r3-l4": lambda n: merged_diamonds(n, n, radius=3, length=4),
}
"""Every family the benchmark runs: the registry's, then other radii and lengths."""


def exact_rows(sizes: list[int], timeout: float) -> list[dict[str, Any]]:
    """One row per family member: the default engine's CPU time, status and nodes."""
    rows = []
    for name, make in VARIANTS.items():
        for n in sizes:
            member = make(n)
            cpu0 = time.process_time()
            result = solve(member.puzzle, limit=Limit(solutions=2, seconds=timeout))
            cpu = time.process_time() - cpu0
            proven = (
                result.status is Status.UNIQUE
                and result.solutions[0].black_mask == member.solution.black_mask
            )
            rows.append(
                {
                    "family": name,
                    "n": n,
                    "clues": len(member.puzzle.clues),
                    "largest": max(member.puzzle.clues.values()),
                    "cpu": round(cpu, 6),
                    "status": result.status.value,
                    "nodes": result.stats.nodes,
                    "proven": proven,
                }
            )
    return rows


def logic_rows(
    sizes: list[int], seconds: float, names: list[str] | None = None
) -> list[dict[str, Any]]:
    """One row per family member (the sizes each family has: the corner family's odd n
    only): the logic engine's walkthrough, checked step by step. `names`: only these
    families (default: all)."""
    rows = []
    for name, make in VARIANTS.items():
        if names is not None and name not in names:
            continue
        for n in sizes:
            try:
                member = make(n)
            except InvalidPuzzleError:
                continue
            cpu0 = time.process_time()
            walk = explain(member.puzzle, seconds=seconds)
            cpu = time.process_time() - cpu0
            black = member.solution.black_mask
            wrong = sum(1 for s in walk.steps if s.black_mask & ~black or s.white_mask & black)
            grade = walk.grade
            print(
                f"  {name} {n}x{n}: {walk.status}, {len(walk.steps)} steps, {cpu:.2f} s", flush=True
            )
            rows.append(
                {
                    "family": name,
                    "n": n,
                    "status": walk.status,
                    "steps": len(walk.steps),
                    "wrong_steps": wrong,
                    "trials": grade.trials if grade is not None else None,
                    "level": grade.level if grade is not None else None,
                    "cpu": round(cpu, 6),
                }
            )
    return rows


def print_exact(rows: list[dict[str, Any]], target: float) -> None:
    print("family        n range  proven  median s    max s  nodes max  over target")
    for name in VARIANTS:
        sel = [r for r in rows if r["family"] == name]
        cpus = [r["cpu"] for r in sel]
        over = [f"{r['n']} ({r['cpu']:.2f} s)" for r in sel if r["cpu"] > target]
        print(
            f"{name:13} {sel[0]['n']:>3}-{sel[-1]['n']:<4} "
            f"{sum(r['proven'] for r in sel):>3}/{len(sel):<3} "
            f"{statistics.median(cpus):9.4f} {max(cpus):8.4f} "
            f"{max(r['nodes'] for r in sel):>10}  {', '.join(over) or '-'}"
        )
        for r in sel:
            if not r["proven"]:
                print(f"  not proven: n={r['n']} {r['status']} ({r['nodes']} nodes)")


def print_logic(rows: list[dict[str, Any]]) -> None:
    print("family        n range  solved  stuck  stopped  wrong  trials  steps max    max s")
    for name in VARIANTS:
        sel = [r for r in rows if r["family"] == name]
        if not sel:
            continue
        count = {s: sum(r["status"] == s for r in sel) for s in ("solved", "stuck", "stopped")}
        print(
            f"{name:13} {sel[0]['n']:>3}-{sel[-1]['n']:<4} "
            f"{count['solved']:>3}/{len(sel):<3} {count['stuck']:>5} {count['stopped']:>8} "
            f"{sum(r['wrong_steps'] for r in sel):>6} "
            f"{sum(r['trials'] or 0 for r in sel):>7} {max(r['steps'] for r in sel):>10} "
            f"{max(r['cpu'] for r in sel):8.3f}"
        )
        for r in sel:
            if r["status"] != "solved":
                print(f"  {r['status']}: n={r['n']} after {r['steps']} steps")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--min", type=int, default=9, help="smallest odd n (9)")
    ap.add_argument("--max", type=int, default=51, help="largest n (51)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per member (60)")
    ap.add_argument("--target", type=float, default=1.0, help="CPU seconds target (1)")
    ap.add_argument("--logic-min", type=int, default=7, help="smallest n for explain (7)")
    ap.add_argument("--logic-max", type=int, default=15, help="largest n for explain (15)")
    ap.add_argument(
        "--logic-seconds", type=float, default=60.0, help="CPU bound per walkthrough (60)"
    )
    ap.add_argument("--no-logic", action="store_true", help="skip the logic engine")
    ap.add_argument("--no-exact", action="store_true", help="skip the exact engine")
    ap.add_argument("--logic-odd", action="store_true", help="explain odd n only")
    ap.add_argument(
        "--family", action="append", help="explain only this family (repeatable; default all)"
    )
    ap.add_argument("--out", help="JSON path (default bench/results/families-DATE.json)")
    args = ap.parse_args()

    sizes = [n for n in range(args.min, args.max + 1) if n % 2]
    if not args.no_exact:
        print(f"exact engine, odd n from {args.min} to {args.max}, CPU seconds in-process")
    exact = [] if args.no_exact else exact_rows(sizes, args.timeout)
    if exact:
        print_exact(exact, args.target)

    small = [] if args.no_logic else list(range(args.logic_min, args.logic_max + 1))
    if args.logic_odd:
        small = [n for n in small if n % 2]
    logic = []
    if small:
        print(f"\nlogic engine (explain), n from {small[0]} to {small[-1]}")
        logic = logic_rows(small, args.logic_seconds, args.family)
        print_logic(logic)

    date = datetime.date.today().isoformat()
    summary = {
        "date": date,
        "load_average": os.getloadavg(),
        "timeout": args.timeout,
        "target": args.target,
        "exact": exact,
        "logic": logic,
    }
    out = Path(args.out) if args.out else ROOT / "results" / f"families-{date}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    print(f"\nwrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
