"""The trial search (`logic.trial`) and its guide (`logic.guide`): trial steps of each
nesting depth, every one sound against the published unique solution and explained by
a chain ending in a contradiction; the guide's ranking and its counted work; budgets
and time limits that stop a search cleanly."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from nurikabe import Board, Color, Puzzle, Step
from nurikabe.grid import bits
from nurikabe.limits import OutOfTime
from nurikabe.logic import State, explain, find_step
from nurikabe.logic.guide import GUIDE_NODES, GUIDE_WORK, Guide
from nurikabe.logic.trial import (
    DEEP_GUIDE_WORK,
    DEEP_NODES,
    FIRST_CELLS,
    TrialBudget,
    find_trial,
)
from nurikabe.solver.refuter import Refuter
from tests.logic.sparse import SPARSE_15

try:
    from tests.corpus import CORPUS_PATH, corpus
except ImportError:  # pragma: no cover
    CORPUS_PATH = None

HAVE_CORPUS = CORPUS_PATH is not None and CORPUS_PATH.exists()
needs_corpus = pytest.mark.skipif(not HAVE_CORPUS, reason="corpus not present")

# 5x7: a small non-square puzzle with a unique solution.
FIVE_BY_SEVEN = Puzzle.from_grid(
    [
        [2, 0, 0, 0, 0, 0, 1],
        [0, 0, 0, 3, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0],
        [0, 0, 2, 0, 0, 0, 3],
    ]
)
# Two solutions: no trial can settle the cells they disagree on.
TWO_SOLUTIONS = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])


def agrees(step: Step, solution: Board) -> bool:
    return not (step.black_mask & ~solution.black_mask or step.white_mask & solution.black_mask)


def _doc(pid: str):
    return next(d for d in corpus() if d.meta.get("id") == pid)


def _plain_stall(puzzle: Puzzle) -> State:
    """The state where plain logic (tiers 1-4) stops on `puzzle`."""
    state = State(puzzle)
    while (step := find_step(state, max_tier=4)) is not None:
        state.decide(step.black_mask, step.white_mask)
    return state


def _check_chain(step: Step, depth: int) -> None:
    """A trial step's chain ends in a contradiction; inner trials are shallower, and at
    least one is one level shallower."""
    assert step.kind == "trial" and step.trial_depth == depth
    assert step.chain and step.chain[-1].kind == "contradiction"
    inner_depths = {0}
    for inner in step.chain[:-1]:
        assert inner.kind in ("deduction", "trial")
        if inner.kind == "trial":
            assert 1 <= inner.trial_depth < depth
            inner_depths.add(inner.trial_depth)
            _check_chain(inner, inner.trial_depth)
    assert max(inner_depths) == depth - 1


def _trial_where_shallower_fails(state: State, depth: int, solution: Board) -> Step:
    """The trial step `find_trial` makes from `state` at `depth` (checked: its chain, and
    that it agrees with `solution`). Fails when a shallower search finds one: the
    position no longer tests what it was chosen for (pick another)."""
    if find_trial(state, max_depth=depth - 1, seconds=60) is not None:
        pytest.fail(f"trials of depth {depth - 1} now go further here: pick another position")
    step = find_trial(state, max_depth=depth, seconds=60)
    assert step is not None
    _check_chain(step, depth)
    assert agrees(step, solution)
    return step


def test_replayed_chain_that_clashes_is_a_contradiction() -> None:
    from nurikabe.logic.chains import replay

    state = State(FIVE_BY_SEVEN)
    grid = FIVE_BY_SEVEN.grid
    cell, other = grid.cell(2, 3), grid.cell(2, 4)
    said = Step("made-up", grid, black_mask=1 << other, message="r3c5 is black.")
    state.decide(0, 1 << other)
    s, steps, found = replay(state, cell, Color.BLACK, [said])
    assert s.black >> cell & 1 and steps == [said]
    assert found is not None and found.kind == "contradiction"
    assert found.wrong_mask == 1 << other
    assert "both black and white" in found.message


@needs_corpus
def test_depth_two_trial_where_depth_one_fails() -> None:
    """janko 962 (which single-level guessing cannot start) needs a nested trial at once."""
    doc = _doc("janko-0962")
    step = _trial_where_shallower_fails(_plain_stall(doc.puzzle), 2, doc.solution)
    assert step.message.startswith("Suppose ") and "trial" in step.message


@needs_corpus
def test_guided_trial_order_still_gives_a_valid_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """On janko 962, where the clash-guided depth-2 pass fails, the exact engine orders the
    outer suppositions: only those contradicting the unique solution, and the step found
    among them is still a sound depth-2 trial built by the techniques."""

    doc = _doc("janko-0962")
    state = _plain_stall(doc.puzzle)
    guide = Guide.make(state)
    assert guide is not None and guide.solution == doc.solution.black_mask
    keys = [(cell, color) for cell in bits(state.unknown) for color in (Color.BLACK, Color.WHITE)]
    favoured = list(guide.favoured(keys, FIRST_CELLS))
    assert favoured and len(set(favoured)) == len(favoured)
    for cell, color in favoured:
        assert (doc.solution.black_mask >> cell & 1) != (color is Color.BLACK)

    offered: list[tuple[int, Color]] = []
    original = Guide.favoured

    def spy(self: Guide, keys: list[tuple[int, Color]], batch: int) -> Iterator[tuple[int, Color]]:
        for key in original(self, keys, batch):
            offered.append(key)
            yield key

    monkeypatch.setattr(Guide, "favoured", spy)
    step = find_trial(state, max_depth=2, seconds=60)
    assert offered, "the guided order was not used"
    assert step is not None
    _check_chain(step, 2)
    assert agrees(step, doc.solution)
    assert (step.mask.bit_length() - 1, Color.WHITE if step.black_mask else Color.BLACK) in offered


@pytest.mark.long
@needs_corpus
def test_ranking_carries_paused_searches_on_without_changing_the_order() -> None:
    """The depth-3 ranking's passes carry on the core's searches where the pass before
    stopped them; the suppositions come out in the order of searches started afresh in
    each pass, and as one coarse pass would (which holds whole fine ones)."""

    doc = _doc("janko-0962")
    state = _plain_stall(doc.puzzle)
    keys = [(cell, color) for cell in bits(state.unknown) for color in (Color.BLACK, Color.WHITE)]
    passes = tuple(n for n in DEEP_NODES if n <= 12)
    assert len(passes) > 2

    class Afresh(Guide):
        """A guide that starts every search over (nothing paused is kept)."""

        def _refuted(self, key: tuple[int, Color], nodes: int):
            found = super()._refuted(key, nodes)
            self.position.paused.clear()
            return found

    carried = Guide.make(state, work=DEEP_GUIDE_WORK)
    assert carried is not None
    fine = list(carried.ranked(keys, passes))
    assert len(fine) > 2
    assert carried.position.paused  # some searches were carried on (and some still wait)
    afresh = Afresh.make(state, work=DEEP_GUIDE_WORK)
    assert isinstance(afresh, Afresh)
    assert list(afresh.ranked(keys, passes)) == fine
    coarse = Afresh.make(state, work=DEEP_GUIDE_WORK)
    assert coarse is not None
    assert list(coarse.ranked(keys, (passes[-1],))) == fine


@needs_corpus
def test_ranking_with_root_probing_near_each_supposition() -> None:
    """Asked `local`ly (as the depth-3 search asks), the core probes at the root first
    near what each supposition changes: it ranks only suppositions that contradict the
    unique solution, in the same order from run to run, and its questions at the root
    cost less work than with probing on every cell."""

    doc = _doc("janko-0962")
    state = _plain_stall(doc.puzzle)
    keys = [(cell, color) for cell in bits(state.unknown) for color in (Color.BLACK, Color.WHITE)]
    passes = tuple(n for n in DEEP_NODES if n <= 12)
    runs = []
    for _ in range(2):
        guide = Guide.make(state, work=DEEP_GUIDE_WORK, local=True)
        assert guide is not None and guide.position.local
        runs.append(list(guide.ranked(keys, passes)))
    assert runs[0] == runs[1] and len(runs[0]) > 2
    solution = doc.solution.black_mask
    for cell, color in runs[0]:
        assert bool(solution >> cell & 1) != (color is Color.BLACK)
    spent = []
    for local in (False, True):
        guide = Guide.make(state, work=DEEP_GUIDE_WORK, local=local)
        assert guide is not None
        before = guide.position.spent
        list(guide.ranked(keys, (1,)))
        spent.append(guide.position.spent - before)
    assert 0 < spent[1] < spent[0]


def test_depth_three_search_asks_the_core_locally(monkeypatch: pytest.MonkeyPatch) -> None:
    """The depth-2 search's guide asks the core the usual way, the depth-3 search's with
    root probing near each supposition (`local`)."""
    from nurikabe.logic import trial

    asked: list[bool] = []
    made = Guide.make.__func__  # type: ignore[attr-defined]

    def make(cls, state, deadline=None, work=GUIDE_WORK, *, local=False):  # type: ignore[no-untyped-def]
        asked.append(local)
        return made(cls, state, deadline, work, local=local)

    monkeypatch.setattr(Guide, "make", classmethod(make))
    state = _plain_stall(TWO_SOLUTIONS)
    assert state.unknown
    assert find_trial(state, max_depth=2, seconds=30) is None
    assert asked == [False]
    budget = TrialBudget(10_000, 30)
    assert trial._search_depth_three(state, trial._rows(4, cheap=True), budget, {}) is None
    assert asked == [False, True]


@needs_corpus
def test_guide_past_its_deadline_stops_the_search() -> None:
    """Once the search's time is up, the guide's questions raise `OutOfTime`: the time
    stops the search, it never makes the guide answer otherwise."""
    import time

    doc = _doc("janko-0962")
    state = _plain_stall(doc.puzzle)
    guide = Guide.make(state, work=DEEP_GUIDE_WORK)
    assert guide is not None
    keys = [(cell, color) for cell in bits(state.unknown) for color in (Color.BLACK, Color.WHITE)]
    guide.position.deadline = time.thread_time() - 1
    with pytest.raises(OutOfTime):
        next(guide.ranked(keys, DEEP_NODES))
    with pytest.raises(OutOfTime):
        next(guide.favoured(keys, FIRST_CELLS))


@needs_corpus
def test_guide_counts_work_not_time() -> None:
    """The guide's ranking stops after a set amount of the core's work, the same from
    run to run whatever the machine is doing, so the trial steps found are too."""

    doc = _doc("janko-0962")
    state = _plain_stall(doc.puzzle)
    keys = [(cell, color) for cell in bits(state.unknown) for color in (Color.BLACK, Color.WHITE)]
    full = Guide.make(state, work=DEEP_GUIDE_WORK)
    assert full is not None
    everything = list(full.favoured(keys, FIRST_CELLS))
    assert full.position.spent > 0
    runs = []
    for _ in range(2):
        guide = Guide.make(state, work=full.position.spent // 3)
        assert guide is not None
        runs.append((list(guide.favoured(keys, FIRST_CELLS)), guide.position.spent))
    assert runs[0] == runs[1]
    assert len(runs[0][0]) < len(everything)


JANKO_1108_STALL = (
    0x401B005C00A002C04E4094BE73574AA334FAB945D73C68861367A4B54BC79505260EE40F7FF,
    0x2000100410002063408CA83118CB01043808C19779EC905B00B43868F8D9F11BF0000,
)
"""janko 1108 (black, white masks) where its walkthrough makes its first depth-3 step, with
51 unknown cells."""


@needs_corpus
@pytest.mark.slow
def test_depth_three_trial_where_depth_two_fails() -> None:
    """janko 1108: once the depth-2 search has nothing, a depth-3 trial (with depth-2
    trials inside it) is found, sound and explained by a chain."""

    doc = _doc("janko-1108")
    state = State(doc.puzzle, *JANKO_1108_STALL)
    grid = doc.puzzle.grid
    assert agrees(Step("stall", grid, black_mask=state.black, white_mask=state.white), doc.solution)
    _trial_where_shallower_fails(state, 3, doc.solution)


@needs_corpus
def test_depth_three_search_remembers_what_it_found_where_chains_stalled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """janko 1108's first depth-3 position: the inner searches at each position where a
    chain stalled are remembered for the walkthrough (every remembered step is a trial
    step on a cell still unknown there, ending in a contradiction), and the same search
    made again finds the same step without searching inside any chain again."""
    from nurikabe.logic import trial

    doc = _doc("janko-1108")
    state = State(doc.puzzle, *JANKO_1108_STALL)
    searched = []
    shallower = trial._search_depth_two

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        searched.append(args[0])
        return shallower(*args, **kwargs)

    monkeypatch.setattr(trial, "_search_depth_two", counted)
    steps = []
    for _ in range(2):
        searched.clear()
        steps.append(find_trial(state.copy(), max_depth=3, seconds=60))
        # the search from `state` itself is the depth-2 search before depth 3
        inside = [s for s in searched if (s.black, s.white) != (state.black, state.white)]
        if len(steps) == 1:
            assert inside
        else:
            assert not inside
    first, again = steps
    assert first is not None and again is not None
    assert (again.message, again.black_mask, again.white_mask) == (
        first.message,
        first.black_mask,
        first.white_mask,
    )
    _check_chain(first, 3)
    assert agrees(first, doc.solution)
    stalls = state.case_memo[trial.STALLS, len(trial._rows(4, cheap=True))]
    assert isinstance(stalls, dict) and stalls
    for (black, white), found in stalls.items():
        assert black & state.black == state.black and white & state.white == state.white
        if found is not None:
            cell = (found.black_mask | found.white_mask).bit_length() - 1
            assert not (black | white) >> cell & 1
            _check_chain(found, found.trial_depth)


@pytest.mark.long
@needs_corpus
def test_time_only_stops_a_trial_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """A depth-2 trial search guided by the exact engine finds the same step twice in a
    row, and wherever its time runs out (a clock that jumps past the deadline after a
    given number of readings) it either stops with `OutOfTime` or finds that same step:
    the time never sends it another way (the core's searches read the same clock)."""
    import math
    import time

    from nurikabe.logic import trial
    from nurikabe.solver import refuter

    doc = _doc("janko-0962")
    stall = _plain_stall(doc.puzzle)

    def search(seconds: float | None = None) -> Step | None:
        fresh = State(doc.puzzle, stall.black, stall.white)
        return trial.find_trial(fresh, max_depth=2, seconds=seconds)

    expected = search()
    assert expected is not None and expected.trial_depth == 2
    again = search()
    assert again is not None and again.message == expected.message

    real = time.thread_time
    readings = 0
    jump_after = [math.inf]

    class Clock:
        @staticmethod
        def thread_time() -> float:
            nonlocal readings
            readings += 1
            return real() + (1e9 if readings > jump_after[0] else 0.0)

    monkeypatch.setattr(trial, "time", Clock)
    monkeypatch.setattr(refuter, "time", Clock)
    found = search(1e6)
    assert found is not None and found.message == expected.message
    total = readings
    stopped = 0
    for jump in (1, total // 3, total // 2, total - 2):
        readings, jump_after[0] = 0, jump
        try:
            found = search(1e6)
        except OutOfTime:
            stopped += 1
            continue
        assert found is not None and found.message == expected.message
    assert stopped >= 3


def test_budget_counts_scans_then_time() -> None:
    """`TrialBudget.spend` counts scans down to `OutOfBudget`, and raises `OutOfTime`
    once the CPU time is past its deadline."""
    from nurikabe.limits import OutOfBudget

    budget = TrialBudget(2)
    budget.spend()
    budget.spend()
    with pytest.raises(OutOfBudget):
        budget.spend()
    late = TrialBudget(100, seconds=-1.0)
    with pytest.raises(OutOfTime):
        late.spend()


def test_no_guide_without_a_unique_solution() -> None:
    """The guide needs a unique solution: on a puzzle with two it is None, and the trial
    search then never goes to depth 3 (it ends, finding nothing for the open cells)."""
    state = State(TWO_SOLUTIONS)
    while (step := find_step(state, max_tier=4)) is not None:
        state.decide(step.black_mask, step.white_mask)
    assert state.unknown
    assert Guide.make(state) is None
    assert find_trial(state, max_depth=3, seconds=30) is None
    inside = Guide.inside(state)
    assert inside.solution is None
    assert all(inside.refutable((cell, Color.BLACK)) for cell in bits(state.unknown))


@needs_corpus
def test_trial_search_stops_cleanly_on_its_budgets() -> None:
    """Out of scans, the search gives no step; out of CPU time, it raises `OutOfTime`
    saying at which depth; the position is left as it was either way."""
    doc = _doc("janko-0962")
    state = _plain_stall(doc.puzzle)
    black, white = state.black, state.white
    assert find_trial(state, scans=3) is None
    with pytest.raises(OutOfTime, match="depth-1 trial search"):
        find_trial(state, seconds=0.0)
    assert (state.black, state.white) == (black, white)


@needs_corpus
def test_walkthrough_remembers_the_solution_once_proven() -> None:
    """A guide proves the unique solution once per walkthrough: a later position of the
    same walkthrough that agrees with it is guided without solving again (no work)."""
    doc = _doc("janko-0962")
    state = _plain_stall(doc.puzzle)
    first = Guide.make(state)
    assert first is not None and first.solution == doc.solution.black_mask
    assert first.position.spent > 0
    step = find_trial(state, max_depth=2, seconds=60)
    assert step is not None and agrees(step, doc.solution)
    state.decide(step.black_mask, step.white_mask)
    again = Guide.make(state)
    assert again is not None and again.solution == doc.solution.black_mask
    assert again.position.spent == 0
    fresh = Guide.make(State(doc.puzzle, state.black, state.white))
    assert fresh is not None and fresh.position.spent > 0


@needs_corpus
@pytest.mark.slow
def test_extreme_walkthrough_every_step_agrees() -> None:
    """janko 962 solved by the engine, trial steps included: every step agrees with the
    published solution, and the trials say how deep they went."""
    doc = _doc("janko-0962")
    # The position before each depth-2 step, to check the core's ranking of it below.
    shaded = [0, doc.puzzle.clue_mask]
    deep: list[tuple[int, int, Step]] = []

    def record(step: Step, _unknown: int) -> None:
        if step.kind == "trial" and step.trial_depth == 2:
            deep.append((shaded[0], shaded[1], step))
        shaded[0] |= step.black_mask
        shaded[1] |= step.white_mask

    walk = explain(doc.puzzle, seconds=120, on_step=record)
    assert walk.status == "solved" and walk.board == doc.solution
    assert walk.grade is not None and walk.grade.level == "extreme"
    trials = [s for s in walk.steps if s.kind == "trial"]
    assert trials and max(s.trial_depth for s in trials) >= 2
    for step in walk.steps:
        assert agrees(step, doc.solution), step.message
    # With the core's guide, a depth-2 search follows only the suppositions the core
    # refutes within GUIDE_NODES (and those predicted to clash): every depth-2 step
    # made here has one the core refutes within that.
    assert deep
    for black, white, step in deep:
        cell = (step.black_mask | step.white_mask).bit_length() - 1
        supposed = Color.WHITE if step.black_mask else Color.BLACK
        position = Refuter(doc.puzzle).position(black, white, work=100 * GUIDE_WORK)
        assert position.refute((cell, supposed), GUIDE_NODES) is not None, step.message


@pytest.mark.parametrize(
    "puzzle",
    [
        Puzzle.from_grid([[1, 0, 0], [0, 0, 0], [0, 0, 3]]),
        Puzzle.from_grid([[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2], [0, 0, 0, 0]]),
        Puzzle.from_clues(4, 3, [(1, 0, 2), (3, 2, 6)]),
        Puzzle.from_clues(7, 7, [(0, 0, 21), (6, 6, 21)]),
    ],
)
@pytest.mark.parametrize("nodes", [1, 3, 300, 20_000])
def test_a_solve_in_slices_ends_as_one_search(
    puzzle: Puzzle, nodes: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A solve with a work bound (searched `SOLVE_SLICE` nodes at a time) that the bound
    does not stop gives what one search with the node limit gives, at the same cost."""
    from nurikabe.solver import refuter

    monkeypatch.setattr(refuter, "SOLVE_SLICE", 2)
    empty = puzzle.empty_board()
    whole = Refuter(puzzle).position(empty.black_mask, empty.white_mask, work=10**12)
    sliced = Refuter(puzzle).position(empty.black_mask, empty.white_mask, work=10**12)
    assert sliced.solve(nodes, 10**12) == whole.solve(nodes)
    assert sliced.spent == whole.spent


def test_a_solve_stops_at_its_work() -> None:
    """A position the core cannot settle soon is given up once the solve's own work is
    done (a slice past it at most), not at its node limit; a solve without the bound
    goes on."""
    from nurikabe.solver.refuter import SOLVE_SLICE

    empty = SPARSE_15.empty_board()
    bounded = Refuter(SPARSE_15).position(empty.black_mask, empty.white_mask, work=10**12)
    assert bounded.solve(20_000, 10**6) is None
    assert 10**6 <= bounded.spent < 10**6 + 200 * SOLVE_SLICE * SPARSE_15.grid.size
    unbounded = Refuter(SPARSE_15).position(empty.black_mask, empty.white_mask, work=10**12)
    assert unbounded.solve(2 * SOLVE_SLICE) is None
    assert unbounded.spent > bounded.spent


def test_positions_share_the_cores_memo_while_the_refuter_remembers() -> None:
    """Within `Refuter.remembering` every position's searches share the refuter's memo of
    the core's fixpoints (dropped on leaving, kept by an outer `remembering`); outside,
    each position has its own. Either way the answers and the work counted are the same."""
    from nurikabe.solver import _csolve

    puzzle = Puzzle.from_clues(7, 7, [(0, 0, 21), (6, 6, 21)])
    empty = puzzle.empty_board()
    keys = [(cell, color) for cell in range(1, 12) for color in (Color.BLACK, Color.WHITE)]

    def ask(refuter: Refuter) -> list[object]:
        out: list[object] = []
        for _ in range(2):
            position = refuter.position(empty.black_mask, empty.white_mask, work=10**12)
            out += [position.refute(key, 4) for key in keys] + [position.spent]
        return out

    alone = Refuter(puzzle)
    plain = ask(alone)
    shared = Refuter(puzzle)
    with shared.remembering():
        with shared.remembering():
            assert ask(shared) == plain
        memo = shared.memo
        assert isinstance(memo, _csolve.Memo) and memo.stats()[0] > 0
    assert shared.memo is None and not shared.sharing
    position = alone.position(empty.black_mask, empty.white_mask, work=10**12)
    position.refute(keys[0], 1)
    assert isinstance(position.memo, _csolve.Memo)


@pytest.mark.long
@needs_corpus
def test_a_guide_whose_solve_gives_up_asks_the_exact_solver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past `SOLVE_WORK` the guide takes the solution from the exact solver: the same
    one, remembered for the walkthrough; and a walkthrough guided so still finishes,
    every step agreeing with the solution."""
    from nurikabe.logic import guide
    from nurikabe.solver import refuter

    doc = _doc("janko-0962")
    stall = _plain_stall(doc.puzzle)
    monkeypatch.setattr(guide, "SOLVE_WORK", 1)
    monkeypatch.setattr(refuter, "SOLVE_SLICE", 1)
    found = Guide.make(stall)
    assert found is not None and found.position.gave_up
    assert found.solution == doc.solution.black_mask
    again = Guide.make(stall)  # the walkthrough's memory: no solve this time
    assert again is not None and not again.position.gave_up and again.position.spent == 0
    walk = explain(doc.puzzle, seconds=120)
    assert walk.status == "solved" and walk.board == doc.solution
    assert any(step.kind == "trial" for step in walk.steps)
    assert all(agrees(step, doc.solution) for step in walk.steps)


def test_a_search_cut_short_leaves_its_chains_to_the_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A trial search that runs out of time in depth 1 keeps each supposition's chain as
    far as it got (a hint's time is short; the game's next hint carries them on), and a
    search from there again finds a sound step with them."""
    from nurikabe import collection
    from nurikabe.logic import trial

    conn = collection.open_db(collection.bundled_path(), readonly=True)
    entry = collection.get(conn, 155, "15x15")
    collection.close_db(conn)
    assert entry is not None
    stall = _plain_stall(entry.puzzle)
    assert stall.unknown

    real = trial._check_time
    calls = [0]

    def cut_after_40(deadline: float | None) -> None:
        calls[0] += 1
        if calls[0] > 40:
            raise OutOfTime
        real(deadline)

    monkeypatch.setattr(trial, "_check_time", cut_after_40)
    with pytest.raises(OutOfTime):
        find_trial(stall.copy(), seconds=None)
    black, white, chains = stall.memo[trial.EARLIER_CHAINS]
    assert (black, white) == (stall.black, stall.white)
    assert chains and any(chains.values())
    for (cell, color), chain in chains.items():
        # Each chain follows from its supposition: in the solution, or refuted by it.
        supposed_right = (entry.solution.black_mask >> cell & 1) == (color is Color.BLACK)
        if supposed_right:
            assert all(agrees(step, entry.solution) for step in chain)
    monkeypatch.setattr(trial, "_check_time", real)
    later = stall.copy()
    found = find_trial(later, seconds=None)
    assert found is not None and agrees(found, entry.solution)
