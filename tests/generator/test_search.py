"""The generator's searches (`nurikabe.generator.search`): moves, evaluator, climbs, budgets.

Every layout the searches return is checked with the exact solver: its clues have one
solution, and that solution is the layout's own board. Moves are checked against the
invariants they promise, and the searches against their deadlines and seeds.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator

import pytest

from nurikabe import Limit, Status, solve
from nurikabe.generator.search import (
    Deadline,
    Evaluator,
    _other_near,
    changed_cells,
    deepen,
    exact_polish,
    grow_big,
    harden,
    is_unique,
    joins,
    merge,
    pinning_growths,
    polish,
    propose,
    puzzle_of,
    settle,
    unknown_after,
)
from nurikabe.generator.tiling import Layout, Profile, random_layout
from nurikabe.grid import popcount

KINDS = ("clue", "one", "grow", "cut", "reshape", "join", "merge", "drop")


def layout_of(seed: int, rows: int = 8, cols: int = 9, symmetry: str = "none") -> Layout:
    profile = Profile(max_island=7, mean_island=3.0)
    layout = random_layout(rows, cols, profile, random.Random(seed), symmetry=symmetry)
    assert layout is not None
    return layout


def assert_unique_with_its_board(layout: Layout) -> None:
    """The exact solver finds one solution to the layout's clues: the layout's board."""
    result = solve(puzzle_of(layout), limit=Limit(solutions=2, seconds=60))
    assert result.status is Status.UNIQUE
    assert result.solution is not None
    assert result.solution.black_mask == layout.black
    assert result.solution.white_mask == layout.white


def test_deadline() -> None:
    assert not Deadline(None).passed() and Deadline(None).left() is None
    assert Deadline(0).passed() or Deadline(0).left() == 0.0
    later = Deadline(60)
    left = later.left()
    assert left is not None and 59 < left <= 60 and not later.passed()
    soon = Deadline(0.01)
    time.sleep(0.02)
    assert soon.passed() and soon.left() == 0.0


@pytest.mark.parametrize("seed", range(3))
def test_settled_layouts_are_unique_puzzles(seed: int) -> None:
    rng = random.Random(seed)
    found = 0
    for _ in range(3):
        layout = layout_of(rng.randrange(1000))
        done = settle(layout, 2, rng, max_island=7, deadline=Deadline(60), steps=80)
        if done is None:
            continue
        found += 1
        assert done.is_valid(7)
        assert unknown_after(done, 2) == 0
        assert_unique_with_its_board(done)
    assert found


def test_settle_is_reproducible_from_its_seed() -> None:
    def run(seed: int) -> Layout | None:
        return settle(
            layout_of(4), 2, random.Random(seed), max_island=7, deadline=Deadline(60), steps=40
        )

    assert run(11) == run(11)


def test_hardened_layouts_need_their_tier() -> None:
    rng = random.Random(8)
    checked = 0
    for _ in range(4):
        ev = Evaluator()
        layout = layout_of(rng.randrange(1000), 9, 9)
        done = settle(layout, 3, rng, max_island=7, deadline=Deadline(60), ev=ev, steps=80)
        if done is None:
            continue
        hard = harden(done, 3, rng, max_island=7, deadline=Deadline(60), ev=ev, steps=60)
        if hard is None:
            continue
        checked += 1
        assert hard.is_valid(7)
        assert unknown_after(hard, 3) == 0
        assert unknown_after(hard, 2) != 0
        assert_unique_with_its_board(hard)
    assert checked


def test_polish_keeps_a_unique_puzzle() -> None:
    rng = random.Random(2)
    for _ in range(4):
        ev = Evaluator()
        done = settle(
            layout_of(rng.randrange(1000)),
            2,
            rng,
            max_island=7,
            deadline=Deadline(60),
            ev=ev,
            steps=80,
        )
        if done is None:
            continue
        out = polish(done, 2, rng, max_island=9, deadline=Deadline(60), clues=6, white=40, ev=ev)
        assert out.is_valid(9)
        assert out.clue_mask.bit_count() <= done.clue_mask.bit_count()
        assert_unique_with_its_board(out)
        return
    pytest.fail("no layout settled")


def test_searches_stop_at_their_deadline() -> None:
    layout = layout_of(5, 14, 14)
    assert unknown_after(layout, 1)  # not solved yet, so the climbs have work to do
    gone = Deadline(0)
    time.sleep(0.001)
    assert settle(layout, 1, random.Random(0), max_island=7, deadline=gone) is None
    solved = settle(layout_of(5), 2, random.Random(0), max_island=7, deadline=Deadline(60))
    assert solved is not None
    # Solved at tier 2: hardening it towards tier 3 has work to do, and no time.
    assert harden(solved, 3, random.Random(0), max_island=7, deadline=gone) is None
    kept = polish(solved, 2, random.Random(0), max_island=7, deadline=gone, clues=1, white=99)
    assert kept is solved
    # A short budget ends a long climb soon after it runs out (one evaluation late at most).
    began = time.process_time()
    settle(
        layout,
        4,
        random.Random(1),
        max_island=7,
        deadline=Deadline(0.5),
        steps=10_000,
        patience=10_000,
    )
    assert time.process_time() - began < 10


def test_evaluations_agree_with_the_solution() -> None:
    """Fresh and incremental deductions never contradict the layout's own board."""
    rng = random.Random(3)
    layout = layout_of(9, 10, 10)
    fresh, incremental = Evaluator(incremental=False), Evaluator()
    for tier in (1, 2, 3):
        unknown = fresh.exact(layout, tier)
        assert unknown == unknown_after(layout, tier)
        black, white = fresh.deduced(layout, tier)
        assert black & ~layout.black == 0 and white & ~layout.white == 0
    moves = 0
    while moves < 12:
        moved = propose(layout, rng, 0, KINDS)
        if moved is None or not moved.is_valid():
            continue
        moves += 1
        left = incremental.unknown(moved, 2, layout)
        black, white, _ = incremental.boards[(moved.white, moved.clue_mask, 2)]
        assert black & ~moved.black == 0 and white & ~moved.white == 0
        assert left == moved.grid.full & ~(black | white)
        # A fresh solve is what the estimate is checked against.
        assert incremental.exact(moved, 2) == fresh.exact(moved, 2)
        assert incremental.is_exact(moved, 2)


