"""Tests of the C core's learning from conflicts (reasons, decision cuts, nogoods,
backjumps, restarts).

Learning may change the search tree but never a count: on random small puzzles with
0, 1, 2 and more solutions (`?` clues too), the native engine with learning on and off
lists exactly the solutions of the brute-force oracle (tests/bruteforce.py) and of the
independent reference engine. A debug build of the engine (`-DCSOLVE_CHECK_NOGOODS`,
driven by _csolve_check.c's `count` mode) checks every reason a rule gives and every
nogood it learns against the brute-force list of solutions, under settings that restart
after every conflict and keep only 8 nogoods, so that restarts, backjumps and pruning
all run on tiny grids: on a fixed set of random puzzles (200; 600 and the backjumps of
deletion tests with `-m slow`) and on hypothesis's.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nurikabe.puzzle import UNKNOWN_CLUE, Puzzle
from nurikabe.solver import Limit, _csolve, count_solutions, native
from nurikabe.solver.native import NativeSearch
from tests.bruteforce import black_masks
from tests.corpus import needs_corpus, sample
from tests.solver.test_native import sliced_solutions

Q = UNKNOWN_CLUE
SOLVER_SRC = Path(__file__).resolve().parents[2] / "src" / "nurikabe" / "solver"


@st.composite
def small_puzzles(draw: st.DrawFn) -> Puzzle:
    """Random puzzles of 9 to 20 cells with one to five clues, some `?` (sound or not):
    most have no solution, many have one or two, some dozens."""
    rows = draw(st.integers(3, 5))
    cols = draw(st.integers(3, 4 if rows == 5 else 5))
    n = rows * cols
    cells = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=5, unique=True))
    values = st.sampled_from([1, 2, 2, 3, 3, 4, 5, 6, 7, Q])
    return Puzzle(rows, cols, {cell: draw(values) for cell in cells})


def native_masks(
    puzzle: Puzzle, learn: bool, reasons: bool = False, after: int = 0
) -> tuple[list[int], NativeSearch]:
    """The solutions `NativeSearch` lists, with learning (from node `after` on) and
    `native.REASONS` as asked."""
    saved, native.REASONS = native.REASONS, reasons
    try:
        limit = Limit(solutions=None, seconds=60)
        search = NativeSearch(puzzle, limit, learn=learn, learn_after=after)
        return [board.black_mask for board in search.solutions()], search
    finally:
        native.REASONS = saved


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles())
def test_counts_equal_the_oracle_with_learning_on_and_off(puzzle: Puzzle) -> None:
    expected = black_masks(puzzle)
    reference = count_solutions(puzzle, limit=Limit(solutions=None), engine="reference", keep=None)
    assert reference.complete and reference.count == len(expected)
    modes = ((False, False, 0), (True, False, 0), (True, True, 0), (True, False, 3))
    for learn, reasons, after in modes:  # the last: learning from the third node on
        found, search = native_masks(puzzle, learn, reasons, after)
        assert search.complete
        assert len(found) == len(set(found)) == len(expected)  # each once
        assert set(found) == expected


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles(), st.integers(1, 3), st.sampled_from([0, 2, 4]))
def test_the_first_solutions_are_counted_exactly(puzzle: Puzzle, most: int, after: int) -> None:
    """With a limit of solutions (2 for uniqueness), learning (from node `after` on)
    answers as the oracle: as many distinct solutions as there are up to the limit, and
    complete only when no other is left."""
    limit = Limit(solutions=most, seconds=60)
    search = NativeSearch(puzzle, limit, learn=True, learn_after=after)
    assert_first_solutions(search, black_masks(puzzle), most)


def assert_first_solutions(search: NativeSearch, expected: set[int], most: int) -> None:
    """`search` (a limit of `most` solutions) lists as many distinct solutions of the
    oracle's `expected` as there are up to the limit, and is complete only when no
    other is left."""
    found = [board.black_mask for board in search.solutions()]
    assert len(found) == len(set(found)) == min(most, len(expected))
    assert set(found) <= expected
    if len(expected) > most:
        assert search.limit_hit == "solutions" and not search.complete
    else:
        assert search.complete or search.limit_hit == "solutions"


def _many() -> Puzzle:
    """A sparse 5x6 with 4,892 solutions (clues 8 and `?`): enough conflicts to learn from."""
    return Puzzle(5, 6, {0: 8, 29: Q})


def _several() -> Puzzle:
    """A sparse 5x5 with 910 solutions (clues 7 and `?`): conflicts enough to learn from
    in a fifth of `_many`'s nodes, and a brute force of 1.5 s instead of 8."""
    return Puzzle(5, 5, {0: 7, 24: Q})


