"""Trial steps: when no technique applies, suppose a color and refute it.

A trial supposes that one unknown cell has one color, runs the plain techniques
(and, at depth 2, depth-1 trials inside the supposition; at depth 3, trials of depth
1 and 2) until a contradiction appears, and then concludes that the cell has the
other color. The search deepens the nesting one level at a time, so the step it
returns uses the least nesting depth that works; at depth 1 it lets all chains grow
by steps together, so the chain is a shortest one.

What keeps it affordable (a supposition is followed by re-running technique scans):

- the likeliest cells first (island and sea exits), and the cheap techniques first;
  the costlier rows (the tier 4 case splits) continue each supposition only where the
  cheap ones stall;
- at depth 2, the suppositions whose consequences clash with those of others first
  (inside them a depth-1 trial is bound to work), every depth-1 trial an inner search
  finds taken at once, and inner searches only near what the outer supposition changed;
- when that guided pass fails, the exact engine orders the outer suppositions (the
  `Guide` of `logic.guide`, which asks the compiled core through `solver.refuter`):
  it solves the position once, so the suppositions that agree with the unique
  solution (which no sound chain can refute) are skipped, and those it refutes itself
  (at the root by propagation alone, then by probing, then within a few search nodes)
  are followed, with inner searches on every cell at once, anywhere on the grid; the
  others are left to the depth-3 search, which labels a chain that needed only
  depth-1 trials inside a depth-2 step. The core only picks the candidates; each step
  is still found and explained by the techniques. Without a unique solution (proven
  within the guide's work), the order is the one above and every supposition is
  followed;
- depth 3 is tried only when the whole depth-2 search fails, and only with the
  guide: the outer suppositions are those the core refutes within a few search nodes
  (fewest first, in passes of growing node limits that carry the core's searches
  on; the core's root probing starts near the supposition), and inside each, at
  every stall, a depth-1 search on every cell, then a depth-2 search over the inner
  suppositions the core refutes at their root (the position inside has no solution,
  so every one is refutable). What those inner searches find at a stalled position
  (a step, or nothing) is remembered for the walkthrough: chains of different
  suppositions, and of later positions, often stall at the very same position.

Every search has a budget of technique scans and of CPU time, so a trial can give up
but never runs away. This module owns the search (`find_trial`) and its budget
(`TrialBudget`); the guide owns what the core is asked.

Imports `grid`, `limits`, `puzzle`, `logic.state`, `logic.steps`, `logic.techniques`,
`logic.chains`, `logic.guide` and, for the `Supposition` type, `solver.refuter`.
"""

from __future__ import annotations

import time
from typing import cast

from ..grid import bits
from ..limits import OutOfBudget, OutOfTime
from ..puzzle import Color
from ..solver.refuter import Supposition
from .chains import clash_step, replay, suppose, trial_step
from .guide import GUIDE_WORK, Guide, remembering
from .state import State, past
from .steps import Step
from .techniques import TECHNIQUES, Technique, find_contradiction

__all__ = ["MAX_DEPTH", "TrialBudget", "find_trial"]

MAX_DEPTH = 3
"""Deepest nesting of suppositions the engine tries."""

CHEAP_TIER3 = ("completion-common-cell", "completion-common-border", "completion-unreachable")
"""The tier 3 techniques (island shapes), cheap enough to follow every supposition with;
the tier 4 case splits run inside suppositions only once these stall (see `_search`)."""

FIRST_CELLS = 16
"""A depth-1 search first supposes only this many cells (the likeliest, see `_candidates`)."""

GUIDED_FOUND = 2
"""The guided depth-2 pass stops after this many refutations (and keeps the shortest)."""

CHAIN_CAPS = (2, 5, 12, 30, 80)
"""Longest chains tried in each pass (the shortest chain that works is found first)."""


def _check_time(deadline: float | None) -> None:
    """Raise `OutOfTime` once the CPU time passes `deadline` (None: never)."""
    if deadline is not None and past(deadline):
        raise OutOfTime


