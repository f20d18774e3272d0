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
   this condition.
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

The island-size profile (`mean_island`, `clue_density`) and the white share steer
the random solution the generator starts from; they are aims, not guarantees.

How it works (docs/generator.md has the measurements)
-----------------------------------------------------
1. Build a random solved board (`tiling.random_layout`): islands grown on an
   all-black grid until no 2x2 pool is left, keeping the sea connected; one clue
   cell per island.
2. Hill-climb with local moves (`search.settle`): move a clue within its island, add
   a 1, grow, cut or split an island, wherever the logic engine got stuck, until the
   engine restricted to the wanted level's techniques solves the whole board.
3. Walk on (`search.harden`) until the level below gets stuck, so the puzzle is not
   too easy. For extreme, the walk looks for boards expert logic (tier 4) cannot
   finish and keeps those the exact solver proves unique.
4. Prove uniqueness with the native solver and grade with the logic engine.

Imports `grid`, `puzzle`, `errors`, `solver`, `logic` and its own modules.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ..errors import NurikabeError
from ..grid import popcount
from ..logic import LEVELS, Grade, grade
from ..puzzle import Board, Puzzle
from ..solver import Limit, Status, solve
from .search import (
    REPAIR_KINDS,
    REPAIR_KINDS_NO_ONES,
    Deadline,
    Evaluator,
    harden,
    propose,
    puzzle_of,
    settle,
    too_dark,
)
from .tiling import SYMMETRIES, Layout, Profile, random_layout, symmetry_map

__all__ = [
    "DIFFICULTIES",
    "GENERATOR_VERSION",
    "SYMMETRIES",
    "GeneratedPuzzle",
    "GenerationError",
    "generate",
]

GENERATOR_VERSION = "3"
"""Bumped whenever the same seed and options may give a different puzzle."""

DIFFICULTIES = (*LEVELS, "any")
"""The levels `generate` accepts: the grader's levels, easiest first, and ``"any"``."""

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
        max_island = LEVEL_PROFILES.get(difficulty, LEVEL_PROFILES["hard"])[0]
    white_share = WHITE_SHARE if max_island > 1 else 0.3
    if mean_island is None:
        if clue_density is not None:
            mean_island = 100 * white_share / clue_density
        else:
            mean_island = LEVEL_PROFILES.get(difficulty, LEVEL_PROFILES["hard"])[1]
    return Profile(max_island=max_island, mean_island=mean_island, white_share=white_share)


WHITE_SHARE = 0.46
"""White share the random solution aims at (published puzzles: 0.45-0.46)."""

LEVEL_PROFILES = {
    "easy": (6, 2.6),
    "medium": (8, 3.3),
    "hard": (9, 3.7),
    "expert": (9, 3.9),
    "extreme": (10, 4.0),
    "any": (9, 3.7),
}
"""Default (largest island, mean island size aimed at) per level. Published puzzles
average 3.7 cells per island; tier 1 logic alone rarely pins down big islands, so the
easier levels start from smaller ones (the climb shrinks islands further)."""


def _check_request(rows: int, cols: int, difficulty: str, symmetry: str, max_island: int) -> None:
    if not (isinstance(rows, int) and isinstance(cols, int)) or rows < 2 or cols < 2:
        raise GenerationError(f"cannot generate a {rows}x{cols} puzzle: need at least 2x2")
    if rows * cols > 64 * 64:
        raise GenerationError(f"{rows}x{cols} is too large for the generator (at most 4096 cells)")
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
    ev = Evaluator(incremental=rows * cols >= INCREMENTAL_FROM)
    if tier is not None and tier >= BEYOND_TIER:
        return _beyond_logic(layout, rng, max_island, deadline, ev)
    white_floor = int((profile.white_share - WHITE_SLACK) * rows * cols)
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
        return _finish(settled, deadline)
    hard = harden(
        settled, tier, rng, max_island=max_island, deadline=deadline, ev=ev, white_floor=white_floor
    )
    return None if hard is None else _finish(hard, deadline)


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
    return {
        **CLIMB,
        "steps": max(CLIMB["steps"], 2 * area),
        "sweep_after": SWEEP_AFTER if large else None,
        "kinds": REPAIR_KINDS if tier <= 1 or large else REPAIR_KINDS_NO_ONES,
    }


