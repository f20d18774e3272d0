"""Format readers and writers on hand-made inputs: the worked examples of formats.md,
each format's variants, detection, `read_board`, and the errors bad input gets."""

from __future__ import annotations

from importlib import resources

import pytest

from nurikabe.errors import FormatError, InvalidPuzzleError
from nurikabe.formats import Document, detect, format_names, load, read, read_board, write
from nurikabe.formats.puzzlink import decode_body, encode_body
from nurikabe.puzzle import Board, Puzzle


def clues_1based(p: Puzzle) -> list[tuple[int, int, int]]:
    return sorted((i // p.cols + 1, i % p.cols + 1, v) for i, v in p.clues.items())


def grid_text(p: Puzzle) -> list[str]:
    """The puzzle as rows of '.', '?' and numbers, like the pictures in formats.md."""
    out = []
    for r in range(p.rows):
        row = []
        for c in range(p.cols):
            v = p.clue_at(r, c)
            row.append("." if v is None else "?" if v == -1 else str(v))
        out.append(" ".join(row))
    return out


# -- formats.md 1.5: worked examples ---------------------------------------------------------

A_URL = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"
A_SOLUTION = "pzprv3/nurikabe/5/5/+ 5 # # # /+ # 2 + # /+ # # # # /+ # 1 # . /# # # 3 . /"
B_URL = "https://pzprxs.vercel.app/p?nurikabe/10/10/2l2u2l2n2m2m.k2g2i2q2l2s"
C_URL = "https://pzprxs.vercel.app/p?nurikabe/10/10/n2n2u2k2g2l2r2k2n2s2n-16"
D_URL = "https://puzz.link/p?nurikabe/10/10/5ibj4zp7i9j6zz3i8ja"
F_URL = "https://puzz.link/p?nurikabe/7/7/2g3p4j1m4p2g2i5k"
F_SOLUTION = (
    "pzprv3/nurikabe/7/7/2 # 3 # + + + /+ # + # # # 4 /# # + # 1 # # /+ # # # # 4 + /"
    "+ # + # + # + /+ # 2 # 2 # + /+ 5 # # # # # /"
)
G1_URL = "https://puzz.link/p?nurikabe/10/10/zj7n7j9n7t7i7n7zj"
G2_URL = "https://puzz.link/p?nurikabe/6/6/m8n8i9u"
EMBEDDED_URL = (
    "https://puzz.link/p?type=editor&pzprv3/nurikabe/3/3/"
    "%23%20%23%20.%20/1%20%23%203%20/%23%20%23%20.%20//"
)


def test_example_a_url_and_solution() -> None:
    p = Puzzle.from_url(A_URL)
    assert grid_text(p) == [
        ". 5 . . .",
        ". . 2 . .",
        ". . . . .",
        ". . 1 . .",
        ". . . 3 .",
    ]
    assert p.to_url() == A_URL
    assert repr(p) == f"Puzzle.from_url({A_URL!r})"
    doc = load(A_SOLUTION)
    assert doc.format == "pzprv3"
    assert doc.puzzle == p
    assert doc.board is not None
    assert doc.board.to_rows() == ["..###", ".#..#", ".####", ".#.#?", "###.?"]


def test_example_b_unknown_clue() -> None:
    p = read(B_URL)
    assert grid_text(p) == [
        "2 . . . . . . 2 . .",
        ". . . . . . . . . .",
        ". . . 2 . . . . . .",
        "2 . . . . . . . . 2",
        ". . . . . . . 2 . .",
        ". . . . . ? . . . .",
        ". 2 . 2 . . . 2 . .",
        ". . . . . . . . . 2",
        ". . . . . . 2 . . .",
        ". . . . . . . . . .",
    ]
    assert p.clue_at(5, 5) == -1
    assert p.to_url() == B_URL.replace("pzprxs.vercel.app/p?", "puzz.link/p?")


def test_example_c_two_character_number() -> None:
    p = read(C_URL)
    twos = [(1, 9), (2, 8), (4, 4), (4, 10), (5, 2), (5, 9), (7, 2), (7, 8), (8, 7), (10, 1)]
    assert clues_1based(p) == sorted([(r, c, 2) for r, c in twos] + [(10, 10, 22)])
    assert p.to_url() == "https://puzz.link/p?nurikabe/10/10/n2n2u2k2g2l2r2k2n2s2n-16"


def test_example_d_single_char_hex() -> None:
    p = read(D_URL)
    assert clues_1based(p) == [
        (1, 1, 5),
        (1, 5, 11),
        (1, 10, 4),
        (5, 1, 7),
        (5, 5, 9),
        (5, 10, 6),
        (10, 1, 3),
        (10, 5, 8),
        (10, 10, 10),
    ]
    assert p.to_url() == D_URL


def test_example_e_width_differs_from_height() -> None:
    start = "https://puzz.link/p?nurikabe/30/20/h4gbh7i-12j2m8h3"
    with pytest.raises(FormatError, match="truncated"):
        read(start)  # the example is cut short in formats.md
    p = read(start + "z" * 28 + "r")  # 572 more empty cells
    assert (p.rows, p.cols) == (20, 30)
    assert grid_text(p)[0].startswith(". . 4 . 11 . . 7 . . . 18 ")
    assert p.to_url() == start + "z" * 28 + "r"


def test_example_f_same_puzzle_in_several_formats() -> None:
    p = read(F_URL)
    data = resources.files("nurikabe") / "data"
    assert p == read((data / "example.txt").read_text(encoding="utf-8"))
    doc = load(F_SOLUTION)
    assert doc.puzzle == p
    published = read_board((data / "example-solution.txt").read_text(encoding="utf-8"), p)
    assert doc.board == published
    assert doc.board.is_complete()
    assert read_board(F_SOLUTION, p) == published


def test_example_f_game_ids() -> None:
    p = read(F_URL)
    assert read("7x7:2a3d.f4.d1b.e4a.g.b2a2b.a5e") == p
    assert read("7x7:2a3j4d1g4j2a2c5e") == p
    assert write(p, "sgt") == "7x7:2a3j4d1g4j2a2c5e"
    ohmec = load("7x7:2*3*___._*_***4.**_*1**._****4_._*_*_*_._*2*2*_._5*****")
    assert ohmec.puzzle == p
    assert ohmec.solution == load(F_SOLUTION).board


def test_example_g_other_test_data() -> None:
    p = read(G1_URL)
    sevens = [(3, 5), (4, 4), (5, 8), (7, 3), (7, 7), (8, 6)]
    assert clues_1based(p) == sorted([(r, c, 7) for r, c in sevens] + [(4, 9, 9)])
    assert p.to_url() == G1_URL
    q = read(G2_URL)
    assert clues_1based(q) == [(2, 2, 8), (3, 5, 8), (4, 3, 9)]
    assert q.to_url() == G2_URL


def test_encoder_edge_cases() -> None:
    assert Puzzle(3, 3, {8: -1}).to_url() == "https://puzz.link/p?nurikabe/3/3/n./"
    assert encode_body(4, {0: 300, 3: 16}) == "+12ch-10"
    big = {0: 5000, 2: 9000, 4: 20000, 6: 100000}
    assert encode_body(7, big) == "=388g@328g*1e50g$056d0"
    assert decode_body("=388g@328g*1e50g$056d0", 7) == big
    assert decode_body("+12ch-10", 4) == {0: 300, 3: 16}
    assert decode_body("n.", 9) == {8: -1}


def test_embedded_pzprv3_url() -> None:
    doc = load(EMBEDDED_URL)
    assert doc.format == "url"
    assert clues_1based(doc.puzzle) == [(2, 1, 1), (2, 3, 3)]
    assert doc.board is not None
    assert doc.board.to_rows() == ["##?", ".#.", "##?"]


# -- URLs --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g",
        "https://puzz.link/p.html?nurikabe/5/5/g5k2o1k3g",
        "http://puzz.link/p?nurikabe/5/5/g5k2o1k3g/",
        "http://pzv.jp/p.html?nurikabe/5/5/g5k2o1k3g",
        "https://pzprxs.vercel.app/p?nurikabe/5/5/g5k2o1k3g",
        "http://indi.s58.xrea.com/pzpr/v3/p.html?nurikabe/5/5/g5k2o1k3g",
        "https://puzz.link/p?nurikabe_edit/5/5/g5k2o1k3g",
        "https://puzz.link/p?nurikabe_play/5/5/g5k2o1k3g",
        "https://puzz.link/p?type=editor&nurikabe/5/5/g5k2o1k3g",
        "https://puzz.link/p?type=player&nurikabe/5/5/g5k2o1k3g",
        "https://puzz.link/p?v:/nurikabe/5/5/g5k2o1k3g",
        "https://puzz.link/p?nurikabe/v:1/5/5/g5k2o1k3g",
        "https://puzz.link/p?nurikabe/b/5/5/g5k2o1k3g",
        "puzz.link/p?nurikabe/5/5/g5k2o1k3g",
        "p?nurikabe/5/5/g5k2o1k3g",
        "?nurikabe/5/5/g5k2o1k3g",
        "http://localhost:8000/p?nurikabe/5/5/g5k2o1k3g",
        "  https://puzz.link/p?nurikabe/5/5/g5k2o1k3g \n",
        "https://puzz.link/p?nurikabe/5/5/g5k2ggggggggg1k3g",
    ],
)
def test_url_variants(url: str) -> None:
    assert detect(url) == "url"
    assert read(url).to_url() == A_URL