@pytest.mark.parametrize("symmetry", ["none", "rot180", "mirror"])
def test_valid_moves_keep_one_clue_per_island_and_the_symmetry(symmetry: str) -> None:
    layout = layout_of(6, 9, 11, symmetry)
    rng = random.Random(1)
    kinds_seen = set()
    for _ in range(300):
        kind = rng.choice(KINDS)
        moved = propose(layout, rng, 0, (kind,))
        if moved is None:
            continue
        assert moved.sigma == layout.sigma
        if symmetry != "none":
            assert moved.image(moved.clue_mask) == moved.clue_mask
        if kind == "clue":
            assert moved.white == layout.white
        if kind == "reshape" and symmetry == "none":  # (a cell on the axis has no pair)
            assert moved.white.bit_count() == layout.white.bit_count()
            assert moved.clue_mask == layout.clue_mask
        if moved.is_valid():
            kinds_seen.add(kind)
            layout = moved
    assert kinds_seen >= {"clue", "cut", "grow"}


def test_merge_keeps_one_of_the_joined_clues() -> None:
    layout = layout_of(3, 9, 9)
    grid = layout.grid
    merges = 0
    for cell in range(grid.size):
        if not layout.black >> cell & 1 or not joins(layout, cell):
            continue
        merged = merge(layout, cell, random.Random(cell))
        island = grid.flood(1 << cell, merged.white)
        assert (island & merged.clue_mask).bit_count() == 1
        assert island & merged.clue_mask & ~layout.clue_mask == 0
        assert merged.white == layout.white | 1 << cell
        merges += 1
    assert merges


def test_an_unknown_move_kind_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="teleport"):
        propose(layout_of(1), random.Random(0), 0, ("teleport",))


