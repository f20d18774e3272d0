"""``nurikabe hint`` and ``nurikabe explain`` say which of complete, stuck or out of time
happened, each with its own exit code, and ``--reveal`` gives cells from the solution.

The stuck cases are real: a corpus puzzle that the easy techniques alone cannot finish
(``--max-level easy``), its solution published. Running out of time is made certain by
an engine whose every search runs out (no test depends on the machine's speed).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nurikabe import Puzzle
from nurikabe.cli import main
from nurikabe.cli.logic import EXIT_COMPLETE, EXIT_STOPPED, EXIT_STUCK
from nurikabe.formats import Document
from nurikabe.limits import OutOfTime
from nurikabe.logic import engine, explain, hint
from nurikabe.logic.state import State
from tests.corpus import corpus, needs_corpus


def _easy_stuck() -> Document:
    """The first small corpus puzzle the easy techniques alone cannot finish."""
    for doc in corpus():
        if doc.puzzle.area <= 100 and explain(doc.puzzle, max_tier=1).status == "stuck":
            return doc
    raise AssertionError("no corpus puzzle is stuck at easy")


@pytest.fixture()
def stuck(tmp_path: Path) -> tuple[Path, Document]:
    doc = _easy_stuck()
    path = tmp_path / "stuck.txt"
    path.write_text(doc.puzzle.to_text(), encoding="utf-8")
    return path, doc


@pytest.fixture()
def small(tmp_path: Path) -> Path:
    path = tmp_path / "small.txt"
    path.write_text("3 3\n1 0 0\n0 0 0\n0 0 3\n", encoding="utf-8")
    return path


def _never_in_time(state: State, tier: int, seconds: float | None) -> None:
    raise OutOfTime


def test_exit_codes_are_distinct() -> None:
    assert len({0, 2, EXIT_COMPLETE, EXIT_STUCK, EXIT_STOPPED}) == 5


def test_hint_on_a_complete_board(small: Path, tmp_path: Path, capsys) -> None:
    puzzle = Puzzle.from_text(small.read_text(encoding="utf-8"))
    walk = explain(puzzle)
    assert walk.solved and walk.board is not None
    board = tmp_path / "board.txt"
    board.write_text("\n".join(walk.board.to_rows()) + "\n", encoding="utf-8")
    assert main(["hint", str(small), "--board", str(board)]) == EXIT_COMPLETE
    assert "complete" in capsys.readouterr().out


@needs_corpus
def test_hint_says_logic_is_stuck_and_reveals_on_request(stuck, capsys) -> None:
    path, doc = stuck
    walk = explain(doc.puzzle, max_tier=1)
    board_file = path.with_suffix(".board")
    assert walk.board is not None
    board_file.write_text("\n".join(walk.board.to_rows()) + "\n", encoding="utf-8")
    args = ["hint", str(path), "--board", str(board_file), "--max-level", "easy"]
    assert main(args) == EXIT_STUCK
    out = capsys.readouterr().out
    assert "stuck" in out and "--reveal" in out
    assert main([*args, "--reveal", "--json"]) == EXIT_STUCK
    step = json.loads(capsys.readouterr().out)
    assert step["technique"] == "reveal"
    [[r, c, symbol]] = step["cells"]
    assert doc.solution is not None
    cell = doc.puzzle.grid.cell(r, c)
    assert (symbol == "#") == bool(doc.solution.black_mask >> cell & 1)
    assert walk.board.unknown_mask >> cell & 1


def test_hint_says_the_time_ran_out(small: Path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(engine, "_timed_step", _never_in_time)
    assert main(["hint", str(small)]) == EXIT_STOPPED
    out = capsys.readouterr().out
    assert "time" in out and "--reveal" in out
    assert main(["hint", str(small), "--reveal"]) == EXIT_STOPPED
    assert "[reveal]" in capsys.readouterr().out


@needs_corpus
def test_explain_stuck_then_revealed(stuck, capsys) -> None:
    path, _ = stuck
    assert main(["explain", str(path), "--max-level", "easy"]) == EXIT_STUCK
    assert "stuck" in capsys.readouterr().out
    assert main(["explain", str(path), "--max-level", "easy", "--reveal", "--json"]) == EXIT_STUCK
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "solved" and data["revealed"] >= 1
    assert data["grade"]["level"] == "extreme"


@needs_corpus
def test_a_revealed_walkthrough_agrees_with_the_solution_and_says_so(stuck) -> None:
    _, doc = stuck
    walk = explain(doc.puzzle, max_tier=1, reveal=True)
    assert walk.status == "solved" and walk.revealed >= 1
    assert walk.board is not None and doc.solution is not None
    assert walk.board.black_mask == doc.solution.black_mask
    assert walk.grade is not None and not walk.grade.solved and walk.grade.revealed == walk.revealed
    assert walk.grade.level == "extreme"
    for step in walk.steps:
        assert not step.black_mask & ~doc.solution.black_mask
        assert not step.white_mask & doc.solution.black_mask


def test_explain_out_of_time(small: Path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(engine, "_timed_step", _never_in_time)
    assert main(["explain", str(small)]) == EXIT_STOPPED
    assert "Out of time" in capsys.readouterr().out


def test_explain_solved_is_zero(small: Path, capsys) -> None:
    assert main(["explain", str(small)]) == 0
    assert "solved" in capsys.readouterr().out


def test_the_engine_hint_statuses(small: Path, monkeypatch) -> None:
    puzzle = Puzzle.from_text(small.read_text(encoding="utf-8"))
    assert hint(puzzle, puzzle.empty_board()).status == "step"
    monkeypatch.setattr(engine, "_timed_step", _never_in_time)
    found = hint(puzzle, puzzle.empty_board())
    assert found.status == "stopped" and found.step is None
    revealed = found.reveal(puzzle.empty_board())
    assert revealed is not None and revealed.kind == "reveal"


@needs_corpus
def test_the_html_page_says_cells_were_revealed(stuck, tmp_path: Path) -> None:
    path, _ = stuck
    page = tmp_path / "walk.html"
    args = ["explain", str(path), "--max-level", "easy", "--reveal", "--html", str(page)]
    assert main(args) == EXIT_STUCK
    text = page.read_text(encoding="utf-8")
    assert "came from the solution" in text and "logic alone did not finish" in text
