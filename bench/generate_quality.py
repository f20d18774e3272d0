"""Quality benchmark of the generator: generated puzzles beside published ones of the same size.

Run as ``python bench/generate_quality.py --corpus ../shared/corpus/puzzles.jsonl`` (or
``make bench-generate``). For each size (10x10, 15x15, 20x20, 30x30) and level it
generates ``--count`` puzzles (seeds ``--first-seed`` on; per-size counts with
``--counts 10x10=3,30x30=1``), timing each on one core (CPU seconds of this process), and
walks each through the logic engine. Each puzzle's figures are those of
`nurikabe.generator.quality.figures`: clues per cell, mean and largest clue, shares of
1s and of 1s and 2s, the largest island as a share of the cells, the share of cells
decided by the first easy steps, and the share each tier decides.

The reference is the published corpus in the same size band (`quality.size_band`: 10x10
exactly; 157-305 cells; 306-624; 625 and up), at the same level when the band has at
least ``--min-level`` puzzles of it, else the whole band (and then the play figures, which
depend on the level by definition, are shown but not compared). A figure is *close* when the
median of the generated sample lies within the reference's interquartile range or
within 15 % of its mean; the tables mark it ``ok`` and otherwise give the distance
from the mean. The corpus's figures (one walkthrough per puzzle, ``--corpus-seconds``
of CPU each) are cached in bench/results/generate-quality-corpus.json, keyed by the
logic engine's technique table, and reused while it matches.

With ``--collection DB`` nothing is generated: the puzzles of a collection file made by
``--generator`` (default: the current version), by size and level, are measured the same
way against the corpus (``CPU s`` is then the build's, unknown: shown as ``-``). That is
how the bundled collection's new sets are checked after a rebuild.

Writes a JSON summary (bench/results/generate-quality-DATE.json by default) and prints
markdown tables. This script owns no library code; it calls the public API and
`nurikabe.generator.quality`.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

from nurikabe import GenerationError, Puzzle, generate
from nurikabe.formats.jsonl import read_file
from nurikabe.generator import GENERATOR_VERSION
from nurikabe.generator.quality import FIGURES, Spread, figures, size_band
from nurikabe.logic import LEVELS, TECHNIQUES, explain

ROOT = Path(__file__).resolve().parent
CACHE = ROOT / "results" / "generate-quality-corpus.json"
DEFAULT_COUNTS = {"10x10": 3, "15x15": 3, "20x20": 2, "30x30": 1}
DEFAULT_LEVELS = {"30x30": ("easy", "medium", "hard", "expert")}


def _size(text: str) -> tuple[int, int]:
    r, c = text.lower().split("x")
    return int(r), int(c)


def _engine_key() -> str:
    text = ";".join(f"{t.id}:{t.tier}" for t in TECHNIQUES)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def corpus_figures(path: str, seconds: float, refresh: bool) -> list[dict[str, Any]]:
    """Band, level and figures of every corpus puzzle in a band (cached)."""
    key = _engine_key()
    if CACHE.exists() and not refresh:
        cached = json.loads(CACHE.read_text())
        if cached.get("engine") == key and cached.get("seconds") == seconds:
            return list(cached["puzzles"])
    out = []
    for doc in read_file(path):
        p = doc.puzzle
        band = size_band(p.rows, p.cols)
        if band is None:
            continue
        walk = explain(p, seconds=seconds)
        assert walk.grade is not None
        out.append(
            {
                "id": doc.meta.get("id"),
                "band": band,
                "size": f"{p.rows}x{p.cols}",
                "level": walk.grade.level,
                "stopped": walk.status == "stopped",
                "figures": figures(p, walk.steps),
            }
        )
        print(f"corpus {doc.meta.get('id')} {p.rows}x{p.cols} {walk.grade.level}", flush=True)
    CACHE.parent.mkdir(exist_ok=True)
    CACHE.write_text(
        json.dumps({"engine": key, "seconds": seconds, "puzzles": out}, indent=0) + "\n"
    )
    return out


PLAY = {"easy_start", "tier1", "tier2", "tier3up"}
"""The figures that depend on the level by definition: compared only within a level."""


def reference(
    corpus: list[dict[str, Any]], band: str, level: str, min_level: int
) -> tuple[str, list[dict[str, Any]], bool]:
    """The reference puzzles for (band, level), how they were chosen, and whether they
    are of that level (else the whole band, and the play figures are not compared)."""
    same = [c for c in corpus if c["band"] == band]
    leveled = [c for c in same if c["level"] == level]
    if len(leveled) >= min_level:
        return f"{band} {level}", leveled, True
    return f"{band} all levels", same, False


def _fmt(value: float) -> str:
    return f"{value:.0f}" if value >= 10 else f"{value:.3g}" if value < 1 else f"{value:.2f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--corpus", default=str(ROOT.parent.parent / "shared" / "corpus" / "puzzles.jsonl")
    )
    ap.add_argument("--sizes", default="10x10,15x15,20x20,30x30")
    ap.add_argument("--levels", default=None, help="levels (default: all; 30x30 up to expert)")
    ap.add_argument("--count", type=int, default=None, help="puzzles per size and level")
    ap.add_argument("--counts", default=None, help="per size, e.g. 10x10=3,30x30=1")
    ap.add_argument("--extreme-count", type=int, default=1, help="extreme puzzles per size")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--symmetry", default="none")
    ap.add_argument("--seconds", type=float, default=300, help="generator budget per puzzle")
    ap.add_argument("--corpus-seconds", type=float, default=20.0)
    ap.add_argument("--refresh-corpus", action="store_true")
    ap.add_argument("--min-level", type=int, default=6)
    ap.add_argument("--out", default=None)
    ap.add_argument("--jsonl", default=None, help="also write the generated puzzles here")
    ap.add_argument(
        "--summary", nargs="+", metavar="JSON", help="instead: the short table of summaries"
    )
    ap.add_argument(
        "--collection", default=None, metavar="DB", help="measure a collection file's puzzles"
    )
    ap.add_argument("--generator", default=GENERATOR_VERSION, help="with --collection")
    args = ap.parse_args()
    if args.summary:
        for path in args.summary:
            print(f"\n{path}\n")
            print("\n".join(short_table(json.loads(Path(path).read_text()))))
        return 0

    counts = dict(DEFAULT_COUNTS)
    if args.counts:
        for item in args.counts.split(","):
            name, n = item.split("=")
            counts[name] = int(n)
    corpus = corpus_figures(args.corpus, args.corpus_seconds, args.refresh_corpus)
    stored = _collection_puzzles(args.collection, args.generator) if args.collection else None
    summary: dict[str, Any] = {"generator": GENERATOR_VERSION, "sizes": {}}
    if stored is not None:
        summary["collection"] = {"path": args.collection, "generator": args.generator}
    records: list[str] = []
    lines: list[str] = []
    for size_text in args.sizes.split(","):
        rows, cols = _size(size_text)
        band = size_band(rows, cols)
        assert band is not None, size_text
        count = args.count if args.count is not None else counts.get(size_text, 2)
        levels = (
            args.levels.split(",") if args.levels else DEFAULT_LEVELS.get(size_text, tuple(LEVELS))
        )
        per_level: dict[str, Any] = {}
        if stored is not None:
            # The stored levels, narrowed to `--levels` when given.
            levels = [
                lv
                for lv in LEVELS
                if (size_text, lv) in stored and (not args.levels or lv in levels)
            ]
        for level in levels:
            made: list[dict[str, float]] = []
            cpu: list[float] = []
            failed = 0
            n = min(count, args.extreme_count) if level == "extreme" else count
            if stored is not None:
                for puzzle in stored[(size_text, level)]:
                    walk = explain(puzzle, seconds=60)
                    made.append(figures(puzzle, walk.steps))
                n = 0
            for seed in range(args.first_seed, args.first_seed + n):
                began = time.process_time()
                try:
                    g = generate(
                        rows,
                        cols,
                        difficulty=level,
                        symmetry=args.symmetry,
                        rng=seed,
                        seconds=args.seconds,
                    )
                except GenerationError:
                    failed += 1
                    cpu.append(time.process_time() - began)
                    print(f"{size_text} {level} seed {seed}: not made", flush=True)
                    continue
                cpu.append(time.process_time() - began)
                walk = explain(g.puzzle, seconds=60)
                made.append(figures(g.puzzle, walk.steps))
                records.append(json.dumps(g.to_json()) + "\n")
                print(
                    f"{size_text} {level} seed {seed}: {cpu[-1]:.1f} s, "
                    f"{len(g.puzzle.clues)} clues, largest {max(g.puzzle.clues.values())}",
                    flush=True,
                )
            ref_name, ref, leveled = reference(corpus, band, level, args.min_level)
            row: dict[str, Any] = {
                "made": len(made),
                "failed": failed,
                "median_cpu_s": statistics.median(cpu) if cpu else None,
                "reference": ref_name,
                "reference_count": len(ref),
                "figures": {},
            }
            for key, _ in FIGURES:
                spread = Spread.of(c["figures"][key] for c in ref)
                value = statistics.median(f[key] for f in made) if made else None
                compared = value is not None and (leveled or key not in PLAY)
                row["figures"][key] = {
                    "generated": value,
                    "q1": spread.q1,
                    "q3": spread.q3,
                    "mean": spread.mean,
                    "compared": compared,
                    "close": compared and spread.close(value),
                    "distance": None if value is None else spread.distance(value),
                }
            per_level[level] = row
        summary["sizes"][size_text] = per_level
        if stored is not None:
            count = max((row["made"] for row in per_level.values()), default=0)
        lines += table(size_text, per_level, count)
        print("\n".join(lines[-(len(per_level) + 6) :]), flush=True)

    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    summary["commit"] = commit
    out = (
        Path(args.out)
        if args.out
        else (ROOT / "results" / f"generate-quality-{datetime.date.today().isoformat()}.json")
    )
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(summary, indent=1) + "\n")
    if args.jsonl:
        Path(args.jsonl).write_text("".join(records), encoding="utf-8")
    print()
    print("\n".join(lines))
    print(f"\nwrote {out}")
    return 0


def _collection_puzzles(path: str, generator: str) -> dict[tuple[str, str], list[Puzzle]]:
    """The puzzles of the collection file at `path` made by `generator`, by size and level."""
    from nurikabe import collection

    out: dict[tuple[str, str], list[Puzzle]] = {}
    conn = collection.open_db(path, readonly=True)
    try:
        for e in collection.entries(conn):
            if e.generator == generator and e.level is not None:
                size = f"{e.puzzle.rows}x{e.puzzle.cols}"
                out.setdefault((size, e.level), []).append(e.puzzle)
    finally:
        conn.close()
    return out


def table(size_text: str, per_level: dict[str, Any], count: int) -> list[str]:
    """Markdown: one row per level, one column per figure; each cell the generated median
    and ``ok`` when close to the reference, else its distance from the reference mean; the
    reference's quartiles and mean on the row below."""
    head = ["level", "made", "CPU s", "close"] + [name for _, name in FIGURES]
    lines = [
        f"\n{size_text}, {count} seed(s) per level: generated median (ok = within the "
        "reference's IQR or 15 % of its mean; else distance from the mean; n/a: no "
        "published puzzles of the level to compare play with), and the reference row below "
        "(Q1-Q3 / mean)",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for level, row in per_level.items():
        cells = []
        close = compared = 0
        refs = []
        for key, _ in FIGURES:
            fig = row["figures"][key]
            refs.append(f"{_fmt(fig['q1'])}-{_fmt(fig['q3'])} / {_fmt(fig['mean'])}")
            if fig["generated"] is None:
                cells.append("-")
                continue
            close += fig["close"]
            compared += fig["compared"]
            if not fig["compared"]:
                mark = "(n/a)"
            else:
                mark = "ok" if fig["close"] else f"{fig['distance']:+.0%}"
            cells.append(f"{_fmt(fig['generated'])} {mark}")
        cpu = row["median_cpu_s"]
        lines.append(
            f"| {level} | {row['made']}/{row['made'] + row['failed']} | "
            f"{'-' if cpu is None else f'{cpu:.1f}'} | {close}/{compared} | "
            + " | ".join(cells)
            + " |"
        )
        lines.append(
            f"| ref: {row['reference']} (n={row['reference_count']}) | | | | "
            + " | ".join(refs)
            + " |"
        )
    return lines


SHORT = ("clues_per_cell", "mean_clue", "largest_clue", "share_le2")


def short_table(summary: dict[str, Any]) -> list[str]:
    """One row per size and level: made, CPU, figures close, and four shape figures
    (generated median, with * when not close)."""
    names = dict(FIGURES)
    head = ["size", "level", "made", "CPU s", "close"] + [names[k] for k in SHORT]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for size, levels in summary["sizes"].items():
        for level, row in levels.items():
            figs = row["figures"]
            compared = sum(f.get("compared", f["generated"] is not None) for f in figs.values())
            close = sum(bool(f["close"]) for f in figs.values())
            cells = []
            for key in SHORT:
                f = figs[key]
                g = f["generated"]
                cells.append("-" if g is None else _fmt(g) + ("" if f["close"] else "*"))
            cpu = row["median_cpu_s"]
            lines.append(
                f"| {size} | {level} | {row['made']}/{row['made'] + row['failed']} | "
                f"{'-' if cpu is None else f'{cpu:.1f}'} | {close}/{compared} | "
                + " | ".join(cells)
                + " |"
            )
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
