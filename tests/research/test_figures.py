"""The research answers (bench/research_answers.py) and their figures (scripts/research_figures.py).

The answers of small grids are checked against facts that are easy to see by hand and
against the census itself; the figures are drawn from them twice and must be the same
bytes (no date, fixed ids), valid SVG, one per figure of docs/research.md.
"""

from __future__ import annotations

import importlib.util
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

from nurikabe.research.enumerate import census

ROOT = Path(__file__).resolve().parents[2]


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory) -> Path:
    bench = _load(ROOT / "bench" / "research_answers.py")
    sizes = [bench.answer(m, n, 60, None, 1) for m, n in ((1, 1), (1, 3), (2, 2), (3, 3), (3, 4))]
    path = tmp_path_factory.mktemp("answers") / "answers.json"
    path.write_text(json.dumps({"sizes": sizes}))
    return path


def test_answers_of_small_grids(answers: Path) -> None:
    sizes = {s["size"]: s for s in json.loads(answers.read_text())["sizes"]}
    one = sizes["1x1"]  # a lone clue 1 is the only puzzle
    assert (one["correct"], one["fewest_clues"], one["most_clues"], one["largest_island"]) == (
        1,
        1,
        1,
        1,
    )
    three = census(3, 3)
    assert sizes["3x3"]["correct"] == three.correct == 139
    assert sum(sizes["3x3"]["clue_counts"].values()) == three.correct
    assert (sizes["3x3"]["fewest_clues"], sizes["3x3"]["most_clues"]) == three.clue_range()
    for s in sizes.values():
        mined = s["mined"]
        assert mined["wrong_steps"] == 0 and mined["stuck"] == 0
        assert mined["puzzles"] == min(60, s["correct"])
        assert sum(mined["levels"].values()) == mined["puzzles"]


def test_figures_are_reproducible_svg(answers: Path, tmp_path: Path) -> None:
    figures = _load(ROOT / "scripts" / "research_figures.py")
    first = figures.draw(answers, tmp_path / "a")
    again = figures.draw(answers, tmp_path / "b")
    assert [p.name for p in first] == [
        "correct-by-area.svg",
        "clue-counts.svg",
        "levels.svg",
        "island-shapes.svg",
    ]
    for a, b in zip(first, again, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name
        root = ET.fromstring(a.read_bytes())
        assert root.tag.endswith("svg")
    assert b"Island shapes" in first[3].read_bytes()
