"""bench/wand.py, the game's wand played on a bundled puzzle: it plays to the end of its
presses and says how many ended in a reveal."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "wand.py"


def test_the_wand_plays_a_bundled_extreme_puzzle_and_counts_its_reveals() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "10x10/499", "--before", "3", "--presses", "6"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    first = done.stdout.splitlines()[0]
    found = re.fullmatch(
        r"10x10/499: (\d+) presses, (\d+) reveals, (\d+) trial hints, [\d.]+ s of CPU "
        r"\(asks per press up to 8\)",
        first,
    )
    assert found, done.stdout
    presses, reveals, trials = map(int, found.groups())
    assert presses == 6
    assert reveals + trials >= 1  # the walkthrough's first trial step is among the six


def test_an_unknown_key_is_one_line() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "10x10/9999"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0
    assert done.stderr.strip() == "no puzzle 10x10/9999"