@pytest.mark.slow  # about 27 s: the 4,892 solutions of a sparse 5x6, three nodes at a time
def test_learning_runs_and_a_node_limit_resumes_it_exactly() -> None:
    """A search with learning, stopped every 3 nodes and extended, lists the same solutions
    as one run without a limit; and it did learn."""
    puzzle = _many()
    clues = [(cell, -1 if v == Q else v) for cell, v in puzzle.clues.items()]

    def core(nodes: int) -> _csolve.Search:
        return _csolve.Search(5, 6, clues, bytes(30), 60.0, nodes, strong=True, learn=True)

    whole = core(-1)
    expected = []
    while (found := whole.next()) is not None:
        expected.append(found)
    assert whole.complete and whole.learned > 0
    assert {int.from_bytes(b, "little") for b in expected} == black_masks(puzzle)
    sliced = core(3)
    listed = sliced_solutions(sliced, 3)
    assert sliced.complete and sorted(listed) == sorted(expected)


@pytest.mark.slow  # about 26 s: the same sparse 5x6, searched twice
def test_the_switch_turns_learning_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """NURIKABE_CSOLVE_OFF=learning: the same work as a search that never asked to learn."""
    puzzle = _many()
    _, plain = native_masks(puzzle, False)
    monkeypatch.setenv("NURIKABE_CSOLVE_OFF", "learning")
    found, switched = native_masks(puzzle, True)
    assert switched.learned == 0 and switched.restarts == 0
    assert (switched.nodes, switched.propagations, switched.probes) == (
        plain.nodes,
        plain.propagations,
        plain.probes,
    )
    assert set(found) == black_masks(puzzle)


def test_learning_that_never_starts_changes_nothing() -> None:
    """With `learn_after` past the end of the search, learning never starts: the same
    solutions, nodes, propagations and probes as a search that never asked to learn.
    (It stores the paths of the first 16 solutions handed back, unused, for the
    restarts learning would make.)"""
    puzzle = _many()
    found, plain = native_masks(puzzle, False)
    late, waited = native_masks(puzzle, True, after=10**9)
    assert late == found and waited.learned == min(16, len(found)) and waited.restarts == 0
    assert (waited.nodes, waited.propagations, waited.probes) == (
        plain.nodes,
        plain.propagations,
        plain.probes,
    )


@pytest.mark.slow  # about 15 s each: the sparse 5x6 searched whole
@pytest.mark.parametrize(("after", "reasons"), [(2, True), (40, False), (300, False)])
def test_learning_that_starts_late_lists_every_solution_once(after: int, reasons: bool) -> None:
    """Learning that starts at node `after` of a search without it (some solutions
    handed back already, some subtrees closed) lists every solution of a sparse 5x6
    once, and learns; with reasons it starts by a restart."""
    puzzle = _many()
    found, search = native_masks(puzzle, True, reasons, after)
    assert search.complete and search.learned > 0
    assert len(found) == len(set(found)) and set(found) == black_masks(puzzle)
    assert search.restarts >= (1 if reasons else 0)


def test_learning_that_starts_late_resumes_a_node_limit_exactly() -> None:
    """A search stopped every 7 nodes and extended hands over to learning at node 100
    as one run does: the same solutions."""
    puzzle = _several()
    clues = [(cell, -1 if v == Q else v) for cell, v in puzzle.clues.items()]

    def core(nodes: int) -> _csolve.Search:
        return _csolve.Search(
            5, 5, clues, bytes(25), 60.0, nodes, strong=True, learn=True, learn_after=100
        )

    whole = core(-1)
    expected = []
    while (board := whole.next()) is not None:
        expected.append(board)
    sliced = core(7)
    listed = sliced_solutions(sliced, 7)
    assert whole.complete and sliced.complete and whole.learned > 0
    assert sorted(listed) == sorted(expected)
    assert {int.from_bytes(b, "little") for b in listed} == black_masks(puzzle)


def test_learning_that_starts_late_stops_restarting_at_its_first_solution() -> None:
    """Learning that starts late (the native engine's default) in a search that has handed
    back a solution makes no restart: the search is proving there is no other solution,
    so it goes on in place (before 2026-11-29 this 6x6 with 7 solutions, learning from
    node 20, restarted once, in 187 nodes against 173), and lists every solution once."""
    puzzle = Puzzle(6, 6, {28: 3, 12: 9})
    expected = black_masks(puzzle)
    found, search = native_masks(puzzle, True, after=20)
    assert search.complete and search.learned > 0 and search.restarts == 0
    assert len(found) == len(set(found)) == len(expected) == 7 and set(found) == expected


