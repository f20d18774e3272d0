"""The thesis's scalable families (research.families), and the exact engines on them.

Each member's known solution obeys the rules; the engines prove it the only one for
small sizes (the brute-force oracle too, where tiny); and the rule the families call for
(the sides count of the C core, on sparse grids) agrees with the oracle on random sparse
puzzles with big islands, `?` clues and one-row grids.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nurikabe.errors import InvalidPuzzleError
from nurikabe.puzzle import UNKNOWN_CLUE, Puzzle
from nurikabe.research.families import (
    FAMILIES,
    Family,
    corner_puzzle,
    diamond_lattice,
    merged_diamonds,
    one_clue_lattice,
    two_clue_puzzle,
)
from nurikabe.rules import is_solved
from nurikabe.solver import Limit, Status, count_solutions, solve
from tests.bruteforce import black_masks

MEMBERS = (
    [("corner", n, corner_puzzle(n)) for n in (3, 5, 7)]
    + [("two-clue", n, two_clue_puzzle(n)) for n in range(3, 10)]
    + [("two-clue", 5, two_clue_puzzle(5, column=2))]
    + [("lattice", n, one_clue_lattice(n, n + 1)) for n in range(2, 12)]
    + [("brick", n, one_clue_lattice(n + 1, n, shifted=True)) for n in range(2, 12)]
    + [("lattice", 31, FAMILIES["lattice"](31)), ("brick", 30, FAMILIES["brick"](30))]
    + [
        ("diamond", n, diamond_lattice(n, n + 3, radius=radius))
        for radius in (0, 1, 2, 3)
        for n in range(2 * radius + 5, 2 * radius + 25, 3)
    ]
    + [
        ("merged", n, merged_diamonds(n + 2, n, radius=radius, length=length))
        for radius in (1, 2, 3)
        for length in (2, 3, 4)
        for n in range(2 * radius + length + 4, 2 * radius + length + 30, 5)
    ]
    + [("diamond", n, FAMILIES["diamond"](n)) for n in (9, 21, 51)]
    + [("merged", n, FAMILIES["merged"](n)) for n in (9, 21, 51)]
)


def _ids(member: tuple[str, int, Family]) -> str:
    name, _, family = member
    return f"{name}-{family.puzzle.rows}x{family.puzzle.cols}"


@pytest.mark.parametrize("member", MEMBERS, ids=_ids)
def test_the_known_solution_obeys_the_rules(member: tuple[str, int, Family]) -> None:
    _, _, family = member
    assert is_solved(family.puzzle, family.solution, all_decided=True)


@pytest.mark.parametrize("member", MEMBERS, ids=_ids)
def test_the_native_engine_proves_it_unique(member: tuple[str, int, Family]) -> None:
    _, _, family = member
    result = solve(family.puzzle, limit=Limit(solutions=2, seconds=60))
    assert result.status is Status.UNIQUE
    assert result.solutions[0].black_mask == family.solution.black_mask


@pytest.mark.parametrize(
    "family",
    [
        corner_puzzle(3),
        corner_puzzle(5),
        two_clue_puzzle(3),
        two_clue_puzzle(4),
        one_clue_lattice(3, 4),
        one_clue_lattice(4, 4, shifted=True),
        one_clue_lattice(2, 7),
    ],
    ids=lambda f: f"{f.puzzle.rows}x{f.puzzle.cols}-{len(f.puzzle.clues)}",
)
def test_the_oracle_finds_the_same_single_solution(family: Family) -> None:
    if family.puzzle.grid.size > 25:
        pytest.skip("too big for the oracle")  # pragma: no cover
    assert black_masks(family.puzzle, cap=2) == {family.solution.black_mask}


@pytest.mark.parametrize(
    ("rows", "cols", "radius", "length"), [(7, 8, 1, 1), (8, 8, 1, 1), (8, 9, 1, 2)]
)
def test_the_oracle_proves_the_smallest_diamond_members(
    rows: int, cols: int, radius: int, length: int
) -> None:
    """The smallest grids that hold a diamond (7x8) and a merged pair (8x9) are within
    the oracle's reach, their 1s pruning it (about 2 s together)."""
    family = merged_diamonds(rows, cols, radius=radius, length=length)
    assert len(family.puzzle.clues) > 1 and max(family.puzzle.clues.values()) > 1
    assert black_masks(family.puzzle, cap=2) == {family.solution.black_mask}


