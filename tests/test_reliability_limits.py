"""Issue 19, items 3, 5 and 7: limits that always hold, options bounded by the grid, bad
library input refused at the boundary, and ``solve --all`` streaming."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nurikabe import Board, Limit, Puzzle, Status, solve
from nurikabe.cli import main
from nurikabe.errors import IllegalMoveError, InvalidBoardError, InvalidPuzzleError
from nurikabe.generator import GenerationError, check_options, generate
from nurikabe.generator.tiling import Profile, _size_weights
from nurikabe.puzzle import UNKNOWN_CLUE

EXAMPLE = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"
MANY = Puzzle(6, 6, {0: UNKNOWN_CLUE, 35: UNKNOWN_CLUE}).to_url()  # 100,000s of solutions


def _cli(*args: str, timeout: float = 60, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "nurikabe.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        **kwargs,  # type: ignore[arg-type]
    )


# -- item 3: --seconds and every numeric option ------------------------------------------------


BAD_SECONDS = ["nan", "inf", "-inf", "-1", "0", "1e400", "x"]


@pytest.mark.parametrize("value", BAD_SECONDS)
@pytest.mark.parametrize(
    "command",
    [
        ["explain", EXAMPLE, "--seconds"],
        ["grade", EXAMPLE, "--seconds"],
        ["hint", EXAMPLE, "--seconds"],
        ["show", EXAMPLE, "--solution", "--seconds"],
        ["generate", "--size", "5x5", "--seconds"],
        ["solve", EXAMPLE, "--timeout"],
    ],
)
def test_bad_seconds_exit_2(
    command: list[str], value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main([*command, value])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    "options",
    [
        ["--mean-island", "0"],
        ["--mean-island", "nan"],
        ["--clue-density", "0"],
        ["--clue-density", "nan"],
        ["--clue-density", "inf"],
        ["--clue-density", "101"],
        ["--max-island", "0"],
        ["--max-island", "300000000"],
        ["--max-island", "26"],
        ["--max-island", "4", "--mean-island", "5"],
        ["--count", "0"],
        ["--jobs", "0"],
        ["--size", "100x100"],
        ["--size", "0x5"],
    ],
)
def test_generate_options_bounded_by_the_grid(
    options: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    began = time.perf_counter()
    try:
        code = main(["generate", "--size", "5x5", "--seed", "1", "--jobs", "1", *options])
    except SystemExit as stop:
        code = stop.code  # type: ignore[assignment]
    assert code == 2
    assert time.perf_counter() - began < 2  # refused before any work
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


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


def test_size_weights_large_islands() -> None:
    """Large islands no longer overflow the tilt or rebuild the weights every draw."""
    weights = _size_weights(4096, 60.0)
    assert len(weights) == 4096 and all(math.isfinite(w) and w >= 0 for w in weights)
    mean = sum(k * w for k, w in enumerate(weights, 1)) / sum(weights)
    assert abs(mean - 60.0) < 0.5
    profile = Profile(max_island=4096, mean_island=60.0)
    began = time.perf_counter()
    import random

    rng = random.Random(1)
    sizes = [profile.draw_size(rng) for _ in range(500)]
    assert time.perf_counter() - began < 1
    assert all(1 <= s <= 4096 for s in sizes)


def test_size_weights_unchanged_for_usual_profiles() -> None:
    """The weights the bundled collection was drawn with are the same numbers as before."""
    base = [0.115, 0.23, 0.221, 0.167, 0.101, 0.061, 0.039, 0.023, 0.025]
    lo, hi = 0.05, 20.0
    for _ in range(50):
        mid = (lo * hi) ** 0.5
        ws = [w * mid**k for k, w in enumerate(base, 1)]
        if sum(k * w for k, w in enumerate(ws, 1)) / sum(ws) < 3.7:
            lo = mid
        else:
            hi = mid
    assert list(_size_weights(9, 3.7)) == [w * lo**k for k, w in enumerate(base, 1)]


# -- item 3: CP-SAT keeps its time limit while building -----------------------------------------


@pytest.mark.parametrize("engine", ["cpsat", "cpsat-fast"])
@pytest.mark.parametrize("size", [100, 256])
def test_cpsat_refuses_models_it_cannot_build_in_time(engine: str, size: int) -> None:
    pytest.importorskip("ortools")
    from ortools.sat.python import cp_model  # noqa: F401 - loaded before the clock starts

    puzzle = Puzzle(size, size, {0: 1})
    began = time.perf_counter()
    result = solve(puzzle, limit=Limit(solutions=2, seconds=0.5), engine=engine)
    took = time.perf_counter() - began
    assert result.status is Status.UNKNOWN and result.limit_hit == "seconds"
    assert took < 0.5 * 1.1 + 0.1, took  # before: 58 s at 100x100, minutes at 256x256


# -- item 3: hint and show take a time limit ----------------------------------------------------


def test_hint_and_show_take_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", EXAMPLE, "--seconds", "5"]) == 0
    assert "[" in capsys.readouterr().out
    assert main(["show", EXAMPLE, "--solution", "--seconds", "5", "--ascii"]) == 0
    assert "#" in capsys.readouterr().out
    hard = "https://puzz.link/p?nurikabe/20/20/zg.h3g3i1m1zh3k1j.idr4t2m2g7m3k.o4r5q3j7i1i3zm.i7g2j3h1h2m5g.zh1i2h6k6j9h7zo.r1j4zq3g3l2h2k2h1zi"
    # The limit holds in CPU time (a loaded machine stretches wall time, not the
    # limit); whether the solver settles the puzzle in time depends on the machine.
    for command, code in ((["show", hard, "--solution"], 1), (["hint", hard], 0)):
        began = time.thread_time()
        assert main([*command, "--seconds", "0.5"]) == code
        assert time.thread_time() - began < 0.5 * 1.1 + 0.3
        captured = capsys.readouterr()
        if command[0] == "show":
            assert "within 0.5 s" in captured.err or "more than one solution" in captured.err


# -- item 5: output that cannot be written -----------------------------------------------------


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    "command",
    [["show", EXAMPLE], ["show", EXAMPLE, "--format", "svg"], ["convert", EXAMPLE, "--to", "text"]],
)
def test_full_disk_on_stdout(command: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "nurikabe.cli", *command],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "No space left" in done.stderr


# -- item 5: library misuse ----------------------------------------------------------------------


PUZZLE = Puzzle.from_url(EXAMPLE)


@pytest.mark.parametrize(
    "masks", [(-1, 0), (0, -1), (1 << 25, 0), (0, 1 << 40), (1.5, 0), (True, 0), (3, 1)]
)
def test_board_masks_checked(masks: tuple[int, int]) -> None:
    with pytest.raises(InvalidBoardError):
        Board(PUZZLE, *masks)


def test_board_needs_a_puzzle() -> None:
    with pytest.raises(InvalidBoardError):
        Board(EXAMPLE, 0, 0)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "clues",
    [{0: 1.5}, {0: "1"}, {0: True}, {0.0: 1}, {"0": 1}, {0: None}, {0: 2.0}],
)
def test_puzzle_clues_must_be_whole_numbers(clues: dict[object, object]) -> None:
    with pytest.raises(InvalidPuzzleError, match="not a whole number"):
        Puzzle(3, 3, clues)  # type: ignore[arg-type]


@pytest.mark.parametrize("size", [(True, 3), (3, False), (2.0, 3)])
def test_puzzle_size_must_be_int(size: tuple[int, int]) -> None:
    with pytest.raises(InvalidPuzzleError):
        Puzzle(*size, {0: 1})


def test_solve_given_a_url() -> None:
    with pytest.raises(InvalidPuzzleError, match=r"Puzzle\.from_url"):
        solve(EXAMPLE)  # type: ignore[arg-type]


def test_undo_with_nothing_to_undo() -> None:
    board = PUZZLE.empty_board()
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        board.undo()
    assert isinstance(IllegalMoveError("x"), ValueError)


# -- item 7: solve --all streams ------------------------------------------------------------------


def test_solve_all_streams() -> None:
    """The first solution is printed long before the search ends, and memory stays flat."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "nurikabe.cli", "solve", MANY, "--all", "--timeout", "6"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    began = time.perf_counter()
    assert proc.stdout is not None
    first = proc.stdout.readline()
    first_at = time.perf_counter() - began
    out, err = proc.communicate(timeout=60)
    took = time.perf_counter() - began
    assert first.startswith("solution 1:")
    assert first_at < took / 2, (first_at, took)
    assert proc.returncode == 4 and "Traceback" not in err
    assert "lower bound" in out and out.count("solution ") > 100
    assert took < 6 * 1.1 + 2  # printing counts against --timeout too


def test_solve_all_small_is_complete(capsys: pytest.CaptureFixture[str]) -> None:
    two = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]]).to_url()
    assert main(["solve", two, "--all"]) == 3
    out = capsys.readouterr().out
    assert out.count("solution ") == 2 and ": 2 solutions" in out
    assert main(["solve", EXAMPLE, "--all"]) == 0
    assert ": 1 solution " in capsys.readouterr().out


def test_solve_all_json_streams_one_object(capsys: pytest.CaptureFixture[str]) -> None:
    """With --json the solutions are written as found, inside the one object other solves
    print: it parses, lists every solution once, and says whether the count is complete."""
    two = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]]).to_url()
    assert main(["solve", two, "--all", "--json"]) == 3
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "multiple" and record["count"] == 2 and record["complete"]
    assert len({tuple(rows) for rows in record["solutions"]}) == 2
    assert main(["solve", MANY, "--all", "--json", "--limit", "50"]) == 4
    record = json.loads(capsys.readouterr().out)
    assert record["count"] == len(record["solutions"]) == 50 and not record["complete"]
