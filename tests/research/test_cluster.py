"""The census on a real Dask cluster started with Dask's own command-line tools.

`dask scheduler` and `dask worker` run as separate processes, as they would on several
machines (docs/research.md says how); the census through them must equal a local run,
and a worker killed in the middle of a shard must lose nothing: the scheduler hands the
shard to a worker again, and the merged figures stay exact.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from nurikabe.cli import main
from nurikabe.research.enumerate import census
from tests.processes import children, start_cli, wait_or_kill

pytest.importorskip("distributed")


def _dask(*args: str, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "dask", *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """(the scheduler's address, the pid of the `dask worker` command): two worker
    processes of one thread each under one nanny command, with a memory limit."""
    folder = tmp_path_factory.mktemp("dask")
    info = folder / "scheduler.json"
    scheduler = _dask(
        "scheduler",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--no-dashboard",
        "--scheduler-file",
        str(info),
        log=folder / "scheduler.log",
    )
    workers = None
    try:
        deadline = time.monotonic() + 60
        while not info.exists() or not info.read_text().strip():
            assert scheduler.poll() is None, (folder / "scheduler.log").read_text()
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.2)
        address = json.loads(info.read_text())["address"]
        workers = _dask(
            "worker",
            "--scheduler-file",
            str(info),
            "--nworkers",
            "2",
            "--nthreads",
            "1",
            "--memory-limit",
            "2GiB",
            "--no-dashboard",
            log=folder / "workers.log",
        )
        import distributed

        with distributed.Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
        yield address, workers.pid
    finally:
        if workers is not None:
            _stop(workers)
        _stop(scheduler)


def _figures(text: str) -> dict[str, object]:
    data = json.loads(text)
    for volatile in ("seconds", "shards"):
        data.pop(volatile, None)
    return data


def test_command_line_cluster_equals_a_local_run(
    cluster: tuple[str, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    address, _ = cluster
    store = tmp_path / "4x5.sqlite"
    argv = ["research", "enumerate", "--size", "4x5", "--shards", "5", "--json"]
    assert main([*argv, "--store", str(store), "--cluster", address]) == 0
    on_cluster = _figures(capsys.readouterr().out)
    assert main(["research", "enumerate", "--size", "4x5", "--json"]) == 0
    local = _figures(capsys.readouterr().out)
    # a sum of floats over shards, added in another order: equal to rounding only
    assert on_cluster.pop("puzzle_mean_clue") == pytest.approx(local.pop("puzzle_mean_clue"))
    assert on_cluster == local
    assert on_cluster["correct"] == census(4, 5).correct == 57_338


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        kids = children(todo.pop())
        out += kids
        todo += kids
    return out


@pytest.mark.slow
def test_a_worker_killed_mid_shard_loses_nothing(cluster: tuple[str, int], tmp_path: Path) -> None:
    """SIGKILL the busiest worker process while it enumerates: the shard runs again
    elsewhere (or on the worker the nanny restarts) and the 5x6 figures stay exact."""
    address, workers = cluster
    store = tmp_path / "5x6.sqlite"
    before = {p: _cpu_seconds(p) for p in _descendants(workers)}
    argv = ["research", "enumerate", "--size", "5x6", "--shards", "4", "--json"]
    proc = start_cli([*argv, "--store", str(store), "--cluster", address])
    deadline = time.monotonic() + 120
    victim = None
    while victim is None:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no worker got busy"
        busy = [(_cpu_seconds(p) - before.get(p, 0.0), p) for p in _descendants(workers)]
        spent, pid = max(busy, default=(0.0, 0))
        if spent > 1.5:  # a census worker in the middle of its shard (about 10 s each)
            victim = pid
        time.sleep(0.2)
    os.kill(victim, signal.SIGKILL)
    out, err = wait_or_kill(proc, 600)
    assert proc.returncode == 0, err
    data = _figures(out)
    # the 5x6 figures of docs/research.md (one piece, no shards)
    assert (data["correct"], data["solvable"], data["boards"]) == (
        14_138_864,
        34_646_784,
        3_135_260,
    )