def _thrifty_settled(rng: random.Random) -> Iterator[tuple[Layout, Evaluator]]:
    """The boards (of 4 random 9x11 layouts) the large boards' thrifty climb settles at
    tier 2, each with its evaluator; drawn from `rng` one by one, as the test goes."""
    for _ in range(4):
        ev = Evaluator()
        done = settle(
            layout_of(rng.randrange(1000), 9, 11),
            2,
            rng,
            max_island=12,
            deadline=Deadline(60),
            ev=ev,
            steps=120,
            thrifty=True,
        )
        if done is not None:
            yield done, ev


def test_thrifty_climbs_and_big_joins_keep_a_unique_puzzle() -> None:
    """The large-board settings (a climb that holds back moves adding clues; a quality walk
    joining first and offering the joins that make the largest islands) still end on a
    valid, unique board solved at the tier, with no more clues than the climb left."""
    rng = random.Random(5)
    for done, ev in _thrifty_settled(rng):
        assert_unique_with_its_board(done)
        out = polish(
            done,
            2,
            rng,
            max_island=12,
            deadline=Deadline(60),
            clues=6,
            white=45,
            ev=ev,
            joins_first=True,
            big=12,
        )
        assert out.is_valid(12)
        assert out.clue_mask.bit_count() <= done.clue_mask.bit_count()
        assert unknown_after(out, 2) == 0
        assert_unique_with_its_board(out)
        return
    pytest.fail("no layout settled")


@pytest.mark.parametrize("reanchor", [1, 3])
def test_the_evaluator_solves_afresh_after_reanchor_estimates(reanchor: int) -> None:
    """A chain of estimates (each move scored from its parent's estimate) is cut by a
    fresh solve of the parent once it is `reanchor` estimates deep, and the estimates
    of a chain never contradict the moved layout's solution."""
    rng = random.Random(5)
    layout = layout_of(9, 10, 10)
    ev = Evaluator(reanchor=reanchor)
    ev.exact(layout, 2)
    depths = []
    while len(depths) < 2 * reanchor + 2:
        moved = propose(layout, rng, 0, KINDS)
        if moved is None or not moved.is_valid() or moved == layout:
            continue
        ev.unknown(moved, 2, layout)
        black, white, depth = ev.boards[(moved.white, moved.clue_mask, 2)]
        assert black & ~moved.black == 0 and white & ~moved.white == 0
        depths.append(depth)
        layout = moved
    # Depth 1 after a fresh solve, one more per estimate, back to 1 past `reanchor`.
    assert depths == [k % reanchor + 1 for k in range(len(depths))]


def test_is_unique_agrees_with_an_unbounded_exact_search() -> None:
    """`is_unique` is True only for puzzles the exact solver, without a node limit, finds
    unique; a node limit too small to finish a proof answers False, never True."""
    rng = random.Random(3)
    seen = {True: 0, False: 0}
    for k in range(12):
        layout = layout_of(rng.randrange(1000), 7, 7)
        if k % 2:  # a climbed board: unique
            layout = settle(layout, 2, rng, max_island=7, deadline=Deadline(60)) or layout
        full = solve(puzzle_of(layout), limit=Limit(solutions=2, seconds=None))
        assert full.status in (Status.UNIQUE, Status.MULTIPLE)
        answer = is_unique(layout, 100_000)
        assert answer == (full.status is Status.UNIQUE)
        seen[answer] += 1
        if not answer:
            assert not is_unique(layout, 1)
    assert seen[True] and seen[False]


