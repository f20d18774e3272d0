"""The exact engine's tail: its slowest corpus puzzles and random sparse grids, in CPU time.

For every corpus puzzle it runs `solve(p, limit=Limit(solutions=2, seconds=60))` in this
process, timed with `time.process_time` (CPU, so a shared machine skews it less than wall
time), and checks the answer against the published solution. It prints the medians per
size class (<= 100, 101-399, >= 400 cells), the slowest puzzles with their nodes, and how
many of `--sparse` random sparse 15x15 puzzles (`bench/solve.py`'s `sparse_puzzle`, seeds
0..n-1, a fixed set) the C core decides within `--sparse-seconds` of CPU time. `--only`
restricts the corpus to some ids (the tail, for quick A/B runs). `--orientations` runs
every corpus puzzle in each of its 8 orientations (bench/orientations.py). The developer
variable `NURIKABE_CSOLVE_OFF` switches rules of the C core off for comparison. `--engine` runs
the corpus, and the sparse set under a wall-time limit (an engine of engines uses several
threads, so CPU time would overstate it), with another engine, e.g. ``portfolio``;
`--no-lean-racer` runs the portfolio without its lean native search (A/B).
`--learning both` runs every corpus puzzle and sparse grid with the core's learning from
conflicts off and on, one after the other (so a busy machine skews both alike), and
reports each side by side; `on` or `off` runs one (default: `default`); `three`
runs off, on (nogoods over decision paths) and on with the rules' reasons
(`native.REASONS`: nogoods over decision cuts), in that order for every puzzle; any list
joined by commas does the same, e.g. `--learning off,on,after2000`, where `afterN` learns
over decision paths once a search has visited N nodes (`native.LEARN_AFTER`) and
`default` is what native.py has (`LEARN`, `REASONS`, `LEARN_AFTER`). With
`--engine portfolio` it switches the portfolio's learning racer instead
(`portfolio.LEARN`; off is the portfolio before it: the lean racer until CP-SAT joins at
a quarter of the limit, `SHARE_BEFORE`, on grids of any size).
`--sparse-size 20 --sparse-seconds 30` runs the random sparse 20x20 set instead.
`--learning noanneal,default` runs the sparse sets with the finder's race without, then
with, its annealer (`native.ANNEAL`).

    nice .venv/bin/python bench/tail.py --corpus ../shared/corpus/puzzles.jsonl -o out.json
    nice .venv/bin/python bench/tail.py --engine portfolio --sparse-seconds 10
    nice .venv/bin/python bench/tail.py --orientations --sparse 0
    nice -n 10 .venv/bin/python bench/tail.py --orientations --learning both
    nice -n 10 .venv/bin/python bench/tail.py --skip-corpus --learning both \\
        --sparse-size 20 --sparse-seconds 30
    nice -n 10 .venv/bin/python bench/tail.py --engine portfolio --learning both --sparse 0
    nice -n 10 .venv/bin/python bench/tail.py --skip-corpus --learning three
    nice -n 10 .venv/bin/python bench/tail.py --learning off,on,after2000 --sparse 0
    nice .venv/bin/python bench/tail.py --skip-corpus --learning noanneal,default
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from nurikabe.formats.jsonl import read_file
from nurikabe.puzzle import UNKNOWN_CLUE, Puzzle
from nurikabe.solver import Limit, _csolve, native, portfolio, solve

sys.path.insert(0, str(Path(__file__).resolve().parent))
from orientations import TURNS, label, orient
from solve import sparse_puzzle  # bench/solve.py's sparse generator

CLASSES = (("<=100", 0, 100), ("101-399", 101, 399), (">=400", 400, 10**9))


def run_corpus(
    path: str,
    only: set[str] | None,
    seconds: float,
    engine: str = "native",
    turns: tuple[int, ...] = (0,),
    learning: tuple[str, ...] = ("off",),
) -> list[dict[str, Any]]:
    """One row per corpus puzzle, orientation in `turns` and learning setting in
    `learning` (the native engine's, or the portfolio's learning racer with another
    `engine`; run one after the other): id, orientation, learn,
    cells, status, whether it matches, CPU s (wall s for an engine other than
    ``native``), nodes."""
    clock = time.process_time if engine == "native" else time.perf_counter
    rows = []
    for k, doc in enumerate(read_file(path)):
        pid = doc.meta.get("id", str(k))
        if only and pid not in only:
            continue
        for turn, setting in ((turn, setting) for turn in turns for setting in learning):
            puzzle, solution = orient(doc.puzzle, doc.solution, turn)
            set_learning(engine, setting)
            began = clock()
            result = solve(puzzle, limit=Limit(solutions=2, seconds=seconds), engine=engine)
            cpu = clock() - began
            same = result.solution is not None and result.solution == solution
            rows.append(
                {
                    "id": pid,
                    "turn": turn,
                    "learn": setting != "off",
                    "setting": setting,
                    "cells": puzzle.rows * puzzle.cols,
                    "status": result.status.value,
                    "ok": same,
                    "cpu": cpu,
                    "nodes": result.stats.nodes,
                }
            )
            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)  # a run cut short
    return rows


SHARE_BEFORE = 0.25
"""`portfolio.NATIVE_SHARE` before the learning racer (CP-SAT joined at a quarter)."""
SHARE_NOW = portfolio.NATIVE_SHARE
CPSAT_CELLS_NOW = portfolio.CPSAT_MAX_CELLS


DEFAULTS = (native.LEARN, native.REASONS, native.LEARN_AFTER, native.FINDER)
"""The native engine's learning as this checkout ships it (the setting ``default``)."""


