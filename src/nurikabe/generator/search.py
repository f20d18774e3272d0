"""Edits of a layout guided by the logic engine: clue placement, repair and difficulty.

This module owns the local moves on a `Layout` and the searches that use them:

- *moves*: move a clue within its island; add a 1-island on a sea cell; grow an
  island by a sea cell; blacken a white non-clue cell (shrinking an island, or
  splitting it, the new part getting its own clue); remove a 1-island; join two
  islands through a sea cell (`join`); move a cell of an island to its border
  (`reshape`). With a symmetry every move is made together with its image. A move
  whose result is not a valid solved board is dropped, so every layout the search
  holds is a solution of its own clues.
- `settle`: hill climbing towards a layout the logic engine solves with techniques up
  to a tier; the moves concentrate where the engine got stuck, and the score is the
  number of cells it leaves unknown (ties: the more a lower tier leaves unknown, the
  better, which keeps the puzzle from sliding below the wanted level).
- `harden`: a walk among layouts solvable at a tier until the tier below gets stuck.
- `polish`: joins and growths towards a clue density and white share, keeping the
  layout solvable at a tier (and not at the tier below).
- `exact_polish`: joins towards a clue density on huge boards, each join proved unique
  by the exact solver before the logic engine is asked about it.
- `deepen`: a walk that takes information away from a unique board, each step proved
  unique by the exact solver, until expert logic gets stuck (extreme on large boards).

A logic engine's deductions are sound, so a layout it solves completely has exactly
one solution; the caller still proves that with the exact solver.

Imports `grid`, `puzzle`, `logic`, `solver` and `generate.tiling`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..grid import bits, popcount
from ..puzzle import Board, Puzzle
from .tiling import Layout, sea_stays_connected

if TYPE_CHECKING:
    from ..logic import Step

__all__ = [
    "Deadline",
    "Evaluator",
    "deepen",
    "exact_polish",
    "grow_big",
    "harden",
    "is_unique",
    "merge",
    "pinning_growths",
    "polish",
    "propose",
    "settle",
    "unknown_after",
]


class Deadline:
    """A wall-clock budget (None: no limit)."""

    def __init__(self, seconds: float | None) -> None:
        self.end = None if seconds is None else time.perf_counter() + seconds

    def passed(self) -> bool:
        return self.end is not None and time.perf_counter() > self.end

    def left(self) -> float | None:
        return None if self.end is None else max(0.0, self.end - time.perf_counter())


def puzzle_of(layout: Layout) -> Puzzle:
    """The puzzle whose clues are the layout's islands."""
    grid = layout.grid
    return Puzzle(grid.rows, grid.cols, layout.clues())


def changed_cells(before: Layout, after: Layout) -> int:
    """The cells whose color or clue differ between two layouts of one grid."""
    return (before.white ^ after.white) | (before.clue_mask ^ after.clue_mask)


def unknown_after(layout: Layout, tier: int) -> int:
    """The cells the logic engine, with techniques up to `tier`, leaves unknown."""
    if tier <= 0:
        return layout.grid.full & ~layout.clue_mask
    from ..logic import explain  # loaded on first use: `import nurikabe` stays fast

    walk = explain(puzzle_of(layout), max_tier=min(tier, 4), seconds=None)
    board = walk.board
    assert board is not None
    return layout.grid.full & ~(board.black_mask | board.white_mask)


_TIERS: dict[str, int] = {}
"""Technique id -> tier (filled on first use: the logic engine is loaded lazily)."""


def _technique_tiers() -> dict[str, int]:
    if not _TIERS:
        from ..logic import TECHNIQUES

        _TIERS.update({t.id: t.tier for t in TECHNIQUES})
    return _TIERS


RESET_RADIUS = 3
"""How far around a move an incremental evaluation forgets what the engine had deduced."""

REANCHOR = 4
"""Incremental estimates in a row after which the evaluator solves from scratch again."""


