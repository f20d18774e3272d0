"""What every command shares: reading a SRC argument, printing JSON, the one-line error.

A SRC is a path, a URL (puzz.link, pzv.jp, pzprxs), ``-`` for standard input, a
Tatham-style ``WxH:...`` game ID, or a puzzle text given inline (anything containing a
newline).
"""

from __future__ import annotations

import os.path
import re
import sys
from typing import Any

from ..errors import FormatError, NurikabeError
from ..formats import Document, load

MAX_FILE_BYTES = 16 * 1024 * 1024

_GAME_ID = re.compile(r"\d+x\d+:\S*")


class CliError(Exception):
    """A problem to report in one line, with an exit code (2 for bad input)."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


def is_url(src: str) -> bool:
    """Whether `src` is a URL rather than a path."""
    head = src.strip().lower()
    return head.startswith(("http://", "https://")) or (
        "?" in head and ("nurikabe" in head or "pzprv3" in head) and "\n" not in head
    )


def read_source(src: str) -> tuple[str, str]:
    """The text of `src` and a name for it (the path, ``<stdin>`` or ``<url>``).

    Raises:
        CliError: the file is missing, unreadable, too large or not text.
    """
    if src == "-":
        data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        name = "<stdin>"
    elif is_url(src) or "\n" in src:
        return src.strip(), "<url>" if is_url(src) else "<text>"
    elif _GAME_ID.fullmatch(src.strip()) and not os.path.exists(src):
        return src.strip(), "<id>"
    else:
        name = src
        try:
            if os.path.isdir(src):
                raise CliError(f"{src}: is a folder, not a puzzle file")
            with open(src, "rb") as fh:
                data = fh.read(MAX_FILE_BYTES + 1)
        except FileNotFoundError:
            raise CliError(f"{src}: no such file") from None
        except PermissionError:
            raise CliError(f"{src}: permission denied") from None
        except OSError as exc:
            raise CliError(f"{src}: cannot read: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise CliError(f"{name}: file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB")
    if b"\x00" in data:
        raise CliError(f"{name}: binary data, not a puzzle")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CliError(f"{name}: not UTF-8 text (byte {exc.start})") from None
    return text, name


def load_source(src: str, *, format: str | None = None) -> Document:
    """Read the document `src` names.

    Raises:
        CliError: the source cannot be read, does not parse or is not a puzzle.
    """
    text, name = read_source(src)
    try:
        return load(text, format=format, source=name)
    except FormatError as exc:
        raise CliError(str(exc.located(name))) from None
    except NurikabeError as exc:
        raise CliError(f"{name}: {exc}") from None


def source_id(src: str, document: Document | None = None) -> str:
    """The id to report for a puzzle: the document's own id, else the file name."""
    if document is not None and document.meta.get("id"):
        return str(document.meta["id"])
    if src == "-":
        return "<stdin>"
    if is_url(src):
        return src.strip()
    return os.path.basename(os.path.normpath(src))


def print_json(obj: Any) -> None:
    """Print one JSON object on one line."""
    import json

    print(json.dumps(obj, separators=(", ", ": ")))


def write_output(text: str, path: str | None) -> None:
    """Write `text` to `path`, or to standard output when `path` is None or ``-``.

    Raises:
        CliError: the file cannot be written.
    """
    if path is None or path == "-":
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text if text.endswith("\n") else text + "\n")
    except OSError as exc:
        raise CliError(f"{path}: cannot write: {exc.strerror or exc}") from None
