"""Tier 4: reasoning by cases, two to four exhaustive cases each followed a few rounds.

Owns sea-exit-cases, pool-cases, orphan-exit-cases, island-exit-cases, island-options
and deep-cases, and the machinery they share: following a case with the simple rows
of the table (`case_rows`, `deep_rows`), remembering what each case led to from
earlier positions, and keeping what every surviving case agrees on.

Imports `grid`, `logic.state`, `logic.steps`, `logic.techniques.common`,
`logic.techniques.completions` and `logic.techniques.contradictions`; the table's
rows are read from the package on first use (the package imports this module).
"""

from __future__ import annotations

from functools import cache
from typing import TypeVar, cast

from ...grid import Grid, bits
from ..state import State
from ..steps import Step, name_cells
from .common import (
    MEMO_MAX,
    Technique,
    _cap,
    _clue_text,
    _exits,
    _is,
    _step,
    _total_black,
    _touching,
    contradiction,
)
from .completions import _completion_cache
from .contradictions import find_contradiction

CASE_ROUNDS = 4
"""Rounds of simple steps each case of a case split is followed for."""


DEEP_ROUNDS = 12
"""Rounds each case of `deep-cases` is followed for."""


CASE_TIER = 2
"""The simple steps that follow a case: techniques up to this tier."""


CASE_SHAPES = 200
"""Islands with at most this many possible shapes get `island-options`."""


CASE_WORK = 40_000
"""On large grids fewer shapes are split: at most this many (shapes x cells)."""


DEEP_SHAPES = 1500
"""`deep-cases` also splits islands with up to this many shapes (followed by simple steps)."""


DEEP_WORK = 500_000
"""The same bound as `CASE_WORK`, for `deep-cases`."""


CASE_WINDOW = 4
"""A split that found nothing is retried only once the shading this close to it changes."""


CASE_OPTIONS = 4
"""Most exits (of a black region or an island) or open cells (of a 2x2 block) split into cases."""


_T = TypeVar("_T")


@cache
def case_rows() -> tuple[Technique, ...]:
    """The rows that follow each case of a split: the table's techniques up to `CASE_TIER`.

    Read from the package on first use: the table there lists this module's techniques."""
    from . import TECHNIQUES

    return tuple(t for t in TECHNIQUES if t.tier <= CASE_TIER)


@cache
def deep_rows() -> tuple[Technique, ...]:
    """The rows that follow each case of `deep-cases`: every row but the case splits."""
    from . import TECHNIQUES

    return tuple(t for t in TECHNIQUES if t.tier <= 3)


def _after_rounds(
    state: State, black: int, white: int, rows: tuple[Technique, ...]
) -> tuple[int, int] | None:
    """The shading `CASE_ROUNDS` rounds of simple steps (`DEEP_ROUNDS` for the rows of
    `deep-cases`) lead to from `state` with `black` and `white` added, or None when a
    rule breaks on the way.

    A round applies each technique of `rows` once, in table order, so the cells found
    are at most `CASE_ROUNDS` deductions away from the supposition.

    What the same case led to from an earlier position of the walkthrough still follows
    from this one (the position only gained sound decisions), so the rounds start from
    there (kept in `State.case_memo`): a case followed at every step costs a round or
    two, not all of them again; and if that earlier result clashes with the position,
    the case breaks at once.
    """
    earlier = _case_store(state, "after", rows)
    key = (black, white)
    s = state.copy()
    s.light = True
    s.decide(black & ~state.black, white & ~state.white)
    known = cast("tuple[int, int, int, int, bool] | None", earlier.get(key))
    if known is not None:
        at_black, at_white, then_black, then_white, stalled = known
        if state.black & at_black == at_black and state.white & at_white == at_white:
            if then_black & state.white or then_white & state.black:
                return None
            if stalled and not (state.black & ~then_black or state.white & ~then_white):
                # The position adds nothing to where the rounds stalled last time.
                return then_black, then_white
            s.decide(then_black & ~s.black, then_white & ~s.white)
            if find_contradiction(s) is not None:
                return None
    found = _follow(s, rows)
    if found is None:
        return None
    earlier[key] = (state.black, state.white, *found)
    return found[0], found[1]


