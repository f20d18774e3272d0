"""The logic engine end to end: walkthroughs agree with published solutions, hints,
grading, restriction by tier, the HTML page and the CLI commands."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from nurikabe import Board, Color, Limit, Puzzle, Step, explain, grade, next_step, solve
from nurikabe.cli import main
from nurikabe.formats import Document, read
from nurikabe.limits import OutOfTime
from nurikabe.logic import LEVELS, State, find_step, hint, level_tier
from nurikabe.logic.grade import grade_steps
from nurikabe.puzzle import UNKNOWN_CLUE
from nurikabe.render.walkthrough import walkthrough_html
from nurikabe.solver import Status
from tests.bruteforce import black_masks
from tests.corpus import corpus, needs_corpus, sample
from tests.logic.sparse import SPARSE_15

SMALL = Puzzle.from_grid([[1, 0, 0], [0, 0, 0], [0, 0, 3]])
# 5x7: a small non-square puzzle with a unique solution.
FIVE_BY_SEVEN = Puzzle.from_grid(
    [
        [2, 0, 0, 0, 0, 0, 1],
        [0, 0, 0, 3, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0],
        [0, 0, 2, 0, 0, 0, 3],
    ]
)


def agrees(step: Step, solution: Board) -> bool:
    return not (step.black_mask & ~solution.black_mask or step.white_mask & solution.black_mask)


def check_walk(puzzle: Puzzle, solution: Board, seconds: float | None = 30.0) -> None:
    walk = explain(puzzle, seconds=seconds)
    for step in walk.steps:
        assert step.kind in ("deduction", "trial"), step
        assert agrees(step, solution), step
    if walk.status == "solved":
        assert walk.board == solution


def test_small_walkthrough() -> None:
    walk = explain(SMALL)
    assert walk.status == "solved"
    assert walk.steps[0].technique == "one-clue"
    assert walk.steps[0].color is Color.BLACK
    board = SMALL.empty_board()
    for step in walk.steps:
        board.apply(step)
    assert board == walk.board and board.is_complete()
    data = walk.to_json()
    assert set(data) == {"status", "steps", "grade"}
    assert set(data["grade"]) == {"level", "score"}
    assert set(data["steps"][0]) == {"technique", "cells", "premises", "message", "trial_depth"}
    assert data["steps"][0]["cells"] == [[0, 1, "#"], [1, 0, "#"]]


def test_non_square_puzzle_is_solved_soundly() -> None:
    walk = explain(FIVE_BY_SEVEN)
    assert walk.status in ("solved", "stuck")
    if walk.status == "solved":
        assert walk.board is not None and walk.board.is_complete()


def test_ambiguous_puzzle_is_stuck() -> None:
    walk = explain(Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]]))
    assert walk.status == "stuck"
    assert walk.grade is not None and walk.grade.level == "extreme"


def test_question_mark_clue() -> None:
    puzzle = Puzzle.from_clues(3, 4, [(0, 0, -1), (2, 3, 1)])
    walk = explain(puzzle, seconds=5)
    assert walk.status in ("solved", "stuck")
    assert all(s.kind in ("deduction", "trial") for s in walk.steps)


def test_hint_on_partial_board_with_dots() -> None:
    solution = explain(SMALL).board
    assert solution is not None
    board = Board.from_rows(SMALL, ["1#?", "#??", "??3"])
    step = next_step(SMALL, board, solution=solution)
    assert step is not None and step.kind == "deduction"
    assert not step.mask & (board.black_mask | board.white_mask)
    assert agrees(step, solution)


def test_hint_reports_wrong_cells_first() -> None:
    solution = explain(SMALL).board
    assert solution is not None
    board = Board.from_rows(SMALL, ["1.?", "???", "??3"])
    step = next_step(SMALL, board, solution=solution)
    assert step is not None and step.kind == "wrong-cells"
    assert step.to_json() == {"wrong_cells": [[0, 1]]}
    board.apply(step)
    assert board.color_at(0, 1) is Color.UNKNOWN


def test_hint_without_given_solution_uses_solver_or_logic() -> None:
    board = Board.from_rows(SMALL, ["1.?", "???", "??3"])
    step = next_step(SMALL, board)
    assert step is not None and step.kind in ("wrong-cells", "contradiction")


def test_a_hint_is_not_held_up_by_a_slow_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    """The exact solve (for wrong cells) has at most `SOLVE_SHARE` of the hint's time, and
    none on a board with no cell of the player's (nothing there can be wrong)."""
    from nurikabe.logic import engine

    asked: list[float | None] = []
    real = engine._solution

    def spy(puzzle: Puzzle, seconds: float | None) -> tuple[Board | None, bool]:
        asked.append(seconds)
        return real(puzzle, seconds)

    monkeypatch.setattr(engine, "_solution", spy)
    board = SPARSE_15.empty_board()
    found = engine.hint(SPARSE_15, board, seconds=2)
    assert found.status == "step" and found.step is not None
    assert asked == []
    board.apply(found.step)
    found = engine.hint(SPARSE_15, board, seconds=2)
    assert asked == [2 * engine.SOLVE_SHARE]
    assert found.status == "step" and found.step is not None
    assert found.step.kind == "deduction" and found.solution is None
    assert not found.step.mask & (board.black_mask | board.white_mask)


