"""Printed booklets (nurikabe.render.pdf and ``nurikabe print``), checked by reading the PDF back.

The PDF is read with pypdf: page counts, the text of headers and labels, the paper's
media box, no images, and the drawing operators of each grid mapped back to cells
(black cells against the solution, clues in their cells). Pages are also rendered with
pdftoppm (poppler-utils) and the pixels checked: the grid is drawn, and nothing
reaches the page's edge.
"""

from __future__ import annotations

import io
import json
import math
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from nurikabe import Board, Puzzle
from nurikabe import collection as store
from nurikabe.cli import main
from nurikabe.puzzle import UNKNOWN_CLUE
from nurikabe.render import pdf as pdf_module
from nurikabe.render.pdf import (
    MIN_CELL,
    BookletError,
    BookletPuzzle,
    write_booklet,
)
from nurikabe.render.text import clue_label

DATA = Path(__file__).resolve().parents[2] / "src" / "nurikabe" / "data"
EXAMPLE = DATA / "example.txt"
EXAMPLE_URL = "https://puzz.link/p?nurikabe/7/7/2g3p4j1m4p2g2i5k"
AMBIGUOUS = "3 3\n2 0 0\n0 0 0\n0 0 2\n"
UNSOLVABLE = "2 3\n1 0 3\n0 0 0\n"
A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)


def _entries(count: int, collection: str = "10x10") -> list[store.Entry]:
    conn = store.open_db(readonly=True)
    try:
        out = []
        for entry in store.entries(conn, collection=collection):
            out.append(entry)
            if len(out) == count:
                return out
    finally:
        conn.close()
    raise AssertionError(f"the bundled collection has fewer than {count} {collection} puzzles")


def _items(count: int, collection: str = "10x10") -> list[BookletPuzzle]:
    return [
        BookletPuzzle(e.puzzle, e.solution, e.level, e.score, f"{e.collection}-{e.number}")
        for e in _entries(count, collection)
    ]


def _booklet(items: list[BookletPuzzle], **options: Any) -> PdfReader:
    out = io.BytesIO()
    pages = write_booklet(items, out, **options)
    reader = PdfReader(io.BytesIO(out.getvalue()))
    assert len(reader.pages) == pages
    return reader


def _texts(reader: PdfReader) -> list[str]:
    return [page.extract_text() for page in reader.pages]


# -- the grids, read back from the drawing operators -------------------------------------------


def _grids(reader: PdfReader, page_number: int) -> list[dict[str, Any]]:
    """Each grid drawn on a page (one q..Q block): its border, filled rects and texts."""
    page = reader.pages[page_number]
    grids: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    pending: list[list[float]] = []
    size = 0.0
    position: list[float] = []
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            current = {"border": None, "filled": [], "texts": []}
            pending = []
        elif op == b"Q" and current is not None:
            grids.append(current)
            current = None
        elif current is None:
            continue
        elif op == b"re":
            pending.append([float(v) for v in operands])
        elif op in (b"f", b"f*"):
            current["filled"] += pending
            pending = []
        elif op == b"S":
            if pending:
                current["border"] = pending[-1]
            pending = []
        elif op == b"Tf":
            size = float(operands[1])
        elif op == b"Tm":
            position = [float(operands[4]), float(operands[5])]
        elif op == b"Tj":
            current["texts"].append((position[0], position[1], size, str(operands[0])))
    return grids


def _footer(reader: PdfReader, page_number: int) -> list[str]:
    """The texts drawn in the bottom inch of a page."""
    page = reader.pages[page_number]
    found, y = [], 0.0
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"Tm":
            y = float(operands[5])
        elif op == b"Tj" and y < 72:
            found.append(str(operands[0]))
    return found


def _cells_of(grid: dict[str, Any], puzzle: Puzzle) -> tuple[int, dict[int, str], float]:
    """The black cells (a mask), the clue texts by cell, and the cell size of a drawn grid."""
    x, y, width, height = grid["border"]
    cell = width / puzzle.cols
    assert height == pytest.approx(cell * puzzle.rows)  # square cells
    top = y + height
    black = 0
    for rx, ry, rw, rh in grid["filled"]:
        r = round((top - ry - rh) / cell)
        c0 = round((rx - x) / cell)
        assert rh == pytest.approx(cell)
        for c in range(c0, c0 + round(rw / cell)):
            black |= 1 << (r * puzzle.cols + c)
    clues = {}
    for tx, ty, size, text in grid["texts"]:
        c = math.floor((tx - x) / cell)
        r = math.floor((top - ty) / cell)
        assert 0 <= c < puzzle.cols and 0 <= r < puzzle.rows, (text, tx, ty)
        # The text is centred: it starts in the left half and sits around the middle.
        assert tx - x - c * cell < cell / 2
        assert cell * 0.2 < (top - ty) - r * cell < cell * 0.9
        assert size <= cell
        clues[r * puzzle.cols + c] = text
    return black, clues, cell