class Evaluator:
    """What the logic engine deduces on a layout, per tier, reusing the deductions of its parent.

    A move changes a few cells and the islands around them. `unknown(moved, tier,
    parent)` starts the engine from the parent's deduced board with the cells near the
    change (the changed cells, the islands they touch in either layout, and `RESET_RADIUS`
    more) made unknown again. That board agrees with the moved layout's solution (outside
    the change the two solutions are the same cells), so the engine meets no
    contradiction; but deductions far away that once leaned on the changed clues are
    kept, so the result is an *estimate* that may leave fewer cells unknown than a fresh
    solve. A layout the search keeps is checked from scratch (`exact`) before it counts;
    estimates are only a guide. On a 20x20 board an estimate costs a fraction of a
    fresh solve, since the engine only redoes the steps near the move.
    """

    def __init__(self, *, incremental: bool = True, reanchor: int = REANCHOR) -> None:
        self.incremental = incremental
        """False: every evaluation is a fresh solve."""
        self.reanchor = reanchor
        """Estimates in a row after which a layout is solved from scratch again."""
        self.boards: dict[tuple[int, int, int], tuple[int, int, int]] = {}
        """(white, clue_mask, tier) -> (black, white deduced, estimates since a fresh solve)."""

    def _key(self, layout: Layout, tier: int) -> tuple[int, int, int]:
        return layout.white, layout.clue_mask, tier

    def _run(self, layout: Layout, tier: int, black: int, white: int, depth: int) -> int:
        grid = layout.grid
        if tier <= 0:
            black, white = 0, layout.clue_mask
        else:
            puzzle = puzzle_of(layout)
            start = Board(puzzle, black, white | layout.clue_mask) if black | white else None
            from ..logic import explain

            walk = explain(puzzle, max_tier=min(tier, 4), board=start, seconds=None)
            board = walk.board
            assert board is not None
            black, white = board.black_mask, board.white_mask
            if start is None:
                self._keep_lower_tiers(layout, tier, walk.steps)
        if len(self.boards) > 4096:
            self.boards.clear()
        self.boards[self._key(layout, tier)] = (black, white, depth)
        return grid.full & ~(black | white)

    def _keep_lower_tiers(self, layout: Layout, tier: int, steps: list[Step]) -> None:
        """Cache what the tiers below `tier` deduce, read off a fresh walkthrough at `tier`.

        The engine always takes the simplest step available, so a fresh walkthrough with
        techniques up to ``tier - 1`` makes exactly the steps this one made before its first
        step above ``tier - 1``, and is stuck there. (Saves the hardening walk, which asks
        both tiers about every board, a solve per board.)
        """
        tiers = _technique_tiers()
        black, white = 0, layout.clue_mask
        below = 1
        for step in steps:
            used = tiers.get(step.technique, 1)
            while below < min(used, tier):
                self._store(layout, below, black, white)
                below += 1
            black |= step.black_mask
            white |= step.white_mask
        while below < tier:
            self._store(layout, below, black, white)
            below += 1

    def _store(self, layout: Layout, tier: int, black: int, white: int) -> None:
        key = self._key(layout, tier)
        if key not in self.boards:
            self.boards[key] = (black, white, 0)

    def deduced(self, layout: Layout, tier: int) -> tuple[int, int]:
        """The black and white cells the engine, with techniques up to `tier`, deduces
        (a fresh solve, as `exact`)."""
        self.exact(layout, tier)
        black, white, _ = self.boards[self._key(layout, tier)]
        return black, white

    def is_exact(self, layout: Layout, tier: int) -> bool:
        """Whether the cached deduction for `layout` comes from a fresh solve."""
        cached = self.boards.get(self._key(layout, tier))
        return cached is not None and cached[2] == 0

    def exact(self, layout: Layout, tier: int) -> int:
        """The cells the engine, with techniques up to `tier`, leaves unknown (fresh solve)."""
        cached = self.boards.get(self._key(layout, tier))
        if cached is not None and cached[2] == 0:
            return layout.grid.full & ~(cached[0] | cached[1])
        return self._run(layout, tier, 0, 0, 0)

    def anchored(self, layout: Layout, tier: int) -> int:
        """The cached estimate for `layout`, redone from scratch once it is `reanchor` deep.

        Estimates made from a layout are compared with its own count, so both must come
        from the same base: call this before scoring moves from `layout`.
        """
        cached = self.boards.get(self._key(layout, tier))
        if cached is None or cached[2] >= self.reanchor:
            return self.exact(layout, tier)
        return layout.grid.full & ~(cached[0] | cached[1])

    def unknown(self, layout: Layout, tier: int, parent: Layout | None = None) -> int:
        """An estimate of `exact`, made from the parent layout's deductions when known."""
        cached = self.boards.get(self._key(layout, tier))
        grid = layout.grid
        if cached is not None:
            return grid.full & ~(cached[0] | cached[1])
        base = None if parent is None else self.boards.get(self._key(parent, tier))
        if parent is None or tier <= 0 or not self.incremental:
            return self.exact(layout, tier)
        if base is None or base[2] >= self.reanchor:
            self.exact(parent, tier)
            base = self.boards[self._key(parent, tier)]
        diff = changed_cells(parent, layout)
        near = grid.dilate(diff)
        touched = (
            diff
            | grid.flood(near & layout.white, layout.white)
            | grid.flood(near & parent.white, parent.white)
        )
        for _ in range(RESET_RADIUS):
            touched = grid.dilate(touched)
        black, white, depth = base
        return self._run(layout, tier, black & ~touched, white & ~touched, depth + 1)


ONES_SHARE = 0.15
"""Largest share of 1-clues a repair may lead to (published puzzles have about 11%)."""


def ones(layout: Layout) -> int:
    """How many islands are a lone clue cell (a 1)."""
    grid = layout.grid
    return sum(1 for i in bits(layout.clue_mask) if not grid.neighbors[i] & layout.white)


def too_many_ones(moved: Layout, current: Layout) -> bool:
    """Whether `moved` has more 1s than `ONES_SHARE` allows and more than `current`."""
    count = ones(moved)
    limit = max(2, int(ONES_SHARE * popcount(moved.clue_mask)))
    return count > limit and count > ones(current)


def too_dark(moved: Layout, current: Layout, white_floor: int) -> bool:
    """Whether `moved` has fewer white cells than `white_floor` and than `current`."""
    count = popcount(moved.white)
    return count < white_floor and count < popcount(current.white)


def too_many_clues(moved: Layout, current: Layout, clue_cap: int | None) -> bool:
    """Whether `moved` has more clues than `clue_cap` and than `current` (None: no cap)."""
    if clue_cap is None:
        return False
    count = popcount(moved.clue_mask)
    return count > clue_cap and count > popcount(current.clue_mask)


