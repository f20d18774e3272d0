"""``nurikabe solve``: exit codes, text and JSON output, batches, interruption, start-up weight."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

import nurikabe.cli.solve_items as solve_items
from nurikabe import UNKNOWN_CLUE, Puzzle, solve
from nurikabe.cli import main
from nurikabe.formats import Document, write
from tests.corpus import corpus

UNIQUE = "3 3\n1 0 0\n0 0 0\n0 0 3\n"
MULTIPLE = "3 3\n2 0 0\n0 0 0\n0 0 2\n"
NONE = "2 2\n1 0\n0 3\n"


def jsonl(*puzzles: Puzzle | Document) -> str:
    return "\n".join(write(p, "jsonl") for p in puzzles) + "\n"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    out = {}
    for name, text in {"unique.txt": UNIQUE, "multiple.txt": MULTIPLE, "none.txt": NONE}.items():
        (tmp_path / name).write_text(text)
        out[name.split(".")[0]] = str(tmp_path / name)
    many = Puzzle(10, 10, {44: UNKNOWN_CLUE})
    (tmp_path / "many.jsonl").write_text(jsonl(many))
    out["many"] = str(tmp_path / "many.jsonl")
    huge = Puzzle(
        100, 100, {r * 100 + c: UNKNOWN_CLUE for r in range(0, 100, 7) for c in range(0, 100, 7)}
    )
    (tmp_path / "huge.jsonl").write_text(jsonl(huge))
    out["huge"] = str(tmp_path / "huge.jsonl")
    return out


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["solve", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# -- one puzzle ---------------------------------------------------------------------------------


def test_unique(capsys: pytest.CaptureFixture[str], files: dict[str, str]) -> None:
    code, out, _ = run(capsys, files["unique"])
    assert code == 0
    assert out.startswith("unique.txt: unique solution (native, ")
    assert len(out.splitlines()) >= 4


def test_unique_json(capsys: pytest.CaptureFixture[str], files: dict[str, str]) -> None:
    code, out, _ = run(capsys, files["unique"], "--json")
    record = json.loads(out)
    assert code == 0
    assert set(record) == {"id", "status", "solutions", "seconds", "engine"}
    assert record["id"] == "unique.txt" and record["status"] == "unique"
    assert record["solutions"] == [[".##", "##.", "#.."]]
    assert record["engine"] == "native" and record["seconds"] >= 0


def test_multiple(capsys: pytest.CaptureFixture[str], files: dict[str, str]) -> None:
    code, out, _ = run(capsys, files["multiple"])
    assert code == 3
    assert "more than one solution" in out and "r1c2" in out
    assert "solution 1" in out and "solution 2" in out
    code, out, _ = run(capsys, files["multiple"], "--json")
    record = json.loads(out)
    assert code == 3 and record["status"] == "multiple" and len(record["solutions"]) == 2


def test_none(capsys: pytest.CaptureFixture[str], files: dict[str, str]) -> None:
    code, out, _ = run(capsys, files["none"])
    assert code == 1 and "no solution" in out
    code, out, _ = run(capsys, files["none"], "--json")
    assert json.loads(out)["solutions"] == []


def test_count_and_all(capsys: pytest.CaptureFixture[str], files: dict[str, str]) -> None:
    code, out, _ = run(capsys, files["multiple"], "--count")
    assert code == 3 and "2 solutions" in out
    code, out, _ = run(capsys, files["multiple"], "--count", "--json")
    record = json.loads(out)
    assert (record["count"], record["complete"]) == (2, True)
    code, out, _ = run(capsys, files["unique"], "--count", "--json")
    assert code == 0 and json.loads(out)["count"] == 1
    code, out, _ = run(capsys, files["multiple"], "--all")
    assert code == 3 and "solution 1:" in out and "solution 2:" in out


def test_count_with_a_limit_is_a_lower_bound(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    code, out, _ = run(capsys, files["many"], "--count", "--limit", "50")
    assert code == 4
    assert "at least 50 solutions" in out and "lower bound" in out
    code, out, _ = run(capsys, files["many"], "--count", "--limit", "50", "--json")
    record = json.loads(out)
    assert (record["count"], record["complete"], record["limit_hit"]) == (50, False, "solutions")
    assert len(record["solutions"]) == 2


def test_limit_1_reports_a_found_solution(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    # Two solutions: the search stops at the first, so uniqueness is not checked.
    puzzle = Puzzle.from_text(MULTIPLE)
    code, out, _ = run(capsys, files["multiple"], "--limit", "1")
    assert code == solve_items.EXIT_FOUND == 5
    assert out.startswith("multiple.txt: solution found, uniqueness not checked (native, ")
    code, out, _ = run(capsys, files["multiple"], "--limit", "1", "--json")
    record = json.loads(out)
    assert code == 5 and record["status"] == "found" and record["limit_hit"] == "solutions"
    assert len(record["solutions"]) == 1
    found = record["solutions"][0]
    assert found in [board.to_rows() for board in solve(puzzle).solutions]
    # A search that closes after its first solution has proven it unique.
    code, out, _ = run(capsys, files["unique"], "--limit", "1", "--json")
    record = json.loads(out)
    assert (code, record["status"]) in [(0, "unique"), (5, "found")]
    assert record["solutions"] == [solve(Puzzle.from_text(UNIQUE)).solution.to_rows()]
    # Counting keeps its lower bound.
    code, out, _ = run(capsys, files["multiple"], "--count", "--limit", "1", "--json")
    assert code == 4 and json.loads(out)["status"] != "found"


def test_limit_1_in_a_batch(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "two.jsonl"
    path.write_text(jsonl(Puzzle.from_text(MULTIPLE), Puzzle.from_text(NONE)))
    code, out, _ = run(capsys, str(path), "--limit", "1")
    assert code == 1  # no solution is more serious than a solution found
    assert out.splitlines()[0].startswith("two.jsonl:1: found (native")
    assert "1 none, 0 unknown, 1 found (uniqueness not checked), 0 bad input" in out
    path.write_text(jsonl(Puzzle.from_text(MULTIPLE), Puzzle.from_text(UNIQUE)))
    code, out, _ = run(capsys, str(path), "--limit", "1", "--json")
    assert code == 5
    assert json.loads(out.splitlines()[-1])["summary"]["found"] >= 1


def test_timeout_gives_unknown(capsys: pytest.CaptureFixture[str], files: dict[str, str]) -> None:
    code, out, _ = run(capsys, files["huge"], "--timeout", "0.5", "--json")
    record = json.loads(out)
    assert record["status"] in ("unknown", "multiple")
    assert code == (4 if record["status"] == "unknown" else 3)
    assert record["seconds"] < 3


def test_svg(capsys: pytest.CaptureFixture[str], files: dict[str, str], tmp_path: Path) -> None:
    target = tmp_path / "out.svg"
    code, _, _ = run(capsys, files["multiple"], "--svg", str(target))
    assert code == 3 and target.read_text().lstrip().startswith("<svg")


def test_cpsat_engine(capsys: pytest.CaptureFixture[str], files: dict[str, str]) -> None:
    pytest.importorskip("ortools")
    code, out, _ = run(capsys, files["unique"], "--engine", "cpsat", "--json")
    assert code == 0 and json.loads(out)["engine"] == "cpsat"


# -- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["/no/such/file"],
        ["--engine", "quantum", "X"],
        ["--timeout", "-1", "X"],
        ["--limit", "0", "X"],
    ],
)
def test_bad_input_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    try:
        code = main(["solve", *argv])
    except SystemExit as exc:  # argparse
        code = int(exc.code or 0)
    assert code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.strip()


def test_garbage_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "junk.txt"
    path.write_text("this is no puzzle\n")
    code, _, err = run(capsys, str(path))
    assert code == 2 and "junk.txt" in err and len(err.strip().splitlines()) == 1


# -- batches ------------------------------------------------------------------------------------


@pytest.fixture
def batch(tmp_path: Path) -> Path:
    docs = [d for d in corpus() if d.puzzle.area <= 64][:2]
    if not docs:
        pytest.skip("corpus not found")
    path = tmp_path / "batch.jsonl"
    path.write_text(
        jsonl(*docs, Puzzle.from_text(MULTIPLE), Puzzle.from_text(NONE))
        + '{"rows": 0, "cols": 3}\n'
    )
    return path


def test_batch_text(capsys: pytest.CaptureFixture[str], batch: Path) -> None:
    code, out, _ = run(capsys, str(batch))
    lines = out.splitlines()
    assert len(lines) == 6
    assert ": unique (native" in lines[0] and ": unique (native" in lines[1]
    assert lines[2].startswith("batch.jsonl:3: multiple")
    assert lines[3].startswith("batch.jsonl:4: none")
    assert lines[4].startswith("batch.jsonl:5: error")
    assert lines[5].startswith("5 puzzles: 2 unique, 1 multiple, 1 none, 0 unknown, 1 bad input")
    assert code == 2  # bad input is the most serious


def test_batch_json(capsys: pytest.CaptureFixture[str], batch: Path) -> None:
    code, out, _ = run(capsys, str(batch), "--json", "--count")
    assert code == 2
    records = [json.loads(line) for line in out.splitlines()]
    assert [r.get("status") for r in records[:5]] == [
        "unique",
        "unique",
        "multiple",
        "none",
        "error",
    ]
    assert records[2]["count"] == 2 and records[2]["complete"] is True
    assert records[-1]["summary"]["puzzles"] == 5 and records[-1]["summary"]["unique"] == 2


def test_batch_folder(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], tmp_path: Path
) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    for name in ("unique", "multiple"):
        Path(files[name]).rename(folder / Path(files[name]).name)
    code, out, _ = run(capsys, str(folder))
    assert code == 3
    assert out.splitlines()[0].startswith("multiple.txt: multiple")
    assert out.splitlines()[1].startswith("unique.txt: unique")


def test_batch_of_one_with_flag(capsys: pytest.CaptureFixture[str], files: dict[str, str]) -> None:
    code, out, _ = run(capsys, files["unique"], "--batch")
    assert code == 0 and out.splitlines()[-1].startswith("1 puzzle: 1 unique")


def test_ctrl_c_keeps_what_is_done(
    capsys: pytest.CaptureFixture[str], batch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = solve_items.solve
    calls = []

    def interrupted_on_second(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(solve_items, "solve", interrupted_on_second)
    code, out, _ = run(capsys, str(batch), "--jobs", "1")  # the Ctrl-C reaches this process
    assert code == 130
    lines = out.splitlines()
    assert len(lines) == 2 and ": unique" in lines[0]
    assert lines[1].startswith("1 puzzle: 1 unique") and "interrupted" in lines[1]


# -- start-up -----------------------------------------------------------------------------------


def test_solve_path_imports_nothing_heavy(files: dict[str, str]) -> None:
    code = (
        "import sys\n"
        "from nurikabe.cli import main\n"
        f"main(['solve', {files['unique']!r}])\n"
        "print(sorted(m for m in ('ortools', 'tqdm', 'numpy') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"


# solve --all streams its solutions.


EXAMPLE_URL = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"


MANY_SOLUTIONS = Puzzle(6, 6, {0: UNKNOWN_CLUE, 35: UNKNOWN_CLUE}).to_url()  # 100,000s of solutions


@pytest.mark.long
def test_solve_all_streams() -> None:
    """The first solution is printed long before the search ends, and memory stays flat."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "nurikabe.cli", "solve", MANY_SOLUTIONS, "--all", "--timeout", "6"],
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
    assert main(["solve", EXAMPLE_URL, "--all"]) == 0
    assert ": 1 solution " in capsys.readouterr().out


def test_solve_all_json_streams_one_object(capsys: pytest.CaptureFixture[str]) -> None:
    """With --json the solutions are written as found, inside the one object other solves
    print: it parses, lists every solution once, and says whether the count is complete."""
    two = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]]).to_url()
    assert main(["solve", two, "--all", "--json"]) == 3
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "multiple" and record["count"] == 2 and record["complete"]
    assert len({tuple(rows) for rows in record["solutions"]}) == 2
    assert main(["solve", MANY_SOLUTIONS, "--all", "--json", "--limit", "50"]) == 4
    record = json.loads(capsys.readouterr().out)
    assert record["count"] == len(record["solutions"]) == 50 and not record["complete"]
