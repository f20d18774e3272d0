"""The layer contract: which part of the package may import which.

The package is built in floors (docs: DESIGN.md "Architecture", STYLE.md section 1), and
imports point down only: a module may import its own floor and those below it, never one
above. Every module under ``src/nurikabe`` is read with `ast` (nothing is imported), and
every import in it is checked: at module level, inside functions, and under
``if TYPE_CHECKING:``; relative and absolute; and ``importlib.import_module`` of a
literal name. The few imports that go up on purpose are listed in `ALLOWED`, each with
the way it is made (only inside a function, or for its types only) and the reason.

It also checks the promise of the README: the core (everything but ``cli``, ``web``,
``batch`` and ``render/pdf.py``) imports no third-party module when it is loaded, and
tqdm (the progress bars) is used by ``cli`` and ``batch`` alone.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import nurikabe

PACKAGE = Path(nurikabe.__file__).resolve().parent
"""``src/nurikabe``."""

FLOORS: tuple[tuple[str, ...], ...] = (
    ("errors", "limits"),
    ("grid", "_cgrid"),
    ("puzzle",),
    ("rules",),
    ("formats",),
    ("render",),
    ("solver",),
    ("logic",),
    ("generator",),
    ("workers",),
    ("research",),
    ("batch",),
    ("database",),
    ("collection",),
    ("players",),
    ("nurikabe",),
    ("cli", "__main__"),
    ("web",),
)
"""The floors, lowest first, by the name under ``nurikabe.`` (a module or a package).

``nurikabe`` is the package itself (``__init__.py``): it re-exports the public API from
the floors up to the generator, on first use, and only the front ends import it (for
``__version__``). ``__main__`` (``python -m nurikabe``) runs the CLI."""

FLOOR = {name: level for level, names in enumerate(FLOORS) for name in names}

MODULE = "module"
"""An import made when the module is loaded (at module level)."""
LAZY = "lazy"
"""An import made inside a function, when it is called."""
TYPES = "types"
"""An import under ``if TYPE_CHECKING:``, for annotations only (never made at run time)."""
HOW = {MODULE: "at module level", LAZY: "inside a function", TYPES: "under TYPE_CHECKING"}

ALLOWED: dict[tuple[str, str], tuple[str, str]] = {
    ("nurikabe.puzzle", "nurikabe.formats"): (
        LAZY,
        "Puzzle.from_url/to_url/from_text/to_text are the codecs' front door (STYLE.md "
        "section 3); each imports the format registry when called",
    ),
    ("nurikabe.puzzle", "nurikabe.render.svg"): (
        LAZY,
        "Puzzle._repr_svg_ and Board._repr_svg_ draw themselves in a notebook, as "
        "python-chess does (the exception STYLE.md section 1 names)",
    ),
    ("nurikabe.render.svg", "nurikabe.solver.result"): (
        TYPES,
        "result_svg draws a solver's Result (nurikabe solve --svg): it reads the value "
        "it is given, and imports the type for its annotation only",
    ),
    ("nurikabe.render.walkthrough", "nurikabe.logic.engine"): (
        TYPES,
        "walkthrough_html draws the Walkthrough that logic.explain made: it imports the "
        "type for its annotation only, so the logic engine stays above the pictures",
    ),
    ("nurikabe.render.pdf", "nurikabe.solver"): (
        LAZY,
        "BookletPuzzle.solved, given no solution, proves the puzzle unique to print its "
        "solution (a booklet prints unique puzzles only): the solver is loaded then",
    ),
    ("nurikabe.cli.serve", "nurikabe.web"): (
        LAZY,
        "`nurikabe serve` starts the web app: the CLI launches the other front end",
    ),
}
"""The imports that go up a floor on purpose: (importer, imported) -> (how, reason).

