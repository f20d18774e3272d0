"""Benchmark of the setter's studio: server-side analysis of drafts, 10x10 and 20x20.

Run as ``python bench/studio.py``. Three drafts per puzzle of the bundled
collection (chosen with a fixed seed), as a setter's grid looks while composing: with
``--removed`` clues taken away (mostly no solution then), with ``--unknown`` clues turned
into ``?`` (mostly several solutions), and the whole puzzle (unique). Each draft is
analysed as ``POST /api/studio/analyze`` does it (`nurikabe.web.analysis.analyze`: forced
cells, witness, and for a unique draft the grade), in this process, and again as the
server runs it, in a worker process (`nurikabe.web.analysts.run_analysis`: the analysis
plus the hand-over). Reports the median and the worst time per size and the statuses.
Targets: median <= 100 ms for 10x10, <= 1 s for 20x20.

Writes a JSON summary to bench/results/studio-DATE.json. This script owns no library code.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import statistics
import time
from collections import Counter
from pathlib import Path

from nurikabe import UNKNOWN_CLUE, Puzzle
from nurikabe import collection as bundled
from nurikabe.web.analysis import analyze
from nurikabe.web.analysts import run_analysis

TARGETS = {"10x10": 0.1, "20x20": 1.0}


def drafts(name: str, count: int, removed: int, unknown: int, rng: random.Random) -> list[Puzzle]:
    conn = bundled.open_db(None, readonly=True)
    try:
        puzzles = [e.puzzle for e in bundled.entries(conn, collection=name)]
    finally:
        conn.close()
    out = []
    for puzzle in rng.sample(puzzles, min(count, len(puzzles))):
        clues = dict(puzzle.clues.items())
        for cell in rng.sample(sorted(clues), min(removed, len(clues) - 1)):
            del clues[cell]
        out.append(Puzzle(puzzle.rows, puzzle.cols, clues))
        vague = dict(puzzle.clues.items())
        for cell in rng.sample(sorted(vague), min(unknown, len(vague))):
            vague[cell] = UNKNOWN_CLUE
        out.append(Puzzle(puzzle.rows, puzzle.cols, vague))
        out.append(puzzle)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20, help="puzzles per size")
    parser.add_argument("--removed", type=int, default=1, help="clues taken from each")
    parser.add_argument("--unknown", type=int, default=2, help="clues made ? in another draft")
    parser.add_argument("--seed", type=int, default=18)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    summary = {}
    for name, target in TARGETS.items():
        times, served, statuses = [], [], Counter()
        for puzzle in drafts(name, args.count, args.removed, args.unknown, rng):
            began = time.perf_counter()
            found = analyze(puzzle)
            times.append(time.perf_counter() - began)
            assert found is not None
            statuses[found.status.value] += 1
            began = time.perf_counter()
            assert run_analysis(puzzle, lambda: False) is not None
            served.append(time.perf_counter() - began)
        median = statistics.median(times)
        summary[name] = {
            "drafts": len(times),
            "median_ms": round(median * 1000, 1),
            "max_ms": round(max(times) * 1000, 1),
            "target_ms": target * 1000,
            "met": median <= target,
            "worker_median_ms": round(statistics.median(served) * 1000, 1),
            "worker_max_ms": round(max(served) * 1000, 1),
            "statuses": dict(statuses),
        }
        print(
            f"{name}: {len(times)} drafts, median {median * 1000:.1f} ms, worst"
            f" {max(times) * 1000:.1f} ms (target {target * 1000:g} ms), {dict(statuses)};"
            f" through a worker process median {statistics.median(served) * 1000:.1f} ms,"
            f" worst {max(served) * 1000:.1f} ms"
        )
    out = Path(__file__).parent / "results" / f"studio-{datetime.date.today()}.json"
    out.write_text(json.dumps({"args": vars(args), "sizes": summary}, indent=2) + "\n")
    print(f"written {out}")


if __name__ == "__main__":
    main()
