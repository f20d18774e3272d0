"""The logic engine end to end: walkthroughs agree with published solutions, hints,
grading, restriction by tier, the HTML page and the CLI commands."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator

import pytest

from nurikabe import Board, Color, Puzzle, Step, explain, grade, next_step
from nurikabe.cli import main
from nurikabe.logic import LEVELS, State, find_step, level_tier
from nurikabe.logic.grade import grade_steps
from nurikabe.logic.html import walkthrough_html
from nurikabe.logic.state import OutOfTime

try:
    from corpus import CORPUS_PATH, corpus, sample
except ImportError:  # pragma: no cover
    CORPUS_PATH = None

HAVE_CORPUS = CORPUS_PATH is not None and CORPUS_PATH.exists()
needs_corpus = pytest.mark.skipif(not HAVE_CORPUS, reason="corpus not present")

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
    from nurikabe.logic.state import OutOfTime
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


# -- trial steps -----------------------------------------------------------------------------


def _plain_stall(puzzle: Puzzle) -> State:
    """The state where plain logic (tiers 1-4) stops on `puzzle`."""
    state = State(puzzle)
    while (step := find_step(state, max_tier=4)) is not None:
        state.decide(step.black_mask, step.white_mask)
    return state


def _check_chain(step: Step, depth: int) -> None:
    """A trial step's chain ends in a contradiction; inner trials are shallower, and at
    least one is one level shallower."""
    assert step.kind == "trial" and step.trial_depth == depth
    assert step.chain and step.chain[-1].kind == "contradiction"
    inner_depths = {0}
    for inner in step.chain[:-1]:
        assert inner.kind in ("deduction", "trial")
        if inner.kind == "trial":
            assert 1 <= inner.trial_depth < depth
            inner_depths.add(inner.trial_depth)
            _check_chain(inner, inner.trial_depth)
    assert max(inner_depths) == depth - 1


def _trial_where_shallower_fails(state: State, depth: int, solution: Board) -> Step:
    """The trial step `find_trial` makes from `state` at `depth` (checked: its chain, and
    that it agrees with `solution`); skips the test when a shallower search finds one."""
    from nurikabe.logic.trial import find_trial

    if find_trial(state, max_depth=depth - 1, seconds=60) is not None:
        pytest.skip(f"trials of depth {depth - 1} now go further on this puzzle")
    step = find_trial(state, max_depth=depth, seconds=60)
    assert step is not None
    _check_chain(step, depth)
    assert agrees(step, solution)
    return step


def test_replayed_chain_that_clashes_is_a_contradiction() -> None:
    from nurikabe.logic.trial import _replay

    state = State(FIVE_BY_SEVEN)
    grid = FIVE_BY_SEVEN.grid
    cell, other = grid.cell(2, 3), grid.cell(2, 4)
    said = Step("made-up", grid, black_mask=1 << other, message="r3c5 is black.")
    state.decide(0, 1 << other)
    s, steps, found = _replay(state, cell, Color.BLACK, [said])
    assert s.black >> cell & 1 and steps == [said]
    assert found is not None and found.kind == "contradiction"
    assert found.wrong_mask == 1 << other
    assert "both black and white" in found.message


@needs_corpus
def test_depth_two_trial_where_depth_one_fails() -> None:
    """janko 962 (which single-level guessing cannot start) needs a nested trial at once."""
    doc = next(d for d in corpus() if d.meta.get("id") == "janko-0962")
    step = _trial_where_shallower_fails(_plain_stall(doc.puzzle), 2, doc.solution)
    assert step.message.startswith("Suppose ") and "trial" in step.message


@needs_corpus
def test_guided_trial_order_still_gives_a_valid_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """On janko 962, where the clash-guided depth-2 pass fails, the exact engine orders the
    outer suppositions: only those contradicting the unique solution, and the step found
    among them is still a sound depth-2 trial built by the techniques."""
    from nurikabe.grid import bits
    from nurikabe.logic import trial
    from nurikabe.solver import compiled

    if not compiled.AVAILABLE:
        pytest.skip("the compiled core was not built")
    doc = next(d for d in corpus() if d.meta.get("id") == "janko-0962")
    state = _plain_stall(doc.puzzle)
    state.case_memo.pop(trial.SOLVED, None)
    guide = trial._Guide.make(state)
    assert guide is not None and guide.solution == doc.solution.black_mask
    keys = [(cell, color) for cell in bits(state.unknown) for color in (Color.BLACK, Color.WHITE)]
    favoured = list(guide.favoured(keys))
    assert favoured and len(set(favoured)) == len(favoured)
    for cell, color in favoured:
        assert (doc.solution.black_mask >> cell & 1) != (color is Color.BLACK)

    offered: list[tuple[int, Color]] = []
    original = trial._Guide.favoured

    def spy(self: trial._Guide, keys: list[tuple[int, Color]]) -> Iterator[tuple[int, Color]]:
        for key in original(self, keys):
            offered.append(key)
            yield key

    monkeypatch.setattr(trial._Guide, "favoured", spy)
    step = trial.find_trial(state, max_depth=2, seconds=60)
    assert offered, "the guided order was not used"
    assert step is not None
    _check_chain(step, 2)
    assert agrees(step, doc.solution)
    assert (step.mask.bit_length() - 1, Color.WHITE if step.black_mask else Color.BLACK) in offered


@needs_corpus
def test_ranking_carries_paused_searches_on_without_changing_the_order() -> None:
    """The depth-3 ranking's passes carry on the core's searches where the pass before
    stopped them; the suppositions come out in the order of searches started afresh in
    each pass, and as one coarse pass would (which holds whole fine ones)."""
    from nurikabe.grid import bits
    from nurikabe.logic import trial
    from nurikabe.solver import compiled

    if not compiled.AVAILABLE:
        pytest.skip("the compiled core was not built")
    doc = next(d for d in corpus() if d.meta.get("id") == "janko-0962")
    state = _plain_stall(doc.puzzle)
    keys = [(cell, color) for cell in bits(state.unknown) for color in (Color.BLACK, Color.WHITE)]
    passes = tuple(n for n in trial.DEEP_NODES if n <= 8)

    class Afresh(trial._Guide):
        """A guide that starts every search over (nothing paused is kept)."""

        def _refuted(self, key: tuple[int, Color], nodes: int) -> tuple[int, int] | None:
            found = super()._refuted(key, nodes)
            self.paused.clear()
            return found

    carried = trial._Guide.make(state, work=trial.DEEP_GUIDE_WORK)
    assert carried is not None
    fine = list(carried.ranked(keys, passes))
    assert len(fine) > 2
    assert carried.paused  # some searches were carried on (and some still wait)
    afresh = Afresh.make(state, work=trial.DEEP_GUIDE_WORK)
    assert isinstance(afresh, Afresh)
    assert list(afresh.ranked(keys, passes)) == fine
    coarse = Afresh.make(state, work=trial.DEEP_GUIDE_WORK)
    assert coarse is not None
    assert list(coarse.ranked(keys, (8,))) == fine


@needs_corpus
def test_guide_within_tells_or_gives_the_benefit_of_the_doubt() -> None:
    """`within` says whether the core refutes a supposition within a node limit; once
    the guide's work is up it cannot tell, and says yes (the depth-2 search then
    follows the supposition, as it would without the guide). Once the search's time is
    up it stops the search instead (a time limit never changes the steps)."""
    import time

    from nurikabe.grid import bits
    from nurikabe.logic import trial
    from nurikabe.solver import compiled

    if not compiled.AVAILABLE:
        pytest.skip("the compiled core was not built")
    doc = next(d for d in corpus() if d.meta.get("id") == "janko-0962")
    state = _plain_stall(doc.puzzle)
    guide = trial._Guide.make(state, work=trial.DEEP_GUIDE_WORK)
    assert guide is not None
    cell = next(iter(bits(state.unknown)))
    true = Color.BLACK if doc.solution.black_mask >> cell & 1 else Color.WHITE
    false = Color.WHITE if true is Color.BLACK else Color.BLACK
    assert not guide.within((cell, true), 8)  # it agrees with the solution: never refuted
    assert guide.within((cell, false), 1 << 20)
    guide.spent = guide.allowance
    assert guide.within((cell, true), 8)
    guide.allow(trial.GUIDE_WORK)
    assert not guide.within((cell, true), 8)
    guide.deadline = time.thread_time() - 1
    with pytest.raises(OutOfTime):  # the time stops the search; it never says yes
        guide.within((cell, true), 8)


@needs_corpus
def test_guide_counts_work_not_time() -> None:
    """The guide's ranking stops after a set amount of the core's work, the same from
    run to run whatever the machine is doing, so the trial steps found are too."""
    from nurikabe.grid import bits
    from nurikabe.logic import trial
    from nurikabe.solver import compiled

    if not compiled.AVAILABLE:
        pytest.skip("the compiled core was not built")
    doc = next(d for d in corpus() if d.meta.get("id") == "janko-0962")
    state = _plain_stall(doc.puzzle)
    keys = [(cell, color) for cell in bits(state.unknown) for color in (Color.BLACK, Color.WHITE)]
    full = trial._Guide.make(state, work=trial.DEEP_GUIDE_WORK)
    assert full is not None
    everything = list(full.favoured(keys))
    assert full.spent > 0
    runs = []
    for _ in range(2):
        guide = trial._Guide.make(state, work=full.spent // 3)
        assert guide is not None
        runs.append((list(guide.favoured(keys)), guide.spent))
    assert runs[0] == runs[1]
    assert len(runs[0][0]) < len(everything)


def test_trial_without_compiled_core_keeps_the_old_order(monkeypatch: pytest.MonkeyPatch) -> None:
    from nurikabe.logic import trial
    from nurikabe.solver import compiled

    monkeypatch.setattr(compiled, "AVAILABLE", False)
    assert trial._Guide.make(State(FIVE_BY_SEVEN)) is None


# Where the depth-2 search gives up on janko-1109 (black, white masks).
JANKO_1109_STALL = (
    0xD05EFFE7508AFD1D2B2B9152F2AE1554EAAD5569AAB1650A0B83D2C02D405700B2095C12CBC,
    0x2FA10018AF6502C2D4546CAD0550EAAA1550AA9455469AE1F4302D125280A8034C06A26D303,
)


@needs_corpus
@pytest.mark.slow
def test_depth_three_trial_where_depth_two_fails() -> None:
    """janko 1109: once the depth-2 search has nothing, a depth-3 trial (with depth-2
    trials inside it) is found, sound and explained by a chain."""
    from nurikabe.solver import compiled

    if not compiled.AVAILABLE:
        pytest.skip("the compiled core was not built")
    doc = next(d for d in corpus() if d.meta.get("id") == "janko-1109")
    state = State(doc.puzzle, *JANKO_1109_STALL)
    grid = doc.puzzle.grid
    assert agrees(Step("stall", grid, black_mask=state.black, white_mask=state.white), doc.solution)
    _trial_where_shallower_fails(state, 3, doc.solution)


def test_depth_three_needs_the_compiled_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the exact engine's ranking, depth 3 is not searched (it would not end)."""
    from nurikabe.logic import trial
    from nurikabe.solver import compiled

    monkeypatch.setattr(compiled, "AVAILABLE", False)
    budget = trial.TrialBudget(1000, 5.0)
    rows = trial._rows(4, cheap=True)
    assert trial._search_depth_three(State(FIVE_BY_SEVEN), rows, budget, {}) is None
    assert trial._Guide.inside(State(FIVE_BY_SEVEN)) is None