def parse_setting(setting: str) -> tuple[bool, bool, int, bool]:
    """A learning setting of `--learning`: whether the core learns, with reasons, after
    how many nodes, and whether the native engine races its finder (`native.FINDER`).
    ``off``; ``on`` (nogoods over decision paths from the first node); ``cuts`` (on,
    with the rules' reasons: decision cuts); ``afterN`` (paths, but only once a search
    has visited N nodes: `native.LEARN_AFTER`); ``default`` (what `native.LEARN`,
    `native.REASONS`, `native.LEARN_AFTER` and `native.FINDER` say); ``nofinder`` (the
    default without the finder); ``noanneal`` (the default, its finder's race without
    the annealer: `native.ANNEAL`, which `set_learning` switches). Any but ``default``
    ends in ``+finder`` to race it."""
    if setting in ("default", "noanneal"):
        return DEFAULTS
    if setting == "nofinder":
        return (*DEFAULTS[:3], False)
    base, finder = setting.removesuffix("+finder"), setting.endswith("+finder")
    if base in ("off", "on", "cuts"):
        return base != "off", base == "cuts", 0, finder
    if base.startswith("after") and base[5:].isdigit():
        return True, False, int(base[5:]), finder
    raise ValueError(f"unknown learning setting {setting!r}")


def set_learning(engine: str, setting: str) -> None:
    """The native engine's learning from conflicts (`native.LEARN`, `native.REASONS`,
    `native.LEARN_AFTER`: `parse_setting`), or with another engine the portfolio's
    learning racer (`portfolio.LEARN`; off: the portfolio before it, CP-SAT joining at
    `SHARE_BEFORE` on grids of any size)."""
    learn, reasons, after, finder = parse_setting(setting)
    native.REASONS = reasons
    native.LEARN_AFTER = after
    native.FINDER = finder
    native.ANNEAL = setting != "noanneal"
    if engine == "native":
        native.LEARN = learn
    else:
        portfolio.LEARN = learn
        portfolio.NATIVE_SHARE = SHARE_NOW if learn else SHARE_BEFORE
        portfolio.CPSAT_MAX_CELLS = CPSAT_CELLS_NOW if learn else 10**9


def core_status(
    puzzle: Puzzle,
    seconds: float,
    lean: bool,
    learn: bool = False,
    reasons: bool = False,
    after: int = 0,
) -> tuple[str, int]:
    """The C core's answer (``unique``, ``multiple``, ``none`` or ``unknown``) and nodes,
    called as the native engine calls it but with a limit in CPU seconds of this thread,
    so that a busy machine gives the same work as an idle one; `lean` tries first the
    color whose probe decided fewer cells, `learn` learns from conflicts (with `reasons`,
    nogoods over decision cuts; with `after`, only once the search has visited that many
    nodes)."""
    clues = [(cell, -1 if v == UNKNOWN_CLUE else v) for cell, v in puzzle.clues.items()]
    core = _csolve.Search(
        puzzle.rows,
        puzzle.cols,
        clues,
        bytes(puzzle.rows * puzzle.cols),
        seconds,
        -1,
        cpu=True,
        strong=True,
        lean=lean,
        learn=learn,
        reasons=reasons,
        learn_after=after,
    )
    found = 0
    while found < 2 and core.next() is not None:
        found += 1
    if found == 2:
        return "multiple", core.nodes
    if not core.complete:
        return "unknown", core.nodes
    return ("unique" if found else "none"), core.nodes