class TrialBudget:
    """How many technique scans a trial search may still make, and until when (CPU time).

    The scans are counted work: running out of them ends the search without a step, the
    same on every machine. The time only stops the search (`OutOfTime`, which ends the
    walkthrough as stopped); it never changes which step is found."""

    __slots__ = ("deadline", "depth", "scans")

    def __init__(self, scans: int, seconds: float | None = None) -> None:
        self.scans = scans
        self.deadline = None if seconds is None else time.thread_time() + seconds
        self.depth = 1
        """The nesting depth the search has got to (to say where it stopped)."""

    def spend(self) -> None:
        """Count one scan; raise `OutOfBudget` when the scans run out, `OutOfTime` when
        the time does."""
        self.scans -= 1
        if self.scans < 0:
            raise OutOfBudget
        _check_time(self.deadline)


def _rows(max_tier: int, *, cheap: bool) -> tuple[Technique, ...]:
    """The techniques a supposition is followed with: every row up to `max_tier`, or with
    `cheap`, the tiers 1-2 and the island-completion rows of tier 3 (any costlier rows
    run only once the cheap ones have nothing more to say). The tier 4 case splits are
    left out: they make no step inside a supposition (a trial follows its own cases),
    so scanning them there would only cost a pass over every supposition."""
    return tuple(
        t
        for t in TECHNIQUES
        if t.tier <= min(max_tier, 3) and (not cheap or t.tier <= 2 or t.id in CHEAP_TIER3)
    )


def _plain(state: State, rows: tuple[Technique, ...]) -> Step | None:
    for row in rows:
        step = row.func(state)
        if step is not None:
            return step
    return None


def _closure(
    state: State, rows: tuple[Technique, ...], limit: int, budget: TrialBudget
) -> tuple[list[Step], Step | None, bool]:
    """Apply plain steps (from `rows`) until a contradiction, a stall or `limit` steps.

    Returns the steps, the contradiction (or None), and whether it stalled (no step left).
    """
    steps: list[Step] = []
    while True:
        found = find_contradiction(state)
        if found is not None:
            return steps, found, False
        if len(steps) >= limit:
            return steps, None, False
        budget.spend()
        step = _plain(state, rows)
        if step is None:
            return steps, None, True
        if step.kind == "contradiction":
            return steps, step, False
        steps.append(step)
        state.decide(step.black_mask, step.white_mask)


def _candidates(state: State) -> list[int]:
    """Unknown cells in the order suppositions are tried: the exits of islands (those
    lacking fewest cells first), then the exits of black regions, then cells touching
    decided cells, then the rest."""
    grid = state.grid
    unknown = state.unknown
    a = state.analysis()
    order: list[int] = []
    taken = 0
    for island in sorted(a.islands, key=lambda i: i.most):
        if island.most > 0:
            exits = island.border & island.allowed & ~taken
            order.extend(bits(exits))
            taken |= exits
    for part in a.sea_parts():
        exits = grid.border(part) & unknown & ~taken
        order.extend(bits(exits))
        taken |= exits
    near = grid.dilate(state.black | state.white) & unknown & ~taken
    order.extend(bits(near))
    order.extend(bits(unknown & ~taken & ~near))
    return order


def _search_depth_one(
    state: State,
    rows: tuple[Technique, ...],
    budget: TrialBudget,
    caps: tuple[int, ...],
    seen: dict[Supposition, tuple[State, list[Step]]] | None = None,
    stalled: set[Supposition] | None = None,
) -> Step | None:
    """The depth-1 trial step with a shortest chain, or None (see `_depth_one`)."""
    found = _depth_one(state, rows, budget, caps, seen, stalled=stalled)
    return found[0] if found else None


