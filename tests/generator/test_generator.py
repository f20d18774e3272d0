"""The generator: uniqueness (two engines), reproducibility, symmetry, level, profile, errors."""

from __future__ import annotations

import importlib.util
import math
import random
import subprocess
import sys
import time

import pytest

from nurikabe import Limit, Puzzle, Status, solve
from nurikabe.generator import GeneratedPuzzle, GenerationError, check_options, generate
from nurikabe.generator.jobs import derive_seed, make_record
from nurikabe.generator.tiling import Profile, random_layout, symmetry_map
from nurikabe.logic import Grade, explain, grade
from nurikabe.rules import check

HAS_ORTOOLS = importlib.util.find_spec("ortools") is not None


@pytest.fixture(scope="module")
def made() -> list[GeneratedPuzzle]:
    """A few small puzzles of the plain levels (non-square grids)."""
    out = []
    for seed, (rows, cols, level) in enumerate(
        [(7, 9, "easy"), (8, 6, "medium"), (7, 7, "easy"), (9, 7, "medium")]
    ):
        out.append(generate(rows, cols, difficulty=level, rng=seed, seconds=60))
    return out


def test_unique_when_solved_again(made: list[GeneratedPuzzle]) -> None:
    for g in made:
        result = solve(g.puzzle, limit=Limit(solutions=2, seconds=30))
        assert result.status is Status.UNIQUE
        assert result.solution is not None
        assert result.solution.to_rows() == g.solution.to_rows()
        assert check(g.puzzle, g.solution) == []


@pytest.mark.skipif(not HAS_ORTOOLS, reason="OR-Tools not installed")
def test_unique_for_the_cpsat_engine(made: list[GeneratedPuzzle]) -> None:
    for g in made[:2]:
        result = solve(g.puzzle, limit=Limit(solutions=2, seconds=60), engine="cpsat")
        assert result.status is Status.UNIQUE
        assert result.solution is not None
        assert result.solution.to_rows() == g.solution.to_rows()


def test_level_is_the_graded_level(made: list[GeneratedPuzzle]) -> None:
    for g in made:
        assert grade(g.puzzle).level == g.grade.level == g.options["difficulty"]


def test_hard_level() -> None:
    g = generate(8, 8, difficulty="hard", rng=5, seconds=120)
    assert grade(g.puzzle).level == "hard"


def test_reproducible_from_seed() -> None:
    a = generate(7, 8, difficulty="easy", rng=11)
    b = generate(7, 8, difficulty="easy", rng=11)
    assert a.puzzle == b.puzzle and a.seed == b.seed == 11
    # A Random instance: the seed it draws remakes the puzzle.
    c = generate(7, 8, difficulty="easy", rng=random.Random(3))
    assert generate(7, 8, difficulty="easy", rng=c.seed).puzzle == c.puzzle


def test_batch_seeds_do_not_depend_on_order() -> None:
    job = {"index": 4, "rows": 6, "cols": 7, "seed": derive_seed(9, 4), "difficulty": "easy"}
    one = make_record(job)
    two = make_record(dict(job))
    assert one["url"] == two["url"] and one["seed"] == derive_seed(9, 4)


@pytest.mark.parametrize(
    ("symmetry", "rows", "cols"),
    [("rot180", 7, 9), ("rot180", 8, 8), ("mirror", 9, 8), ("mirror", 7, 7)],
)
def test_symmetry_of_clue_positions(symmetry: str, rows: int, cols: int) -> None:
    g = generate(rows, cols, difficulty="easy", symmetry=symmetry, rng=2, seconds=90)
    sigma = symmetry_map(rows, cols, symmetry)
    assert sigma is not None
    cells = set(g.puzzle.clues)
    assert {sigma[i] for i in cells} == cells


@pytest.mark.parametrize("symmetry", ["none", "rot180", "mirror"])
def test_layouts_are_solutions(symmetry: str) -> None:
    for seed in range(5):
        layout = random_layout(9, 11, Profile(max_island=6), random.Random(seed), symmetry=symmetry)
        assert layout is not None and layout.is_valid(6)


