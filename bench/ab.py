"""Two versions of the code side by side, in one run: CPU time and whether they agree.

This machine's speed drifts from day to day (the same code has run twice as slowly on an
idle machine weeks apart), so a time figure means something only beside another taken
in the same run. This script runs a task on the same items with two source trees, one
fresh process per (tree, item, round), alternating which tree goes first, and prints per
item the median CPU seconds of each, their ratio and whether the two gave the same
result (a walkthrough's steps, a solver's answer, a generated puzzle).

A tree is a directory holding ``src/nurikabe`` (another worktree, a clone) or a git
revision of this repository, which is checked out once into a cache directory and its C
extensions built in place (with this interpreter; the cache is reused on later runs):

    python bench/ab.py --before 2f31aec --after . --task explain \\
        --puzzles janko-1055/7,grilops-issue10-1 --rounds 3 --seconds 120
    python bench/ab.py --before main --after ../wt-gen --task generate \\
        --items 30x30:hard:0,30x30:hard:1 --seconds 400
    python bench/ab.py --before HEAD~3 --after . --task solve --sample 60

Tasks: ``explain`` (the logic engine's walkthrough from the empty board), ``hint`` (the
first hint on the empty board), ``solve`` (the exact engine, two solutions asked),
``generate`` (items ``RxC:LEVEL:SEED``). Puzzle items are corpus ids, ``ID/TURN`` for one
of the 8 orientations (bench/orientations.py). The CPU time is the task's alone (the
child's imports and corpus reading are not counted). A JSON summary goes to ``--out``;
the exit status is 1 when a run failed (its error is printed in its row).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
TASKS = ("explain", "hint", "solve", "generate")
BUILD = """
import runpy, setuptools
made = {}
setuptools.setup = lambda **kw: made.update(kw)
runpy.run_path("setup.py")
dist = setuptools.Distribution(
    {"ext_modules": made["ext_modules"], "package_dir": {"": "src"}}
)
build = dist.get_command_obj("build_ext")
build.inplace = 1
dist.run_command("build_ext")
"""
"""Builds a tree's C extensions in place without reading its pyproject.toml (an older
setuptools than pip's may reject newer metadata)."""
SIZE_CLASSES = ((100, "<=100"), (399, "101-399"), (10**9, ">=400"))


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:12]


# ---- the child: one task on one item, with the tree on PYTHONPATH --------------------------


def _load(corpus: str, item: str) -> tuple[Any, Any]:
    """The puzzle and solution of corpus item ``ID`` or ``ID/TURN``."""
    from nurikabe.formats.jsonl import read_file
    from orientations import orient

    pid, _, turn = item.partition("/")
    for doc in read_file(corpus):
        if doc.meta.get("id") == pid:
            return orient(doc.puzzle, doc.solution, int(turn or 0))
    raise SystemExit(f"ab: no puzzle {pid!r} in {corpus}")


def _child(task: str, item: str, corpus: str, seconds: float) -> dict[str, Any]:
    """Runs one task; its CPU seconds, result digest and a few words on the result."""
    import nurikabe

    if task == "generate":
        from nurikabe.generator import generate

        size, level, seed = item.split(":")
        rows, cols = (int(n) for n in size.split("x"))
        began = time.process_time()
        made = generate(rows, cols, difficulty=level, rng=int(seed), seconds=seconds)
        cpu = time.process_time() - began
        text = made.puzzle.to_text()
        return {
            "cpu": cpu,
            "digest": _digest(text),
            "cells": rows * cols,
            "says": f"{made.grade.level} {made.grade.score}",
            "module": nurikabe.__file__,
        }
    puzzle, _ = _load(corpus, item)
    cells = puzzle.rows * puzzle.cols
    if task == "explain":
        from nurikabe.logic import explain

        began = time.process_time()
        walk = explain(puzzle, seconds=seconds)
        cpu = time.process_time() - began
        steps = "\n".join(step.message for step in walk.steps)
        grade = f"{walk.grade.level} {walk.grade.score}" if walk.grade else "-"
        says = f"{walk.status} {len(walk.steps)} steps {grade}"
        digest = _digest(steps + walk.status)
    elif task == "hint":
        from nurikabe.logic import hint

        began = time.process_time()
        found = hint(puzzle, puzzle.empty_board(), seconds=seconds)
        cpu = time.process_time() - began
        says = found.status + (f" {found.step.technique}" if found.step else "")
        digest = _digest(says + (found.step.message if found.step else ""))
    elif task == "solve":
        from nurikabe.solver import Limit, solve

        began = time.process_time()
        result = solve(puzzle, limit=Limit(solutions=2, seconds=seconds))
        cpu = time.process_time() - began
        says = result.status.value
        digest = _digest(says + str(result.solution))
    else:
        raise SystemExit(f"ab: unknown task {task!r}")
    return {"cpu": cpu, "digest": digest, "cells": cells, "says": says, "module": nurikabe.__file__}


# ---- the parent: trees, items, rounds, the table -------------------------------------------


def _tree(spec: str, cache: Path) -> Path:
    """The source tree for `spec`: a directory with src/nurikabe, or a git revision checked
    out (once) into `cache` with its C extensions built in place."""
    path = Path(spec)
    if (path / "src" / "nurikabe").is_dir():
        return path.resolve()
    rev = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--verify", spec + "^{commit}"],
        capture_output=True,
        text=True,
    )
    if rev.returncode:
        raise SystemExit(f"ab: {spec!r} is neither a source tree nor a git revision")
    sha = rev.stdout.strip()
    tree = cache / sha[:12]
    if not (tree / ".built").exists():
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "-C", str(REPO), "archive", sha], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        print(f"ab: building {spec} ({sha[:12]}) in {tree}", file=sys.stderr, flush=True)
        subprocess.run([sys.executable, "-c", BUILD], cwd=tree, check=True, capture_output=True)
        (tree / ".built").touch()
    return tree