An entry allows exactly that import, made that way (`LAZY`: only inside a function;
`TYPES`: only under ``TYPE_CHECKING``), and nothing else."""

THIRD_PARTY_FRONT_ENDS = ("cli", "web", "batch")
"""The floors that may import third-party modules when loaded (with `render.pdf`)."""

TQDM_FLOORS = ("cli", "batch")
"""The floors that may use tqdm."""


@dataclass(frozen=True)
class Import:
    """One import of one module."""

    importer: str
    """The importing module (``nurikabe.solver.refuter``)."""
    path: Path
    line: int
    target: str
    """The module imported, absolute (``nurikabe.limits``, ``time``)."""
    how: str
    """`MODULE`, `LAZY` or `TYPES`."""

    def where(self) -> str:
        return f"{self.path.relative_to(PACKAGE.parent.parent)}:{self.line}"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _known_modules() -> set[str]:
    """Every module of the package: Python files, packages and the C extensions (by
    their source, ``_cgrid.c``, or their build, ``_cgrid.cpython-311-....so``)."""
    known = {_module_name(p) for p in PACKAGE.rglob("*.py")}
    for p in [*PACKAGE.rglob("*.c"), *PACKAGE.rglob("*.so")]:
        known.add(_module_name(p.with_name(p.name.partition(".")[0] + ".py")))
    return known


KNOWN = _known_modules()


def _is_type_checking(test: ast.expr) -> bool:
    return ast.unparse(test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")


def _absolute(package: str, level: int, name: str) -> str:
    """The absolute name of `name` imported with `level` dots from within `package`."""
    if not level:
        return name
    parts = package.split(".")
    parts = parts[: len(parts) - (level - 1)]
    return ".".join([*parts, name] if name else parts)


def _imports(path: Path, source: str | None = None) -> list[Import]:
    """Every import in the module at `path` (or in `source`, read as that module),
    resolved to absolute names."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[Import] = []

    def add(node: ast.AST, target: str, how: str) -> None:
        found.append(Import(name, path, getattr(node, "lineno", 0), target, how))

    def from_import(node: ast.ImportFrom, how: str) -> None:
        base = _absolute(package, node.level, node.module or "")
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            add(node, sub if sub in KNOWN else base, how)

    def import_module_call(node: ast.Call, how: str) -> None:
        """``importlib.import_module("...")`` with a literal name (and package)."""
        func = ast.unparse(node.func)
        if func not in ("importlib.import_module", "import_module") or not node.args:
            return
        first = node.args[0]
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            return  # a computed name: the lazy re-exports of a package's own modules
        name = first.value.lstrip(".")
        add(node, _absolute(package, len(first.value) - len(name), name), how)

    def visit(node: ast.AST, how: str) -> None:
        for child in ast.iter_child_nodes(node):
            child_how = how
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                child_how = LAZY if how == MODULE else how
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for stmt in child.body:
                    visit_one(stmt, TYPES)
                for stmt in child.orelse:
                    visit_one(stmt, how)
                continue
            visit_one(child, child_how)

    def visit_one(node: ast.AST, how: str) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(node, alias.name, how)
        elif isinstance(node, ast.ImportFrom):
            from_import(node, how)
        else:
            if isinstance(node, ast.Call):
                import_module_call(node, how)
            visit(node, how)

    if source is None:
        source = path.read_text(encoding="utf-8")
    visit(ast.parse(source, str(path)), MODULE)
    return found


def _all_imports() -> list[Import]:
    return [imp for path in sorted(PACKAGE.rglob("*.py")) for imp in _imports(path)]


IMPORTS = _all_imports()


