"""Time the pure-Python reference engine (`reference`) over the corpus (a developer script).

The compiled default engine is timed by bench/solve.py.

Run from the repository root::

    .venv/bin/python bench/perf_reference.py [--seconds 10] [--max-cells N] [--min-cells N]
        [--step K] [--set attr=value ...] [--only ID ...] [--show N]

Prints, per size class (<= 100, 101-399, >= 400 cells), how many puzzles were proved
unique with the published solution, and the median, 90th percentile and maximum time
(CPU time of this process, which is steadier than wall time on a shared machine), then
the slowest puzzles. ``--set`` overrides an attribute of `ReferenceSearch` to compare
variants in the same run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import importlib

    from tests.corpus import corpus

    from nurikabe.solver.result import Limit

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--min-cells", type=int, default=0)
    parser.add_argument("--max-cells", type=int, default=10**9)
    parser.add_argument("--step", type=int, default=1, help="take every k-th puzzle")
    parser.add_argument("--set", action="append", default=[], metavar="ATTR=JSON")
    parser.add_argument("--only", action="append", default=[], metavar="ID")
    parser.add_argument("--show", type=int, default=12, help="list this many slowest puzzles")
    parser.add_argument(
        "--module", default="nurikabe.solver.reference", help="engine module to time (a copy)"
    )
    args = parser.parse_args()
    ReferenceSearch = importlib.import_module(args.module).ReferenceSearch
    overrides = {}
    for item in args.set:
        name, _, value = item.partition("=")
        overrides[name] = json.loads(value)

    docs = [d for d in corpus() if args.min_cells <= d.puzzle.area <= args.max_cells]
    if args.only:
        docs = [d for d in docs if d.meta["id"] in args.only]
    rows = []
    wall0 = time.perf_counter()
    for doc in docs[:: args.step]:
        engine = ReferenceSearch(doc.puzzle, Limit(solutions=2, seconds=args.seconds))
        for name, value in overrides.items():
            setattr(engine, name, value)
        t0 = time.process_time()
        found = list(engine.solutions())
        cpu = time.process_time() - t0
        ok = len(found) == 1 and engine.complete and found[0].black_mask == doc.solution.black_mask
        rows.append((cpu, doc.meta["id"], doc.puzzle.area, ok, engine.nodes, engine.seconds))
        if not ok:
            print(f"not proved: {doc.meta['id']} ({engine.limit_hit})", flush=True)
    for lo, hi in ((0, 100), (101, 399), (400, 10**9)):
        part = [r for r in rows if lo <= r[2] <= hi]
        if not part:
            continue
        times = sorted(r[0] for r in part)
        print(
            f"{lo}-{hi if hi < 10**9 else ''} cells: {sum(r[3] for r in part)}/{len(part)} proved,"
            f" median {statistics.median(times) * 1000:.1f} ms,"
            f" p90 {times[int(len(times) * 0.9)] * 1000:.1f} ms,"
            f" max {times[-1] * 1000:.0f} ms, sum {sum(times):.1f} s,"
            f" nodes {sum(r[4] for r in part)}"
        )
    print(f"total CPU {sum(r[0] for r in rows):.1f} s, wall {time.perf_counter() - wall0:.1f} s")
    for cpu, ident, area, _ok, nodes, wall in sorted(rows)[-args.show :]:
        print(f"  {ident:24} {area:5} cells  {cpu:6.2f} s cpu  {wall:6.2f} s wall  {nodes} nodes")


if __name__ == "__main__":
    main()
