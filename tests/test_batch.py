"""The batch runner: local processes, a real Dask scheduler with two workers, resume, Ctrl-C;
and the commands that run through it (solve, grade, generate, collection build)."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nurikabe.batch import BatchError, load_results, run_batch
from nurikabe.cli import main
from nurikabe.cli.solve_batch import SolveRecordJob
from nurikabe.logic.jobs import GradeJob
from nurikabe.research.enumerate import census
from nurikabe.research.jobs import EnumerateShard, merge_census
from tests.corpus import corpus, needs_corpus

URLS = [
    "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g",
    "https://puzz.link/p?nurikabe/3/3/k33h",
]


def _solve(url: str, index: int = 0) -> SolveRecordJob:
    """The ``solve`` command's job for one puzzle, with its default options."""
    return SolveRecordJob(index, f"p{index}", url, None, "native", 60.0, None, False, False)


def _jobs() -> list:
    jobs: list = [EnumerateShard(4, 4, shards=4, shard=k) for k in range(4)]
    jobs += [_solve(u, n) for n, u in enumerate(URLS)] + [GradeJob(u) for u in URLS]
    return jobs


def _comparable(results: dict) -> dict:
    """The results without their timings (a solve's are inside its record)."""
    out = {}
    for key, value in results.items():
        value = dict(value)
        if isinstance(value.get("record"), dict):
            value["record"] = _comparable({"": value["record"]})[""]
        for volatile in ("cpu_seconds", "seconds", "nodes"):
            value.pop(volatile, None)
        out[key] = value
    return out


def test_local_processes_resume_and_merge(tmp_path) -> None:
    store = tmp_path / "local.sqlite"
    first = run_batch(_jobs()[:3], store, workers=2)
    assert (first.done, first.skipped, first.failed) == (3, 0, {})
    again = run_batch(_jobs(), store, workers=2)
    assert (again.done, again.skipped) == (len(_jobs()) - 3, 3)
    results = load_results(store)
    shards = [results[j.key] for j in _jobs() if isinstance(j, EnumerateShard)]
    merged = merge_census(shards)
    assert merged.solution_counts == census(4, 4).solution_counts
    solved = results[_solve(URLS[0]).key]
    assert solved["code"] == 0 and solved["record"]["status"] == "unique"
    in_process = tmp_path / "serial.sqlite"
    run_batch(_jobs(), in_process, workers=0)
    assert _comparable(load_results(in_process)) == _comparable(results)


def test_interrupt_keeps_what_is_done(tmp_path) -> None:
    store = tmp_path / "cut.sqlite"

    def stop(job, result) -> None:
        raise KeyboardInterrupt

    report = run_batch(_jobs(), store, workers=0, on_result=stop)
    assert report.interrupted and report.done == 1
    assert len(load_results(store)) == 1
    rest = run_batch(_jobs(), store, workers=0)
    assert (rest.skipped, rest.done, rest.interrupted) == (1, len(_jobs()) - 1, False)


def test_bad_batches(tmp_path) -> None:
    with pytest.raises(BatchError):
        run_batch([GradeJob(URLS[0]), GradeJob(URLS[0])], tmp_path / "x.sqlite")
    with pytest.raises(BatchError):
        run_batch([GradeJob(URLS[0])], tmp_path)  # a directory, not a file
    failed = run_batch([GradeJob("https://puzz.link/p?nurikabe/2/2/z")], tmp_path / "f.sqlite")
    assert len(failed.failed) == 1 and failed.done == 0
    not_a_store = tmp_path / "text.sqlite"
    not_a_store.write_text("hello\n")
    with pytest.raises(BatchError, match="result store"):
        run_batch([GradeJob(URLS[0])], not_a_store)
    pytest.importorskip("distributed")
    for address in ("foo", "tcp://host:port"):
        with pytest.raises(BatchError, match="not a Dask scheduler address"):
            run_batch(
                [GradeJob(URLS[0]), GradeJob(URLS[1])], tmp_path / "y.sqlite", cluster=address
            )


def test_dask_cluster_equals_local_run(tmp_path) -> None:
    import distributed  # the cluster extra, which `make test` installs

    jobs = _jobs()[:5]
    local = tmp_path / "local.sqlite"
    run_batch(jobs, local, workers=0)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        remote = tmp_path / "cluster.sqlite"
        report = run_batch(jobs, remote, cluster=cluster.scheduler_address)
        assert report.done == len(jobs) and not report.failed
    assert _comparable(load_results(remote)) == _comparable(load_results(local))


