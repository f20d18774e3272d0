"""Fuzzing the readers: whatever the text, a reader returns or raises `FormatError` /
`InvalidPuzzleError`, never anything else, and never hangs.

Every reader is held to it: each format by name, auto-detection, `detect` and
`read_board`. Inputs are arbitrary text, text over each format's alphabet, and
random mutations of valid inputs (worked examples, corpus puzzles in every format).
"""

from __future__ import annotations

import contextlib
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nurikabe.errors import FormatError, InvalidPuzzleError
from nurikabe.formats import Document, detect, format_names, load, read_board, write
from nurikabe.puzzle import Puzzle
from tests.corpus import CORPUS_PATH, sample

ALLOWED = (FormatError, InvalidPuzzleError)
FUZZ = settings(
    max_examples=200,
    deadline=5000,  # a hang fails the test; this is far above any real parse
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
BOARD_PUZZLE = Puzzle.from_grid([[1, 0, 0], [0, 0, 2], [0, 0, 0]])


def seeds() -> list[str]:
    """Valid inputs of every format to mutate."""
    texts = [
        "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g",
        "https://pzprxs.vercel.app/p?nurikabe/10/10/2l2u2l2n2m2m.k2g2i2q2l2s",
        "https://puzz.link/p?nurikabe/4/1/=388g@328/",
        "https://puzz.link/p?nurikabe/2/2/+12ch-10",
        "https://puzz.link/p?type=editor&pzprv3/nurikabe/3/3/%23%20%23%20.%20/1%20%23%203%20/"
        "%23%20%23%20.%20//",
        "http://www.kanpen.net/nurikabe.html?problem=2/3/1_._./._._2",
        "pzprv3/nurikabe/5/5/+ 5 # # # /+ # 2 + # /+ # # # # /+ # 1 # . /# # # 3 . /",
        "begin\nsize 2\nproblem\n2 -\n- -\nsolution\n2 -\nx x\neend",
        "2#3#...\n.#.###4\n##.#1##\n.####4.\n.#.#.#.\n.#2#2#.\n.5#####\n",
        "1 . ?\n. . 3",
        "3 3\n1 0 0\n0 0 2\n0 0 0\n",
        "1#?\n.#2\n###",
    ]
    puzzle = Puzzle.from_clues(3, 4, [(0, 0, 3), (2, 3, -1), (1, 2, 12)])
    docs = [Document(puzzle, solution=puzzle.empty_board()), Document(puzzle.without_clue(11))]
    if CORPUS_PATH.exists():
        docs += sample(6, max_cells=100)
    for doc in docs:
        for name in format_names():
            with contextlib.suppress(FormatError):  # sgt and j have no '?' clue
                texts.append(write(doc, name))
    texts += ["7x7:2a3d.f4.d1b.e4a.g.b2a2b.a5e", "3x1:1_2a", "2\n3\n1 # +\n. ? #"]
    # The J essay's forms: a noun block with J code around it, and a bare board.
    texts += [
        'WHITE=: 0\nn1=: ".;._2 (0 : 0)\n0 1 0\n0 0 2 NB. row 2\n0 0 0\n)\ninit n1',
        "_2  1 _2\n_2 _1 _1\n 0  0  2",
    ]
    return texts


SEEDS = seeds()


def assert_contract(text: str) -> None:
    """Every reader either succeeds or raises an allowed error on `text`."""
    for name in [None, *format_names()]:
        try:
            doc = load(text, format=name)
        except ALLOWED as exc:
            message = str(exc)
            assert message and message.splitlines() == [message], message  # one line
            continue
        assert isinstance(doc, Document)
        assert doc.puzzle.rows >= 1 and doc.puzzle.cols >= 1
        # What parses can be written again.
        for out in format_names():
            try:
                write(doc, out)
            except FormatError:
                assert out in ("sgt", "j")  # formats that cannot hold a '?' clue
    with contextlib.suppress(FormatError):
        detect(text)
    with contextlib.suppress(*ALLOWED):
        read_board(text, BOARD_PUZZLE)


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A valid input with a few random edits: deletions, insertions, replacements, cuts."""
    text = draw(st.sampled_from(SEEDS))
    alphabet = st.sampled_from([*list('0123456789abcdefgxz.-+?#/ \n%=@*$_[]{}:"'), "\x00", "é"])
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["delete", "insert", "replace", "cut", "duplicate", "swap"]))
        if not text:
            break
        i = draw(st.integers(0, len(text) - 1))
        if kind == "delete":
            j = draw(st.integers(i, min(len(text), i + 4)))
            text = text[:i] + text[j:]
        elif kind == "insert":
            text = text[:i] + draw(st.text(alphabet, min_size=1, max_size=4)) + text[i:]
        elif kind == "replace":
            text = text[:i] + draw(alphabet) + text[i + 1 :]
        elif kind == "cut":
            text = text[:i]
        elif kind == "duplicate":
            lines = text.splitlines(keepends=True)
            k = draw(st.integers(0, len(lines) - 1))
            text = "".join(lines[: k + 1] + lines[k:])
        else:
            lines = text.splitlines(keepends=True)
            k = draw(st.integers(0, len(lines) - 1))
            m = draw(st.integers(0, len(lines) - 1))
            lines[k], lines[m] = lines[m], lines[k]
            text = "".join(lines)
    return text


@FUZZ
@given(st.text(max_size=300))
def test_arbitrary_text(text: str) -> None:
    assert_contract(text)


@FUZZ
@given(st.text(alphabet="0123456789 \n.-?#x+_/", max_size=200))
def test_grid_like_text(text: str) -> None:
    assert_contract(text)


@FUZZ
@given(
    st.builds(
        lambda head, body: head + body,
        st.sampled_from(
            [
                "https://puzz.link/p?nurikabe/",
                "https://puzz.link/p?nurikabe/3/3/",
                "https://puzz.link/p?nurikabe/17/17/",
                "puzz.link/p?",
                "https://puzz.link/p?pzprv3/",
                "pzprv3/nurikabe/",
                "pzprv3\nnurikabe\n",
                "[begin]\n",
                "begin\nsize 3\nproblem\n",
                "http://www.kanpen.net/nurikabe.html?problem=",
                '{"rows": 2, "cols": 2, "clues": ',
            ]
        ),
        st.text(alphabet="0123456789abcdefghijklmnopqrstuvwxyz.-+=@%*$/_ \n#&:?", max_size=80),
    )
)
def test_format_heads_with_random_bodies(text: str) -> None:
    assert_contract(text)


@FUZZ
@given(mutated())
def test_mutated_valid_inputs(text: str) -> None:
    assert_contract(text)


@pytest.mark.parametrize(
    "text",
    [
        "9" * 3_999_000,
        "0 " * 1_999_000,
        ("0 " * 1000 + "\n") * 1900,
        "https://puzz.link/p?nurikabe/256/256/" + "z" * 3_999_000,
        "pzprv3\nnurikabe\n256\n256\n" + ("# " * 256 + "\n") * 256,
        "[begin]\nsize 256\n[problem]\n" + ("- " * 256 + "\n") * 7000,
        "[" * 1_000_000,
        '{"rows": ' + "[" * 100_000,
        "#" * 3_999_000,
        "\n" * 3_999_000,
    ],
    ids=lambda t: repr(t[:20]),
)
def test_large_inputs_end_quickly(text: str) -> None:
    start = time.perf_counter()
    assert_contract_quick(text)
    assert time.perf_counter() - start < 20


def assert_contract_quick(text: str) -> None:
    """Auto-detection and every reader by name, without the writes."""
    for name in [None, *format_names()]:
        with contextlib.suppress(*ALLOWED):
            load(text, format=name)