def test_url_reads_legacy_and_upper_case_multi_char_tokens() -> None:
    assert read("https://puzz.link/p?nurikabe/1/1/1").clues == {0: 1}
    p = read("https://puzz.link/p?nurikabe/16/16/-1A" + "z" * 12 + "u")
    assert p.clues == {0: 26}
    assert p.to_url().endswith("/-1a" + "z" * 12 + "u")
    assert read("https://puzz.link/p?nurikabe/100/100/%001" + "z" * 499 + "y").clues == {0: 8193}


def test_kanpen_url() -> None:
    url = "http://www.kanpen.net/nurikabe.html?problem=2/3/1_._./._._2"
    assert read(url).clues == {0: 1, 5: 2}
    assert read(url.replace("problem=2/3/1_._./._._2", "problem=2/3/1_._._/._._2_/")).clues == {
        0: 1,
        5: 2,
    }
    with pytest.raises(FormatError, match=r"not a nurikabe URL: Kanpen page 'sudoku\.html'"):
        read(url.replace("nurikabe.html", "sudoku.html"))


@pytest.mark.parametrize(
    "pid",
    [
        # nurikabe.js's sister genres, then the rest of the family, then anything else
        *("nuribou", "mochikoro", "mochinyoro", "canal", "norinuri", "cornerch", "hasunomura"),
        *("nuriloop", "nurimaze", "nurimisaki", "nuritwin", "nuriuzu"),
        *("sudoku", "nurikabe2", "nuri"),
    ],
)
def test_url_of_another_genre(pid: str) -> None:
    with pytest.raises(FormatError) as info:
        read(f"https://puzz.link/p?{pid}/5/5/g5k2o1k3g")
    assert str(info.value) == f"column 21: not a nurikabe URL: pid {pid!r}"


