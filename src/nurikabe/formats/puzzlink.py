"""puzz.link URLs (the pzprjs family: puzz.link, pzv.jp, pzprxs, indi.s58.xrea.com).

A URL is ``<host and path>?<pid>/<cols>/<rows>/<body>``: width first, then height;
the body lists the cells row-major in pzprjs's Number16 code (formats.md, 1.2):

* ``0``-``9``, ``a``-``f``: a clue of 0-15; ``.``: a ``?`` clue;
* ``-`` + 2 hex digits (16-255), ``+`` + 3 (256-4095), ``=`` + 3 (4096 + n),
  ``@`` or ``%`` + 3 (8192 + n), ``*`` + 4 (12240 + n), ``$`` + 5 (77776 + n);
* ``g``..``z``: a run of 1..20 empty cells.

Reading accepts any host, ``p?`` or ``p.html?``, the ``_edit``/``_play`` pid suffixes,
``type=editor&``-style prefixes, ``v:`` and pflag segments, one trailing ``/``, the
embedded save file (``?pzprv3/nurikabe/...``, see `pzprv3`) and old Kanpen URLs
(``kanpen.net/nurikabe.html?problem=...``). Unlike pzprjs it refuses what it cannot
read exactly: another genre, a body that stops short of the last cell or runs past
it, an unknown character, a malformed multi-character number.

Writing is canonical: ``https://puzz.link/p?nurikabe/<cols>/<rows>/<body>`` with
lower-case hex, runs of 20 written ``z`` and a ``/`` added when the body ends in a
character other than a letter or digit.

>>> doc = load("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g")
>>> doc.puzzle.clues
{1: 5, 7: 2, 17: 1, 23: 3}
>>> dump(doc)
'https://puzz.link/p?nurikabe/5/5/g5k2o1k3g'

Imports `puzzle`, `errors` and the formats registry.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..errors import FormatError
from ..grid import MAX_SIDE
from ..puzzle import UNKNOWN_CLUE
from ._common import check_clue, check_size, make_puzzle, quote
from .document import Document

NAME = "url"
ALIASES = ("puzzlink", "puzz.link", "pzv", "pzprxs")

CANONICAL_PREFIX = "https://puzz.link/p?nurikabe/"
"""What every URL we write starts with."""

PID = "nurikabe"

_HEX = frozenset("0123456789abcdefABCDEF")
_SINGLE = "0123456789abcdef"
# prefix character -> (number of hex digits, value offset)
_MULTI = {
    "-": (2, 0),
    "+": (3, 0),
    "=": (3, 4096),
    "@": (3, 8192),
    "%": (3, 8192),
    "*": (4, 12240),
    "$": (5, 77776),
}
_GAP_FIRST, _GAP_LAST = "g", "z"
_MAX_GAP = 20

_URL_HEAD_RE = re.compile(
    r"(?:https?://[^?\s]*|(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?(?:/[^?\s]*)?|p(?:\.html)?|)\?[a-z]",
    re.IGNORECASE,
)
_SPACE_RE = re.compile(r"\s")
_MAX_HEAD = 300
_PREFIX_PARAM_RE = re.compile(r"[A-Za-z_]+=[^&/]*&")
_PZPRV3_RE = re.compile(r"pzprv3(?:\.\d+)?", re.IGNORECASE)


def looks_like(text: str) -> bool:
    """Whether `text` is one line like a URL with a query: ``host/path?pid...``.

    A bare query (``?nurikabe/...``, ``p?nurikabe/...``) counts too.
    """
    s = text.strip()
    q = s.find("?", 0, _MAX_HEAD)
    return (
        q >= 0 and _URL_HEAD_RE.fullmatch(s, 0, q + 2) is not None and _SPACE_RE.search(s) is None
    )


# -- the body code ---------------------------------------------------------------------------


def encode_value(value: int) -> str:
    """The Number16 token of one clue (``.`` for ``?``).

    >>> [encode_value(v) for v in (7, 22, 300, 5000, 9000, 20000, 100000, -1)]
    ['7', '-16', '+12c', '=388', '@328', '*1e50', '$056d0', '.']

    Raises:
        FormatError: a value the code cannot hold (below -1, or above 1126351).
    """
    if value == UNKNOWN_CLUE:
        return "."
    if value < 0:
        raise FormatError(f"clue {value} cannot be written in a URL")
    if value < 16:
        return _SINGLE[value]
    if value < 256:
        return f"-{value:02x}"
    if value < 4096:
        return f"+{value:03x}"
    if value < 8192:
        return f"={value - 4096:03x}"
    if value < 12240:
        return f"@{value - 8192:03x}"
    if value < 77776:
        return f"*{value - 12240:04x}"
    if value < 77776 + 0x100000:
        return f"${value - 77776:05x}"
    raise FormatError(f"clue {value} is too large for a URL")


def _gap(run: int) -> str:
    """Letters for `run` empty cells: ``z`` per 20, then one letter for the rest."""
    full, rest = divmod(run, _MAX_GAP)
    return _GAP_LAST * full + (chr(ord(_GAP_FIRST) + rest - 1) if rest else "")


def encode_body(area: int, cells: Mapping[int, int]) -> str:
    """The canonical body for a grid of `area` cells holding `cells` (index -> value).

    Values are not checked against the area, so that the code can be tested on its own.

    >>> encode_body(9, {8: -1}), encode_body(4, {0: 300, 3: 16})
    ('n.', '+12ch-10')
    """
    out = []
    previous = -1
    for i in sorted(cells):
        out.append(_gap(i - previous - 1))
        out.append(encode_value(cells[i]))
        previous = i
    out.append(_gap(area - previous - 1))
    return "".join(out)


def decode_body(body: str, area: int, *, column: int = 1) -> dict[int, int]:
    """The cells (index -> value, -1 for ``?``) of a body for a grid of `area` cells.

    `column` is where the body starts in the input, for error positions. Values are
    not checked against the area.

    >>> decode_body("g5k2o1k3g", 25)
    {1: 5, 7: 2, 17: 1, 23: 3}

    Raises:
        FormatError: an unknown character, a malformed number, a run past the last cell,
            text after the last cell, or a body that stops before the last cell.
    """
    cells: dict[int, int] = {}
    c = i = 0
    n = len(body)
    while i < n:
        ch = body[i]
        where = column + i
        if c >= area:
            raise FormatError(
                f"unexpected {quote(body[i:])} after the last of the {area} cells", column=where
            )
        if ch in _SINGLE:
            cells[c] = int(ch, 16)
            c += 1
            i += 1
        elif ch == ".":
            cells[c] = UNKNOWN_CLUE
            c += 1
            i += 1
        elif ch in _MULTI:
            digits, offset = _MULTI[ch]
            token = body[i + 1 : i + 1 + digits]
            if len(token) < digits or not all(d in _HEX for d in token):
                raise FormatError(
                    f"malformed number {quote(body[i : i + 1 + digits])}: {ch!r} needs "
                    f"{digits} hex digits",
                    column=where,
                )
            cells[c] = offset + int(token, 16)
            c += 1
            i += 1 + digits
        elif _GAP_FIRST <= ch <= _GAP_LAST:
            run = ord(ch) - ord(_GAP_FIRST) + 1
            if c + run > area:
                raise FormatError(
                    f"the run {ch!r} of {run} empty cells goes past the last of the {area} cells",
                    column=where,
                )
            c += run
            i += 1
        else:
            raise FormatError(f"unexpected character {ch!r} in the URL body", column=where)
    if c < area:
        raise FormatError(
            f"the URL body stops after {c} of the {area} cells (truncated URL?)",
            column=column + n,
        )
    return cells


# -- reading ---------------------------------------------------------------------------------


def _segments(query: str, start: int) -> list[tuple[str, int]]:
    """`query` split on ``/``, each part with its 1-based column in the input."""
    out = []
    column = start
    for part in query.split("/"):
        out.append((part, column))
        column += len(part) + 1
    return out


def _number(part: str, column: int, what: str) -> int:
    if not part:
        raise FormatError(f"the URL lacks the {what} (truncated URL?)", column=column)
    if not (part.isascii() and part.isdigit()):
        raise FormatError(f"the {what} must be a number, got {quote(part)}", column=column)
    return int(part) if len(part) <= 9 else 10**9


def _load_pzprv3(segments: list[tuple[str, int]]) -> Document:
    from urllib.parse import unquote

    from . import pzprv3

    text = "\n".join(unquote(part) for part, _ in segments)
    document = pzprv3.load(text)
    document.format = NAME
    return document


def _load_kanpen(prefix: str, query: str, start: int) -> Document:
    """An old Kanpen URL: ``.../nurikabe.html?problem=<rows>/<cols>/<row>/...``.

    Cells in a row are separated by ``_``: a number, ``?``, or ``.`` for empty.
    """
    page = prefix.rstrip("/").rsplit("/", 1)[-1].lower()
    genre = page.split(".", 1)[0]
    if genre != PID:
        raise FormatError(f"not a nurikabe URL: Kanpen page {quote(page)}")
    parts = _segments(query[len("problem=") :], start + len("problem="))
    while parts and not parts[-1][0]:
        parts.pop()
    if not parts:
        raise FormatError("the URL lacks the row count (truncated URL?)")
    rows = _number(parts[0][0], parts[0][1], "row count")
    if len(parts) < 2:
        raise FormatError("the URL lacks the column count (truncated URL?)")
    cols = _number(parts[1][0], parts[1][1], "column count")
    check_size(rows, cols)
    body = parts[2:]
    if len(body) != rows:
        raise FormatError(f"expected {rows} rows in the URL, got {len(body)}")
    area = rows * cols
    clues: dict[int, int] = {}
    for r, (part, column) in enumerate(body):
        tokens = part.removesuffix("_").split("_", MAX_SIDE)  # pzprjs ends each cell with "_"
        if len(tokens) != cols:
            raise FormatError(
                f"row {r + 1}: expected {cols} cells, got {len(tokens)}: {quote(part)}",
                column=column,
            )
        for c, token in enumerate(tokens):
            if token in (".", "+", "#"):
                continue
            if token == "?":
                value = UNKNOWN_CLUE
            elif token.isascii() and token.isdigit() and len(token) <= 9:
                value = int(token)
            else:
                raise FormatError(f"row {r + 1}: bad cell {quote(token)}", column=column)
            check_clue(value, area, column=column)
            clues[r * cols + c] = value
    return Document(make_puzzle(rows, cols, clues), format=NAME)


def load(text: str) -> Document:
    """Read a Nurikabe URL (see the module docstring for what is accepted).

    Raises:
        FormatError: not a URL, another genre ("not a nurikabe URL: pid 'nuribou'"),
            a missing or bad size, or a bad body (with the column).
    """
    s = text.strip()
    q = s.find("?")
    if q < 0:
        raise FormatError(f"not a puzz.link URL (no '?'): {quote(s)}")
    prefix, query, start = s[:q], s[q + 1 :], q + 2
    if query.startswith("problem="):
        return _load_kanpen(prefix, query, start)
    while (m := _PREFIX_PARAM_RE.match(query)) is not None:
        query = query[m.end() :]
        start += m.end()
    parts = _segments(query, start)
    while parts and parts[0][0].startswith("v:"):
        parts.pop(0)
    if not parts or not parts[0][0]:
        raise FormatError("not a nurikabe URL: no puzzle type after '?'")
    pid, pid_column = parts[0]
    if _PZPRV3_RE.fullmatch(pid):
        return _load_pzprv3(parts)
    for suffix in ("_edit", "_play"):
        pid = pid.removesuffix(suffix)
    if pid.lower() != PID:
        raise FormatError(f"not a nurikabe URL: pid {quote(pid, 30)}", column=pid_column)
    rest = parts[1:]
    # Optional variant and pflag segments come before the size.
    while rest and rest[0][0] and not rest[0][0].isdigit():
        rest.pop(0)
    if not rest:
        raise FormatError(
            "the URL lacks the column count (truncated URL?)", column=start + len(query)
        )
    cols = _number(rest[0][0], rest[0][1], "column count")
    if len(rest) < 2:
        raise FormatError("the URL lacks the row count (truncated URL?)", column=start + len(query))
    rows = _number(rest[1][0], rest[1][1], "row count")
    check_size(rows, cols)
    body, column = rest[2] if len(rest) > 2 else ("", start + len(query))
    for extra, extra_column in rest[3:]:
        if extra:
            raise FormatError(f"unexpected {quote(extra)} after the URL body", column=extra_column)
    area = rows * cols
    cells = decode_body(body, area, column=column)
    for i, value in cells.items():
        try:
            check_clue(value, area)
        except FormatError as exc:
            raise FormatError(f"r{i // cols + 1}c{i % cols + 1}: {exc.message}") from None
    return Document(make_puzzle(rows, cols, cells), format=NAME)


def dump(document: Document) -> str:
    """The canonical puzz.link URL of the document's puzzle (board and solution are not kept)."""
    p = document.puzzle
    body = encode_body(p.area, p.clues)
    url = f"{CANONICAL_PREFIX}{p.cols}/{p.rows}/{body}"
    if not body[-1].isalnum():
        url += "/"  # pzprjs's rule, so that link shorteners do not cut a final '.'
    return url
