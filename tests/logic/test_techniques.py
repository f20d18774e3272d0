"""Every technique of the catalogue fires on a hand-made position and stays quiet on another.

Positions are rows of characters: a digit is a clue (white), a lowercase letter a clue
of 10 or more (``a`` 10, ``l`` 21), ``#`` black, ``.`` white, ``?`` unknown. Each "fires"
case lists the moves the technique must make.
"""

from __future__ import annotations

import pytest

from nurikabe import Puzzle
from nurikabe.logic import TECHNIQUES
from nurikabe.logic.state import State
from nurikabe.logic.techniques import find_contradiction, technique

CASE_SPLITS = (
    "sea-exit-cases",
    "pool-cases",
    "orphan-exit-cases",
    "island-exit-cases",
    "island-options",
    "deep-cases",
)
"""The case-split techniques: tier 4 (expert)."""


def position(rows: list[str]) -> State:
    clues = []
    black = white = 0
    cols = len(rows[0])
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            bit = 1 << (r * cols + c)
            if ch.isdigit():
                clues.append((r, c, int(ch)))
            elif "a" <= ch <= "z":
                clues.append((r, c, ord(ch) - ord("a") + 10))
            elif ch == "#":
                black |= bit
            elif ch == ".":
                white |= bit
    puzzle = Puzzle.from_clues(len(rows), cols, clues)
    return State(puzzle, black, white | puzzle.clue_mask)


# id: (fires-position, expected moves, quiet-position)
CASES: dict[str, tuple[list[str], set[str], list[str]]] = {
    "one-clue": (["1??", "???"], {"r1c2=#", "r2c1=#"}, ["1#?", "#??"]),
    "between-clues": (["2?3??", "?????"], {"r1c2=#"}, ["2??3?", "?????"]),
    "l-corner": (["2??", "?2?"], {"r1c2=#", "r2c1=#"}, ["2??", "??2"]),
    "island-complete": (["2.?", "???"], {"r1c3=#", "r2c1=#", "r2c2=#"}, ["2??", "???"]),
    "bordering-two-islands": (["2.?.2", "#?#?#"], {"r1c3=#"}, ["2.??3", "?????"]),
    "pool-prevention": (["##?", "#??", "??5"], {"r2c2=."}, ["#??", "#??", "??5"]),
    "island-single-exit": (["#3?", "###"], {"r1c3=."}, ["?3?", "###"]),
    "last-cell": (["2?.", "???"], {"r2c1=."}, ["2??", "???"]),
    "sea-single-exit": (["#?3?", ".???", "????"], {"r1c2=#"}, ["#??3", "????", "????"]),
    "orphan-single-exit": (["#.#", "#?#", "?3?"], {"r2c2=."}, ["?.#", "???", "?3?"]),
    "unreachable": (["1#???"], {"r1c3=#", "r1c4=#", "r1c5=#"}, ["5????"]),
    "enclosed-pocket": (["9..#", ".?.?", "...?"], {"r2c2=."}, ["2.#", "??#", "???"]),
    "counting": (["2.#", "???"], {"r2c1=#", "r2c2=#", "r2c3=#"}, ["2??", "???"]),
    "two-choices-border": (["2??", "???"], {"r2c2=#"}, ["2??", "#??"]),
    "island-bottleneck": (["#####", "4???#", "#####"], {"r2c2=."}, ["4???", "????"]),
    "orphan-bottleneck": (["4?##", "#?.?", "####"], {"r2c2=."}, ["4???", "#?.?", "#???"]),
    "sea-articulation": (["#?#", "...", "3.."], {"r1c2=#"}, ["#??", "???", "??3"]),
    "pool-escape": (["1#?", "##?", "??3"], {"r2c3=."}, ["1#?", "#??", "??3"]),
    "completion-common-cell": (["?#?", "3?#", "###"], {"r1c1=.", "r2c2=."}, ["2.#", "##?"]),
    "completion-common-border": (["2??", "???", "??2"], {"r2c2=#"}, ["2.#", "##?"]),
    "completion-unreachable": (["2??", "???", "??2"], {"r1c3=#", "r2c2=#", "r3c1=#"}, ["3?", "??"]),
    "walled-in-island": (
        ["?????", "?5#??", "?#4??", "?????", "5????"],  # 11 sea cells wall in the 4, not the 5
        {"r3c4=.", "r4c3=.", "r4c4=."},
        ["?????", "?5#??", "?#4??", "?????", "3????"],  # 13 sea cells could wall in either
    ),
    "perimeter-budget": (
        ["9?????9", "???????", "???????", "???????", "???????", "???????", "9?????9"],
        {f"r{r}c{c}=." for r in (1, 2, 3) for c in (1, 2, 3)} - {"r1c1=."},
        ["8?????8", "???????", "???????", "???????", "???????", "???????", "8?????8"],
    ),
    # The positions below come from walkthroughs of small puzzles with a unique solution.
    "sea-exit-cases": (
        ["#####", "#.?.#", "#5??#", "7##??", "....."],
        {"r2c3=.", "r3c3=.", "r3c4=#", "r4c4=#", "r4c5=."},
        ["#??????", "???????", "???9???", "???????"],
    ),
    "pool-cases": (
        ["#???##", "?..4??", "#???#?", "#???4?"],
        {"r1c2=#", "r1c3=#", "r1c4=#", "r2c1=#", "r2c5=.", "r2c6=#", "r3c2=#"}
        | {"r3c3=#", "r3c4=#", "r3c6=#", "r4c2=.", "r4c3=.", "r4c4=.", "r4c6=#"},
        ["##?????", "???????", "???9???", "???????"],
    ),
    "orphan-exit-cases": (
        ["5??###", ".#2#.#", ".???.#", ".?#4?#"],
        {"r3c4=#", "r4c5=."},
        ["???????", "?#.#???", "???????", "????9??"],
    ),
    "island-exit-cases": (
        # janko 404 part-way through.
        ["??4????", "????6??", "???????", "?????.6", "4????##", "##?#??3", "4..?#??"],
        {"r3c6=#"},
        ["???????", "??3.???", "???????", "???????"],
    ),
    "island-options": (
        ["7..??", "???#?", "???3?", "?5???", "?????"],
        {"r1c4=.", "r2c1=.", "r2c3=#", "r2c5=#", "r3c3=#", "r3c5=.", "r4c4=#", "r4c5=.", "r5c4=#"}
        | {"r5c5=#"},
        ["???????", "??2????", "???????", "????9??", "???????", "???????"],
    ),
    "deep-cases": (
        # janko 979 part-way through.
        [
            "???????###",
            "???????#.#",
            "?9#????#2#",
            "##8.??#1##",
            "?7#????#3.",
            "???????##.",
            "??????..##",
            "?????##5#.",
            "????..6#4.",
            "???######.",
        ],
        {"r9c4=.", "r10c3=#"},
        ["2.#", "##?"],
    ),
}


