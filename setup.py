"""Builds the compiled core of the exact engine; everything else is in pyproject.toml.

The extension is optional: without a C compiler the package still installs, and the
`native` engine falls back to its pure-Python twin (`nurikabe.solver.native`).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "nurikabe.solver._csolve",
            ["src/nurikabe/solver/_csolve.c"],
            extra_compile_args=["-O2", "-std=c99"],
            optional=True,
        ),
        Extension(
            "nurikabe.research._cenum",
            ["src/nurikabe/research/_cenum.c"],
            extra_compile_args=["-O2", "-std=c99"],
            optional=True,
        ),
    ]
)