@pytest.mark.parametrize(
    ("url", "cause"),
    [
        ("https://puzz.link/p?nurikabe", "lacks the column count"),
        ("https://puzz.link/p?nurikabe/5", "lacks the row count"),
        ("https://puzz.link/p?nurikabe/5/5", "stops after 0 of the 25 cells"),
        ("https://puzz.link/p?nurikabe/5/5/g5k2o1k3", "stops after 24 of the 25 cells"),
        ("https://puzz.link/p?nurikabe/5/5/g5k2o1k3gg", "after the last of the 25 cells"),
        ("https://puzz.link/p?nurikabe/2/2/z", "goes past the last"),
        ("https://puzz.link/p?nurikabe/5/5/-1g", "malformed number '-1g'"),
        ("https://puzz.link/p?nurikabe/5/5/+12", "malformed number '\\+12'"),
        ("https://puzz.link/p?nurikabe/5/5/g5k2o1k3$", "malformed number"),
        ("https://puzz.link/p?nurikabe/5/5/G5k2o1k3g", "unexpected character 'G'"),
        ("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g/extra", "after the URL body"),
        ("https://puzz.link/p?nurikabe/x5/5/g", "row count must be a number, got 'g'"),
        ("https://puzz.link/p?nurikabe/5/x5/g", "row count must be a number, got 'x5'"),
        ("https://puzz.link/p?nurikabe/0/5/g", "has no cells"),
        ("https://puzz.link/p?nurikabe/999999999999/5/g", "larger than the supported"),
        ("https://puzz.link/p?nurikabe/300/5/g", "larger than the supported"),
        ("https://puzz.link/p?nurikabe/2/2/0i", "clue 0 is not a positive number"),
        ("https://puzz.link/p?nurikabe/2/2/5i", "clue 5 is larger than the grid"),
        ("https://puzz.link/p?", "no puzzle type"),
    ],
)
def test_bad_urls(url: str, cause: str) -> None:
    with pytest.raises(FormatError, match=cause):
        read(url, format="url")