CASES["sea-sides"] = (
    # the thesis's two-clue family at n = 7: two 21s, a sea of 7 cells
    ["l??????", "???????", "???????", "???????", "???????", "???????", "l??????"],
    {f"r1c{c}=." for c in range(2, 8)} | {"r2c7=.", "r3c7=."},
    # two 15s leave a sea of 19: sides to spare, nothing decided
    ["f??????", "???????", "???????", "???????", "???????", "???????", "f??????"],
)

CASES["white-budget"] = (
    # 2 white cells missing; the stray r2c4 and the block r3c2-r4c3 each need one
    ["?1?#?", "??#.?", "1????", "?##4?"],
    {"r1c1=#", "r1c3=#", "r1c5=#", "r2c1=#", "r2c2=#", "r3c5=#", "r4c1=#", "r4c5=#"},
    # 4 missing: the groups leave cells to spare
    ["?1???", "?????", "1????", "???4?"],
)
CASES["sea-budget"] = (
    # one black cell to come, and r1c1 or r2c1 must keep the two 3s apart
    ["?3.", "?##", "3??"],
    {"r3c2=.", "r3c3=."},
    # three to come, one group needing one
    ["?3?", "???", "3??"],
)


def test_every_technique_has_cases() -> None:
    assert {t.id for t in TECHNIQUES} == set(CASES)


def test_ids_are_unique_kebab_case() -> None:
    ids = [t.id for t in TECHNIQUES]
    assert len(ids) == len(set(ids))
    for t in TECHNIQUES:
        assert t.id == t.id.lower() and " " not in t.id and "_" not in t.id
        assert 1 <= t.tier <= 4
        assert "Source:" in t.doc and len(t.doc.splitlines()) > 3
    tiers = [t.tier for t in TECHNIQUES]
    assert tiers == sorted(tiers)


