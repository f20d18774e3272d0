"""``nurikabe serve``: play the game in the browser (the web server of `nurikabe.web`).

FastAPI and uvicorn (the ``web`` extra) are imported only when the command runs, so
the other commands start as fast without them.
"""

from __future__ import annotations

import argparse
import sqlite3

from .common import CliError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("serve", help="serve the game at http://127.0.0.1:8000")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument(
        "--db",
        metavar="PATH",
        help="the players' database (default: $XDG_DATA_HOME/nurikabe/players.sqlite)",
    )
    parser.add_argument(
        "--collection", metavar="PATH", help="a collection database (default: the bundled one)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..web import create_app
    except ModuleNotFoundError as exc:
        raise CliError(
            f"the game needs the 'web' extra ({exc.name} is missing): pip install 'nurikabe[web]'"
        ) from None
    if not 0 < args.port < 65536:
        raise CliError(f"--port must be between 1 and 65535, not {args.port}")
    try:
        app = create_app(args.db, args.collection)
    except (sqlite3.Error, OSError) as exc:
        raise CliError(f"cannot open the database: {exc}") from None
    players = app.state.players
    print(f"nurikabe: the game is at http://{args.host}:{args.port}/ (players: {players.path})")
    print("nurikabe: Ctrl-C stops the server", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", access_log=False)
    return 0