def test_is_unique_near_a_move_answers_as_the_full_search() -> None:
    """Given the cells a move changed, `is_unique` first looks for a second solution near
    them; it answers exactly as the search of the whole board does, and the look near the
    move finds most second solutions on its own (a found one is a solution of the whole
    puzzle, other than the layout)."""
    rng = random.Random(11)
    near_found = answers = 0
    for _ in range(6):
        layout = settle(
            layout_of(rng.randrange(1000), 9, 9), 2, rng, max_island=7, deadline=Deadline(60)
        )
        if layout is None or not is_unique(layout, 100_000):
            continue
        for _ in range(40):
            moved = propose(layout, rng, 0, ("join", "drop", "clue", "clue"))
            if moved is None or moved == layout or not moved.is_valid():
                continue
            near = changed_cells(layout, moved)
            puzzle = puzzle_of(moved)
            full = is_unique(moved, 100_000)
            assert is_unique(moved, 100_000, near) == full
            if _other_near(moved, puzzle, near) is not None:
                near_found += 1
                assert not full
            answers += 1
    assert answers >= 40 and near_found >= 5


def test_exact_polish_keeps_a_unique_puzzle_solved_at_its_tier() -> None:
    """The huge boards' walk joins islands (fewer clues, no white cell lost) and ends on
    a valid board that is unique by the exact solver and solved by the logic engine at the
    tier it walked at; the same seed gives the same board."""
    rng = random.Random(5)
    for done, _ in _thrifty_settled(rng):

        def walk(seed: int, start: Layout = done) -> Layout:
            return exact_polish(
                start,
                3,
                random.Random(seed),
                max_island=12,
                deadline=Deadline(None),
                clues=5,
                ev=Evaluator(),
                steps=20,
            )

        out = walk(1)
        assert out.is_valid(12)
        assert out.clue_mask.bit_count() < done.clue_mask.bit_count()
        assert out.white.bit_count() >= done.white.bit_count()
        assert unknown_after(out, 3) == 0
        assert_unique_with_its_board(out)
        assert walk(1) == out
        return
    pytest.fail("no layout settled")


def _deepened(
    start: Layout,
    seed: int,
    accept: Callable[[Layout], bool],
    *,
    steps: int = 300,
    check_every: int = 1,
    ev: Evaluator | None = None,
) -> Layout | None:
    return deepen(
        start,
        2,
        random.Random(seed),
        max_island=12,
        deadline=Deadline(None),
        ev=Evaluator(incremental=False) if ev is None else ev,
        accept=accept,
        steps=steps,
        nodes=5000,
        check_every=check_every,
    )


def test_deepen_walks_to_a_unique_board_the_tier_cannot_finish() -> None:
    """The extreme walk takes information away from a unique board that a tier solves
    until the tier gets stuck: the board it returns is valid, unique by the exact
    solver with its own board, has no more clues than the start, leaves cells unknown at
    the tier, and was taken by `accept`; refused boards are not returned, and the same
    seed gives the same board."""
    offered: list[Layout] = []

    def take(layout: Layout) -> bool:
        offered.append(layout)
        return True

    rng = random.Random(5)
    for done, _ in _thrifty_settled(rng):
        offered.clear()
        out = _deepened(done, 1, take)
        if out is not None:
            break
    else:
        pytest.fail("no walk got stuck")
    assert offered == [out]
    assert out.is_valid(12)
    assert popcount(out.clue_mask) <= popcount(done.clue_mask)
    assert unknown_after(out, 2)
    assert_unique_with_its_board(out)
    assert _deepened(done, 1, lambda _: True) == out
    refused: list[Layout] = []

    def refuse(layout: Layout) -> bool:
        refused.append(layout)
        return False

    assert _deepened(done, 1, refuse, steps=60) is None
    assert refused and all(unknown_after(board, 2) for board in refused)
    late = deepen(
        done,
        2,
        random.Random(1),
        max_island=12,
        deadline=Deadline(0),
        ev=Evaluator(),
        accept=take,
        steps=300,
        nodes=5000,
    )
    assert late is None


class _CountingEvaluator(Evaluator):
    """An evaluator that keeps the layouts it was asked to solve afresh."""

    def __init__(self) -> None:
        super().__init__(incremental=False)
        self.asked: list[Layout] = []

    def exact(self, layout: Layout, tier: int) -> int:
        self.asked.append(layout)
        return super().exact(layout, tier)


