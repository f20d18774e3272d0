"""The page's rule checker (static/js/rules.js), run in the browser: every case of
tests/data/rules_cases.json gives the codes and cells the file expects, and the same
violations, messages included, as `nurikabe.rules.check` gives in Python; so do random boards
in every mode. On boards that agree with a published solution the live check (mode
"partial") finds nothing and every finishing mark is the solution's."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from nurikabe import UNKNOWN_CLUE, Board, Puzzle
from nurikabe.rules import MODES, check
from tests.rules_cases import RuleCase, case_id, raw_cases
from tests.web.browser.harness import open_puzzle

# Runs rules.js `check` in the page on boards given as the page holds them.
CHECK = """async (jobs) => {
  const { Board } = await import('/static/js/board.js');
  const { check } = await import('/static/js/rules.js');
  return jobs.map(([rows, cols, clues, cells, mode]) => {
    const b = new Board(rows, cols, clues);
    b.cells = [...cells];
    try {
      return check(b, mode);
    } catch (err) {
      return String(err);
    }
  });
}"""

# The live check and the finishing marks, as the game runs them after a move.
LIVE = """async ([rows, cols, clues, boards]) => {
  const { Board } = await import('/static/js/board.js');
  const { check, finishingMarks } = await import('/static/js/rules.js');
  return boards.map((text) => {
    const b = new Board(rows, cols, clues);
    b.cells = [...text];
    return { errors: check(b, 'partial').map((e) => e.code), marks: finishingMarks(b) };
  });
}"""


def page_clues(puzzle: Puzzle) -> list[list[int | None]]:
    return RuleCase("", puzzle, (), "all", (), None).page_clues()


def python_answer(puzzle: Puzzle, board: Board, mode: str) -> list[dict[str, object]]:
    """`check` as the page's `check` answers: cells as indices."""
    return [
        {"code": v.code, "cells": list(v.cells), "message": v.message}
        for v in check(puzzle, board, mode=mode)
    ]


@pytest.fixture(scope="module")
def answers(browser, server) -> Iterator[dict[str, object]]:  # type: ignore[no-untyped-def]
    """Every well-formed case of the file run through rules.js in one page, by name."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        open_puzzle(page, server.url, "10x10/0")
        cases = []
        for raw in raw_cases():
            try:
                cases.append(RuleCase.from_json(raw))
            except ValueError:
                continue  # its own test fails
        jobs = [
            [c.puzzle.rows, c.puzzle.cols, c.page_clues(), c.page_board(), c.mode] for c in cases
        ]
        found = page.evaluate(CHECK, jobs)
        yield {case.name: answer for case, answer in zip(cases, found, strict=True)}
    finally:
        context.close()


@pytest.mark.parametrize("raw", raw_cases(), ids=case_id)
def test_rules_js_cases(raw: object, answers: dict[str, object]) -> None:
    case = RuleCase.from_json(raw)
    answer = answers[case.name]
    assert isinstance(answer, list), answer  # else the text of what rules.js threw
    assert [v["code"] for v in answer] == list(case.codes)
    if case.cells is not None:
        assert [tuple(v["cells"]) for v in answer] == list(case.cells)
    assert answer == python_answer(case.puzzle, case.board(), case.mode)


@pytest.mark.long
def test_rules_js_agrees_with_rules_py_on_random_boards(page, server) -> None:
    open_puzzle(page, server.url, "10x10/11")
    rng = random.Random(7)
    puzzles = [
        Puzzle.from_url("https://puzz.link/p?nurikabe/7/5/2h1g2o3h1g2m1i2h"),
        Puzzle.from_url("https://puzz.link/p?nurikabe/5/7/2i1h3m1l1g22l2h"),
        Puzzle.from_url("https://puzz.link/p?nurikabe/4/3/2h.m3"),
    ]
    puzzle = page.evaluate("k => window.nurikabe.api.puzzle(k)", "10x10/11")
    clues = {cell: UNKNOWN_CLUE if value is None else value for cell, value in puzzle["clues"]}
    puzzles.append(Puzzle(puzzle["rows"], puzzle["cols"], clues))
    jobs, expected = [], []
    for puzzle in puzzles:
        for _ in range(80):
            weights = [rng.random() for _ in "#.?"]
            cells = "".join(rng.choices("#.?", weights, k=puzzle.area))
            board = Board.from_rows(
                puzzle, [cells[r * puzzle.cols : (r + 1) * puzzle.cols] for r in range(puzzle.rows)]
            )
            # The page's board keeps a clue cell at "?" unless a case shades it.
            shown = "".join(
                "?" if i in puzzle.clues and ch != "#" else ch for i, ch in enumerate(cells)
            )
            for mode in MODES:
                jobs.append([puzzle.rows, puzzle.cols, page_clues(puzzle), shown, mode])
                expected.append(python_answer(puzzle, board, mode))
    found = page.evaluate(CHECK, jobs)
    for job, want, got in zip(jobs, expected, found, strict=True):
        assert got == want, job


def test_live_check_is_quiet_on_boards_that_agree_with_the_solution(page, server) -> None:
    rng = random.Random(15)
    for key in ["10x10/11", "15x15/1", "20x20/2"]:
        open_puzzle(page, server.url, key)
        puzzle = page.evaluate("k => window.nurikabe.api.puzzle(k)", key)
        solution = page.evaluate("k => window.nurikabe.api.solve(k)", key)["solution"]
        clues = {cell for cell, _ in puzzle["clues"]}
        boards = []
        for _ in range(60):
            keep = rng.random()
            boards.append(
                "".join(
                    ch if cell not in clues and rng.random() < keep else "?"
                    for cell, ch in enumerate(solution)
                )
            )
        boards.append("".join("?" if c in clues else ch for c, ch in enumerate(solution)))
        answers = page.evaluate(LIVE, [puzzle["rows"], puzzle["cols"], puzzle["clues"], boards])
        for board, answer in zip(boards, answers, strict=True):
            assert answer["errors"] == [], (key, board)
            for cell, before, after in answer["marks"]:
                assert before == "?" and board[cell] == "?"
                assert after == solution[cell], (key, cell)
