"""``nurikabe serve``: play the game in the browser (the web server of `nurikabe.web`).

One server process by default; ``--workers N`` runs N of uvicorn's worker processes on
the same port and the same players' database (SQLite in WAL mode: each write is one
short transaction, and a writer waits up to the busy timeout for another's). Each
process has its own lanes and ``--jobs`` worker processes for expensive work; the
players' shares (429s) count across the processes, in a file of a temporary folder
that ends with the command (`web.shared_rates`). The
database is checked (``PRAGMA quick_check``) and migrated once, before any worker
starts; a damaged file ends the command with one line.

``--https-only`` makes the player cookie Secure on every answer; behind a reverse
proxy, ``--proxy-headers`` trusts its X-Forwarded-For and X-Forwarded-Proto (from
``--forwarded-allow-ips``), so that the cookie is Secure when the proxy was reached
over https and each client counts by its own address.

FastAPI and uvicorn (the ``web`` extra) are imported only when the command runs, so
the other commands start as fast without them.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import tempfile
from pathlib import Path

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
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="server processes on the port (default 1); they share the database",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="worker processes for long jobs (analyses, imports, print) per server process"
        " (default 2)",
    )
    parser.add_argument(
        "--https-only",
        action="store_true",
        help="the player cookie is Secure (sent over https only) on every answer",
    )
    parser.add_argument(
        "--proxy-headers",
        action="store_true",
        help="trust X-Forwarded-For/-Proto from a reverse proxy at --forwarded-allow-ips",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default="127.0.0.1",
        metavar="IPS",
        help="the proxy addresses whose headers are trusted (default 127.0.0.1)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..web import ENV, create_app_from_env
    except ModuleNotFoundError as exc:
        raise CliError(
            f"the game needs the 'web' extra ({exc.name} is missing): pip install 'nurikabe[web]'"
        ) from None
    if not 0 < args.port < 65536:
        raise CliError(f"--port must be between 1 and 65535, not {args.port}")
    if not 1 <= args.workers <= 64:
        raise CliError(f"--workers must be between 1 and 64, not {args.workers}")
    if args.jobs is not None and not 1 <= args.jobs <= 64:
        raise CliError(f"--jobs must be between 1 and 64, not {args.jobs}")
    env = {
        ENV["db"]: args.db or "",
        ENV["collection"]: args.collection or "",
        ENV["https_only"]: "1" if args.https_only else "",
        ENV["jobs"]: str(args.jobs or ""),
    }
    os.environ.update(env)  # for the factory, here and in every worker process
    try:
        app = create_app_from_env()  # checks and migrates the database, once
    except (sqlite3.Error, OSError) as exc:
        raise CliError(f"cannot open the database: {exc}") from None
    players = app.state.players
    where = f"http://{args.host}:{args.port}/"
    many = f" ({args.workers} processes)" if args.workers > 1 else ""
    print(f"nurikabe: the game is at {where}{many} (players: {players.path})")
    print("nurikabe: Ctrl-C stops the server", flush=True)
    options = {
        "host": args.host,
        "port": args.port,
        "log_level": "warning",
        "access_log": False,
        "proxy_headers": args.proxy_headers,
        "forwarded_allow_ips": args.forwarded_allow_ips,
    }
    if args.workers == 1:
        uvicorn.run(app, **options)
    else:
        app.state.lanes.close()
        players.close()
        os.environ[ENV["manager"]] = str(os.getpid())  # the workers end with this process
        # the players' shares, counted across the processes (web.shared_rates)
        with tempfile.TemporaryDirectory(prefix="nurikabe-rates-") as folder:
            os.environ[ENV["rates"]] = str(Path(folder) / "rates.sqlite")
            uvicorn.run(
                "nurikabe.web.app:create_app_from_env",
                factory=True,
                workers=args.workers,
                **options,
            )
    return 0