def run_sparse(
    count: int,
    seconds: float,
    lean: bool,
    engine: str = "native",
    size: int = 15,
    learning: tuple[str, ...] = ("off",),
) -> list[dict[str, Any]]:
    """One row per random sparse `size` x `size` puzzle (seeds 0..count-1, sea share
    0.45) and learning setting: the C core in CPU seconds (with the finder, the native
    engine: its two searches run in turns in this thread, under a limit of wall seconds),
    or `engine` (not ``native``) in wall seconds."""
    rows = []
    for seed, setting in ((seed, setting) for seed in range(count) for setting in learning):
        puzzle = sparse_puzzle(size, size, 0.45, random.Random(seed))
        set_learning(engine, setting)
        learn, reasons, after, finder = parse_setting(setting)
        if engine == "native" and finder:
            began = time.process_time()
            result = solve(puzzle, limit=Limit(solutions=2, seconds=seconds), engine=engine)
            cpu = time.process_time() - began
            status, nodes = result.status.value, result.stats.nodes
        elif engine == "native":
            began = time.process_time()
            status, nodes = core_status(puzzle, seconds, lean, learn, reasons, after)
            cpu = time.process_time() - began
        else:
            began = time.perf_counter()
            result = solve(puzzle, limit=Limit(solutions=2, seconds=seconds), engine=engine)
            cpu = time.perf_counter() - began
            status, nodes = result.status.value, result.stats.nodes
            by = result.stats.engine
        rows.append({"seed": seed, "learn": learn, "setting": setting})
        rows[-1].update(status=status, cpu=cpu, nodes=nodes)
        if engine != "native":
            rows[-1]["by"] = by
        print(
            f"sparse seed {seed:3} learn {setting:9} {status:8} {cpu:7.2f} s {nodes:7} nodes "
            + rows[-1].get("by", ""),
            file=sys.stderr,
        )
    return rows


def name(row: dict[str, Any]) -> str:
    """A row's puzzle id, with its orientation when it is not the published one."""
    return label(row["id"], row.get("turn", 0))


def report_turns(corpus: list[dict[str, Any]]) -> None:
    """Per puzzle over its orientations: the puzzles whose slowest orientation took over
    a second, with the published orientation's time and nodes beside the spread."""
    by_id: dict[str, list[dict[str, Any]]] = {}
    for r in corpus:
        by_id.setdefault(r["id"], []).append(r)
    slow = sorted(by_id.items(), key=lambda kv: -max(r["cpu"] for r in kv[1]))
    print("\nover the orientations (published = orientation 0)")
    print("puzzle        published s  nodes   median s  max s   max nodes")
    for pid, rows in slow:
        worst = max(rows, key=lambda r: r["cpu"])
        if worst["cpu"] <= 1:
            break
        first = next(r for r in rows if r.get("turn", 0) == 0)
        med = statistics.median(r["cpu"] for r in rows)
        print(
            f"{pid:12} {first['cpu']:11.3f} {first['nodes']:6} {med:10.3f} "
            f"{worst['cpu']:6.3f} {worst['nodes']:11}"
        )