def test_url_error_names_the_column() -> None:
    with pytest.raises(FormatError) as info:
        read("https://puzz.link/p?nurikabe/5/5/g5-1g")
    assert info.value.column == len("https://puzz.link/p?nurikabe/5/5/g5") + 1


# -- text --------------------------------------------------------------------------------------


def test_text_canonical_output() -> None:
    p = Puzzle.from_clues(4, 3, [(0, 0, 1), (1, 2, -1), (1, 0, 12)])
    assert p.to_text() == "4 3\n1 0 0\n12 0 -1\n0 0 0\n0 0 0\n"
    assert read(p.to_text()) == p
    assert write(p, "text") == p.to_text()


@pytest.mark.parametrize(
    "text",
    [
        "2 3\n1 0 0\n5 0 -1\n",
        "2 3\n1 . .\n5 - ?\n",
        "  2   3 \n\n 1 0 0\n5\t0 ?\n\n",
        "1 0 0\n5 0 -1",
        "1 . .\r\n5 - ?\r\n",
    ],
)
def test_text_variants(text: str) -> None:
    assert detect(text) == "text"
    assert read(text) == Puzzle.from_clues(2, 3, [(0, 0, 1), (1, 2, -1), (1, 0, 5)])


def test_text_rows_without_spaces() -> None:
    assert read("1..\n..2").clues == {0: 1, 5: 2}
    assert read("2 3\n1..\n..2").clues == {0: 1, 5: 2}
    assert read("12 1\n12\n" + ".\n" * 11).clues == {0: 12}


def test_text_header_or_matrix() -> None:
    # A first line of two numbers is a header when the rows it announces follow...
    assert read("2 2\n1 0\n0 0").rows == 2
    # ...and a matrix row when every row has two cells and the count does not fit.
    assert read("1 0\n0 0\n0 2").clues == {0: 1, 5: 2}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "7 7\n2 0 3 0 0 0 0\n0 0 0 0 0 0 4\n1 0 0 0 0 0\n0 0 0 0 0 4 0\n"
            "0 0 0 0 0 0 0\n0 0 2 0 2 0 0\n0 5 0 0 0 0 0\n",
            "line 4: expected 7 cells, got 6: '1 0 0 0 0 0'",
        ),
        ("1 0 0\n0 0", "line 2: expected 3 cells, got 2: '0 0'"),
        ("2 3\n1 0 0\n", "line 2: expected 2 rows, got 1"),
        ("2 3\n1 0 0\n0 0 0\n0 0 0", "line 4: more than the 2 rows the header gives: '0 0 0'"),
        ("0 0", "line 1: grid 0x0 has no cells"),
        ("0 3", "line 1: grid 0x3 has no cells"),
        ("1 2\n1 a", "line 2, column 3: a cell must be a number, got 'a'"),
        ("1 2\n1 -5", "line 2, column 3: clue -5 is not a positive number"),
        ("1 2\n1 3", "line 2, column 3: clue 3 is larger than the grid (2 cells)"),
        ("1 2\n1 99999999999999", "line 2, column 3: a cell is too large: '99999999999999'"),
        ("99999 99999\n0", "line 1: grid 99999x99999 is larger than the supported 256x256"),
        ("257 1\n" + "0\n" * 257, "line 1: grid 257x1 is larger than the supported 256x256"),
    ],
)
def test_text_errors(text: str, message: str) -> None:
    with pytest.raises(FormatError) as info:
        read(text)
    assert str(info.value) == message


def test_text_huge_header_is_refused_at_once() -> None:
    with pytest.raises(FormatError, match="larger than the supported"):
        read("1000000000 1000000000\n" + "0 " * 10)


