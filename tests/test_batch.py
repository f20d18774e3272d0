"""The batch runner: local processes, a real Dask scheduler with two workers, resume, Ctrl-C."""

from __future__ import annotations

import pytest

from nurikabe.batch import (
    BatchError,
    EnumerateShard,
    GradeJob,
    SolveJob,
    load_results,
    merge_census,
    run_batch,
)
from nurikabe.research.enumerate import census

URLS = [
    "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g",
    "https://puzz.link/p?nurikabe/3/3/k33h",
]


def _jobs() -> list:
    jobs: list = [EnumerateShard(4, 4, shards=4, shard=k) for k in range(4)]
    jobs += [SolveJob(u) for u in URLS] + [GradeJob(u) for u in URLS]
    return jobs


def _comparable(results: dict) -> dict:
    out = {}
    for key, value in results.items():
        value = dict(value)
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
    assert results[SolveJob(URLS[0]).key]["status"] == "unique"
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
        run_batch([SolveJob(URLS[0]), SolveJob(URLS[0])], tmp_path / "x.sqlite")
    with pytest.raises(BatchError):
        run_batch([SolveJob(URLS[0])], tmp_path)  # a directory, not a file
    failed = run_batch([SolveJob("https://puzz.link/p?nurikabe/2/2/z")], tmp_path / "f.sqlite")
    assert len(failed.failed) == 1 and failed.done == 0


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
