"""Text and SVG pictures (nurikabe.render): exact text, well-formed SVG, element counts."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nurikabe import UNKNOWN_CLUE, Board, CellSet, Puzzle
from nurikabe.render import as_mask, render_svg, render_text
from nurikabe.rules import check
from tests.corpus import corpus, sample

SVG = "{http://www.w3.org/2000/svg}"

SOLVED = [
    "2.#1#2.",
    "#######",
    "#3.#1#2",
    "##.###.",
    "1##.2##",
]
P = Puzzle.from_grid([[int(ch) if ch.isdigit() else 0 for ch in row] for row in SOLVED])


def test_text_puzzle_exact() -> None:
    assert render_text(P) == "\n".join(
        [
            "┌───────────────┐",
            "│ 2     1   2   │",
            "│               │",
            "│   3     1   2 │",
            "│               │",
            "│ 1       2     │",
            "└───────────────┘",
        ]
    )


def test_text_board_exact() -> None:
    board = Board.from_rows(
        P, [row.replace(".", "?") if r == 4 else row for r, row in enumerate(SOLVED)]
    )
    assert render_text(P, board) == "\n".join(
        [
            "┌───────────────┐",
            "│ 2 · █ 1 █ 2 · │",
            "│ █████████████ │",
            "│ █ 3 · █ 1 █ 2 │",
            "│ ███ · █████ · │",
            "│ 1 ███   2 ███ │",
            "└───────────────┘",
        ]
    )


def test_text_ascii_and_marks() -> None:
    board = Board.from_rows(P, SOLVED)
    marks = CellSet(
        P.grid, 1 << P.grid.cell(0, 0) | 1 << P.grid.cell(0, 1) | 1 << P.grid.cell(2, 6)
    )
    assert render_text(P, board, marks=marks, unicode=False) == "\n".join(
        [
            "+---------------+",
            "|[2 .]# 1 # 2 . |",
            "| ############# |",
            "| # 3 . # 1 #[2]|",
            "| ### . ##### . |",
            "| 1 ### . 2 ### |",
            "+---------------+",
        ]
    )
    text = render_text(P, board, unicode=False)
    assert text.isascii()
    assert "[" not in text


def test_text_wide_clues_and_unknown_clue() -> None:
    p = Puzzle.from_clues(3, 5, [(0, 0, 12), (2, 4, UNKNOWN_CLUE)])
    board = Board.from_rows(p, ["1#.??", "##???", "????1"])
    assert render_text(p, board) == "\n".join(
        [
            "┌────────────────┐",
            "│ 12 ██  ·       │",
            "│ █████          │",
            "│              ? │",
            "└────────────────┘",
        ]
    )


def test_text_50x50_stays_narrow() -> None:
    p = Puzzle.from_clues(50, 50, [(0, 0, 99), (49, 49, 10)])
    lines = render_text(p).split("\n")
    assert len(lines) == 52
    assert {len(line) for line in lines} == {153}


@pytest.mark.parametrize("doc", sample(8), ids=lambda d: d.meta["id"])
def test_text_of_corpus_solutions(doc) -> None:  # type: ignore[no-untyped-def]
    text = render_text(doc.puzzle, doc.solution, unicode=False)
    lines = text.split("\n")
    assert len(lines) == doc.puzzle.rows + 2
    assert len({len(line) for line in lines}) == 1
    width = max(len(str(v)) for v in doc.puzzle.clues.values())
    # Each row shows as many black fills as it has black cells (times the cell width),
    # plus one between each pair of horizontally adjacent black cells.
    for r, row in enumerate(doc.solution.to_rows()):
        blacks = row.count("#")
        pairs = sum(1 for c in range(len(row) - 1) if row[c] == row[c + 1] == "#")
        assert lines[r + 1].count("#") == blacks * width + pairs


def test_as_mask_forms() -> None:
    grid = P.grid
    assert as_mask(None) == 0
    assert as_mask(0b110) == 6
    assert as_mask(CellSet(grid, 5)) == 5
    assert as_mask({0, 2}) == 5
    assert as_mask([CellSet(grid, 1), 4]) == 1 | 16
    with pytest.raises(TypeError):
        as_mask("r1c1")
    with pytest.raises(TypeError):
        as_mask(True)
    with pytest.raises(ValueError):
        as_mask([-1])
    with pytest.raises(ValueError):
        as_mask(-1)


# -- SVG -----------------------------------------------------------------------------------


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def group(root: ET.Element, name: str) -> ET.Element | None:
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == name:
            return g
    return None


def count(root: ET.Element, name: str, tag: str) -> int:
    g = group(root, name)
    return 0 if g is None else len(g.findall(f"{SVG}{tag}"))


def test_svg_puzzle_only() -> None:
    svg = render_svg(P)
    root = parse(svg)
    assert root.get("viewBox") == "0 0 232 168"
    assert count(root, "clues", "text") == len(P.clues)
    assert count(root, "black", "rect") == 0
    assert count(root, "dots", "circle") == 0
    texts = [t.text for t in group(root, "clues").iter(f"{SVG}text")]  # type: ignore[union-attr]
    assert sorted(texts) == sorted(str(v) for v in P.clues.values())
    borders = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "border"]
    assert len(borders) == 1 and borders[0].get("width") == str(7 * 32)


def test_svg_board_counts() -> None:
    board = Board.from_rows(
        P, [row.replace(".", "?") if r == 4 else row for r, row in enumerate(SOLVED)]
    )
    root = parse(render_svg(P, board, title="5x7 & co"))
    assert count(root, "black", "rect") == len(board.black_cells())
    dots = board.white_mask & ~P.clue_mask
    assert count(root, "dots", "circle") == dots.bit_count()
    assert count(root, "clues", "text") == len(P.clues)
    assert root.find(f"{SVG}title").text == "5x7 & co"  # type: ignore[union-attr]


def test_svg_highlight_premises_errors() -> None:
    board = Board.from_rows(P, SOLVED)
    board.set_black(P.grid.cell(2, 2))  # makes the 3's island too small
    violations = check(P, board, mode="all")
    black_cell = P.grid.cell(1, 0)
    root = parse(
        render_svg(
            P,
            board,
            highlight=[P.grid.cell(0, 1), black_cell],
            premises=CellSet(P.grid, 1 << P.grid.cell(0, 0)),
            errors=violations,
        )
    )
    assert count(root, "highlight", "rect") == 1
    assert count(root, "highlight-black", "rect") == 1
    assert count(root, "premises", "rect") == 1
    flagged = 0
    for v in violations:
        flagged |= v.mask
    assert count(root, "errors", "rect") == (flagged & ~board.black_mask).bit_count()
    red = [
        r
        for r in group(root, "black").iter(f"{SVG}rect")  # type: ignore[union-attr]
        if r.get("fill") == "rgb(192,0,0)"
    ]
    assert len(red) == (flagged & board.black_mask).bit_count()


def test_svg_shaded_clue_is_drawn_white_on_black() -> None:
    board = Board.from_rows(P, ["#" + SOLVED[0][1:], *SOLVED[1:]])
    root = parse(render_svg(P, board))
    fills = [t.get("fill") for t in group(root, "clues").iter(f"{SVG}text")]  # type: ignore[union-attr]
    assert fills.count("#ffffff") == 1


def test_svg_sizes_and_scaling() -> None:
    root = parse(render_svg(P, cell_size=10))
    assert root.get("width") == "72.5" and root.get("height") == "52.5"
    big = Puzzle.from_clues(50, 50, [(0, 0, 99), (25, 25, 1234), (49, 49, UNKNOWN_CLUE)])
    root = parse(render_svg(big))
    assert root.get("viewBox") == f"0 0 {50 * 32 + 8} {50 * 32 + 8}"
    assert float(root.get("width", "0")) <= 900
    assert count(root, "clues", "text") == 3
    # One path carries all 98 inner grid lines.
    (path,) = [p for p in root.iter(f"{SVG}path") if p.get("class") == "grid"]
    assert path.get("d", "").count("M") == 98
    with pytest.raises(ValueError, match="positive"):
        render_svg(P, cell_size=0)


def test_svg_one_cell() -> None:
    p = Puzzle(1, 1, {0: 1})
    root = parse(render_svg(p, p.empty_board()))
    assert count(root, "clues", "text") == 1
    assert not [e for e in root.iter(f"{SVG}path")]


def test_repr_svg_hooks() -> None:
    board = Board.from_rows(P, SOLVED)
    assert P._repr_svg_() == render_svg(P)
    assert board._repr_svg_() == render_svg(P, board)


def test_svg_of_every_corpus_solution_parses() -> None:
    for doc in corpus()[::25]:
        root = parse(render_svg(doc.puzzle, doc.solution))
        assert count(root, "black", "rect") == doc.solution.black_mask.bit_count()
        assert count(root, "clues", "text") == len(doc.puzzle.clues)


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_render_random_boards(data: st.DataObject) -> None:
    """Any puzzle and board draws: equal-width text lines, parseable SVG with matching counts."""
    rows = data.draw(st.integers(1, 6), label="rows")
    cols = data.draw(st.integers(1, 8), label="cols")
    area = rows * cols
    cells = data.draw(st.sets(st.integers(0, area - 1), max_size=4), label="clue cells")
    values = sorted({1, min(2, area), area, UNKNOWN_CLUE})
    clues = {i: data.draw(st.sampled_from(values)) for i in cells}
    puzzle = Puzzle(rows, cols, clues)
    states = data.draw(st.lists(st.sampled_from("#.?"), min_size=area, max_size=area))
    black = sum(1 << i for i, ch in enumerate(states) if ch == "#")
    white = sum(1 << i for i, ch in enumerate(states) if ch == ".")
    board = Board(puzzle, black, white)
    marks = data.draw(st.sets(st.integers(0, area - 1)), label="marks")
    for unicode in (True, False):
        text = render_text(puzzle, board, marks=marks, unicode=unicode)
        lines = text.split("\n")
        assert len(lines) == rows + 2
        assert len({len(line) for line in lines}) == 1
        assert text.count("[") == text.count("]")
    root = parse(render_svg(puzzle, board, highlight=marks, premises=[0], errors=black))
    assert count(root, "black", "rect") == black.bit_count()
    assert count(root, "clues", "text") == len(clues)
    assert count(root, "dots", "circle") == (white & ~black & ~puzzle.clue_mask).bit_count()


def test_text_for_a_terminal_follows_its_encoding() -> None:
    import io

    from nurikabe.render.text import render_for_terminal

    board = Board.from_rows(P, SOLVED)
    marks = board.black_mask & -board.black_mask
    for encoding, unicode in [("utf-8", True), ("UTF8", True), ("latin-1", False), (None, False)]:
        stream = io.TextIOWrapper(io.BytesIO(), encoding=encoding or "ascii")
        if encoding is None:
            stream = io.StringIO()  # no encoding at all: ASCII, the safe choice
        shown = render_for_terminal(P, board, marks=marks, stream=stream)
        assert shown == render_text(P, board, marks=marks, unicode=unicode)


def test_svg_of_a_solver_result() -> None:
    from nurikabe import solve
    from nurikabe.render.svg import result_svg

    unique = solve(Puzzle.from_url("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"))
    assert len(unique.solutions) == 1
    assert result_svg(unique) == render_svg(unique.puzzle, unique.solutions[0])
    several = solve(Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]]))
    assert len(several.solutions) == 2
    root = parse(result_svg(several))
    assert count(root, "highlight", "rect") + count(root, "highlight-black", "rect") == len(
        several.difference()
    )
    none = solve(Puzzle.from_grid([[1, 1], [0, 0]]))
    assert not none.solutions and result_svg(none) == render_svg(none.puzzle)


def test_walkthrough_page_frames_every_step() -> None:
    from nurikabe import solve
    from nurikabe.logic import explain
    from nurikabe.render import walkthrough_html

    puzzle = Puzzle.from_url("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g")
    walk = explain(puzzle)
    page = walkthrough_html(walk, title="5x5 <walk>")
    assert page.count("<svg") == len(walk.steps) + 1
    assert "<h1>5x5 &lt;walk&gt;</h1>" in page
    # The last frame is the solved board.
    last = parse("<svg" + page.rsplit("<svg", 1)[1].split("</svg>")[0] + "</svg>")
    solved = solve(puzzle).solutions[0]
    assert count(last, "black", "rect") == len(solved.black_cells())
    assert count(last, "dots", "circle") == (solved.white_mask & ~puzzle.clue_mask).bit_count()
