"""The SQLite backend of the store: one aiosqlite connection, WAL, migrations, online backups.

How it stays safe:

* One aiosqlite connection. Every transaction (`bot.store.transactions`) runs as a single
  function on that connection's thread, inside one ``BEGIN IMMEDIATE ... COMMIT``:
  one thread hop per call, and transactions of concurrent tasks are serialised by
  aiosqlite's queue, so they can never interleave. (A caller cancelled while it waits
  does not cancel the call: it may still have committed.)
* Every call ends about `BUSY_TIMEOUT_MS` after it was made at the latest, well inside
  Discord's 3 seconds for answering a player: it waits (in the queue, then for another
  process's write lock) only until then. A write that cannot get the lock in time fails
  cleanly with `StoreBusy` before writing anything: SQLite's own busy timeout, never a
  cancelled transaction.
* WAL journal with ``synchronous=NORMAL``: a killed process loses nothing that was
  committed (a power cut may lose the last few commits, never consistency).
* Opening checks the file before writing anything to it: a damaged, unreadable,
  read-only or newer-schema database raises a `DatabaseUnusable` error and is left
  exactly as it was.
"""

from __future__ import annotations

import asyncio
import functools
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager, suppress
from pathlib import Path
from typing import Any, Self, TypeVar

import aiosqlite

import migrations
from bot.metrics import DB_READ, DB_WRITE
from bot.store.database import Leases, Notices, Turn
from bot.store.records import (
    CorruptDatabase,
    DatabaseGone,
    DatabaseUnusable,
    MigrationFailed,
    ReadOnlyDatabase,
    SchemaTooNew,
    StoreBusy,
    StoreError,
    UnreadableDatabase,
)
from bot.store.transactions import Duplicate, Query, Run, Transaction

#: Where the database lives unless the configuration (APOPHIS_DATABASE) says otherwise.
DEFAULT_DATABASE = "data/apophis.sqlite3"
#: How long a call may wait for the database (in the connection's queue, and for another
#: connection's write lock) before it gives up with StoreBusy; a player's command makes at
#: most two calls before it is answered, inside Discord's 3 seconds.
BUSY_TIMEOUT_MS = 1_000
#: Opening (checks, migrations) and a backup wait longer: no player is waiting on them.
OPEN_BUSY_TIMEOUT_MS = 5_000
#: The fragments the store's SQL leaves to each dialect (bot.store.transactions).
_DIALECT = {
    "greatest": "MAX",
    # Without statistics SQLite would scan the whole table for open games.
    "open_index": "INDEXED BY games_one_open_per_channel",
    # CROSS JOIN keeps the open games as the outer loop: players of ended games are skipped.
    "join": "CROSS JOIN",
    # BEGIN IMMEDIATE has already taken the one write lock there is.
    "lock": "",
}

T = TypeVar("T")