# -- moves ---------------------------------------------------------------------------------


def _with_clues_for_new_islands(
    layout: Layout, white: int, clue_mask: int, rng: random.Random
) -> Layout:
    """A layout on `white` that gives a clue to every island lacking one."""
    grid = layout.grid
    sigma = layout.sigma
    clue_mask &= white
    for island in grid.components(white):
        if island & clue_mask:
            continue
        if sigma is None:
            clue_mask |= 1 << rng.choice(list(bits(island)))
            continue
        fixed = [i for i in bits(island) if sigma[i] == i]
        image = layout.image(island)
        if image == island:  # self-symmetric: the clue must sit on a fixed cell
            if not fixed:
                return layout  # no valid choice; the caller sees an unchanged layout
            clue_mask |= 1 << rng.choice(fixed)
        else:
            cell = rng.choice(list(bits(island)))
            clue_mask |= 1 << cell | 1 << sigma[cell]
    return Layout(grid, white, clue_mask, sigma)


def move_clue(layout: Layout, cell: int) -> Layout | None:
    """Move the clue of `cell`'s island onto `cell` (and its image likewise)."""
    grid = layout.grid
    if not layout.white >> cell & 1:
        return None
    clue_mask = layout.clue_mask
    for i in bits(layout.image(1 << cell)):
        island = grid.flood(1 << i, layout.white)
        clue_mask &= ~island
    clue_mask |= layout.image(1 << cell)
    return Layout(grid, layout.white, clue_mask, layout.sigma)


def whiten(layout: Layout, cell: int, *, clue: bool) -> Layout:
    """Turn sea `cell` (and its image) white: a new 1-island when `clue`, else island growth."""
    cells = layout.image(1 << cell)
    clue_mask = layout.clue_mask | (cells if clue else 0)
    return Layout(layout.grid, layout.white | cells, clue_mask, layout.sigma)


def blacken(layout: Layout, cell: int, rng: random.Random) -> Layout:
    """Turn white `cell` (and its image) black; islands left without a clue get one."""
    cells = layout.image(1 << cell)
    return _with_clues_for_new_islands(
        layout, layout.white & ~cells, layout.clue_mask & ~cells, rng
    )


def joins(layout: Layout, cell: int) -> bool:
    """Whether sea `cell` touches two or more islands (whitening it would join them)."""
    nb = layout.grid.neighbors[cell] & layout.white
    if nb & (nb - 1) == 0:
        return False
    return nb & ~layout.grid.flood(nb & -nb, layout.white) != 0


def merge(layout: Layout, cell: int, rng: random.Random) -> Layout:
    """Whiten sea `cell` (and its image), joining the islands it touches; one clue is kept.

    The kept clue is one of the joined islands' clues, at random (with a symmetry, the
    image island keeps the image clue; a self-symmetric island keeps one on a fixed cell).
    Returns the layout unchanged when no valid choice exists.
    """
    grid = layout.grid
    sigma = layout.sigma
    cells = layout.image(1 << cell)
    white = layout.white | cells
    clue_mask = layout.clue_mask
    done = 0
    for island in grid.components(white):
        clues = island & clue_mask
        if not island & cells or island & done or clues & (clues - 1) == 0:
            continue
        if sigma is None:
            keep = rng.choice(list(bits(clues)))
            clue_mask = clue_mask & ~island | 1 << keep
            continue
        pair = layout.image(island)
        if pair == island:
            fixed = [i for i in bits(clues) if sigma[i] == i]
            if not fixed:
                return layout
            keep = rng.choice(fixed)
        else:
            keep = rng.choice(list(bits(clues)))
        clue_mask = clue_mask & ~pair | 1 << keep | 1 << sigma[keep]
        done |= pair
    return Layout(grid, white, clue_mask, sigma)


def reshape(layout: Layout, cell: int, rng: random.Random) -> Layout | None:
    """Move white non-clue `cell` (and its image) to a sea cell on the border of its island.

    The island keeps its size and clue and changes its shape; None when the island has no
    sea cell to take that touches no other island.
    """
    grid = layout.grid
    island = grid.flood(1 << cell, layout.white)
    rest = island & ~(1 << cell)
    others = layout.white & ~island
    options = layout.black & grid.border(rest) & ~grid.dilate(others)
    if not options:
        return None
    target = rng.choice(list(bits(options)))
    white = layout.white & ~layout.image(1 << cell) | layout.image(1 << target)
    return Layout(grid, white, layout.clue_mask, layout.sigma)


def join(layout: Layout, cell: int, rng: random.Random) -> Layout | None:
    """Join the islands sea `cell` touches (`merge`), reopening the sea if that cuts it.

    When whitening `cell` cuts the sea in two, a non-clue cell of the joined island that
    touches both parts turns black again, so the board keeps its white count and has one
    island less. None when no such cell keeps the board valid.
    """
    merged = merge(layout, cell, rng)
    if merged is layout:
        return None
    grid = layout.grid
    black = grid.full & ~merged.white
    if grid.is_connected(black):
        return merged
    island = grid.flood(1 << cell, merged.white)
    seas = grid.components(black)
    if len(seas) != 2:
        return None
    options = [
        i
        for i in bits(island & ~merged.clue_mask & ~merged.image(1 << cell))
        if grid.neighbors[i] & seas[0] and grid.neighbors[i] & seas[1]
    ]
    rng.shuffle(options)
    for i in options:
        cells = merged.image(1 << i)
        moved = Layout(grid, merged.white & ~cells, merged.clue_mask, merged.sigma)
        if moved.is_valid():
            return moved
    return None


