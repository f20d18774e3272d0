"""``nurikabe print``: a PDF booklet of puzzles with their solutions at the back.

The puzzles come, in this order, from the SRC arguments (puzzle files, URLs, ``-``, or
JSON-lines files of many), from a selection of the bundled collection
(``--collection 10x10 --level hard --count 20 --start 300``) and from the generator
(``--generate 10x10 --difficulty easy --count 5 --seed 1``). A puzzle given without
its solution is solved (the exact solver, within ``--timeout``) and refused unless its
solution is unique; one given without its level is graded (``--no-grade`` skips that).
``--svg-dir`` also writes one SVG per puzzle (and per solution); there is no PNG
output. The PDF is written to a temporary file beside ``-o`` and renamed at the end,
so Ctrl-C or an error never leaves half a booklet.

The module is not named ``print``: importing ``nurikabe.cli.print`` would bind the name
``print`` in the ``nurikabe.cli`` package and hide the built-in function there.
reportlab is imported only when the command runs.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .common import CliError, count_option, read_source, seconds_option, source_id

if TYPE_CHECKING:
    from ..render.pdf import BookletPuzzle

PER_PAGE = (1, 2, 4, 6)  # as render.pdf.PER_PAGE, which needs reportlab to import
PAPERS = ("a4", "letter")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from ..generator import DIFFICULTIES
    from .batching import default_jobs
    from .generate import parse_size

    p = subparsers.add_parser(
        "print",
        help="print puzzles as a PDF booklet, solutions at the back",
        description="Lay puzzles out on PDF pages (vector graphics), with a title, their "
        "numbers and levels, and their solutions at the back. Puzzles come from SRC "
        "files or URLs (a JSON-lines file gives many), from the bundled collection "
        "(--collection) and from the generator (--generate), in that order. "
        "Exit 0: written; 2: bad input; 130: interrupted (nothing written).",
    )
    p.add_argument("src", nargs="*", metavar="SRC", help="puzzle file, URL, '-', JSON-lines file")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the PDF to write")
    p.add_argument(
        "--per-page", type=int, choices=PER_PAGE, default=4, help="puzzles per page (default 4)"
    )
    p.add_argument(
        "--paper", type=str.lower, choices=PAPERS, default="a4", help="paper size (default a4)"
    )
    p.add_argument("--title", default="Nurikabe", help="heads every page (default Nurikabe)")
    p.add_argument("--author", default=None, help="an author line beneath the title")
    p.add_argument(
        "--no-solutions", dest="solutions", action="store_false", help="leave out the solutions"
    )
    p.add_argument("--score", action="store_true", help="print each puzzle's grade score too")
    p.add_argument("--svg-dir", default=None, metavar="DIR", help="also write one SVG per puzzle")
    p.add_argument(
        "--timeout",
        type=seconds_option,
        default=30.0,
        metavar="S",
        help="seconds to solve or grade one puzzle given without solution or level (default 30)",
    )
    p.add_argument(
        "--no-grade", dest="grade", action="store_false", help="do not grade unlabelled puzzles"
    )
    p.add_argument(
        "--count", type=count_option, default=None, help="how many from --collection/--generate"
    )
    c = p.add_argument_group("from the bundled collection")
    c.add_argument("--collection", default=None, metavar="NAME", help="e.g. 10x10")
    c.add_argument("--level", default=None, help="only puzzles of this grade")
    c.add_argument(
        "--start", type=int, default=0, metavar="N", help="from puzzle number N (default 0)"
    )
    c.add_argument("--db", default=None, help="database path (default: bundled)")
    g = p.add_argument_group("from the generator")
    g.add_argument("--generate", type=parse_size, default=None, metavar="RxC", help="grid size")
    g.add_argument("--difficulty", choices=DIFFICULTIES, default=None, help="default medium")
    g.add_argument("--seed", type=int, default=None, help="batch seed (default: random)")
    g.add_argument("--jobs", type=int, default=default_jobs(), help="worker processes")
    p.set_defaults(func=cmd_print)


# -- where the puzzles come from ----------------------------------------------------------------


def _level_of(meta: dict[str, Any]) -> tuple[str | None, int | None]:
    """The level and score a record carries (``"grade": {...}`` as generate writes, or flat)."""
    graded = meta.get("grade")
    source = graded if isinstance(graded, dict) else meta
    level, score = source.get("level"), source.get("score")
    return (
        level if isinstance(level, str) else None,
        score if isinstance(score, int) and not isinstance(score, bool) else None,
    )


def _from_sources(sources: list[str]) -> list[tuple[Any, ...]]:
    """(puzzle, solution, level, score, name) of every puzzle the SRC arguments hold."""
    from ..errors import FormatError, NurikabeError
    from ..formats import load
    from ..formats.jsonl import iter_documents

    found: list[tuple[Any, ...]] = []
    for src in sources:
        text, name = read_source(src)
        try:
            if text.lstrip().startswith("{"):
                documents = list(iter_documents(text))
            else:
                documents = [load(text, source=name)]
        except FormatError as exc:
            raise CliError(str(exc.located(name))) from None
        except NurikabeError as exc:
            raise CliError(f"{name}: {exc}") from None
        for k, document in enumerate(documents, start=1):
            ident = source_id(src, document)
            if len(documents) > 1 and not document.meta.get("id"):
                ident = f"{ident}:{k}"
            level, score = _level_of(document.meta)
            found.append((document.puzzle, document.solution, level, score, ident))
    return found


def _from_collection(args: argparse.Namespace) -> list[tuple[Any, ...]]:
    from .. import collection as store

    target = Path(args.db) if args.db else store.bundled_path()
    if not target.exists():
        raise CliError(f"{target}: no collection database")
    try:
        conn = store.open_db(target, readonly=True)
    except sqlite3.DatabaseError as exc:
        raise CliError(f"{target}: {exc}") from None
    try:
        picked = []
        for e in store.entries(conn, collection=args.collection, level=args.level):
            if e.number < args.start:
                continue
            picked.append((e.puzzle, e.solution, e.level, e.score, f"{e.collection}-{e.number}"))
            if args.count is not None and len(picked) == args.count:
                break
    finally:
        conn.close()
    if not picked:
        level = f" of level {args.level}" if args.level else ""
        raise CliError(
            f"no puzzles{level} in collection {args.collection} from number {args.start}"
        )
    return picked


def _from_generator(args: argparse.Namespace) -> tuple[list[tuple[Any, ...]], bool]:
    import random

    from ..generator.jobs import derive_seed
    from ..puzzle import Board, Puzzle
    from .generate import run_jobs

    rows, cols = args.generate
    count = args.count or 1
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    if args.seed is None:
        print(f"nurikabe: --seed {seed}", file=sys.stderr)
    jobs = [
        {
            "index": i,
            "rows": rows,
            "cols": cols,
            "seed": derive_seed(seed, i),
            "difficulty": args.difficulty or "medium",
            "seconds": 120.0,
        }
        for i in range(count)
    ]
    records, interrupted = run_jobs(jobs, max(1, args.jobs))
    made = []
    for record in records:
        if "error" in record:
            raise CliError(f"generated puzzle {record['index'] + 1}: {record['error']}")
        puzzle = Puzzle.from_clues(record["rows"], record["cols"], record["clues"])
        level, score = _level_of(record)
        made.append(
            (puzzle, Board.from_rows(puzzle, record["solution"]), level, score, record["url"])
        )
    return made, interrupted


def _booklet_items(found: list[tuple[Any, ...]], args: argparse.Namespace) -> list[BookletPuzzle]:
    """Every puzzle with its solution (solved if need be) and level (graded if need be)."""
    from ..render.pdf import BookletError, BookletPuzzle
    from .progress import progress

    items = []
    for puzzle, solution, level, score, name in progress(found, total=len(found), desc="read"):
        try:
            item = BookletPuzzle.solved(
                puzzle, solution, level=level, score=score, name=name, seconds=args.timeout
            )
        except BookletError as exc:
            raise CliError(str(exc)) from None
        if item.level is None and args.grade:
            from dataclasses import replace

            from ..logic import grade

            graded = grade(puzzle, seconds=args.timeout)
            item = replace(item, level=graded.level, score=graded.score)
        items.append(item)
    return items


# -- writing ------------------------------------------------------------------------------------


def _write_svgs(items: list[BookletPuzzle], folder: str, solutions: bool) -> None:
    """``001.svg`` per puzzle and ``001-solution.svg`` per solution, in `folder`."""
    from ..render import render_svg

    where = Path(folder)
    width = max(3, len(str(len(items))))
    try:
        where.mkdir(parents=True, exist_ok=True)
        for number, item in enumerate(items, start=1):
            stem = f"{number:0{width}d}"
            label = f"Nurikabe {number}" + (f" ({item.level})" if item.level else "")
            (where / f"{stem}.svg").write_text(render_svg(item.puzzle, title=label), "utf-8")
            if solutions:
                picture = render_svg(item.puzzle, item.solution, title=f"{label}, solution")
                (where / f"{stem}-solution.svg").write_text(picture, "utf-8")
    except OSError as exc:
        raise CliError(f"{folder}: cannot write: {exc.strerror or exc}") from None


def _temporary_beside(path: Path) -> Path:
    """A new empty file in the folder of `path`, to be renamed to it when complete."""
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise CliError(f"{path}: cannot write: {exc.strerror or exc}") from None
    os.close(fd)
    return Path(name)


def cmd_print(args: argparse.Namespace) -> int:
    if not args.src and args.collection is None and args.generate is None:
        raise CliError("nothing to print: give SRC, --collection or --generate")
    for option, needs in (
        ("level", "collection"),
        ("start", "collection"),
        ("difficulty", "generate"),
    ):
        given = getattr(args, option)
        if given not in (None, 0) and getattr(args, needs) is None:
            raise CliError(f"--{option} needs --{needs}")
    output = Path(args.output)
    if output.is_dir():
        raise CliError(f"{output}: is a folder, not a file")
    # Check that the PDF can be written before any long work.
    partial = _temporary_beside(output)
    try:
        found = _from_sources(args.src)
        if args.collection is not None:
            found += _from_collection(args)
        if args.generate is not None:
            made, interrupted = _from_generator(args)
            if interrupted:
                print("nurikabe: interrupted; nothing written", file=sys.stderr)
                return 130
            found += made
        items = _booklet_items(found, args)
        pages = _render(items, partial, args)
        umask = os.umask(0)
        os.umask(umask)
        partial.chmod(0o666 & ~umask)  # mkstemp made it private; a PDF is not
        partial.replace(output)
        if args.svg_dir:
            _write_svgs(items, args.svg_dir, args.solutions)
    finally:
        partial.unlink(missing_ok=True)
    many = "puzzle" if len(items) == 1 else "puzzles"
    print(f"{output}: {len(items)} {many}, {pages} pages", file=sys.stderr)
    return 0


def _render(items: list[BookletPuzzle], path: Path, args: argparse.Namespace) -> int:
    try:
        from ..render.pdf import write_booklet
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("reportlab"):
            raise CliError("printing needs reportlab: pip install 'nurikabe[print]'") from None
        raise
    from .progress import counter

    grids = len(items) * (2 if args.solutions else 1)
    with counter(grids, desc="print", unit="grid") as set_done:
        drawn = 0

        def tick() -> None:
            nonlocal drawn
            drawn += 1
            set_done(drawn)

        return write_booklet(
            items,
            path,
            per_page=args.per_page,
            paper=args.paper,
            title=args.title,
            author=args.author,
            solutions=args.solutions,
            scores=args.score,
            on_grid=tick,
        )
