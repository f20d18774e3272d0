"""The side-by-side benchmark (bench/ab.py): two trees, one process per run, same answers.

The script's figures are only as good as its processes: each must import the package from
the tree it was given, and two runs of the same code must be reported as agreeing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.corpus import CORPUS_PATH, needs_corpus

ROOT = Path(__file__).resolve().parents[2]
AB = ROOT / "bench" / "ab.py"


def _ab(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(AB), "--corpus", str(CORPUS_PATH), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )


@needs_corpus
def test_the_same_tree_twice_agrees_on_every_item(tmp_path: Path) -> None:
    out = tmp_path / "ab.json"
    done = _ab(
        "--before",
        str(ROOT),
        "--after",
        str(ROOT),
        "--task",
        "solve",
        "--puzzles",
        "janko-0001,janko-0001/5",
        "--rounds",
        "2",
        "--out",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    rows = json.loads(out.read_text())["rows"]
    assert [r["item"] for r in rows] == ["janko-0001", "janko-0001/5"]
    for row in rows:
        assert row["same"] and row["before_says"] == row["after_says"] == "unique"
        assert row["before"] > 0 and row["after"] > 0
    assert "| all | 2 |" in done.stdout


@needs_corpus
def test_a_walkthrough_and_a_generated_puzzle_are_compared(tmp_path: Path) -> None:
    out = tmp_path / "ab.json"
    done = _ab(
        "--before",
        str(ROOT),
        "--after",
        str(ROOT),
        "--task",
        "explain",
        "--puzzles",
        "janko-0002/6",
        "--seconds",
        "30",
        "--out",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(out.read_text())["rows"]
    assert row["same"] and row["before_says"].startswith("solved")
    done = _ab(
        "--before",
        str(ROOT),
        "--after",
        str(ROOT),
        "--task",
        "generate",
        "--items",
        "6x6:easy:3",
        "--seconds",
        "30",
        "--out",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(out.read_text())["rows"]
    assert row["same"] and row["cells"] == 36


def test_a_tree_that_is_neither_a_directory_nor_a_revision_is_refused(tmp_path: Path) -> None:
    done = _ab("--before", str(tmp_path / "nowhere"), "--task", "solve", "--puzzles", "x")
    assert done.returncode != 0
    assert "neither a source tree nor a git revision" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow
@needs_corpus
def test_a_revision_is_exported_and_built(tmp_path: Path) -> None:
    done = _ab(
        "--before",
        "HEAD",
        "--after",
        str(ROOT),
        "--task",
        "solve",
        "--puzzles",
        "janko-0001",
        "--cache",
        str(tmp_path),
    )
    assert done.returncode == 0, done.stderr
    assert "| janko-0001 |" in done.stdout and "yes" in done.stdout
    assert list(tmp_path.glob("*/src/nurikabe/solver/_csolve*.so"))


@needs_corpus
def test_an_item_that_fails_is_printed_and_sets_the_exit_status() -> None:
    done = _ab(
        "--before",
        str(ROOT),
        "--after",
        str(ROOT),
        "--task",
        "solve",
        "--puzzles",
        "no-such-puzzle",
    )
    assert done.returncode == 1
    assert "| no-such-puzzle | error: ab: no puzzle 'no-such-puzzle'" in done.stdout