class SQLiteDatabase:
    """An SQLite file. Open with `await SQLiteDatabase.open(path)`.

    Implements `bot.store.database.Database`: its docstrings say what each method
    guarantees; these say how SQLite keeps it.
    """

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        self._conn = conn
        self.path = path
        #: The file opened (device, inode): the path must go on naming it (`ready`).
        self._file = _identity(path)
        #: The busy timeout last set on the connection (milliseconds; only its thread reads it).
        self._busy_ms = OPEN_BUSY_TIMEOUT_MS

    def __str__(self) -> str:
        return str(self.path)

    @classmethod
    async def open(cls, database: str | os.PathLike[str]) -> Self:
        """Open (creating if needed) and migrate the file; refuse an unusable one."""
        path = Path(database)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UnreadableDatabase(f"Cannot create the folder for {path}: {exc}.") from exc
        # Checks and migrations run on a connection of their own, in a worker thread:
        # a refused file never gets as far as the store's long-lived connection.
        await asyncio.to_thread(_prepare, path)
        try:
            conn = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise _unusable(exc, path) from exc
        opened = cls(conn, path)
        try:
            await conn._execute(_configure, conn._conn)
        except BaseException:
            await conn.close()
            raise
        return opened

    async def close(self) -> None:
        """Close the connection (WAL contents are checkpointed into the file)."""
        await self._conn.close()

    async def write(self, transaction: Callable[..., Transaction[T]], *args: Any) -> T:
        """Run a transaction that writes (it takes the write lock first)."""
        with DB_WRITE.time():
            return await self._run(_drive, transaction, args, "IMMEDIATE")

    async def read(self, transaction: Callable[..., Transaction[T]], *args: Any) -> T:
        """Run a transaction that only reads: its queries see one snapshot."""
        with DB_READ.time():
            return await self._run(_drive, transaction, args, "DEFERRED")

    async def ready(self) -> None:
        """The path still names the file open (same device and inode), and a write can be
        made there (in a transaction rolled back)."""
        try:
            gone = _identity(self.path) != self._file
        except FileNotFoundError:
            gone = True
        if gone:
            raise DatabaseGone(
                f"{self.path} was deleted, moved or replaced while the bot ran: the games are "
                "written to a file no path names. Stop the bot and put the database back "
                "(or restore a backup) before starting it again, or it starts on an empty one."
            )
        await self._run(_try_write)

    async def take_turn(self, key: int) -> Turn | None:
        """None: no other process shares an SQLite database, nobody to take turns with."""
        return None

    async def leases(self) -> Leases | None:
        """None: no other process shares an SQLite database, nobody to lease shards from."""
        return None

    async def notices(self) -> Notices | None:
        """None: no other process shares an SQLite database, nobody to tell."""
        return None

    async def backup(self, dest: str | os.PathLike[str]) -> int:
        """Copy the live database to `dest` without pausing the bot; returns its size in bytes."""
        return await asyncio.to_thread(backup_database, self.path, dest)

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run `fn(connection, *args)` on the connection's thread, as one queue item.

        It waits for another connection's write lock only for what is left of
        BUSY_TIMEOUT_MS when it starts (none, if queued that long): else StoreBusy,
        nothing written.
        """
        # aiosqlite runs queued callables one at a time on its thread. It has no public
        # way to queue our own callable, so this is the one place that uses _execute:
        # a whole transaction in one hop that no other task's statements can split.
        # Each call's time runs from when it was made: a call queued behind others
        # made earlier ends no later than its own time, however long the queue.
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        return await self._conn._execute(self._in_time, deadline, fn, *args)

    def _in_time(self, deadline: float, fn: Callable[..., T], *args: Any) -> T:
        """On the connection's thread: `fn` with the busy timeout cut to the time left."""
        conn = self._conn._conn
        # In steps of 50 ms, rounded down: the pragma is rarely needed twice in a row. Out
        # of time, it still runs, but without waiting: reading never needs the write lock.
        busy_ms = max(int((deadline - time.monotonic()) * 20) * 50, 0)
        if busy_ms != self._busy_ms:
            conn.execute(f"PRAGMA busy_timeout = {busy_ms}")
            self._busy_ms = busy_ms
        try:
            return fn(conn, *args)
        except sqlite3.OperationalError as exc:
            if getattr(exc, "sqlite_errorname", "").startswith("SQLITE_BUSY"):
                raise StoreBusy(
                    "Another connection held the database for too long; nothing was written."
                ) from exc
            raise


