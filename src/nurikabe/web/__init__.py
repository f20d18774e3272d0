"""The game's web server: one page and a JSON API over the library (needs the ``web`` extra).

- `app`: the FastAPI application factory `create_app` and its thin handlers.
- `models`: the request and response bodies (so ``/openapi.json`` describes every endpoint).
- `printing`: PDF booklets of the game's puzzles (``/api/print``).
- `games`: the puzzles the game serves, by key, each with its unique solution.
- `errors`: the JSON error envelope and the handlers that map every error to it.
- `middleware`: the player cookie and the request body limit.
- `static/`: the page (HTML, CSS, JavaScript modules), served as it is.

The API is described in docs/web-api.md. Imports the library's public modules,
FastAPI and Starlette; nothing in the library imports this package.
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