def _depth_one(
    state: State,
    rows: tuple[Technique, ...],
    budget: TrialBudget,
    caps: tuple[int, ...],
    seen: dict[Supposition, tuple[State, list[Step]]] | None = None,
    *,
    near: int = -1,
    collect: bool = False,
    first: int | None = None,
    keep: bool = False,
    stalled: set[Supposition] | None = None,
) -> list[Step]:
    """Depth 1, resumably: each supposition's chain is extended pass by pass (never
    recomputed), and a supposition whose chain stalls without a contradiction is dropped.
    Returns the trial step with the shortest chain of the first pass that finds one, or
    with `collect`, every trial step that pass finds (shortest first).

    When no supposition meets a contradiction and `seen` is given, it receives every
    supposition's state and chain as far as they got (for the depth-2 search), and a
    later call with the same `seen` carries them on (with `keep`, it receives those
    that met none also when some did). Only the cells of `near` are supposed, and of
    those only the `first` in `_candidates` order. The suppositions of `stalled` stalled
    with the same `rows` in an earlier call and are not scanned again; those that stall
    now are added to it."""
    # Carry on from where an earlier pass (with fewer techniques or fewer cells) left each
    # supposition it made; suppose the other cells afresh.
    pending: list[tuple[int, Color, State, list[Step]]] = []
    if seen:
        pending = [
            (cell, color, s, chain)
            for (cell, color), (s, chain) in seen.items()
            if stalled is None or (cell, color) not in stalled
        ]
    cells = [cell for cell in _candidates(state) if near >> cell & 1]
    pending += [
        (cell, color, suppose(state, cell, color), [])
        for cell in cells[:first]
        for color in (Color.BLACK, Color.WHITE)
        if not seen or (cell, color) not in seen
    ]
    everything = list(pending)
    try:
        for cap in caps:
            found_here: list[tuple[int, int, Color, list[Step]]] = []
            shortest = cap + 1
            kept = []
            for cell, color, s, chain in pending:
                limit = cap if collect else min(cap, shortest - 1)
                if len(chain) >= limit:
                    kept.append((cell, color, s, chain))
                    continue
                steps, found, stuck = _closure(s, rows, limit - len(chain), budget)
                chain += steps
                if found is not None:
                    full = [*chain, found]
                    found_here.append((len(full), cell, color, full))
                    shortest = min(shortest, len(full))
                elif not stuck:
                    kept.append((cell, color, s, chain))
                elif stalled is not None:
                    stalled.add((cell, color))
            if found_here:
                found_here.sort(key=lambda entry: entry[0])
                if not collect:
                    del found_here[1:]
                if keep and seen is not None:
                    refuted = {(cell, color) for _, cell, color, _ in found_here}
                    for cell, color, s, chain in everything:
                        if (cell, color) not in refuted:
                            seen[cell, color] = (s, chain)
                return [
                    trial_step(state, cell, color, 1, full) for _, cell, color, full in found_here
                ]
            pending = kept
            if not pending:
                break
    except OutOfTime:
        if seen is not None:
            # How far each supposition got (a chain grows by whole steps only), for
            # `_search` to keep.
            for cell, color, s, chain in everything:
                seen[cell, color] = (s, chain)
        raise
    if seen is not None:
        for cell, color, s, chain in everything:
            seen[cell, color] = (s, chain)
    return []


def _predicted(
    state: State, seen: dict[Supposition, tuple[State, list[Step]]]
) -> dict[Supposition, list[Supposition]]:
    """For each supposition, the suppositions whose plain consequences clash with its own.

    If supposing A decides some cells and supposing B decides a cell the other way (or the
    two together close a pool), A and B cannot both hold, so inside A a depth-1 trial on B
    is bound to succeed. These pairs are where a depth-2 trial looks first."""
    base_black, base_white = state.black, state.white
    pool_corners = state.grid.pool_corners
    items = [(key, s.black & ~base_black, s.white & ~base_white) for key, (s, _) in seen.items()]
    # Index the suppositions by the cells they decide, per color, so each clash is found
    # from a cell rather than by trying every pair.
    by_black: dict[int, list[int]] = {}
    by_white: dict[int, list[int]] = {}
    for n, (_, black, white) in enumerate(items):
        for i in bits(black):
            by_black.setdefault(i, []).append(n)
        for i in bits(white):
            by_white.setdefault(i, []).append(n)
    out: dict[Supposition, list[Supposition]] = {}
    for n, (key, black, white) in enumerate(items):
        clash: set[int] = set()
        for i in bits(black):
            clash.update(by_white.get(i, ()))
        for i in bits(white):
            clash.update(by_black.get(i, ()))
        near = state.grid.dilate(state.grid.dilate(black))
        for m, (other, black2, _) in enumerate(items):
            if (
                m != n
                and m not in clash
                and other[0] != key[0]
                and black2 & near
                and pool_corners(base_black | black | black2)
            ):
                clash.add(m)
        found = [items[m][0] for m in sorted(clash) if items[m][0][0] != key[0]]
        if found:
            out[key] = found
    return out