@pytest.mark.slow
def test_unreachable_cluster(tmp_path) -> None:
    with pytest.raises(BatchError):
        run_batch(_jobs(), tmp_path / "none.sqlite", cluster="tcp://127.0.0.1:9")


# -- the commands that run through the batch runner ------------------------------------------


@pytest.fixture(scope="module")
def scheduler() -> object:
    """A real Dask scheduler with two worker processes on localhost."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


@pytest.fixture(scope="module")
def puzzles(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six small published puzzles, a duplicate and a line that is not a puzzle."""
    from nurikabe.formats import write

    small = [d for d in corpus() if d.puzzle.area <= 64][:6]
    if not small:
        pytest.skip("corpus not found")
    path = tmp_path_factory.mktemp("batch") / "small.jsonl"
    lines = [write(d.puzzle, "jsonl").strip() for d in small]
    path.write_text("\n".join([*lines, lines[0], '{"rows": 0, "cols": 3}']) + "\n")
    return path


@pytest.fixture(scope="module")
def readable(puzzles: Path) -> Path:
    """The same without the bad line (``grade`` refuses a file with one, before grading)."""
    path = puzzles.with_name("readable.jsonl")
    path.write_text("".join(puzzles.read_text().splitlines(keepends=True)[:-1]))
    return path


def _volatile_free(text: str) -> list[object]:
    """The lines of a command's output, JSON ones without their timings."""
    out: list[object] = []
    for line in text.splitlines():
        try:
            data = json.loads(line)
        except ValueError:
            out.append(line)
            continue
        if isinstance(data, dict):
            data.pop("seconds", None)
            if isinstance(data.get("summary"), dict):
                data["summary"].pop("seconds", None)
        out.append(data)
    return out


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = main(argv)
    return code, capsys.readouterr().out


def _solve_argv(src: Path) -> list[str]:
    return ["solve", str(src), "--json", "--count"]


def _grade_argv(src: Path) -> list[str]:
    return ["grade", str(src), "--json"]


GENERATE = ["generate", "--size", "5x5", "--difficulty", "easy", "--count", "4", "--seed", "3"]


def _rows(path: Path) -> list[tuple[object, ...]]:
    import sqlite3

    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT * FROM puzzles ORDER BY id").fetchall()
    finally:
        conn.close()