def _follow(s: State, rows: tuple[Technique, ...]) -> tuple[int, int, bool] | None:
    """The rounds of `_after_rounds`, on `s` (changed in place): the shading they reach
    and whether they stalled (a whole round made no step), or None when a rule broke."""
    for _ in range(DEEP_ROUNDS if rows is deep_rows() else CASE_ROUNDS):
        moved = False
        for row in rows:
            s.check_time()
            step = row.func(s)
            if step is None:
                continue
            if step.kind == "contradiction":
                return None
            s.decide(step.black_mask, step.white_mask)
            moved = True
        if find_contradiction(s) is not None:
            return None
        if not moved:
            return s.black, s.white, True
    return s.black, s.white, False


def _by_cases(
    state: State, cases: list[tuple[int, int]], rows: tuple[Technique, ...]
) -> tuple[int, int, list[int]]:
    """(cells black in every case that survives, cells white in all of them, the indices
    of the cases that survive).

    `cases` lists (black, white) suppositions at least one of which holds in the solution.
    A split that found nothing is not followed again while the shading within
    `CASE_WINDOW` cells of its cases stays the same (it would almost surely find nothing
    again; skipping it can only miss a step, never make a wrong one).
    """
    grid = state.grid
    touched = 0
    for b, w in cases:
        touched |= b | w
    window = touched
    for _ in range(CASE_WINDOW):
        window = grid.dilate(window)
    key = (len(rows), touched, tuple(cases))
    local = (state.black & window, state.white & window)
    if state.case_memo.get(key) == local:
        return 0, 0, [0]
    found = _by_cases_now(state, cases, rows)
    if found[2] and not found[0] | found[1]:
        state.case_memo[key] = local
    return found


def _by_cases_now(
    state: State, cases: list[tuple[int, int]], rows: tuple[Technique, ...]
) -> tuple[int, int, list[int]]:
    """`_by_cases` without the skip. Two memories (in `State.case_memo`) make it cheaper
    without changing what it may conclude:

    - a case that broke a rule from an earlier position stays broken from any later one
      of the same walkthrough (the later position only adds sound decisions), so it is
      not followed again; the position it broke from is kept, and the memory is used
      only from positions that extend it;
    - the cases that were followed last time a split found nothing come first, since
      they are likely to disagree again and end the split after a few cases.
    """
    black = white = state.grid.full
    unknown = state.unknown
    broken = _case_store(state, "broken", rows)
    lower = _case_store(state, "broken", case_rows()) if rows is not case_rows() else broken
    witnesses = _case_store(state, "witness", rows)
    order = sorted(range(len(cases)), key=lambda n: cases[n] not in witnesses)
    alive = []
    followed: list[tuple[tuple[int, int], int]] = []
    for n in order:
        case = cases[n]
        if _broken_before(state, broken.get(case)) or _broken_before(state, lower.get(case)):
            continue
        found = _after_rounds(state, *case, rows)
        if found is None:
            broken[case] = (state.black, state.white)
            continue
        alive.append(n)
        followed.append((case, (found[0] & unknown) | (found[1] & unknown) << state.grid.size))
        black &= found[0]
        white &= found[1]
        if not (black | white) & unknown:
            # Nothing left in common, and cases still to come can only keep it so.
            for case in _few_that_disagree(followed):
                witnesses[case] = True
            return 0, 0, sorted(alive)
    if not alive:
        return 0, 0, alive
    return black & unknown, white & unknown, sorted(alive)


def _few_that_disagree(followed: list[tuple[_T, int]]) -> list[_T]:
    """A few of the `followed` (case, what it decides) pairs whose decisions have nothing
    in common, chosen greedily (each next case shrinks the common part most)."""
    common = -1
    chosen = []
    rest = list(followed)
    while common and rest:
        best = min(range(len(rest)), key=lambda n: (common & rest[n][1]).bit_count())
        case, decided = rest.pop(best)
        chosen.append(case)
        common &= decided
    return chosen


def _case_store(state: State, kind: str, rows: tuple[Technique, ...]) -> dict[object, object]:
    store = state.case_memo.get((kind, len(rows)))
    if not isinstance(store, dict) or len(store) > MEMO_MAX:
        store = state.case_memo[kind, len(rows)] = {}
    return store


