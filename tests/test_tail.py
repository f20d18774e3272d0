"""The C core's `strong` rules are sound: with them on and off it lists the same solutions.

The native engine calls the core with ``strong=True`` (the sides rule, on sparse grids);
the logic engine ranks its trials with the core's counts and never passes it. Both ways
must give exactly the solutions of the brute-force oracle, on small random grids with
ordinary, big and `?` clues, and a search must repeat its counts exactly (the logic
engine's walkthroughs depend on them).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nurikabe.puzzle import UNKNOWN_CLUE, Puzzle

from .bruteforce import black_masks

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
