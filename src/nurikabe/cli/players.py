"""``nurikabe players``: upkeep of the game's players' database (`nurikabe.players`).

- ``nurikabe players backup PATH``: copy the database to the new file PATH while servers
  use it (SQLite's online backup API; the copy is checked and moved into place whole).
- ``nurikabe players restore PATH``: put a backup back (``--force`` when the database
  exists: its contents are replaced), migrated to this version's schema.
- ``nurikabe players check``: ``PRAGMA quick_check`` of the database; one line either way.

Each takes ``--db`` (default: $XDG_DATA_HOME/nurikabe/players.sqlite, as ``serve``).
A fault is one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .common import CliError

_DB_HELP = "the players' database (default: $XDG_DATA_HOME/nurikabe/players.sqlite)"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("players", help="back up, restore or check the players' database")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    save = actions.add_parser("backup", help="copy the database to a new file, even while served")
    save.add_argument("path", metavar="PATH", help="the backup file to make (must not exist)")
    save.add_argument("--db", metavar="DB", help=_DB_HELP)
    save.set_defaults(func=run_backup)
    back = actions.add_parser("restore", help="put a backup back as the database")
    back.add_argument("path", metavar="PATH", help="the backup file")
    back.add_argument("--db", metavar="DB", help=_DB_HELP)
    back.add_argument(
        "--force", action="store_true", help="replace the database when it exists already"
    )
    back.set_defaults(func=run_restore)
    check = actions.add_parser("check", help="check the database (PRAGMA quick_check)")
    check.add_argument("--db", metavar="DB", help=_DB_HELP)
    check.set_defaults(func=run_check)


def _db(args: argparse.Namespace) -> Path:
    from ..players import default_path

    return Path(args.db).expanduser() if args.db else default_path()


def run_backup(args: argparse.Namespace) -> int:
    from ..players import backup

    db = _db(args)
    if not db.is_file():
        raise CliError(f"{db}: no such database file")
    made = backup(db, args.path)
    print(f"nurikabe: backed up {db} to {made} ({made.stat().st_size} bytes)")
    return 0


def run_restore(args: argparse.Namespace) -> int:
    from ..players import restore

    db = _db(args)
    if not Path(args.path).expanduser().is_file():
        raise CliError(f"{args.path}: no such backup file")
    if db.exists() and not args.force:
        raise CliError(f"{db} exists: --force replaces its contents with the backup's")
    db.parent.mkdir(parents=True, exist_ok=True)
    restore(args.path, db).close()
    print(f"nurikabe: restored {db} from {args.path}")
    return 0


def run_check(args: argparse.Namespace) -> int:
    from ..players import open_players

    db = _db(args)
    if not db.is_file():
        raise CliError(f"{db}: no such database file")
    open_players(db).close()  # quick_check, tables, version (a fault is one line)
    print(f"nurikabe: {db} is fine")
    return 0