def _broken_before(state: State, where: object) -> bool:
    """Whether `where`, the (black, white) of the position a case broke from, is
    extended by `state` (so the case breaks from `state` too)."""
    if where is None:
        return False
    black, white = cast("tuple[int, int]", where)
    return state.black & black == black and state.white & white == white


def _outcome(grid: Grid, black: int, white: int) -> str:
    """``r1c2 is black and r3c4 and r3c5 are white``."""
    parts = []
    if black:
        parts.append(f"{name_cells(grid, black)} {_is(black)} black")
    if white:
        parts.append(f"{name_cells(grid, white)} {_is(white)} white")
    return " and ".join(parts)


def _painted(grid: Grid, black: int, white: int) -> str:
    """``r1c2 black and r3c4 white``."""
    parts = []
    if black:
        parts.append(f"{name_cells(grid, black)} black")
    if white:
        parts.append(f"{name_cells(grid, white)} white")
    return " and ".join(parts)


def _split(
    state: State,
    rows: tuple[Technique, ...],
    name: str,
    what: str,
    options: int,
    cases: list[tuple[int, int]],
    premises: int,
) -> Step | None:
    """The step of a case split on the cells of `options`, one case each (`what` names
    the need, ending in "through" or "at"), or None. The cases come from `_first_of`."""
    grid = state.grid
    black, white, alive = _by_cases(state, cases, rows)
    names = [grid.name(i) for i in bits(options)]
    listed = f"{', '.join(names[:-1])} or {names[-1]}"
    if not alive:
        return contradiction(
            state, name, premises, f"{_cap(what)} {listed}, and every way breaks a rule."
        )
    if not black | white:
        return None
    if len(alive) == len(cases):
        every = "both ways make" if len(cases) == 2 else "every way makes"
        how = f"and {every} {_painted(grid, black, white)}"
    else:
        color, other = ("black", "white") if cases[0][0] else ("white", "black")
        bad = [
            f"{names[n]} {color}"
            if n == 0
            else f"{' and '.join(names[:n])} {other} and {names[n]} {color}"
            for n in range(len(cases))
            if n not in alive
        ]
        how = (
            f"but with {' or with '.join(bad)} a rule soon breaks, "
            f"so {_outcome(grid, black, white)}"
        )
    return _step(
        state,
        name,
        f"{_cap(what)} {listed}, {how}.",
        black=black,
        white=white,
        premises=premises | options,
        cases=len(cases),
    )


def _first_of(options: int, *, black: bool) -> list[tuple[int, int]]:
    """The cases of "one cell of `options` is black" (or white): the first option has that
    color; or the first has the other color and the second has it; and so on.

    They cover every possibility (take the first option in cell order that has the color)
    and each carries more than the bare "this option has the color", so more cases break.
    """
    cases = []
    before = 0
    for e in bits(options):
        bit = 1 << e
        cases.append((bit, before) if black else (before, bit))
        before |= bit
    return cases


def _fewest_first(items: list[tuple[_T, int]], most: int) -> list[tuple[_T, int]]:
    """The (thing, options) pairs with 2 to `most` options, those with fewest first."""
    kept = [(n, thing, opts) for thing, opts in items if 2 <= (n := opts.bit_count()) <= most]
    kept.sort(key=lambda t: t[0])
    return [(thing, opts) for _, thing, opts in kept]


def sea_exit_cases(state: State) -> Step | None:
    """A black region with two to four ways out: what every way leads to holds.

    The region must reach the rest of the sea, so one of its exits is black. Each is
    followed for four rounds of simple steps; a cell all lead to the same color has that
    color, and an exit that leads to a broken rule is not the way out. Regions with
    fewer exits are split first.
    ::

        . a .          the black cell leaves through a or b. With a black, the 2
        4 # b 2        must take x, which walls the black cells in: b is black
        . . x .        (and a cell both ways make the same color takes it)
    Source: game rules 1 and 5 (a black string's connection points) taken one step
    further; blog (only one way out for a sea region, and guessing made local).
    """
    return _sea_exit_split(state, "sea-exit-cases", case_rows())