def test_the_diamonds_are_rotated_squares_and_merge_into_rotated_rectangles() -> None:
    family = diamond_lattice(23, 23, radius=3)
    big = {cell: value for cell, value in family.puzzle.clues.items() if value > 1}
    assert big and set(big.values()) == {2 * 3 * 3 + 2 * 3 + 1}
    white = family.solution.white_mask
    for cell in big:
        r0, c0 = divmod(cell, 23)
        for r in range(r0 - 4, r0 + 5):
            for c in range(c0 - 4, c0 + 5):
                if abs(r - r0) + abs(c - c0) <= 4:  # the diamond and the sea around it
                    assert (white >> (r * 23 + c) & 1) == (abs(r - r0) + abs(c - c0) <= 3)
    merged = merged_diamonds(20, 20, radius=1, length=3)
    assert sorted(set(merged.puzzle.clues.values())) == [1, 11]
    rows = merged.solution.to_rows()
    assert rows[3][2:7] == rows[4][3:8] == "#...#" and rows[5][3:8] == "##..."


@pytest.mark.parametrize(
    "family",
    [
        corner_puzzle(3),
        corner_puzzle(5),
        two_clue_puzzle(6),
        two_clue_puzzle(7),
        diamond_lattice(11, 12, radius=2),
        merged_diamonds(12, 11, radius=1, length=3),
    ],
)
def test_the_python_engine_agrees_on_small_members(family: Family) -> None:
    result = solve(family.puzzle, limit=Limit(solutions=2, seconds=60), engine="reference")
    assert result.status is Status.UNIQUE
    assert result.solutions[0].black_mask == family.solution.black_mask


def test_the_corner_family_has_a_cross_of_sea() -> None:
    family = corner_puzzle(9)
    rows = family.solution.to_rows()
    assert rows[4] == "#" * 9
    assert all(row[4] == "#" for row in rows)
    assert sorted(family.puzzle.clues.values()) == [16] * 4


def test_the_two_clues_leave_one_row_of_sea() -> None:
    family = two_clue_puzzle(8)
    assert sum(family.puzzle.clues.values()) == 8 * 8 - 8
    assert family.solution.to_rows()[3] == "#" * 8


@pytest.mark.parametrize(
    "make",
    [
        lambda: corner_puzzle(8),
        lambda: corner_puzzle(1),
        lambda: two_clue_puzzle(2),
        lambda: two_clue_puzzle(5, column=5),
        lambda: one_clue_lattice(1, 5),
        lambda: diamond_lattice(1, 9),
        lambda: diamond_lattice(9, 9, radius=-1),
        lambda: merged_diamonds(9, 9, radius=0, length=2),
        lambda: merged_diamonds(9, 9, radius=1, length=0),
    ],
)
def test_bad_sizes_are_refused(make) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidPuzzleError):
        make()


@st.composite
def sparse_puzzles(draw: st.DrawFn) -> Puzzle:
    """Random grids of up to 20 cells (one-row and one-column ones too) with one to three
    clues, mostly big (the sides rule runs where the islands average 12 cells or more),
    sometimes a `?`."""
    shape = draw(st.sampled_from([(1, 0), (0, 1), (2, 0), (0, 2), (3, 0), (4, 4), (4, 5)]))
    long = draw(st.integers(5, 20))
    rows, cols = shape
    if shape[0] in (1, 2, 3) and shape[1] == 0:
        cols = min(long, 20 // rows)
    elif shape[0] == 0:
        rows, cols = min(long, 20 // shape[1]), shape[1]
    n = rows * cols
    cells = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3, unique=True))
    values = [
        draw(st.one_of(st.integers(max(1, n // 2), n), st.integers(1, n), st.just(UNKNOWN_CLUE)))
        for _ in cells
    ]
    return Puzzle(rows, cols, dict(zip(cells, values, strict=True)))


@pytest.mark.long
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sparse_puzzles())
def test_sparse_puzzles_agree_with_the_oracle(puzzle: Puzzle) -> None:
    want = black_masks(puzzle, cap=30)
    for engine in ("native", "reference"):
        got = count_solutions(
            puzzle, limit=Limit(solutions=30, seconds=60), engine=engine, keep=None
        )
        assert got.count == len(want)
        if got.complete and len(want) < 30:
            assert {b.black_mask for b in got.solutions} == want


@pytest.mark.parametrize(
    ("name", "n"),
    [
        ("corner", 9),
        ("corner", 51),
        ("two-clue", 12),
        ("lattice", 7),
        ("brick", 8),
        ("diamond", 13),
        ("merged", 51),
    ],
)
def test_cli_family_is_proven_unique(name: str, n: int, capsys: pytest.CaptureFixture[str]) -> None:
    """`nurikabe research family NAME --size N` proves the member unique, with the known
    solution, and says so (exit 0)."""
    from nurikabe.cli import main

    assert main(["research", "family", name, "--size", str(n), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "unique" and record["solution_as_known"] and record["n"] == n


@pytest.mark.parametrize(
    "args",
    [
        ["corner", "--size", "8"],
        ["corner", "--size", "2"],
        ["nope", "--size", "9"],
        ["lattice", "--size", "nan"],
    ],
)
def test_cli_family_bad_input(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from nurikabe.cli import main

    try:
        code = main(["research", "family", *args])
    except SystemExit as exc:  # argparse's own refusals
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
