"""The show, convert and check commands (nurikabe.cli): output, files, exit codes, bad input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from nurikabe import Board, Puzzle
from nurikabe.cli import main
from nurikabe.formats import read, write
from nurikabe.render import render_text

DATA = Path(__file__).resolve().parents[2] / "src" / "nurikabe" / "data"
EXAMPLE = DATA / "example.txt"
EXAMPLE_SOLUTION = DATA / "example-solution.txt"
EXAMPLE_URL = "https://puzz.link/p?nurikabe/7/7/2g3p4j1m4p2g2i5k"

# A 5x7 puzzle and its solution (the rules tests' hand board).
SOLVED = [
    "2.#1#2.",
    "#######",
    "#3.#1#2",
    "##.###.",
    "1##.2##",
]
P = Puzzle.from_grid([[int(ch) if ch.isdigit() else 0 for ch in row] for row in SOLVED])


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    """The 5x7 puzzle, its solution in several forms, and broken boards."""
    out = {
        "puzzle": tmp_path / "p.txt",
        "solution": tmp_path / "solution.txt",
        "dots": tmp_path / "dots.txt",
        "pool": tmp_path / "pool.txt",
        "partial": tmp_path / "partial.txt",
        "pzprv3": tmp_path / "save.pzprv3",
        "wrong-size": tmp_path / "small.txt",
        "junk": tmp_path / "junk.bin",
        "empty": tmp_path / "empty.txt",
    }
    out["puzzle"].write_text(write(P, "text"), encoding="utf-8")
    out["solution"].write_text("\n".join(SOLVED) + "\n", encoding="utf-8")
    # Clue digits replaced by '.', and only the black cells given.
    out["dots"].write_text(
        "\n".join("".join("." if ch.isdigit() else ch for ch in row) for row in SOLVED) + "\n",
        encoding="utf-8",
    )
    pool = list(SOLVED)
    pool[3] = "######."  # r4c3 black: a pool, and the 3 too small
    out["pool"].write_text("\n".join(pool) + "\n", encoding="utf-8")
    out["partial"].write_text(
        "\n".join(["2??????", "???????", "???????", "???????", "1#?????"]) + "\n",
        encoding="utf-8",
    )
    board = Board.from_rows(P, pool)
    out["pzprv3"].write_text(write(P, "pzprv3", board=board), encoding="utf-8")
    out["wrong-size"].write_text("#.\n.#\n", encoding="utf-8")
    out["junk"].write_bytes(bytes(range(256)) * 4)
    out["empty"].write_text("", encoding="utf-8")
    return out


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# -- show -----------------------------------------------------------------------------------


def test_show_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "show", str(EXAMPLE))
    assert code == 0 and err == ""
    assert out == render_text(read(EXAMPLE.read_text())) + "\n"


def test_show_game_id_given_inline(capsys: pytest.CaptureFixture[str]) -> None:
    game_id = write(read(EXAMPLE.read_text()), "sgt").strip()
    code, out, err = run(capsys, "show", game_id)
    assert code == 0 and err == ""
    assert out == render_text(read(EXAMPLE.read_text())) + "\n"
    code, _, err = run(capsys, "show", "7x7:zz")
    assert code == 2 and err.startswith("nurikabe: <id>, column 6:")


def test_show_url_ascii(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", EXAMPLE_URL, "--ascii")
    assert code == 0
    assert out.isascii() and out.startswith("+---")
    assert out.count("\n") == 9


def test_show_solution_from_the_solver(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", str(EXAMPLE), "--solution", "--ascii")
    assert code == 0
    solution = EXAMPLE_SOLUTION.read_text().split()
    lines = out.splitlines()[1:-1]
    for row, line in zip(solution, lines, strict=True):
        assert line.count("#") >= row.count("#")


def test_show_solution_from_the_document(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "p.jsonl"
    record.write_text(write(P, "jsonl", solution=Board.from_rows(P, SOLVED)), encoding="utf-8")
    code, out, _ = run(capsys, "show", str(record), "--solution")
    assert code == 0
    assert out == render_text(P, Board.from_rows(P, SOLVED)) + "\n"


def test_show_board_of_a_save(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    code, out, _ = run(capsys, "show", str(files["pzprv3"]))
    assert code == 0
    assert "█" in out


def test_show_errors(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    code, out, _ = run(capsys, "show", str(files["pzprv3"]), "--errors", "--ascii")
    assert code == 0
    # The pool (r4c2, r4c3, r5c2, r5c3) and the 3's island (r3c2, r3c3) are bracketed.
    assert out.splitlines()[3:6] == ["| #[3 .]# 1 # 2 |", "| #[###]##### . |", "| 1[###]. 2 ### |"]
    code, out, _ = run(capsys, "show", str(files["pzprv3"]), "--errors", "--format", "svg")
    assert code == 0 and 'class="errors"' in out and "rgb(192,0,0)" in out


def test_show_solution_of_an_ambiguous_puzzle(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "amb.txt"
    path.write_text("3 3\n2 0 0\n0 0 0\n0 0 2\n", encoding="utf-8")
    code, out, err = run(capsys, "show", str(path), "--solution")
    assert code == 1 and out == ""
    assert "more than one solution" in err and err.count("\n") == 1


def test_show_svg(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "show", str(EXAMPLE), "--format", "svg")
    assert code == 0
    root = ET.fromstring(out)
    assert root.tag.endswith("svg")
    target = tmp_path / "pic.svg"
    code, out, _ = run(capsys, "show", str(EXAMPLE), "--solution", "-o", str(target))
    assert code == 0 and out == ""
    root = ET.fromstring(target.read_text(encoding="utf-8"))
    ns = "{http://www.w3.org/2000/svg}"
    (black,) = [g for g in root.iter(f"{ns}g") if g.get("class") == "black"]
    assert len(black) == EXAMPLE_SOLUTION.read_text().count("#")


def test_show_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = EXAMPLE.read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, out, _ = run(capsys, "show", "-")
    assert code == 0 and out.startswith("┌")


# -- convert --------------------------------------------------------------------------------


def test_convert_url_and_text(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "convert", str(EXAMPLE), "--to", "url")
    assert code == 0 and out == EXAMPLE_URL + "\n"
    code, out, _ = run(capsys, "convert", EXAMPLE_URL, "--to", "text")
    assert code == 0 and out == EXAMPLE.read_text()
    target = tmp_path / "e.janko"
    code, out, _ = run(capsys, "convert", EXAMPLE_URL, "--to", "JANKO", "-o", str(target))
    assert code == 0 and out == ""
    assert read(target.read_text()) == read(EXAMPLE.read_text())


@pytest.mark.parametrize("fmt", ["url", "pzprv3", "janko", "jsonl", "text", "json", "puzz.link"])
def test_convert_round_trips(capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    code, out, _ = run(capsys, "convert", str(EXAMPLE), "--to", fmt)
    assert code == 0
    assert read(out) == read(EXAMPLE.read_text())


def test_convert_keeps_a_board(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    code, out, _ = run(capsys, "convert", str(files["pzprv3"]), "--to", "solution")
    assert code == 0
    assert out.splitlines()[3] == "######."


def test_convert_unknown_format(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "convert", str(EXAMPLE), "--to", "png")
    assert code == 2 and out == ""
    assert "unknown format 'png'" in err and err.count("\n") == 1


# -- check ----------------------------------------------------------------------------------


def test_check_valid(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    for board in ("solution", "dots"):
        code, out, err = run(capsys, "check", str(files["puzzle"]), str(files[board]))
        assert (code, out, err) == (0, "valid: the board breaks no rule\n", "")


def test_check_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", EXAMPLE_URL, str(EXAMPLE_SOLUTION))
    assert code == 0 and out.startswith("valid")


def test_check_invalid(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    code, out, err = run(capsys, "check", str(files["puzzle"]), str(files["pool"]))
    assert code == 1 and err == ""
    assert out == "pool: The black cells r4c2 to r5c3 form a 2x2 pool.\n"
    code, out, _ = run(capsys, "check", str(files["puzzle"]), str(files["pool"]), "--all")
    assert code == 1
    assert [line.split(":")[0] for line in out.splitlines()] == ["pool", "island-size"]


def test_check_json(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    code, out, _ = run(capsys, "check", str(files["puzzle"]), str(files["pool"]), "--json")
    assert code == 1
    data = json.loads(out)
    assert list(data) == ["valid", "violations"]
    assert data["valid"] is False
    (v,) = data["violations"]
    assert list(v) == ["code", "cells", "message"]
    assert v["code"] == "pool"
    assert v["cells"] == [[3, 1], [3, 2], [4, 1], [4, 2]]
    assert v["message"].startswith("The black cells r4c2")
    code, out, _ = run(capsys, "check", str(files["puzzle"]), str(files["solution"]), "--json")
    assert code == 0
    assert json.loads(out) == {"valid": True, "violations": []}


def test_check_partial(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    puzzle, partial = str(files["puzzle"]), str(files["partial"])
    code, out, _ = run(capsys, "check", puzzle, partial, "--partial")
    assert code == 0
    assert out == "valid: nothing is wrong so far (26 cells still unknown)\n"
    # The same board, fully checked: unknown cells count as white.
    code, out, err = run(capsys, "check", puzzle, partial)
    assert code == 1 and out.startswith("island-two-clues:")
    assert "26 unknown cells counted as white" in err
    code, out, _ = run(capsys, "check", puzzle, str(files["pool"]), "--partial", "--json")
    assert code == 1
    assert [v["code"] for v in json.loads(out)["violations"]] == ["pool", "island-size"]


def test_check_pzprv3_board(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    code, out, _ = run(capsys, "check", str(files["puzzle"]), str(files["pzprv3"]))
    assert code == 1 and out.startswith("pool:")
    # Without BOARD, the save's own board is checked.
    code, out, _ = run(capsys, "check", str(files["pzprv3"]))
    assert code == 1 and out.startswith("pool:")


def test_check_board_on_stdin(
    capsys: pytest.CaptureFixture[str], files: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = files["solution"].read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, out, _ = run(capsys, "check", str(files["puzzle"]), "-")
    assert code == 0 and out.startswith("valid")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["check", "{puzzle}", "{missing}"], "no such file"),
        (["check", "{missing}", "{solution}"], "no such file"),
        (["check", "{empty}", "{solution}"], "empty"),
        (["check", "{puzzle}", "{empty}"], "empty"),
        (["check", "{puzzle}", "{junk}"], "binary"),
        (["check", "{junk}", "{solution}"], "binary"),
        (["check", "{puzzle}", "{wrong-size}"], "small.txt"),
        (["check", "{puzzle}"], "holds no board"),
        (["check", "-", "-"], "both be '-'"),
        (["check", "https://puzz.link/p?nuribou/5/5/g5k2o1k3g", "{solution}"], "nuribou"),
        (["show", "https://puzz.link/p?nuribou/5/5/g5k2o1k3g"], "not a nurikabe URL"),
        (["show", "{missing}"], "no such file"),
        (["show", "{junk}"], "binary"),
        (["show", "{empty}"], "empty"),
        (["convert", "{missing}", "--to", "url"], "no such file"),
        (["convert", "{junk}", "--to", "url"], "binary"),
    ],
)
def test_bad_input(
    capsys: pytest.CaptureFixture[str],
    files: dict[str, Path],
    tmp_path: Path,
    args: list[str],
    words: str,
) -> None:
    names = {k: str(v) for k, v in files.items()} | {"missing": str(tmp_path / "nope.txt")}
    code, out, err = run(capsys, *(a.format(**names) for a in args))
    assert code == 2
    assert out == ""
    assert err.startswith("nurikabe: ") and err.count("\n") == 1, err
    assert words in err
    assert "Traceback" not in err


def test_bad_board_names_line(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    bad = files["solution"].with_name("bad.txt")
    rows = list(SOLVED)
    rows[2] = "#3.%1#2"
    bad.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "check", str(files["puzzle"]), str(bad))
    assert code == 2
    assert "bad.txt" in err and "line 3" in err


# -- as a process ---------------------------------------------------------------------------


def test_exit_codes_as_a_process(files: dict[str, Path]) -> None:
    """One process per exit code: 0 valid, 1 invalid (JSON), 2 bad input."""
    base = [sys.executable, "-m", "nurikabe", "check", str(files["puzzle"])]

    def proc(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*base, *extra], capture_output=True, text=True, timeout=60, check=False
        )

    ok = proc(str(files["solution"]))
    assert (ok.returncode, ok.stdout, ok.stderr) == (0, "valid: the board breaks no rule\n", "")
    bad = proc(str(files["pool"]), "--json")
    assert bad.returncode == 1 and bad.stderr == ""
    assert json.loads(bad.stdout)["violations"][0]["code"] == "pool"
    junk = proc(str(files["junk"]))
    assert junk.returncode == 2 and junk.stdout == ""
    assert junk.stderr.count("\n") == 1 and "junk.bin" in junk.stderr


# Time limits and numeric options, refused with exit 2; output that cannot be written.


FIVE_URL = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"


BAD_SECONDS = ["nan", "inf", "-inf", "-1", "0", "1e400", "x"]


@pytest.mark.parametrize("value", BAD_SECONDS)
@pytest.mark.parametrize(
    "command",
    [
        ["explain", FIVE_URL, "--seconds"],
        ["grade", FIVE_URL, "--seconds"],
        ["hint", FIVE_URL, "--seconds"],
        ["show", FIVE_URL, "--solution", "--seconds"],
        ["generate", "--size", "5x5", "--seconds"],
        ["solve", FIVE_URL, "--timeout"],
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


def test_hint_and_show_take_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", FIVE_URL, "--seconds", "5"]) == 0
    assert "[" in capsys.readouterr().out
    assert main(["show", FIVE_URL, "--solution", "--seconds", "5", "--ascii"]) == 0
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


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    "command",
    [
        ["show", FIVE_URL],
        ["show", FIVE_URL, "--format", "svg"],
        ["convert", FIVE_URL, "--to", "text"],
    ],
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
