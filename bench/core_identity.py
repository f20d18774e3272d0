"""Whether two builds of the C core `_csolve` do exactly the same work, and how fast each is.

A change meant as a pure speed-up of the core must not change a single deduction: the
logic engine reads the core's `nodes`, `propagations` and `probes` (its walkthroughs and
grades depend on them), and the native engine's search tree depends on every deduction's
order. This runs each puzzle through the core in the two configurations its callers use
(``strong``: `strong=True`, as `solver/native.py`; ``logic``: `strong=False, cpu=True`,
as `solver/refuter.py`), asks for up to two solutions as `Limit(solutions=2)` does, and
records per (puzzle, configuration) the solutions, `nodes`, `propagations`, `probes`,
whether the search completed, which limit stopped it, the CPU seconds, and (in a build
compiled with ``-DCSOLVE_TRACE``) `trace`, a hash of every fixpoint `propagate()` reached,
in order. The puzzles: the corpus (a node limit `--corpus-nodes` as a guard), random
sparse 15x15 grids (`bench/solve.py`'s `sparse_puzzle`, seeds 0..`--sparse`-1) and corpus
puzzles of at most 225 cells with random clues turned `?` (`--question` of them), the
last two under a node limit `--nodes`, so that rules the corpus rarely reaches are run.

`--memo` runs the last build's ``logic`` configuration with a memo of fixpoints
(`_csolve.Memo`, as `solver/refuter.py` passes one), twice with the same memo, the
second run answered from it: both runs must do the same work, and the second is the one
compared (a memo must change no fixpoint, no count and no trace, only the time).

`--module` (repeatable) loads a build from a file instead of the installed one; with two
modules every puzzle runs on each in turn (interleaved, so a busy machine skews both
alike), the two are compared and their CPU seconds set side by side. `compare` compares
two JSON files written with `-o`. A difference in anything but the seconds exits 1.

    gcc -O2 -std=c99 -fPIC -shared -DCSOLVE_TRACE -I$(python -c 'import sysconfig; \\
        print(sysconfig.get_paths()["include"])') src/nurikabe/solver/_csolve.c \\
        src/nurikabe/solver/_csolve_py.c -o /tmp/a/_csolve.so
    nice .venv/bin/python bench/core_identity.py run --module /tmp/a/_csolve.so \\
        --module /tmp/b/_csolve.so -o bench/results/core-identity.json
    .venv/bin/python bench/core_identity.py compare before.json after.json
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import json
import random
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from nurikabe.formats.jsonl import read_file
from nurikabe.puzzle import UNKNOWN_CLUE, Puzzle
from nurikabe.solver import _csolve

sys.path.insert(0, str(Path(__file__).resolve().parent))
from solve import sparse_puzzle  # bench/solve.py's sparse generator

CONFIGS = {"strong": {"strong": True}, "logic": {"cpu": True}}
"""The core's keyword arguments as its two callers pass them."""

WORK = ("solutions", "nodes", "propagations", "probes", "complete", "stop", "trace")
"""The fields that must be equal between two builds."""

Case = tuple[str, int, int, list[tuple[int, int]], int]
"""A puzzle to run: key, rows, columns, clues (cell, value; -1 for `?`), node limit."""


def load(path: str) -> ModuleType:
    """The core built at `path` (a shared object exporting `PyInit__csolve`)."""
    name = "nurikabe.solver._csolve"
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    if spec is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def clue_list(puzzle: Puzzle) -> list[tuple[int, int]]:
    return [(cell, -1 if v == UNKNOWN_CLUE else v) for cell, v in puzzle.clues.items()]


def cases(args: argparse.Namespace) -> list[Case]:
    out: list[Case] = []
    docs = list(read_file(args.corpus)) if args.corpus else []
    for k, doc in enumerate(docs):
        p = doc.puzzle
        out.append((doc.meta.get("id", str(k)), p.rows, p.cols, clue_list(p), args.corpus_nodes))
    for seed in range(args.sparse):
        p = sparse_puzzle(15, 15, 0.45, random.Random(seed))
        out.append((f"sparse-{seed}", p.rows, p.cols, clue_list(p), args.nodes))
    rng = random.Random(14)
    small = [d for d in docs if d.puzzle.rows * d.puzzle.cols <= 225]
    for j in range(args.question if small else 0):
        doc = rng.choice(small)
        clues = clue_list(doc.puzzle)
        for i in rng.sample(range(len(clues)), min(len(clues), rng.choice((1, 1, 2, 3)))):
            clues[i] = (clues[i][0], -1)
        key = f"q{j}-{doc.meta.get('id', '')}"
        out.append((key, doc.puzzle.rows, doc.puzzle.cols, clues, args.nodes))
    return out


def run_one(module: ModuleType, case: Case, config: str, memo: bool = False) -> dict[str, Any]:
    """One run; with `memo` (``logic`` only) two with one memo, the second returned."""
    if not (memo and config == "logic"):
        return _run(module, case, config, None)
    shared = module.Memo()
    cold = _run(module, case, config, shared)
    warm = _run(module, case, config, shared)
    if any(cold[f] != warm[f] for f in WORK):
        raise SystemExit(f"{case[0]}: a run answered from the memo did other work")
    return warm


