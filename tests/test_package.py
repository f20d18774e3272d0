"""Start-up: what `import nurikabe` and ``nurikabe solve`` load, and the lazy public API.

Each check runs a fresh interpreter (the test process has imported everything long
ago) and reads ``sys.modules`` at its end: ``-X importtime`` does not see what
`importlib.import_module` loads, which is how the CLI picks its command module and
the solver its engine. Nothing here is timed; ``bench/startup.py`` measures.
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import nurikabe
from nurikabe.cli import COMMAND_MODULES, COMMANDS, build_parser

PUZZLE_URL = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"

# The packages a solve must not load, whatever the input form.
FORBIDDEN = (
    "nurikabe.generator",
    "nurikabe.logic",
    "nurikabe.collection",
    "nurikabe.research",
    "nurikabe.rules",
    "nurikabe.render.svg",
    "nurikabe.solver.cpsat",
    "nurikabe.solver.reference",
    "nurikabe.cli.progress",
    "nurikabe.cli.generate",
    "nurikabe.cli.logic",
    "nurikabe.cli.collection",
)
HEAVY_THIRD_PARTY = ("ortools", "tqdm", "numpy", "google", "hypothesis")


def modules_after(code: str, *args: str) -> tuple[list[str], str]:
    """The modules loaded once `code` has run in a fresh interpreter, and its stdout."""
    script = code + "\nimport sys\nprint('MODULES', *sorted(sys.modules), file=sys.stderr)\n"
    done = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, check=False
    )
    lines = [line for line in done.stderr.splitlines() if line.startswith("MODULES ")]
    assert lines, done.stderr
    return lines[-1].split()[1:], done.stdout


def baseline() -> set[str]:
    """What a bare interpreter has loaded (site hooks of the environment included)."""
    modules, _ = modules_after("pass")
    return set(modules)


def third_party(modules: list[str]) -> list[str]:
    base = {m.split(".")[0] for m in baseline()}
    return [
        m
        for m in modules
        if m.split(".")[0] not in sys.stdlib_module_names
        and m.split(".")[0] not in base
        and not m.startswith("nurikabe")
    ]


def test_import_nurikabe_loads_nothing_else() -> None:
    modules, _ = modules_after("import nurikabe")
    assert [m for m in modules if m.startswith("nurikabe")] == ["nurikabe"]
    assert third_party(modules) == []
    # Not even the standard library's heavier modules.
    assert set(modules) - baseline() <= {"nurikabe"}


@pytest.fixture
def puzzle_files(tmp_path: Path) -> dict[str, str]:
    from nurikabe.formats import read, write

    puzzle = read(PUZZLE_URL)
    out = {"url": PUZZLE_URL}
    for form in ("jsonl", "text", "janko", "j"):
        path = tmp_path / f"puzzle.{form}"
        path.write_text(write(puzzle, form), encoding="utf-8")
        out[form] = str(path)
    return out


@pytest.mark.parametrize("form", ["url", "jsonl", "text", "janko", "j"])
def test_solve_loads_no_generator_logic_or_heavy_package(
    form: str, puzzle_files: dict[str, str]
) -> None:
    code = "from nurikabe.cli import main\nimport sys\ncode = main(sys.argv[1:])"
    modules, out = modules_after(code, "solve", puzzle_files[form], "--json")
    assert json.loads(out)["status"] == "unique"
    ours = [m for m in modules if m.startswith("nurikabe")]
    assert "nurikabe.cli.solve" in ours and "nurikabe.solver.native" in ours
    bad = [m for m in ours if any(m == f or m.startswith(f + ".") for f in FORBIDDEN)]
    assert bad == []
    assert third_party(modules) == []
    assert not [m for m in modules if m.split(".")[0] in HEAVY_THIRD_PARTY]
    assert "pathlib" not in modules
    # dataclasses brings inspect, ast, dis and tokenize: a few ms the solve path does without.
    assert not {"dataclasses", "inspect", "ast"} & set(modules)


def test_solve_of_a_url_reads_with_the_url_reader_alone() -> None:
    code = "from nurikabe.cli import main\ncode = main(['solve', " + repr(PUZZLE_URL) + "])"
    modules, _ = modules_after(code)
    formats = [m for m in modules if m.startswith("nurikabe.formats.")]
    assert formats == [
        "nurikabe.formats._common",
        "nurikabe.formats.document",
        "nurikabe.formats.puzzlink",
    ]
    assert not {"pathlib", "json", "shutil", "bz2", "lzma"} & set(modules)


def test_only_json_input_or_output_loads_the_json_parser(puzzle_files: dict[str, str]) -> None:
    # Detection passes through the JSON-lines and pzprv3 readers before the text format.
    code = "from nurikabe.cli import main\nimport sys\ncode = main(sys.argv[1:])"
    modules, out = modules_after(code, "solve", puzzle_files["text"])
    assert "unique solution" in out
    assert "nurikabe.formats.jsonl" in modules and "json" not in modules
    modules, _ = modules_after(code, "solve", puzzle_files["jsonl"])
    assert "json" in modules


def test_every_public_name_resolves() -> None:
    code = (
        "import nurikabe\n"
        "missing = [n for n in nurikabe.__all__ if getattr(nurikabe, n, None) is None]\n"
        "print(missing)"
    )
    _, out = modules_after(code)
    assert out.strip() == "[]"
    assert sorted(dir(nurikabe)) == sorted(nurikabe.__all__)
    with pytest.raises(AttributeError):
        nurikabe.no_such_name  # noqa: B018


def test_generate_is_the_generator_s_function() -> None:
    # The function and the package have different names (`generate`, `generator`), so no
    # import order can make one shadow the other.
    code = (
        "import nurikabe.generator, nurikabe\n"
        "print(nurikabe.generate is nurikabe.generator.generate, callable(nurikabe.generate))"
    )
    _, out = modules_after(code)
    assert out.split() == ["True", "True"]


def test_command_table_matches_the_modules() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert list(sub.choices) == list(COMMANDS)
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"nurikabe.cli.{name}")
        one = argparse.ArgumentParser()
        module.register(one.add_subparsers())
        registered = next(a for a in one._actions if isinstance(a, argparse._SubParsersAction))
        assert sorted(registered.choices) == sorted(c for c, m in COMMANDS.items() if m == name)


def test_a_command_imports_its_module_alone() -> None:
    code = (
        "from nurikabe.cli import main\n"
        "try:\n    main(['convert', '--help'])\nexcept SystemExit:\n    pass"
    )
    modules, out = modules_after(code)
    assert "--to FORMAT" in out
    cli = [m for m in modules if m.startswith("nurikabe.cli.")]
    assert cli == ["nurikabe.cli.common", "nurikabe.cli.convert"]


def test_help_without_a_command_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    from nurikabe.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert all(command in out for command in COMMANDS)


@pytest.mark.parametrize("columns", ["50", "120", "junk", "0"])
def test_help_follows_the_terminal_width_as_shutil_finds_it(
    columns: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    from nurikabe.cli import main

    monkeypatch.setenv("COLUMNS", columns)
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    ours = capsys.readouterr().out
    expected = argparse.HelpFormatter("x", width=shutil.get_terminal_size().columns - 2)
    lines = ours.splitlines()
    assert max(len(line) for line in lines) <= expected._width
    # The same layout as argparse's own formatter with shutil's width.
    monkeypatch.setattr("nurikabe.cli._Formatter", argparse.HelpFormatter)
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    assert capsys.readouterr().out == ours