def _finish(layout: Layout, deadline: Deadline) -> tuple[Layout, Board, Grade | None] | None:
    solution = _prove(layout, deadline)
    return None if solution is None else (layout, solution, None)


STUCK_CELLS = 0.12
"""For extreme: the exact solver is asked once medium logic leaves at most this share of
the cells unknown."""

HARDEN_STEPS = 40
"""Moves tried on the way from a board expert logic solves to one it cannot finish."""


def _beyond_logic(
    layout: Layout,
    rng: random.Random,
    max_island: int,
    deadline: Deadline,
    ev: Evaluator,
) -> tuple[Layout, Board, Grade | None] | None:
    """A unique board no technique finishes (expert logic, tier 4, gets stuck), so its
    solve needs trial steps: extreme.

    Climbs as `settle` does (at `CLIMB_TIER`), but whenever medium logic leaves only a
    few cells unknown, asks the exact solver; a unique board that expert logic cannot
    finish either is taken. If the climb ends with medium logic solving everything, a
    walk among boards expert logic solves takes information away until one it cannot
    finish is proved unique.
    """
    found: list[tuple[Layout, Board, Grade | None]] = []
    grid_size = layout.grid.size
    threshold = max(4, int(STUCK_CELLS * grid_size))

    def stop(candidate: Layout, unknown: int, limit: int = threshold) -> bool:
        if not unknown or popcount(unknown) > limit or deadline.passed():
            return False
        # The proof first: it is cheaper than an expert-logic solve that gets stuck, and
        # most candidates are not unique.
        solution = _prove(candidate, deadline)
        if solution is None:
            return False
        if not ev.exact(candidate, BEYOND_TIER - 1):
            return False  # expert logic finishes it: not beyond logic
        found.append((candidate, solution, None))
        return True

    white_floor = int((WHITE_SHARE - WHITE_SLACK) * grid_size)
    settled = settle(
        layout,
        CLIMB_TIER,
        rng,
        max_island=max_island,
        deadline=deadline,
        stop=stop,
        ev=ev,
        white_floor=white_floor,
        **_climb(grid_size, CLIMB_TIER),
    )
    if not found and settled is not None:
        current = settled
        for _ in range(HARDEN_STEPS):
            if deadline.passed():
                return None
            moved = propose(current, rng, 0, ("clue", "clue", "clue", "drop", "grow", "cut"))
            if moved is None or moved == current or not moved.is_valid(max_island):
                continue
            if too_dark(moved, current, white_floor):
                continue
            unknown = ev.exact(moved, BEYOND_TIER - 1)
            if not unknown:
                current = moved
            elif stop(moved, unknown, grid_size):
                break
    return found[0] if found else None


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
        GenerationError: an impossible request, or the budget ran out.
    """
    profile = _default_profile(rows, cols, difficulty, max_island, mean_island, clue_density)
    _check_request(rows, cols, difficulty, symmetry, profile.max_island)
    symmetry_map(rows, cols, symmetry)  # validates the name
    seed = _seed_of(rng)
    work = random.Random(seed)
    deadline = Deadline(seconds)
    tier = None if difficulty == "any" else LEVELS.index(difficulty) + 1
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
            graded = grade(puzzle)
        if difficulty != "any" and graded.level != difficulty:
            continue
        return GeneratedPuzzle(puzzle, solution, graded, seed, options, attempts=tried)
    why = "time budget" if deadline.passed() else f"{attempts} attempts"
    raise GenerationError(
        f"no unique {difficulty} {rows}x{cols} puzzle (symmetry {symmetry}, "
        f"max island {profile.max_island}) found within the {why}"
        + (f" ({seconds:g} s)" if deadline.passed() and seconds is not None else "")
    )