def _run(module: ModuleType, case: Case, config: str, memo: Any) -> dict[str, Any]:
    _, rows, cols, clues, nodes = case
    kwargs: dict[str, Any] = dict(CONFIGS[config])
    if memo is not None:
        kwargs["memo"] = memo
    core = module.Search(rows, cols, clues, bytes(rows * cols), -1.0, nodes, **kwargs)
    began = time.process_time()
    solutions = []
    while len(solutions) < 2:
        bits = core.next()
        if bits is None:
            break
        solutions.append(bits.hex())
    cpu = time.process_time() - began
    return {
        "solutions": solutions,
        "nodes": core.nodes,
        "propagations": core.propagations,
        "probes": core.probes,
        "complete": bool(core.complete),
        "stop": core.stop,
        "trace": getattr(core, "trace", None),
        "cpu": cpu,
    }


def compare(
    a: dict[str, dict[str, Any]], b: dict[str, dict[str, Any]], names: tuple[str, str]
) -> int:
    """Prints the differences and the CPU seconds side by side; the number of differences."""
    bad = 0
    for key in sorted(set(a) | set(b)):
        if key not in a or key not in b:
            print(f"{key}: only in {names[0] if key in a else names[1]}")
            bad += 1
            continue
        diff = [f for f in WORK if a[key].get(f) != b[key].get(f)]
        traced = a[key].get("trace") is not None and b[key].get("trace") is not None
        if not traced:
            diff = [f for f in diff if f != "trace"]
        if diff:
            bad += 1
            shown = ", ".join(
                f"{f} {a[key].get(f)!r} / {b[key].get(f)!r}" for f in diff if f != "solutions"
            )
            print(f"{key}: differs in {', '.join(diff)}: {shown}")
    common = sorted(set(a) & set(b))
    traced = sum(a[k].get("trace") is not None and b[k].get("trace") is not None for k in common)
    print(f"{len(common)} runs compared ({traced} with fixpoint traces): {bad} differ")
    for config in CONFIGS:
        keys = [k for k in common if k.endswith("/" + config)]
        ta = sum(a[k]["cpu"] for k in keys)
        tb = sum(b[k]["cpu"] for k in keys)
        print(
            f"{config:7} {len(keys):4} runs  CPU s {names[0]} {ta:8.2f}  {names[1]} {tb:8.2f}",
            end="",
        )
        print(f"  ratio {tb / ta:.3f}" if ta else "")
        slow = sorted(keys, key=lambda k: -a[k]["cpu"])[:8]
        for k in slow:
            print(f"   {k:24} {a[k]['cpu']:7.3f} {b[k]['cpu']:7.3f}  nodes {a[k]['nodes']}")
    return bad


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run the puzzles on one or two builds")
    run.add_argument("--module", action="append", default=[], help="a build's .so (repeatable)")
    run.add_argument("--corpus", default="../shared/corpus/puzzles.jsonl", help="'' for none")
    run.add_argument("--only", default="", help="comma-separated keys (corpus ids, sparse-3)")
    run.add_argument("--corpus-nodes", type=int, default=100000)
    run.add_argument("--sparse", type=int, default=12)
    run.add_argument("--question", type=int, default=60)
    run.add_argument("--nodes", type=int, default=3000)
    run.add_argument("--configs", default=",".join(CONFIGS))
    run.add_argument(
        "--memo", action="store_true", help="the last build's logic runs with a memo (twice)"
    )
    run.add_argument("-o", "--output", help="write the records as JSON here (one build)")
    cmp = sub.add_parser("compare", help="compare two JSON files written by run -o")
    cmp.add_argument("a")
    cmp.add_argument("b")
    args = parser.parse_args()
    if args.command == "compare":
        a = json.loads(Path(args.a).read_text())
        b = json.loads(Path(args.b).read_text())
        sys.exit(1 if compare(a, b, ("A", "B")) else 0)
    modules = [load(p) for p in args.module] or [_csolve]
    if len(modules) > 2:
        raise SystemExit("at most two modules")
    only = {x.strip() for x in args.only.split(",") if x.strip()}
    configs = [c for c in args.configs.split(",") if c]
    records: list[dict[str, dict[str, Any]]] = [{} for _ in modules]
    for case in cases(args):
        if only and case[0] not in only:
            continue
        for config in configs:
            for k, (module, out) in enumerate(zip(modules, records, strict=True)):
                memo = args.memo and k == len(modules) - 1
                out[f"{case[0]}/{config}"] = run_one(module, case, config, memo)
    if args.output:
        Path(args.output).write_text(json.dumps(records[-1], indent=0) + "\n")
    if len(modules) == 2:
        sys.exit(1 if compare(records[0], records[1], ("A", "B")) else 0)
    total = sum(r["cpu"] for r in records[0].values())
    print(f"{len(records[0])} runs, {total:.2f} s CPU")


if __name__ == "__main__":
    main()