def _refute_inside(
    s: State,
    chain: list[Step],
    inners: list[Supposition],
    rows: tuple[Technique, ...],
    limit: int,
    budget: TrialBudget,
    *,
    widths: tuple[int | None, ...] = (),
    known: int = 0,
    seed: dict[Supposition, tuple[State, list[Step]]],
) -> bool:
    """Carry a supposition's chain on to a contradiction with depth-1 trials inside it.

    `s` and `chain` are the supposition's state and chain so far (extended in place);
    `seed` holds the depth-1 chains outside it, replayed inside (see `replay`).
    Inner trials are tried on the suppositions of `inners` first; then depth-1 searches
    on cells near those decided since `known`, on the likeliest of them first: as many
    as each of `widths` says (None: all). Returns whether a contradiction came.
    """
    tried: set[Supposition] = set()
    # The inner suppositions' chains as far as they got, replayed in later inner searches
    # (the position inside the outer supposition only grows, so they still follow).
    inner_chains: dict[Supposition, list[Step]] = {}
    while len(chain) < limit:
        inner_step = None
        for inner in inners:
            if inner in tried or not s.unknown >> inner[0] & 1:
                continue
            tried.add(inner)
            earlier = seed.get(inner)
            steps: list[Step]
            found: Step | None
            if earlier is None:
                t, steps, found = suppose(s, *inner), [], None
            else:
                t, steps, found = replay(s, *inner, earlier[1])
            if found is None:
                more, found, _ = _closure(t, rows, CHAIN_CAPS[-2] - len(steps), budget)
                steps += more
            if found is not None:
                inner_step = trial_step(s, inner[0], inner[1], 1, [*steps, found])
                break
        inner_steps = [] if inner_step is None else [inner_step]
        if not inner_steps and widths:
            # Suppositions far from what the outer one changed fail as they did outside it.
            # Every inner trial step the pass finds is taken at once (fewer searches).
            grid = s.grid
            near = grid.dilate(grid.dilate(grid.dilate((s.black | s.white) & ~known)))
            inner_seen: dict[Supposition, tuple[State, list[Step]]] = {}
            replayed: list[tuple[int, Supposition, list[Step]]] = []
            for key, steps in inner_chains.items():
                if s.unknown >> key[0] & 1:
                    t, again, found = replay(s, *key, steps)
                    if found is not None:
                        replayed.append((len(again) + 1, key, [*again, found]))
                    else:
                        inner_seen[key] = (t, again)
            if replayed:
                replayed.sort(key=lambda entry: entry[0])
                inner_steps = [trial_step(s, *key, 1, steps) for _, key, steps in replayed]
            inner_stalled: set[Supposition] = set()
            for first in widths if not replayed else ():
                inner_steps = _depth_one(
                    s,
                    rows,
                    budget,
                    CHAIN_CAPS[:-1],
                    inner_seen,
                    near=near,
                    collect=True,
                    first=first,
                    keep=True,
                    stalled=inner_stalled,
                )
                if inner_steps:
                    break
            inner_chains = {key: steps for key, (_, steps) in inner_seen.items()}
        if not inner_steps:
            return False
        if _carry_on(s, chain, inner_steps, rows, limit, budget):
            return True
    return False


def _carry_on(
    s: State,
    chain: list[Step],
    inner_steps: list[Step],
    rows: tuple[Technique, ...],
    limit: int,
    budget: TrialBudget,
) -> bool:
    """Add the inner trial steps to a supposition's chain (`s` and `chain`, changed in
    place) and follow plain logic from there, up to `limit` steps in all. Returns
    whether a contradiction came (the chain then ends with it)."""
    for inner_step in inner_steps:
        chain.append(inner_step)
        clash = (inner_step.black_mask & s.white) | (inner_step.white_mask & s.black)
        if clash:
            chain.append(clash_step(s.grid, clash))
            return True
        s.decide(inner_step.black_mask, inner_step.white_mask)
    steps, found, _ = _closure(s, rows, limit - len(chain), budget)
    chain += steps
    if found is not None:
        chain.append(found)
        return True
    return False