def _sea_exit_split(state: State, name: str, rows: tuple[Technique, ...]) -> Step | None:
    if state.light:  # not inside suppositions: a trial follows its own cases
        return None
    a = state.analysis()
    parts = a.sea_parts()
    total = _total_black(state)
    if len(parts) < 2 and (total is None or total <= state.black.bit_count()):
        return None
    grid = state.grid
    for part, exits in _fewest_first(
        [(part, grid.border(part) & a.unknown) for part in parts], CASE_OPTIONS
    ):
        step = _split(
            state,
            rows,
            name,
            f"the black region at {grid.name(_touching(grid, part, exits))} must leave through",
            exits,
            _first_of(exits, black=True),
            part,
        )
        if step is not None:
            return step
    return None


def orphan_exit_cases(state: State) -> Step | None:
    """A white cell without a clue and two ways out: what both ways lead to holds.

    The cell must reach a clue, so one of its two exits is white; each is followed for
    four rounds of simple steps, as in `sea-exit-cases`.
    ::

        # . a ?        the dot joins a clue through a or b; if both ways
        # b x ?        make x black, x is black
    Source: game rules 0 and 16 (a clueless white's only exit) taken one step further.
    """
    return _orphan_exit_split(state, "orphan-exit-cases", case_rows())


def _orphan_exit_split(state: State, name: str, rows: tuple[Technique, ...]) -> Step | None:
    if state.light:  # not inside suppositions: a trial follows its own cases
        return None
    a = state.analysis()
    grid = state.grid
    for orphan in a.orphans:
        exits = grid.border(orphan) & a.unknown
        if exits.bit_count() != 2:
            continue
        step = _split(
            state,
            rows,
            name,
            f"the white cell{'s' if orphan & (orphan - 1) else ''} at "
            f"{name_cells(grid, orphan, limit=3)} must reach a clue through",
            exits,
            _first_of(exits, black=False),
            orphan,
        )
        if step is not None:
            return step
    return None


def island_exit_cases(state: State) -> Step | None:
    """An island lacking cells with two to four ways out: what every way leads to holds.

    The island must grow through one of its exits, so one of them is white: the first;
    or, the first black, the second; and so on. Each case is followed for four rounds
    of simple steps, as in `sea-exit-cases`; this reaches islands with too many shapes
    for `island-options`, such as big clues.
    ::

        # # # #        the 9 grows through a or b. With a black and b white, the
        # 9 a ?        black cell x can no longer reach the sea: a is white
        # b # x
    Source: game rule 0 (an island's only exit) taken one step further; blog (only one
    way out for an incomplete island, and guessing made local).
    """
    return _island_exit_split(state, "island-exit-cases", case_rows())


def _island_exit_split(state: State, name: str, rows: tuple[Technique, ...]) -> Step | None:
    if state.light:  # not inside suppositions: a trial follows its own cases
        return None
    a = state.analysis()
    growing = [(island, _exits(a, island)) for island in a.islands if island.least > 0]
    for island, exits in _fewest_first(growing, CASE_OPTIONS):
        step = _split(
            state,
            rows,
            name,
            f"{_clue_text(state, island)} must grow through",
            exits,
            _first_of(exits, black=False),
            island.mask,
        )
        if step is not None:
            return step
    return None


def pool_cases(state: State) -> Step | None:
    """A 2x2 block with no white cell and two to four unknown ones: what whitening each
    unknown one leads to holds.

    One of the open cells is white. Each is supposed white and followed for four rounds
    of simple steps; blocks with fewer open cells are split first.
    ::

        # #          a or b is white. Each is followed for four rounds of simple
        a b          steps: a cell both make black is black; if a breaks a rule,
                     b is white
    Source: game rules 14 and 15 (2x2 would be completed, potential pool) taken one step
    further; blog (guessing made local).
    """
    return _pool_split(state, "pool-cases", case_rows())


def _pool_split(state: State, name: str, rows: tuple[Technique, ...]) -> Step | None:
    if state.light:  # not inside suppositions: a trial follows its own cases
        return None
    a = state.analysis()
    grid = state.grid
    black = state.black
    unknown = a.unknown
    blocks = [(c, grid.block(c)) for c in bits(grid.pool_corners(black | unknown))]
    for corner, open_cells in _fewest_first(
        [(corner, block & unknown) for corner, block in blocks], CASE_OPTIONS
    ):
        block = grid.block(corner)
        step = _split(
            state,
            rows,
            name,
            f"the 2x2 block at {grid.name(corner)} needs a white cell at",
            open_cells,
            _first_of(open_cells, black=False),
            block & black,
        )
        if step is not None:
            return step
    return None