@needs_corpus
def test_analysis_reusing_settled_islands_matches_a_fresh_one() -> None:
    """The analysis takes settled islands (complete, black all round) from the state's
    memo instead of flooding them; along a walkthrough, with random decisions on top
    (some overriding the colour of decided cells), it matches one made from scratch."""
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


@needs_corpus
def test_time_only_stops_a_trial_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """A depth-2 trial search guided by the exact engine finds the same step twice in a
    row, and wherever its time runs out (a clock that jumps past the deadline after a
    given number of readings) it either stops with `OutOfTime` or finds that same step:
    the time never sends it another way."""
    import math
    import time

    from nurikabe.logic import trial

    doc = next(d for d in corpus() if d.meta.get("id") == "janko-0962")
    stall = _plain_stall(doc.puzzle)

    def search(seconds: float | None = None) -> Step | None:
        fresh = State(doc.puzzle, stall.black, stall.white)
        return trial.find_trial(fresh, max_depth=2, seconds=seconds)

    expected = search()
    assert expected is not None and expected.trial_depth == 2
    again = search()
    assert again is not None and again.message == expected.message

    real = time.thread_time
    readings = 0
    jump_after = [math.inf]

    class Clock:
        @staticmethod
        def thread_time() -> float:
            nonlocal readings
            readings += 1
            return real() + (1e9 if readings > jump_after[0] else 0.0)

    monkeypatch.setattr(trial, "time", Clock)
    found = search(1e6)
    assert found is not None and found.message == expected.message
    total = readings
    stopped = 0
    for jump in (1, total // 3, total // 2, total - 2):
        readings, jump_after[0] = 0, jump
        try:
            found = search(1e6)
        except OutOfTime:
            stopped += 1
            continue
        assert found is not None and found.message == expected.message
    assert stopped >= 3


def test_sparse_puzzle_that_runs_out_of_time_says_where() -> None:
    """A sparse 10x10 (four clues, far apart, several solutions) where no technique
    applies and the first trial search takes longer than the budget: the walkthrough
    stops, saying where, graded as stuck (issue 14: explain and grade used to say only
    "stuck" with no step)."""
    puzzle = Puzzle.from_url("https://puzz.link/p?nurikabe/10/10/n-10zi-11zy5zj-11h")
    walk = explain(puzzle, seconds=2)
    assert walk.status == "stopped" and walk.steps == []
    assert walk.stopped is not None
    assert "looking for step 1 (in a depth-" in walk.stopped
    assert "96 of 100 cells unknown" in walk.stopped
    assert walk.grade is not None and walk.grade.stopped and not walk.grade.solved
    assert walk.stopped in walkthrough_html(walk)