def test_grids_drawn_match_puzzles_and_solutions() -> None:
    items = _items(5)
    reader = _booklet(items, per_page=4)
    puzzle_grids = _grids(reader, 0) + _grids(reader, 1)
    solution_grids = _grids(reader, 2)
    assert len(puzzle_grids) == len(solution_grids) == 5
    for item, drawn, solved in zip(items, puzzle_grids, solution_grids, strict=True):
        expected = {i: clue_label(v) for i, v in item.puzzle.clues.items()}
        black, clues, cell = _cells_of(drawn, item.puzzle)
        assert black == 0 and clues == expected
        assert cell >= MIN_CELL
        black, clues, small = _cells_of(solved, item.puzzle)
        assert black == item.solution.black_mask  # every black cell, and only those
        assert clues == expected
        assert small < cell  # solutions are printed smaller


def test_unknown_clues_and_a_non_square_grid() -> None:
    rows = ["2.#1#2.", "#######", "#3.#1#2", "##.###.", "1##.2##"]
    original = Puzzle.from_grid([[int(ch) if ch.isdigit() else 0 for ch in r] for r in rows])
    puzzle = original.with_clue(2 * 7 + 1, UNKNOWN_CLUE)  # the 3 becomes a ?
    item = BookletPuzzle.solved(puzzle, Board.from_rows(original, rows))
    reader = _booklet([item], per_page=1)
    _, clues, _ = _cells_of(_grids(reader, 0)[0], puzzle)
    assert clues[2 * 7 + 1] == "?" and len(clues) == len(puzzle.clues)
    black, _, _ = _cells_of(_grids(reader, 1)[0], puzzle)
    assert black == item.solution.black_mask


# -- pages, text, paper ------------------------------------------------------------------------


@pytest.mark.parametrize("per_page", [1, 2, 4, 6])
@pytest.mark.parametrize("count", [1, 7, 25])
def test_page_count(per_page: int, count: int) -> None:
    items = _items(count)
    # 10x10 solutions go 20 to a page.
    expected = math.ceil(count / per_page) + math.ceil(count / 20)
    assert len(_booklet(items, per_page=per_page).pages) == expected
    without = _booklet(items, per_page=per_page, solutions=False)
    assert len(without.pages) == math.ceil(count / per_page)
    assert not any("Solutions" in text for text in _texts(without))


