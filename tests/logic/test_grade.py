"""Grading (`logic.grade`): levels and scores from the steps a walkthrough made, the
bundled collection's stored grades reproduced, and the level names."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nurikabe import Puzzle, Step, grade
from nurikabe import collection as store
from nurikabe.collection import Entry
from nurikabe.logic import LEVELS, TECHNIQUES, level_tier
from nurikabe.logic.grade import TRIAL_POINTS, grade_steps, step_points

GRID = Puzzle.from_grid([[1, 0, 0], [0, 0, 0], [0, 0, 3]]).grid


def _step(technique: str, *, trial_depth: int = 0) -> Step:
    kind = "trial" if trial_depth else "deduction"
    return Step(
        technique, GRID, black_mask=1, message="made up.", kind=kind, trial_depth=trial_depth
    )


def test_level_names_and_tiers() -> None:
    assert [level_tier(level) for level in LEVELS] == [1, 2, 3, 4, 5]
    with pytest.raises(ValueError, match="unknown level"):
        level_tier("impossible")


def test_nothing_to_do_is_easy() -> None:
    g = grade_steps([])
    assert (g.level, g.score, g.hardest, g.trials) == ("easy", 0, None, 0)


def test_the_hardest_step_sets_the_level() -> None:
    for t in TECHNIQUES:
        g = grade_steps([_step("one-clue"), _step(t.id), _step("one-clue")])
        assert g.level == LEVELS[t.tier - 1]
        assert g.hardest == t.id
        assert 100 * (t.tier - 1) <= g.score < 100 * t.tier


def test_trials_and_stuck_walkthroughs_are_extreme() -> None:
    one = grade_steps([_step("one-clue"), _step("trial", trial_depth=2)])
    assert (one.level, one.trials, one.max_depth) == ("extreme", 1, 2)
    assert one.score >= 400 + 2 * TRIAL_POINTS
    stuck = grade_steps([_step("one-clue")], solved=False)
    assert stuck.level == "extreme" and not stuck.solved and stuck.score >= 600
    stopped = grade_steps([_step("one-clue")], solved=False, stopped=True)
    assert stopped.stopped and stopped.to_json()["stopped"] is True


@settings(deadline=None)
@given(st.lists(st.sampled_from([t.id for t in TECHNIQUES]), max_size=60))
def test_score_stays_within_its_level_and_grows_with_steps(ids: list[str]) -> None:
    steps = [_step(i) for i in ids]
    g = grade_steps(steps)
    tier = LEVELS.index(g.level) + 1
    assert 100 * (tier - 1) <= g.score <= 100 * (tier - 1) + 98
    assert g.points == pytest.approx(sum(step_points(s) for s in steps))
    more = grade_steps([*steps, _step(g.hardest or "one-clue")])
    assert more.level == g.level and more.score >= g.score


def _bundled(per_level: int, max_cells: int) -> list[Entry]:
    """The lowest-scored bundled puzzles of each level (one extreme puzzle: their
    walkthroughs take seconds each)."""
    conn = store.open_db(store.bundled_path(), readonly=True)
    try:
        picked: list[Entry] = []
        for level in LEVELS:
            small = [
                e
                for e in store.entries(conn, level=level)
                if e.puzzle.area <= max_cells and e.score is not None
            ]
            small.sort(key=lambda e: e.score or 0)
            picked += small[: 1 if level == "extreme" else per_level]
        return picked
    finally:
        conn.close()


def test_bundled_grades_are_reproduced() -> None:
    """The generator stored a grade with every bundled puzzle; grading it again gives the
    same level and score (trial steps included)."""
    picked = _bundled(per_level=2, max_cells=100)
    assert {e.level for e in picked} == set(LEVELS)
    for e in picked:
        g = grade(e.puzzle, seconds=120)
        assert not g.stopped
        assert (g.level, g.score) == (e.level, e.score)
