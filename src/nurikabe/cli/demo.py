"""``nurikabe demo``: a short tour on the bundled example puzzle (what ``make run`` shows).

It reads the example, draws it, checks a wrong board and the right one, solves it,
asks for a hint and grades it.
"""

from __future__ import annotations

import argparse
from importlib import resources

from ..formats import read, read_board
from ..puzzle import Puzzle


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("demo", help="a short tour on the bundled example puzzle")
    parser.set_defaults(func=run)


def example() -> tuple[Puzzle, str]:
    """The bundled example puzzle and its solution text."""
    data = resources.files("nurikabe") / "data"
    puzzle = read((data / "example.txt").read_text(encoding="utf-8"))
    return puzzle, (data / "example-solution.txt").read_text(encoding="utf-8")


def run(args: argparse.Namespace) -> int:
    from ..logic import grade, next_step
    from ..render import render_text
    from ..rules import check
    from ..solver import solve

    puzzle, solution_text = example()
    solution = read_board(solution_text, puzzle)
    print(f"The bundled example, {puzzle.rows}x{puzzle.cols}:  {puzzle.to_url()}")
    print(render_text(puzzle))

    wrong = solution.copy()
    corner = puzzle.grid.cell(3, 3)
    wrong.set_white(corner)
    print("\nA board with one cell wrong (r4c4 white), as `nurikabe check` sees it:")
    for violation in check(puzzle, wrong, mode="all"):
        print(f"  {violation.code}: {violation.message}")

    result = solve(puzzle)
    print(f"\nThe solver: {result.status.name.lower()} in {result.stats.seconds * 1000:.1f} ms")
    assert result.solution is not None
    print(render_text(puzzle, result.solution))
    print(f"Matches the published solution: {result.solution == solution}")
    print(f"Rules broken by it: {check(puzzle, result.solution) or 'none'}")

    step = next_step(puzzle, puzzle.empty_board(), solution=result.solution)
    if step is not None:
        print(f"\nA first hint ({step.technique}): {step.message}")
    g = grade(puzzle)
    print(f"Grade: {g.level} (score {g.score})")
    print("\nTry: nurikabe --help, nurikabe solve URL, nurikabe explain URL --html walk.html")
    return 0
