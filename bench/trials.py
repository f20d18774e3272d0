"""Where a walkthrough's trial steps spend their time, step by step.

For one corpus puzzle it runs the walkthrough (`nurikabe.logic.explain`) and prints a
line per trial step: the cells still unknown before it, its nesting depth, its chain
(steps, and how many of them are trials inside), the CPU time the step took, and the
part of it spent in the depth-3 search (`logic.trial._search_depth_three`, timed by a
wrapper that changes nothing it does); the rest of a depth-3 step's time is the
shallower searches that had to fail first. Two more columns say how much of each was
the exact core answering the guide (`solver.refuter.Position`'s `refute` and `solve`,
timed the same way): in the shallower searches and in the depth-3 search. Totals per
depth close the table.

    python bench/trials.py janko-1108 [--seconds 600] [--corpus PATH] [--json out.json]

Times are CPU seconds of this process. The walkthrough is the one `explain` makes; its
message hash is printed so a run can be matched with `bench/walkhash.py`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from nurikabe.formats.jsonl import read_file
from nurikabe.logic import explain, trial
from nurikabe.logic.steps import Step
from nurikabe.solver.refuter import Position

ROOT = Path(__file__).resolve().parent


class Clock:
    """CPU time per step: in the depth-3 search, and in the exact core inside and outside
    it (wrappers that only time, see `timed`)."""

    def __init__(self) -> None:
        self.deep = 0.0
        self.core_deep = 0.0
        self.core_shallow = 0.0
        self.in_deep = 0

    def reset(self) -> None:
        self.deep = self.core_deep = self.core_shallow = 0.0

    def add_core(self, seconds: float) -> None:
        if self.in_deep:
            self.core_deep += seconds
        else:
            self.core_shallow += seconds


def _timed(func: Any, done: Any, enter: Any = None) -> Any:
    """`func`, calling `done(seconds)` with the CPU time of each call (and `enter()`,
    if given, before it)."""

    def timed(*args: Any, **kwargs: Any) -> Any:
        if enter is not None:
            enter()
        began = time.process_time()
        try:
            return func(*args, **kwargs)
        finally:
            done(time.process_time() - began)

    return timed


@contextmanager
def _installed(clock: Clock) -> Iterator[None]:
    """Wrap the depth-3 search and the core's answers so that `clock` times them (put
    back as they were on leaving)."""

    def enter() -> None:
        clock.in_deep += 1

    def left_deep(seconds: float) -> None:
        clock.in_deep -= 1
        clock.deep += seconds

    saved = trial._search_depth_three, Position.refute, Position.solve
    trial._search_depth_three = _timed(trial._search_depth_three, left_deep, enter)  # type: ignore[assignment]
    for name in ("refute", "solve"):
        setattr(Position, name, _timed(getattr(Position, name), clock.add_core))
    try:
        yield
    finally:
        trial._search_depth_three, Position.refute, Position.solve = saved  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("id", help="the corpus puzzle's id, e.g. janko-1108")
    parser.add_argument("--corpus", default=str(ROOT.parent.parent / "shared/corpus/puzzles.jsonl"))
    parser.add_argument("--seconds", type=float, default=600.0, help="CPU time of the walkthrough")
    parser.add_argument("--json", default="", help="also write the rows here")
    args = parser.parse_args(argv)
    doc = next((d for d in read_file(args.corpus) if d.meta.get("id") == args.id), None)
    if doc is None:
        print(f"error: no puzzle {args.id!r} in {args.corpus}", file=sys.stderr)
        return 2
    clock = Clock()
    rows: list[dict[str, Any]] = []
    unknown = [doc.puzzle.area - len(doc.puzzle.clues)]
    began = last = time.process_time()

    def on_step(step: Step, left: int) -> None:
        nonlocal last
        now = time.process_time()
        if step.trial_depth:
            chain = step.chain
            rows.append(
                {
                    "unknown": unknown[0],
                    "depth": step.trial_depth,
                    "chain": len(chain),
                    "inner_trials": sum(1 for s in chain if s.trial_depth),
                    "cpu": round(now - last, 3),
                    "depth3_search": round(clock.deep, 3),
                    "core_shallow": round(clock.core_shallow, 3),
                    "core_depth3": round(clock.core_deep, 3),
                }
            )
            row = rows[-1]
            print(
                f"{row['unknown']:5d} depth {row['depth']} chain {row['chain']:3d} "
                f"({row['inner_trials']:3d} trials) {row['cpu']:8.2f} s "
                f"(depth-3 search {row['depth3_search']:.2f} s; core {row['core_shallow']:.2f} "
                f"+ {row['core_depth3']:.2f} s)",
                flush=True,
            )
        clock.reset()
        unknown[0] = left
        last = now

    with _installed(clock):
        walk = explain(doc.puzzle, seconds=args.seconds, on_step=on_step)
    total = time.process_time() - began
    digest = hashlib.sha1("\n".join(s.message for s in walk.steps).encode()).hexdigest()[:12]
    print(f"{args.id}: {walk.status}, {len(walk.steps)} steps, {total:.1f} s of CPU, hash {digest}")
    by_depth: dict[int, list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0.0])
    for row in rows:
        entry = by_depth[row["depth"]]
        entry[0] += 1
        entry[1] += row["cpu"]
        entry[2] += row["depth3_search"]
        entry[3] += row["core_shallow"]
        entry[4] += row["core_depth3"]
    for depth in sorted(by_depth):
        n, cpu, deep, core_shallow, core_deep = by_depth[depth]
        print(
            f"depth {depth}: {int(n)} steps, {cpu:.1f} s (depth-3 searches {deep:.1f} s; "
            f"the core {core_shallow:.1f} s in the shallower searches, {core_deep:.1f} s in "
            "the depth-3 searches)"
        )
    if walk.stopped:
        print(walk.stopped)
    if args.json:
        Path(args.json).write_text(json.dumps({"id": args.id, "hash": digest, "steps": rows}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
