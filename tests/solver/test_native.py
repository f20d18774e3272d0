"""Tests of the compiled core of the default engine (`nurikabe.solver.native`).

The brute-force oracle already checks the default engine on tiny puzzles
(solver/test_solve.py). Here: agreement with the independent pure-Python engine on
puzzles too big for brute force (some crowded, where the sea walls an island in), start
assumptions, the limits,
interruption by a signal.
"""

from __future__ import annotations

import random
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from nurikabe.puzzle import UNKNOWN_CLUE, Puzzle
from nurikabe.solver import Limit, Status, _csolve, count_solutions, solve
from nurikabe.solver.native import NativeSearch
from tests.bruteforce import black_masks
from tests.corpus import corpus, needs_corpus

Q = UNKNOWN_CLUE


@st.composite
def small_puzzles(draw: st.DrawFn) -> Puzzle:
    """Random 4x4 to 6x7 puzzles with a handful of clues (sound or not)."""
    rows = draw(st.integers(4, 6))
    cols = draw(st.integers(4, 7))
    n = rows * cols
    cells = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=7, unique=True))
    values = st.sampled_from([1, 2, 2, 3, 3, 4, 5, 6, 8, Q])
    return Puzzle(rows, cols, {cell: draw(values) for cell in cells})


def assert_engines_agree(puzzle: Puzzle, most: int) -> None:
    """Both engines count the same solutions (up to `most`), and list the same ones.

    A run the clock stopped (the Python engine on a big island of a sparse 8x8, on a
    loaded machine) has not answered, so the example is dropped rather than compared."""
    limit = Limit(solutions=most, seconds=60)
    ours = count_solutions(puzzle, limit=limit, engine="native", keep=None)
    theirs = count_solutions(puzzle, limit=limit, engine="reference", keep=None)
    assume(ours.limit_hit != "seconds" and theirs.limit_hit != "seconds")
    assert ours.count == theirs.count
    if ours.complete and theirs.complete:
        assert {b.black_mask for b in ours.solutions} == {b.black_mask for b in theirs.solutions}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles())
def test_agrees_with_the_python_engine(puzzle: Puzzle) -> None:
    """The two engines are written independently."""
    assert_engines_agree(puzzle, 50)