def test_max_island_honoured() -> None:
    g = generate(8, 9, difficulty="easy", max_island=3, rng=4, seconds=60)
    assert max(g.puzzle.clues.values()) <= 3


def test_jsonl_record_shape() -> None:
    g = generate(6, 7, difficulty="easy", rng=1)
    record = g.to_json()
    assert set(record) >= {"rows", "cols", "clues", "solution", "grade", "seed", "url"}
    assert record["rows"] == 6 and len(record["solution"]) == 6
    assert set("".join(record["solution"])) <= {"#", "."}
    assert set(record["grade"]) == {"level", "score"}
    assert all(len(c) == 3 for c in record["clues"])


@pytest.mark.parametrize(
    ("rows", "cols", "options"),
    [
        (2, 2, {"difficulty": "hard"}),
        (1, 5, {"difficulty": "easy"}),
        (10, 10, {"difficulty": "legendary"}),
        (10, 10, {"symmetry": "mirror"}),
        (10, 10, {"symmetry": "spiral"}),
        (8, 8, {"max_island": 1, "difficulty": "hard", "attempts": 3, "seconds": 20}),
    ],
)
def test_impossible_requests_raise(rows: int, cols: int, options: dict[str, object]) -> None:
    with pytest.raises(GenerationError) as info:
        generate(rows, cols, rng=1, **options)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)
    assert str(info.value)


def test_budget_runs_out() -> None:
    with pytest.raises(GenerationError, match=r"budget|attempts"):
        generate(10, 10, difficulty="extreme", rng=1, seconds=0.01)


@pytest.mark.slow
@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
def test_every_level_at_10x10(level: str) -> None:
    g = generate(10, 10, difficulty=level, rng=1, seconds=600)
    assert grade(g.puzzle).level == level
    assert solve(g.puzzle, limit=Limit(solutions=2, seconds=60)).status is Status.UNIQUE


@pytest.mark.slow
def test_extreme_at_10x10() -> None:
    """A fixed seed (made in about 3 s of CPU): proved unique, graded extreme."""
    g = generate(10, 10, difficulty="extreme", rng=4, seconds=300)
    assert grade(g.puzzle).level == "extreme" == g.grade.level
    result = solve(g.puzzle, limit=Limit(solutions=2, seconds=120))
    assert result.status is Status.UNIQUE
    assert result.solution is not None and result.solution.to_rows() == g.solution.to_rows()
    assert generate(10, 10, difficulty="extreme", rng=4, seconds=300).puzzle == g.puzzle