def propose(
    layout: Layout, rng: random.Random, focus: int, kinds: tuple[str, ...]
) -> Layout | None:
    """One random move of a kind in `kinds`, near the cells of `focus` (or anywhere)."""
    grid = layout.grid
    near = grid.dilate(focus) if focus else grid.full
    kind = rng.choice(kinds)
    if kind == "clue":
        options = layout.white & near & ~layout.clue_mask
        if not options:
            return None
        return move_clue(layout, rng.choice(list(bits(options))))
    if kind == "one":
        # A sea cell with no white neighbour becomes a 1.
        options = layout.black & near & ~grid.dilate(layout.white)
        if not options:
            return None
        return whiten(layout, rng.choice(list(bits(options))), clue=True)
    if kind == "grow":
        options = layout.black & near & grid.border(layout.white)
        if not options:
            return None
        return whiten(layout, rng.choice(list(bits(options))), clue=False)
    if kind == "cut":
        options = layout.white & near & ~layout.clue_mask
        if not options:
            return None
        return blacken(layout, rng.choice(list(bits(options))), rng)
    if kind == "reshape":
        options = layout.white & near & ~layout.clue_mask
        if not options:
            return None
        return reshape(layout, rng.choice(list(bits(options))), rng)
    if kind in ("join", "merge"):
        joining = [
            i for i in bits(layout.black & near & grid.border(layout.white)) if joins(layout, i)
        ]
        if not joining:
            return None
        return (join if kind == "join" else merge)(layout, rng.choice(joining), rng)
    if kind == "drop":
        # Remove a 1-island.
        ones = [i for i in bits(layout.clue_mask & near) if not grid.neighbors[i] & layout.white]
        if not ones:
            return None
        cell = rng.choice(ones)
        cells = layout.image(1 << cell)
        return Layout(grid, layout.white & ~cells, layout.clue_mask & ~cells, layout.sigma)
    raise ValueError(kind)


SWEEP_RADIUS = 2
"""How far around a stuck region a sweep (`all_moves`) looks for moves."""


def all_moves(layout: Layout, rng: random.Random, focus: int) -> list[Layout]:
    """Every single move near `focus`: clue moves, cuts, growths and new 1s.

    Near means within `SWEEP_RADIUS` steps, plus the whole of every island that reaches
    there (its clue may be the one to move).
    """
    grid = layout.grid
    near = focus
    for _ in range(SWEEP_RADIUS):
        near = grid.dilate(near)
    near |= grid.flood(near & layout.white, layout.white)
    out = []
    for cell in bits(layout.white & near & ~layout.clue_mask):
        moved = move_clue(layout, cell)
        if moved is not None:
            out.append(moved)
        out.append(blacken(layout, cell, rng))
    for cell in bits(layout.black & near):
        out.append(whiten(layout, cell, clue=not grid.neighbors[cell] & layout.white))
    return out


# -- searches ------------------------------------------------------------------------------

REPAIR_KINDS = ("clue", "clue", "clue", "one", "grow", "grow", "cut")
"""Moves that add information where the engine is stuck (a clue move counts thrice)."""

REPAIR_KINDS_NO_ONES = ("clue", "clue", "clue", "grow", "grow", "cut")
"""The same without new 1s (climbs with tier-2 logic need them less; sweeps still add them)."""

HARDEN_KINDS = ("clue", "clue", "clue", "clue", "join", "join", "drop", "grow", "cut")
"""Moves for the walk towards harder puzzles."""


