"""The thesis's questions answered exactly for every grid up to 6x6, and the data of the figures.

Run as ``python bench/research_answers.py --store-6x6 6x6.sqlite`` after the 6x6 census
(``nurikabe research enumerate --size 6x6 --shards 32 --store 6x6.sqlite ...``; the
merged shards are read back from its store). For every grid m x n with 1 <= m <= n <= 6
(a census of n x m is the transpose, so one orientation answers both):

- from the census (clues 1..9, the thesis's convention): the correct puzzles, the
  fewest and the most clues a correct puzzle has, how many correct puzzles each clue
  count gives, the largest island of a correct puzzle's solution (its largest clue);
  up to 25 cells, the largest island again with clues up to 15;
- from the logic engine: a uniform random sample of ``--sample`` correct puzzles (all of
  them when there are fewer), each walked through with every step checked against the
  solution: the share of each level and the hardest by score. Grids past 30 cells are
  sampled from census shard 0 of 4096 (a pseudo-random 1/4096 of their puzzles).

Writes bench/results/research-answers-DATE.json, which scripts/research_figures.py draws.
This script owns no library code; it calls the public API only.
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import time
from pathlib import Path
from typing import Any

from nurikabe.batch import load_results
from nurikabe.research.enumerate import Census, census
from nurikabe.research.jobs import merge_census
from nurikabe.research.mine import mine_size

ROOT = Path(__file__).resolve().parent


def _census(rows: int, cols: int, store: Path | None) -> tuple[Census, float]:
    start = time.process_time()
    if rows * cols > 30 and store is not None:
        stored = load_results(store)
        found = merge_census(v for k, v in stored.items() if k.startswith(f"enumerate {rows}x"))
        cpu = sum(v["cpu_seconds"] for k, v in stored.items() if k.startswith(f"enumerate {rows}x"))
        return found, cpu
    found = census(rows, cols)
    return found, time.process_time() - start


def answer(rows: int, cols: int, sample: int, store: Path | None, workers: int) -> dict[str, Any]:
    found, cpu = _census(rows, cols, store)
    fewest, most = found.clue_range()
    shards = (4096, 0) if rows * cols > 30 else (1, 0)
    start = time.perf_counter()
    mined = mine_size(
        rows, cols, sample=sample, seed=1, workers=workers, shards=shards[0], shard=shards[1]
    ).to_json()
    return {
        "size": f"{rows}x{cols}",
        "cells": rows * cols,
        "boards": found.boards,
        "correct": found.correct,
        "solvable": found.solvable,
        "max_solutions": list(found.max_solutions),
        "fewest_clues": fewest,
        "most_clues": most,
        "clue_counts": {str(k): n for k, n in enumerate(found.clue_counts) if n},
        "largest_island": found.largest_island,
        # the largest island again with clues up to 15 (the most a census key holds), so
        # that a 9 above is not just the thesis's clue limit; exact when below 15
        "largest_island_15": census(rows, cols, max_clue=15).largest_island
        if rows * cols <= 25
        else None,
        "census_cpu_seconds": round(cpu, 2),
        "mined": {
            "puzzles": mined["puzzles"],
            "from_shard": list(shards) if shards[0] > 1 else None,
            "levels": mined["levels"],
            "level_shares": mined["level_shares"],
            "with_trials": mined["with_trials"],
            "stuck": mined["stuck"],
            "wrong_steps": mined["wrong_steps"],
            "hardest": mined["hardest"][:3],
            "seconds": round(time.perf_counter() - start, 2),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int, default=6, help="largest side (6)")
    parser.add_argument("--sample", type=int, default=1000, help="puzzles mined per size")
    parser.add_argument("--workers", type=int, default=2, help="mining processes")
    parser.add_argument("--store-6x6", type=Path, help="the 6x6 census's store")
    args = parser.parse_args()
    sizes = [(m, n) for n in range(1, args.max + 1) for m in range(1, n + 1)]
    if args.store_6x6 is None:  # without the 6x6 census, every grid up to 30 cells
        sizes = [(m, n) for m, n in sizes if m * n <= 30]
    sizes.sort(key=lambda s: (s[0] * s[1], s))
    out = []
    for rows, cols in sizes:
        row = answer(rows, cols, args.sample, args.store_6x6, args.workers)
        out.append(row)
        mined = row["mined"]
        print(
            f"{row['size']:>5} correct {row['correct']:>13,}  clues {row['fewest_clues']}"
            f"..{row['most_clues']}  largest island {row['largest_island']}  "
            f"mined {mined['puzzles']} wrong {mined['wrong_steps']} stuck {mined['stuck']}",
            flush=True,
        )
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    date = datetime.date.today().isoformat()
    result = {"commit": commit, "date": date, "sample": args.sample, "sizes": out}
    path = ROOT / "results" / f"research-answers-{date}.json"
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