def report(
    corpus: list[dict[str, Any]],
    sparse: list[dict[str, Any]],
    top: int,
    clock: str = "CPU",
    size: int = 15,
) -> None:
    if corpus:
        wrong = [name(r) for r in corpus if not r["ok"]]
        total = sum(r["cpu"] for r in corpus)
        print(f"corpus: {len(corpus)} puzzles, {len(corpus) - len(wrong)} proven unique and")
        print(f"equal to the published solution, {total:.2f} s CPU in all")
        if wrong:
            print("NOT proven or different:", " ".join(wrong))
        print("\nclass       n   median ms    max s   over 2 s")
        for label, lo, hi in CLASSES:
            sel = [r["cpu"] for r in corpus if lo <= r["cells"] <= hi]
            if sel:
                med = statistics.median(sel) * 1000
                over = sum(1 for t in sel if t > 2)
                print(f"{label:8} {len(sel):4} {med:11.2f} {max(sel):8.3f} {over:10}")
        if len({r.get("turn", 0) for r in corpus}) > 1:
            report_turns(corpus)
        print(f"\nslowest         cells   {clock:>4} s    nodes")
        for r in sorted(corpus, key=lambda r: -r["cpu"])[:top]:
            print(f"{name(r):14} {r['cells']:6} {r['cpu']:8.3f} {r['nodes']:8}")
    if sparse:
        decided = [r for r in sparse if r["status"] != "unknown"]
        print(f"\nsparse {size}x{size}: {len(decided)} of {len(sparse)} decided", end="")
        print(" (" + ", ".join(f"{r['seed']}:{r['status']}" for r in decided) + ")")
        for r in decided:
            print(f"  seed {r['seed']:3} {r['cpu']:7.2f} s {r['nodes']:7} nodes {r.get('by', '')}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default="../shared/corpus/puzzles.jsonl")
    parser.add_argument("--only", default="", help="comma-separated corpus ids (default all)")
    parser.add_argument("--seconds", type=float, default=60.0, help="limit per corpus puzzle")
    parser.add_argument("--sparse", type=int, default=12, help="random sparse 15x15 puzzles")
    parser.add_argument("--sparse-seconds", type=float, default=10.0)
    parser.add_argument("--sparse-size", type=int, default=15, help="rows and columns (15)")
    parser.add_argument(
        "--learning",
        help="the native engine's learning from conflicts (default: default, what native "
        "says; with --engine portfolio its learning racer, portfolio.LEARN): off, on, cuts, "
        "afterN or default, or several joined by commas, run one after the other on every "
        "puzzle and reported side by side; both: off,on; three: off,on,cuts",
    )
    parser.add_argument("--skip-corpus", action="store_true")
    parser.add_argument(
        "--lean", action="store_true", help="sparse set: the core's lean=True color order"
    )
    parser.add_argument("--engine", default="native", help="engine (default native)")
    parser.add_argument(
        "--no-lean-racer",
        action="store_true",
        help="portfolio: no lean native search beside the default one (A/B)",
    )
    parser.add_argument(
        "--orientations",
        action="store_true",
        help="each corpus puzzle in its 8 orientations (turned and mirrored)",
    )
    parser.add_argument("--top", type=int, default=8, help="slowest puzzles listed")
    parser.add_argument("-o", "--output", help="write the rows as JSON here")
    args = parser.parse_args()
    only = {x.strip() for x in args.only.split(",") if x.strip()} or None
    if args.no_lean_racer:
        portfolio.LEAN = False
    engine = args.engine
    load = os.getloadavg()[0]
    turns = TURNS if args.orientations else (0,)
    aliases = {"both": "off,on", "three": "off,on,cuts"}
    default = "default" if engine == "native" else ("on" if portfolio.LEARN else "off")
    learning = tuple(aliases.get(args.learning, args.learning or default).split(","))
    for setting in learning:
        try:
            parse_setting(setting)
        except ValueError as error:
            parser.error(str(error))
    corpus = (
        []
        if args.skip_corpus
        else run_corpus(args.corpus, only, args.seconds, engine, turns, learning)
    )
    size = args.sparse_size
    sparse = run_sparse(args.sparse, args.sparse_seconds, args.lean, engine, size, learning)
    clock = "CPU" if engine == "native" else "wall"
    lean_racer = "" if engine != "portfolio" else f", lean racer {not args.no_lean_racer}"
    print(
        f"load average at start {load:.2f}; {clock} seconds in-process; engine {engine}{lean_racer}"
    )
    print("NURIKABE_CSOLVE_OFF=" + os.environ.get("NURIKABE_CSOLVE_OFF", ""), end="")
    print("; sparse set with lean=True" if args.lean else "")
    titles = {"off": "off", "on": "on", "cuts": "on, with reasons (decision cuts)"}
    learn, reasons, after, finder = DEFAULTS
    titles["default"] = (
        f"as native.py has it: LEARN {learn}, REASONS {reasons}, LEARN_AFTER {after}, "
        f"FINDER {finder}"
    )
    titles["nofinder"] = titles["default"].replace(f"FINDER {finder}", "FINDER False")
    titles["noanneal"] = titles["default"] + ", ANNEAL False"
    titles["default"] += f", ANNEAL {native.ANNEAL}"
    for setting in learning:
        base = setting.removesuffix("+finder")
        title = f"on after {base[5:]} nodes" if base.startswith("after") else titles.get(base)
        if setting.endswith("+finder") and title:
            titles[setting] = title + ", with the finder"
        elif title:
            titles[setting] = title
    for setting in learning:
        if len(learning) > 1:
            print(f"\n==== learning {titles[setting]} ====")
        on_corpus = [r for r in corpus if r["setting"] == setting]
        on_sparse = [r for r in sparse if r["setting"] == setting]
        report(on_corpus, on_sparse, args.top, clock, size)
    if args.output:
        data = {"load": load, "lean": args.lean, "engine": engine, "corpus": corpus}
        data.update(learning=list(learning), sparse_size=size)
        data.update(sparse=sparse, lean_racer=not args.no_lean_racer)
        Path(args.output).write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    main()