def _search_depth_two(
    state: State,
    rows: tuple[Technique, ...],
    budget: TrialBudget,
    seen: dict[Supposition, tuple[State, list[Step]]],
    guide: Guide | None,
) -> Step | None:
    """Depth 2: suppose A, follow plain logic, and inside it make depth-1 trials until a
    contradiction comes.

    First a guided pass: inner trials only on the suppositions predicted to clash with A
    (`_predicted`), outer suppositions clashing with the most others first; among the
    first few refutations found, the shortest chain wins. Then, while the budget lasts,
    a full pass: inside each outer supposition, a depth-1 search at every stall. With
    a `guide`, the full pass follows only the suppositions it favours (see
    `Guide.favoured`); without one, every supposition (first with inner searches on
    the likeliest cells only, in a second pass on all)."""
    predicted = _predicted(state, seen)
    # An outer supposition that agrees with the unique solution is never refuted.
    order = sorted(
        (key for key in predicted if guide is None or guide.refutable(key)),
        key=lambda key: -len(predicted[key]),
    )
    best: tuple[int, Supposition, list[Step]] | None = None
    found_count = 0
    for key in order:
        s0, chain0 = seen[key]
        s, chain = s0.copy(), list(chain0)
        limit = CHAIN_CAPS[-1] if best is None else best[0] - 1
        if _refute_inside(s, chain, predicted[key], rows, limit, budget, seed=seen):
            found_count += 1
            if best is None or len(chain) < best[0]:
                best = (len(chain), key, chain)
            if found_count >= GUIDED_FOUND:
                break
    if best is None:
        # Outer suppositions that decide the most cells on their own go first.
        known = state.black | state.white
        rest = sorted(
            seen,
            key=lambda key: (
                -len(predicted.get(key, ())),
                -(seen[key][0].black | seen[key][0].white).bit_count(),
            ),
        )

        def refute(key: Supposition, widths: tuple[int | None, ...], known: int = known) -> bool:
            nonlocal best
            s0, chain0 = seen[key]
            s, chain = s0.copy(), list(chain0)
            if _refute_inside(
                s,
                chain,
                predicted.get(key, []),
                rows,
                4 * CHAIN_CAPS[-1],
                budget,
                widths=widths,
                known=known,
                seed=seen,
            ):
                best = (len(chain), key, chain)
            return best is not None

        if guide is not None:
            # Only the suppositions the exact engine refutes (at the root, or within
            # GUIDE_NODES while its work lasts), with inner searches on all cells at once,
            # anywhere on the grid (a change far from what the outer supposition decided,
            # in counting or in the sea's connectivity, can still tell). A chain the core
            # ranks later is the depth-3 search's to find (see `_search_depth_three`).
            for key in guide.favoured(rest, FIRST_CELLS):
                if refute(key, (FIRST_CELLS, None), 0):
                    break
        else:
            # Unguided: every supposition, with inner searches on the likeliest cells
            # only (cheap), then on all.
            for widths in ((FIRST_CELLS,), (FIRST_CELLS, None)):
                if best is not None:
                    break
                for key in rest:
                    if refute(key, widths):
                        break
    if best is None:
        return None
    return trial_step(state, best[1][0], best[1][1], 2, best[2])


DEEP_NODES = (*range(4, 33, 4), *range(40, 65, 8), *range(80, 129, 16), *range(160, 257, 32))
"""At depth 3, the outer suppositions the exact engine refutes within this many search
nodes are followed, in passes (fewest nodes first). Each pass carries on the searches
the one before stopped, so the suppositions come in the same order as from one pass of
256 nodes, and a pass is run only when no supposition of the passes before worked: the
finer the passes, the sooner the ranking stops past the fewest nodes any supposition
needs. (It was 4, 8, 16, ... 256: with these, janko 1091's walkthrough is the same and
8% faster, run side by side; passes of one node gave no more.)"""

DEEP_GUIDE_WORK = 30 * GUIDE_WORK
"""Work (see `GUIDE_WORK`) the exact engine may do for a depth-3 search: solving the
position and ranking its outer suppositions (about a minute; the walkthrough's CPU
time bounds the search too)."""


