"""Builds the compiled cores (the exact engine's `_csolve`, the grid's flood fill
`_cgrid`, the census's `_cenum`); everything else is in pyproject.toml.

The C build is required: the exact engine, the logic engine's trials and the census
all run on it. Without a working C compiler and the Python headers the install stops
with one paragraph that says what to install (there is no silent pure-Python
fallback; `nurikabe.solver.reference` is a reference engine for cross-checks only).
"""

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, CompileError, ExecError, LinkError, PlatformError

INSTALL_HELP = (
    "nurikabe: could not compile its C core ({error}). The package needs a C compiler "
    "and the Python development headers to install: on Debian or Ubuntu run "
    "'sudo apt-get install gcc python3-dev', on Fedora 'sudo dnf install gcc "
    "python3-devel', on macOS 'xcode-select --install'; then install again."
)


class RequiredBuildExt(build_ext):
    """`build_ext` that turns a compiler failure into `INSTALL_HELP`."""

    def run(self) -> None:
        try:
            super().run()
        except (CCompilerError, ExecError, PlatformError) as exc:
            raise SystemExit(INSTALL_HELP.format(error=f"no usable compiler: {exc}")) from exc

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except (CCompilerError, CompileError, LinkError, ExecError, PlatformError) as exc:
            failed = f"{ext.name} did not build, see the compiler's output above"
            raise SystemExit(INSTALL_HELP.format(error=failed)) from exc


setup(
    cmdclass={"build_ext": RequiredBuildExt},
    ext_modules=[
        Extension(
            "nurikabe.solver._csolve",
            # the engine (no Python) and its CPython binding, behind the API _csolve.h
            ["src/nurikabe/solver/_csolve.c", "src/nurikabe/solver/_csolve_py.c"],
            depends=["src/nurikabe/solver/_csolve.h"],
            # -O3: 10-15% less CPU on the slowest corpus puzzles than -O2 (docs/solver.md)
            extra_compile_args=["-O3", "-std=c99"],
        ),
        Extension(
            "nurikabe._cgrid",
            ["src/nurikabe/_cgrid.c"],
            extra_compile_args=["-O2", "-std=c99"],
        ),
        Extension(
            "nurikabe.research._cenum",
            ["src/nurikabe/research/_cenum.c"],
            extra_compile_args=["-O2", "-std=c99"],
        ),
    ],
)
