"""Ctrl-C and SIGTERM end every command with exit code 130, no
traceback, what is done kept and the worker processes gone within a second."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from nurikabe import collection
from tests.corpus import CORPUS_PATH, needs_corpus
from tests.processes import alive, children, start_cli, wait_or_kill


def _interrupt(
    args: list[str],
    *,
    after: float | Callable[[subprocess.Popen[str]], bool],
    sig: signal.Signals,
    group: bool,
) -> tuple[subprocess.CompletedProcess[str], list[int], float]:
    """Run the CLI, send `sig` after `after` seconds, or once `after(proc)` says so (asked
    every 0.1 s, for at most a minute: a loaded machine starts slowly), to the whole
    process group, as a terminal's Ctrl-C does, when `group`; and wait for it to end."""
    proc = start_cli(args)
    if callable(after):
        give_up = time.perf_counter() + 60
        while not after(proc) and proc.poll() is None and time.perf_counter() < give_up:
            time.sleep(0.1)
    else:
        time.sleep(after)
    workers = children(proc.pid)
    if group:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)
    sent = time.perf_counter()
    out, err = wait_or_kill(proc, 30)
    took = time.perf_counter() - sent
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err), workers, took


BATCH = ["generate", "--size", "5x5", "--difficulty", "easy", "--count", "20000", "--seed", "3"]
"""A batch far longer than the wait before the signal (500 puzzles took 4.8 s of wall time
on 2 cores once the grid walks were compiled)."""


def _working(workers: int) -> Callable[[subprocess.Popen[str]], bool]:
    """True once the command has `workers` worker processes and they have had 2 s to work."""
    since: list[float] = []

    def ready(proc: subprocess.Popen[str]) -> bool:
        if not since and len(children(proc.pid)) >= workers:
            since.append(time.perf_counter())
        return bool(since) and time.perf_counter() - since[0] >= 2

    return ready


@pytest.mark.skipif(not Path("/proc").exists(), reason="needs /proc")
@pytest.mark.parametrize(
    ("sig", "group"),
    [(signal.SIGINT, True), (signal.SIGINT, False), (signal.SIGTERM, False)],
)
def test_generate_jobs_2_stops_cleanly(sig: signal.Signals, group: bool) -> None:
    args = [*BATCH, "--jobs", "2"]
    done, workers, took = _interrupt(args, after=_working(2), sig=sig, group=group)
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("nurikabe: interrupted; kept")
    kept = done.stdout.split()
    assert kept and all(url.startswith("https://puzz.link/") for url in kept)
    assert took < 1.5, took
    assert len(workers) == 2
    assert not [w for w in workers if alive(w)]


@pytest.mark.skipif(not Path("/proc").exists(), reason="needs /proc")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_collection_build_jobs_2_keeps_what_is_done(tmp_path: Path, sig: signal.Signals) -> None:
    """The signal comes once the build has stored a few puzzles (a fixed wait was once
    longer than this machine took for the whole build)."""
    out = tmp_path / "c.sqlite"
    args = ["collection", "build", "--jobs", "2", "--limit", "400", "-o", str(out)]

    def some_made(proc: subprocess.Popen[str]) -> bool:
        # The build writes a hidden ".building" file beside `out` and moves it into place
        # when it ends (or is interrupted): watch that one.
        building = [p for p in tmp_path.iterdir() if p.name.endswith(".building")]
        if not building:
            return False
        try:
            conn = collection.open_db(building[0], readonly=True)
        except (collection.DatabaseError, sqlite3.Error):
            return False  # not set up yet
        try:
            return len(list(collection.entries(conn))) >= 3
        except (collection.DatabaseError, sqlite3.Error):
            return False
        finally:
            conn.close()

    done, workers, took = _interrupt(args, after=some_made, sig=sig, group=sig == signal.SIGINT)
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr
    assert took < 1.5, took
    assert not [w for w in workers if alive(w)]
    conn = collection.open_db(out, readonly=True)
    made = len(list(collection.entries(conn)))
    assert f"{made} puzzles made" in done.stderr
    assert collection.meta(conn)["complete"] is False
    assert not [p for p in tmp_path.iterdir() if p.name != out.name]


def test_cpsat_leaves_ctrl_c_to_python() -> None:
    """After a CP-SAT solve, Ctrl-C still raises KeyboardInterrupt (it used to kill)."""
    pytest.importorskip("ortools")
    script = (
        "import os, signal\n"
        "from nurikabe import Puzzle, solve\n"
        "p = Puzzle.from_url('https://puzz.link/p?nurikabe/5/5/g5k2o1k3g')\n"
        "print(solve(p, engine='cpsat').status.name)\n"
        "try:\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    import time; time.sleep(5)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.stdout.split() == ["UNIQUE", "interrupted"], done.stderr


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize("engine", ["cpsat", "cpsat-fast"])
def test_cpsat_solve_ctrl_c_exits_130(tmp_path: Path, engine: str) -> None:
    """Ctrl-C while CP-SAT searches: exit 130, not 4 ("undecided") after the time-out."""
    pytest.importorskip("ortools")
    record = next(line for line in CORPUS_PATH.read_text().splitlines() if '"janko-0690"' in line)
    src = tmp_path / "p.jsonl"
    src.write_text(json.dumps(json.loads(record)) + "\n")
    args = ["solve", str(src), "--engine", engine, "--timeout", "120"]
    for after in (5, 25):  # while the model is built, then while CP-SAT searches
        done, _, took = _interrupt(args, after=after, sig=signal.SIGINT, group=True)
        assert done.returncode == 130, (after, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        assert took < 5, (after, took)


@pytest.mark.parametrize(
    "command", [["solve"], ["hint"], ["explain"], ["grade"], ["show"], ["convert", "--to", "url"]]
)
def test_a_full_standard_output_is_one_line_and_exit_2(command: list[str]) -> None:
    url = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "nurikabe.cli", *command, url],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        "nurikabe: standard output: cannot write: No space left on device"
    ]