STALLS = "deep-stalls"
"""Key in `State.case_memo` (one walkthrough's, shared by its copies), with the number
of techniques followed, of what the depth-3 search's inner searches found at the
positions where a chain stalled: the trial step, or None when neither a depth-1 nor a
depth-2 search found one."""


def _stalls(state: State, rows: tuple[Technique, ...]) -> dict[tuple[int, int], Step | None]:
    """The walkthrough's memory of the inner searches at stalled positions, following
    suppositions with `rows` (see `STALLS`)."""
    store = state.case_memo.get((STALLS, len(rows)))
    if store is None:
        store = state.case_memo[STALLS, len(rows)] = {}
    return cast("dict[tuple[int, int], Step | None]", store)


def _refute_deep(
    s: State,
    chain: list[Step],
    rows: tuple[Technique, ...],
    limit: int,
    budget: TrialBudget,
    seed: dict[Supposition, tuple[State, list[Step]]],
) -> bool:
    """Carry a supposition's chain on to a contradiction with trials of depth 1 and 2
    inside it (each time the least depth that works). `s` and `chain` are the
    supposition's state and chain so far (extended in place); `seed` holds the depth-1
    chains outside it, replayed inside. Returns whether a contradiction came.

    The inner depth-2 searches follow only the suppositions the exact engine refutes
    at their root (the position has no solution, so its ranking is all that guides).
    What the inner searches find at a stall is remembered for the walkthrough
    (`STALLS`): a chain that stalls at a position met before takes the same step, or
    fails, without searching again. Over janko 1108's walkthrough 15 of 173 inner
    depth-2 searches repeated one, to the cell, and took 35% of their scans; the
    walkthrough is the same, 54 s instead of 64 s (bench/results/logic-engine-log.md,
    session 20)."""
    chains = {key: steps for key, (_, steps) in seed.items()}
    stalls = _stalls(s, rows)
    while len(chain) < limit:
        at = (s.black, s.white)
        if at in stalls:
            step = stalls[at]
        else:
            inner_seen = _replayed(s, chains)
            step = _search_depth_one(s, rows, budget, CHAIN_CAPS[:-1], inner_seen)
            if step is None:
                guide = Guide.inside(s, budget.deadline)
                step = _search_depth_two(s, rows, budget, inner_seen, guide)
            stalls[at] = step
            if step is not None:
                chains = {key: steps for key, (_, steps) in inner_seen.items()}
        if step is None:
            return False
        if _carry_on(s, chain, [step], rows, limit, budget):
            return True
    return False


def _search_depth_three(
    state: State,
    rows: tuple[Technique, ...],
    budget: TrialBudget,
    seen: dict[Supposition, tuple[State, list[Step]]],
) -> Step | None:
    """Depth 3: suppose A, follow plain logic, and inside it make trials of depth 1 and
    2 until a contradiction comes. Only with the exact engine's guide: the outer
    suppositions are those it refutes within `DEEP_NODES` search nodes, fewest first
    (without it, a search this deep over every cell would not end in time).

    The core is asked with its root probing near each supposition (`Guide.make` with
    `local`), as below the root: the nodes then count what refuting the supposition
    takes, not what probing the rest of the position finds. Measured side by side with
    root probing on every cell (bench/results/logic-engine-log.md, session 19): every corpus and
    collection walkthrough with depth-3 steps needs fewer of them (janko 1091 9 instead
    of 19, janko 1108 24 instead of 26), and janko 1091 takes 48 s instead of 123 s,
    though janko 1108 takes 65-74 s instead of 47 s. The depth-2 search's guide asks
    the usual way, so the two share no paused searches."""
    guide = Guide.make(state, budget.deadline, DEEP_GUIDE_WORK, local=True)
    if guide is None:
        return None
    for key in guide.ranked(list(seen), DEEP_NODES):
        s0, chain0 = seen[key]
        s, chain = s0.copy(), list(chain0)
        if _refute_deep(s, chain, rows, 4 * CHAIN_CAPS[-1], budget, seen):
            # Depth 3 when a depth-2 trial was needed inside (a chain that needed only
            # depth-1 trials, which the depth-2 search missed, is a depth-2 trial).
            depth = 1 + max(step.trial_depth for step in chain)
            return trial_step(state, key[0], key[1], depth, chain)
    return None


