"""The rule checker: codes, order, modes, partial soundness, wrong cells (nurikabe.rules)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nurikabe import UNKNOWN_CLUE, Board, CellSet, Puzzle
from nurikabe.grid import bits
from nurikabe.rules import (
    CODES,
    MODES,
    RULES,
    Violation,
    check,
    is_solved,
    violation_mask,
    wrong_cells,
)
from tests.corpus import corpus, needs_corpus, sample
from tests.rules_cases import RuleCase, case_id, load_cases, raw_cases

# A 5x7 solution, digits are the clues (each island checked by hand).
SOLVED = [
    "2.#1#2.",
    "#######",
    "#3.#1#2",
    "##.###.",
    "1##.2##",
]


def puzzle_of(rows: list[str]) -> Puzzle:
    """The puzzle whose clues are the digits of `rows`."""
    return Puzzle.from_grid([[int(ch) if ch.isdigit() else 0 for ch in row] for row in rows])


def board_of(puzzle: Puzzle, rows: list[str]) -> Board:
    return Board.from_rows(puzzle, rows)


def edit(rows: list[str], **cells: str) -> list[str]:
    """`rows` with cells replaced: ``edit(rows, r3c2="#")`` (1-based names)."""
    out = [list(row) for row in rows]
    for name, ch in cells.items():
        r, c = name[1:].split("c")
        out[int(r) - 1][int(c) - 1] = ch
    return ["".join(row) for row in out]


def codes(violations: list[Violation]) -> list[str]:
    return [v.code for v in violations]


P = puzzle_of(SOLVED)


def test_table_and_codes() -> None:
    assert CODES == (
        "clue-shaded",
        "pool",
        "island-no-clue",
        "sea-split",
        "island-two-clues",
        "island-size",
    )
    assert [r.code for r in RULES] == list(CODES)
    assert MODES == ("first", "all", "partial")
    assert all(r.description.endswith(".") for r in RULES)


@pytest.mark.parametrize("mode", MODES)
def test_hand_solution_is_valid(mode: str) -> None:
    assert P.rows == 5 and P.cols == 7
    board = board_of(P, SOLVED)
    assert check(P, board, mode=mode) == []
    assert is_solved(P, board)


def test_solution_without_dots_is_solved() -> None:
    # Unknown cells count as white in a full check: dots are optional.
    rows = [row.replace(".", "?") for row in SOLVED]
    board = board_of(P, rows)
    assert check(P, board, mode="all") == []
    assert is_solved(P, board)
    assert not is_solved(P, board, all_decided=True)
    assert is_solved(P, board_of(P, SOLVED), all_decided=True)
    assert check(P, board, mode="partial") == []


# -- the shared cases (tests/data/rules_cases.json, also run by static/js/rules.js) ------------


@pytest.mark.parametrize("raw", raw_cases(), ids=case_id)
def test_rules_cases(raw: object) -> None:
    case = RuleCase.from_json(raw)
    board = case.board()
    found = check(case.puzzle, board, mode=case.mode)
    assert codes(found) == list(case.codes)
    if case.cells is not None:
        assert [tuple(v.cells) for v in found] == list(case.cells)
    # What holds between the modes on any board: "first" is the first rule's part of "all",
    # and on a board without unknown cells "partial" flags what "all" flags.
    every = check(case.puzzle, board, mode="all")
    assert codes(check(case.puzzle, board, mode="first")) == [
        c for c in codes(every) if c == codes(every)[0]
    ]
    if not board.unknown_mask & ~case.puzzle.clue_mask:
        assert [(v.code, v.mask) for v in check(case.puzzle, board, mode="partial")] == [
            (v.code, v.mask) for v in every
        ]
    assert is_solved(case.puzzle, board) == (every == [])


def test_rules_cases_cover_every_code_in_every_mode() -> None:
    cases = load_cases()
    assert len({case.name for case in cases}) == len(cases), "case names repeat"
    for mode in MODES:
        found = {code for case in cases if case.mode == mode for code in case.codes}
        assert found == set(CODES), (mode, set(CODES) - found)
        assert any(case.mode == mode and not case.codes for case in cases), mode
    assert any(case.puzzle.rows != case.puzzle.cols for case in cases)
    assert any(case.puzzle.rows > case.puzzle.cols for case in cases)
    assert any(UNKNOWN_CLUE in case.puzzle.clues.values() for case in cases)


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        (lambda raw: raw.pop("codes"), "missing fields"),
        (lambda raw: raw.update(extra=1), "unknown fields"),
        (lambda raw: raw.update(mode="some"), "unknown mode"),
        (lambda raw: raw.update(codes=["two-clues"]), "codes must be"),
        (lambda raw: raw.update(cells=["r1c1", "r1c2"]), "one string per code"),
        (lambda raw: raw.update(board=raw["board"][:-1]), "is not"),
        (lambda raw: raw["board"].__setitem__(0, "9" + raw["board"][0][1:]), "is written"),
        (lambda raw: raw["board"].__setitem__(1, "x" + raw["board"][1][1:]), "is not one of"),
    ],
)
def test_rules_cases_reject_a_malformed_case(change, complaint: str) -> None:  # type: ignore[no-untyped-def]
    raw = {
        "name": "pool",
        "puzzle": "https://puzz.link/p?nurikabe/3/2/1k",
        "board": ["1..", "..."],
        "mode": "all",
        "codes": ["island-size"],
        "cells": ["r1c1 r1c2 r1c3 r2c1 r2c2 r2c3"],
    }
    RuleCase.from_json(raw)
    change(raw)
    with pytest.raises(ValueError, match=complaint):
        RuleCase.from_json(raw)


def test_flagged_cells_and_messages() -> None:
    board = board_of(P, edit(SOLVED, r4c3="#"))
    pool, size = check(P, board, mode="all")
    assert pool.cells.coords() == [(3, 1), (3, 2), (4, 1), (4, 2)]
    assert pool.message == "The black cells r4c2 to r5c3 form a 2x2 pool."
    assert sorted(size.cells.coords()) == [(2, 1), (2, 2)]
    assert size.message == "The island of the 3 at r3c2 has 2 cells."
    assert size.coords() == [[2, 1], [2, 2]]
    assert size.to_json() == {
        "code": "island-size",
        "cells": [[2, 1], [2, 2]],
        "message": "The island of the 3 at r3c2 has 2 cells.",
    }
    assert str(size).startswith("island-size: ")
    assert violation_mask([pool, size]) == pool.mask | size.mask


def test_clue_shaded_message() -> None:
    (v,) = check(P, board_of(P, edit(SOLVED, r3c5="#")))
    assert v.cells == {P.grid.cell(2, 4)}
    assert v.message == "The clue 1 at r3c5 is shaded; clue cells are white."


def test_no_clue_area_is_flagged_whole() -> None:
    puzzle = puzzle_of(edit(SOLVED, r3c5="."))
    (v,) = check(puzzle, board_of(puzzle, edit(SOLVED, r3c5=".")))
    assert v.cells.coords() == [(2, 4)]
    assert v.message == "The white area at r3c5 (1 cell) has no clue."


def test_sea_split_flags_all_but_the_largest() -> None:
    puzzle = puzzle_of(edit(SOLVED, r3c2="4"))
    (v,) = check(puzzle, board_of(puzzle, edit(SOLVED, r4c2=".")))
    assert v.cells.coords() == [(4, 1), (4, 2)]
    assert "cut off from the main sea" in v.message and "r5c2 and r5c3" in v.message


def test_sea_split_three_parts() -> None:
    # Three black parts of sizes 1, 2 and 3: the two smaller are flagged, each on its own.
    puzzle = Puzzle.from_grid([[0, 0, 0, 0, 0, 0, 0], [3, 0, 0, 0, 0, 0, 1]])
    board = board_of(puzzle, ["#.##.##", "3..#..1"])
    found = check(puzzle, board, mode="all")
    splits = [v for v in found if v.code == "sea-split"]
    assert [v.cells.coords() for v in splits] == [[(0, 0)], [(0, 5), (0, 6)]]
    assert all(v.message.endswith("main sea (3 cells at r1c3).") for v in splits)


def test_two_clues_cells_and_size_exemption() -> None:
    board = board_of(P, edit(SOLVED, r2c7="."))
    found = check(P, board, mode="all")
    assert codes(found) == ["island-two-clues"]  # no size error for a two-clue island
    assert len(found[0].cells) == 5
    assert "2 clues" in found[0].message and "r1c6" in found[0].message


def test_unknown_clue_is_exempt_from_size_but_counts_as_a_clue() -> None:
    puzzle = P.with_clue(P.grid.cell(2, 6), UNKNOWN_CLUE)
    assert check(puzzle, board_of(puzzle, edit(SOLVED, r5c7=".")), mode="all") == []
    assert check(puzzle, board_of(puzzle, SOLVED), mode="all") == []
    # Joined to another clue it is a second clue.
    found = check(puzzle, board_of(puzzle, edit(SOLVED, r2c7=".")), mode="all")
    assert codes(found) == ["island-two-clues"]
    assert "? at r3c7" in found[0].message
    # Shaded, it is reported like any clue.
    (v,) = check(puzzle, board_of(puzzle, edit(SOLVED, r3c7="#")))
    assert v.code == "clue-shaded" and "clue ? at r3c7" in v.message


def test_multiple_pools_one_violation_per_group() -> None:
    puzzle = Puzzle.from_grid([[0] * 7 for _ in range(5)])
    rows = ["###....", "###....", ".......", "....##.", "....##."]
    found = check(puzzle, board_of(puzzle, rows), mode="all")
    pools = [v for v in found if v.code == "pool"]
    assert [len(v.cells) for v in pools] == [6, 4]
    assert "form 2x2 pools" in pools[0].message and "r1c1 and r1c2" in pools[0].message


def test_bad_mode_and_size() -> None:
    board = board_of(P, SOLVED)
    with pytest.raises(ValueError, match="unknown check mode"):
        check(P, board, mode="some")
    other = Puzzle(7, 5)
    with pytest.raises(ValueError, match="does not fit"):
        check(other, board)


# -- partial mode -----------------------------------------------------------------------------


def blank(rows: list[str], keep: str) -> list[str]:
    """`rows` with every cell not in `keep` (a string of 1-based names) made unknown."""
    names = set(keep.split())
    return [
        "".join(
            ch if ch.isdigit() or f"r{r + 1}c{c + 1}" in names else "?" for c, ch in enumerate(row)
        )
        for r, row in enumerate(rows)
    ]


def test_partial_white_cut_off_with_unknowns() -> None:
    puzzle = Puzzle.from_clues(5, 7, [(0, 0, 3)])
    rows = ["???????", "???????", "??##???", "?#.?#??", "??##???"]
    (v,) = check(puzzle, board_of(puzzle, rows), mode="partial")
    assert v.code == "island-no-clue"
    assert v.cells.coords() == [(3, 2)]
    assert v.message == "The white cell r4c3 cannot reach any clue."
    # Once the pocket's unknown is also white, the whole area is flagged, as in a full check.
    rows[3] = "?#..#??"
    (v,) = check(puzzle, board_of(puzzle, rows), mode="partial")
    assert v.cells.coords() == [(3, 2), (3, 3)]
    assert v.message == "The white area at r4c3 (2 cells) has no clue."


def test_partial_messages() -> None:
    rows = edit(blank(SOLVED, ""), r2c2="#", r3c1="#", r4c2="#", r3c3="#")
    (v,) = check(P, board_of(P, rows), mode="partial")
    assert v.message == "The island of the 3 at r3c2 is closed off with 1 cell."
    rows = edit(blank(SOLVED, ""), r2c2="#", r3c1="#", r4c2="#", r3c4="#", r2c3="#", r4c3="#")
    (v,) = check(P, board_of(P, rows), mode="partial")
    assert v.message == "The island of the 3 at r3c2 can grow to 2 cells at most."
    assert v.cells.coords() == [(2, 1), (2, 2)]
    rows = edit(blank(SOLVED, ""), r3c3=".", r4c3=".", r4c4=".")
    (v,) = check(P, board_of(P, rows), mode="partial")
    assert v.message == "The island of the 3 at r3c2 already has 4 cells."


def test_partial_unknowns_are_white_in_full_modes() -> None:
    rows = edit(blank(SOLVED, ""), r2c2="#", r3c1="#", r4c2="#", r3c3="#")
    board = board_of(P, rows)
    assert check(P, board, mode="partial") != []
    # The full check sees one big white area around the black cells: sizes are wrong.
    assert "island-two-clues" in codes(check(P, board, mode="all"))


# -- the corpus -----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_corpus_solutions_are_valid(mode: str) -> None:
    for doc in corpus():
        assert doc.solution is not None
        assert check(doc.puzzle, doc.solution, mode=mode) == [], doc.meta["id"]


def _expected_after_flip(puzzle: Puzzle, solution: Board, i: int) -> set[str]:
    """The codes of which one must appear when cell `i` of a solution flips (all mode)."""
    grid = puzzle.grid
    if solution.black_mask >> i & 1:
        white = grid.full & ~solution.black_mask
        touched = [isl for isl in grid.components(white) if isl & grid.neighbors[i]]
        if not touched:
            return {"island-no-clue"}
        if len(touched) > 1:
            return {"island-two-clues"}
        (island,) = touched
        (clue,) = bits(island & puzzle.clue_mask)
        return {"island-size"} if puzzle.clues[clue] != UNKNOWN_CLUE else set()
    if i in puzzle.clues:
        return {"clue-shaded"}
    return {"island-size", "island-no-clue"}


@pytest.mark.parametrize("doc", sample(12, max_cells=150), ids=lambda d: d.meta["id"])
def test_corpus_flips(doc) -> None:  # type: ignore[no-untyped-def]
    puzzle, solution = doc.puzzle, doc.solution
    for i in range(puzzle.area):
        board = solution.copy()
        if board.black_mask >> i & 1:
            board.set_white(i)
        else:
            board.set_black(i)
        every = check(puzzle, board, mode="all")
        found = codes(every)
        expected = _expected_after_flip(puzzle, solution, i)
        assert found, (doc.meta["id"], i)
        assert expected & set(found) or not expected, (doc.meta["id"], i, found)
        assert found == sorted(found, key=CODES.index)
        assert codes(check(puzzle, board)) == [c for c in found if c == found[0]]
        assert [(v.code, v.mask) for v in check(puzzle, board, mode="partial")] == [
            (v.code, v.mask) for v in every
        ]
        # The flagged cells are at the flipped cell or next to it.
        assert violation_mask(every) & puzzle.grid.dilate(1 << i)
        # And the board agrees with the solution everywhere else.
        assert list(wrong_cells(board, solution)) == [i]


@needs_corpus
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_partial_never_flags_a_subset_of_the_solution(data: st.DataObject) -> None:
    docs = corpus()
    doc = docs[data.draw(st.integers(0, len(docs) - 1), label="puzzle")]
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    keep = data.draw(st.floats(0.0, 1.0), label="keep")
    rng = random.Random(seed)
    solution = doc.solution
    full = doc.puzzle.grid.full
    known = 0
    for i in range(doc.puzzle.area):
        if rng.random() < keep:
            known |= 1 << i
    board = Board(doc.puzzle, solution.black_mask & known, (full & ~solution.black_mask) & known)
    assert check(doc.puzzle, board, mode="partial") == []
    # With the clue cells marked white too, as a game board has them.
    board.white_mask |= doc.puzzle.clue_mask
    assert check(doc.puzzle, board, mode="partial") == []


def _completions(puzzle: Puzzle, board: Board) -> list[Board]:
    unknown = list(bits(board.unknown_mask))
    out = []
    for choice in itertools.product((0, 1), repeat=len(unknown)):
        black = board.black_mask
        for i, b in zip(unknown, choice, strict=True):
            black |= b << i
        out.append(Board(puzzle, black, puzzle.grid.full & ~black))
    return out


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_partial_is_sound_on_small_boards(data: st.DataObject) -> None:
    """Whatever the partial check flags, every completion of the board breaks some rule."""
    rows, cols = data.draw(st.sampled_from([(2, 5), (3, 4), (4, 3), (3, 3), (2, 6)]))
    area = rows * cols
    clue_cells = data.draw(st.sets(st.integers(0, area - 1), max_size=3))
    clues = {i: data.draw(st.sampled_from([1, 2, 3, 4, UNKNOWN_CLUE])) for i in clue_cells}
    puzzle = Puzzle(rows, cols, clues)
    states = data.draw(st.lists(st.sampled_from("#.??"), min_size=area, max_size=area))
    black = white = 0
    for i, ch in enumerate(states):
        if ch == "#":
            black |= 1 << i
        elif ch == "." or i in clues:
            white |= 1 << i
    board = Board(puzzle, black, white)
    if board.unknown_mask.bit_count() > 9:
        return
    found = check(puzzle, board, mode="partial")
    completions = _completions(puzzle, board)
    if found:
        for done in completions:
            assert check(puzzle, done, mode="first"), (found, done)
    if any(is_solved(puzzle, done) for done in completions):
        assert found == []
    # Each code found by the partial check is found by the full check of every completion
    # for the rules that are monotone in this sense.
    for v in found:
        if v.code in ("pool", "clue-shaded", "island-two-clues"):
            for done in completions:
                assert v.code in codes(check(puzzle, done, mode="all"))


# -- wrong cells ----------------------------------------------------------------------------


def test_wrong_cells() -> None:
    solution = board_of(P, SOLVED)
    assert wrong_cells(solution, solution) == CellSet(P.grid, 0)
    assert not wrong_cells(P.empty_board(), solution)
    board = P.empty_board()
    board.set_black(P.grid.cell(0, 1))  # white in the solution
    board.set_white(P.grid.cell(1, 0))  # black in the solution
    board.set_black(P.grid.cell(1, 1))  # right
    board.set_white(P.grid.cell(0, 0))  # right (a clue)
    wrong = wrong_cells(board, solution)
    assert isinstance(wrong, CellSet)
    assert wrong.coords() == [(0, 1), (1, 0)]
    # A solution given with only its black cells (unknown elsewhere) works the same.
    sparse = Board(P, solution.black_mask, 0)
    assert wrong_cells(board, sparse) == wrong
    with pytest.raises(ValueError, match="cannot be compared"):
        wrong_cells(Puzzle(7, 5).empty_board(), solution)


def test_wrong_cells_of_a_shaded_clue() -> None:
    solution = board_of(P, SOLVED)
    board = board_of(P, edit(SOLVED, r1c1="#"))
    assert wrong_cells(board, solution).coords() == [(0, 0)]


# -- pzprjs's own failing boards ---------------------------------------------------------------
# The failcheck boards of pzprjs's nurikabe test script (robx/pzprjs test/script/nurikabe.js),
# puzzle https://puzz.link/p?nurikabe/5/5/g5k2o1k3g, with pzprjs's code and ours.
PZPRJS = [
    ("cs2x2", "pool", ". 5 . . . /. . 2 . . /# # . . . /# # 1 . . /. . . 3 . /"),
    ("bkNoNum", "island-no-clue", ". 5 # # . /. # 2 . # /. # # # # /. # 1 . . /# . . 3 . /"),
    ("csDivide", "sea-split", ". 5 # # # /. # 2 . # /. . # # # /. . 1 . . /# . . 3 . /"),
    ("bkNumGe2", "island-two-clues", ". 5 # # # /. # 2 . # /. # # # # /. . 1 . . /. . . 3 . /"),
    ("bkSizeNe", "island-size", ". 5 # # # /. # 2 . # /. # # # # /. # 1 # . /. # # 3 . /"),
    (None, None, "+ 5 # # # /+ # 2 + # /+ # # # # /+ # 1 # . /# # # 3 . /"),
]


@pytest.mark.parametrize(
    ("pzprjs_code", "code", "rows"), PZPRJS, ids=[c[1] or "ok" for c in PZPRJS]
)
def test_pzprjs_failcheck_boards(pzprjs_code: str | None, code: str | None, rows: str) -> None:
    from nurikabe.formats import load

    document = load(f"pzprv3/nurikabe/5/5/{rows}")
    assert document.board is not None
    found = check(document.puzzle, document.board)
    assert codes(found) == ([code] * len(found) if code else [])
    assert bool(found) == bool(pzprjs_code)