def test_text_of_headers_and_labels() -> None:
    items = _items(6)
    reader = _booklet(
        items, per_page=4, title="Weekly Nurikabe", author="Puzzles by A. Setter", scores=True
    )
    texts = _texts(reader)
    assert len(texts) == 3
    for number, text in enumerate(texts, start=1):
        assert "Weekly Nurikabe" in text and "Puzzles by A. Setter" in text
        assert _footer(reader, number - 1) == [str(number)]
    assert "Puzzles 1–4" in texts[0] and "Puzzles 5–6" in texts[1]
    assert "Solutions 1–6" in texts[2]
    for k, item in enumerate(items):
        page = texts[k // 4]
        assert f"{item.level} {item.score}" in page
        assert "10×10" in page
    assert reader.metadata is not None
    assert reader.metadata.title == "Weekly Nurikabe"
    assert reader.metadata.author == "Puzzles by A. Setter"
    assert [entry["/Title"] for entry in reader.outline] == ["Puzzles", "Solutions"]


@pytest.mark.parametrize(("paper", "size"), [("a4", A4), ("letter", LETTER), ("Letter", LETTER)])
def test_paper(paper: str, size: tuple[float, float]) -> None:
    reader = _booklet(_items(2), paper=paper)
    for page in reader.pages:
        box = page.mediabox
        assert (float(box.width), float(box.height)) == pytest.approx(size, abs=0.01)


def test_vector_only() -> None:
    reader = _booklet(_items(4), per_page=2)
    for page in reader.pages:
        assert list(page.images) == []
        resources = page.get("/Resources") or {}
        assert "/XObject" not in resources
        operators = {op for _, op in ContentStream(page.get_contents(), reader).operations}
        assert {b"re", b"Tj", b"l"} <= operators


def test_big_grids_stay_legible() -> None:
    """A 20x20 at six to a page, and a grid too big for a slot gets a page of its own."""
    items = _items(3, "20x20")
    reader = _booklet(items, per_page=6, solutions=False)
    assert len(reader.pages) == 1
    for item, grid in zip(items, _grids(reader, 0), strict=True):
        _, _, cell = _cells_of(grid, item.puzzle)
        assert cell >= MIN_CELL
    rows = [["#"] * 40 for _ in range(40)]
    rows[0][0] = "."
    big = Puzzle.from_clues(40, 40, [(0, 0, 1)])
    solution = Board.from_rows(big, ["".join(r) for r in rows])
    mixed = [*_items(2), BookletPuzzle(big, solution), *_items(1)]
    reader = _booklet(mixed, per_page=4, solutions=False)
    # Puzzles 1-2 on a page, the 40x40 alone, then puzzle 4.
    assert len(reader.pages) == 3
    _, _, cell = _cells_of(_grids(reader, 1)[0], big)
    assert cell >= MIN_CELL


def test_bad_options_and_unsolved_puzzles() -> None:
    items = _items(1)
    with pytest.raises(BookletError, match="per page"):
        write_booklet(items, io.BytesIO(), per_page=3)
    with pytest.raises(BookletError, match="paper"):
        write_booklet(items, io.BytesIO(), paper="a5")
    with pytest.raises(BookletError, match="no puzzles"):
        write_booklet([], io.BytesIO())
    with pytest.raises(BookletError, match="several solutions"):
        BookletPuzzle.solved(Puzzle.from_text(AMBIGUOUS))
    with pytest.raises(BookletError, match="no solution"):
        BookletPuzzle.solved(Puzzle.from_text(UNSOLVABLE))
    wrong = Board(items[0].puzzle)  # all white: one island, no sea
    with pytest.raises(BookletError, match="does not solve"):
        BookletPuzzle.solved(items[0].puzzle, wrong)


# -- rendered pages (pdftoppm) -----------------------------------------------------------------


def _render(pdf: Path, out: Path, dpi: int = 50) -> list[Path]:
    if shutil.which("pdftoppm") is None:
        pytest.fail("pdftoppm is needed (Debian package poppler-utils)")
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(pdf), str(out / "page")], check=True)
    return sorted(out.glob("page-*.png"))


def test_rendered_pages(tmp_path: Path) -> None:
    from PIL import Image

    pdf = tmp_path / "b.pdf"
    write_booklet(_items(6), pdf, per_page=6, paper="letter", title="Rendered", author="A")
    pngs = _render(pdf, tmp_path)
    assert len(pngs) == 2
    for png in pngs:
        image = Image.open(png).convert("L")
        assert image.size == (round(8.5 * 50), (11 * 50))
        width, height = image.size
        pixels = image.load()
        dark = sum(1 for x in range(width) for y in range(height) if pixels[x, y] < 100)
        assert dark > 0.01 * width * height  # grids and text were drawn
        edge = 20  # 0.4 inch: nothing reaches into the page's margin
        for x in range(width):
            for y in [*range(edge), *range(height - edge, height)]:
                assert pixels[x, y] > 200, (png.name, x, y)
        for y in range(height):
            for x in [*range(edge), *range(width - edge, width)]:
                assert pixels[x, y] > 200, (png.name, x, y)