# -- pzprv3 ------------------------------------------------------------------------------------


def test_pzprv3_canonical_output() -> None:
    doc = load(A_SOLUTION)
    assert write(doc, "pzprv3") == (
        "pzprv3\nnurikabe\n5\n5\n+ 5 # # # \n+ # 2 + # \n+ # # # # \n+ # 1 # . \n# # # 3 . \n"
    )
    # Without a board, the solution; without either, the empty board.
    p = Puzzle.from_grid([[1, 0], [0, -1]])
    assert write(p, "pzprv3") == "pzprv3\nnurikabe\n2\n2\n1 . \n. - \n"
    solution = Board.from_rows(p, [".#", "#."])
    assert write(p, "pzprv3", solution=solution) == "pzprv3\nnurikabe\n2\n2\n1 # \n# - \n"


def test_pzprv3_variants_and_metadata() -> None:
    text = (
        "v:1\npzprv3.1\nnurikabe\n2\n3\n1 # + \n. - # \n"
        'info:{"metadata":{"author":"Me","source":"http://x/y","hard":"","comment":"hi"}}\n'
        "history:{}\nTrialData(1)\n# # # \n# # # \n"
    )
    assert detect(text) == "pzprv3"
    doc = load(text)
    assert doc.puzzle.clues == {0: 1, 4: -1}
    assert doc.board is not None
    assert doc.board.to_rows() == [".#.", "?.#"]
    assert doc.meta == {"author": "Me", "source": "http://x/y", "comment": "hi"}
    out = write(doc, "pzprv3")
    info = '{"metadata": {"author": "Me", "source": "http://x/y", "comment": "hi"}}'
    assert out.endswith(f"info:{info}\n")
    assert write(load(out), "pzprv3") == out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("pzprv3\nnuribou\n2\n2\n. . \n. . \n", "line 2: not a nurikabe file: type 'nuribou'"),
        ("pzprv3\nnurikabe\n2\n", "line 3: the file ends before the column count"),
        ("pzprv3\nnurikabe\n2\n2\n. . \n", "line 5: expected 2 rows, got 1"),
        ("pzprv3\nnurikabe\n2\n2\n. . \n. \n", "line 6: expected 2 cells, got 1: '.'"),
        ("pzprv3\nnurikabe\n1\n2\n. x \n", "line 5, column 3: unknown cell 'x'"),
        ("pzprv3\nnurikabe\n1\n2\n. 0 \n", "line 5, column 3: clue 0 is not a positive number"),
        ("pzprv3\nnurikabe\nx\n2\n", "line 3: the row count must be a number, got 'x'"),
        ("pzprv3\nnurikabe\n0\n0\n", "line 4: grid 0x0 has no cells"),
    ],
)
def test_pzprv3_errors(text: str, message: str) -> None:
    with pytest.raises(FormatError) as info:
        read(text)
    assert str(info.value).startswith(message)


# -- janko -------------------------------------------------------------------------------------

JANKO = """[begin]
puzzle nurikabe
author Warai Kamosika
solver Otto
source https://puzz.link/p?nurikabe/3/2/2j1
source book
cols 3
rows 2
unit 25
[problem]
2 - -
- - 1
[solution]
2 - x
x x 1
[moves]
a1 a2
[moves]
[end]
"""


def test_janko_bracketed() -> None:
    doc = load(JANKO)
    assert doc.format == "janko"
    assert doc.puzzle == read("https://puzz.link/p?nurikabe/3/2/2j1")
    assert doc.solution is not None
    assert doc.solution.to_rows() == ["..#", "##."]
    assert doc.meta == {
        "author": "Warai Kamosika",
        "solver": "Otto",
        "source": ["https://puzz.link/p?nurikabe/3/2/2j1", "book"],
        "unit": "25",
    }
    assert write(doc, "janko") == (
        "[begin]\npuzzle nurikabe\nauthor Warai Kamosika\nsolver Otto\n"
        "source https://puzz.link/p?nurikabe/3/2/2j1\nsource book\nunit 25\n"
        "rows 2\ncols 3\n[problem]\n2 - -\n- - 1\n[solution]\n2 - x\nx x 1\n[end]\n"
    )


