"""Online backup of the bot's database, safe while the bot is running.

Usage: ``python -m bot.store.backup DEST [--database PATH]``. The database is --database,
else $APOPHIS_DATABASE, else the default path (a PostgreSQL database is backed up
with pg_dump instead). The copy is made with SQLite's backup
API (a consistent snapshot; the bot keeps writing meanwhile), checked, and only then
moved to DEST.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from bot.store.postgres import is_postgresql
from bot.store.records import StoreError
from bot.store.sqlite import DEFAULT_DATABASE, backup_database


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.store.backup", description="Copy the live database to a file."
    )
    parser.add_argument("dest", help="file to write the backup to (replaced if it exists)")
    parser.add_argument(
        "--database",
        help=f"database to copy (default: $APOPHIS_DATABASE, else {DEFAULT_DATABASE})",
    )
    args = parser.parse_args(argv)
    source = args.database or os.environ.get("APOPHIS_DATABASE") or DEFAULT_DATABASE
    if is_postgresql(source):
        print(
            "Backup failed: that is a PostgreSQL database; back it up with pg_dump "
            f"(pg_dump --format=custom --file={args.dest} DATABASE_URL).",
            file=sys.stderr,
        )
        return 1
    started = time.perf_counter()
    try:
        size = backup_database(source, args.dest)
    except StoreError as exc:
        print(f"Backup failed: {exc}", file=sys.stderr)
        return 1
    elapsed = time.perf_counter() - started
    print(f"Backed up {source} to {args.dest} ({size:,} bytes) in {elapsed:.2f} s.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