def _diverse(cases: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """`cases` reordered so that the first few already disagree on every cell (greedily),
    which lets a split that finds nothing stop after a few cases."""
    if len(cases) <= 2:
        return cases
    # Each case as one mask, its white cells above its black ones, so that the cells it
    # shares with those taken are counted in one go (in C: `map` over the masks).
    shift = max(black.bit_length() for black, _ in cases)
    rest = list(cases)
    packed = [white << shift | black for black, white in rest]
    out = [rest.pop(0)]
    common = packed.pop(0)
    while rest and common:
        # The first case sharing fewest cells with those taken.
        shared = list(map(int.bit_count, map(common.__and__, packed)))
        best = shared.index(min(shared))
        out.append(rest.pop(best))
        common &= packed.pop(best)
    return out + rest


def island_options(state: State) -> Step | None:
    """An island with few possible shapes: what every shape leads to holds.

    Each possible completion (see `completion-common-cell`) is supposed, with its border
    black, and followed for four rounds of simple steps. Shapes that break a rule are out;
    a cell that all the others make the same color has that color.
    ::

        # 2 a .        the 2 takes a or b. With b, y borders it; with a, the black
        # b y #        cell x can only leave through y: y is black either way
        # # # x
    Source: blog (cell bordered by every completion, guessing made local), game rule 9
    (all routes of an island border a cell); "if this island goes left it blocks ...".
    """
    return _island_split(state, "island-options", case_rows())


def _island_split(
    state: State,
    name: str,
    rows: tuple[Technique, ...],
    *,
    shapes: int = CASE_SHAPES,
    work: int = CASE_WORK,
) -> Step | None:
    if state.light:  # not inside suppositions: a trial follows its own cases
        return None
    a = state.analysis()
    comps = _completion_cache(state)
    grid = state.grid
    dilate = grid.dilate
    for clue, kept in sorted(comps.items(), key=lambda kv: len(kv[1])):
        n = len(kept)
        if n < 2:
            continue
        if n > shapes or n * grid.size > work:
            break
        black, white, alive = _by_cases(state, _diverse([(dilate(c) & ~c, c) for c in kept]), rows)
        island = a.island_at[clue]
        if not alive:
            return contradiction(
                state,
                name,
                island.mask,
                f"Every possible shape of {_clue_text(state, island)} soon breaks a rule.",
            )
        if not black | white:
            continue
        painted = _painted(grid, black, white)
        if len(alive) == n:
            how = f", and all of them make {painted}"
        elif len(alive) == 1:
            how = f"; all but one soon break a rule, and that one makes {painted}"
        else:
            out = n - len(alive)
            how = (
                f"; {out} soon break{'s' if out == 1 else ''} a rule, and the other "
                f"{len(alive)} all make {painted}"
            )
        return _step(
            state,
            name,
            f"{_cap(_clue_text(state, island))} has {n} possible shapes{how}.",
            black=black,
            white=white,
            premises=island.mask,
            cases=n,
        )
    return None


def deep_cases(state: State) -> Step | None:
    """The case splits again, each case now followed with the tier 3 techniques too.

    Tried only when no other technique applies: the same splits as `sea-exit-cases`,
    `pool-cases`, `orphan-exit-cases`, `island-exit-cases` and `island-options`, but each
    case is followed for `DEEP_ROUNDS` rounds (not four), which also list island shapes
    (as `completion-common-cell` does), so a case can end on "this island has no shape
    left" or on a longer chain. Last, the islands with
    too many shapes for `island-options` (up to `DEEP_SHAPES`) are split, each shape
    followed by simple steps only.
    ::

        # 3 a ?        a or b is white; with a, the 3 has no shape left that
        # b ? ?        keeps the sea connected: b is white
    Source: the case splits above; blog (cell every completion must use), guessing
    made local.
    """
    for split in (
        _sea_exit_split,
        _pool_split,
        _orphan_exit_split,
        _island_exit_split,
        _island_split,
    ):
        step = split(state, "deep-cases", deep_rows())
        if step is not None:
            return step
    # Last, the islands with too many shapes for `island-options` (simple steps only).
    return _island_split(state, "deep-cases", case_rows(), shapes=DEEP_SHAPES, work=DEEP_WORK)