@pytest.mark.parametrize("how", ["stuck", "stopped"])
def test_a_puzzle_logic_does_not_finish_is_not_given(
    monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """A puzzle whose walkthrough is stuck, or stopped by the time left, is never
    returned, whatever the level asked (its hints would run out)."""
    import nurikabe.logic as logic

    def unfinished(puzzle: Puzzle, *, seconds: float | None = 60.0) -> Grade:
        return Grade("extreme", 600, "trial", solved=False, stopped=how == "stopped")

    monkeypatch.setattr(logic, "grade", unfinished)
    for level in ("extreme", "any"):
        with pytest.raises(GenerationError, match="within the 2 attempts"):
            generate(7, 7, difficulty=level, rng=3, attempts=2)


def test_extreme_from_an_expert_puzzle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Extreme on big boards (`_deeper`, here let down to 10x10 so that it takes about
    2 s): made from an expert board by taking clues away; proved unique with the board
    the generator built, graded extreme by a walkthrough that finishes, and the same seed
    gives the same puzzle."""
    import nurikabe.generator as generator

    monkeypatch.setattr(generator, "DEEPEN_FROM", 100)
    g = generate(10, 10, difficulty="extreme", rng=1, seconds=300)
    walk = explain(g.puzzle, seconds=None)
    assert walk.status == "solved" and walk.grade is not None
    assert walk.grade.level == "extreme" == g.grade.level
    assert any(step.technique == "trial" for step in walk.steps)
    result = solve(g.puzzle, limit=Limit(solutions=2, seconds=60))
    assert result.status is Status.UNIQUE and result.solution is not None
    assert result.solution.white_mask == g.solution.white_mask
    assert g.options["max_island"] == 9  # the expert board's profile
    assert generate(10, 10, difficulty="extreme", rng=1, seconds=300).puzzle == g.puzzle


@pytest.mark.slow
def test_extreme_at_15x15_from_an_expert_puzzle() -> None:
    """15x15 extreme (generator 13: `_deeper` from `DEEPEN_FROM` = 150 cells; seed 7, about
    3 s of CPU): made from an expert board by taking clues away, proved unique with the
    board the generator built, graded extreme by a walkthrough that finishes, within the
    expert profile's island cap, and the same seed gives the same puzzle."""
    g = generate(15, 15, difficulty="extreme", rng=7, seconds=None)
    walk = explain(g.puzzle, seconds=None)
    assert walk.status == "solved" and walk.grade is not None
    assert walk.grade.level == "extreme" == g.grade.level
    result = solve(g.puzzle, limit=Limit(solutions=2, seconds=60))
    assert result.status is Status.UNIQUE and result.solution is not None
    assert result.solution.white_mask == g.solution.white_mask
    assert max(g.puzzle.clues.values()) <= g.options["max_island"] <= 12
    assert generate(15, 15, difficulty="extreme", rng=7, seconds=None).puzzle == g.puzzle


@pytest.mark.slow
def test_extreme_at_20x20() -> None:
    """A fixed seed (about 20 s of CPU): unique with its own board, graded extreme by a
    walkthrough that finishes, no island over the expert profile's cap."""
    g = generate(20, 20, difficulty="extreme", rng=0, seconds=None)
    result = solve(g.puzzle, limit=Limit(solutions=2, seconds=None))
    assert result.status is Status.UNIQUE and result.solution is not None
    assert result.solution.white_mask == g.solution.white_mask
    walk = explain(g.puzzle, seconds=None)
    assert walk.status == "solved" and walk.grade is not None and walk.grade.level == "extreme"
    assert max(g.puzzle.clues.values()) <= g.options["max_island"]


@pytest.mark.slow
def test_extreme_at_10x10_for_most_seeds() -> None:
    # docs/generator.md: 10 of 10 seeds within 120 s; this asks for 3 of the first 4.
    made = 0
    for seed in range(4):
        try:
            g = generate(10, 10, difficulty="extreme", rng=seed, seconds=120)
        except GenerationError:
            continue
        assert g.grade.level == "extreme"
        made += 1
    assert made >= 3


@pytest.mark.slow
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_plain_levels_at_15x15(level: str) -> None:
    g = generate(15, 15, difficulty=level, rng=1, seconds=600)
    assert grade(g.puzzle).level == level


def test_all_moves_stay_near_the_focus() -> None:
    from nurikabe.generator.search import all_moves

    layout = random_layout(9, 11, Profile(max_island=6), random.Random(2))
    assert layout is not None
    grid = layout.grid
    focus = 1 << grid.cell(4, 5)
    near = focus
    for _ in range(2):
        near = grid.dilate(near)
    near |= grid.flood(near & layout.white, layout.white)
    moves = all_moves(layout, random.Random(0), focus)
    valid = [m for m in moves if m.is_valid(6)]
    assert valid
    for moved in moves:
        changed = (moved.white ^ layout.white) | (moved.clue_mask ^ layout.clue_mask)
        # A cut may give a split-off part a clue anywhere in that part, inside the island.
        assert changed & ~grid.flood(near & layout.white, layout.white) & ~near == 0


def test_sweeping_climb_ends_solved() -> None:
    from nurikabe.generator.search import Deadline, Evaluator, settle, unknown_after

    solved = 0
    for seed in range(3):
        rng = random.Random(seed)
        layout = random_layout(9, 11, Profile(max_island=6, mean_island=3.0), rng)
        assert layout is not None
        done = settle(
            layout,
            2,
            rng,
            max_island=6,
            deadline=Deadline(60),
            ev=Evaluator(),
            sweep_after=0,
            steps=60,
        )
        if done is not None:
            assert done.is_valid(6) and not unknown_after(done, 2)
            solved += 1
    assert solved


def test_join_makes_one_island_of_two() -> None:
    from nurikabe.generator.search import join, joins

    grid_layout = random_layout(9, 11, Profile(max_island=6), random.Random(4))
    assert grid_layout is not None
    layout = grid_layout
    grid = layout.grid
    cells = [i for i in range(grid.size) if layout.black >> i & 1 and joins(layout, i)]
    assert cells
    joined = 0
    for cell in cells:
        moved = join(layout, cell, random.Random(cell))
        if moved is None:
            continue
        joined += 1
        assert moved.is_valid()
        assert moved.white >> cell & 1
        # Fewer islands, and the white count kept or one more (when the sea stayed whole).
        assert len(moved.islands()) < len(layout.islands())
        assert moved.white.bit_count() - layout.white.bit_count() in (0, 1)
        assert moved.clue_mask & ~layout.clue_mask == 0
    assert joined


def test_polish_keeps_the_board_solved_and_joins_islands() -> None:
    from nurikabe.generator.search import Deadline, Evaluator, polish, settle, unknown_after

    rng = random.Random(3)
    joined = 0
    for _ in range(6):
        layout = random_layout(10, 10, Profile(max_island=6, mean_island=2.6), rng)
        assert layout is not None
        ev = Evaluator()
        done = settle(
            layout,
            2,
            rng,
            max_island=6,
            deadline=Deadline(60),
            ev=ev,
            steps=200,
            candidates=12,
            patience=30,
            sideways=1.0,
        )
        if done is None:
            continue
        clues = done.clue_mask.bit_count()
        out = polish(done, 2, rng, max_island=8, deadline=Deadline(60), clues=8, white=46, ev=ev)
        assert out.is_valid(8)
        assert not unknown_after(out, 2)
        assert out.clue_mask.bit_count() <= clues
        joined += out.clue_mask.bit_count() < clues
    assert joined


def test_a_fresh_solve_tells_the_lower_tiers_too() -> None:
    """What a tier-4 walkthrough leaves for the tiers below equals their own fresh solves."""
    from nurikabe.generator.search import Deadline, Evaluator, settle

    rng = random.Random(5)
    checked = 0
    for _ in range(4):
        layout = random_layout(8, 8, Profile(max_island=8, mean_island=3.5), rng)
        assert layout is not None
        settled = settle(layout, 2, rng, max_island=8, deadline=Deadline(60), steps=60)
        for board in (layout, settled):
            if board is None:
                continue
            ev = Evaluator(incremental=False)
            ev.exact(board, 4)
            for tier in (1, 2, 3):
                assert ev.is_exact(board, tier)
                assert ev.exact(board, tier) == Evaluator(incremental=False).exact(board, tier)
                checked += 1
    assert checked >= 12


def test_difficulties_are_the_graders_levels() -> None:
    """`DIFFICULTIES` is spelled out so that `import nurikabe` need not load the logic engine."""
    from nurikabe.generator import DIFFICULTIES
    from nurikabe.logic import LEVELS

    assert (*LEVELS, "any") == DIFFICULTIES


def test_import_does_not_load_the_logic_engine() -> None:
    """A command-line solve starts fast: `import nurikabe` leaves the logic engine unloaded."""

    code = "import sys, nurikabe; print('nurikabe.logic' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# Options the generator refuses.


@pytest.mark.parametrize(
    "options",
    [
        {"max_island": 300_000_000},
        {"max_island": 0},
        {"max_island": 2.5},
        {"max_island": True},
        {"mean_island": 0},
        {"mean_island": math.nan},
        {"mean_island": math.inf},
        {"clue_density": 0},
        {"clue_density": math.nan},
        {"clue_density": -3},
        {"seconds": math.nan},
        {"seconds": -1},
        {"seconds": math.inf},
        {"attempts": 0},
    ],
)
def test_generator_refuses_bad_options(options: dict[str, float]) -> None:
    with pytest.raises(GenerationError):
        check_options(7, 6, **options)  # type: ignore[arg-type]
    began = time.perf_counter()
    with pytest.raises(GenerationError):
        generate(7, 6, rng=1, **options)  # type: ignore[arg-type]
    assert time.perf_counter() - began < 1


def test_large_boards_default_to_big_islands_and_fewer_clues() -> None:
    """From 150 cells on the default largest island grows with the board (capped), and
    the clue density aimed at falls as published puzzles' does; 10x10 keeps the level's.
    30x30 (`HUGE_FROM`, generator 9) is climbed like 20x20, re-solved from scratch less
    often, and walked with the shorter `HUGE_POLISH`."""
    from nurikabe.generator import (
        BIG_ISLAND_CAP,
        BIG_TARGET,
        LEVEL_PROFILES,
        REPAIR_KINDS,
        REPAIR_KINDS_NO_ONES,
        _climb,
        _default_profile,
        _large_polish,
        clue_density_of,
    )

    assert (
        _default_profile(10, 10, "medium", None, None, None).max_island
        == LEVEL_PROFILES["medium"][0]
    )
    assert _default_profile(15, 15, "medium", None, None, None).max_island == 11
    assert _default_profile(20, 20, "hard", None, None, None).max_island == 20
    assert _default_profile(24, 26, "hard", None, None, None).max_island == BIG_ISLAND_CAP
    assert _default_profile(30, 30, "hard", None, None, None).max_island == BIG_ISLAND_CAP
    assert _climb(900, 2)["kinds"] == REPAIR_KINDS_NO_ONES and _climb(900, 2)["thrifty"]
    assert _climb(900, 1)["kinds"] == REPAIR_KINDS  # tier-1 climbs need their 1s
    assert _large_polish(400, False)["candidates"] > _large_polish(900, False)["candidates"]
    assert _large_polish(900, False)["big"] == round(BIG_TARGET * 900)
    # Easy and medium (generator 14): a longer walk on large boards, not on huge ones.
    assert _large_polish(400, True)["candidates"] > _large_polish(400, False)["candidates"]
    assert _large_polish(900, True)["candidates"] == _large_polish(900, False)["candidates"]
    # Easy on large boards starts from larger islands than on 10x10 or 30x30.
    assert _default_profile(15, 15, "easy", None, None, None).max_island == 12
    easy = [_default_profile(n, n, "easy", None, None, None) for n in (10, 15, 30)]
    assert easy[1].mean_island > easy[0].mean_island == easy[2].mean_island
    assert easy[0].max_island == LEVEL_PROFILES["easy"][0]
    assert _climb(400, 2)["kinds"] == REPAIR_KINDS_NO_ONES and _climb(400, 2)["thrifty"]
    assert _default_profile(20, 20, "easy", 5, None, None).max_island == 5  # asked for
    densities = [clue_density_of(n * n) for n in (10, 15, 20, 30)]
    assert densities == sorted(densities, reverse=True)
    assert _default_profile(20, 20, "hard", None, None, None).clue_density == clue_density_of(400)


@pytest.mark.skipif(not HAS_ORTOOLS, reason="OR-Tools not installed")
def test_a_job_can_ask_for_a_second_proof_by_cpsat() -> None:
    """The build's path to a second engine: a job with ``verify`` keeps a puzzle only once
    CP-SAT proves it unique too (with the generator's solution); the job's key is the
    same as before when it does not ask."""
    from nurikabe.generator.jobs import GenerateJob

    job = {"index": 3, "rows": 6, "cols": 7, "seed": 11, "difficulty": "easy"}
    plain = make_record(job)
    checked = make_record({**job, "verify": "cpsat"})
    assert "error" not in checked
    assert checked["url"] == plain["url"] and checked["seed"] == plain["seed"]
    fast = make_record({**job, "verify": "cpsat-fast"})  # the model the build uses
    assert "error" not in fast and fast["url"] == plain["url"]
    result = solve(
        _puzzle_of(checked),
        limit=Limit(solutions=2, seconds=60),
        engine="cpsat",
    )
    assert result.status is Status.UNIQUE
    assert result.solution is not None and result.solution.to_rows() == checked["solution"]
    with pytest.raises(ValueError, match="unknown verify engine"):
        make_record({**job, "verify": "abacus"})
    assert "verify" not in GenerateJob(0, 6, 7, seed=11).key
    assert "verify=cpsat" in GenerateJob(0, 6, 7, seed=11, verify="cpsat").key
    assert (
        GenerateJob(0, 6, 7, seed=11, verify="cpsat").run()["url"]
        == (make_record({"index": 0, "rows": 6, "cols": 7, "seed": 11, "seconds": 60.0})["url"])
    )


def _puzzle_of(record: dict[str, object]) -> Puzzle:
    url = record["url"]
    assert isinstance(url, str)
    return Puzzle.from_url(url)


def _remade(collection_name: str, number: int) -> tuple[str, str]:
    """The URL of a bundled puzzle, and of what this generator makes from its seed and
    level with the build's budget (attempts only)."""
    from nurikabe import collection

    conn = collection.open_db(collection.bundled_path(), readonly=True)
    try:
        entry = collection.get(conn, number, collection_name)
    finally:
        conn.close()
    assert entry is not None and entry.seed is not None and entry.level is not None
    p = entry.puzzle
    again = generate(
        p.rows,
        p.cols,
        difficulty=entry.level,
        rng=entry.seed,
        seconds=None,
        attempts=collection.BUILD_OPTIONS["attempts"],
    )
    return p.to_url(), again.puzzle.to_url()


@pytest.mark.parametrize(("name", "number"), [("10x10", 300), ("15x15", 130)])
def test_boards_below_huge_make_the_puzzles_they_made_before(name: str, number: int) -> None:
    """Generators 9 and 10 changed only boards of `HUGE_FROM` cells or more, 14 only easy
    and medium on larger boards: the same seed and level still give the bundled puzzle
    (10x10 #300: generator 7's; 15x15 #130, hard: 8's)."""
    shipped, made = _remade(name, number)
    assert made == shipped


@pytest.mark.slow
def test_a_20x20_puzzle_is_made_as_before() -> None:
    shipped, made = _remade("20x20", 70)  # generator 8, hard
    assert made == shipped


def test_a_20x20_expert_puzzle_walked_by_exact_joins() -> None:
    """20x20 expert (generator 18: the exact walk at hard's tier after the climb, then
    `grow_big` and `harden`) is unique by the native solver with the board the generator
    built, graded expert, with published 20x20 clue counts (seed 3: 44 clues, about 3 s
    of CPU; generator 17 made 54)."""
    g = generate(20, 20, difficulty="expert", rng=3, seconds=None)
    result = solve(g.puzzle, limit=Limit(solutions=2, seconds=None))
    assert result.status is Status.UNIQUE and result.solution is not None
    assert result.solution.white_mask == g.solution.white_mask
    assert g.grade.level == "expert" and grade(g.puzzle).level == "expert"
    assert len(g.puzzle.clues) <= 0.12 * 400


@pytest.mark.slow
def test_a_30x30_hard_puzzle_walked_by_exact_joins() -> None:
    """30x30 hard (generator 10: `exact_polish` at tier 3 after the climb; generator 15:
    a longer walk, then `grow_big`) is unique by the native solver with the board the
    generator built, graded hard, and within its islands' cap (about 70 s of CPU)."""
    g = generate(30, 30, difficulty="hard", rng=0, seconds=None)
    result = solve(g.puzzle, limit=Limit(solutions=2, seconds=None))
    assert result.status is Status.UNIQUE and result.solution is not None
    assert result.solution.white_mask == g.solution.white_mask
    assert g.grade.level == "hard" and grade(g.puzzle).level == "hard"
    assert max(g.puzzle.clues.values()) <= g.options["max_island"]
