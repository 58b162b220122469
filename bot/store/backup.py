"""The host's backup and restore commands: `python -m bot backup FILE` and `... restore FILE`.

``backup DEST`` copies the live SQLite database while the bot runs: SQLite's backup API
(a consistent snapshot; the bot keeps writing meanwhile), checked, and only then moved to
DEST. ``restore BACKUP`` puts a backup in the database's place, with the bot stopped: the
backup is checked first (intact, an Apophis database, a schema this bot knows), the
database it replaces (``--replace``) is kept beside it as ``NAME.before-restore`` (or,
that name taken by an earlier restore, ``NAME.before-restore-2``, ``-3``...: no earlier
database is ever overwritten), and the restored file is migrated at the bot's next start
like any other.

The database is --database, else $APOPHIS_DATABASE, else the default path. A PostgreSQL
database is backed up and restored with PostgreSQL's tools: the commands say which.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import time
from contextlib import closing
from pathlib import Path

import migrations
from bot.store.postgres import is_postgresql
from bot.store.records import StoreError
from bot.store.sqlite import DEFAULT_DATABASE, backup_database

#: The subcommands this module runs (`python -m bot` hands them over).
COMMANDS = ("backup", "restore")
#: Beside the database, what it was before a restore.
BEFORE_RESTORE = ".before-restore"


def restore_database(
    backup: str | os.PathLike[str], dest: str | os.PathLike[str], *, replace: bool = False
) -> Path | None:
    """Put the backup `backup` in place of the SQLite database `dest`; where the old one went.

    Refuses (StoreError, nothing changed) a backup that is missing, damaged, not the bot's
    or from a newer bot; an existing `dest` without `replace`; and a `dest` still open
    (the bot running). The old database, its WAL folded in, is kept as
    ``dest.before-restore``, or under the first such name still free (`kept_as`); None
    when there was none.
    """
    backup, dest = Path(backup), Path(dest)
    if not backup.is_file():
        raise StoreError(f"There is no backup file {backup}.")
    if dest.exists() and dest.samefile(backup):
        raise StoreError("The backup is the database itself.")
    if not dest.parent.is_dir():
        raise StoreError(f"The database's folder {dest.parent} does not exist.")
    if dest.exists() and not replace:
        raise StoreError(
            f"{dest} exists: add --replace to put the backup in its place (the old one is "
            f"kept as {kept_as(dest).name})."
        )
    partial = dest.with_name(dest.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        with (
            # Not read-only: a read-only connection would leave the -wal and -shm files
            # of a WAL backup behind. Nothing is written unless a WAL came with the backup.
            closing(sqlite3.connect(backup)) as src,
            closing(sqlite3.connect(partial)) as copy,
        ):
            _check_backup(src, backup)
            src.backup(copy)
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        raise StoreError(f"{backup} is not a usable SQLite database ({exc}).") from exc
    except StoreError:
        partial.unlink(missing_ok=True)
        raise
    kept = None
    if dest.exists():
        try:
            _close_journal(dest)
        except StoreError:
            partial.unlink()
            raise
        kept = kept_as(dest)
        os.replace(dest, kept)
    os.replace(partial, dest)
    return kept


def kept_as(dest: Path) -> Path:
    """Where `dest` is kept when a restore replaces it: ``NAME.before-restore``, else the
    first of ``NAME.before-restore-2``, ``-3``... that no earlier restore took."""
    kept = dest.with_name(dest.name + BEFORE_RESTORE)
    count = 1
    while kept.exists() or kept.is_symlink():
        count += 1
        kept = dest.with_name(f"{dest.name}{BEFORE_RESTORE}-{count}")
    return kept


def _check_backup(conn: sqlite3.Connection, path: Path) -> None:
    """Refuse a backup that is damaged, not the bot's, or written by a newer bot."""
    (verdict,) = conn.execute("PRAGMA integrity_check(1)").fetchone()
    if verdict != "ok":
        raise StoreError(f"{path} is damaged ({verdict}): pick another backup.")
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    games = conn.execute("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'games'")
    if version == 0 or games.fetchone() is None:
        raise StoreError(f"{path} is not a backup of the bot's database.")
    known = len(migrations.load())
    if version > known:
        raise StoreError(
            f"{path} has schema version {version}, but this bot only knows versions up to "
            f"{known}: restore it with the version of the bot that made it."
        )


def _close_journal(path: Path) -> None:
    """Fold `path`'s WAL into it, so that the file alone is the whole database.

    Leaving WAL mode needs the only connection to the file: StoreError while the bot
    (or anything else) has it open.
    """
    try:
        with closing(sqlite3.connect(path, isolation_level=None)) as conn:
            conn.execute("PRAGMA busy_timeout = 0")
            (mode,) = conn.execute("PRAGMA journal_mode = DELETE").fetchone()
    except sqlite3.Error as exc:
        if getattr(exc, "sqlite_errorname", "").startswith("SQLITE_BUSY"):
            raise StoreError(f"{path} is in use: stop the bot first, then restore.") from exc
        raise StoreError(f"{path} cannot be replaced ({exc}).") from exc
    if mode != "delete":
        raise StoreError(f"{path} is in use: stop the bot first, then restore.")


def main(argv: list[str] | None = None) -> int:
    """Run `backup DEST` or `restore BACKUP` (with their options); returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="apophis-bot", description="Back up or restore the bot's database."
    )
    database = argparse.ArgumentParser(add_help=False)
    database.add_argument(
        "--database",
        help=f"the database (default: $APOPHIS_DATABASE, else {DEFAULT_DATABASE})",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    backup = commands.add_parser(
        "backup", parents=[database], help="copy the live database to a file (bot running)"
    )
    backup.add_argument("dest", help="file to write the backup to (replaced if it exists)")
    restore = commands.add_parser(
        "restore", parents=[database], help="put a backup in the database's place (bot stopped)"
    )
    restore.add_argument("backup", help="the backup file to restore")
    restore.add_argument(
        "--replace",
        action="store_true",
        help=f"replace an existing database (kept as NAME{BEFORE_RESTORE}, or -2, -3... if taken)",
    )
    args = parser.parse_args(argv)
    target = args.database or os.environ.get("APOPHIS_DATABASE") or DEFAULT_DATABASE
    if args.command == "backup":
        return _backup(target, args.dest)
    return _restore(args.backup, target, args.replace)


def _backup(source: str, dest: str) -> int:
    if is_postgresql(source):
        print(
            "Backup failed: that is a PostgreSQL database; back it up with pg_dump "
            f'(pg_dump --format=custom --file={dest} "$APOPHIS_DATABASE").',
            file=sys.stderr,
        )
        return 1
    started = time.perf_counter()
    try:
        size = backup_database(source, dest)
    except StoreError as exc:
        print(f"Backup failed: {exc}", file=sys.stderr)
        return 1
    elapsed = time.perf_counter() - started
    print(f"Backed up {source} to {dest} ({size:,} bytes) in {elapsed:.2f} s.")
    return 0


def _restore(backup: str, dest: str, replace: bool) -> int:
    if is_postgresql(dest):
        print(
            "Restore failed: that is a PostgreSQL database; restore it with pg_restore, the "
            "bot stopped (pg_restore --clean --if-exists --no-owner "
            f'--dbname="$APOPHIS_DATABASE" {backup}).',
            file=sys.stderr,
        )
        return 1
    try:
        kept = restore_database(backup, dest, replace=replace)
    except StoreError as exc:
        print(f"Restore failed: {exc} Nothing was changed.", file=sys.stderr)
        return 1
    print(f"Restored {backup} to {dest}." + (f" The old database is {kept}." if kept else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
