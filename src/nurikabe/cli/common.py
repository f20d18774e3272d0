"""What every command shares: reading a SRC argument, checked numeric options, writing
output (standard output included: a full disk is one line, not a traceback), the one-line
error.

A SRC is a path, a URL (puzz.link, pzv.jp, pzprxs), ``-`` for standard input, a
Tatham-style ``WxH:...`` game ID, or a puzzle text given inline (anything containing a
newline).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from collections.abc import Callable
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


MAX_SECONDS = 7 * 24 * 3600.0
"""The largest time limit an option takes (a week): longer is a mistake, not a plan."""


def number_option(
    kind: type[int] | type[float],
    *,
    low: float | None = None,
    high: float | None = None,
    above: bool = False,
    what: str = "",
) -> Callable[[str], Any]:
    """An argparse ``type=`` for a finite number in [`low`, `high`] (`above`: > `low`).

    Rejects nan, inf and anything out of range with argparse's one-line error (exit 2).
    """

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            noun = "a whole number" if kind is int else "a number"
            raise argparse.ArgumentTypeError(f"not {noun}: {text!r}") from None
        if isinstance(value, float) and not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"must be a finite number: {text!r}")
        bad = (low is not None and (value <= low if above else value < low)) or (
            high is not None and value > high
        )
        if bad:
            parts = []
            if low is not None:
                parts.append(f"above {_shown(low)}" if above else f"at least {_shown(low)}")
            if high is not None:
                parts.append(f"at most {_shown(high)}")
            span = " and ".join(parts)
            raise argparse.ArgumentTypeError(f"{what or 'value'} must be {span}: {text!r}")
        return value

    return parse


def _shown(value: float) -> str:
    return f"{int(value)}" if float(value).is_integer() else f"{value:g}"


seconds_option = number_option(float, low=0, high=MAX_SECONDS, above=True, what="seconds")
"""``--seconds``/``--timeout``: a finite time above 0, at most `MAX_SECONDS`."""

count_option = number_option(int, low=1, what="count")
"""``--limit``/``--count``: a whole number, at least 1."""

jobs_option = number_option(int, low=1, high=256, what="--jobs")
"""``--jobs``: 1 to 256 worker processes."""


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


def emit(text: str) -> None:
    """Write `text` (and a newline if it lacks one) to standard output, flushed.

    Raises:
        CliError: standard output cannot be written (a full disk, a closed pipe's
            sibling errors); output is then sent nowhere so exit stays quiet.
    """
    try:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
        raise
    except OSError as exc:
        silence_stdout()
        raise CliError(f"standard output: cannot write: {exc.strerror or exc}") from None


def silence_stdout() -> None:
    """Point standard output at the null device, so the exit flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # pragma: no cover - stdout is not a file
        pass


def print_json(obj: Any) -> None:
    """Print one JSON object on one line."""
    import json

    emit(json.dumps(obj, separators=(", ", ": ")))


def write_output(text: str, path: str | None) -> None:
    """Write `text` to `path`, or to standard output when `path` is None or ``-``.

    Raises:
        CliError: the file cannot be written.
    """
    if path is None or path == "-":
        emit(text)
        return
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text if text.endswith("\n") else text + "\n")
    except OSError as exc:
        raise CliError(f"{path}: cannot write: {exc.strerror or exc}") from None