@pytest.mark.parametrize("off", ["", "reasons"])
def test_decision_cuts_list_the_same_solutions_as_decision_paths(
    monkeypatch: pytest.MonkeyPatch, off: str
) -> None:
    """With `reasons` a refuted leaf's nogood is its decision cut, a subset of its path;
    without (the default), or with NURIKABE_CSOLVE_OFF=reasons whatever is asked, its
    path. Both list every solution of a sparse 5x5 with hundreds, each once."""
    puzzle = _several()
    clues = [(cell, -1 if v == Q else v) for cell, v in puzzle.clues.items()]
    monkeypatch.setenv("NURIKABE_CSOLVE_OFF", off)
    listed = []
    for reasons in (False, True):
        core = _csolve.Search(
            5, 5, clues, bytes(25), 60.0, -1, strong=True, learn=True, reasons=reasons
        )
        found = []
        while (board := core.next()) is not None:
            found.append(board)
        assert core.complete and core.learned > 0 and len(set(found)) == len(found)
        if reasons and not off:
            assert 0 < core.cut_literals <= core.path_literals
        else:
            assert core.cut_literals == core.path_literals == 0
        listed.append(sorted(found))
    assert listed[0] == listed[1]
    assert {int.from_bytes(b, "little") for b in listed[0]} == black_masks(puzzle)


def test_the_logic_engine_calls_never_learn() -> None:
    """Learning is for the native engine's (strong) calls: the logic engine counts the
    core's work into its grades, so its calls ignore `learn`."""
    puzzle = _many()
    clues = [(cell, -1 if v == Q else v) for cell, v in puzzle.clues.items()]
    works = []
    for learn in (False, True):
        core = _csolve.Search(5, 6, clues, bytes(30), cpu=True, learn=learn)
        while core.next() is not None:
            pass
        works.append((core.nodes, core.propagations, core.probes, core.learned))
    assert works[0] == works[1] and works[1][3] == 0


@needs_corpus
@pytest.mark.parametrize("doc", sample(6, max_cells=225), ids=lambda d: d.meta["id"])
def test_corpus_puzzles_are_proven_unique_with_learning(doc) -> None:  # type: ignore[no-untyped-def]
    search = NativeSearch(doc.puzzle, Limit(solutions=2, seconds=60), learn=True)
    boards = list(search.solutions())
    assert search.complete and boards == [doc.solution]


def _oracle_lines(seed: int, count: int) -> tuple[list[str], list[int]]:
    """Random puzzles of at most 20 cells for the check build, one a line, and their
    numbers of solutions by brute force."""
    rng = random.Random(seed)
    lines, counts = [], []
    for _ in range(count):
        rows, cols = rng.choice([(4, 4), (4, 5), (5, 4), (3, 6), (4, 3), (3, 5)])
        cells = rng.sample(range(rows * cols), rng.randint(1, 4))
        puzzle = Puzzle(rows, cols, {c: rng.choice([1, 2, 3, 3, 4, 5, 6, 7, Q]) for c in cells})
        counts.append(len(black_masks(puzzle)))
        lines.append(puzzle_line(puzzle))
    return lines, counts


needs_gcc = pytest.mark.skipif(
    shutil.which("gcc") is None or not (SOLVER_SRC / "_csolve_check.c").exists(),
    reason="needs gcc and the C sources",
)

CHECK_FLAGS = [
    "-DCSOLVE_CHECK_NOGOODS",
    "-DLEARN_RESTART_UNIT=1",
    "-DLEARN_CAP=8",
    "-DLEARN_RESTART_SOLUTIONS=100000",  # blocking nogoods for every solution
    "-DLEARN_LATE_RESTART_SOLUTIONS=100000",  # learning from node AFTER restarts after them
]
"""The check build's settings: restarts after every conflict (also once solutions were
handed back), a store of 8 nogoods."""


def build_check(exe: Path, *flags: str) -> Path:
    sources = [str(SOLVER_SRC / "_csolve.c"), str(SOLVER_SRC / "_csolve_check.c")]
    command = ["gcc", "-O2", "-std=c99", *CHECK_FLAGS, *flags, *sources, "-o", str(exe)]
    subprocess.run(command, check=True)
    return exe


def puzzle_line(puzzle: Puzzle) -> str:
    """A puzzle in the `count` format of _csolve_check.c."""
    pairs = [x for c, v in puzzle.clues.items() for x in (c, -1 if v == Q else v)]
    return " ".join(map(str, [puzzle.rows, puzzle.cols, len(puzzle.clues), *pairs]))


