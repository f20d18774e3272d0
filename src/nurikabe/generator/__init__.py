"""The puzzle generator: new puzzles of a given size, difficulty, symmetry and island profile.

What a good puzzle is (the generator's contract)
-------------------------------------------------
`generate` returns a puzzle only if all of these hold:

1. **Unique**: the native exact solver has proved that it has exactly one solution,
   and that solution is the one the generator built. No limit-hit or timed-out
   search ever counts as a proof.
2. **Graded at the requested level**: the logic engine (`nurikabe.logic.grade`) gives
   it exactly the requested level, which means (ST) it is solvable with the techniques
   of that level and not with those of the level below. ``difficulty="any"`` drops
   this condition. At every level, extreme included, the logic engine's walkthrough
   (trial steps and all) finishes the puzzle, so a hint never runs out on it.
3. **Within the requested shape**: the requested rows and columns; no island larger
   than `max_island`; the clue positions symmetric under the requested symmetry
   (``rot180`` or ``mirror``; the solution is then symmetric too); one clue per
   island, every clue a number (no ``?``).
4. **Reproducible**: the same seed and options give the same puzzle, on any machine
   and whatever the number of worker processes (the time budget only decides when
   to give up, never which puzzle comes out).

When it cannot meet the request within its budget, it raises `GenerationError`
(a `ValueError`) saying what was asked and why it failed. It never returns a
puzzle it has not proved unique.

The island-size profile (`mean_island`) and the white share steer the random
solution the generator starts from, and `clue_density` the quality walk; they are
aims, not guarantees.

How it works (docs/generator.md has the measurements)
-----------------------------------------------------
1. Build a random solved board (`tiling.random_layout`): islands grown on an
   all-black grid until no 2x2 pool is left, keeping the sea connected; one clue
   cell per island.
2. Hill-climb with local moves (`search.settle`): move a clue within its island, add
   a 1, grow, cut or split an island, wherever the logic engine got stuck, until the
   engine restricted to the wanted level's techniques solves the whole board.
3. Walk on (`search.harden`) until the level below gets stuck, so the puzzle is not
   too easy.
4. Join islands and grow them towards published clue density and white share while
   the level stays the same (`search.polish`): the climb leaves too many small islands.
   Hard and expert on huge boards join instead by `search.exact_polish`: each join is
   proved unique by the exact solver before the logic engine, at the level's own tier,
   is asked about it.
5. Extreme is made differently. Below `DEEPEN_FROM` cells (`_beyond_logic`): the
   climb with medium logic starts from a board with few, large islands, and on the
   way the exact solver is asked whether the boards it passes are unique; the first
   unique one that expert logic (tier 4) cannot finish is taken. From `DEEPEN_FROM`
   cells (`_deeper`): an expert puzzle is made as in steps 1-4, then walked by moves
   that take clues away (`search.deepen`), each proved unique by the exact solver,
   until expert logic is stuck and the trial steps finish it.
6. Prove uniqueness with the native solver and grade with the logic engine.

Imports `grid`, `puzzle`, `errors`, `solver`, `logic` and its own modules.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import NurikabeError
from ..grid import popcount
from ..puzzle import Board, Puzzle
from ..solver import Limit, Status, solve
from .search import (
    REANCHOR,
    REPAIR_KINDS,
    REPAIR_KINDS_NO_ONES,
    Deadline,
    Evaluator,
    deepen,
    exact_polish,
    grow_big,
    harden,
    polish,
    puzzle_of,
    settle,
)
from .tiling import SYMMETRIES, Layout, Profile, random_layout, symmetry_map

if TYPE_CHECKING:
    from ..logic import Grade

__all__ = [
    "DIFFICULTIES",
    "GENERATOR_VERSION",
    "SYMMETRIES",
    "GeneratedPuzzle",
    "GenerationError",
    "check_options",
    "generate",
]

GENERATOR_VERSION = "19"
"""Bumped whenever the same seed and options may give a different puzzle."""

DIFFICULTIES = ("easy", "medium", "hard", "expert", "extreme", "any")
"""The levels `generate` accepts: the grader's levels (`logic.LEVELS`, easiest first; a test
keeps them equal, so that `import nurikabe` need not load the logic engine) and ``"any"``."""

SOLVER_NODES = 200_000
"""Node limit of one uniqueness proof (a node limit, unlike a time limit, is reproducible)."""


class GenerationError(NurikabeError):
    """The generator could not meet the request within its budget."""


@dataclass(frozen=True)
class GeneratedPuzzle:
    """A puzzle the generator made, with its solution, grade and the seed that remakes it."""

    puzzle: Puzzle
    """The puzzle."""
    solution: Board
    """Its unique solution."""
    grade: Grade
    """The logic engine's grade."""
    seed: int
    """``generate(rows, cols, rng=seed, ...)`` with the same options makes it again."""
    options: dict[str, Any] = field(default_factory=dict)
    """The options it was made with (difficulty, symmetry, profile)."""
    version: str = GENERATOR_VERSION
    """The generator version that made it."""
    attempts: int = 1
    """Random boards tried before this one."""

    def to_json(self) -> dict[str, Any]:
        """The JSON-lines record: rows, cols, clues, solution, grade, seed and URL."""
        p = self.puzzle
        return {
            "rows": p.rows,
            "cols": p.cols,
            "clues": [[i // p.cols, i % p.cols, v] for i, v in p.clues.items()],
            "solution": self.solution.to_rows(),
            "grade": {"level": self.grade.level, "score": self.grade.score},
            "seed": self.seed,
            "url": p.to_url(),
            "generator": self.version,
        }


def _seed_of(rng: random.Random | int | None) -> int:
    if rng is None:
        return random.SystemRandom().getrandbits(48)
    if isinstance(rng, random.Random):
        return rng.getrandbits(48)
    if isinstance(rng, bool) or not isinstance(rng, int):
        raise TypeError(f"rng must be a random.Random, an int seed or None, not {rng!r}")
    return rng


def _default_profile(
    rows: int,
    cols: int,
    difficulty: str,
    max_island: int | None,
    mean_island: float | None,
    clue_density: float | None,
) -> Profile:
    if max_island is None:
        max_island = max(
            _level_profile(difficulty, rows * cols)[0],
            min(BIG_ISLAND_CAP, round(BIG_ISLAND_SHARE * rows * cols))
            if rows * cols >= SWEEP_FROM
            else 0,
        )
    white_share = EXTREME_SHARE if difficulty == "extreme" else WHITE_SHARE
    if max_island <= 1:
        white_share = 0.3
    # The random board starts from the level's island sizes; the quality walk then aims at
    # `clue_density` (published puzzles' unless `mean_island` or `clue_density` says).
    if mean_island is not None:
        clue_density = 100 * white_share / mean_island if clue_density is None else clue_density
    elif clue_density is not None:
        mean_island = 100 * white_share / clue_density
    else:
        mean_island = _level_profile(difficulty, rows * cols)[1]
        clue_density = clue_density_of(rows * cols)
    return Profile(
        max_island=max_island,
        mean_island=mean_island,
        white_share=white_share,
        clue_density=clue_density,
    )


WHITE_SHARE = 0.46
"""White share the random solution aims at (published puzzles: 0.45-0.46)."""

LEVEL_PROFILES = {
    "easy": (6, 2.6),
    "medium": (8, 3.3),
    "hard": (9, 3.7),
    "expert": (9, 3.9),
    "extreme": (25, 8.5),
    "any": (9, 3.7),
}
"""Default (largest island, mean island size aimed at) per level. Published puzzles
average 3.7 cells per island; tier 1 logic alone rarely pins down big islands, so the
easier levels start from smaller ones (the climb shrinks islands further)."""

LARGE_LEVEL_PROFILES = {"easy": (12, 4.5)}
"""Over `LEVEL_PROFILES` on large boards (`SWEEP_FROM` to `HUGE_FROM`). Easy boards there start
from larger islands: with the longer walk of `QUICK_POLISH` to join them, 15x15 easy came
out with 0.136 clues a cell and a largest clue of 8 (seeds 0-5) against 0.149 and 5.5 from
(6, 2.6), at 2.1 s of CPU against 0.7 (bench/results/generator-log.md, "Generator 14")."""


def _level_profile(difficulty: str, area: int) -> tuple[int, float]:
    """(largest island, mean island aimed at) of `difficulty` on a board of `area` cells."""
    if SWEEP_FROM <= area < HUGE_FROM and difficulty in LARGE_LEVEL_PROFILES:
        return LARGE_LEVEL_PROFILES[difficulty]
    return LEVEL_PROFILES.get(difficulty, LEVEL_PROFILES["hard"])


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def check_options(
    rows: int,
    cols: int,
    *,
    max_island: int | None = None,
    mean_island: float | None = None,
    clue_density: float | None = None,
    seconds: float | None = 60.0,
    attempts: int = 200,
) -> None:
    """Check the numeric options of `generate` against the grid, before any work.

    Every option is bounded by the grid: `max_island` from 1 to the number of cells,
    `mean_island` from 1 to `max_island` (or the cells), `clue_density` above 0 and at
    most 100 clues per 100 cells; `seconds` is None or a finite time above 0 and
    `attempts` at least 1. nan and inf are refused everywhere.

    Raises:
        GenerationError: the first option out of range, named with its bounds.
    """
    if not (_is_int(rows) and _is_int(cols)) or rows < 2 or cols < 2:
        raise GenerationError(f"cannot generate a {rows}x{cols} puzzle: need at least 2x2")
    if rows * cols > MAX_CELLS:
        raise GenerationError(
            f"{rows}x{cols} is too large for the generator (at most {MAX_CELLS} cells)"
        )
    area = rows * cols
    if max_island is not None and (not _is_int(max_island) or not 1 <= max_island <= area):
        raise GenerationError(
            f"max_island must be a whole number from 1 to {area} (the cells of "
            f"{rows}x{cols}), not {max_island!r}"
        )
    top = max_island if max_island is not None else area
    if mean_island is not None and (not _is_number(mean_island) or not 1 <= mean_island <= top):
        raise GenerationError(f"mean_island must be from 1 to {top}, not {mean_island!r}")
    if clue_density is not None and (not _is_number(clue_density) or not 0 < clue_density <= 100):
        raise GenerationError(
            f"clue_density must be above 0 and at most 100 (clues per 100 cells), "
            f"not {clue_density!r}"
        )
    if seconds is not None and (not _is_number(seconds) or seconds <= 0):
        raise GenerationError(f"seconds must be a finite time above 0 (or None), not {seconds!r}")
    if not _is_int(attempts) or attempts < 1:
        raise GenerationError(f"attempts must be a whole number of at least 1, not {attempts!r}")


MAX_CELLS = 64 * 64
"""The largest grid the generator takes."""


def _check_request(rows: int, cols: int, difficulty: str, symmetry: str, max_island: int) -> None:
    if difficulty not in DIFFICULTIES:
        raise GenerationError(
            f"unknown difficulty {difficulty!r} (known: {', '.join(DIFFICULTIES)})"
        )
    if symmetry not in SYMMETRIES:
        raise GenerationError(f"unknown symmetry {symmetry!r} (known: {', '.join(SYMMETRIES)})")
    if symmetry == "mirror" and rows % 2 == 0 and cols % 2 == 0:
        raise GenerationError(
            f"mirror symmetry needs an odd number of rows or columns, not {rows}x{cols} "
            "(the middle two lines would have to be all sea); use rot180"
        )
    if max_island < 1:
        raise GenerationError(f"max_island must be at least 1, not {max_island}")


def _prove(layout: Layout, deadline: Deadline) -> Board | None:
    """The unique solution of the layout's puzzle, if the native solver proves it."""
    puzzle = puzzle_of(layout)
    left = deadline.left()
    result = solve(
        puzzle,
        limit=Limit(
            solutions=2, nodes=SOLVER_NODES, seconds=None if left is None else max(left, 1.0)
        ),
    )
    if result.status is not Status.UNIQUE or result.solution is None:
        return None
    if result.solution.white_mask != layout.white:
        return None  # cannot happen: the layout is a solution; kept as a guard
    return result.solution


def _attempt(
    rows: int,
    cols: int,
    tier: int | None,
    profile: Profile,
    symmetry: str,
    rng: random.Random,
    deadline: Deadline,
) -> tuple[Layout, Board, Grade | None] | None:
    """One try from a fresh random board; None when it leads nowhere."""
    layout = random_layout(rows, cols, profile, rng, symmetry=symmetry, attempts=5)
    if layout is None:
        return None
    max_island = profile.max_island
    # The climb runs at tier 2 at most: tiers 3 and 4 (completions, case splits) cost
    # several times more per solve, and a board medium logic solves is one walk from a
    # hard or expert one.
    plain = CLIMB_TIER if tier is None else min(tier, CLIMB_TIER)
    floor = plain - 1 if tier is not None and tier >= 2 else None
    exact = _exact_path(rows * cols, tier)
    ev = Evaluator(
        incremental=rows * cols >= INCREMENTAL_FROM,
        reanchor=HUGE_REANCHOR if rows * cols >= HUGE_FROM or exact else REANCHOR,
    )
    if tier is not None and tier >= BEYOND_TIER:
        if rows * cols >= DEEPEN_FROM:
            return _deeper(rows, cols, profile, symmetry, rng, deadline)
        return _beyond_logic(layout, rng, max_island, deadline, ev)
    white_floor = int((profile.white_share - WHITE_SLACK) * rows * cols)
    if plain == 1 and rows * cols >= TWO_STAGE_FROM:
        # Tier-1 climbs on large boards crawl: climb with medium logic first, then on
        # from that (unique) board with easy logic, which then has little left to settle.
        layout = settle(
            layout,
            CLIMB_TIER,
            rng,
            max_island=max_island,
            deadline=deadline,
            ev=ev,
            white_floor=white_floor,
            **_climb(rows * cols, CLIMB_TIER),
        )
        if layout is None:
            return None
    settled = settle(
        layout,
        plain,
        rng,
        max_island=max_island,
        deadline=deadline,
        floor=floor,
        ev=ev,
        white_floor=white_floor,
        **_climb(rows * cols, plain),
    )
    if settled is None:
        return None
    if tier is None or tier == 1:
        polished = _polish(settled, plain, None, rng, profile, deadline, ev, quick=tier == 1)
        return _finish(polished, deadline)
    polish_tier = POLISH_TIER if rows * cols < SWEEP_FROM else CLIMB_TIER
    if exact:
        # Huge boards: joins proved unique by the exact solver, at the level's own tier,
        # instead of the walk at the climb's tier (docs/generator.md, *Huge boards*);
        # expert boards below that size walk at hard's tier, then grow and harden.
        walk_tier = tier if rows * cols >= HUGE_FROM else EXACT_WALK_TIER
        walked = _exact_polish(settled, walk_tier, rng, profile, deadline, ev)
        if BIG_WALK["steps"] and tier <= BIG_WALK_TIER:
            walked = grow_big(
                walked,
                tier,
                rng,
                max_island=max_island,
                deadline=deadline,
                ev=ev,
                target=round(BIG_TARGET * rows * cols),
                **BIG_WALK,
            )
        hard = harden(
            walked,
            tier,
            rng,
            max_island=max_island,
            deadline=deadline,
            ev=ev,
            white_floor=white_floor,
        )
        return None if hard is None else _finish(hard, deadline)
    if tier > polish_tier:
        # Polishing at this tier costs too much (boards it cannot finish are slow to
        # give up on): polish at the climb's tier and let the walk to harder boards,
        # which joins islands too, go from there.
        settled = _polish(settled, plain, None, rng, profile, deadline, ev)
    hard = harden(
        settled, tier, rng, max_island=max_island, deadline=deadline, ev=ev, white_floor=white_floor
    )
    if hard is None:
        return None
    if tier <= polish_tier:
        hard = _polish(hard, tier, tier - 1, rng, profile, deadline, ev, quick=tier <= QUICK_TIER)
    elif SWEEP_FROM <= rows * cols < HUGE_FROM and tier <= FINAL_POLISH_TIER:
        # Large boards end furthest from published clue counts: a short walk at the
        # level itself (fewer candidates, little patience: its solves cost the most).
        hard = _polish(hard, tier, tier - 1, rng, profile, deadline, ev)
    return _finish(hard, deadline)


def _polish(
    layout: Layout,
    tier: int,
    floor: int | None,
    rng: random.Random,
    profile: Profile,
    deadline: Deadline,
    ev: Evaluator,
    *,
    quick: bool = False,
) -> Layout:
    """The quality walk: towards `profile.clue_density` and the white share, at `tier`
    (`quick`: the longer walk of the quick levels, `QUICK_POLISH`)."""
    area = layout.grid.size
    clues = round(profile.clue_density * area / 100)
    large = area >= SWEEP_FROM
    return polish(
        layout,
        tier,
        rng,
        max_island=profile.max_island,
        deadline=deadline,
        clues=clues,
        white=round(profile.white_share * area),
        ev=ev,
        # Each step joins two islands or grows one: enough steps to reach the aim.
        steps=max(POLISH_STEPS, 3 * (popcount(layout.clue_mask) - clues))
        if large
        else POLISH_STEPS,
        floor=floor,
        **(_large_polish(area, quick) if large else {}),
    )


def _exact_polish(
    layout: Layout,
    tier: int,
    rng: random.Random,
    profile: Profile,
    deadline: Deadline,
    ev: Evaluator,
) -> Layout:
    """The quality walk of huge boards (`search.exact_polish`), towards `profile.clue_density`."""
    area = layout.grid.size
    clues = round(profile.clue_density * area / 100)
    surplus = popcount(layout.clue_mask) - clues
    return exact_polish(
        layout,
        tier,
        rng,
        max_island=profile.max_island,
        deadline=deadline,
        clues=clues,
        ev=ev,
        steps=max(0, surplus),
        **{**EXACT_POLISH, **(HARD_EXACT_POLISH if tier <= LONG_WALK_TIER else {})},
    )


EXACT_WALK_TIER = 3
"""On huge boards, levels from this tier on (hard, expert) are walked by `exact_polish` at
their own tier after the climb, instead of by `polish` at the climb's tier."""

EXACT_EXPERT_FROM = 400
"""Expert boards of this many cells or more (20x20 up) take the huge boards' path too
(since generator 18): the exact walk at hard's tier (`EXACT_WALK_TIER`, with
`HARD_EXACT_POLISH`), the big-island walk, then `harden` to expert. 20x20 expert seeds
0-7: 42-50 clues instead of 49-61, 8-9 of 10 figures close instead of 6-8, 4.7-7.8 s of
CPU (median of 4) against 4.7-5.9 (bench/results/generator-log.md, "Generator 18"). At
its own tier the walk made boards far harder than published expert ones (tier 1 left
with 0.42 of the cells against 0.62-0.85)."""


def _exact_path(area: int, tier: int | None) -> bool:
    """Whether a board of `area` cells made for `tier` takes the huge boards' path (the
    exact walk after the climb)."""
    if tier is None or tier < EXACT_WALK_TIER:
        return False
    return area >= HUGE_FROM or (tier == BEYOND_TIER - 1 and area >= EXACT_EXPERT_FROM)


EXACT_POLISH: dict[str, Any] = {
    "candidates": 24,
    "checks": 4,
    "retry": 3,
    "moves": 8,
    "patience": 2,
    "nodes": 1000,
}
"""Settings of `search.exact_polish` on huge boards."""

LONG_WALK_TIER = 3
"""The highest level's tier (hard) whose huge boards walk with `HARD_EXACT_POLISH`."""

HARD_EXACT_POLISH: dict[str, Any] = {"candidates": 48, "patience": 6}
"""Over `EXACT_POLISH`, the walk of huge hard boards (tier 3) since generator 15, when a
look near each join had made the exact solver's "not unique" cheap: 30x30 hard seeds 0-3,
121 -> 115 clues (median), 17 -> 34 s of CPU; more (64 candidates and a patience of 10,
or 96 and 20) took 1-3 clues more off in 60-80 s. Expert keeps `EXACT_POLISH`: its
checks are tier-4 solves, and with these settings and `BIG_WALK` one 30x30 expert took
over 6 min (bench/results/generator-log.md, "Generator 15")."""


BIG_WALK: dict[str, Any] = {
    "steps": 12,
    "islands": 3,
    "candidates": 12,
    "pins": 6,
    "depth": 3,
    "nodes": 3000,
    "ones": False,
}
"""Settings of `search.grow_big`, the walk that grows the largest islands of a huge hard
board after `exact_polish` (up to `BIG_WALK_TIER`), each step proved unique and pinned,
up to 12 steps. Generator 10 left it off (one step on 30x30 hard seed 0 took 37 s of CPU
then); generator 15 runs it on hard: 30x30 hard seeds 0-3, largest clue 7-12 -> 8-16
(median 8 -> 13), with `HARD_EXACT_POLISH` 52 s of CPU (median) against 17 s; generator
16's pins, looked for near the move first, 36 s; generator 17 runs it on expert too
(bench/results/generator-log.md, "Generator 15", "Generator 16" and "Generator 17")."""

BIG_WALK_TIER = 4
"""The highest level's tier (expert) whose huge boards `BIG_WALK` grows. Extreme boards
are made from expert ones (`_deeper`), so they start from grown islands too: generator
17, 30x30 seeds 0-3, expert largest clue 10 -> 13 (median) in 31 s of CPU instead of 21,
extreme 2 -> 4 of 6 figures close (largest clue 11 -> 24) in 135 s instead of 168."""


def _large_polish(area: int, quick: bool) -> dict[str, Any]:
    """The quality walk's settings on a board of `area` cells, from `SWEEP_FROM` on
    (`quick`: for a level up to `QUICK_TIER`)."""
    return {
        **LARGE_POLISH,
        **(QUICK_POLISH if quick else {}),
        "big": round(BIG_TARGET * area),
        **(HUGE_POLISH if area >= HUGE_FROM else {}),
    }


LARGE_POLISH: dict[str, Any] = {"candidates": 16, "patience": 10, "retry": 3, "joins_first": True}
"""The quality walk's settings on boards of `SWEEP_FROM` cells or more. The climb leaves
them furthest from published clue counts (20x20: 15.5 clues per 100 cells against 11.1),
and most joins there make a board medium logic cannot finish; with 4 candidates and a
patience of 2 the walk took off 0-1 clues on 20x20, with these 7-10 (docs/generator.md)."""


QUICK_POLISH: dict[str, Any] = {"candidates": 40, "patience": 30, "retry": 8}
"""Over `LARGE_POLISH`, the walk of the levels up to `QUICK_TIER` (easy and medium), whose
solves are cheap and which the walk ends: more candidates, the best 8 retried with every
clue placement, more patience. With it 15x15 easy came to 9 of 10 quality figures close
(5 before, with `LARGE_LEVEL_PROFILES`), 20x20 easy 2 of 6 (1) and 20x20 medium 5 of 6
(4) (bench/results/generator-log.md, "Generator 14"). `HUGE_POLISH` still has the last
word on huge boards."""

QUICK_TIER = 2
"""The highest level's tier (medium) whose quality walk is `QUICK_POLISH`'s."""


CLUE_DENSITY = 12.4
"""Clues per 100 cells the quality walk aims at on 10x10 (the 212 published 10x10 puzzles
of the corpus: 12.3; by their grade, easy 13.4, medium 12.4, hard 12.2, expert 12.0)."""

DENSITY_BY_AREA = ((150, CLUE_DENSITY), (306, 12.0), (625, 10.6), (10**9, 9.6))
"""Clues per 100 cells aimed at by board size: (below this many cells, density). Published
puzzles use fewer clues on larger grids (the corpus by size band, `quality.size_band`:
10x10 12.3, 157-305 cells 12.6, 306-624 11.1, 625 and up 9.8); the aims sit a little
below, since the walk stops short of them when the level would change."""

BIG_ISLAND_SHARE = 0.05
"""On boards of `SWEEP_FROM` cells or more the default largest island is this
share of the cells (if above the level's): published large puzzles have a few big islands (their
largest is 3 to 5 % of the cells)."""


FINAL_POLISH_TIER = 3
"""The highest tier the final quality walk of large boards runs at. At tier 4 (expert) it
brought 20x20 expert seed 0 to 8 of 10 figures close (5 without) but took 94 s of CPU,
and with growths after failed steps over 250 s (the target is 20 s): expert is walked at
tier 2 before hardening only."""

BIG_TARGET = 0.035
"""On boards of `SWEEP_FROM` cells or more, the quality walk offers joins that make the
largest islands until the largest is this share of the cells (published: 3 to 5 %)."""


BIG_ISLAND_CAP = 25
"""The default largest island grown with the board never exceeds this."""


def clue_density_of(area: int) -> float:
    """The default clues per 100 cells for a board of `area` cells (`DENSITY_BY_AREA`).

    >>> clue_density_of(100), clue_density_of(225), clue_density_of(400), clue_density_of(900)
    (12.4, 12.0, 10.6, 9.6)
    """
    for below, density in DENSITY_BY_AREA:
        if area < below:
            return density
    return DENSITY_BY_AREA[-1][1]


POLISH_STEPS = 40
"""Joins and growths tried by the quality walk (`search.polish`) after the climb."""

HUGE_FROM = 625
"""Boards of this many cells or more (30x30) are *huge*. Up to generator 8 they were made
as by version 7 (no quality walk, the level's islands, the climb adding 1s at random):
there the logic engine's fresh solves cost most (0.75 s a tier-2 solve of a 30x30,
0.04 s an estimate), and the thrifty climb failed. From generator 9 they are made like
large boards (larger default islands, the thrifty climb, the quality walk at the
climb's tier) with fewer fresh solves (`HUGE_REANCHOR`), a shorter walk (`HUGE_POLISH`),
and no final walk at the level. From generator 10, hard and expert skip that walk for
`search.exact_polish` at their own tier (`EXACT_WALK_TIER`)."""

HUGE_REANCHOR = 16
"""Incremental estimates in a row before a fresh solve on huge boards (`REANCHOR`, 4,
elsewhere). A move changes a few of 900 cells, so estimates stay close; at 4 the fresh
solves took 44 % of the climb's time (30x30 medium seed 0, profiled), and at 16 30x30
hard seed 0's climb took 25.6 s of CPU instead of 67.6. Every board the climb or the
walk returns is still solved afresh first."""

HUGE_POLISH: dict[str, Any] = {"candidates": 8, "patience": 4, "retry": 2}
"""The quality walk's settings on huge boards, over `LARGE_POLISH`: a failed step costs
seconds there (the placements and repairs of the best candidates), so the walk scores
fewer candidates and gives up sooner."""

POLISH_TIER = 3
"""The highest tier the quality walk solves with on boards below `SWEEP_FROM` cells
(`CLIMB_TIER` on larger ones, where tier-3 solves of boards they cannot finish cost
seconds): up to it, the walk comes last and keeps the level (solved at it, not below);
harder levels are polished at `CLIMB_TIER` before they are hardened."""

TWO_STAGE_FROM = 400
"""Boards of at least this many cells are climbed to easy through medium (`_attempt`)."""

INCREMENTAL_FROM = 100
"""Boards of at least this many cells score moves with incremental estimates (on smaller
ones a fresh solve is cheap and an estimate's errors cost more than they save; on 10x10
the estimates halve the median time of easy and medium)."""

WHITE_SLACK = 0.08
"""How far below the profile's white share the climb may take the board (its moves
that add information tend to cut islands, which drifts towards small islands)."""

CLIMB_TIER = 2
"""The highest tier the hill climb solves with; harder levels are walked to from there."""

BEYOND_TIER = 5
"""Levels from this tier on (extreme) need trial steps: boards no technique finishes."""

CLIMB: dict[str, Any] = {"candidates": 12, "steps": 200, "patience": 30, "sideways": 1.0}
"""Settings of the hill climb (`search.settle`): moves tried per round, rounds, rounds
without progress before giving up, chance of a sideways move."""

SWEEP_FROM = 150
"""Boards of at least this many cells get sweeps (`SWEEP_AFTER`)."""

SWEEP_AFTER = 6
"""On boards of `SWEEP_FROM` cells or more, rounds without progress after which each
climb round tries every move near a stuck region (random moves there keep getting stuck
a few cells short)."""


def _climb(area: int, tier: int) -> dict[str, Any]:
    """The hill-climb settings for a board of `area` cells climbed with logic up to `tier`.

    Rounds grow with the area. On boards without sweeps, climbs with tier-2 logic make no
    new 1s by random moves: over seeds 0-9 and 20-31 that brought the 10x10 hard medians
    from 1.25 and 0.77 s to 0.52 and 0.65 s (medium 0.35 and 0.49 to 0.30 and 0.46), the
    share of 1s unchanged; tier-1 climbs need them (easy got slower without), and on
    15x15 and 20x20 the effect was mixed (medium 1.8 -> 3.0 s and 19 -> 12 s, more 1s).
    """
    large = area >= SWEEP_FROM
    thrifty = large
    return {
        **CLIMB,
        "steps": max(CLIMB["steps"], 2 * area),
        "sweep_after": SWEEP_AFTER if large else None,
        "kinds": REPAIR_KINDS if tier <= 1 else REPAIR_KINDS_NO_ONES,
        "thrifty": thrifty,
    }


def _finish(layout: Layout, deadline: Deadline) -> tuple[Layout, Board, Grade | None] | None:
    solution = _prove(layout, deadline)
    return None if solution is None else (layout, solution, None)


EXTREME_NODES = 20_000
"""Node limit of the solver calls that ask whether a board the climb passes is unique (the
final proof has `SOLVER_NODES`)."""

ASK_CELLS = 60
"""The extreme climb asks the solver about a board once medium logic leaves at most this
many cells unknown. With more, the solver's calls cost more and rarely say unique (10x10,
largest island 16, mean 6: asking from 85 made 1 of 4 seeds in 60 s of CPU, from 60 2
of 4); on 15x15, 60 did as well as 80 or 135 (bench/results/generator-log.md)."""

EXTREME_SHARE = 0.56
"""White share of an extreme board (the published extreme 10x10 puzzles: 0.56, with
8 clues per 100 cells)."""


def _beyond_logic(
    layout: Layout,
    rng: random.Random,
    max_island: int,
    deadline: Deadline,
    ev: Evaluator,
) -> tuple[Layout, Board, Grade | None] | None:
    """A unique board no technique finishes (expert logic, tier 4, gets stuck), so its
    solve needs trial steps: extreme.

    Boards the logic engine leads to are the boards it solves, so the climb towards them
    (`search.settle` with medium logic, from a board with few, large islands) is stopped
    on the way: at each board it passes where medium logic leaves at most `ASK_CELLS`
    cells unknown, the exact solver, started from what medium logic deduced, says
    whether the puzzle is unique, and if it is, expert logic carries on from there. The
    first unique board expert logic cannot finish is the one. The climb adds information
    where logic is stuck, so it passes through boards that are nearly unique; big islands
    keep the logic stuck for longer. Boards below `DEEPEN_FROM` cells (10x10) only.
    """
    area = layout.grid.size
    asked: set[tuple[int, int]] = set()
    found: list[Layout] = []

    def stop(current: Layout, unknown: int) -> bool:
        if found or deadline.passed():
            return True
        if not unknown or popcount(unknown) > ASK_CELLS:
            return False
        key = (current.white, current.clue_mask)
        if key in asked:
            return False
        asked.add(key)
        black, white = ev.deduced(current, CLIMB_TIER)
        if area - popcount(black | white) > ASK_CELLS:
            return False
        if _stuck_and_unique(current, black, white):
            found.append(current)
            return True
        return False

    settle(
        layout,
        CLIMB_TIER,
        rng,
        max_island=max_island,
        deadline=deadline,
        ev=ev,
        stop=stop,
        white_floor=int((EXTREME_SHARE - WHITE_SLACK) * area),
        **_climb(area, CLIMB_TIER),
    )
    return _finish(found[0], deadline) if found else None


def _accept_extreme(layout: Layout, graded: list[Grade]) -> bool:
    """Whether the layout's puzzle grades extreme with a walkthrough (trial steps, no time
    limit) that finishes; if so its grade is appended to `graded`."""
    from ..logic import explain

    walk = explain(puzzle_of(layout), seconds=None)
    if walk.status != "solved" or walk.grade is None or walk.grade.level != "extreme":
        return False
    graded.append(walk.grade)
    return True


DEEPEN_FROM = 150
"""Extreme boards of at least this many cells are made by `_deeper`. `_beyond_logic`
found no 20x20 extreme within 900 s (and 40 min of CPU in a build): on big boards the
climb passes few unique boards that medium logic has nearly finished, and expert logic
finishes nearly all of them. On 13x13 to 15x15 it finds them, but with islands far
bigger than published puzzles of that size have (largest clue 18-21, published 6-12)
and, on 15x15, more slowly: generator 13 let this down from 306 (seeds 0-7, one core
each side by side: 15x15 median 18.6 -> 11.9 s of CPU, shape figures close to published
3 of 6 -> 6 of 6; bench/results/generator-log.md). 10x10 stays on the climb, about 3
times faster there (the players' stock makes 10x10 puzzles while they wait)."""

DEEPEN: dict[str, Any] = {"steps": 400, "nodes": 3000, "check_every": 3}
"""Settings of `search.deepen` for extreme boards: proposals before the attempt gives up,
the exact solver's node limit per question, and how many unique boards in a row the walk
takes before it asks expert logic about the last (generator 19: each question is a
tier-4 solve, and the walks that fail never meet a board it is stuck on, so asking every
third board makes the same walks with a third of the solves)."""


def _deepens(rows: int, cols: int, difficulty: str) -> bool:
    """Whether an extreme puzzle of this size is made by `_deeper` (from an expert one)."""
    return difficulty == "extreme" and rows * cols >= DEEPEN_FROM


def _deeper(
    rows: int,
    cols: int,
    profile: Profile,
    symmetry: str,
    rng: random.Random,
    deadline: Deadline,
) -> tuple[Layout, Board, Grade | None] | None:
    """An extreme puzzle made from an expert one: clues taken away, each step proved
    unique, until expert logic (tier 4) is stuck and the whole walkthrough, trial steps
    included, still finishes (`search.deepen`). `profile` is the expert board's."""
    expert = _attempt(rows, cols, BEYOND_TIER - 1, profile, symmetry, rng, deadline)
    if expert is None:
        return None
    graded: list[Grade] = []
    found = deepen(
        expert[0],
        BEYOND_TIER - 1,
        rng,
        max_island=profile.max_island,
        deadline=deadline,
        ev=Evaluator(incremental=False),
        accept=lambda layout: _accept_extreme(layout, graded),
        white_floor=int((profile.white_share - WHITE_SLACK) * rows * cols),
        **DEEPEN,
    )
    finished = None if found is None else _finish(found, deadline)
    return None if finished is None else (finished[0], finished[1], graded[-1])


def _stuck_and_unique(layout: Layout, black: int, white: int) -> bool | None:
    """Whether expert logic gets stuck on the layout's puzzle, if the exact solver proves
    it unique (None when it does not), both started from the board medium logic deduced
    (`black`, `white`; sound deductions)."""
    from ..logic import explain

    puzzle = puzzle_of(layout)
    start = Board(puzzle, black, white)
    result = solve(puzzle, limit=Limit(solutions=2, nodes=EXTREME_NODES, seconds=None), start=start)
    if result.status is not Status.UNIQUE:
        return None
    return explain(puzzle, max_tier=BEYOND_TIER - 1, board=start, seconds=None).status != "solved"


def generate(
    rows: int,
    cols: int,
    *,
    difficulty: str = "medium",
    symmetry: str = "none",
    max_island: int | None = None,
    mean_island: float | None = None,
    clue_density: float | None = None,
    rng: random.Random | int | None = None,
    seconds: float | None = 60.0,
    attempts: int = 200,
) -> GeneratedPuzzle:
    """A new puzzle with exactly one solution, graded at `difficulty` (see the contract above).

    `rng` is a seed (int) or a `random.Random` (a seed is drawn from it); the
    result's ``seed`` remakes the same puzzle. `symmetry` is ``"none"``,
    ``"rot180"`` or ``"mirror"`` (of the clue positions). `max_island` caps island
    sizes; `mean_island` or `clue_density` (clues per 100 cells) steer the profile.
    The budget is `attempts` fresh random boards and `seconds` of wall-clock time
    (None: no time limit), whichever runs out first.

    >>> g = generate(7, 7, difficulty="easy", rng=3)
    >>> g.grade.level, g.puzzle.rows, g.seed
    ('easy', 7, 3)
    >>> generate(7, 7, difficulty="easy", rng=3).puzzle == g.puzzle
    True

    Raises:
        GenerationError: an impossible request (see `check_options`), or the budget ran out.
    """
    check_options(
        rows,
        cols,
        max_island=max_island,
        mean_island=mean_island,
        clue_density=clue_density,
        seconds=seconds,
        attempts=attempts,
    )
    # Extreme on big boards starts from an expert board (`_deeper`), so from its profile.
    profile = _default_profile(
        rows,
        cols,
        "expert" if _deepens(rows, cols, difficulty) else difficulty,
        max_island,
        mean_island,
        clue_density,
    )
    _check_request(rows, cols, difficulty, symmetry, profile.max_island)
    symmetry_map(rows, cols, symmetry)  # validates the name
    seed = _seed_of(rng)
    work = random.Random(seed)
    deadline = Deadline(seconds)
    tier = None if difficulty == "any" else DIFFICULTIES.index(difficulty) + 1
    options = {
        "difficulty": difficulty,
        "symmetry": symmetry,
        "max_island": profile.max_island,
        "mean_island": round(profile.mean_island, 3),
    }
    tried = 0
    while tried < attempts and not deadline.passed():
        tried += 1
        found = _attempt(rows, cols, tier, profile, symmetry, work, deadline)
        if found is None:
            continue
        layout, solution, graded = found
        puzzle = puzzle_of(layout)
        if graded is None:
            from ..logic import grade  # loaded on first use: `import nurikabe` stays fast

            # Without a CPU bound of its own (the trial search is bounded by its count of
            # scans), so no clock decides the grade; a walkthrough stopped by what is
            # left of the budget means the budget is spent.
            graded = grade(puzzle, seconds=deadline.left())
        if graded.stopped or not graded.solved:
            continue  # logic, trials included, does not finish it: hints would run out
        if difficulty != "any" and graded.level != difficulty:
            continue
        return GeneratedPuzzle(puzzle, solution, graded, seed, options, attempts=tried)
    why = "time budget" if deadline.passed() else f"{attempts} attempts"
    raise GenerationError(
        f"no unique {difficulty} {rows}x{cols} puzzle (symmetry {symmetry}, "
        f"max island {profile.max_island}) found within the {why}"
        + (f" ({seconds:g} s)" if deadline.passed() and seconds is not None else "")
    )