@pytest.mark.parametrize(
    "text",
    [
        JANKO.replace("[", "").replace("]", ""),
        JANKO.replace("[end]\n", ""),
        JANKO.replace("[end]", "send"),
        JANKO.replace("[end]", "eend"),
        JANKO.replace("cols 3\nrows 2\n", ""),  # the size from the problem's shape
        '<html><script id="data" type="application/x-janko">\n' + JANKO + "</script>",
        JANKO.replace("[problem]\n2 - -\n- - 1\n", "[problem]\n2 - -\n- - 1\n[problem]\n- - -\n"),
        JANKO.upper().replace("WARAI", "Warai").replace("X", "x"),
    ],
)
def test_janko_lenient(text: str) -> None:
    doc = load(text)
    assert doc.puzzle.clues == {0: 2, 5: 1}
    assert doc.solution is not None
    assert doc.solution.to_rows() == ["..#", "##."]


JANKO_1002_ROWS = [
    "- - - - - - - - - -",
    "- 2 - - - - - 5 - -",
    "- - - 5 - 2 - - - -",
    "- - - - 4 - - - - -",
    "- - - - - - - - - -",
    "- - - - - - - - - -",
    "- - - - - 4 - - - -",
    "- - - - 3 - 2 - - -",
    "- - 6 - - - - - 3 -",
    "- - - - - - - - - -",
]
JANKO_1002 = (
    "[begin]\npuzzle nurikabe\nauthor @puzzle_titech\nsolver Groffin\n"
    "source https://puzz.link/p?nurikabe/10/10/q2k5k5g2n4zp4n3g2k6k3q\n"
    "source https://twitter.com/puzzle_titech/status/1251352251311853575\n"
    "info 18.4.2020, 05:30 (3) [002]\nunit 25\nsize 10\n[problem]\n"
    + "".join(row + " \n" for row in JANKO_1002_ROWS)
)


def test_janko_real_block_without_end() -> None:
    # The shape of janko.at #1002 as scraped: size form, two sources, no [end], trailing spaces.
    doc = load(JANKO_1002)
    assert doc.puzzle == read(doc.meta["source"][0])
    assert doc.meta["info"] == "18.4.2020, 05:30 (3) [002]"
    assert doc.solution is None


def test_janko_size_form_and_no_solution() -> None:
    doc = load("begin\npuzzle nurikabe\nsize 2\nproblem\n- 3\n- -\nend\n")
    assert doc.puzzle.clues == {1: 3}
    assert doc.solution is None
    assert "[solution]" not in write(doc, "janko")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[begin]\npuzzle sudoku\nsize 2\n[problem]\n- -\n- -\n", "line 2: not a nurikabe puzzle"),
        ("[begin]\nsize 2\n[end]\n", "no [problem] section"),
        ("[begin]\nsize 2\n[problem]\n- -\n", "line 3: expected 2 rows in [problem], got 1"),
        ("[begin]\nsize 2\n[problem]\n- -\n- - -\n", "line 5: expected 2 cells, got 3"),
        ("[begin]\nsize 2\n[problem]\n- a\n- -\n", "line 4, column 3: unknown cell 'a'"),
        ("[begin]\nsize 2\n[problem]\n- 5\n- -\n", "line 4, column 3: clue 5 is larger"),
        ("[begin]\nsize 0\n[problem]\n", "line 2: grid 0x0 has no cells"),
        ("[begin]\nsize 1000000\n[problem]\n", "line 2: grid 1000000x1000000 is larger"),
        ("[begin]\nsize two\n[problem]\n", "line 2: 'size' must be a number"),
        ("[begin]\n1 2 3\n[problem]\n", "line 2: expected a property or a section"),
        (
            "[begin]\nsize 1\n[problem]\n1\n[solution]\ny\n",
            "line 6, column 1: unknown cell 'y' in [solution]",
        ),
    ],
)
def test_janko_errors(text: str, message: str) -> None:
    with pytest.raises(FormatError) as info:
        read(text)
    assert str(info.value).startswith(message)


# -- solution grids and read_board ---------------------------------------------------------------


