"""Mining the correct puzzles of small grids: every step right, every walk finished."""

from __future__ import annotations

from nurikabe.cli import main
from nurikabe.logic import LEVELS
from nurikabe.research.mine import mine_size


def test_every_3x3_puzzle() -> None:
    s = mine_size(3, 3)
    assert s.puzzles == 139 == sum(s.levels.values())
    assert s.wrong_steps == 0 and s.stuck == 0
    assert set(s.levels) <= set(LEVELS)
    assert s.hardest and s.hardest == sorted(s.hardest, reverse=True)
    assert max(s.technique_puzzles.values()) <= s.puzzles


def test_workers_agree_and_sample() -> None:
    one = mine_size(2, 4, workers=1, chunk=7)
    two = mine_size(2, 4, workers=2, chunk=7)
    assert one.to_json() | {"cpu_seconds": 0} == two.to_json() | {"cpu_seconds": 0}
    assert mine_size(4, 4, sample=40, seed=3).puzzles == 40


def test_cli_mine(capsys) -> None:
    assert main(["research", "mine", "--size", "2x3", "--json"]) == 0
    assert '"wrong_steps": 0' in capsys.readouterr().out
    assert main(["research", "mine", "--size", "6x6"]) == 2