@st.composite
def crowded_puzzles(draw: st.DrawFn) -> Puzzle:
    """Random 4x4 to 8x8 puzzles with 1-3 big clues and a small sea: where the sea must
    wall an island in (the crossing rule of the C core), which the Python engine lacks."""
    rows = draw(st.integers(4, 8))
    cols = draw(st.integers(4, 8))
    n = rows * cols
    sea = draw(st.integers(3, max(3, n // 3)))
    cells = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3, unique=True))
    cuts = sorted(
        draw(st.sets(st.integers(1, n - sea - 1), min_size=len(cells) - 1, max_size=len(cells) - 1))
    )
    values = [b - a for a, b in zip([0, *cuts], [*cuts, n - sea], strict=True)]
    return Puzzle(rows, cols, dict(zip(cells, values, strict=True)))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(crowded_puzzles())
def test_walled_in_islands_agree_with_the_python_engine(puzzle: Puzzle) -> None:
    assert_engines_agree(puzzle, 20)


@needs_corpus
def test_a_big_island_walled_in_is_proved_at_the_root() -> None:
    """janko-0029: clues 37 and 36 on a diagonal, a sea of 27. Joining the two black cells
    beside them walls one island in; 27 cells can wall in 36 cells, not 37, and only as a
    6x6 square. Without that argument the search does not finish in minutes."""
    doc = next(d for d in corpus() if d.meta["id"] == "janko-0029")
    result = solve(doc.puzzle, limit=Limit(solutions=2, seconds=60))
    assert result.status is Status.UNIQUE
    assert result.solution is not None and doc.solution is not None
    assert result.solution.black_mask == doc.solution.black_mask
    assert result.stats.nodes <= 3


def test_a_crossing_inside_one_island_has_no_solution() -> None:
    """Black on one diagonal of a 2x2 block, one island on the other: the sea cannot join."""
    puzzle = Puzzle.from_grid([[0, 0, 0], [0, 0, 0], [0, 0, 7]])
    start = puzzle.empty_board()
    for cell in (0, 4):
        start.set_black(cell)
    for cell in (1, 3, 2, 5, 6, 7):
        start.set_white(cell)
    assert solve(puzzle, start=start).status is Status.NONE


@pytest.mark.parametrize(
    "doc", [d for d in corpus() if d.puzzle.grid.size <= 200][::25], ids=lambda d: d.meta["id"]
)
def test_start_boards(doc) -> None:  # type: ignore[no-untyped-def]
    """Part of the solution as a start gives the solution; one wrong cell gives none."""
    puzzle, solution = doc.puzzle, doc.solution
    rng = random.Random(doc.meta["id"])
    free = [i for i in range(puzzle.grid.size) if i not in puzzle.clues]
    start = puzzle.empty_board()
    for cell in rng.sample(free, len(free) // 3):
        if solution.black_mask >> cell & 1:
            start.set_black(cell)
        else:
            start.set_white(cell)
    result = solve(puzzle, start=start)
    assert result.status is Status.UNIQUE
    assert result.solution is not None and result.solution.black_mask == solution.black_mask
    wrong = puzzle.empty_board()
    cell = rng.choice(free)
    if solution.black_mask >> cell & 1:
        wrong.set_white(cell)
    else:
        wrong.set_black(cell)
    assert solve(puzzle, start=wrong).status is Status.NONE


def test_a_black_clue_cell_in_the_start_has_no_solution() -> None:
    puzzle = Puzzle.from_grid([[1, 0, 0], [0, 0, 0], [0, 0, 3]])
    start = puzzle.empty_board()
    start.set_black(0)
    assert solve(puzzle, start=start).status is Status.NONE


def test_node_limit_is_unknown_not_none() -> None:
    puzzle = Puzzle(8, 8, {27: Q})
    result = solve(puzzle, limit=Limit(solutions=2, nodes=1, seconds=10))
    assert result.status in (Status.UNKNOWN, Status.MULTIPLE)
    if result.status is Status.UNKNOWN:
        assert result.limit_hit == "nodes" and not result.complete


def test_zero_nodes_is_unknown() -> None:
    puzzle = Puzzle.from_grid([[1, 0, 0], [0, 0, 0], [0, 0, 3]])
    result = solve(puzzle, limit=Limit(solutions=2, nodes=0))
    assert result.status is Status.UNKNOWN and result.limit_hit == "nodes"
    assert solve(puzzle, limit=Limit(solutions=2, nodes=1)).status is Status.UNIQUE


def test_zero_seconds_is_unknown() -> None:
    puzzle = Puzzle.from_grid([[1, 0, 0], [0, 0, 0], [0, 0, 3]])
    result = solve(puzzle, limit=Limit(solutions=2, seconds=0))
    assert result.status is Status.UNKNOWN and result.limit_hit == "seconds"


def test_cpu_clock_counts_only_the_searching_thread() -> None:
    """With ``cpu=True`` the seconds are the searching thread's CPU time: a search of an
    open 40x40 stops after about 0.2 s of its own work, and reports the time limit."""
    cells = 40 * 40
    clues = [(r * 40 + c, -1) for r in range(0, 40, 5) for c in range(0, 40, 5)]
    search = _csolve.Search(40, 40, clues, bytes(cells), 0.2, -1, True)
    began = time.thread_time()
    while search.next() is not None:
        pass
    spent = time.thread_time() - began
    assert search.stop == "seconds" and not search.complete
    assert 0.15 < spent < 2


def test_a_signal_interrupts_the_search() -> None:
    """Ctrl-C (here: a timer signal whose handler raises) stops a search within moments."""

    class Interrupted(Exception):
        pass

    def handler(signum: int, frame: object) -> None:
        raise Interrupted

    puzzle = Puzzle(60, 60, {r * 60 + c: Q for r in range(0, 60, 5) for c in range(0, 60, 5)})
    old = signal.signal(signal.SIGALRM, handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        began = time.perf_counter()
        with pytest.raises(Interrupted):
            list(NativeSearch(puzzle, Limit(solutions=None, seconds=None)).solutions())
        assert time.perf_counter() - began < 5
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def test_other_threads_run_during_a_search() -> None:
    """The search releases the GIL: a Python thread keeps counting while it runs."""
    import threading

    puzzle = Puzzle(40, 40, {r * 40 + c: Q for r in range(0, 40, 5) for c in range(0, 40, 5)})
    ticks = 0
    done = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    try:
        result = solve(puzzle, limit=Limit(solutions=2, seconds=0.5))
    finally:
        done.set()
        counter.join()
    assert result.status in (Status.UNKNOWN, Status.MULTIPLE)
    # About 500 with the GIL released, a handful without; a loaded machine (two test
    # workers, other processes) gives the counting thread fewer turns, never none.
    assert ticks > 20


@needs_corpus
def test_two_threads_searching_at_once_answer_as_one_by_one() -> None:
    """Two searches running at once in two threads (each without the GIL) give the same
    solutions and node counts as the same searches run one after the other: the core
    keeps no state shared between searches. Node limits keep both deterministic."""
    import threading

    ids = ("janko-1091", "janko-1108")
    docs = {d.meta["id"]: d for d in corpus() if d.meta["id"] in ids}
    jobs = [(docs[i].puzzle, Limit(solutions=2, seconds=None, nodes=60)) for i in ids]
    jobs.append((Puzzle(5, 6, {0: 3, 14: Q, 29: 4, 9: 2}), Limit(solutions=None, seconds=None)))

    def run(puzzle: Puzzle, limit: Limit) -> tuple[list[int], int, bool]:
        search = NativeSearch(puzzle, limit)
        found = [board.black_mask for board in search.solutions()]
        return found, search.nodes, search.complete

    alone = [run(*job) for job in jobs]
    together: list[tuple[list[int], int, bool] | None] = [None] * len(jobs)

    def worker(k: int) -> None:
        together[k] = run(*jobs[k])

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert together == alone
    assert alone[2][1] > 0 and len(alone[2][0]) > 3  # the small one is enumerated in full


def test_another_thread_cancels_a_search() -> None:
    """cancel() from another thread stops a running search within moments; a search
    cancelled before it starts stops at once."""
    import threading

    puzzle = Puzzle(40, 40, {r * 40 + c: Q for r in range(0, 40, 5) for c in range(0, 40, 5)})
    search = NativeSearch(puzzle, Limit(solutions=None, seconds=30))
    timer = threading.Timer(0.3, search.cancel)
    began = time.perf_counter()
    timer.start()
    try:
        for _ in search.solutions():
            pass
    finally:
        timer.cancel()
    assert time.perf_counter() - began < 3
    assert search.limit_hit == "cancelled" and not search.complete
    early = NativeSearch(puzzle, Limit(solutions=None, seconds=30))
    early.cancel()
    assert list(early.solutions()) == [] and early.limit_hit == "cancelled"


def test_yields_then_reports_complete() -> None:
    puzzle = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])
    search = NativeSearch(puzzle, Limit(solutions=2))
    found = list(search.solutions())
    assert len(found) == 2
    assert search.complete and search.limit_hit is None  # nothing was left to explore


def sliced_solutions(search: _csolve.Search, nodes: int) -> list[bytes]:
    """Every solution `search` lists when it stops every `nodes` nodes and is extended
    each time (a limit on nodes, unlike time, lets a search go on where it stopped)."""
    listed = []
    while True:
        found = search.next()
        if found is not None:
            listed.append(found)
        elif search.stop == "nodes":
            search.extend(search.nodes + nodes)
        else:
            return listed


def _search(puzzle: Puzzle, nodes: int) -> _csolve.Search:
    clues = [(cell, -1 if v == Q else v) for cell, v in puzzle.clues.items()]
    return _csolve.Search(puzzle.rows, puzzle.cols, clues, bytes(puzzle.area), 60.0, nodes, True)


def test_a_search_extended_past_its_node_limit_goes_on_as_if_never_stopped() -> None:
    """Carried on in slices of 3 nodes, a search lists the same solutions, in the same
    order, with the same node count, as one run without a limit."""
    puzzle = Puzzle(5, 6, {0: 3, 14: Q, 29: 4, 9: 2})
    whole = _search(puzzle, -1)
    expected = []
    while (found := whole.next()) is not None:
        expected.append(found)
    assert whole.complete and len(expected) > 3
    sliced = _search(puzzle, 3)
    listed = sliced_solutions(sliced, 3)
    assert listed == expected
    assert sliced.complete and sliced.nodes == whole.nodes


def test_extend_leaves_other_stops_alone() -> None:
    puzzle = Puzzle(5, 6, {0: 3, 14: Q, 29: 4, 9: 2})
    search = _search(puzzle, 2)
    while search.next() is not None:
        pass
    assert search.stop == "nodes"
    search.extend(2)  # no more than it had: still stopped
    assert search.next() is None and search.stop == "nodes"
    search.extend(-1, 0.0)  # unbounded nodes, but no time
    assert search.next() is None and search.stop == "seconds"
    search.extend(-1, 10.0)  # a time stop is final
    assert search.next() is None and search.stop == "seconds"


@needs_corpus
def test_restarting_the_stamp_counters_changes_nothing() -> None:
    """The core's stamp counters start again from 0 before they overflow. A search whose
    counters start again every few hundred stamps finds the same solutions with the same
    nodes, probes and propagations as one whose counters never do (a restart in the
    middle of a probe pass once threw away the cells it had marked to probe again)."""
    docs = [d for d in corpus() if 100 < d.puzzle.area <= 225][::25]
    for doc in docs:
        runs = []
        for aged in (False, True):
            search = _search(doc.puzzle, -1)
            if aged:
                search._restart_stamps_at(500)
            found = [search.next(), search.next()]
            runs.append((found, search.nodes, search.probes, search.propagations))
        assert runs[0] == runs[1], doc.meta["id"]
        assert runs[0][0][1] is None and runs[0][0][0] is not None


def _cells(puzzle: Puzzle, black: int, white: int) -> bytes:
    """The core's start: one byte per cell, 1 black, 2 white, 0 unknown."""
    return bytes(1 if black >> i & 1 else 2 if white >> i & 1 else 0 for i in range(puzzle.area))


@needs_corpus
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_probing_near_a_supposition_decides_the_same(data: st.DataObject) -> None:
    """With `near` (the position without a supposition), the root probes first near the
    supposition, as a child node does; it changes how the search goes, never what it
    finds: a part of a corpus solution plus one cell supposed either way has a solution
    exactly when the supposition agrees with it, and the same one, both ways."""
    docs = [d for d in corpus() if d.puzzle.area <= 225]
    doc = data.draw(st.sampled_from(docs), label="puzzle")
    puzzle, solution = doc.puzzle, doc.solution.black_mask
    free = [i for i in range(puzzle.area) if i not in puzzle.clues]
    shown = data.draw(st.lists(st.sampled_from(free), unique=True, max_size=len(free) // 2))
    black = white = 0
    for cell in shown:
        if solution >> cell & 1:
            black |= 1 << cell
        else:
            white |= 1 << cell
    cell = data.draw(st.sampled_from([i for i in free if i not in shown]), label="cell")
    supposed_black = data.draw(st.booleans(), label="black")
    start = _cells(puzzle, black | (supposed_black << cell), white | ((not supposed_black) << cell))
    clues = [(c, -1 if v == Q else v) for c, v in puzzle.clues.items()]
    answers = []
    for near in (None, _cells(puzzle, black, white)):
        search = _csolve.Search(puzzle.rows, puzzle.cols, clues, start, 60.0, -1, True, near=near)
        found = [search.next(), search.next()]
        assert search.complete and found[1] is None
        answers.append((found[0], search.nodes == 1 and found[0] is None))
    agrees = bool(solution >> cell & 1) == supposed_black
    expected = solution.to_bytes((puzzle.area + 7) // 8, "little") if agrees else None
    assert answers[0][0] == answers[1][0] == expected


@needs_corpus
def test_probing_near_a_supposition_probes_fewer_cells_at_the_root() -> None:
    """Corpus 10x10 puzzles that propagation alone does not solve, a corner cell supposed
    as in the solution: with `near`, the root's probing starts within a few cells of it
    instead of on every cell (on a few, where what it forces spreads far and later
    passes go otherwise, as many or a few more)."""
    totals = [0, 0]
    for doc in [d for d in corpus() if d.puzzle.rows == d.puzzle.cols == 10]:
        puzzle, solution = doc.puzzle, doc.solution.black_mask
        cell = next((i for i in (0, 9, 90, 99) if i not in puzzle.clues), None)
        if cell is None:
            continue
        start = bytearray(puzzle.area)
        start[cell] = 1 if solution >> cell & 1 else 2
        clues = [(c, -1 if v == Q else v) for c, v in puzzle.clues.items()]
        probes = []
        for near in (None, bytes(puzzle.area)):
            search = _csolve.Search(10, 10, clues, bytes(start), 60.0, 1, True, near=near)
            search.next()
            probes.append(search.probes)
        totals = [totals[0] + probes[0], totals[1] + probes[1]]
    assert 0 < totals[1] < totals[0] * 0.95


def _asked(
    puzzle: Puzzle, solution: int, seed: int, memo: _csolve.Memo | None
) -> list[tuple[object, ...]]:
    """What the core answers, as `solver.refuter` asks it, about suppositions of one
    position (a seeded tenth of `solution` shown): each unknown cell of a few supposed
    either way, with and without `near`, within 1 node and then carried on to 8; with
    `memo` shared by all the searches, or none."""
    rng = random.Random(seed)
    free = [i for i in range(puzzle.area) if i not in puzzle.clues]
    shown = rng.sample(free, len(free) // 10)
    black = sum(1 << i for i in shown if solution >> i & 1)
    white = sum(1 << i for i in shown) & ~black
    base = _cells(puzzle, black, white)
    clues = [(c, -1 if v == Q else v) for c, v in puzzle.clues.items()]
    out: list[tuple[object, ...]] = []
    for cell in rng.sample([i for i in free if i not in shown], 6):
        for color in (1, 2):
            for near in (None, base):
                start = bytearray(base)
                start[cell] = color
                search = _csolve.Search(
                    puzzle.rows, puzzle.cols, clues, bytes(start), -1, 1, True, near=near, memo=memo
                )
                for nodes in (1, 8):
                    search.extend(nodes)
                    found = search.next()
                    counts = (search.nodes, search.propagations, search.probes)
                    out.append((found, *counts, search.stop, search.complete))
    return out


@needs_corpus
def test_a_memo_changes_no_answer_and_no_count() -> None:
    """Searches of one puzzle sharing a memo of fixpoints (as the suppositions of one
    position do, `solver.refuter`) answer exactly as they do without it, with the same
    nodes, propagations and probes: propagation is a function of the state alone. Also
    with a memo so small that it starts again empty many times."""
    docs = [d for d in corpus() if 64 <= d.puzzle.area <= 225][::40]
    hits = resets = 0
    for doc in docs:
        puzzle, solution = doc.puzzle, doc.solution.black_mask
        alone = _asked(puzzle, solution, 1, None)
        shared = _csolve.Memo()
        assert _asked(puzzle, solution, 1, shared) == alone, doc.meta["id"]
        tiny = _csolve.Memo(4096)
        assert _asked(puzzle, solution, 1, tiny) == alone, doc.meta["id"]
        hits += shared.stats()[0]
        resets += tiny.stats()[3]
    assert hits > 0 and resets > 0


def test_a_memo_serves_one_puzzle_and_configuration() -> None:
    """A memo made by the searches of one puzzle is refused to another puzzle's, to a
    search with other rules and to one that learns (its propagation records reasons)."""
    memo = _csolve.Memo()
    clues = [(0, 3), (14, 2), (29, 4)]
    _csolve.Search(5, 6, clues, bytes(30), memo=memo).next()
    _csolve.Search(5, 6, clues, bytes(30), memo=memo, cpu=True).next()
    with pytest.raises(ValueError):
        _csolve.Search(5, 6, [(0, 3), (14, 2), (29, 5)], bytes(30), memo=memo)
    with pytest.raises(ValueError):
        _csolve.Search(6, 5, clues, bytes(30), memo=memo)
    with pytest.raises(ValueError):
        _csolve.Search(5, 6, clues, bytes(30), memo=memo, strong=True, learn=True)
    with pytest.raises(TypeError):
        _csolve.Search(5, 6, clues, bytes(30), memo=object())  # type: ignore[arg-type]
    assert memo.stats()[1] > 0


@needs_corpus
def test_two_threads_sharing_a_memo_answer_as_one_by_one() -> None:
    """Searches sharing a memo that run at once in two threads answer as they do one by
    one (one of them then runs without the memo)."""
    import threading

    doc = next(d for d in corpus() if d.meta["id"] == "janko-1091")
    puzzle, solution = doc.puzzle, doc.solution.black_mask
    alone = [_asked(puzzle, solution, seed, None) for seed in (1, 2)]
    memo = _csolve.Memo()
    together: list[object] = [None, None]

    def worker(k: int) -> None:
        together[k] = _asked(puzzle, solution, k + 1, memo)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert together == alone


def test_near_must_be_one_byte_per_cell() -> None:
    with pytest.raises(ValueError):
        _csolve.Search(3, 3, [(0, 1)], bytes(9), near=bytes(8))


# The C core's `strong` rules are sound: with them on and off it lists the same solutions.
#
# The native engine calls the core with ``strong=True`` (the sides rule, on sparse grids);
# the logic engine ranks its trials with the core's counts and never passes it. Both ways
# must give exactly the solutions of the brute-force oracle, on small random grids with
# ordinary, big and `?` clues, and a search must repeat its counts exactly (the logic
# engine's walkthroughs depend on them).

Q = UNKNOWN_CLUE
MOST = 200


def core_solutions(
    puzzle: Puzzle, *, strong: bool, lean: bool = False
) -> tuple[set[int], bool, tuple[int, ...]]:
    """Every solution's black mask (up to MOST), whether the search finished, and its
    counts (nodes, propagations, probes)."""
    from nurikabe.solver import _csolve

    clues = [(cell, -1 if v == Q else v) for cell, v in puzzle.clues.items()]
    size = puzzle.rows * puzzle.cols
    core = _csolve.Search(
        puzzle.rows, puzzle.cols, clues, bytes(size), 60.0, -1, strong=strong, lean=lean
    )
    found: set[int] = set()
    while len(found) < MOST:
        bits = core.next()
        if bits is None:
            break
        mask = int.from_bytes(bits, "little")
        assert mask not in found, "a solution listed twice"
        found.add(mask)
    return found, bool(core.complete), (core.nodes, core.propagations, core.probes)


@st.composite
def tiny_puzzles(draw: st.DrawFn) -> Puzzle:
    """Random grids of up to 20 cells (the oracle's reach): a few clues, ordinary, big
    (islands of 12 cells or more on average switch the sides rule on) or `?`."""
    rows = draw(st.integers(1, 5))
    cols = draw(st.integers(1, 20 // rows))
    n = rows * cols
    cells = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=min(4, n), unique=True))
    big = draw(st.booleans())
    small = st.sampled_from([v for v in (1, 2, 3, 4, 5, Q) if v <= n])
    values = st.integers(max(1, n // 2), n) if big else small
    return Puzzle(rows, cols, {cell: draw(values) for cell in cells})


@pytest.mark.long
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_puzzles())
def test_strong_and_plain_list_the_oracles_solutions(puzzle: Puzzle) -> None:
    expected = black_masks(puzzle, cap=MOST)
    for strong, lean in ((False, False), (True, False), (True, True)):
        found, complete, _ = core_solutions(puzzle, strong=strong, lean=lean)
        if len(expected) < MOST:
            assert complete
            assert found == expected, f"strong={strong} lean={lean}"
        else:
            assert len(found) == MOST


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_puzzles())
def test_a_search_repeats_its_counts(puzzle: Puzzle) -> None:
    """The logic engine's walkthroughs rest on the core's counts being reproducible."""
    for strong in (False, True):
        first = core_solutions(puzzle, strong=strong)
        assert core_solutions(puzzle, strong=strong) == first


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_puzzles())
def test_lean_is_off_without_strong(puzzle: Puzzle) -> None:
    """`lean` changes nothing unless `strong` is on (the logic engine passes neither)."""
    assert core_solutions(puzzle, strong=False, lean=True) == core_solutions(puzzle, strong=False)


def test_one_big_island_in_a_strip() -> None:
    """A 2x6 strip with one clue of 9: the sea of 3 must be connected and pool-free, and
    the island connected; the strong rules prove the same answer the oracle gives."""
    puzzle = Puzzle(2, 6, {0: 9})
    expected = black_masks(puzzle)
    for strong in (False, True):
        found, complete, _ = core_solutions(puzzle, strong=strong)
        assert complete and found == expected


SOLVER_SRC = Path(__file__).resolve().parents[2] / "src" / "nurikabe" / "solver"


@pytest.mark.skipif(
    shutil.which("gcc") is None or not (SOLVER_SRC / "_csolve_check.c").exists(),
    reason="needs gcc and the C sources",
)
def test_the_engine_runs_without_python(tmp_path: Path) -> None:
    """The engine (_csolve.c) builds without Python's headers and, driven through its C
    API alone (_csolve_check.c), solves janko-0001 with the same work as the extension."""
    exe = tmp_path / "csolve_check"
    sources = [str(SOLVER_SRC / "_csolve.c"), str(SOLVER_SRC / "_csolve_check.c")]
    subprocess.run(["gcc", "-O2", "-std=c99", *sources, "-o", str(exe)], check=True)
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    rows = [(0, 4), (0, 6), (1, 0), (1, 8), (2, 3), (3, 1), (3, 6), (4, 5), (4, 7), (5, 2)]
    rows += [(6, 5), (6, 7), (7, 2), (7, 9), (8, 0), (8, 5), (9, 8)]
    search = _csolve.Search(10, 10, [(r * 10 + c, 2) for r, c in rows], bytes(100), strong=True)
    assert search.next() is not None and search.next() is None
    counts = f"nodes {search.nodes}, propagations {search.propagations}, probes {search.probes}"
    assert counts in run.stdout