def test_tiers_of_the_levels() -> None:
    """Hard (tier 3) reasons about whole island shapes; expert (tier 4) splits into cases,
    or counts over the whole board (the sea's sides, the cells of a color still to come)."""
    by_tier = {}
    for t in TECHNIQUES:
        by_tier.setdefault(t.tier, set()).add(t.id)
    assert by_tier[3] == {
        "completion-common-cell",
        "completion-common-border",
        "completion-unreachable",
        "walled-in-island",
        "perimeter-budget",
    }
    assert by_tier[4] == {*CASE_SPLITS, "sea-sides", "white-budget", "sea-budget"}


@pytest.mark.parametrize("row", TECHNIQUES, ids=lambda t: t.id)
def test_fires(row) -> None:
    rows, expected, _ = CASES[row.id]
    state = position(rows)
    step = row.func(state)
    assert step is not None and step.kind == "deduction"
    assert step.technique == row.id
    assert {str(m) for m in step.moves()} == expected
    assert not step.mask & ~state.unknown, "a step decides only unknown cells"
    assert step.message.endswith(".") and "r" in step.message


@pytest.mark.parametrize("row", TECHNIQUES, ids=lambda t: t.id)
def test_quiet(row) -> None:
    _, _, rows = CASES[row.id]
    state = position(rows)
    assert row.func(state) is None


def test_lookup() -> None:
    assert technique("pool-prevention").tier == 1
    assert technique("trial").tier == 5
    with pytest.raises(KeyError):
        technique("no-such-technique")


@pytest.mark.parametrize(
    "rows, word",
    [
        (["##?", "##?", "??3"], "pool"),
        (["2.3", "???"], "Two clues"),
        (["1.?", "???"], "too many"),
        (["#3#", "###", "???"], "walled in"),
        (["3?#.", "??#?", "###?"], "No island"),
        (["#.#", ".5.", "???"], "connect"),
    ],
)
def test_contradictions(rows: list[str], word: str) -> None:
    step = find_contradiction(position(rows))
    assert step is not None and step.kind == "contradiction"
    assert word in step.message
    assert step.involved


def test_a_clueless_white_region_costs_its_whole_size() -> None:
    """The 4 lacks 3 cells: r1c2, then the two clueless white cells r1c3 and r2c3 take
    them all, so r1c4 is out of its reach (counting steps alone, it is three away)."""
    state = position(["4?.?", "##.#"])
    assert state.analysis().reach() == state.grid.mask_of(range(3)) | 1 << 6
    step = technique("unreachable").func(state)
    assert step is not None
    assert {str(m) for m in step.moves()} == {"r1c4=#"}
    assert "takes in all 2 of them" in step.message


def test_a_clueless_white_region_no_island_can_take_in_whole() -> None:
    """The 3 lacks 2 cells; it can walk to the clueless white cells but not take in all
    three, and the 5 cannot get to them: a contradiction."""
    step = find_contradiction(position(["3?..##?5", "??.#????"]))
    assert step is not None and step.kind == "contradiction"
    assert "take in all 3 of them" in step.message


def test_no_contradiction_on_open_position() -> None:
    assert find_contradiction(position(["2??", "???", "??3"])) is None


def test_case_split_agreeing_both_ways() -> None:
    # janko 404 part-way through: the black region at r5c6 leaves through r5c5 or r6c6,
    # and both ways make r2c3 white.
    rows = ["?.4#...", "???#6..", "???####", "????..6", "4??.?##", "#####?3", "4...#?."]
    state = position(rows)
    step = technique("sea-exit-cases").func(state)
    assert step is not None and "both ways" in step.message
    assert {str(m) for m in step.moves()} == {"r2c3=."}


def test_case_split_takes_the_first_way_or_the_next() -> None:
    # The black cell leaves through r1c2, or (r1c2 white) through r2c1; the second way
    # breaks a rule, so r1c2 is black, and so is r2c1.
    state = position(["#??4?", "?????", "?????"])
    step = technique("sea-exit-cases").func(state)
    assert step is not None and "with r1c2 white and r2c1 black a rule soon breaks" in step.message
    assert {"r1c2=#", "r2c1=#"} <= {str(m) for m in step.moves()}


def test_case_split_with_no_way_left_is_a_contradiction() -> None:
    # The dot cannot reach the 3 either way (the island would be too big).
    state = position(["?.?", "?#?", "3??"])
    step = technique("orphan-exit-cases").func(state)
    assert step is not None and step.kind == "contradiction"


@pytest.mark.parametrize("id", CASE_SPLITS)
def test_case_split_fixtures_agree_with_the_solution(id: str) -> None:
    from nurikabe.solver import Limit, solve

    state = position(CASES[id][0])
    step = technique(id).func(state)
    solution = solve(state.puzzle, limit=Limit(solutions=2, seconds=10)).solution
    assert step is not None and solution is not None
    assert not step.black_mask & ~solution.black_mask
    assert not step.white_mask & solution.black_mask


