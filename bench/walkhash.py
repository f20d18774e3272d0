"""Fingerprints of the engines' behaviour, to prove a change that should alter nothing.

For every k-th puzzle of a corpus it records a hash of the exact solver's answer (status
and solution), a hash of the walkthrough's step messages, the walkthrough's status and
its grade. Run it before and after a change and compare the two files:

    python bench/walkhash.py --corpus ../shared/corpus/puzzles.jsonl --every 4 -o before.json
    python bench/walkhash.py --corpus ../shared/corpus/puzzles.jsonl --every 4 -o after.json
    python bench/walkhash.py --compare before.json after.json

`--ids A,B` takes those corpus puzzles (with `--every`, every k-th puzzle too) and
`--orientations` each in its 8 orientations (bench/orientations.py; keys ``ID/TURN``):

    python bench/walkhash.py --ids janko-1091,janko-1108 --every 0 --orientations \
        --seconds 200 -o after.json

A walkthrough that runs out of its `--seconds` stops where the machine let it, so such
puzzles are listed apart by the comparison: only finished walkthroughs must agree.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

from nurikabe.formats.jsonl import read_file
from nurikabe.logic import explain
from nurikabe.solver import Limit, solve

sys.path.insert(0, str(Path(__file__).resolve().parent))
from orientations import TURNS, label, orient  # bench/orientations.py


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def fingerprint(
    path: str,
    every: int,
    seconds: float,
    ids: frozenset[str] = frozenset(),
    turns: tuple[int, ...] = (0,),
) -> dict[str, dict[str, Any]]:
    """The fingerprints of every `every`-th puzzle of the corpus at `path` (none when
    `every` is 0) and of those named in `ids`, in each orientation of `turns`."""
    out: dict[str, dict[str, Any]] = {}
    for k, doc in enumerate(read_file(path)):
        pid = doc.meta.get("id", str(k))
        if not ((every and k % every == 0) or pid in ids):
            continue
        for turn in turns:
            puzzle, _ = orient(doc.puzzle, doc.solution, turn)
            began = time.process_time()
            result = solve(puzzle, limit=Limit(solutions=2, seconds=60))
            walk = explain(puzzle, seconds=seconds)
            grade = walk.grade
            key = label(pid, turn)
            out[key] = {
                "solve": f"{result.status.value}:{_digest(str(result.solution))}",
                "walk": _digest("\n".join(step.message for step in walk.steps)),
                "status": walk.status,
                "grade": f"{grade.level}:{grade.score}" if grade else None,
                "cpu": round(time.process_time() - began, 2),
            }
            print(k, key, out[key], file=sys.stderr, flush=True)
    return out


def compare(before: dict[str, Any], after: dict[str, Any]) -> int:
    """Print what differs; exit status 1 when a solver answer or a finished walk differs."""
    bad = 0
    stopped = []
    for pid in sorted(set(before) | set(after)):
        a, b = before.get(pid), after.get(pid)
        if a is None or b is None:
            print(f"{pid}: only in {'after' if a is None else 'before'}")
            bad += 1
            continue
        if a["solve"] != b["solve"]:
            print(f"{pid}: solver answer {a['solve']} -> {b['solve']}")
            bad += 1
        finished = {a["status"], b["status"]} <= {"solved", "stuck"}
        same = (a["walk"], a["grade"]) == (b["walk"], b["grade"])
        if not same and finished:
            print(f"{pid}: walkthrough {a['walk']} {a['grade']} -> {b['walk']} {b['grade']}")
            bad += 1
        elif not finished:
            stopped.append(pid)
    print(f"{len(before)} puzzles; {bad} differ; ran out of time (not compared): {stopped}")
    return 1 if bad else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="../shared/corpus/puzzles.jsonl")
    parser.add_argument("--every", type=int, default=4, help="every k-th puzzle (4; 0: none)")
    parser.add_argument("--ids", default="", help="these corpus ids too (comma-separated)")
    parser.add_argument(
        "--orientations", action="store_true", help="each puzzle in its 8 orientations"
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU per walkthrough")
    parser.add_argument("-o", "--output", default="bench/results/walkhash.json")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        with open(args.compare[0]) as a, open(args.compare[1]) as b:
            return compare(json.load(a), json.load(b))
    ids = frozenset(pid for pid in args.ids.split(",") if pid)
    turns = TURNS if args.orientations else (0,)
    prints = fingerprint(args.corpus, args.every, args.seconds, ids, turns)
    with open(args.output, "w") as fh:
        json.dump(prints, fh, indent=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
