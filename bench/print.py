"""Benchmark of ``nurikabe print``: wall time of whole booklets, as a user runs the command.

Run as ``python bench/print.py``. Each case runs the command in a fresh process
(start-up, reading, drawing and writing included) ``--repeat`` times and reports the
median and the slowest wall time, the pages and the file size; the PDF is read back
with pypdf to check its page count. Cases:

- ``collection-10x10``: 100 puzzles of the bundled collection, 4 to a page, with
  solutions and one SVG per puzzle and per solution (the issue's target: <= 20 s);
- ``collection-mixed``: 100 puzzles of the bundled collection across its sizes
  (10x10, 15x15, 20x20), 6 to a page, Letter;
- ``corpus-unsolved`` (with ``--corpus``): the first ``--count`` published puzzles
  of a JSON-lines corpus with their solutions and grades removed, so every one is
  solved (exact solver) and graded (logic engine) before it is drawn.

Writes a JSON summary to bench/results/print-DATE.json. Calls the command only.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from pypdf import PdfReader

ROOT = Path(__file__).resolve().parent


def _run(args: list[str], repeat: int) -> dict[str, Any]:
    """Run ``nurikabe print ARGS`` `repeat` times; times, pages and size of the last PDF."""
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "booklet.pdf"
        for _ in range(repeat):
            began = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "nurikabe", "print", *args, "-o", str(out)],
                check=True,
                capture_output=True,
                cwd=tmp,
            )
            times.append(time.perf_counter() - began)
        pages = len(PdfReader(out).pages)
        size = out.stat().st_size
    return {
        "args": args,
        "median_s": round(statistics.median(times), 3),
        "max_s": round(max(times), 3),
        "runs": [round(t, 3) for t in times],
        "pages": pages,
        "bytes": size,
    }


def _unsolved(corpus: Path, count: int, tmp: Path) -> Path:
    """The first `count` records of `corpus` without solution or grade."""
    lines = []
    for raw in corpus.read_text(encoding="utf-8").splitlines():
        if not raw.strip():
            continue
        record = json.loads(raw)
        lines.append(json.dumps({k: record[k] for k in ("id", "rows", "cols", "clues")}))
        if len(lines) == count:
            break
    path = tmp / "unsolved.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per case (default 3)")
    ap.add_argument("--corpus", default=None, help="JSON-lines corpus for the unsolved case")
    ap.add_argument("--count", type=int, default=100, help="puzzles of the corpus case")
    ap.add_argument("--target", type=float, default=20.0, help="seconds per 100-puzzle booklet")
    ap.add_argument(
        "--out", default=None, help="JSON summary (default: bench/results/print-DATE.json)"
    )
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        cases: dict[str, list[str]] = {
            "collection-10x10": [
                *("--collection", "10x10", "--count", "100", "--per-page", "4"),
                *("--svg-dir", str(Path(tmp) / "svg")),
            ],
        }
        # One --collection per run: the mixed case reads exported JSON-lines files instead.
        parts = []
        for name, count in (("10x10", 40), ("15x15", 30), ("20x20", 30)):
            part = Path(tmp) / f"{name}.jsonl"
            subprocess.run(
                [sys.executable, "-m", "nurikabe", "collection", "export", "--collection", name],
                check=True,
                stdout=part.open("w"),
            )
            kept = part.read_text(encoding="utf-8").splitlines()[:count]
            part.write_text("\n".join(kept) + "\n", encoding="utf-8")
            parts.append(str(part))
        cases["collection-mixed"] = [*parts, "--per-page", "6", "--paper", "letter"]
        if args.corpus:
            unsolved = _unsolved(Path(args.corpus), args.count, Path(tmp))
            cases["corpus-unsolved"] = [str(unsolved), "--per-page", "4"]

        results = {}
        print(f"{'case':18s} {'median s':>9s} {'max s':>7s} {'pages':>6s} {'KiB':>6s}")
        for name, case in cases.items():
            repeat = 1 if name == "corpus-unsolved" else args.repeat
            row = _run(case, repeat)
            results[name] = row
            print(
                f"{name:18s} {row['median_s']:9.2f} {row['max_s']:7.2f} {row['pages']:6d} "
                f"{row['bytes'] / 1024:6.0f}"
            )
    target = results["collection-10x10"]["max_s"] <= args.target
    print(f"100-puzzle booklet <= {args.target:g} s: {'met' if target else 'NOT met'}")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    summary = {
        "date": datetime.date.today().isoformat(),
        "commit": commit,
        "target_s": args.target,
        "target_met": target,
        "cases": results,
    }
    out = Path(args.out) if args.out else ROOT / "results" / f"print-{summary['date']}.json"
    out.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {out}")
    return 0 if target else 1


if __name__ == "__main__":
    sys.exit(main())
