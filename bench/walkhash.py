"""Fingerprints of the engines' behaviour, to prove a change that should alter nothing.

For every k-th puzzle of a corpus it records a hash of the exact solver's answer (status
and solution), a hash of the walkthrough's step messages, the walkthrough's status and
its grade. Run it before and after a change and compare the two files:

    python bench/walkhash.py --corpus ../shared/corpus/puzzles.jsonl --every 4 -o before.json
    python bench/walkhash.py --corpus ../shared/corpus/puzzles.jsonl --every 4 -o after.json
    python bench/walkhash.py --compare before.json after.json

A walkthrough that runs out of its `--seconds` stops where the machine let it, so such
puzzles are listed apart by the comparison: only finished walkthroughs must agree.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from typing import Any

from nurikabe.formats.jsonl import read_file
from nurikabe.logic import explain
from nurikabe.solver import Limit, solve


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def fingerprint(path: str, every: int, seconds: float) -> dict[str, dict[str, Any]]:
    """The fingerprints of every `every`-th puzzle of the corpus at `path`."""
    out: dict[str, dict[str, Any]] = {}
    for k, doc in enumerate(read_file(path)):
        if k % every:
            continue
        began = time.process_time()
        result = solve(doc.puzzle, limit=Limit(solutions=2, seconds=60))
        walk = explain(doc.puzzle, seconds=seconds)
        grade = walk.grade
        out[doc.meta.get("id", str(k))] = {
            "solve": f"{result.status.value}:{_digest(str(result.solution))}",
            "walk": _digest("\n".join(step.message for step in walk.steps)),
            "status": walk.status,
            "grade": f"{grade.level}:{grade.score}" if grade else None,
            "cpu": round(time.process_time() - began, 2),
        }
        print(k, out[doc.meta.get("id", str(k))], file=sys.stderr, flush=True)
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
    parser.add_argument("--every", type=int, default=4, help="every k-th puzzle (4)")
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU per walkthrough")
    parser.add_argument("-o", "--output", default="bench/results/walkhash.json")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        with open(args.compare[0]) as a, open(args.compare[1]) as b:
            return compare(json.load(a), json.load(b))
    prints = fingerprint(args.corpus, args.every, args.seconds)
    with open(args.output, "w") as fh:
        json.dump(prints, fh, indent=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
