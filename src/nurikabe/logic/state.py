"""The logic engine's private working state: two masks plus what is derived from them.

`State` holds the black and white masks of a partial solution and caches, per
shading, the analysis every technique reads: the islands (white regions holding a
clue) with their size, missing cells and the cells they may still use; the orphan
white regions (no clue yet); and how far each island can still reach. It also keeps
the island-completion lists, which only ever shrink as cells get decided, so they
are filtered rather than recomputed, and the settled islands (complete, with black all
round), which later positions take as they are instead of finding them again.

It also carries the CPU-time deadline of the walkthrough it belongs to, which the
costly techniques check (`State.check_time`) so that no step overruns it by much.

Nothing here lives on `Board`. Imports `limits`, `grid` (and its compiled `_cgrid`) and
`puzzle` only.
"""

from __future__ import annotations

import threading
import time
from typing import cast

from .._cgrid import island_fields, islands, priced_reach
from ..grid import Grid
from ..limits import OutOfTime
from ..puzzle import UNKNOWN_CLUE, Board, Puzzle

__all__ = ["Analysis", "Island", "State", "past"]

UNBOUNDED = 1 << 30
"""The missing-cell count of a ``?`` island (it may grow without bound)."""


class _Clock(threading.local):
    """The last reading of this thread's CPU time, and of the wall clock at that moment."""

    cpu = 0.0
    wall = float("-inf")


_clock = _Clock()


def past(deadline: float) -> bool:
    """Whether this thread's CPU time (`time.thread_time`) has passed `deadline`.

    Reading the CPU time is a system call (about 0.4 us), and the engines ask often. A
    thread's CPU time grows no faster than the wall clock, which is cheap to read: while
    the last CPU reading plus the wall time since is still within the deadline, the
    answer is no without a new reading (so the answer is always the exact one).
    """
    wall = time.perf_counter()
    if _clock.cpu + (wall - _clock.wall) <= deadline:
        return False
    cpu = time.thread_time()
    _clock.cpu, _clock.wall = cpu, wall
    return cpu > deadline


class Island:
    """A white region holding exactly one clue.

    What it may still take is given here once, as a range (`least` to `most` cells),
    and every technique reads the end of it its argument needs: arguments that an
    island *must* grow (single exits, bottlenecks, exits to split on, rooms too small)
    use `least`; arguments that it *may not* grow more (complete islands, too big) or
    how far it may reach use `most`; listing shapes of an exact size needs both equal.
    A ``?`` island (unknown size, at least 1) has the range 0 to `UNBOUNDED`.

    `Analysis` makes its islands in `_cgrid.islands`, which fills these slots as
    `__init__` does without running it (tests/logic/test_walks.py holds the two equal).
    """

    __slots__ = (
        "allowed",
        "around",
        "border",
        "clue",
        "forbidden",
        "least",
        "mask",
        "most",
        "reach",
        "size",
        "value",
    )

    def __init__(
        self,
        mask: int,
        clue: int,
        value: int,
        around: int,
        border: int,
        forbidden: int,
        allowed: int,
    ) -> None:
        self.mask = mask
        """Its cells."""
        self.clue = clue
        """The clue cell."""
        self.value = value
        """The clue (``-1`` for ``?``)."""
        self.size = mask.bit_count()
        """How many cells it has."""
        unknown = value == UNKNOWN_CLUE
        self.least = 0 if unknown else value - self.size
        """The fewest cells it must still take: what a numbered island lacks (negative
        when it is too big); 0 for a ``?`` island, which may already be complete."""
        self.most = UNBOUNDED if unknown else value - self.size
        """The most cells it may still take: what a numbered island lacks; `UNBOUNDED`
        for a ``?`` island, which may grow as far as the room left allows."""
        self.around = around
        """Its cells and their neighbours (given by `Analysis`)."""
        self.border = border
        """Its unknown neighbours."""
        self.forbidden = forbidden
        """Cells it may never take: those touching another island."""
        self.allowed = allowed
        """Cells it may grow into: unknown or orphan white, not forbidden."""
        self.reach = 0
        """Cells it can reach with the cells it lacks (itself included; a clueless white
        region counts whole, see `Analysis.reach`)."""

    @property
    def unknown_size(self) -> bool:
        """Whether the clue is ``?``."""
        return self.value == UNKNOWN_CLUE


