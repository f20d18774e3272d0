"""Benchmark of start-up: ``nurikabe solve`` on a 10x10 as a whole process, and what it imports.

Run by ``make bench`` as ``python bench/startup.py --corpus ../shared/corpus/puzzles.jsonl``.
Takes the first 10x10 puzzle of the corpus and solves it with the installed
``nurikabe`` command, given as a file in each of three forms (a JSON-lines record,
the thesis text format and a puzz.link URL on the command line): a warm-up run,
then ``--runs`` timed runs per form, one after another, like hyperfine; and, for
scale, the bare interpreter (``python -c pass``) the same way. Wall time is
measured around each `subprocess.run`; CPU time (user + system) from
``resource.getrusage(RUSAGE_CHILDREN)``. Byte-code caching is allowed, as for an
installed user (``PYTHONDONTWRITEBYTECODE`` is dropped). Where valgrind is installed,
one more run per form counts the instructions executed (callgrind): a figure that,
unlike the times, does not move with the load of a shared machine
(``--no-instructions`` skips it).

Then one more run per form lists what the process imported: every ``nurikabe.*``
module and every third-party one, from ``sys.modules`` at exit (``-X importtime``
misses what `importlib.import_module` loads, which is how the CLI picks its command
and the solver its engine), with the ``-X importtime`` cost of the ones it does see.
The run fails (exit 1) if a forbidden module was imported: the generator, the logic
engine, the bundled collection, the CP-SAT engine, `dataclasses` (with `inspect` and
`ast`) or any third-party package
(OR-Tools, tqdm, ...). The target, a median of at most 60 ms wall per run, is
reported, not enforced (the machine may be shared). Writes a JSON summary to
bench/results/startup-DATE.json.

This script owns no library code.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TARGET_MEDIAN = 0.060
"""Seconds of wall time per whole-process solve of a 10x10 (issue 14)."""

FORBIDDEN = (
    "nurikabe.generator",
    "nurikabe.logic",
    "nurikabe.collection",
    "nurikabe.research",
    "nurikabe.solver.cpsat",
    "nurikabe.cli.progress",
)
"""Packages the solve path must not import (with everything under them)."""

HEAVY_STDLIB = ("dataclasses", "inspect", "ast")
"""Standard-library modules the solve path does without (dataclasses imports inspect, ast,
dis and tokenize: a few ms per process)."""

# Runs the CLI as the console script does, then reports sys.modules on stderr.
_LISTING = (
    "import sys\n"
    "from nurikabe.cli import main\n"
    "try:\n"
    "    code = main(sys.argv[1:])\n"
    "finally:\n"
    "    print('MODULES ' + ' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    "sys.exit(code)\n"
)


def percentile(values: list[float], q: float) -> float:
    """The q-quantile by nearest rank (q in [0, 1])."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1))
    return ordered[k]


def is_forbidden(module: str) -> bool:
    """Whether the solve path may not import `module`: a forbidden package or a third party."""
    top = module.split(".")[0]
    if module in HEAVY_STDLIB:
        return True
    if top != "nurikabe":
        return top not in sys.stdlib_module_names and top not in _baseline()
    return any(module == f or module.startswith(f + ".") for f in FORBIDDEN)


_BASE: set[str] = set()


def _baseline() -> set[str]:
    """Top-level modules a bare ``python -c pass`` has loaded (site hooks and the like)."""
    if not _BASE:
        done = subprocess.run(
            [sys.executable, "-c", "import sys; print(' '.join(sys.modules))"],
            capture_output=True,
            text=True,
            check=True,
        )
        _BASE.update(name.split(".")[0] for name in done.stdout.split())
    return _BASE


def time_runs(command: list[str], runs: int, env: dict[str, str]) -> dict[str, Any]:
    """Wall and CPU seconds of `runs` runs of `command`, after one warm-up run."""
    warm = subprocess.run(command, env=env, capture_output=True, check=False)
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.perf_counter()
        subprocess.run(command, env=env, capture_output=True, check=False)
        walls.append(time.perf_counter() - began)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return {
        "exit_code": warm.returncode,
        "runs": runs,
        "median_wall": statistics.median(walls),
        "p90_wall": percentile(walls, 0.9),
        "min_wall": min(walls),
        "median_cpu": statistics.median(cpus),
        "p90_cpu": percentile(cpus, 0.9),
    }


def instructions(command: list[str], env: dict[str, str]) -> int | None:
    """Instructions one run of `command` executes, counted by valgrind's callgrind.

    Unlike times, the count does not depend on what else the machine is running.
    None when valgrind is not installed or the count cannot be read.
    """
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            [valgrind, "--tool=callgrind", f"--callgrind-out-file={tmp}/out", *command],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
    counts = [line.split()[-1] for line in done.stderr.splitlines() if "Collected :" in line]
    return int(counts[-1]) if counts and counts[-1].isdigit() else None


