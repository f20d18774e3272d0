"""Helpers for the tests that signal real processes: which children a process has,
whether one still runs, and whether a piece of Python stops at once on Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path


def children(pid: int) -> list[int]:
    """The child processes of `pid` (Linux /proc)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def alive(pid: int) -> bool:
    """Whether process `pid` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


_STARTED: list[subprocess.Popen[str]] = []
"""Every command `start_cli` started, for `kill_leftovers`."""


def start_cli(args: list[str]) -> subprocess.Popen[str]:
    """``nurikabe ARGS`` in a process group of its own (as a shell starts a command, so
    that a terminal's Ctrl-C can be sent to the group), its output captured as text.
    If the test ends (passed or failed) with it still running, `kill_leftovers` (called
    after every test by conftest.py) kills its group."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "nurikabe.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    _STARTED.append(proc)
    return proc


def kill_leftovers() -> None:
    """Kill the process group of every command `start_cli` started that still runs: a
    test that failed before it sent its signal must not leave a batch and its workers
    running for the rest of the suite (they once took both cores for an hour)."""
    while _STARTED:
        proc = _STARTED.pop()
        if proc.poll() is not None:
            continue
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            proc.kill()
        proc.communicate()


def wait_or_kill(proc: subprocess.Popen[str], timeout: float) -> tuple[str, str]:
    """The output of `proc` once it ends, within `timeout` seconds. If it has not ended
    by then, the test fails, but first its whole process group is killed and reaped, so
    that a process that ignored a signal does not run on and slow the tests after it."""
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            proc.kill()
        proc.communicate()
        raise AssertionError(f"{proc.args} did not end within {timeout} s") from None


def assert_ctrl_c_stops(code: str, *, after: float = 1.5, within: float = 1.0) -> None:
    """Run `code` in a new Python, send it Ctrl-C after `after` seconds, and check that
    it ends within `within` seconds, with a KeyboardInterrupt."""
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    time.sleep(after)
    proc.send_signal(signal.SIGINT)
    sent = time.perf_counter()
    _, err = wait_or_kill(proc, 60)
    assert time.perf_counter() - sent < within
    assert err.rstrip().endswith("KeyboardInterrupt"), err
