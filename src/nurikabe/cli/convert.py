"""``nurikabe convert``: rewrite a puzzle file or URL in another format, canonically.

Only reads the source and calls `nurikabe.formats.write`; a board or solution the
source holds goes along where the target format can carry it.
"""

from __future__ import annotations

import argparse

from ..errors import NurikabeError
from ..formats import format_names, write
from .common import CliError, load_source, write_output


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    names = ", ".join(format_names())
    parser = sub.add_parser(
        "convert",
        help="rewrite a puzzle in another format",
        description=(
            "Read a puzzle (a file, URL, or '-' for stdin) in any known format and write it "
            f"in FORMAT: {names}. 'text' is the thesis format, 'url' the canonical puzz.link "
            "URL. Exit codes: 0 written, 2 bad input."
        ),
    )
    parser.add_argument("src", metavar="SRC", help="puzzle file, URL, or '-' for stdin")
    parser.add_argument(
        "--to", required=True, metavar="FORMAT", dest="to", help=f"target format: {names}"
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    target = args.to.strip().lower()
    document = load_source(args.src)
    try:
        text = write(document, target)
    except NurikabeError as exc:
        raise CliError(f"--to {args.to}: {exc}") from None
    write_output(text, args.output)
    return 0