def _run(tree: Path, task: str, item: str, corpus: str, seconds: float) -> dict[str, Any]:
    """One child process on `tree`; its answer, or the error it ended with."""
    env = dict(os.environ, PYTHONPATH=f"{tree / 'src'}{os.pathsep}{HERE}")
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        task,
        item,
        "--corpus",
        corpus,
        "--seconds",
        str(seconds),
    ]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"error": tail}
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if not Path(answer.pop("module")).resolve().is_relative_to(tree):
        raise SystemExit(f"ab: the child imported nurikabe from outside {tree}")
    return answer


def _items(args: argparse.Namespace) -> list[str]:
    if args.items or args.puzzles:
        return [s for s in (args.items or args.puzzles).split(",") if s]
    if args.task == "generate":
        raise SystemExit("ab: generate needs --items RxC:LEVEL:SEED,...")
    with open(args.corpus) as fh:
        ids = [json.loads(line).get("id") for line in fh if line.strip()]
    n = args.sample or len(ids)
    return [ids[k * len(ids) // n] for k in range(n)]


def _class(cells: int) -> str:
    return next(name for top, name in SIZE_CLASSES if cells <= top)


def _summary(rows: list[dict[str, Any]]) -> list[str]:
    """Per size class: items, medians and the median of the ratios."""
    out = [
        "| class | items | before median | after median | median ratio | differ |",
        "|---|---|---|---|---|---|",
    ]
    for _, name in (*SIZE_CLASSES, (0, "all")):
        mine = [r for r in rows if "ratio" in r and (name == "all" or _class(r["cells"]) == name)]
        if not mine:
            continue
        out.append(
            f"| {name} | {len(mine)} | {statistics.median(r['before'] for r in mine):.3f} | "
            f"{statistics.median(r['after'] for r in mine):.3f} | "
            f"{statistics.median(r['ratio'] for r in mine):.2f} | "
            f"{sum(not r['same'] for r in mine)} |"
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs=2, metavar=("TASK", "ITEM"), help=argparse.SUPPRESS)
    parser.add_argument("--before", default="HEAD", help="tree or revision (HEAD)")
    parser.add_argument("--after", default=".", help="tree or revision (this tree)")
    parser.add_argument("--task", choices=TASKS, default="explain")
    parser.add_argument("--puzzles", help="corpus ids, ID/TURN for an orientation")
    parser.add_argument("--items", help="items of the task (generate: RxC:LEVEL:SEED)")
    parser.add_argument("--sample", type=int, help="an evenly spread sample of the corpus")
    parser.add_argument("--rounds", type=int, default=1, help="runs per tree and item (1)")
    parser.add_argument("--seconds", type=float, default=60.0, help="the task's limit (60)")
    parser.add_argument("--corpus", default=str(REPO.parent / "shared/corpus/puzzles.jsonl"))
    parser.add_argument(
        "--cache",
        default=str(Path(os.environ.get("TMPDIR", "/tmp")) / "nurikabe-ab"),
        help="where revisions go",
    )
    parser.add_argument("--out", help="a JSON summary")
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(_child(*args.child, args.corpus, args.seconds)))
        return 0
    trees = {
        "before": _tree(args.before, Path(args.cache)),
        "after": _tree(args.after, Path(args.cache)),
    }
    rows = []
    print("| item | before CPU s | after CPU s | ratio | same | before | after |")
    print("|---|---|---|---|---|---|---|")
    for k, item in enumerate(_items(args)):
        runs: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
        for r in range(args.rounds):
            order = ("before", "after") if (k + r) % 2 == 0 else ("after", "before")
            for side in order:
                runs[side].append(_run(trees[side], args.task, item, args.corpus, args.seconds))
        row: dict[str, Any] = {"item": item}
        failed = [run["error"] for side in runs for run in runs[side] if "error" in run]
        if failed:
            row["error"] = failed[0]
            print(f"| {item} | error: {failed[0]} |", flush=True)
        else:
            a, b = runs["before"], runs["after"]
            row.update(
                cells=a[0]["cells"],
                before=statistics.median(x["cpu"] for x in a),
                after=statistics.median(x["cpu"] for x in b),
                same=a[0]["digest"] == b[0]["digest"],
                before_says=a[0]["says"],
                after_says=b[0]["says"],
            )
            row["ratio"] = row["after"] / max(row["before"], 1e-6)
            print(
                f"| {item} | {row['before']:.3f} | {row['after']:.3f} | {row['ratio']:.2f} | "
                f"{'yes' if row['same'] else 'NO'} | {row['before_says']} | "
                f"{row['after_says']} |",
                flush=True,
            )
        rows.append(row)
    print()
    print("\n".join(_summary(rows)))
    if args.out:
        Path(args.out).write_text(
            json.dumps(
                {
                    "before": args.before,
                    "after": args.after,
                    "task": args.task,
                    "seconds": args.seconds,
                    "rounds": args.rounds,
                    "rows": rows,
                },
                indent=1,
            )
            + "\n"
        )
    return 1 if any("error" in row for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