def imports(args: list[str], env: dict[str, str]) -> dict[str, Any]:
    """What ``nurikabe ARGS`` imports: nurikabe and third-party modules, and their costs."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", _LISTING, *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    cost: dict[str, int] = {}
    modules: list[str] = []
    for line in done.stderr.splitlines():
        if line.startswith("MODULES "):
            modules = line.split()[1:]
        elif line.startswith("import time:") and "|" in line:
            self_us, _, name = line.removeprefix("import time:").split("|")
            if self_us.strip().isdigit():
                cost[name.strip()] = int(self_us)
    base = _baseline()
    ours = [m for m in modules if m.split(".")[0] == "nurikabe"]
    third = [
        m
        for m in modules
        if m.split(".")[0] not in sys.stdlib_module_names
        and m.split(".")[0] not in base
        and m.split(".")[0] != "nurikabe"
    ]
    stdlib_us = sum(us for name, us in cost.items() if name.split(".")[0] != "nurikabe")
    return {
        "exit_code": done.returncode,
        "nurikabe": ours,
        "third_party": third,
        "forbidden": [m for m in modules if is_forbidden(m)],
        "modules": len(modules),
        # Only what -X importtime sees (not what importlib.import_module loads).
        "import_ms_nurikabe": round(sum(cost.get(m, 0) for m in ours) / 1000, 1),
        "import_ms_other": round(stdlib_us / 1000, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default="../shared/corpus/puzzles.jsonl")
    parser.add_argument("--runs", type=int, default=20, help="timed runs per form (default 20)")
    parser.add_argument("--out", default=None, help="JSON summary (default bench/results/)")
    parser.add_argument(
        "--no-instructions", action="store_true", help="skip the valgrind instruction counts"
    )
    args = parser.parse_args(argv)

    from nurikabe.formats import write
    from nurikabe.formats.jsonl import read_file

    exe = shutil.which("nurikabe", path=str(Path(sys.executable).parent)) or shutil.which(
        "nurikabe"
    )
    if exe is None:
        print("the nurikabe command is not installed", file=sys.stderr)
        return 2
    doc = next(d for d in read_file(args.corpus) if (d.puzzle.rows, d.puzzle.cols) == (10, 10))
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # measure what an installed user sees
    rows: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        record = Path(tmp) / "puzzle.jsonl"
        record.write_text(write(doc, "jsonl") + "\n", encoding="utf-8")
        text = Path(tmp) / "puzzle.txt"
        text.write_text(write(doc, "text"), encoding="utf-8")
        forms = {"jsonl": str(record), "text": str(text), "url": write(doc, "url")}
        rows["python"] = time_runs([sys.executable, "-c", "pass"], args.runs, env)
        count = not args.no_instructions
        rows["python"]["instructions"] = (
            instructions([sys.executable, "-c", "pass"], env) if count else None
        )
        for form, src in forms.items():
            rows[form] = {
                "instructions": instructions([exe, "solve", src], env) if count else None,
                **time_runs([exe, "solve", src], args.runs, env),
                "imports": imports(["solve", src], env),
            }
        only = subprocess.run(
            [sys.executable, "-c", "import nurikabe, sys; print(' '.join(sys.modules))"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
    plain = [m for m in only if m.startswith("nurikabe")]

    print(
        f"`nurikabe solve` on {doc.meta.get('id')} (10x10), {args.runs} runs per form after a "
        f"warm-up; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print(
        f"{'form':6} {'median ms':>9} {'p90 ms':>7} {'min ms':>7} {'cpu ms':>7} {'cpu p90':>7}"
        f" {'instructions':>13}"
    )
    for form, row in rows.items():
        count = row["instructions"]
        print(
            f"{form:6} {1000 * row['median_wall']:9.1f} {1000 * row['p90_wall']:7.1f} "
            f"{1000 * row['min_wall']:7.1f} {1000 * row['median_cpu']:7.1f} "
            f"{1000 * row['p90_cpu']:7.1f} {f'{count / 1e6:.1f} M' if count else '-':>13}"
        )
    print(
        "(python: the bare interpreter, `python -c pass`, for scale; instructions: one run "
        "under valgrind's callgrind, independent of the machine's load)"
    )
    solves = {form: row for form, row in rows.items() if form != "python"}
    failed = False
    for form, row in solves.items():
        seen = row["imports"]
        print(f"\n{form}: {seen['modules']} modules, nurikabe: {' '.join(seen['nurikabe'])}")
        print(f"{form}: third-party: {' '.join(seen['third_party']) or 'none'}")
        if seen["forbidden"]:
            failed = True
            print(f"{form}: FORBIDDEN imports: {' '.join(seen['forbidden'])}")
        if row["exit_code"] != 0:
            failed = True
            print(f"{form}: exit code {row['exit_code']}, expected 0 (unique)")
    print(f"\n`import nurikabe` alone loads: {' '.join(plain)}")
    if plain != ["nurikabe"]:
        failed = True
        print("FAILED: `import nurikabe` should load nothing else of the package")
    best = min(row["median_wall"] for row in solves.values())
    worst = max(row["median_wall"] for row in solves.values())
    verdict = "met" if worst <= TARGET_MEDIAN else "NOT met"
    print(
        f"target: median <= {1000 * TARGET_MEDIAN:.0f} ms: {verdict} "
        f"(medians {1000 * best:.1f}-{1000 * worst:.1f} ms)"
    )

    summary = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "cores": os.cpu_count(),
        "load_average": os.getloadavg()[0],
        "puzzle": doc.meta.get("id"),
        "forms": rows,
        "import_nurikabe": plain,
        "target_median_wall": TARGET_MEDIAN,
        "target_met": worst <= TARGET_MEDIAN,
        "failed": failed,
    }
    out = (
        Path(args.out)
        if args.out
        else HERE / "results" / f"startup-{datetime.date.today().isoformat()}.json"
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    print(f"summary: {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