def test_solution_grid_alone() -> None:
    doc = load("2#3#...\n.#.###4\n##.#1##\n.####4.\n.#.#.#.\n.#2#2#.\n.5#####\n")
    assert doc.format == "solution"
    assert doc.puzzle == read(F_URL)
    assert doc.solution is not None
    assert doc.solution == load(F_SOLUTION).board
    partial = load("#?\n.1")
    assert partial.board is not None and partial.solution is None
    assert write(partial, "solution") == "#?\n..\n"


def test_read_board_forms() -> None:
    p = read(F_URL)
    expected = load(F_SOLUTION).board
    rows = ["2#3#...", ".#.###4", "##.#1##", ".####4.", ".#.#.#.", ".#2#2#.", ".5#####"]
    assert read_board("\n".join(rows), p) == expected
    dotted = "\n".join("".join("." if ch.isdigit() else ch for ch in r) for r in rows)
    assert read_board(dotted, p) == expected
    assert read_board(dotted.replace("#", "x"), p) == expected
    spaced = "\n".join(" ".join(r) for r in rows)
    assert read_board(spaced, p) == expected
    assert read_board(write(p, "janko", solution=expected), p) == expected
    assert read_board(write(p, "pzprv3", board=expected), p) == expected
    assert read_board(write(p, "jsonl", solution=expected), p) == expected
    assert read_board(write(p, "solution", solution=expected), p) == expected
    unknown = read_board("?" * 7 + "\n" + "\n".join(rows[1:]), p)
    assert unknown.color(1).name == "UNKNOWN" and unknown.color(0).name == "WHITE"


def test_read_board_multi_digit_clues() -> None:
    p = Puzzle.from_grid([[11, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    assert read_board("11 . # .\n. . # .\n# # # #", p).to_rows() == ["..#.", "..#.", "####"]
    assert read_board("11.#.\n..#.\n####", p).to_rows() == ["..#.", "..#.", "####"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("..\n..", "line 2: expected 3 rows (the puzzle is 3x2), got 2"),
        ("..\n..\n..\n..", "line 4: expected 3 rows"),
        ("..\n...\n..", "line 2: expected 2 cells (the puzzle is 3x2), got 3: '...'"),
        ("1.\n.a\n..", "line 2, column 2: unknown cell 'a'"),
        ("1.\n.4\n..", "line 2, column 2: a clue 4 where the puzzle has none"),
        ("2.\n..\n..", "line 1, column 1: a clue 2 where the puzzle has 1"),
        ("pzprv3/nurikabe/2/2/1 . /. . /", "the board is 2x2 but the puzzle is 3x2"),
        (
            "pzprv3/nurikabe/3/2/1 . /. . /. 2 /",
            "the board's clues are not the puzzle's (they differ at r3c2)",
        ),
        (
            "pzprv3/nurikabe/3/2/. . /. . /. . /",
            "the board's clues are not the puzzle's (they differ at r1c1)",
        ),
        ("[begin]\nrows 3\ncols 2\n[problem]\n1 -\n- -\n- -\n[end]", "the janko input holds no"),
        ("", "input is empty"),
    ],
)
def test_read_board_errors(text: str, message: str) -> None:
    p = Puzzle.from_grid([[1, 0], [0, 0], [0, 0]])
    with pytest.raises(FormatError) as info:
        read_board(text, p, source="board.txt")
    assert str(info.value).startswith("board.txt") or message == "input is empty"
    assert message in str(info.value)


# -- game IDs and Pencilbox ---------------------------------------------------------------------


def test_sgt_forms() -> None:
    assert read("3x2:1_2d").clues == {0: 1, 1: 2}
    assert read(" 3X2: 6e ", format="sgt").clues == {0: 6}
    assert read("28x1:z1a").clues == {26: 1}
    assert write(read("28x1:z1a"), "sgt") == "28x1:z1a"
    assert read("12x1:11k").clues == {0: 11}
    assert read("12x1:Bk").clues == {0: 11}  # ohmec: A-Z are 10-35
    assert read("3x2:a1a.c").clues == {1: 1}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3x2:1_2", "not enough data: 2 of the 6 cells"),
        ("3x2:1_2dd", "too much data"),
        ("3x2:_1e", "unexpected character '_'"),
        ("3x2:1e!", "too much data"),
        ("3x2:1!e", "unexpected character '!'"),
        ("3x2:7e", "clue 7 is larger than the grid"),
        ("3x2:a1a.b", "row 2: expected 3 cells, got 2"),
        ("3x2:a1a", "not enough data"),
        ("3x2:a1a.c.c", "expected 2 rows separated by '.', got 3"),
        ("3x2:a1a.d", "row 2: the run 'd' goes past"),
        ("0x2:", "grid 2x0 has no cells"),
        ("999x2:", "larger than the supported"),
    ],
)
def test_sgt_errors(text: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        read(text)


def test_pencilbox() -> None:
    text = "2\n3\n1 # + \n. ? # \n"
    assert detect(text) == "pencilbox"
    doc = load(text)
    assert doc.puzzle.clues == {0: 1, 4: -1}
    assert doc.board is not None and doc.board.to_rows() == [".#.", "?.#"]
    assert write(doc, "pencilbox") == text
    assert read_board(text.replace("#", "+"), doc.puzzle).to_rows() == ["...", "?.."]
    with pytest.raises(FormatError, match="line 4, column 3: unknown cell 'x'"):
        read("2\n3\n1 # +\n. x #")
    with pytest.raises(FormatError, match="line 3: expected 3 cells, got 2"):
        read("2\n3\n1 #\n. ? #", format="pencilbox")
    with pytest.raises(FormatError, match="expected 2 rows, got 1"):
        read("2\n3\n1 # .", format="pencilbox")


# -- detection and the registry ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (A_URL, "url"),
        (B_URL, "url"),
        (EMBEDDED_URL, "url"),
        (A_SOLUTION, "pzprv3"),
        (F_SOLUTION, "pzprv3"),
        ("pzprv3\nnurikabe\n1\n1\n1 \n", "pzprv3"),
        (JANKO, "janko"),
        ('{"rows": 1, "cols": 1, "clues": []}', "jsonl"),
        ("2 3\n1 0 0\n0 0 2", "text"),
        ("1 . ?\n. . 3", "text"),
        ("2#3\n.#.", "solution"),
        ("7x7:2a3j4d1g4j2a2c5e", "sgt"),
        ("7x7:2a3d.f4.d1b.e4a.g.b2a2b.a5e", "sgt"),
        ("2\n3\n1 # +\n. ? #", "pencilbox"),
        ("2\n3\n1\n3\n0\n", "text"),
        ("5\n1\n3\n0\n0\n", "text"),
    ],
)
def test_detect(text: str, name: str) -> None:
    assert detect(text) == name