@pytest.mark.parametrize(
    "id, rows, expected",
    [
        ("pool-cases", ["??6???", "?#????", "2????5", "???4#?", "#?????"], {"r3c2=#"}),
        (
            "sea-exit-cases",
            ["4...#", "#####", "#6..?", "?##??", "3.???"],
            {"r3c5=.", "r4c1=#", "r4c4=#", "r4c5=.", "r5c3=.", "r5c4=#", "r5c5=."},
        ),
    ],
)
def test_three_way_splits(id: str, rows: list[str], expected: set[str]) -> None:
    # From walkthroughs of small puzzles with a unique solution.
    from nurikabe.solver import Limit, solve

    state = position(rows)
    step = technique(id).func(state)
    assert step is not None and " or " in step.message
    assert {str(m) for m in step.moves()} == expected
    solution = solve(state.puzzle, limit=Limit(solutions=2, seconds=10)).solution
    assert solution is not None
    assert not step.black_mask & ~solution.black_mask
    assert not step.white_mask & solution.black_mask


def test_local_cut_cells_include_every_cut_cell() -> None:
    """`local_cuts` may keep too many cells but never misses one whose removal splits the
    set (checked by flooding, on seeded random sets, edges and corners included)."""
    import random

    from nurikabe.grid import Grid, bits
    from nurikabe.logic.techniques.articulation import local_cuts

    rng = random.Random(4)
    for rows, cols in ((4, 5), (6, 6), (3, 9)):
        grid = Grid.of(rows, cols)
        for _ in range(200):
            domain = rng.getrandbits(grid.size) | rng.getrandbits(grid.size)
            local = local_cuts(grid, domain)
            assert local & ~domain == 0
            for cell in bits(domain):
                rest = domain & ~(1 << cell)
                if rest and not grid.is_connected(rest) and grid.is_connected(domain):
                    assert local >> cell & 1, (rows, cols, bin(domain), cell)


def test_sea_articulation_agrees_with_the_graph_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    """The `local_cuts` shortcut of `articulations` gives the cells the whole walk gives."""
    import random

    from nurikabe.logic.techniques import articulation as t

    rng = random.Random(9)
    puzzle = Puzzle.from_clues(6, 7, [(0, 0, 3), (5, 6, 2)])
    for _ in range(300):
        black = rng.getrandbits(42) & ~puzzle.clue_mask
        white = rng.getrandbits(42) & rng.getrandbits(42) & ~black
        state = State(puzzle, black, white | puzzle.clue_mask)
        fast = t.articulations(state)
        with monkeypatch.context() as m:
            m.setattr(t, "local_cuts", lambda grid, domain: grid.full)
            slow = t.articulations(state)
        assert fast[0] == slow[0]


def _cut_off_by(grid, black: int, domain: int, cell: int) -> bool:
    """Brute force: whether removing `cell` from `domain` parts some black cell of the
    region holding the highest black cell from that cell."""
    root = 1 << (black.bit_length() - 1)
    reached = grid.flood(root, domain) & black
    return grid.flood(root, domain & ~(1 << cell)) & reached != reached


def test_articulation_walks_agree_with_brute_force() -> None:
    """`articulations` (the compiled walk, `_cgrid.cuts`) finds the cells a flood without
    each one finds, early on (many cells unknown) and late on (few)."""
    import random

    from nurikabe.grid import bits
    from nurikabe.logic.techniques import articulation as t

    rng = random.Random(5)
    puzzle = Puzzle.from_clues(7, 8, [(0, 0, 4), (6, 7, 3)])
    grid = puzzle.grid
    walks = set()
    for density in (0.3, 0.55, 0.8) * 150:
        black = white = 0
        for cell in range(grid.size):
            roll = rng.random()
            if roll < density:
                black |= 1 << cell
            elif roll < density + (1 - density) / 3:
                white |= 1 << cell
        black &= ~puzzle.clue_mask
        state = State(puzzle, black, white | puzzle.clue_mask)
        if not black & (black - 1):
            continue
        unknown = state.unknown
        walks.add(unknown.bit_count() + len(state.analysis().sea_parts()) < black.bit_count())
        forced, premises = t.articulations(state)
        expected = 0
        for cell in bits(unknown):
            if _cut_off_by(grid, black, black | unknown, cell):
                expected |= 1 << cell
        assert forced == expected
        assert premises == black
    assert walks == {True, False}  # both walks were checked