def backup_database(source: str | os.PathLike[str], dest: str | os.PathLike[str]) -> int:
    """Online copy of `source` to `dest` with SQLite's backup API; returns the copy's size.

    Uses its own read-only connection, so writers carry on meanwhile (WAL). The copy
    is written beside `dest` and renamed into place only once complete and checked; on
    any failure nothing is left of it, and the error names the file at fault: `source`
    when it cannot be read, `dest` (its folder, its disk) when the copy cannot be written.
    """
    source, dest = Path(source), Path(dest)
    if not dest.parent.is_dir():
        raise StoreError(f"The backup folder {dest.parent} does not exist.")
    if dest.is_dir():
        raise StoreError(
            f"{dest} is a folder: name the backup file, such as {dest / 'apophis-backup.sqlite3'}."
        )
    if dest.exists() and dest.samefile(source):
        raise StoreError("The backup destination is the live database itself.")
    partial = dest.with_name(dest.name + ".partial")
    with closing(_open_to_back_up(source)) as src:
        try:
            partial.unlink(missing_ok=True)
            with closing(sqlite3.connect(partial)) as copy:
                src.backup(copy)
                (verdict,) = copy.execute("PRAGMA quick_check").fetchone()
            if verdict != "ok":
                raise CorruptDatabase(f"The backup of {source} failed its check: {verdict}.")
            os.replace(partial, dest)
        except sqlite3.Error as exc:
            raise (_unusable(exc, source) if _read_side(exc) else _unwritable(exc, dest)) from exc
        except OSError as exc:
            raise _unwritable(exc, dest) from exc
        finally:
            with suppress(OSError):
                partial.unlink(missing_ok=True)
    return dest.stat().st_size


def _open_to_back_up(source: Path) -> sqlite3.Connection:
    """A read-only connection to `source`, checked readable (errors name `source`)."""
    src = None
    try:
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
        src.execute(f"PRAGMA busy_timeout = {OPEN_BUSY_TIMEOUT_MS}")
        src.execute("SELECT count(*) FROM sqlite_schema").fetchone()
    except sqlite3.Error as exc:
        if src is not None:
            src.close()
        raise _unusable(exc, source) from exc
    return src


def _read_side(exc: sqlite3.Error) -> bool:
    """Whether a backup's `exc` is the source's (damaged, busy, not a database) rather than
    the copy's (its folder or disk)."""
    name = getattr(exc, "sqlite_errorname", "")
    return name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT", "SQLITE_BUSY", "SQLITE_LOCKED"))


def _unwritable(exc: sqlite3.Error | OSError, dest: Path) -> StoreError:
    """A clear error for a backup that cannot be written to `dest`."""
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return StoreError(
        f"The backup cannot be written to {dest} ({reason}): check that its folder is "
        "writable and its disk has room."
    )


def _unusable(exc: sqlite3.Error, path: Path) -> StoreError:
    """A clear error for a database that cannot be opened or used at all."""
    name = getattr(exc, "sqlite_errorname", "")
    if name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
        return CorruptDatabase(
            f"{path} is not an SQLite database or is damaged ({exc}). It was not modified: "
            "restore it from a backup or move it away to start afresh."
        )
    if name.startswith("SQLITE_READONLY"):
        return ReadOnlyDatabase(
            f"{path} can be read but not written ({exc}): check the permissions of the file "
            "and its folder. It was not modified."
        )
    if name.startswith(("SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH", "SQLITE_IOERR")):
        return UnreadableDatabase(
            f"{path} cannot be opened or read ({exc}): check that the path is right and the "
            "permissions of the file and its folder. It was not modified."
        )
    return DatabaseUnusable(f"Database error on {path}: {exc}.")


# ------------------------------------------- the connection thread: transactions


@functools.cache
def _sql(template: str) -> str:
    return template.format_map(_DIALECT)


def _drive(
    conn: sqlite3.Connection,
    transaction: Callable[..., Transaction[T]],
    args: tuple[Any, ...],
    kind: str,
) -> T:
    """Run a transaction (bot.store.transactions) to its end inside BEGIN ... COMMIT."""
    with _transaction(conn, kind):
        run = Run(transaction, args)
        query = run.next()
        while query is not None:
            query = run.next(*_answer(conn, query))
        return run.result


def _answer(conn: sqlite3.Connection, query: Query) -> tuple[Any, Exception | None]:
    """What a query gives the transaction: its answer, or the Duplicate to throw into it."""
    try:
        cursor = conn.execute(_sql(query.sql), query.args)
    except sqlite3.IntegrityError as exc:
        if getattr(exc, "sqlite_errorname", "") != "SQLITE_CONSTRAINT_UNIQUE":
            raise
        return None, Duplicate(str(exc))
    if query.want == "one":
        return cursor.fetchone(), None
    if query.want == "all":
        return cursor.fetchall(), None
    return cursor.rowcount, None