class Analysis:
    """What every technique reads about one shading; computed once per shading."""

    __slots__ = (
        "black",
        "black_parts",
        "clashes",
        "completions",
        "covered",
        "earlier",
        "grid",
        "island_at",
        "islands",
        "orphans",
        "room",
        "touching_two",
        "unknown",
        "white",
        "white_parts",
    )

    def __init__(self, state: State, earlier: Analysis | None = None) -> None:
        grid = state.grid
        self.grid = grid
        """The grid (the analysis holds no reference to its state, so that a state and
        its analysis make no reference cycle and are freed as soon as they are dropped)."""
        black, white = state.black, state.white
        self.black = black
        """The black cells it was made for."""
        self.white = white
        """The white cells it was made for."""
        self.unknown = grid.full & ~(black | white)
        self.islands: list[Island]
        """The islands, ordered by their smallest cell."""
        self.orphans: list[int] = []
        """White regions without a clue."""
        self.clashes: list[int] = []
        """White regions holding two or more clues (a contradiction)."""
        self.island_at: dict[int, Island]
        """Island by clue cell."""
        clue_mask = state.clue_mask
        values = state.values
        self.earlier: Analysis | None = None
        """An analysis of a shading this one extends, with its black regions, until
        `sea_parts` has used them."""
        self.room: tuple[int, int] = earlier.room if earlier is not None else (0, 0)
        """(white cells, the cells of the others connected to the first black region then)
        of the last `sea_room` made, here or for the analysis this one extends (0: none)."""
        self.white_parts: list[int]
        """The white regions, ordered by their smallest cell."""
        # An analysis of a shading this one extends gives its regions: the new cells
        # only join some of them (`Grid.joined`).
        if earlier is not None and not (earlier.white & ~white or earlier.black & ~black):
            self.white_parts = grid.joined(earlier.white_parts, white & ~earlier.white)
            if earlier.black_parts is not None:
                self.earlier = earlier
        else:
            self.white_parts = _white_parts(state)
        # The regions sorted by their clues first; the islands' fields at once, in
        # `_cgrid.island_fields` (a cell touching two islands is forbidden to both, one
        # touching one island to every other island; a settled island keeps its
        # dilation); then the islands, made with their fields in `_cgrid.islands`.
        orphans = self.orphans
        clashes = self.clashes
        masks: list[int] = []
        cells: list[int] = []
        for part in self.white_parts:
            clues = part & clue_mask
            if not clues:
                orphans.append(part)
            elif clues & (clues - 1):
                clashes.append(part)
            else:
                masks.append(part)
                cells.append(clues.bit_length() - 1)
        settled = _settled(state)
        dils: list[int | None] = [None] * len(masks)
        if settled:
            for n, cell in enumerate(cells):
                kept = settled.get(cell)
                if kept is not None and kept[0] == masks[n]:
                    dils[n] = kept[1]
        unknown = self.unknown
        # The white cells of no island and no clash (clue cells are in one or the other).
        orphan_white = 0
        for part in orphans:
            orphan_white |= part
        free = unknown | orphan_white
        geometry = (grid.not_first_col, grid.not_last_col, grid.full, grid.cols)
        fields = island_fields(masks, dils, unknown, free, *geometry)
        self.touching_two = fields[0]
        """The cells (of any color) next to two or more islands."""
        made = islands(Island, masks, cells, values, *fields[1:], UNBOUNDED)
        self.islands = made
        self.island_at = dict(zip(cells, made, strict=True))
        for island in made:
            if not island.border and not island.most:
                cell = island.clue
                if settled.get(cell, (0, 0))[0] != island.mask:
                    settled[cell] = (island.mask, island.around)
        self.covered = -1
        self.black_parts: list[int] | None = None
        self.completions: dict[int, list[int]] | None = None
        """Per clue cell, the island's possible completions (filled by the techniques)."""

    def reach(self) -> int:
        """Union of every island's reach (computing each island's `reach` on the way).

        An island lacking k cells reaches the cells it could take in with at most k more
        (a lower bound on what taking them costs): an unknown cell costs one, a clueless
        white region costs its whole size (an island that enters it takes all of it), and
        a cell touching another island is never entered. Every way of completing the
        island lies within its reach.
        """
        if self.covered >= 0:
            return self.covered
        grid = self.grid
        parts = self.orphans
        sizes = [part.bit_count() for part in parts]
        heavy = 0
        for part, size in zip(parts, sizes, strict=True):
            if size > 1:
                heavy |= part
        geometry = (grid.not_first_col, grid.not_last_col, grid.cols)
        covered = 0
        for island in self.islands:
            allowed = island.allowed
            most = min(island.most, grid.size)
            region = grid.spread(island.mask, allowed, most)
            if region & heavy:
                # Counting steps let it walk into a clueless region of two cells or
                # more: price each such region at its size (entered at cost k, it
                # arrives whole at cost k - 1 + its size), in `_cgrid.priced_reach`.
                region = priced_reach(island.mask, allowed, parts, sizes, most, *geometry)
            island.reach = region
            covered |= region
        self.covered = covered
        return covered

    def sea_room(self) -> int:
        """The black and unknown cells connected to the first black region through black
        and unknown cells (0 without black cells)."""
        white, room = self.room
        parts = self.sea_parts()
        if not parts:
            return 0
        # With the same white cells the black and unknown pieces are the same.
        if not (room and white == self.white and parts[0] & room):
            room = self.grid.flood(parts[0], self.grid.full & ~self.white)
            self.room = (self.white, room)
        return room

    def sea_parts(self) -> list[int]:
        """The black regions."""
        if self.black_parts is None:
            black = self.black
            earlier = self.earlier
            if earlier is not None and not earlier.black & ~black:
                assert earlier.black_parts is not None
                added = black & ~earlier.black
                self.black_parts = self.grid.joined(earlier.black_parts, added)
            else:
                self.black_parts = self.grid.components(black)
            self.earlier = None
        return self.black_parts