def test_deepen_asks_logic_about_every_few_unique_boards() -> None:
    """With `check_every` 3 the walk asks the logic engine about every third unique board
    only (the walk's main cost): the board it returns is still valid, unique by the exact
    solver, stuck at the tier and taken by `accept`; boards `accept` refuses are stuck
    ones, and the walk asks about fewer boards than with `check_every` 1."""
    rng = random.Random(5)
    for done, _ in _thrifty_settled(rng):
        every = _CountingEvaluator()
        out = _deepened(done, 1, lambda _: True, check_every=3, ev=every)
        if out is not None:
            break
    else:
        pytest.fail("no walk got stuck")
    assert out.is_valid(12)
    assert unknown_after(out, 2)
    assert_unique_with_its_board(out)
    assert _deepened(done, 1, lambda _: True, check_every=3) == out
    refused: list[Layout] = []

    def refuse(layout: Layout) -> bool:
        refused.append(layout)
        return False

    each, third = _CountingEvaluator(), _CountingEvaluator()
    assert _deepened(done, 1, refuse, steps=60, ev=each) is None
    assert _deepened(done, 1, refuse, steps=60, check_every=3, ev=third) is None
    assert all(unknown_after(board, 2) for board in refused)
    assert len(third.asked) < len(each.asked)


def _solves(white: int, layout: Layout) -> bool:
    """Whether the board with white cells `white` is a solution of the layout's clues."""
    other = Layout(layout.grid, white, layout.clue_mask)
    return other.is_valid() and other.clues() == layout.clues()


def test_pinning_growths_rule_out_the_other_solution() -> None:
    """On unsettled random boards (rarely unique), the solver's other solution is a
    solution of the clues; every pinning growth adds one white cell, which grows the big
    island itself or one island that does not touch it (keeping the clues), or with
    `ones` is a new 1-island; either way the other solution no longer fits."""
    rng = random.Random(1)
    kinds = {"big": 0, "other": 0, "one": 0}
    for _ in range(12):
        layout = layout_of(rng.randrange(1000), 9, 11)
        result = solve(puzzle_of(layout), limit=Limit(solutions=2, seconds=30))
        if result.status is not Status.MULTIPLE:
            continue
        other = next(b.white_mask for b in result.solutions if b.white_mask != layout.white)
        assert _solves(other, layout)
        big = max(layout.islands(), key=popcount)
        near_big = layout.grid.dilate(big)
        for moved in pinning_growths(layout, other, big, 12, ones=True):
            assert moved.is_valid(12)
            added = moved.white & ~layout.white
            assert popcount(added) == 1 and moved.white & layout.white == layout.white
            assert not _solves(other, moved)
            if moved.clue_mask != layout.clue_mask:
                assert moved.clue_mask == layout.clue_mask | added
                assert not layout.grid.dilate(added) & layout.white
                kinds["one"] += 1
            elif added & near_big:
                assert added & other
                assert layout.grid.flood(added, moved.white) == big | added
                kinds["big"] += 1
            else:
                kinds["other"] += 1
    assert all(kinds.values()), kinds


def test_grow_big_grows_the_largest_island_and_stays_unique() -> None:
    """The big-island walk ends on a valid board (within its cap) whose largest island is
    at least as large, with no more clues, unique by the exact solver with its own board
    and solved at its tier; the same seed gives the same board."""
    rng = random.Random(5)
    grown = 0
    for done, _ in _thrifty_settled(rng):

        def walk(seed: int, start: Layout = done) -> Layout:
            return grow_big(
                start,
                2,
                random.Random(seed),
                max_island=16,
                deadline=Deadline(None),
                ev=Evaluator(),
                target=16,
                steps=6,
            )

        out = walk(2)
        largest = max(map(popcount, done.islands()))
        assert out.is_valid(16)
        assert max(map(popcount, out.islands())) >= largest
        assert popcount(out.clue_mask) <= popcount(done.clue_mask)
        assert unknown_after(out, 2) == 0
        assert_unique_with_its_board(out)
        assert walk(2) == out
        grown += max(map(popcount, out.islands())) > largest
    assert grown