@contextmanager
def _transaction(conn: sqlite3.Connection, kind: str = "IMMEDIATE") -> Iterator[None]:
    """BEGIN ... COMMIT, rolling back on any error (IMMEDIATE takes the write lock first)."""
    conn.execute(f"BEGIN {kind}")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


# --------------------------------------------------------- opening and migrations


def _prepare(path: Path) -> None:
    """Check the file is usable before writing to it, then switch to WAL and migrate."""
    known = migrations.load()
    try:
        with closing(sqlite3.connect(path, isolation_level=None)) as conn:
            _configure(conn)
            version = _schema_version(conn)
            if version > len(known):
                raise SchemaTooNew(
                    f"{path} has schema version {version}, but this bot only knows versions "
                    f"up to {len(known)}: it was written by a newer version of the bot. Run "
                    "that version, or restore a backup made by this one. The file was not "
                    "modified."
                )
            (verdict,) = conn.execute("PRAGMA quick_check(1)").fetchone()
            if verdict != "ok":
                raise CorruptDatabase(
                    f"{path} is damaged ({verdict}). It was not modified: restore it from a backup."
                )
            # We learn now, not at the first move, whether the file can be written.
            _try_write(conn)
            (mode,) = conn.execute("PRAGMA journal_mode = WAL").fetchone()
            if mode != "wal":
                raise DatabaseUnusable(
                    f"{path} could not be switched to WAL journaling ({mode!r})."
                )
            _migrate(conn, known, str(path))
    except sqlite3.Error as exc:
        raise _unusable(exc, path) from exc


def _try_write(conn: sqlite3.Connection) -> None:
    """Rewrite the schema's version number in a transaction that is rolled back: raises
    when the file cannot be written now; nothing changes."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(f"PRAGMA user_version = {_schema_version(conn)}")
    finally:
        conn.execute("ROLLBACK")


def _identity(path: Path) -> tuple[int, int]:
    """The file a path names: its device and inode."""
    found = path.stat()
    return found.st_dev, found.st_ino


def _configure(conn: sqlite3.Connection) -> None:
    """The per-connection settings (WAL itself is stored in the file)."""
    conn.execute(f"PRAGMA busy_timeout = {OPEN_BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")


def _schema_version(conn: sqlite3.Connection) -> int:
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    return version


def _migrate(
    conn: sqlite3.Connection, known: Sequence[migrations.Migration], where: str = "the database"
) -> None:
    """Apply the pending migrations, each in one transaction that also sets user_version;
    one that fails raises MigrationFailed naming it, the database left at the version before.

    Runs with foreign keys off (SQLite cannot toggle them inside a transaction, and a
    migration may rebuild a table), checking them before each commit instead.
    """
    conn.execute("PRAGMA foreign_keys = OFF")
    for migration in known:
        try:
            with _transaction(conn):
                # Read under the write lock: another process may have migrated meanwhile.
                if _schema_version(conn) >= migration.version:
                    continue
                for statement in _statements(migration.sql):
                    conn.execute(statement)
                violation = conn.execute("PRAGMA foreign_key_check").fetchone()
                if violation is not None:
                    why = f"it breaks a foreign key: {tuple(violation)}"
                    raise MigrationFailed(migration.version, migration.name, where, why)
                conn.execute(f"PRAGMA user_version = {migration.version}")
        except sqlite3.Error as exc:
            if getattr(exc, "sqlite_errorname", "").startswith("SQLITE_BUSY"):
                raise  # another process holds the database: not this migration's fault
            raise MigrationFailed(migration.version, migration.name, where, str(exc)) from exc


def _statements(script: str) -> Iterator[str]:
    """The complete statements of an SQL script (sqlite3 executes one at a time)."""
    pending = ""
    *pieces, rest = script.split(";")
    for piece in pieces:
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            yield pending
            pending = ""
    rest = pending + rest
    if any(line.strip() and not line.strip().startswith("--") for line in rest.splitlines()):
        raise ValueError(f"SQL script ends with an incomplete statement: {rest.strip()[:80]!r}")