def settle(
    layout: Layout,
    tier: int,
    rng: random.Random,
    *,
    max_island: int,
    deadline: Deadline,
    ev: Evaluator | None = None,
    candidates: int = 6,
    steps: int = 80,
    floor: int | None = None,
    stop: Callable[[Layout, int], bool] | None = None,
    patience: int = 8,
    sideways: float = 0.5,
    white_floor: int = 0,
    sweep_after: int | None = None,
    kinds: tuple[str, ...] = REPAIR_KINDS,
    clue_cap: int | None = None,
    thrifty: bool = False,
) -> Layout | None:
    """Hill-climb until the logic engine with techniques up to `tier` solves the layout.

    Each round tries up to `candidates` moves near the unknown cells and takes the
    first that leaves fewer cells unknown; failing that, the best one that leaves as
    many (half the time). With `floor` (a tier), a layout solved at `tier` is taken
    only if that tier leaves more unknown than the current one does, or if the
    round ends without better. `stop(layout, unknown)`, when given, is asked after
    every accepted move; True ends the climb there. A move that takes the white cells
    below `white_floor` (and lower than they are) is not tried. Moves are scored with the
    evaluator's estimates; a layout is returned only once a fresh solve confirms it.
    After `sweep_after` rounds without progress (None: never), each round tries every
    move near one stuck region (`all_moves`) instead of `candidates` random ones.
    `kinds` are the kinds of random moves (`propose`). With `thrifty`, a move that adds a
    clue is taken only when no other move of the round leaves fewer cells unknown.
    Returns None after `steps` rounds without success or when the deadline passes.
    """
    ev = ev or Evaluator()
    grid = layout.grid
    current = layout
    unknown = ev.exact(current, tier)
    stalled = 0
    for _ in range(steps):
        if stop is not None and stop(current, unknown):
            return current
        if not unknown:
            unknown = ev.exact(current, tier)  # confirm the estimate with a fresh solve
            if not unknown:
                return current
        if deadline.passed():
            return None
        unknown = ev.anchored(current, tier)
        if not unknown:
            continue  # `stop` solved it afresh, unlike the estimate: confirmed above next round
        size = popcount(unknown)
        best: tuple[int, Layout, int] | None = None
        # Each move is made near one stuck cell: on a large board the engine is stuck in
        # many places, and the evaluator re-solves only around the move.
        stuck = list(bits(unknown))
        sweep = sweep_after is not None and stalled >= sweep_after
        if sweep:
            # Random moves keep missing the few that help (often near the end, where a
            # lone 1 over the share settles the last cells): try every move near one
            # stuck region, the cap on 1s lifted.
            tries: list[Layout | None] = list(
                all_moves(current, rng, rng.choice(grid.components(unknown)))
            )
            rng.shuffle(tries)
        else:
            tries = [None] * candidates
        spare: tuple[int, Layout, int] | None = None
        for pick in tries:
            if pick is None:
                focus = grid.dilate(1 << rng.choice(stuck))
                moved = propose(current, rng, focus, kinds)
            else:
                moved = pick
            if moved is None or not moved.is_valid(max_island):
                continue
            if (
                moved == current
                or (not sweep and too_many_ones(moved, current))
                or too_dark(moved, current, white_floor)
            ):
                continue
            if too_many_clues(moved, current, clue_cap):
                continue
            left = ev.unknown(moved, tier, current)
            count = popcount(left)
            if count < size and (floor is None or count or ev.unknown(moved, floor, current)):
                if not thrifty or popcount(moved.clue_mask) <= popcount(current.clue_mask):
                    best = (count, moved, left)
                    break
                # A move that adds a clue is kept in reserve while the round may still
                # find one that helps without.
                if spare is None:
                    spare = (count, moved, left)
                continue
            if best is None or count < best[0]:
                best = (count, moved, left)
        if spare is not None and (best is None or best[0] >= size):
            best = spare
        if best is None:
            stalled += 1
            if stalled > patience:
                return None
            continue
        if best[0] < size:
            current, unknown = best[1], best[2]
            stalled = 0
        else:
            # A sideways move (as many unknown) keeps the walk going on a plateau.
            if best[0] == size and rng.random() < sideways:
                current, unknown = best[1], best[2]
            stalled += 1
            if stalled > patience:
                return None
    return current if not unknown and not ev.exact(current, tier) else None


def harden(
    layout: Layout,
    tier: int,
    rng: random.Random,
    *,
    max_island: int,
    deadline: Deadline,
    ev: Evaluator | None = None,
    steps: int = 60,
    accept: Callable[[Layout], bool] | None = None,
    white_floor: int = 0,
) -> Layout | None:
    """Walk among layouts solvable at `tier` until one is not solvable at ``tier - 1``.

    `accept`, when given, is a further test a layout must pass to be returned. Moves
    are judged by the evaluator's estimates and the layout returned by fresh solves.
    """
    ev = ev or Evaluator()
    current = layout
    if ev.exact(current, tier - 1) and (accept is None or accept(current)):
        return current
    for _ in range(steps):
        if deadline.passed():
            return None
        moved = propose(current, rng, 0, HARDEN_KINDS)
        if moved is None or moved == current or not moved.is_valid(max_island):
            continue
        if too_dark(moved, current, white_floor) or too_many_ones(moved, current):
            continue
        if ev.unknown(moved, tier, current):
            continue
        if ev.exact(moved, tier):
            continue
        below = ev.unknown(moved, tier - 1, current)
        current = moved
        if below and ev.exact(current, tier - 1) and (accept is None or accept(current)):
            return current
    return None


NEUTRAL_KINDS = ("clue", "clue", "reshape")
"""Moves that keep every island's size: the repairs after a `polish` move."""


def enlargements(
    layout: Layout, rng: random.Random, *, join_islands: bool, grow: bool, max_island: int
) -> list[Layout]:
    """Valid boards one join (`join`) or one growth (an island takes a sea cell) away.

    Smallest first (by the size of the island the move makes, ties in random order):
    the islands a climb leaves too many of are the small ones.
    """
    grid = layout.grid
    out = []
    for cell in bits(layout.black & grid.border(layout.white)):
        if joins(layout, cell):
            moved = join(layout, cell, rng) if join_islands else None
        elif grow and sea_stays_connected(grid, layout.black, layout.image(1 << cell)):
            moved = whiten(layout, cell, clue=False)
        else:
            continue
        if moved is not None and moved.is_valid(max_island):
            size = popcount(grid.flood(1 << cell, moved.white))
            out.append((size, rng.random(), moved))
    out.sort(key=lambda t: t[:2])
    return [moved for _, _, moved in out]


def _largest(layout: Layout) -> int:
    """The size of the largest island."""
    return max((popcount(m) for m in layout.islands()), default=0)


