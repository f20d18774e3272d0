"""Mining the correct puzzles of a small grid with the logic engine (the thesis's next step).

This module owns the study: every (or a uniform random sample of every) correct puzzle
of a grid from `enumerate.census` is walked through by `logic.explain`, every step is
checked against the puzzle's unique solution (found by the exact solver), and the
results are summed up: how many puzzles each level takes, how many need trial steps,
which techniques are ever needed (and by how many puzzles), the hardest puzzles by
score, and any wrong step or stuck walk.

Work is spread over processes (`nurikabe.workers`) in chunks; each worker decodes its
own puzzles from the packed census keys, so only bytes cross process boundaries. Ctrl-C
stops the census and the mining at once, workers included.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ..logic import LEVELS, explain
from ..puzzle import Puzzle
from ..solver import Limit, solve
from .enumerate import census, decode_clues

__all__ = ["MineSummary", "mine_keys", "mine_puzzle", "mine_size"]

HARDEST = 10
"""How many of the hardest puzzles a summary keeps."""


@dataclass
class MineSummary:
    """What mining found; every field adds up over chunks (`add`)."""

    puzzles: int = 0
    levels: Counter[str] = field(default_factory=Counter)
    technique_puzzles: Counter[str] = field(default_factory=Counter)
    technique_steps: Counter[str] = field(default_factory=Counter)
    with_trials: int = 0
    stuck: int = 0
    wrong_steps: int = 0
    steps: int = 0
    hardest: list[tuple[int, str, str]] = field(default_factory=list)
    """(score, puzz.link URL, level) of the hardest puzzles, hardest first."""
    cpu_seconds: float = 0.0
    lost: int = 0
    """Puzzles not mined because their worker process died (killed, out of memory)."""

    def add(self, other: MineSummary) -> None:
        self.puzzles += other.puzzles
        self.levels.update(other.levels)
        self.technique_puzzles.update(other.technique_puzzles)
        self.technique_steps.update(other.technique_steps)
        self.with_trials += other.with_trials
        self.stuck += other.stuck
        self.wrong_steps += other.wrong_steps
        self.steps += other.steps
        self.hardest = sorted(self.hardest + other.hardest, reverse=True)[:HARDEST]
        self.cpu_seconds += other.cpu_seconds
        self.lost += other.lost

    def to_json(self) -> dict[str, Any]:
        return {
            "puzzles": self.puzzles,
            "levels": {level: self.levels.get(level, 0) for level in LEVELS},
            "level_shares": {
                level: self.levels.get(level, 0) / self.puzzles if self.puzzles else 0.0
                for level in LEVELS
            },
            "with_trials": self.with_trials,
            "stuck": self.stuck,
            "steps": self.steps,
            "wrong_steps": self.wrong_steps,
            "technique_puzzles": dict(self.technique_puzzles.most_common()),
            "technique_steps": dict(self.technique_steps.most_common()),
            "hardest": [{"score": s, "url": u, "level": lv} for s, u, lv in self.hardest],
            "cpu_seconds": round(self.cpu_seconds, 2),
            "lost": self.lost,
        }


def mine_puzzle(puzzle: Puzzle, *, seconds: float = 60.0) -> MineSummary:
    """Walk one correct puzzle through the logic engine and check every step.

    >>> s = mine_puzzle(Puzzle.from_grid([[1, 0, 0], [0, 0, 0], [0, 0, 3]]))
    >>> s.levels, s.wrong_steps, s.stuck
    (Counter({'medium': 1}), 0, 0)
    """
    start = time.process_time()
    out = MineSummary(puzzles=1)
    solution = solve(puzzle, limit=Limit(solutions=2, seconds=seconds)).solution
    walk = explain(puzzle, seconds=seconds)
    assert walk.grade is not None
    out.levels[walk.grade.level] += 1
    out.steps = len(walk.steps)
    for step in walk.steps:
        out.technique_steps[step.technique] += 1
        if solution is None or (
            step.black_mask & ~solution.black_mask or step.white_mask & solution.black_mask
        ):
            out.wrong_steps += 1
    out.technique_puzzles.update(set(out.technique_steps))
    out.with_trials = int(walk.grade.trials > 0)
    out.stuck = int(walk.status != "solved")
    out.hardest = [(walk.grade.score, puzzle.to_url(), walk.grade.level)]
    out.cpu_seconds = time.process_time() - start
    return out


def mine_keys(rows: int, cols: int, keys: bytes, seconds: float = 60.0) -> MineSummary:
    """Mine the puzzles packed in `keys` (24 bytes each, as the census keeps them)."""
    total = MineSummary()
    for i in range(0, len(keys), 24):
        total.add(mine_puzzle(decode_clues(rows, cols, keys[i : i + 24]), seconds=seconds))
    return total


def _chunks(keys: bytes, picks: Sequence[int], size: int) -> list[bytes]:
    return [
        b"".join(keys[24 * i : 24 * i + 24] for i in picks[k : k + size])
        for k in range(0, len(picks), size)
    ]


def mine_size(
    rows: int,
    cols: int,
    *,
    sample: int | None = None,
    seed: int = 0,
    workers: int = 1,
    chunk: int = 500,
    seconds: float = 60.0,
    max_clue: int = 9,
    shards: int = 1,
    shard: int = 0,
    progress: Callable[[int, int], object] | None = None,
) -> MineSummary:
    """Mine every correct puzzle of the grid, or a uniform random `sample` of them.

    With `shards` > 1, only the correct puzzles of census shard `shard` are taken: a
    pseudo-random 1/`shards` of them, fixed by the shard (see `enumerate`), which is how a
    grid too big for one table (the 6x6) is mined.

    `workers` processes share the chunks of `chunk` puzzles; `progress` is called with
    (puzzles done, puzzles to mine) once the census is taken and after every chunk.

    >>> mine_size(2, 2, sample=3, seed=1).puzzles
    3
    """
    found = census(rows, cols, max_clue=max_clue, shards=shards, shard=shard, keep_correct=True)
    keys = b"".join(found.correct_keys or [])
    count = len(keys) // 24
    picks: Sequence[int] = range(count)
    if sample is not None and sample < count:
        picks = sorted(random.Random(seed).sample(range(count), sample))
    total = MineSummary()
    parts = _chunks(keys, picks, chunk)
    if progress:
        progress(0, len(picks))

    def add(result: MineSummary) -> None:
        total.add(result)
        if progress:
            progress(total.puzzles + total.lost, len(picks))

    if workers <= 1:
        for part in parts:
            add(mine_keys(rows, cols, part, seconds))
        return total
    from ..workers import run_unordered

    def lost(index: int, exitcode: int | None) -> MineSummary:
        return MineSummary(lost=len(parts[index]) // 24)

    work = partial(mine_keys, rows, cols, seconds=seconds)
    with contextlib.closing(run_unordered(work, parts, workers, lost)) as mined:
        for _, result in mined:
            add(result)
    return total
