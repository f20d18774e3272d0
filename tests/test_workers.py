"""Worker processes (`nurikabe.workers`): every item done once, a dead worker costs its
item only, and the workers end however the consumer stops, even when a signal kills
them in the middle of talking to the parent (which hung `multiprocessing.Pool`)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nurikabe.workers import run_unordered
from tests.processes import alive, children

pytestmark = pytest.mark.skipif(not Path("/proc").exists(), reason="needs /proc")


def _children() -> list[int]:
    return children(os.getpid())


def _square_or_die(n: int) -> tuple[int, int]:
    if n == 5:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.01)
    return n * n, os.getpid()


def test_every_item_once_and_a_dead_worker_costs_its_item_only() -> None:
    before = set(_children())
    got = dict(run_unordered(_square_or_die, list(range(12)), 2, lambda i, code: (-1, code)))
    assert sorted(got) == list(range(12))
    assert got[5] == (-1, -signal.SIGKILL)
    assert all(got[n][0] == n * n for n in got if n != 5)
    assert len({pid for _, pid in got.values()} - {-signal.SIGKILL}) >= 2
    assert not [pid for pid in set(_children()) - before if alive(pid)]


def _slow(n: int) -> int:
    if n:
        time.sleep(5)
    return n


@pytest.mark.parametrize("how", ["close", "drop"])
def test_workers_end_when_the_consumer_stops(how: str) -> None:
    """Item 0 is quick, the rest take 5 s: the consumer stops with one worker busy."""
    before = set(_children())
    done = run_unordered(_slow, list(range(6)), 2, lambda i, code: -1)
    start = time.perf_counter()
    assert next(done) == (0, 0)
    if how == "close":
        done.close()
    else:
        del done  # the last reference: the generator is closed as it goes
    assert time.perf_counter() - start < 4
    assert not [pid for pid in set(_children()) - before if alive(pid)]


_BATCH = """
import sys
from nurikabe import batch

def double(k):
    return {"twice": 2 * k}

jobs = [batch.FunctionJob(f"job {k}", double, k) for k in range(3000)]
report = batch.run_batch(jobs, sys.argv[1], workers=2)
print(report.done, len(batch.load_results(sys.argv[1])), report.interrupted, report.failed)
"""


@pytest.mark.long
def test_sigterm_to_the_group_at_any_moment_ends_the_batch(tmp_path: Path) -> None:
    """SIGTERM to the whole process group kills the workers wherever they are (reading
    a job, sending a result); the batch still ends at once, keeping what it stored.
    With `multiprocessing.Pool` this hung every time (5 runs of 5)."""
    for k, after in enumerate([0.3, 0.45, 0.6, 0.75, 0.9, 1.05, 1.2, 1.35]):
        proc = subprocess.Popen(
            [sys.executable, "-c", _BATCH, str(tmp_path / f"s{k}.sqlite")],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        time.sleep(after)
        os.killpg(proc.pid, signal.SIGTERM)
        sent = time.perf_counter()
        try:
            out, err = proc.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            raise AssertionError(f"the batch hung after SIGTERM at {after} s") from None
        assert time.perf_counter() - sent < 3
        assert "Traceback" not in err, err
        assert proc.returncode in (0, -signal.SIGTERM), (proc.returncode, err)
        if proc.returncode == 0:  # the handler was set: every stored result is counted
            done, stored, _ = out.split(maxsplit=2)
            assert done == stored, out


def _pid_after_a_moment(n: int) -> int:
    time.sleep(0.05)
    return os.getpid()


def test_a_worker_killed_while_idle_hands_its_next_item_on() -> None:
    """A worker killed between items (its pipe then refuses the next one): the item goes
    to a new worker and every item is still done once."""
    done = run_unordered(_pid_after_a_moment, list(range(8)), 2, lambda i, code: -1)
    got = [next(done)]
    idle = got[0][1]  # the worker that sent it waits, idle, for the generator to resume
    os.kill(idle, signal.SIGKILL)
    while alive(idle):
        time.sleep(0.01)
    got += list(done)
    assert sorted(index for index, _ in got) == list(range(8))
    assert -1 not in [pid for _, pid in got]
    assert idle not in [pid for _, pid in got[1:]]


def test_a_worker_that_cannot_start_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import errno
    from multiprocessing.process import BaseProcess

    from nurikabe.cli import main
    from nurikabe.workers import WorkerError

    def no_fork(self: BaseProcess) -> None:
        raise OSError(errno.EAGAIN, "Resource temporarily unavailable")

    monkeypatch.setattr(BaseProcess, "start", no_fork)
    with pytest.raises(WorkerError, match="cannot start a worker process: Resource"):
        list(run_unordered(abs, [1, 2, 3], 2, lambda i, code: -1))
    argv = ["generate", "--size", "5x5", "--count", "4", "--jobs", "2", "--seed", "1"]
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2
    assert err.splitlines() == [
        "nurikabe: cannot start a worker process: Resource temporarily unavailable"
    ], err