@pytest.fixture(scope="module")
def check_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_check(tmp_path_factory.mktemp("check") / "csolve_check")


@needs_gcc
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles())
def test_reasons_and_cuts_hold_on_random_puzzles(check_build: Path, puzzle: Puzzle) -> None:
    """The check build on hypothesis's puzzles: every reason a rule, a nogood or a probe
    gives implies its cell (or refutes its state) in every solution it should, names no
    unknown cell and not its own, every record the analysis reads is the one of its
    level, every decision cut keeps every solution not yet handed back (it aborts
    otherwise), and it counts as the oracle: learning from the first node, and learning
    that starts at node 3 (the hand-over from the search without it checked too), and
    restarts that branch on cells drawn at random (diversify)."""
    expected = len(black_masks(puzzle))
    # from the start; from node 3, with and without reasons; diversified restarts
    for mode in ([], ["3"], ["3", "1"], ["0", "2", "1"], ["3", "1", "1"]):
        run = subprocess.run(
            [str(check_build), "count", *mode],
            input=puzzle_line(puzzle) + "\n",
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.returncode == 0, run.stderr[-2000:]
        count, complete, *_ = map(int, run.stdout.split())
        assert complete == 1 and count == expected, mode


def _count_lines(exe: Path, lines: list[str], *mode: str) -> list[list[int]]:
    """The check build's `count` rows for `lines` (mode: learning from node AFTER, and 1
    for reasons), after checking that it did not abort."""
    run = subprocess.run(
        [str(exe), "count", *mode],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, f"count {list(mode)}: " + run.stderr[-2000:]
    rows = [list(map(int, row.split())) for row in run.stdout.splitlines()]
    assert len(rows) == len(lines)
    return rows


@needs_gcc
@pytest.mark.parametrize("count", [200, pytest.param(600, marks=pytest.mark.slow)])
def test_every_learned_nogood_keeps_every_solution_not_yet_found(
    check_build: Path, count: int
) -> None:
    """The check build aborts when a nogood would cut a solution not handed back yet, or
    a reason does not hold; restarting after every conflict with a store of 8 nogoods,
    it counts a fixed set of random puzzles as the oracle. A refuted leaf's nogood is its
    decision cut (a little shorter than the path on grids this small). Learning that
    starts late too: at node 2 (with reasons: by a restart) or 5 (paths, in place: the
    frames' closed first children become conflict sets and nogoods). And restarts that
    branch on cells drawn at random (diversify), both ways."""
    lines, counts = _oracle_lines(20261127, count)
    assert sum(1 for c in counts if c == 0) > 10 and sum(1 for c in counts if c >= 3) > 10
    rows = _count_lines(check_build, lines)
    assert [r[0] for r in rows] == counts and all(r[1] == 1 for r in rows)
    learned, restarts, _jumps, checked, reasons, cut, path = (
        sum(r[k] for r in rows) for k in range(2, 9)
    )
    assert learned > 1000 and restarts > count // 10 and checked > 1000
    assert reasons > 1000  # every reason of cells a rule gave was checked
    assert 0 < cut < path  # the decision cuts of the reasons: often shorter than the path
    for mode in (["2"], ["5", "1"], ["0", "2", "1"], ["5", "1", "1"]):  # then diversified
        rows = _count_lines(check_build, lines, *mode)
        assert [r[0] for r in rows] == counts and all(r[1] == 1 for r in rows), mode
        assert sum(r[2] for r in rows) > 1000 and sum(r[5] for r in rows) > 1000


@needs_gcc
@pytest.mark.slow  # about 15 s: 600 puzzles by brute force, and a build of its own
def test_deletion_tests_backjump_and_keep_every_solution(tmp_path: Path) -> None:
    """With 12 deletion tests (LEARN_TESTS) a refuted leaf's nogood is its path shortened
    by deletion, and the search backjumps (rarely on grids this small: a few times in the
    600 puzzles); the check build still counts them all as the oracle."""
    lines, counts = _oracle_lines(20261127, 600)
    exe = build_check(tmp_path / "csolve_check_12", "-DLEARN_TESTS=12")
    rows = _count_lines(exe, lines)
    assert [r[0] for r in rows] == counts and all(r[1] == 1 for r in rows)
    learned, restarts, jumps, checked, reasons, cut, path = (
        sum(r[k] for r in rows) for k in range(2, 9)
    )
    assert learned > 1000 and restarts > 50 and checked > 1000 and reasons > 1000
    assert jumps > 0 and cut == path == 0