def placements(layout: Layout, changed: int) -> list[Layout]:
    """The layout with the clue of the island(s) at `changed` moved to each other cell."""
    grid = layout.grid
    island = grid.flood(changed & layout.white, layout.white)
    out = []
    for cell in bits(island & ~layout.clue_mask):
        moved = move_clue(layout, cell)
        if moved is not None and moved.is_valid():
            out.append(moved)
    return out


def polish(
    layout: Layout,
    tier: int,
    rng: random.Random,
    *,
    max_island: int,
    deadline: Deadline,
    clues: int,
    white: int,
    ev: Evaluator | None = None,
    steps: int = 12,
    candidates: int = 6,
    retry: int = 1,
    repair: int = 2,
    patience: int = 4,
    floor: int | None = None,
    joins_first: bool = False,
    big: int = 0,
) -> Layout:
    """Join islands (and grow them) towards `clues` clues and `white` white cells.

    The climb (`settle`) makes a board solvable mostly by splitting islands and moving
    clues, so it ends with more, smaller islands than published puzzles have. Each step
    here scores up to `candidates` boards one join (one clue less, the white count kept;
    while the board has more than `clues` clues) or one growth (while it has fewer than
    `white` white cells) away, and takes one the tier solves (and, with `floor`, the
    tier `floor` does not). Failing that, the clue of the changed island is tried on
    each of its cells, in the `retry` best of them, and for a join `repair` rounds of
    size-keeping moves (`settle` with `NEUTRAL_KINDS`) follow. After `patience` failed
    steps in a row (half as many once only growths are wanted) the walk ends. `layout`
    must be solved at `tier`; so is the layout returned. With `joins_first`, growths are
    offered only once the clues are down to `clues`, after a failed step, or when no join
    is left; while the
    largest island is smaller than `big`, half the candidates are the joins and growths
    that make the largest islands.
    """
    ev = ev or Evaluator()
    current = layout
    failures = 0
    for _ in range(steps):
        if deadline.passed():
            break
        join_more = popcount(current.clue_mask) > clues
        grow_more = popcount(current.white) < white
        if not join_more and not grow_more:
            break
        every = enlargements(
            current,
            rng,
            join_islands=join_more,
            # After a failed step, growths are offered too (they raise the white share,
            # which the joins alone leave short).
            grow=grow_more and not (joins_first and join_more and not failures),
            max_island=max_island,
        )
        if not every and joins_first and grow_more:
            every = enlargements(current, rng, join_islands=False, grow=True, max_island=max_island)
        options = every[:candidates]
        if big and len(every) > candidates and _largest(current) < big:
            # Half the candidates make the largest islands on offer: published large
            # puzzles have a few big islands, which joins of small ones never reach.
            half = candidates // 2
            options = every[: candidates - half] + every[::-1][:half]
        scored = sorted(
            (
                (popcount(ev.unknown(moved, tier, current)), k, moved)
                for k, moved in enumerate(options)
            ),
            key=lambda t: t[:2],
        )
        found = None
        for count, _, moved in scored[:retry]:
            tries = [moved] if not count else []
            changed = changed_cells(current, moved)
            tries += placements(moved, changed)
            for option in tries:
                if option is not moved and ev.unknown(option, tier, current):
                    continue
                if ev.exact(option, tier):
                    continue
                if (
                    floor is not None
                    and not ev.unknown(option, floor, current)
                    and not ev.exact(option, floor)
                ):
                    continue  # too easy now
                found = option
                break
            if found is not None:
                break
        if found is None and repair and scored and join_more:
            found = settle(
                scored[0][2],
                tier,
                rng,
                max_island=max_island,
                deadline=deadline,
                ev=ev,
                candidates=6,
                steps=repair,
                patience=repair,
                sideways=1.0,
                kinds=NEUTRAL_KINDS,
            )
            if found is not None and floor is not None and not ev.exact(found, floor):
                found = None
        if found is None:
            failures += 1
            # Growths alone (the clues are down to the aim) get half the patience.
            if failures > (patience if join_more else patience // 2):
                break
            continue
        current = found
        failures = 0
    return current


NEAR_RADIUS = 3
"""How far around a move `is_unique` first looks for a second solution."""

NEAR_NODES = 50
"""The nodes of that first look."""


def is_unique(layout: Layout, nodes: int, near: int = 0) -> bool:
    """Whether the exact solver proves the layout's puzzle unique within `nodes` nodes.

    A search stopped by the node limit answers False (the move is not taken), so the
    answer never depends on the clock and a True is a proof. `near` (a mask: the cells
    a move changed) lets a cheaper search look for a second solution first: one that
    differs from the layout only within `NEAR_RADIUS` steps of those cells, the rest
    shaded as the layout has it, within `NEAR_NODES` nodes. A solution it finds is a
    solution of the whole puzzle, so it answers False exactly when the full search
    would; on the walks of 15x15 extreme it finds five second solutions in six, in
    half a millisecond against 10-40 ms for the full search.
    """
    from ..solver import Limit, Status, solve

    puzzle = puzzle_of(layout)
    if near and _other_near(layout, puzzle, near) is not None:
        return False
    result = solve(puzzle, limit=Limit(solutions=2, nodes=nodes, seconds=None))
    return result.status is Status.UNIQUE


def _other_near(layout: Layout, puzzle: Puzzle, near: int) -> int | None:
    """The white cells of a solution of `puzzle` (the layout's) other than the layout
    that differs from it only within `NEAR_RADIUS` steps of the cells of `near`
    (searched within `NEAR_NODES` nodes, the other cells given as the layout shades
    them), or None when that search finds none."""
    from ..solver import Limit
    from ..solver.native import NativeSearch

    grid = layout.grid
    window = near
    for _ in range(NEAR_RADIUS):
        window = grid.dilate(window)
    given = grid.full & ~window & ~puzzle.clue_mask
    start = Board(puzzle, given & ~layout.white, given & layout.white)
    search = NativeSearch(puzzle, Limit(solutions=2, nodes=NEAR_NODES, seconds=None), start=start)
    for board in search.solutions():
        if board.white_mask != layout.white:
            return board.white_mask
    return None


def exact_polish(
    layout: Layout,
    tier: int,
    rng: random.Random,
    *,
    max_island: int,
    deadline: Deadline,
    clues: int,
    ev: Evaluator,
    steps: int,
    candidates: int = 24,
    checks: int = 4,
    retry: int = 3,
    moves: int = 8,
    patience: int = 3,
    nodes: int = 1000,
) -> Layout:
    """Join islands towards `clues` clues, each join proved unique by the exact solver first.

    The quality walk (`polish`) asks the logic engine about every candidate, and on a
    huge board most joins leave one it cannot finish at the climb's tier (they are not
    unique, or they are only at a higher tier). Here each step runs through up to
    `candidates` joins (`enlargements`, smallest island first) and asks the exact solver
    (`is_unique`, `nodes` nodes; milliseconds on a near-unique 30x30) about each; only a
    unique one goes to the logic engine, at the level's own `tier` (a fresh solve), and
    the first it solves is taken. After `checks` logic solves that fail the step moves
    on to its fallback: the clue of each of the first `retry` non-unique joins tried on
    up to `moves` of its island's cells (random order). After `patience` failed steps in
    a row, `steps` steps, or at the deadline the walk ends. `layout` must be solved at
    `tier`; so is the layout returned.
    """
    current = layout
    failures = 0
    for _ in range(steps):
        if deadline.passed() or popcount(current.clue_mask) <= clues:
            break
        every = enlargements(current, rng, join_islands=True, grow=False, max_island=max_island)
        found = None
        solves = 0
        rejected = []
        for moved in every[:candidates]:
            if not is_unique(moved, nodes, changed_cells(current, moved)):
                rejected.append(moved)
                continue
            solves += 1
            if not ev.exact(moved, tier):
                found = moved
                break
            if solves >= checks:
                break
        for moved in rejected[:retry] if found is None else ():
            options = placements(moved, changed_cells(current, moved))
            rng.shuffle(options)
            for option in options[:moves]:
                if is_unique(option, nodes, changed_cells(current, option)) and not ev.exact(
                    option, tier
                ):
                    found = option
                    break
            if found is not None:
                break
        if found is None:
            failures += 1
            if failures >= patience:
                break
            continue
        current = found
        failures = 0
    return current


DEEPEN_KINDS = ("join", "join", "drop", "clue")
"""Moves of the `deepen` walk: joins and dropped 1s take a clue away, clue moves shuffle."""


def deepen(
    layout: Layout,
    tier: int,
    rng: random.Random,
    *,
    max_island: int,
    deadline: Deadline,
    ev: Evaluator,
    accept: Callable[[Layout], bool],
    steps: int,
    nodes: int,
    white_floor: int = 0,
    check_every: int = 1,
) -> Layout | None:
    """Walk from a unique `layout` that logic up to `tier` solves to a unique one it
    cannot finish and `accept` takes.

    Each of `steps` proposals is a random move of `DEEPEN_KINDS` (a join or a dropped 1
    takes a clue away, a clue move changes which cell tells the island's size). A valid
    move is asked to the exact solver first (`is_unique`, `nodes` nodes, so the answer
    is a proof and no clock decides it); the walk goes on from every unique board. Every
    `check_every`-th of them is asked to the logic engine at `tier` (a fresh solve, the
    walk's main cost): if logic still solves it the walk goes on; if logic is stuck the
    board is offered to `accept` (the caller's grade, say), and returned if taken. After
    a board `accept` refuses the walk goes on from the last board logic solved. None
    when the steps or the deadline run out first.
    """
    current = solved = layout
    unchecked = 0
    for _ in range(steps):
        if deadline.passed():
            return None
        moved = propose(current, rng, 0, DEEPEN_KINDS)
        if moved is None or moved == current or not moved.is_valid(max_island):
            continue
        if too_dark(moved, current, white_floor):
            continue
        if not is_unique(moved, nodes, changed_cells(current, moved)):
            continue
        unchecked += 1
        if unchecked < check_every:
            current = moved
            continue
        unchecked = 0
        if not ev.exact(moved, tier):
            current = solved = moved
        elif accept(moved):
            return moved
        else:
            current = solved
    return None


def _second_solution(layout: Layout, nodes: int, near: int = 0) -> int | None:
    """The exact solver's verdict on the layout's puzzle within `nodes` nodes: 0 when it
    proves it unique, the white cells of another solution when it finds one, None when
    the node limit stops it first (neither a proof nor a witness). With `near` (the
    cells a move changed), another solution near them is looked for first (as in
    `is_unique`), and returned if found."""
    from ..solver import Limit, Status, solve

    puzzle = puzzle_of(layout)
    if near:
        other = _other_near(layout, puzzle, near)
        if other is not None:
            return other
    result = solve(puzzle, limit=Limit(solutions=2, nodes=nodes, seconds=None))
    if result.status is Status.UNIQUE:
        return 0
    if result.status is Status.MULTIPLE:
        for board in result.solutions:
            if board.white_mask != layout.white:
                return board.white_mask
    return None


def pinning_growths(
    layout: Layout, other: int, big: int, max_island: int, *, ones: bool = False
) -> list[Layout]:
    """Growths that rule out the other solution `other` (its white cells) of a board
    whose island `big` (a mask) has just grown: another island takes a sea cell that
    the other solution makes white, or one beside such a cell. Either way that island
    grows by one and keeps its clue, so the other solution no longer fits the clues as
    it was, and mending it (the grown island taking the cell there too) would join it
    to the island beside it. The cell must touch exactly one island, not `big`, and the
    sea must stay connected. Cells the other solution makes white come first."""
    grid = layout.grid
    extra = other & layout.black
    out = []
    for cell in bits(extra & grid.border(big)):
        # The big island takes the cell itself (the other solution's shape, in part).
        if joins(layout, cell) or not sea_stays_connected(grid, layout.black, 1 << cell):
            continue
        moved = whiten(layout, cell, clue=False)
        if moved.is_valid(max_island):
            out.append(moved)
    for cell in [*bits(extra), *bits(grid.dilate(extra) & ~extra)]:
        if not layout.black >> cell & 1 or grid.dilate(big) >> cell & 1:
            continue
        alone = not grid.neighbors[cell] & layout.white
        if (alone and not ones) or joins(layout, cell):
            continue
        if not sea_stays_connected(grid, layout.black, 1 << cell):
            continue
        moved = whiten(layout, cell, clue=alone)
        if moved.is_valid(max_island):
            out.append(moved)
    return out


def grow_big(
    layout: Layout,
    tier: int,
    rng: random.Random,
    *,
    max_island: int,
    deadline: Deadline,
    ev: Evaluator,
    target: int,
    steps: int,
    islands: int = 3,
    candidates: int = 12,
    pins: int = 6,
    depth: int = 3,
    nodes: int = 3000,
    ones: bool = False,
) -> Layout:
    """Grow the largest island towards `target` cells, each step proved unique exactly.

    A join or growth that makes a big island is almost never unique on its own: the big
    island can take another shape. Each step here offers up to `candidates` moves that
    enlarge the largest island (a growth by a sea cell, or a join with a neighbouring
    island through one), in random order, and asks the exact solver about each (`nodes`
    nodes). A unique board goes to the logic engine at `tier` (a fresh solve) and the
    first it solves is taken. A board the solver shows another solution of is pinned
    (`pinning_growths`): an island beside the other solution's extra cells takes one,
    which rules that solution out; up to `pins` pins are tried, `depth` in a row, each
    asked about again. The walk stops at `target`, after `steps` steps, at a step
    without a move, or at the deadline. `layout` must be solved at `tier` (and so is
    the layout returned); no island exceeds `max_island`.
    """
    grid = layout.grid
    current = layout
    for _ in range(steps):
        if deadline.passed() or layout.sigma is not None:
            break
        ranked = sorted(current.islands(), key=lambda m: (-popcount(m), m))
        if popcount(ranked[0]) >= min(target, max_island):
            break
        found = None
        for big in ranked[:islands]:
            offers = []
            for cell in bits(current.black & grid.border(big)):
                if joins(current, cell):
                    moved = join(current, cell, rng)
                elif sea_stays_connected(grid, current.black, 1 << cell):
                    moved = whiten(current, cell, clue=False)
                else:
                    continue
                if moved is not None and moved.is_valid(max_island):
                    offers.append(moved)
            rng.shuffle(offers)
            for moved in offers[:candidates]:
                grown = grid.flood(moved.white & ~current.white, moved.white)
                found = _pinned(
                    moved, current, grown, tier, ev, max_island, pins, depth, nodes, ones
                )
                if found is not None:
                    break
            if found is not None:
                break
        if found is None:
            break
        current = found
    return current


def _pinned(
    moved: Layout,
    current: Layout,
    big: int,
    tier: int,
    ev: Evaluator,
    max_island: int,
    pins: int,
    depth: int,
    nodes: int,
    ones: bool,
) -> Layout | None:
    """`moved` or a pinned version of it (`grow_big`) that is unique and solved at `tier`
    (`current`: the board the walk moved from)."""
    frontier = [moved]
    for _ in range(depth + 1):
        following = []
        for board in frontier:
            other = _second_solution(board, nodes, changed_cells(current, board))
            if other == 0:
                # The estimate from the walk's board first: a fresh solve costs more.
                if not ev.unknown(board, tier, current) and not ev.exact(board, tier):
                    return board
                continue
            if other is None:
                continue
            grown = board.grid.flood(big, board.white)
            following += pinning_growths(board, other, grown, max_island, ones=ones)[:pins]
        frontier = following[:pins]
        if not frontier:
            break
    return None
