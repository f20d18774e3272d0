"""The quality figures (`generator.quality`): size bands, spreads, and figures of corpus puzzles
checked against counts made here from the puzzle's clues and the walkthrough's cells."""

from __future__ import annotations

import math
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nurikabe.generator.quality import FIGURES, TOLERANCE, Spread, figures, size_band
from nurikabe.logic import TECHNIQUES, explain
from tests.corpus import corpus, needs_corpus


@pytest.mark.parametrize(
    ("rows", "cols", "band"),
    [
        (10, 10, "10x10"),
        (9, 11, None),
        (13, 13, "15x15"),
        (10, 18, "15x15"),
        (15, 20, "15x15"),
        (17, 18, "20x20"),
        (14, 24, "20x20"),
        (24, 26, "20x20"),
        (25, 25, "30x30"),
        (50, 50, "30x30"),
        (7, 7, None),
    ],
)
def test_size_band(rows: int, cols: int, band: str | None) -> None:
    assert size_band(rows, cols) == band


@given(st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=40))
def test_spread_agrees_with_statistics(values: list[float]) -> None:
    s = Spread.of(values)
    assert s.count == len(values)
    assert math.isclose(s.mean, statistics.fmean(values), rel_tol=1e-9, abs_tol=1e-6)
    assert math.isclose(s.median, statistics.median(values), rel_tol=1e-9, abs_tol=1e-6)
    if len(values) >= 2:
        q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
        assert math.isclose(s.q1, q1, rel_tol=1e-9, abs_tol=1e-6)
        assert math.isclose(s.q3, q3, rel_tol=1e-9, abs_tol=1e-6)
    assert s.close(s.median)  # the median is always within the IQR


def test_spread_close_by_iqr_or_mean() -> None:
    s = Spread.of([1, 2, 3, 4, 100])  # IQR 2-4, mean 22
    assert s.close(3) and not s.near_mean(3)
    assert s.close(22 * (1 + TOLERANCE)) and not s.in_iqr(22 * (1 + TOLERANCE))
    assert not s.close(10)
    assert s.distance(11) == pytest.approx(-0.5)
    with pytest.raises(ValueError, match="at least one"):
        Spread.of([])


@needs_corpus
@pytest.mark.parametrize("index", [0, 40, 212, 300])
def test_figures_of_corpus_puzzles(index: int) -> None:
    doc = corpus()[index]
    p = doc.puzzle
    assert doc.solution is not None
    walk = explain(p, seconds=None)
    f = figures(p, walk.steps)
    assert [k for k, _ in FIGURES] == list(f)
    values = [v for _, v in sorted(p.clues.items())]
    assert f["clues_per_cell"] == len(values) / (p.rows * p.cols)
    assert f["largest_clue"] == max(values)
    assert f["largest_island"] == max(values) / (p.rows * p.cols)
    # One clue per island: the clues add up to the white cells of the solution.
    assert f["mean_clue"] == pytest.approx(doc.solution.white_mask.bit_count() / len(values))
    assert f["share_1"] == sum(v == 1 for v in values) / len(values)
    assert f["share_le2"] == sum(v <= 2 for v in values) / len(values)
    # Every non-clue cell is decided by exactly one step of a solved walkthrough.
    tiers = {t.id: t.tier for t in TECHNIQUES}
    free = p.rows * p.cols - len(values)
    decided = {1: 0, 2: 0, 3: 0}
    for step in walk.steps:
        tier = 5 if step.kind == "trial" else tiers[step.technique]
        decided[min(tier, 3)] += (step.black_mask | step.white_mask).bit_count()
    if walk.solved:
        assert sum(decided.values()) == free
        assert f["tier1"] + f["tier2"] + f["tier3up"] == pytest.approx(1.0)
    assert f["tier1"] == decided[1] / free
    assert f["tier3up"] == decided[3] / free
    assert 0 < f["easy_start"] <= f["tier1"]
