"""``nurikabe collection``: build, list, show, export and compare the bundled collection.

- ``build -o PATH [--seed S] [--jobs N] [--cluster ADDRESS] [--limit N] [--remake]``: regenerate
  the database from a seed (the same seed gives the same puzzles and rows whatever
  --jobs or --cluster; `nurikabe.batch` runs the jobs) into PATH, never into the
  bundled file. PATH is checked before any puzzle is made; an existing PATH keeps the
  rows the build does not remake (other collections) and records in
  its ``former`` table every puzzle the build replaces with another; the new file
  is swapped into place atomically. Ctrl-C or SIGTERM keeps the puzzles done (exit 130),
  and the same build run again resumes: it keeps the puzzles PATH holds from the same
  seeds and generator version (remaking them would give the same puzzles) and makes
  only the rest (``--remake``: all of them).
- ``list``: the collections and their grade counts, or the puzzles of one collection.
- ``show N``: draw puzzle N (``--solution`` for its solution).
- ``export``: write jsonl records or puzz.link URLs.
- ``regrade``: grade the stored puzzles again with the current logic engine, print what
  changed and store it, one puzzle per transaction (``--check``: only tell, exit 1 if
  anything changed; storing needs ``--db PATH``, as the bundled file is never written);
  for a grader change that leaves the puzzles as they are, it does what a rebuild would.
  A walkthrough that runs out of ``--seconds`` keeps its stored grade (exit code 4).

- ``former OLD --db PATH``: record in PATH the puzzles the collection file OLD held
  under keys that PATH now fills with other puzzles (and OLD's own former puzzles), so
  that the game never shows a player's progress on the new puzzle (a build onto a copy
  of the previous file records them by itself). Prints how many were added.

A database that cannot be used (missing, not a collection, damaged, read-only, locked
by another program) ends the command with one line and exit code 2.
- ``stats``: generated puzzles (of the database, or of a jsonl file with ``--generated``)
  side by side with a published corpus (jsonl file).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from .. import collection as store
from .. import database
from .batching import batch_options
from .common import CliError, number_option, seconds_option, write_output
from .generate import run_jobs

DEFAULT_SEED = 2026


def _open(path: str | None) -> sqlite3.Connection:
    target = Path(path) if path else store.bundled_path()
    if not target.exists():
        raise CliError(f"{target}: no collection database (run: nurikabe collection build)")
    return store.open_db(target, readonly=True)


def cmd_former(args: argparse.Namespace) -> int:
    old = _open(args.old)
    old.close()
    conn = store.open_db(args.db)
    try:
        added = store.record_former(args.old, conn)
        total = len(store.former(conn))
    finally:
        store.close_db(conn)
    print(f"{args.db}: {added} former puzzles recorded ({total} in all)")
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    if args.output is None:
        raise CliError(
            "give -o PATH: a build never writes the bundled collection "
            "(copy PATH into the package by hand to ship it)"
        )
    jobs = store.execution_order(store.build_jobs(args.seed))
    if args.limit is not None:
        jobs = jobs[: args.limit]
    where = {job["index"]: (job["collection"], job["number"]) for job in jobs}
    failed = made = 0
    with store.build_into(args.output) as conn:  # checks the path before any work
        kept = set() if args.remake else store.already_made(conn, jobs)
        if kept:
            # at numbers players have: kept whoever made them (`store.KEPT`)
            held = sum(1 for i in kept if where[i][1] < store.KEPT.get(where[i][0], 0))
            why = []
            if held:
                why.append(f"{held} kept as players have them")
            if len(kept) > held:
                why.append(f"{len(kept) - held} made by this seed and generator version")
            print(
                f"{args.output}: resuming: {len(kept)} of {len(jobs)} puzzles are there "
                f"already ({', '.join(why)}; --remake makes them again)",
                file=sys.stderr,
            )
        work = [
            {k: v for k, v in job.items() if k not in ("collection", "number")}
            for job in jobs
            if job["index"] not in kept
        ]

        def keep(record: dict[str, Any]) -> None:
            nonlocal failed, made
            if "error" in record:
                failed += 1
                print(f"nurikabe: puzzle {record['index']}: {record['error']}", file=sys.stderr)
                return
            name, number = where[record["index"]]
            with database.transaction(conn):  # each puzzle is stored as soon as it is made
                store.store(conn, name, number, record)
            made += 1

        records, interrupted = run_jobs(
            work, args.jobs, desc="collection", on_record=keep, cluster=args.cluster
        )
        if not interrupted:  # a job that raised (said on stderr) gave no record
            failed += len(work) - len(records)
        with database.transaction(conn):
            store.set_meta(
                conn, **store.build_meta(args.seed), complete=not interrupted and not failed
            )
    print(
        f"{args.output}: {made} puzzles made" + (f", {len(kept)} kept" if kept else ""),
        file=sys.stderr,
    )
    if interrupted:
        return 130
    return 0 if not failed else 1


def cmd_list(args: argparse.Namespace) -> int:
    conn = _open(args.db)
    if args.collection is None:
        lines = []
        for name, count in store.collections(conn):
            levels = Counter(e.level for e in store.entries(conn, collection=name))
            spread = ", ".join(f"{lv} {levels[lv]}" for lv in levels)
            lines.append(f"{name}: {count} puzzles ({spread})")
        write_output("\n".join(lines) or "(empty)", None)
        return 0
    lines = [
        f"{e.number:4d}  {e.level or '-':8s} {e.score if e.score is not None else '-':>5}  "
        f"{len(e.puzzle.clues):3d} clues  {e.puzzle.to_url()}"
        for e in store.entries(conn, collection=args.collection, level=args.level)
    ]
    write_output("\n".join(lines) or "(empty)", None)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from ..render import render_text

    conn = _open(args.db)
    entry = store.get(conn, args.number, args.collection)
    if entry is None:
        raise CliError(f"no puzzle {args.number} in collection {args.collection}")
    head = (
        f"{entry.collection} #{entry.number}: {entry.puzzle.rows}x{entry.puzzle.cols}, "
        f"{entry.level} (score {entry.score})"
    )
    picture = render_text(entry.puzzle, entry.solution if args.solution else None)
    write_output(f"{head}\n{picture}", None)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    conn = _open(args.db)
    items = list(store.entries(conn, collection=args.collection, level=args.level))
    if args.format == "urls":
        text = "\n".join(e.puzzle.to_url() for e in items)
    else:
        text = "\n".join(json.dumps(e.to_json()) for e in items)
    write_output(text or "", args.output)
    return 0


def cmd_regrade(args: argparse.Namespace) -> int:
    from ..logic import grade
    from .progress import progress

    if not args.check and args.db is None:
        raise CliError(
            "give --db PATH to store new grades (the bundled collection is never "
            "written), or --check to only compare"
        )
    path = Path(args.db) if args.db else store.bundled_path()
    conn = _open(args.db)
    if not args.check:
        conn.close()
        conn = store.open_db(path)
    items = list(store.entries(conn, collection=args.collection, level=args.level))
    changed = stopped = 0
    try:
        for e in progress(items, total=len(items), desc="regrade"):
            # The time limit only stops a walkthrough, never steers it, so any budget
            # that lets it finish gives the grade the generator stored; one that ran
            # out (a loaded machine) says nothing about the puzzle and is not stored.
            new = grade(e.puzzle, seconds=args.seconds)
            if new.stopped:
                stopped += 1
                print(
                    f"{e.collection} #{e.number}: ran out of {args.seconds:g} s; "
                    f"kept {e.level} {e.score}",
                    file=sys.stderr,
                )
                continue
            if (new.level, new.score) == (e.level, e.score):
                continue
            changed += 1
            print(
                f"{e.collection} #{e.number}: {e.level} {e.score} -> {new.level} {new.score}",
                file=sys.stderr,
            )
            if not args.check:
                with database.transaction(conn):
                    store.set_grade(conn, e.collection, e.number, new.level, new.score)
    except KeyboardInterrupt:
        print(f"nurikabe: interrupted; {changed} grades changed so far", file=sys.stderr)
        return 130
    finally:
        if args.check:
            conn.close()
        else:
            store.close_db(conn)
    what = "differ" if args.check else "changed"
    unsure = f" ({stopped} ran out of time, not compared)" if stopped else ""
    print(f"{path}: {changed} of {len(items)} grades {what}{unsure}", file=sys.stderr)
    if args.check and changed:
        return 1
    return 4 if stopped else 0


def quality_profile(puzzles: list[tuple[Any, str | None]]) -> dict[str, Any]:
    """Clues per 100 cells, white share, island sizes and grades of (puzzle, level) pairs."""
    sizes: Counter[int] = Counter()
    levels: Counter[str] = Counter()
    density = white = 0.0
    for puzzle, level in puzzles:
        values = [v for v in puzzle.clues.values() if v > 0]
        density += 100 * len(puzzle.clues) / puzzle.area
        white += sum(values) / puzzle.area
        sizes.update(min(v, 10) for v in values)
        levels[level or "?"] += 1
    n = max(1, len(puzzles))
    islands = max(1, sum(sizes.values()))
    return {
        "count": len(puzzles),
        "clues_per_100": density / n,
        "white_share": white / n,
        "islands": {k: sizes[k] / islands for k in range(1, 11)},
        "levels": dict(levels),
    }


def stats_table(generated: dict[str, Any], published: dict[str, Any]) -> str:
    """The side-by-side quality table."""
    from ..logic import LEVELS

    rows = [
        ("puzzles", f"{generated['count']}", f"{published['count']}"),
        (
            "clues per 100 cells",
            f"{generated['clues_per_100']:.1f}",
            f"{published['clues_per_100']:.1f}",
        ),
        ("white share", f"{generated['white_share']:.3f}", f"{published['white_share']:.3f}"),
    ]
    for k in range(1, 11):
        label = f"islands of size {k}" + ("+" if k == 10 else "")
        rows.append((label, f"{generated['islands'][k]:.3f}", f"{published['islands'][k]:.3f}"))
    big = [sum(side["islands"][k] for k in range(5, 11)) for side in (generated, published)]
    rows.append(("islands of size 5+", f"{big[0]:.3f}", f"{big[1]:.3f}"))
    for level in (*LEVELS, "?"):
        g, p = generated["levels"].get(level, 0), published["levels"].get(level, 0)
        if g or p:
            rows.append((f"grade {level}", str(g), str(p)))
    width = max(len(r[0]) for r in rows)
    lines = [f"{'':{width}}  {'generated':>10}  {'published':>10}"]
    lines += [f"{a:{width}}  {b:>10}  {c:>10}" for a, b, c in rows]
    return "\n".join(lines)


def _read_jsonl(path: str) -> list[Any]:
    from ..formats.jsonl import read_file

    try:
        return read_file(path)
    except OSError as exc:
        raise CliError(f"{path}: cannot read: {exc}") from None


def _recorded_level(meta: dict[str, Any]) -> str | None:
    """The level a jsonl record names (``"grade": {"level": ...}``, as generate writes)."""
    graded = meta.get("grade")
    level = graded.get("level") if isinstance(graded, dict) else None
    return level if isinstance(level, str) else None


def cmd_stats(args: argparse.Namespace) -> int:
    from ..logic import grade

    size = args.size
    if args.corpus is None:
        raise CliError("give --corpus FILE (a jsonl file of published puzzles)")
    if args.generated is not None:
        # A jsonl file, such as the output of `nurikabe generate --format jsonl`.
        generated = [
            (d.puzzle, _recorded_level(d.meta))
            for d in _read_jsonl(args.generated)
            if (d.puzzle.rows, d.puzzle.cols) == size
        ]
    else:
        conn = _open(args.db)
        generated = [
            (e.puzzle, e.level)
            for e in store.entries(conn)
            if (e.puzzle.rows, e.puzzle.cols) == size
        ]
    if args.level is not None:
        generated = [(p, level) for p, level in generated if level == args.level]
    docs = [d for d in _read_jsonl(args.corpus) if (d.puzzle.rows, d.puzzle.cols) == size]
    docs = docs[: args.sample] if args.sample > 0 else docs
    published = [(d.puzzle, grade(d.puzzle).level if args.grade else None) for d in docs]
    if args.level is not None and args.grade:
        published = [(p, level) for p, level in published if level == args.level]
    write_output(stats_table(quality_profile(generated), quality_profile(published)), None)
    return 0


def register(subparsers: Any) -> None:
    from .generate import parse_size

    p = subparsers.add_parser(
        "collection",
        help="the bundled puzzle collection",
        description="Build, read and measure the bundled collection.",
    )
    sub = p.add_subparsers(dest="action", metavar="ACTION")
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])

    b = sub.add_parser("build", help="rebuild the database from a seed")
    b.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"default {DEFAULT_SEED}")
    batch_options(b)
    b.add_argument(
        "-o",
        "--output",
        default=None,
        help="database path (required: the bundled file is never written; an existing "
        "file keeps the rows the build does not remake)",
    )
    b.add_argument(
        "--limit",
        type=number_option(int, low=1, what="--limit"),
        default=None,
        help="only the first N puzzles",
    )
    b.add_argument(
        "--remake",
        action="store_true",
        help="make every puzzle again (by default a build onto an earlier one resumes: "
        "puzzles the output holds from the same seed and generator version are kept)",
    )
    b.set_defaults(func=cmd_build)

    def db_option(q: argparse.ArgumentParser) -> None:
        q.add_argument("--db", default=None, help="database path (default: bundled)")

    ls = sub.add_parser("list", help="collections, or the puzzles of one")
    ls.add_argument("collection", nargs="?", default=None, help="e.g. 10x10")
    ls.add_argument("--level", default=None, help="only this grade")
    db_option(ls)
    ls.set_defaults(func=cmd_list)

    sh = sub.add_parser("show", help="draw puzzle N")
    sh.add_argument("number", type=number_option(int, low=0, high=2**63 - 1, what="N"))
    sh.add_argument("--collection", default="10x10", help="default 10x10")
    sh.add_argument("--solution", action="store_true", help="draw the solution too")
    db_option(sh)
    sh.set_defaults(func=cmd_show)

    ex = sub.add_parser("export", help="write jsonl records or URLs")
    ex.add_argument("--format", choices=("jsonl", "urls"), default="jsonl")
    ex.add_argument("--collection", default=None)
    ex.add_argument("--level", default=None)
    ex.add_argument("-o", "--output", default=None, help="output file (default stdout)")
    db_option(ex)
    ex.set_defaults(func=cmd_export)

    rg = sub.add_parser(
        "regrade", help="grade the stored puzzles again; store and print what changed"
    )
    rg.add_argument("--collection", default=None, help="only this collection")
    rg.add_argument("--level", default=None, help="only puzzles stored at this level")
    rg.add_argument(
        "--check", action="store_true", help="store nothing; exit 1 if any grade differs"
    )
    rg.add_argument(
        "--seconds",
        type=seconds_option,
        default=60.0,
        help="CPU time for each walkthrough (default 60, as the generator grades); a "
        "puzzle that runs out keeps its stored grade and the exit code is 4",
    )
    db_option(rg)
    rg.set_defaults(func=cmd_regrade)

    fm = sub.add_parser(
        "former", help="record what an older file held under keys that now hold other puzzles"
    )
    fm.add_argument("old", help="the older collection file (read only)")
    fm.add_argument("--db", required=True, help="the newer collection file, written")
    fm.set_defaults(func=cmd_former)

    st = sub.add_parser("stats", help="compare with published puzzles")
    st.add_argument("--corpus", default=None, help="jsonl file of published puzzles")
    st.add_argument("--size", type=parse_size, default=(10, 10), metavar="RxC")
    st.add_argument(
        "--generated",
        default=None,
        metavar="FILE",
        help="generated puzzles from a jsonl file (as `generate --format jsonl` writes) "
        "instead of the database",
    )
    st.add_argument(
        "--level",
        default=None,
        help="only generated puzzles of this level (and published ones graded so)",
    )
    st.add_argument(
        "--sample",
        type=number_option(int, low=0, what="--sample"),
        default=60,
        help="published puzzles compared (60; 0: all)",
    )
    st.add_argument(
        "--no-grade", dest="grade", action="store_false", help="skip grading the published puzzles"
    )
    db_option(st)
    st.set_defaults(func=cmd_stats)