def test_detect_rejects_junk() -> None:
    with pytest.raises(FormatError, match="not a puzzle in any known format"):
        detect("hello world")


def test_registry() -> None:
    names = format_names()
    for name in ("url", "pzprv3", "janko", "jsonl", "sgt", "pencilbox", "text", "solution"):
        assert name in names
    with pytest.raises(FormatError, match="unknown format 'nope'"):
        write(Puzzle(1, 1), "nope")
    assert write(Document(Puzzle(1, 1, {0: 1})), "thesis") == "1 1\n1\n"


@pytest.mark.parametrize(
    "text",
    ["", "   \n\t\n", "\x00\x01binary", "0 0\n", "1 1\n0 0 0", "1 2\n1 a", "[begin]"],
)
def test_bad_input_is_a_value_error(text: str) -> None:
    with pytest.raises((FormatError, InvalidPuzzleError)):
        read(text)


def test_byte_order_mark_is_ignored() -> None:
    assert read("\ufeff2 3\n1 0 0\n0 0 2").clues == {0: 1, 5: 2}
    assert detect("\ufeffpzprv3/nurikabe/1/1/1 /") == "pzprv3"
    assert read_board("\ufeff#.\n..", Puzzle(2, 2)).to_rows() == ["#.", ".."]


def test_source_is_named() -> None:
    with pytest.raises(FormatError) as info:
        read("1 0 0\n0 0", source="p.txt")
    assert str(info.value) == "p.txt, line 2: expected 3 cells, got 2: '0 0'"


def test_text_with_a_bad_cell_is_reported_by_the_text_reader() -> None:
    """A header line makes it the text format, even when a cell looks like a black mark."""
    with pytest.raises(FormatError, match=r"line 2, column 3: a cell must be a number, got 'x'"):
        read("2 2\n1 x\n0 0\n")
