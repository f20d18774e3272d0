"""The game's web server: one page and a JSON API over the library (needs the ``web`` extra).

- `app`: the FastAPI application factory `create_app` and its thin handlers.
- `models`: the request and response bodies (so ``/openapi.json`` describes every endpoint).
- `printing`: PDF booklets of the game's puzzles (``/api/print``).
- `games`: the puzzles the game serves, by key, each with its unique solution.
- `errors`: the JSON error envelope and the handlers that map every error to it.
- `middleware`: the player cookie, the rate limit, the body limit, the security headers.
- `lanes`: cheap work apart from expensive work (worker processes), fairness per player.
- `static/`: the page (HTML, CSS, JavaScript modules), served as it is.

The API is described in docs/web-api.md. Imports the library's public modules,
FastAPI and Starlette; nothing in the library imports this package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import ENV, create_app, create_app_from_env

__all__ = ["ENV", "create_app", "create_app_from_env"]


def __getattr__(name: str) -> Any:
    """`create_app` and the rest of `app`, imported on first use: the expensive lane's
    worker processes import this package for their jobs (`analysts`, `lanes`) and start
    faster without FastAPI."""
    if name in __all__:
        from . import app

        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