def _search(state: State, max_depth: int, max_tier: int, budget: TrialBudget) -> Step | None:
    """Iterative deepening: depth 1 with the cheap techniques (on the likeliest cells,
    then on all), then with all techniques (continuing each supposition where it
    stalled), then depth 2, then depth 3."""
    seen = _earlier_chains(state)
    cheap = _rows(max_tier, cheap=True)
    full = _rows(max_tier, cheap=False)
    stalled: set[Supposition] = set()
    try:
        # The most promising cells first: most trial steps are found among them, and
        # the other suppositions are then never followed far.
        first = _depth_one(
            state, cheap, budget, CHAIN_CAPS, seen, first=FIRST_CELLS, stalled=stalled
        )
        if first:
            return first[0]
        found = _search_depth_one(state, cheap, budget, CHAIN_CAPS, seen, stalled)
        if found is None and full != cheap:
            found = _search_depth_one(state, full, budget, CHAIN_CAPS, seen)
    except OutOfTime:
        # A search cut short (a hint's time) leaves its chains to the next search from
        # a later position, which carries them on: the game's next hint gets further.
        _keep_chains(state, seen)
        raise
    if found is None and max_depth >= 2:
        budget.depth = 2
        _keep_chains(state, seen)
        found = _search_depth_two(state, cheap, budget, seen, Guide.make(state, budget.deadline))
    if found is None and max_depth >= 3:
        budget.depth = 3
        found = _search_depth_three(state, cheap, budget, seen)
    return found


EARLIER_CHAINS = "trial-chains"
"""Key in `State.memo` of the depth-1 chains of the last search that went on to depth 2
(or ran out of time before)."""


def _keep_chains(state: State, seen: dict[Supposition, tuple[State, list[Step]]]) -> None:
    """Keep the depth-1 chains of `seen` for a later search (see `_earlier_chains`)."""
    chains = {key: chain for key, (_, chain) in seen.items()}
    state.memo[EARLIER_CHAINS] = (state.black, state.white, chains)


def _earlier_chains(state: State) -> dict[Supposition, tuple[State, list[Step]]]:
    """The depth-1 chains of the last search from a position `state` extends, replayed
    from `state` (see `replay`), so that a search at the next step of a walkthrough
    carries them on instead of starting afresh. Chains that meet a contradiction on
    the way are left out: those suppositions are searched afresh, for a shortest chain.
    """
    stored = state.memo.get(EARLIER_CHAINS)
    if stored is None:
        return {}
    black, white, chains = cast("tuple[int, int, dict[Supposition, list[Step]]]", stored)
    if state.black & black != black or state.white & white != white:
        return {}
    return _replayed(state, chains)


def _replayed(
    state: State, chains: dict[Supposition, list[Step]]
) -> dict[Supposition, tuple[State, list[Step]]]:
    """The suppositions of `chains` still open in `state`, each with its chain replayed
    from there (see `replay`), but for those whose chain meets a contradiction on the
    way (searched afresh, for a shortest chain)."""
    seen: dict[Supposition, tuple[State, list[Step]]] = {}
    for key, chain in chains.items():
        if state.unknown >> key[0] & 1:
            s, steps, found = replay(state, *key, chain)
            if found is None:
                seen[key] = (s, steps)
    return seen


def find_trial(
    state: State,
    *,
    max_depth: int = MAX_DEPTH,
    max_tier: int = 4,
    scans: int = 1_000_000,
    seconds: float | None = 20.0,
) -> Step | None:
    """The trial step with the least nesting depth and a shortest chain, or None.

    `max_tier` bounds the plain techniques used inside suppositions; `scans` bounds the
    work (a search that runs out of scans gives None) and `seconds` the CPU time.

    Raises:
        OutOfTime: the time ran out first (the search stopped; no step was found). Its
            message says at which depth.
    """
    if not state.unknown:
        return None
    budget = TrialBudget(scans, seconds)
    try:
        # the search's guides share the exact core's fixpoints (the same answers, sooner)
        with remembering(state):
            return _search(state, max_depth, max_tier, budget)
    except OutOfBudget:
        return None
    except OutOfTime:
        raise OutOfTime(f"in a depth-{budget.depth} trial search") from None
