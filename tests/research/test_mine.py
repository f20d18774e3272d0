"""Mining the correct puzzles of small grids: every step right, every walk finished."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from nurikabe.cli import main
from nurikabe.logic import LEVELS
from nurikabe.research.mine import mine_size
from tests.processes import alive, assert_ctrl_c_stops, children, start_cli, wait_or_kill


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


def _started(args: list[str], workers: int) -> tuple[subprocess.Popen[str], list[int]]:
    """Start the CLI and wait (a minute at most: a loaded machine starts slowly) until its
    `workers` worker processes are up, and a little longer, so that they are mining."""
    proc = start_cli(args)
    give_up = time.perf_counter() + 60
    while len(children(proc.pid)) < workers and time.perf_counter() < give_up:
        time.sleep(0.1)
    time.sleep(1)
    return proc, children(proc.pid)


@pytest.mark.skipif(not Path("/proc").exists(), reason="needs /proc")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_mining_with_workers_stops_at_once(sig: signal.Signals) -> None:
    """Ctrl-C (to the group, as a terminal sends it) ends a two-process mining with 130
    and how far it got; SIGTERM to the parent alone kills it, and its workers with it
    (they used to run on, and Ctrl-C waited for every chunk)."""
    proc, workers = _started(["research", "mine", "--size", "5x5", "--workers", "2"], 2)
    assert len(workers) == 2
    if sig == signal.SIGINT:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)
    sent = time.perf_counter()
    _, err = wait_or_kill(proc, 30)
    assert time.perf_counter() - sent < 2
    assert "Traceback" not in err
    if sig == signal.SIGINT:
        assert proc.returncode == 130 and "interrupted; mined" in err, err
    else:
        assert proc.returncode == -signal.SIGTERM
    time.sleep(0.5)
    assert not [w for w in workers if alive(w)]


def test_a_census_stops_at_ctrl_c() -> None:
    """The compiled census runs Python's signal handlers every few thousand rows: a
    5x6 census (about 3 minutes) ends within a second of Ctrl-C."""
    assert_ctrl_c_stops("from nurikabe.research.enumerate import census\ncensus(5, 6)\n")