def _floor_name(module: str) -> str:
    """The floor of a module of the package (``nurikabe.solver.refuter`` -> ``solver``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _floors_text() -> str:
    return " < ".join("/".join(names) for names in FLOORS)


def test_every_module_of_the_package_has_a_floor() -> None:
    """A new module or package goes on a floor (`FLOORS`) before it is checked."""
    missing = sorted({m for m in KNOWN if _floor_name(m) not in FLOOR})
    assert not missing, f"modules on no floor (add them to FLOORS): {missing}"


def test_imports_point_down_the_floors() -> None:
    """A module imports its own floor or those below it; `ALLOWED` lists the exceptions."""
    broken = []
    for imp in IMPORTS:
        if imp.target != "nurikabe" and not imp.target.startswith("nurikabe."):
            continue
        mine, theirs = _floor_name(imp.importer), _floor_name(imp.target)
        if theirs not in FLOOR:
            broken.append(f"{imp.where()}: {imp.importer} imports {imp.target}, on no floor")
            continue
        if FLOOR[theirs] <= FLOOR[mine]:
            continue
        allowed = ALLOWED.get((imp.importer, imp.target))
        if allowed is not None and allowed[0] == imp.how:
            continue
        rule = (
            f"{imp.importer} (floor {mine}) imports {imp.target} (floor {theirs}, above it)"
            f" {HOW[imp.how]}"
        )
        if allowed is not None:
            rule += f"; ALLOWED permits it only {HOW[allowed[0]]} ({allowed[1]})"
        broken.append(f"{imp.where()}: {rule}")
    assert not broken, f"imports must point down the floors ({_floors_text()}):\n  " + "\n  ".join(
        broken
    )


def test_every_allowed_exception_is_still_made() -> None:
    """An exception nobody needs any more goes from `ALLOWED`, so that it allows nothing new."""
    made = {(imp.importer, imp.target, imp.how) for imp in IMPORTS}
    stale = [
        f"{importer} -> {target} ({how}): {reason}"
        for (importer, target), (how, reason) in ALLOWED.items()
        if (importer, target, how) not in made
    ]
    assert not stale, "ALLOWED lists imports the code no longer makes:\n  " + "\n  ".join(stale)


def test_the_floor_imports_nothing_of_the_package() -> None:
    """`errors` and `limits` import no other module of the package: any floor may use them."""
    broken = [
        f"{imp.where()}: {imp.importer} imports {imp.target}; the lowest floor imports "
        "nothing of the package"
        for imp in IMPORTS
        if imp.importer in ("nurikabe.errors", "nurikabe.limits")
        and (imp.target == "nurikabe" or imp.target.startswith("nurikabe."))
    ]
    assert not broken, "\n".join(broken)


def _third_party(target: str) -> bool:
    top = target.partition(".")[0]
    return top != "nurikabe" and top not in sys.stdlib_module_names


def _core(module: str) -> bool:
    return _floor_name(module) not in THIRD_PARTY_FRONT_ENDS and module != "nurikabe.render.pdf"


def test_the_core_loads_no_third_party_module() -> None:
    """README: the core (all but cli, web, batch and render/pdf.py) imports no third-party
    module when it is loaded; optional engines import theirs when used."""
    broken = [
        f"{imp.where()}: {imp.importer} imports {imp.target} at module level; the core "
        "imports only the standard library and nurikabe when loaded (README)"
        for imp in IMPORTS
        if imp.how == MODULE and _core(imp.importer) and _third_party(imp.target)
    ]
    assert not broken, "\n".join(broken)


def test_only_cli_and_batch_use_tqdm() -> None:
    broken = [
        f"{imp.where()}: {imp.importer} imports tqdm; only {' and '.join(TQDM_FLOORS)} "
        "draw progress bars"
        for imp in IMPORTS
        if imp.target.partition(".")[0] == "tqdm" and _floor_name(imp.importer) not in TQDM_FLOORS
    ]
    assert not broken, "\n".join(broken)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from ..limits import OutOfTime", [("nurikabe.limits", MODULE)]),
        ("from . import common", [("nurikabe.cli.common", MODULE)]),
        ("from ..web import app", [("nurikabe.web.app", MODULE)]),
        ("from .. import __version__", [("nurikabe", MODULE)]),
        ("def f():\n    from ..logic import explain", [("nurikabe.logic", LAZY)]),
        (
            "if TYPE_CHECKING:\n    from ..logic.engine import Walkthrough",
            [("nurikabe.logic.engine", TYPES)],
        ),
        ("import nurikabe.solver.native", [("nurikabe.solver.native", MODULE)]),
        (
            "import importlib\nx = importlib.import_module('..web', __package__)",
            [("importlib", MODULE), ("nurikabe.web", MODULE)],
        ),
        (
            "x = importlib.import_module('nurikabe.solver._csolve')",
            [("nurikabe.solver._csolve", MODULE)],
        ),
        ("class A:\n    def f(self):\n        import tqdm", [("tqdm", LAZY)]),
    ],
)
def test_imports_are_read_as_written(source: str, expected: list[tuple[str, str]]) -> None:
    """The reader resolves what a module of ``nurikabe.cli`` writes (the test of the test)."""
    found = _imports(PACKAGE / "cli" / "_probe.py", source)
    assert [(imp.target, imp.how) for imp in found] == expected
