"""The ``nurikabe`` command: an argparse front end with no puzzle logic of its own.

Each command lives in its own module under ``nurikabe.cli`` and defines
``register(subparsers)``, which adds its parser and sets ``func`` to a function
``(args) -> int`` returning the exit code. Bad input ends with one line on stderr
and exit code 2; Ctrl-C ends with exit code 130 and no traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from ..errors import NurikabeError
from .common import CliError, silence_stdout

# Each command and the module that adds it, in the order `--help` lists them. Running
# a command imports only its module, so that `nurikabe solve` loads no generator.
COMMANDS = {
    "demo": "demo",
    "show": "show",
    "convert": "convert",
    "check": "check",
    "solve": "solve",
    "hint": "logic",
    "explain": "logic",
    "grade": "logic",
    "generate": "generate",
    "collection": "collection",
    # not `print`: a submodule named so would shadow the builtin inside this package
    "print": "printing",
    "serve": "serve",
    "players": "players",
    "research": "research",
}
COMMAND_MODULES = list(dict.fromkeys(COMMANDS.values()))


def _columns() -> int:
    """The terminal's width, found as `shutil.get_terminal_size` finds it.

    argparse asks shutil for it whenever it makes a help formatter, which it does to
    check every argument added, and shutil imports the compression modules: some
    milliseconds of every command's start, for a number only ``--help`` uses.
    """
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            stdout = sys.__stdout__
            columns = os.get_terminal_size(stdout.fileno()).columns if stdout else 0
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout, at the terminal's width found without shutil."""

    def __init__(self, prog: str, **kwargs: Any) -> None:
        if kwargs.get("width") is None:
            kwargs["width"] = _columns() - 2  # what argparse does with shutil's answer
        super().__init__(prog, **kwargs)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line, like every other error."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every command registered, or only `command`'s module's."""
    from .. import __version__

    parser = _Parser(
        prog="nurikabe",
        description="Solve, check, explain, generate and play Nurikabe puzzles.",
    )
    parser.add_argument("--version", action="version", version=f"nurikabe {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in [COMMANDS[command]] if command in COMMANDS else COMMAND_MODULES:
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
    argv = sys.argv[1:] if argv is None else list(argv)
    # The top-level options take no value, so a command comes first or not at all.
    parser = build_parser(argv[0] if argv else None)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code = int(args.func(args))
        sys.stdout.flush()  # a full disk shows here, not in the interpreter's exit flush
        return code
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
    except OSError as exc:
        if exc.filename is not None:  # a file the command itself opened
            print(f"nurikabe: {exc.filename}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        silence_stdout()
        print(f"nurikabe: standard output: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
