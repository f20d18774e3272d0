"""Unique puzzles with few clues and big islands, for the engines' tails.

Published sparse puzzles (a 10x10 with 4 clues, big 14x24 and 17x17 ones) are where both
engines are weakest, and the corpus has few of them; random sparse grids
(`bench/solve.py`'s `sparse_puzzle`) are almost never unique, and moving their clues
until no second solution is left did not give one 10x10 of 6 clues or fewer in 4 min.
This script walks instead from a unique puzzle towards fewer clues, keeping it unique:
it starts from an easy puzzle of the generator (seeded), and proposes random moves of
the generator's own kinds (`generator.search.propose`: joins of two islands, dropped
1s, clue moves, reshaped islands, growths and cuts); a move that adds no clue, leaves a
valid board and is proved unique by the exact engine (`is_unique`, a node limit, so a
True is a proof) is taken. The walk stops at `--target` clues, after `--steps`
proposals or `--seconds` of CPU. Each puzzle is written as a JSON line in the corpus's
format (id, rows, cols, clues, solution), so `bench/logic.py --corpus` and
`bench/tail.py --corpus` read the file:

    python bench/sparse_unique.py --size 10x10 --seeds 0-8 --target 4 --out sparse10.jsonl
    python bench/logic.py --corpus sparse10.jsonl --seconds 60 --jobs 1

bench/results/sparse-unique-2026-11-29.jsonl holds 17 made this way (generator 14/15
easy starts): 10x10 with 5-11 clues, 15x15 with 21-23 and 20x20 with 41-44.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from nurikabe.generator import generate
from nurikabe.generator.search import is_unique, propose, puzzle_of
from nurikabe.generator.tiling import Layout
from nurikabe.grid import Grid, popcount

KINDS = ("join", "join", "join", "drop", "clue", "clue", "reshape", "reshape", "grow", "cut")
"""The walk's moves: joins and dropped 1s take a clue away, the others keep the count."""


def walk(rows: int, cols: int, seed: int, target: int, steps: int, seconds: float) -> Layout:
    """A unique layout walked from the generator's easy puzzle of `seed` towards `target`
    clues (see the module docstring)."""
    made = generate(rows, cols, difficulty="easy", rng=seed, seconds=60)
    grid = Grid.of(rows, cols)
    clue_mask = 0
    for cell in made.puzzle.clues:
        clue_mask |= 1 << cell
    current = Layout(grid, made.solution.white_mask, clue_mask, None)
    rng = random.Random(seed)
    end = time.process_time() + seconds
    for _ in range(steps):
        if popcount(current.clue_mask) <= target or time.process_time() > end:
            break
        moved = propose(current, rng, 0, KINDS)
        if moved is None or moved == current or not moved.is_valid():
            continue
        if popcount(moved.clue_mask) > popcount(current.clue_mask):
            continue
        if is_unique(moved, 4000):
            current = moved
    return current


def record(layout: Layout, name: str) -> dict[str, object]:
    """The corpus's JSON line of a layout."""
    grid = layout.grid
    puzzle = puzzle_of(layout)
    solution = [
        "".join("." if layout.white >> (r * grid.cols + c) & 1 else "#" for c in range(grid.cols))
        for r in range(grid.rows)
    ]
    clues = [[cell // grid.cols, cell % grid.cols, v] for cell, v in sorted(puzzle.clues.items())]
    return {"id": name, "rows": grid.rows, "cols": grid.cols, "clues": clues, "solution": solution}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="10x10", help="RxC")
    parser.add_argument("--seeds", default="0-3", help="first-last (inclusive)")
    parser.add_argument("--target", type=int, default=4, help="stop at this many clues")
    parser.add_argument("--steps", type=int, default=30000, help="proposals per walk")
    parser.add_argument("--seconds", type=float, default=120.0, help="CPU per walk")
    parser.add_argument("--out", required=True, help="JSON lines written here")
    args = parser.parse_args()
    try:
        rows, cols = (int(x) for x in args.size.lower().split("x"))
        first, last = (int(x) for x in args.seeds.split("-"))
    except ValueError:
        print(
            f"sparse_unique: bad --size or --seeds: {args.size!r}, {args.seeds!r}", file=sys.stderr
        )
        return 2
    with open(args.out, "w", encoding="utf-8") as out:
        for seed in range(first, last + 1):
            try:
                layout = walk(rows, cols, seed, args.target, args.steps, args.seconds)
            except KeyboardInterrupt:
                print("sparse_unique: stopped", file=sys.stderr)
                return 130
            line = record(layout, f"sparse{rows}x{cols}-{seed}")
            out.write(json.dumps(line) + "\n")
            out.flush()
            print(f"{line['id']}: {len(line['clues'])} clues", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
