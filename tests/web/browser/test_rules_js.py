"""The page's own rule reasoning (static/js/rules.js), run in the browser: on boards that
agree with a published solution it proves no error and every mark it forces is the
solution's; on boards with a broken rule it names that rule."""

from __future__ import annotations

import random

from tests.web.browser.harness import open_puzzle

# Loads rules.js and board.js in the page and runs them on boards given as strings.
ANALYSE = """async ([rows, cols, clues, boards]) => {
  const { Board } = await import('/static/js/board.js');
  const { provenErrors, finishingMarks } = await import('/static/js/rules.js');
  return boards.map((text) => {
    const b = new Board(rows, cols, clues);
    b.cells = [...text];
    return { errors: provenErrors(b).map((e) => e.code), marks: finishingMarks(b) };
  });
}"""


def test_rules_are_sound_on_boards_that_agree_with_the_solution(page, server) -> None:
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
        answers = page.evaluate(ANALYSE, [puzzle["rows"], puzzle["cols"], puzzle["clues"], boards])
        for board, answer in zip(boards, answers, strict=True):
            assert answer["errors"] == [], (key, board)
            for cell, before, after in answer["marks"]:
                assert before == "?" and board[cell] == "?"
                assert after == solution[cell], (key, cell)


def test_rules_name_what_is_broken(page, server) -> None:
    open_puzzle(page, server.url, "10x10/0")
    # 4x4 boards (cells 0..15 row by row): a 2 at r1c1 (cell 0) and a 1 at r4c4 (cell 15).
    clues = [[0, 2], [15, 1]]
    cases = {
        "????????????????": [],
        "?##??##?????????": ["pool"],
        "?.??????????????": [],  # the 2 has its two cells
        "?..?????????????": ["too-big"],
        "?#??#???????????": ["too-small"],  # the 2 walled in alone
        "??#??#.#??#?????": ["no-clue"],  # r2c3 white, walled in, no number
        "??.#???.????#???": ["sea-split"],  # r1c4 black, walled in, other black elsewhere
        "?...???.???.????": ["two-clues"],
    }
    answers = page.evaluate(ANALYSE, [4, 4, clues, list(cases)])
    for (board, expected), answer in zip(cases.items(), answers, strict=True):
        assert sorted(set(answer["errors"])) == expected, board