def test_a_hint_that_runs_out_of_time_still_has_the_solution(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a board with no cell of the player's the search for a step leaves the solve a
    share of the time, so a hint whose search runs out can still reveal a cell."""
    from nurikabe.logic import engine

    given: list[float | None] = []

    def out_of_time(state: State, **options: object) -> tuple[None, str]:
        given.append(options["seconds"])  # type: ignore[arg-type]
        return None, "stopped"

    monkeypatch.setattr(engine, "search_step", out_of_time)
    found = engine.hint(SMALL, SMALL.empty_board(), seconds=8)
    assert found.status == "stopped" and found.step is None
    assert given and given[0] is not None and given[0] <= 8 * (1 - engine.SOLVE_SHARE)
    assert found.solution == explain(SMALL).board
    assert found.reveal(SMALL.empty_board()) is not None


def test_a_stuck_hint_still_has_the_solution_for_the_reveal() -> None:
    """No step on the empty board: the solve skipped for wrong cells is made for the reveal."""
    puzzle = Puzzle.from_clues(4, 3, [(1, 0, 2), (3, 2, 6)])
    found = hint(puzzle, puzzle.empty_board(), max_tier="easy")
    assert found.status == "stuck" and found.step is None
    solution = solve(puzzle, limit=Limit(solutions=2)).solution
    assert solution is not None and found.solution == solution
    step = found.reveal(puzzle.empty_board())
    assert step is not None and agrees(step, solution)


def test_hint_on_complete_board() -> None:
    solution = explain(SMALL).board
    assert solution is not None
    assert next_step(SMALL, solution.copy(), solution=solution) is None


def test_max_tier_restricts() -> None:
    walk = explain(SMALL, max_tier="easy")
    assert all(s.technique != "sea-articulation" for s in walk.steps)
    assert level_tier("hard") == 3 and level_tier("expert") == 4
    with pytest.raises(ValueError):
        level_tier("impossible")


def test_find_step_respects_tier() -> None:
    state = State(SMALL)
    step = find_step(state, max_tier=1)
    assert step is not None and step.technique == "one-clue"


def test_levels_follow_tiers() -> None:
    """Hard = a completion step, expert = a case split, extreme = any trial step."""
    grid = SMALL.grid
    plain = Step("one-clue", grid, black_mask=2)
    shapes = Step("completion-common-cell", grid, white_mask=4)
    split = Step("sea-exit-cases", grid, black_mask=8)
    trial = Step("trial", grid, black_mask=16, kind="trial", trial_depth=1)
    assert grade_steps([plain, shapes]).level == "hard"
    assert grade_steps([plain, shapes, split]).level == "expert"
    assert 300 < grade_steps([plain, split]).score < 399
    one = grade_steps([plain, split, trial])
    assert one.level == "extreme" and one.score == 400 + 12 + 25
    deeper = Step("trial", grid, black_mask=16, kind="trial", trial_depth=2)
    assert grade_steps([plain, deeper]).score == 400 + 50
    assert grade_steps([plain], solved=False).level == "extreme"


def test_score_spreads_within_a_level_and_stays_in_it() -> None:
    """More or bigger case splits score higher, but an expert score never reaches 399
    however many splits there are; the level still comes from the hardest tier alone."""
    from nurikabe.logic.grade import step_points

    grid = SMALL.grid
    two = Step("sea-exit-cases", grid, black_mask=8, cases=2)
    four = Step("sea-exit-cases", grid, black_mask=8, cases=4)
    shapes = Step("island-options", grid, black_mask=8, cases=64)
    deep = Step("deep-cases", grid, black_mask=8, cases=2)
    assert step_points(two) < step_points(four) < step_points(shapes)
    assert step_points(two) < step_points(deep)
    scores = [grade_steps([two] * n).score for n in (1, 2, 5, 20, 100, 10_000)]
    assert scores == sorted(scores) and len(set(scores)) == len(scores)
    assert all(300 <= s <= 398 for s in scores)
    assert grade_steps([two]).score < grade_steps([four]).score < grade_steps([shapes]).score
    # Hard: each completion step counts; medium below it, expert above it.
    hard = [grade_steps([Step("completion-common-cell", grid, white_mask=4)] * n) for n in (1, 50)]
    assert [g.level for g in hard] == ["hard", "hard"]
    assert 200 < hard[0].score < hard[1].score <= 298
    medium = grade_steps([Step("sea-articulation", grid, black_mask=4)] * 1000)
    assert medium.level == "medium" and medium.score <= 198
    assert grade_steps([two] * 10_000 + [Step("one-clue", grid, black_mask=2)]).level == "expert"


def test_easy_score_from_rarer_tier_one_steps() -> None:
    """Easy puzzles are scored by their rarer tier 1 steps: common steps weigh nothing,
    a count of cells more than a stray cell's exit, and the score stays below 99; the
    rarer steps add nothing above easy."""
    grid = SMALL.grid
    common = [Step("one-clue", grid, black_mask=2), Step("island-single-exit", grid, white_mask=4)]
    orphan = Step("orphan-single-exit", grid, white_mask=8)
    count = Step("counting", grid, black_mask=8)
    scores = [grade_steps(s).score for s in (common, [*common, orphan], [*common, count])]
    assert scores[0] == 0 and 0 < scores[1] < scores[2]
    assert grade_steps([count] * 10_000).score <= 98
    assert grade_steps([count] * 10_000).level == "easy"
    medium = [Step("sea-articulation", grid, black_mask=4)]
    assert grade_steps([*medium, count, count]).score == grade_steps(medium).score


def test_trials_only_at_extreme() -> None:
    """Below tier 5 the engine never makes a trial step (it stops instead)."""
    puzzle = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])
    for tier in (4, "expert"):
        walk = explain(puzzle, max_tier=tier, seconds=5)
        assert walk.status == "stuck" and all(s.kind != "trial" for s in walk.steps)


def test_grade_fields() -> None:
    g = grade(SMALL)
    assert g.level in LEVELS and g.score >= 0 and g.solved
    assert g.counts and g.hardest in g.counts


def test_html_page() -> None:
    page = walkthrough_html(explain(SMALL), title="small")
    assert page.startswith("<!DOCTYPE html>")
    assert page.count("<svg") == len(explain(SMALL).steps) + 1
    assert "is a whole island" in page


@needs_corpus
def test_corpus_sample_sound_and_solved() -> None:
    docs = sample(10, max_cells=100)
    solved = 0
    for doc in docs:
        check_walk(doc.puzzle, doc.solution, seconds=8)
        solved += explain(doc.puzzle, max_tier=4).status == "solved"
    assert solved >= 6


@needs_corpus
def test_grades_rise_with_hardest_technique() -> None:
    seen = {}
    for doc in sample(12, max_cells=100):
        g = grade(doc.puzzle, seconds=8)
        seen.setdefault(g.level, []).append(g.score)
    levels = sorted(seen, key=LEVELS.index)
    for low, high in itertools.pairwise(levels):
        assert max(seen[low]) < min(seen[high])


@needs_corpus
def test_short_budget_is_honoured() -> None:
    """The case splits check the walkthrough's deadline: janko 962, whose first steps are
    long tier 4 splits, stops close to a 0.5 s budget (CPU time; the bound here is loose,
    this is not a timing test) and ends as stopped, saying where, graded as stuck."""
    import time

    doc = next(d for d in corpus() if d.meta.get("id") == "janko-0962")
    start = time.thread_time()
    walk = explain(doc.puzzle, seconds=0.5)
    used = time.thread_time() - start
    assert walk.status == "stopped" and not walk.solved
    assert walk.stopped is not None and "0.5 s of CPU time" in walk.stopped
    assert f"looking for step {len(walk.steps) + 1} (in " in walk.stopped
    assert walk.to_json()["stopped"] == walk.stopped
    assert walk.grade is not None and walk.grade.level == "extreme"
    assert not walk.grade.solved
    assert used < 1.5, used
    for step in walk.steps:
        assert agrees(step, doc.solution)


def test_out_of_time_state_gives_no_costly_step() -> None:
    """A state past its deadline makes the costly techniques stop (`OutOfTime`), and
    `find_step` then reports no step rather than a partial one."""
    from nurikabe.logic.techniques import technique

    state = State(FIVE_BY_SEVEN)
    state.deadline = 0.0
    with pytest.raises(OutOfTime):
        technique("completion-common-cell").func(state)
    copy = state.copy()
    assert copy.deadline == 0.0
    with pytest.raises(OutOfTime):
        copy.check_time()
    state.deadline = None
    state.check_time()
    # With no time at all, only the cheap techniques (which check no clock) can answer.
    step = find_step(State(FIVE_BY_SEVEN), seconds=0.0)
    assert step is None or technique(step.technique).tier <= 2


@needs_corpus
@pytest.mark.slow
@pytest.mark.parametrize("index", range(499))
def test_corpus_walkthrough_sound(index: int) -> None:
    docs = corpus()
    if index >= len(docs):
        pytest.skip("smaller corpus")
    doc = docs[index]
    check_walk(doc.puzzle, doc.solution, seconds=60)


# -- CLI -----------------------------------------------------------------------------------


@pytest.fixture()
def small_file(tmp_path):
    path = tmp_path / "small.txt"
    path.write_text("3 3\n1 0 0\n0 0 0\n0 0 3\n", encoding="utf-8")
    return path


def test_cli_explain_json(small_file, capsys) -> None:
    assert main(["explain", str(small_file), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "solved"
    assert data["grade"]["level"] in LEVELS
    assert data["steps"][0]["trial_depth"] == 0


def test_explain_reports_each_step_with_the_cells_left() -> None:
    puzzle = Puzzle.from_grid([[1, 0, 0], [0, 0, 0], [0, 0, 3]])
    seen: list[tuple[str, int]] = []
    walk = explain(puzzle, on_step=lambda step, left: seen.append((step.technique, left)))
    assert [t for t, _ in seen] == [s.technique for s in walk.steps]
    lefts = [left for _, left in seen]
    assert lefts == sorted(lefts, reverse=True) and lefts[-1] == 0 and lefts[0] < 7


def test_cli_explain_shows_progress_when_asked(small_file, capsys, monkeypatch) -> None:
    monkeypatch.setenv("NURIKABE_PROGRESS", "1")
    assert main(["explain", str(small_file)]) == 0
    captured = capsys.readouterr()
    assert "explain:" in captured.err and "/7 " in captured.err  # 7 cells to decide
    assert "solved:" in captured.out


def test_cli_explain_html(small_file, tmp_path, capsys) -> None:
    out = tmp_path / "walk.html"
    assert main(["explain", str(small_file), "--html", str(out)]) == 0
    assert out.read_text(encoding="utf-8").count("<svg") >= 2


def test_cli_hint(small_file, tmp_path, capsys) -> None:
    assert main(["hint", str(small_file), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["technique"] == "one-clue"
    board = tmp_path / "board.txt"
    board.write_text("1.?\n???\n??3\n", encoding="utf-8")
    assert main(["hint", str(small_file), "--board", str(board), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == {"wrong_cells": [[0, 1]]}
    assert main(["hint", str(small_file)]) == 0
    assert "one-clue" in capsys.readouterr().out


def test_cli_grade(small_file, tmp_path, capsys) -> None:
    assert main(["grade", str(small_file)]) == 0
    assert capsys.readouterr().out.split()[0] in LEVELS
    batch = tmp_path / "two.jsonl"
    record = {"id": "s", "rows": 3, "cols": 3, "clues": [[0, 0, 1], [2, 2, 3]]}
    batch.write_text(json.dumps(record) + "\n" + json.dumps(record) + "\n", encoding="utf-8")
    assert main(["grade", str(batch), "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2 and json.loads(lines[0])["id"] == "s"


def test_cli_bad_input(small_file, tmp_path, capsys) -> None:
    assert main(["explain", str(tmp_path / "missing.txt")]) == 2
    assert main(["explain", str(small_file), "--max-level", "bogus"]) == 2
    bad = tmp_path / "bad.txt"
    bad.write_text("1\n", encoding="utf-8")
    assert main(["hint", str(small_file), "--board", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 3 and "Traceback" not in err


@needs_corpus
def test_analysis_reusing_settled_islands_matches_a_fresh_one() -> None:
    """The analysis takes settled islands (complete, black all round) from the state's
    memo instead of flooding them; along a walkthrough, with random decisions on top
    (some overriding the color of decided cells), it matches one made from scratch."""
    import random

    from nurikabe.grid import bits
    from nurikabe.logic.state import SETTLED

    def summary(state: State) -> tuple[object, ...]:
        a = state.analysis()
        islands = [
            (i.mask, i.clue, i.value, i.size, i.least, i.most, i.border, i.forbidden, i.allowed)
            for i in a.islands
        ]
        return islands, a.orphans, a.clashes

    rng = random.Random(8)
    doc = sample(3, max_cells=225)[-1]
    puzzle = doc.puzzle
    state = State(puzzle)
    for step in explain(puzzle, max_tier=4).steps:
        state.decide(step.black_mask, step.white_mask)
        for _ in range(3):
            s = state.copy()
            cells = list(bits(puzzle.grid.full & ~puzzle.clue_mask))
            black = white = 0
            for cell in rng.sample(cells, rng.choice([0, 1, 3, 10])):
                if rng.random() < 0.5:
                    black |= 1 << cell
                else:
                    white |= 1 << cell
            s.decide(black, white)
            fresh = State(puzzle)
            fresh.black, fresh.white = s.black, s.white
            assert summary(s) == summary(fresh)
    assert state.memo.get(SETTLED)  # the memo was in use


@needs_corpus
def test_time_only_stops_a_walkthrough() -> None:
    """Under any CPU budget a walkthrough makes the steps it makes without one, and stops
    (saying so) where the time runs out: its steps are a prefix of the full ones."""
    doc = next(d for d in corpus() if d.meta.get("id") == "janko-0490")
    full = explain(doc.puzzle, seconds=None)
    assert full.status == "solved"
    messages = [s.message for s in full.steps]
    assert [s.message for s in explain(doc.puzzle, seconds=None).steps] == messages
    for seconds in (0.02, 0.1, 0.3, 1000.0):
        walk = explain(doc.puzzle, seconds=seconds)
        assert [s.message for s in walk.steps] == messages[: len(walk.steps)]
        if walk.status != "solved":
            assert walk.status == "stopped" and walk.stopped is not None
        else:
            assert walk.grade == full.grade


def test_sparse_puzzle_that_runs_out_of_time_says_where() -> None:
    """A sparse 10x10 (four clues, far apart, several solutions) where no technique
    applies and the first trial search takes longer than the budget: the walkthrough
    stops, saying where, graded as stuck (issue 14: explain and grade used to say only
    "stuck" with no step). The whole search ends, stuck, after about 1.9 s of CPU on the
    machine of session 21, so the budget is a quarter of that."""
    puzzle = Puzzle.from_url("https://puzz.link/p?nurikabe/10/10/n-10zi-11zy5zj-11h")
    walk = explain(puzzle, seconds=0.5)
    assert walk.status == "stopped" and walk.steps == []
    assert walk.stopped is not None
    assert "looking for step 1 (in a depth-" in walk.stopped
    assert "96 of 100 cells unknown" in walk.stopped
    assert walk.grade is not None and walk.grade.stopped and not walk.grade.solved
    assert walk.stopped in walkthrough_html(walk)


# Hints on random players' boards, checked against the published solutions.
#
# A player's board is any mix of correct cells (black cells and dots) and unknown cells,
# sometimes with mistakes. Whatever it is, a hint must name exactly the wrong cells
# first; on a board without mistakes it must decide only undecided cells, and agree
# with the unique solution.

pytestmark = needs_corpus

EXAMPLES = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _docs() -> list[Document]:
    return sample(30, max_cells=100)


@st.composite
def positions(draw: st.DrawFn) -> tuple[Document, Board, int]:
    """A corpus puzzle, a board holding a random part of its solution, and a random set
    of non-clue cells (a subset of the board's decided cells) to get wrong."""
    docs = _docs()
    doc = docs[draw(st.integers(0, len(docs) - 1))]
    puzzle, solution = doc.puzzle, doc.solution
    assert solution is not None
    area = puzzle.area
    known = draw(st.integers(0, (1 << area) - 1))
    if draw(st.booleans()):  # mostly-empty boards, as at the start of a game
        known &= draw(st.integers(0, (1 << area) - 1))
    board = puzzle.empty_board()
    for i in range(area):
        if known >> i & 1 and i not in puzzle.clues:
            board.set_color(i, solution.color(i))
    decided = (board.black_mask | board.white_mask) & ~puzzle.clue_mask
    flips = decided & draw(st.integers(0, (1 << area) - 1)) if draw(st.booleans()) else 0
    return doc, board, flips


@given(positions())
@EXAMPLES
def test_hint_names_the_wrong_cells_or_a_sound_new_step(position) -> None:
    doc, board, flips = position
    puzzle, solution = doc.puzzle, doc.solution
    for i in range(puzzle.area):
        if flips >> i & 1:
            wrong = Color.WHITE if solution.color(i) is Color.BLACK else Color.BLACK
            board.set_color(i, wrong)
    before = board.copy()
    step = next_step(puzzle, board, solution=solution)
    assert board == before, "a hint must not change the player's board"
    if flips:
        assert step is not None and step.kind == "wrong-cells"
        assert step.mask == flips
        return
    if board.is_complete():
        assert step is None
        return
    assert step is not None and step.kind in ("deduction", "trial"), step
    assert step.mask and not step.mask & (board.black_mask | board.white_mask)
    assert not step.black_mask & ~solution.black_mask
    assert not step.white_mask & solution.black_mask
    assert step.message


@pytest.mark.parametrize("doc", _docs()[:5], ids=lambda d: d.meta["id"])
def test_hints_alone_finish_the_puzzle(doc: Document) -> None:
    """A player who follows every hint from the empty board reaches the solution."""
    puzzle, solution = doc.puzzle, doc.solution
    board = puzzle.empty_board()
    for _ in range(puzzle.area):
        step = next_step(puzzle, board, solution=solution)
        if step is None:
            break
        board.apply(step)
    assert board == solution


# The logic engine on puzzles with ``?`` clues (an island of unknown size, at least 1).
#
# A ``?`` island may already be complete and may grow as far as the room left allows, so
# no argument about its size holds; it still counts as a clue (two clues in one island,
# reaching a stray white cell). Every step of every walkthrough and every hint must agree
# with the solution:
#
# - corpus puzzles with random clues turned ``?``, kept when the exact solver (sound for
#   ``?``) still proves them unique, walked through and hinted from random boards taken
#   from their solution;
# - the example of issue 14 (janko 544 with one clue turned ``?``), which used to say the
#   ``?`` "can only grow through" a cell;
# - small random grids with ``?`` clues against the brute-force oracle, where a step must
#   hold in every solution (unique or not).

ISSUE_EXAMPLE = "https://puzz.link/p?nurikabe/10/10/o.8x3g3g3u3p3h5j2h5i4i3z"
"""Janko 544 with one clue turned ``?`` (issue 14: step 9 used to be wrong)."""

SECONDS = 10.0
"""CPU time of one walkthrough here (they take milliseconds; a stop is not a failure)."""


def _wrong(step: Step, black: int) -> int:
    """The cells `step` decides against the solution with black cells `black`."""
    return (step.black_mask & ~black) | (step.white_mask & black)


def _check_walk(puzzle: Puzzle, solution: Board) -> None:
    walk = explain(puzzle, seconds=SECONDS)
    for n, step in enumerate(walk.steps, 1):
        assert step.kind in ("deduction", "trial"), (n, step.message)
        assert not _wrong(step, solution.black_mask), (n, step.message)
    assert walk.grade is not None
    if walk.status == "solved":
        assert walk.board == solution
        # The grade is the walkthrough's, and says it was solved. The steps depend on
        # counted work alone, so given the time the same walkthrough comes again; with
        # only the same time, a walkthrough that finished close to its limit could stop.
        again = grade(puzzle, seconds=4 * SECONDS)
        assert again == walk.grade and again.solved
    else:
        assert not walk.grade.solved and walk.grade.level == "extreme"


def test_issue_example_is_explained_soundly() -> None:
    puzzle = read(ISSUE_EXAMPLE)
    result = solve(puzzle)
    assert result.status is Status.UNIQUE
    solution = result.solution
    assert solution is not None
    walk = explain(puzzle, seconds=SECONDS)
    for step in walk.steps:
        assert not _wrong(step, solution.black_mask), step.message
    assert not any("? at r1c10 can only grow" in s.message for s in walk.steps)
    assert walk.status == "solved" and walk.board == solution


def test_complete_question_mark_island_is_not_grown() -> None:
    """A ``?`` of one cell walled in on three sides: it need not grow through the fourth."""
    puzzle = Puzzle.from_clues(3, 3, [(0, 0, UNKNOWN_CLUE), (2, 2, 3)])
    board = puzzle.empty_board()
    board.set_black(1)  # r1c2
    step = next_step(puzzle, board, solution=None)
    # Both r2c1 white and r2c1 black are possible for the ? alone; nothing may claim it
    # "must grow".
    assert step is None or "can only grow" not in step.message


# -- corpus puzzles with clues turned ? ------------------------------------------------------


def _docs():
    return sample(40, max_cells=100)


@st.composite
def unknown_clue_puzzles(draw: st.DrawFn) -> tuple[Puzzle, Board]:
    """A corpus puzzle with one to three clues turned ``?``, still unique, and its solution."""
    docs = _docs()
    doc = docs[draw(st.integers(0, len(docs) - 1))]
    clues = dict(doc.puzzle.clues)
    cells = sorted(clues)
    chosen = draw(st.lists(st.sampled_from(cells), min_size=1, max_size=3, unique=True))
    for cell in chosen:
        clues[cell] = UNKNOWN_CLUE
    puzzle = Puzzle(doc.puzzle.rows, doc.puzzle.cols, clues)
    result = solve(puzzle, limit=Limit(solutions=2, seconds=10))
    assume(result.status is Status.UNIQUE)
    solution = result.solution
    assert solution is not None and doc.solution is not None
    assert solution.black_mask == doc.solution.black_mask  # still the published one
    return puzzle, solution


CORPUS_EXAMPLES = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@pytest.mark.long
@needs_corpus
@given(unknown_clue_puzzles())
@CORPUS_EXAMPLES
def test_walkthrough_with_question_marks_agrees_with_solution(case) -> None:
    puzzle, solution = case
    _check_walk(puzzle, solution)


@pytest.mark.long
@needs_corpus
@given(unknown_clue_puzzles(), st.data())
@CORPUS_EXAMPLES
def test_hints_with_question_marks_agree_with_solution(case, data) -> None:
    puzzle, solution = case
    area = puzzle.area
    known = data.draw(st.integers(0, (1 << area) - 1))
    if data.draw(st.booleans()):  # mostly-empty boards, as at the start of a game
        known &= data.draw(st.integers(0, (1 << area) - 1))
    board = puzzle.empty_board()
    for i in range(area):
        if known >> i & 1 and i not in puzzle.clues:
            board.set_color(i, solution.color(i))
    step = next_step(puzzle, board, solution=solution)
    if board.is_complete():
        assert step is None
        return
    if step is None:
        return  # nothing found (allowed; never wrong)
    assert step.kind in ("deduction", "trial"), step.message
    assert step.mask and not step.mask & (board.black_mask | board.white_mask)
    assert not _wrong(step, solution.black_mask), step.message


# -- small grids against the brute-force oracle ----------------------------------------------


@st.composite
def small_puzzles(draw: st.DrawFn) -> Puzzle:
    """A random grid of up to 16 cells with random clues, at least one of them ``?``."""
    rows = draw(st.integers(2, 4))
    cols = draw(st.integers(2, 4))
    area = rows * cols
    cells = draw(st.lists(st.integers(0, area - 1), min_size=1, max_size=4, unique=True))
    values = [draw(st.sampled_from([UNKNOWN_CLUE, 1, 2, 3, 4, 5][: area + 1])) for _ in cells]
    values[0] = UNKNOWN_CLUE
    return Puzzle(rows, cols, dict(zip(cells, values, strict=True)))


@given(small_puzzles())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_small_question_mark_puzzles_against_brute_force(puzzle: Puzzle) -> None:
    """Every step holds in every solution; a puzzle with a solution is never called
    impossible; a solved walkthrough ends on the unique solution."""
    solutions = black_masks(puzzle)
    walk = explain(puzzle, seconds=SECONDS)
    if not solutions:
        assert walk.status != "solved"
        return
    for step in walk.steps:
        assert step.kind != "contradiction", step.message
        for black in solutions:
            assert not _wrong(step, black), step.message
    if walk.status == "solved":
        assert walk.board is not None
        assert {walk.board.black_mask} == solutions


@pytest.mark.parametrize("value", [UNKNOWN_CLUE, 2])
def test_question_mark_that_may_be_complete(value: int) -> None:
    """A 1x3 strip with the clue in the middle: a ``?`` has several solutions (1, 2 or 3
    cells), so no step may decide a cell; a 2 has two, and neither may be taken."""
    puzzle = Puzzle(1, 3, {1: value})
    solutions = black_masks(puzzle)
    walk = explain(puzzle, seconds=SECONDS)
    assert walk.status == "stuck"
    for step in walk.steps:
        assert step.kind != "contradiction"
        for black in solutions:
            assert not _wrong(step, black), step.message


@needs_corpus
@pytest.mark.slow
def test_every_small_corpus_puzzle_with_one_clue_turned_question_mark() -> None:
    """The whole-corpus form of the property test: every puzzle of up to 100 cells, with
    each of its clues in turn turned ``?`` (kept when still unique), is walked through
    with no wrong step (about 900 puzzles, two minutes)."""
    from tests.corpus import corpus

    kept = 0
    for doc in corpus():
        puzzle = doc.puzzle
        if puzzle.area > 100:
            continue
        for cell in sorted(puzzle.clues):
            clues = dict(puzzle.clues)
            clues[cell] = UNKNOWN_CLUE
            changed = Puzzle(puzzle.rows, puzzle.cols, clues)
            result = solve(changed, limit=Limit(solutions=2, seconds=10))
            if result.status is not Status.UNIQUE or result.solution is None:
                continue
            kept += 1
            walk = explain(changed, seconds=SECONDS)
            for step in walk.steps:
                assert step.kind in ("deduction", "trial"), (changed.to_url(), step.message)
                assert not _wrong(step, result.solution.black_mask), (
                    changed.to_url(),
                    step.message,
                )
    assert kept > 500


@pytest.mark.parametrize("was_on", [True, False])
def test_walkthroughs_pause_the_cycle_collector_and_put_it_back(
    was_on: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The engine searches with Python's cyclic collector off (it makes no cycles), and
    # leaves it as it found it, on or off, also when a search is stopped by the time.
    import gc

    from nurikabe.logic import engine

    seen: list[bool] = []
    timed = engine._timed_step

    def spy(state: State, tier: int, seconds: float | None) -> Step | None:
        seen.append(gc.isenabled())
        return timed(state, tier, seconds)

    monkeypatch.setattr(engine, "_timed_step", spy)
    puzzle = Puzzle.from_grid([[1, 0, 0], [0, 0, 0], [0, 0, 3]])
    (gc.enable if was_on else gc.disable)()
    try:
        assert explain(puzzle).status == "solved"
        assert gc.isenabled() is was_on
        find_step(State(puzzle))
        assert gc.isenabled() is was_on
        assert explain(puzzle, seconds=0).status == "stopped"
        assert gc.isenabled() is was_on
    finally:
        gc.enable()
    assert seen and not any(seen)