# -- the command -------------------------------------------------------------------------------


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(args)
    except SystemExit as exc:  # a usage error, from argparse
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_files_urls_and_jsonl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "many.jsonl"
    records.write_text("\n".join(json.dumps(e.to_json()) for e in _entries(5)) + "\n")
    out = tmp_path / "booklet.pdf"
    code, _, err = _run(
        [
            "print",
            str(EXAMPLE),
            EXAMPLE_URL,
            str(records),
            "-o",
            str(out),
            "--per-page",
            "2",
            "--paper",
            "letter",
            "--title",
            "Mixed",
            "--author",
            "Ann Author",
        ],
        capsys,
    )
    assert code == 0, err
    reader = PdfReader(out)
    texts = _texts(reader)
    # 7 puzzles, 2 to a page; 7 small solutions on one page.
    assert len(texts) == 4 + 1
    assert all("Mixed" in t and "Ann Author" in t for t in texts)
    assert "Solutions 1–7" in texts[-1]
    levels = [e.level for e in _entries(5)]
    joined = "\n".join(texts[:4])
    assert all(level in joined for level in levels)
    assert float(reader.pages[0].mediabox.height) == pytest.approx(792)
    assert "7 puzzles, 5 pages" in err
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_cli_collection(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "hard.pdf"
    args = ["print", "--collection", "10x10", "--level", "hard", "--count", "5"]
    code, _, err = _run([*args, "--start", "300", "-o", str(out), "--per-page", "1"], capsys)
    assert code == 0, err
    texts = _texts(PdfReader(out))
    assert len(texts) == 5 + 1
    assert all("hard" in t for t in texts[:5])
    conn = store.open_db(readonly=True)
    picked = [e for e in store.entries(conn, collection="10x10", level="hard") if e.number >= 300]
    conn.close()
    first = picked[0].puzzle
    grid = _grids(PdfReader(out), 0)[0]
    _, clues, _ = _cells_of(grid, first)
    assert clues == {i: clue_label(v) for i, v in first.clues.items()}
    code, _, err = _run([*args, "--start", "100000", "-o", str(out)], capsys)
    assert code == 2 and err.count("\n") == 1 and "no puzzles" in err


def test_cli_generate_and_svgs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "new.pdf"
    svgs = tmp_path / "svg"
    code, _, err = _run(
        [
            "print",
            "--generate",
            "7x7",
            "--difficulty",
            "easy",
            "--count",
            "2",
            "--seed",
            "1",
            "--jobs",
            "1",
            "-o",
            str(out),
            "--svg-dir",
            str(svgs),
        ],
        capsys,
    )
    assert code == 0, err
    texts = _texts(PdfReader(out))
    assert len(texts) == 2 and texts[0].count("easy") == 2
    names = sorted(p.name for p in svgs.iterdir())
    assert names == ["001-solution.svg", "001.svg", "002-solution.svg", "002.svg"]
    puzzle_svg = (svgs / "001.svg").read_text()
    assert puzzle_svg.startswith("<svg") and 'class="black"' not in puzzle_svg
    assert 'class="black"' in (svgs / "001-solution.svg").read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.txt"], "no such file"),
        (["--per-page", "3", "{example}"], "invalid choice"),
        (["--paper", "a5", "{example}"], "invalid choice"),
        (["{ambiguous}"], "several solutions"),
        (["{unsolvable}"], "no solution"),
        ([], "nothing to print"),
        (["{junk}"], "junk.txt"),
        (["--collection", "12x12"], "no puzzles"),
        (["--count", "0", "--collection", "10x10"], "at least 1"),
        (["--level", "hard", "{example}"], "--level needs --collection"),
        (["--difficulty", "hard", "{example}"], "--difficulty needs --generate"),
    ],
)
def test_cli_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    (tmp_path / "ambiguous.txt").write_text(AMBIGUOUS)
    (tmp_path / "unsolvable.txt").write_text(UNSOLVABLE)
    (tmp_path / "junk.txt").write_text("hello\n")
    paths = {
        "example": str(EXAMPLE),
        "ambiguous": str(tmp_path / "ambiguous.txt"),
        "unsolvable": str(tmp_path / "unsolvable.txt"),
        "junk": str(tmp_path / "junk.txt"),
    }
    out = tmp_path / "out.pdf"
    argv = ["print", *[a.format(**paths) for a in args], "-o", str(out)]
    code, _, err = _run(argv, capsys)
    assert code == 2
    assert err.count("\n") == 1 and message in err, err
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []


@pytest.mark.parametrize("where", ["missing-folder/b.pdf", "."])
def test_cli_unwritable_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    code, _, err = _run(["print", str(EXAMPLE), "-o", str(tmp_path / where)], capsys)
    assert code == 2 and err.count("\n") == 1
    assert "cannot write" in err or "is a folder" in err


def test_cli_interrupted_leaves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: object, **kwargs: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(pdf_module, "write_booklet", interrupted)
    code, _, err = _run(["print", str(EXAMPLE), "-o", str(tmp_path / "b.pdf")], capsys)
    assert code == 130 and "interrupted" in err
    assert list(tmp_path.iterdir()) == []
