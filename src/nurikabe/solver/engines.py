"""The engine registry: `ENGINES`, the engine protocol `Search`, and making a search.

An engine is a class constructed as ``Engine(puzzle, limit, *, start=None)`` whose
generator method ``solutions()`` yields full solution boards until the `Limit` is
reached, and which afterwards tells ``complete``, ``limit_hit``, ``nodes`` and
``seconds``. Engines live in their own modules, imported only when used, so that a
solve loads neither OR-Tools nor the pure-Python reference engine.

Imports `puzzle`, `errors` and `solver.result`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from typing import Protocol

from ..errors import InvalidPuzzleError, NurikabeError
from ..puzzle import Board, Puzzle
from .result import Limit

__all__ = [
    "DEFAULT_ENGINE",
    "ENGINES",
    "EngineUnavailableError",
    "Search",
    "UnknownEngineError",
    "engine_class",
    "engine_names",
    "new_search",
]

ENGINES: dict[str, tuple[str, str]] = {
    "native": ("nurikabe.solver.native", "NativeSearch"),
    "reference": ("nurikabe.solver.reference", "ReferenceSearch"),
    "cpsat": ("nurikabe.solver.cpsat", "CpSatSearch"),
    "cpsat-fast": ("nurikabe.solver.cpsat", "FastCpSatSearch"),
    "expand": ("nurikabe.solver.expand", "ExpandSearch"),
    "portfolio": ("nurikabe.solver.portfolio", "PortfolioSearch"),
}
"""Engine name -> (module, class). The first one is the default."""

DEFAULT_ENGINE = "native"


class UnknownEngineError(NurikabeError):
    """An engine name that is not in `ENGINES`."""


class EngineUnavailableError(NurikabeError):
    """A known engine whose optional dependency is not installed."""


def engine_names() -> list[str]:
    """The names of every engine, the default first."""
    return list(ENGINES)


class Search(Protocol):
    """What an engine class gives: a solution generator and, afterwards, how it went."""

    complete: bool
    limit_hit: str | None
    nodes: int
    seconds: float

    def solutions(self) -> Iterator[Board]: ...


def engine_class(engine: str) -> Callable[..., Search]:
    """The class of the engine named `engine`, its module imported now.

    Raises:
        UnknownEngineError: no such engine.
        EngineUnavailableError: its optional dependency (OR-Tools) is not installed.
    """
    try:
        module_name, class_name = ENGINES[engine]
    except (KeyError, TypeError):
        raise UnknownEngineError(
            f"unknown engine {engine!r} (known: {', '.join(engine_names())})"
        ) from None
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        missing = getattr(exc, "name", None) or ""
        if missing.startswith("ortools"):
            raise EngineUnavailableError(
                f"the {engine} engine needs OR-Tools: pip install 'nurikabe[cpsat]'"
            ) from exc
        if missing == module_name:
            raise EngineUnavailableError(f"the {engine} engine is not built yet") from exc
        raise
    cls: Callable[..., Search] = getattr(module, class_name)
    return cls


def new_search(puzzle: Puzzle, limit: Limit, start: Board | None, engine: str) -> Search:
    """A search of `puzzle` by `engine` within `limit`, from the partial board `start`.

    Raises:
        InvalidPuzzleError: `puzzle` is not a `Puzzle`; and as `engine_class`.
    """
    if not isinstance(puzzle, Puzzle):
        hint = " (read it first: Puzzle.from_url(...))" if isinstance(puzzle, str) else ""
        raise InvalidPuzzleError(f"expected a Puzzle, not {type(puzzle).__name__}{hint}")
    return engine_class(engine)(puzzle, limit, start=start)
