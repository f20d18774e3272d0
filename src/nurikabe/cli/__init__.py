"""The ``nurikabe`` command: an argparse front end with no puzzle logic of its own.

Each command lives in its own module under ``nurikabe.cli`` and defines
``register(subparsers)``, which adds its parser and sets ``func`` to a function
``(args) -> int`` returning the exit code. Bad input ends with one line on stderr
and exit code 2; Ctrl-C ends with exit code 130 and no traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from ..errors import NurikabeError
from .common import CliError

# Modules that each add one or more commands, in the order `--help` lists them.
COMMAND_MODULES = [
    "demo",
    "show",
    "convert",
    "check",
    "solve",
    "logic",
    "generate",
    "collection",
    "research",
]


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line, like every other error."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every command registered."""
    from .. import __version__

    parser = _Parser(
        prog="nurikabe",
        description="Solve, check, explain, generate and play Nurikabe puzzles.",
    )
    parser.add_argument("--version", action="version", version=f"nurikabe {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{__name__}.{name}":
                continue  # a command not built yet
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args))
    except CliError as exc:
        print(f"nurikabe: {exc}", file=sys.stderr)
        return exc.code
    except NurikabeError as exc:
        print(f"nurikabe: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("nurikabe: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
