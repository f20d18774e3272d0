"""An audit of `?` clues on corpus puzzles of every size: walkthroughs and hints checked.

The property tests (tests/logic/test_engine.py) turn clues of puzzles of up to 100 cells
into `?`; this audit does it on the whole corpus, for as long as it is given. Each round
takes a random corpus puzzle and turns some of its clues into `?` (1, 2, 3 or 5 of them,
a third or a half), keeps it when the exact solver still proves it unique, walks it
through with `explain` (`--seconds` of CPU) and checks every step against the unique
solution, then asks `next_step` for a hint on `--hints` random partial boards (cells of
the solution) and checks those too. A step or hint that decides a cell against the
solution is an error; a solved walkthrough must end on the solution.

    python bench/question_audit.py --corpus ../shared/corpus/puzzles.jsonl --minutes 30 \
        --seed 1 [-o results/question-audit.json]

Prints one line per puzzle with an error (with its puzz.link URL) and a summary at the
end, also at Ctrl-C (what was audited so far).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from nurikabe.formats import write
from nurikabe.formats.jsonl import read_file
from nurikabe.logic import explain
from nurikabe.logic.engine import next_step
from nurikabe.logic.steps import Step
from nurikabe.puzzle import UNKNOWN_CLUE, Board, Puzzle
from nurikabe.solver import Limit, Status, solve

ROOT = Path(__file__).resolve().parent


def _wrong(step: Step, black: int) -> bool:
    return bool(step.black_mask & ~black or step.white_mask & black)


def _with_question_marks(puzzle: Puzzle, rng: random.Random) -> tuple[Puzzle, int]:
    clues = dict(puzzle.clues)
    count = rng.choice([1, 2, 3, 5, max(1, len(clues) // 3), max(1, len(clues) // 2)])
    for cell in rng.sample(sorted(clues), min(count, len(clues))):
        clues[cell] = UNKNOWN_CLUE
    return Puzzle(puzzle.rows, puzzle.cols, clues), count


def _partial(puzzle: Puzzle, solution: Board, rng: random.Random) -> Board:
    board = puzzle.empty_board()
    share = rng.random()
    for cell in range(puzzle.area):
        if cell not in puzzle.clues and rng.random() < share:
            board.set_color(cell, solution.color(cell))
    return board


def audit_one(
    puzzle: Puzzle, solution: Board, rng: random.Random, seconds: float, hints: int
) -> dict[str, Any]:
    """Walk `puzzle` through and ask for hints; what was checked and what was wrong."""
    black = solution.black_mask
    began = time.process_time()
    walk = explain(puzzle, seconds=seconds)
    errors = [step.message for step in walk.steps if _wrong(step, black)]
    if walk.status == "solved" and (walk.board is None or walk.board.black_mask != black):
        errors.append("the walkthrough ended on another board")
    asked = 0
    for _ in range(hints):
        step = next_step(puzzle, _partial(puzzle, solution, rng), solution=solution)
        asked += 1
        if step is not None and step.kind in ("deduction", "trial") and _wrong(step, black):
            errors.append(f"hint: {step.message}")
    return {
        "status": walk.status,
        "steps": len(walk.steps),
        "hints": asked,
        "cpu": round(time.process_time() - began, 2),
        "errors": errors,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(ROOT.parent.parent / "shared/corpus/puzzles.jsonl"))
    parser.add_argument("--minutes", type=float, default=10.0, help="how long to audit")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=30.0, help="CPU per walkthrough")
    parser.add_argument("--hints", type=int, default=3, help="hints asked per puzzle")
    parser.add_argument("-o", "--output", default="", help="also write every row here (JSON)")
    args = parser.parse_args(argv)
    docs = [d for d in read_file(args.corpus) if d.solution is not None]
    if not docs:
        print(f"error: no puzzle with a solution in {args.corpus}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    until = time.monotonic() + 60 * args.minutes
    rows: list[dict[str, Any]] = []
    try:
        while time.monotonic() < until:
            doc = rng.choice(docs)
            puzzle, count = _with_question_marks(doc.puzzle, rng)
            result = solve(puzzle, limit=Limit(solutions=2, seconds=10))
            if result.status is not Status.UNIQUE or result.solution is None:
                continue
            row = {"id": doc.meta.get("id"), "question_marks": count}
            row.update(audit_one(puzzle, result.solution, rng, args.seconds, args.hints))
            if row["errors"]:
                row["url"] = write(puzzle, "url")
                print(f"{row['id']}: {len(row['errors'])} wrong: {row['url']}", flush=True)
            rows.append(row)
    except KeyboardInterrupt:
        print("interrupted; the summary covers what was audited", file=sys.stderr)
    wrong = sum(1 for row in rows if row["errors"])
    statuses = Counter(row["status"] for row in rows)
    print(
        f"{len(rows)} puzzles, {sum(row['steps'] for row in rows)} walkthrough steps, "
        f"{sum(row['hints'] for row in rows)} hints; {wrong} with a wrong step or hint; "
        + ", ".join(f"{n} {status}" for status, n in sorted(statuses.items()))
    )
    if args.output:
        Path(args.output).write_text(json.dumps({"seed": args.seed, "rows": rows}, indent=1))
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