@pytest.mark.long
@needs_corpus
@pytest.mark.parametrize("command", ["solve", "grade", "generate", "collection build"])
def test_command_on_a_cluster_equals_a_local_run(
    command: str,
    scheduler: str,
    puzzles: Path,
    readable: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One process, two local processes and two Dask workers give the same output."""
    outputs = []
    for how in (["--jobs", "1"], ["--jobs", "2"], ["--cluster", scheduler]):
        if command == "collection build":
            out = tmp_path / f"c{len(outputs)}.sqlite"
            argv = ["collection", "build", "--limit", "3", "--seed", "5", "-o", str(out)]
            assert _run(capsys, [*argv, *how])[0] == 0
            outputs.append(_rows(out))
            continue
        argv = {
            "solve": _solve_argv(puzzles),
            "grade": _grade_argv(readable),
            "generate": [*GENERATE, "--format", "jsonl"],
        }[command]
        code, text = _run(capsys, [*argv, *how])
        assert code == (2 if command == "solve" else 0)  # solve: the bad line
        outputs.append(_volatile_free(text))
    assert outputs[0] == outputs[1] == outputs[2]
    assert outputs[0], command
    if command == "solve":
        statuses = [r["status"] for r in outputs[0][:-1]]  # type: ignore[index]
        assert statuses == ["unique"] * 7 + ["error"]
    if command == "grade":
        first, again = (dict(outputs[0][n], id=None) for n in (0, 6))  # type: ignore[call-overload]
        assert len(outputs[0]) == 7 and first == again  # the duplicate line


@needs_corpus
@pytest.mark.parametrize("command", ["solve", "grade", "generate"])
def test_store_resumes_an_interrupted_run(
    command: str,
    puzzles: Path,
    readable: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ctrl-C after the third result keeps it; the rerun runs only the rest and prints
    what an uninterrupted run prints."""
    import nurikabe.batch as batch

    argv = {
        "solve": _solve_argv(puzzles),
        "grade": _grade_argv(readable),
        "generate": [*GENERATE, "--format", "jsonl"],
    }[command]
    whole_code, whole = _run(capsys, [*argv, "--jobs", "1"])
    store = tmp_path / "s.sqlite"
    real = batch._attempt
    ran: list[str] = []

    def counted(job: batch.Job) -> batch.Outcome:
        ran.append(job.key)
        if len(ran) == 4 and interrupt:
            raise KeyboardInterrupt
        return real(job)

    monkeypatch.setattr(batch, "_attempt", counted)
    interrupt = True
    code, _ = _run(capsys, [*argv, "--jobs", "1", "--store", str(store)])
    assert code == 130
    assert len(batch.load_results(store)) == 3
    ran.clear()
    interrupt = False
    code, again = _run(capsys, [*argv, "--jobs", "1", "--store", str(store)])
    assert code == whole_code
    assert len(ran) == len(batch.load_results(store)) - 3  # the three kept are not run again
    assert _volatile_free(again) == _volatile_free(whole)


@needs_corpus
@pytest.mark.skipif(not Path("/proc").exists(), reason="needs /proc")
def test_grade_ctrl_c_with_two_workers_then_resume(tmp_path: Path) -> None:
    """A real Ctrl-C (to the process group, as a terminal sends it) ends a two-process
    grade batch with exit 130 and its workers gone; the lines printed are stored, and
    the rerun prints every line in file order, those lines among them."""
    from tests.corpus import CORPUS_PATH
    from tests.processes import alive, children, start_cli, wait_or_kill

    src = tmp_path / "part.jsonl"
    small = [
        line
        for line in CORPUS_PATH.read_text().splitlines(keepends=True)
        if json.loads(line)["rows"] * json.loads(line)["cols"] <= 100
    ]
    src.write_text("".join(small[:120]))  # a few seconds of grading, far from one
    store = tmp_path / "grades.sqlite"
    args = ["grade", str(src), "--jobs", "2", "--store", str(store)]
    # Ctrl-C once the first grade is printed: a fixed delay would let a fast machine
    # finish the puzzles first (200 took 2.8 s on a machine of 2026-11-25).
    proc = start_cli(args)
    assert proc.stdout is not None
    # Wait for output without reading it (communicate reads it all below).
    assert select.select([proc.stdout.fileno()], [], [], 60)[0]
    workers = children(proc.pid)
    os.killpg(proc.pid, signal.SIGINT)
    sent = time.perf_counter()
    out, err = wait_or_kill(proc, 30)
    took = time.perf_counter() - sent
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted; graded" in err
    assert took < 1.5 and len(workers) == 2 and not [w for w in workers if alive(w)]
    kept = out.splitlines()
    assert 0 < len(kept) == len(load_results(store)) < 120
    again = subprocess.run(
        [sys.executable, "-m", "nurikabe.cli", *args], capture_output=True, text=True, timeout=600
    )
    assert again.returncode == 0, again.stderr
    lines = again.stdout.splitlines()
    ids = [json.loads(line)["id"] for line in src.read_text().splitlines()]
    assert [line.split("\t")[0] for line in lines] == ids
    assert set(kept) <= set(lines)


_LATE_WORKER = """
import os, signal, sys, time
from nurikabe import batch
from nurikabe.logic.jobs import GradeJob

first = os.path.join(sys.argv[1], "first")
from nurikabe import workers
started = workers._worker_start

def late_start():
    # Every worker but the first starts late: the first does every job meanwhile. With
    # "deaf", the late one also misses any SIGTERM sent meanwhile (as one did under load).
    try:
        os.close(os.open(first, os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        if sys.argv[2] == "deaf":
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(1.5)
    started()

workers._worker_start = late_start
jobs = [GradeJob("https://puzz.link/p?nurikabe/3/3/k33h", index=k) for k in range(4)]

def stop(job, result):
    raise KeyboardInterrupt

report = batch.run_batch(
    jobs, os.path.join(sys.argv[1], "s.sqlite"), workers=2,
    on_result=stop if sys.argv[2] == "interrupt" else None,
)
print(report.done, report.interrupted)
"""


@pytest.mark.parametrize(
    ("how", "expected"), [("finish", "4 False"), ("deaf", "4 False"), ("interrupt", "1 True")]
)
def test_a_worker_that_starts_late_still_ends(tmp_path: Path, how: str, expected: str) -> None:
    """A worker still starting when the batch ends (the other did every job), or when it
    is interrupted, ends too: the batch returns. A finished batch once terminated its
    workers with SIGTERM, and a worker that had missed it waited for a task forever
    while the batch waited for it (seen once, in a loaded test run); now a finished
    batch tells its workers the work is over, and they end on their own."""
    proc = subprocess.run(
        [sys.executable, "-c", _LATE_WORKER, str(tmp_path), how],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split("\n")[-2] == expected