SETTLED = "settled-islands"
"""Key in `State.memo` of the settled islands: per clue cell, (island, island with its
border) for an island found complete with only black cells around it."""


def _settled(state: State) -> dict[int, tuple[int, int]]:
    store = state.memo.get(SETTLED)
    if store is None:
        store = state.memo[SETTLED] = {}
    return cast("dict[int, tuple[int, int]]", store)


def _white_parts(state: State) -> list[int]:
    """The white regions, ordered by their smallest cell (`Grid.components`).

    An island that was once complete with only black cells around it (kept in
    `State.memo`) is still a whole region wherever its cells are white and its border
    black, as in every later position of a walkthrough and inside its suppositions:
    those are taken as they are, and only the other white cells are flooded. Late in a
    big puzzle that skips most of the work.
    """
    black, white = state.black, state.white
    kept = []
    rest = white
    for part, around in _settled(state).values():
        if part & white == part and around & black == around & ~part:
            kept.append(part)
            rest &= ~part
    parts = state.grid.components(rest)
    if not kept:
        return parts
    parts += kept
    parts.sort(key=lambda part: (part & -part).bit_length())
    return parts


class State:
    """A partial solution under deduction: black and white masks plus cached analysis."""

    __slots__ = (
        "_analysis",
        "_earlier",
        "black",
        "case_memo",
        "clue_mask",
        "completions",
        "deadline",
        "grid",
        "light",
        "memo",
        "puzzle",
        "total_white",
        "values",
        "white",
    )

    def __init__(self, puzzle: Puzzle, black: int = 0, white: int | None = None) -> None:
        self.puzzle = puzzle
        self.grid: Grid = puzzle.grid
        self.clue_mask = puzzle.clue_mask
        self.values: dict[int, int] = dict(puzzle.clues)
        self.black = black
        self.white = (self.clue_mask if white is None else white) | (self.clue_mask & ~black)
        unknown_clues = any(v == UNKNOWN_CLUE for v in self.values.values())
        self.total_white: int | None = None if unknown_clues else puzzle.known_clue_total
        """How many white cells the solution has (None with ``?`` clues)."""
        self.completions: dict[
            int, tuple[tuple[int, int], list[int] | None, tuple[int, int], object]
        ] = {}
        """Per clue cell: ((island mask, room) they were made for, the completions still
        possible or None when there were too many, the shading near the island then, and
        with a list, the listing's index and the set of its shapes the list holds (see
        `techniques.completions`; None without a list)."""
        self._analysis: Analysis | None = None
        self._earlier: Analysis | None = None
        """The analysis of the shading before the last `decide` (its regions are reused)."""
        self.light = False
        """Whether the costliest checks are skipped (inside suppositions, for speed)."""
        self.case_memo: dict[object, object] = {}
        """What the case splits learnt (shared by copies): splits that found nothing, with
        the shading near them then; the cases that broke a rule, with the position they
        broke from; the cases that ended a split that found nothing. It only lets a split
        skip work (see `techniques._by_cases`)."""
        self.memo: dict[object, object] = {}
        """Results of pure functions of part of the shading, keyed by that part (shared by
        copies, so that suppositions reuse what the position around an island gave)."""
        self.deadline: float | None = None
        """CPU time (`time.thread_time`) after which the costly techniques give up by
        raising `OutOfTime` (None: never); copies share it."""

    @classmethod
    def from_board(cls, board: Board) -> State:
        """The state of a player's board (clue cells count as white unless shaded)."""
        return cls(board.puzzle, board.black_mask, board.white_mask)

    def copy(self) -> State:
        """An independent copy sharing the (immutable) cached analysis."""
        other = State.__new__(State)
        other.puzzle = self.puzzle
        other.grid = self.grid
        other.clue_mask = self.clue_mask
        other.values = self.values
        other.black = self.black
        other.white = self.white
        other.total_white = self.total_white
        other.completions = dict(self.completions)
        other._analysis = self._analysis
        other._earlier = self._earlier
        other.light = self.light
        other.case_memo = self.case_memo
        other.memo = self.memo
        other.deadline = self.deadline
        return other

    def check_time(self) -> None:
        """Raise `OutOfTime` once the CPU time passes `deadline`.

        The costly techniques (island shapes, case splits) call it in their loops, so a
        walkthrough with a time budget stops soon after the budget runs out.

        Raises:
            OutOfTime: the deadline has passed.
        """
        if self.deadline is not None and past(self.deadline):
            raise OutOfTime

    @property
    def unknown(self) -> int:
        """The undecided cells."""
        return self.grid.full & ~(self.black | self.white)

    def analysis(self) -> Analysis:
        """The analysis of the current shading (cached until it changes)."""
        a = self._analysis
        if a is None:
            a = self._analysis = Analysis(self, self._earlier)
            self._earlier = None
        return a

    def decide(self, black: int, white: int) -> None:
        """Make the cells of `black` black and those of `white` white."""
        if black or white:
            self.black = (self.black | black) & ~white
            self.white = (self.white | white) & ~black
            if self._analysis is not None:
                self._earlier = self._analysis
            self._analysis = None

    def is_complete(self) -> bool:
        """Whether no cell is undecided."""
        return not self.unknown

    def to_board(self) -> Board:
        """The shading as a `Board`."""
        return Board(self.puzzle, self.black, self.white)
