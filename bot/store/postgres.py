"""The PostgreSQL backend of the store on asyncpg: a pool, one transaction a call, migrations.

How it stays safe when several processes share the database:

* Every write is one transaction that first locks the row of the game it changes
  (``FOR UPDATE``): the writes of one game run one after the other, as SQLite's single
  writer runs them, while different games never wait on each other. (SERIALIZABLE
  would do the same for more: its predicate locks on shared index pages made writes
  of different lobbies refuse each other by the hundred under load.) The rare deadlock,
  possible only between processes that run the same shard by mistake, has written
  nothing: that transaction is run again from its start.
* Every call ends about `BUSY_TIMEOUT_MS` after it was made at the latest: waiting for a
  pooled connection, or for a game's row another transaction holds, ends with
  `StoreBusy`, nothing written. So does a call the server does not answer in
  `CALL_SECONDS` (frozen, or cut off by the network: the connection is dropped, and the
  server rolls its transaction back) and a call the server refuses because it is gone
  or stopping: the player is told to try again, never left without an answer.
* Start-up waits for a server that is not up yet (`OPEN_PATIENCE`, trying again with
  backoff); closing gives up waiting for the server after `CLOSE_SECONDS`.
* The version check (``UPDATE games ... WHERE version = ?``) refuses a write based
  on an older game, whichever process wrote the newer one (`StaleVersion`).
* Reads run REPEATABLE READ READ ONLY: their queries see one snapshot.
* Migrations run one at a time under an advisory lock, each in the transaction that
  records the new version in ``schema_version``; a newer schema is refused.

Meta values are stored as JSON (``jsonb``); every other column is read as SQLite
gives it.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import random
import re
import time
import urllib.parse
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, Self, TypeVar

import asyncpg
import orjson

import migrations
from bot.metrics import DB_READ, DB_WRITE
from bot.store.database import Leases, Notices, Turn
from bot.store.leases import ShardLeases
from bot.store.notices import PgNotices
from bot.store.records import (
    DatabaseNotUp,
    MigrationFailed,
    SchemaTooNew,
    StoreBusy,
    StoreError,
    UnreachableDatabase,
)
from bot.store.transactions import Duplicate, Query, Run, Transaction

#: Connections per process: a few transactions at once, without crowding a shared server.
POOL_SIZE = 8
#: How long a call may wait for a connection of the pool, and then for a row another
#: transaction holds, before it gives up with StoreBusy (as on SQLite: inside Discord's
#: 3 seconds for answering a player, who makes at most two calls first).
BUSY_TIMEOUT_MS = 1_000
#: The longest one call (a transaction, from asking for a connection to its commit) may
#: take before it ends with StoreBusy, whatever the server does: two calls and an answer
#: fit Discord's 3 seconds.
CALL_SECONDS = 1.2
#: How long start-up keeps trying a server that cannot be reached (a machine that boots
#: before its database), and the longest wait between two tries.
OPEN_PATIENCE = 60.0
OPEN_BACKOFF_MAX = 8.0
#: How long closing waits for the server to say goodbye before dropping the connections.
CLOSE_SECONDS = 1.0
#: TCP keepalive on every connection: a server gone silent (a cut network) is noticed
#: within about IDLE + INTERVAL × COUNT seconds even by an idle connection.
KEEPALIVE_IDLE, KEEPALIVE_INTERVAL, KEEPALIVE_COUNT = 10, 5, 3
#: How often a transaction ended by a deadlock is run again before the error stands.
RETRIES = 20
#: Advisory lock keys (one number space for the whole database).
MIGRATION_LOCK = 0x41504F01
#: The fragments the store's SQL leaves to each dialect (bot.store.transactions).
_DIALECT = {"greatest": "GREATEST", "open_index": "", "join": "JOIN", "lock": "FOR UPDATE"}
_PARAMETER = re.compile(r"\?")
_CONFLICTS = (asyncpg.DeadlockDetectedError, asyncpg.SerializationError)
#: What a server that is gone, stopping or not answering raises: the call is refused busy.
_OUT_OF_REACH = (
    OSError,  # TimeoutError among them
    asyncpg.InterfaceError,
    asyncpg.PostgresConnectionError,
    asyncpg.OperatorInterventionError,
)
#: What a server not up yet (or out of the network's reach) raises when connecting: tried
#: again at start-up. A refusal (a wrong password, no such database) is not.
_NOT_UP = (OSError, asyncpg.CannotConnectNowError)
#: Settings of every connection of the pool.
_SERVER_SETTINGS = {
    "lock_timeout": str(BUSY_TIMEOUT_MS),
    # the server ends a statement the bot has long stopped waiting for
    "statement_timeout": str(int(CALL_SECONDS * 2_000)),
    # and notices a bot gone silent (its locks, and its turns' advisory locks, freed)
    "tcp_keepalives_idle": str(KEEPALIVE_IDLE),
    "tcp_keepalives_interval": str(KEEPALIVE_INTERVAL),
    "tcp_keepalives_count": str(KEEPALIVE_COUNT),
}

#: The lease connection's keepalive (bot.store.leases): a machine gone silent loses its
#: shards' leases after about 5 + 2 × 3 = 11 s without a word (a live machine answers
#: the probes, however idle the connection).
_LEASE_KEEPALIVE = {
    "tcp_keepalives_idle": "5",
    "tcp_keepalives_interval": "2",
    "tcp_keepalives_count": "3",
}

T = TypeVar("T")
log = logging.getLogger("bot.store")


def is_postgresql(database: str | os.PathLike[str]) -> bool:
    """Whether APOPHIS_DATABASE names a PostgreSQL database (a URL) rather than a file."""
    return str(database).startswith(("postgresql://", "postgres://"))


def without_password(url: str) -> str:
    """The URL as it may be logged or shown."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rpartition("@")
    user = (parts.username or "") + ":***"
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{user}@{netloc[2]}"))


class PostgresDatabase:
    """A PostgreSQL database. Open with `await PostgresDatabase.open(url)`.

    Implements `bot.store.database.Database`: its docstrings say what each method
    guarantees; these say how PostgreSQL keeps it.
    """

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.url = url

    def __str__(self) -> str:
        return without_password(self.url)

    @classmethod
    async def open(cls, database: str | os.PathLike[str]) -> Self:
        """Connect to the URL and migrate. A server not up yet is tried again with backoff
        for OPEN_PATIENCE seconds (DatabaseNotUp after that); one that refuses the
        connection raises UnreachableDatabase at once."""
        url = str(database)
        pool = await _pool(url, OPEN_PATIENCE)
        opened = cls(pool, url)
        try:
            async with pool.acquire() as conn:
                await _migrate(conn, migrations.load("postgresql"), str(opened))
        except BaseException:
            await pool.close()
            raise
        return opened

    async def close(self) -> None:
        """Close every connection of the pool, dropping them if the server does not answer
        within CLOSE_SECONDS (turns still held end with the process)."""
        try:
            await asyncio.wait_for(self._pool.close(), CLOSE_SECONDS)
        except TimeoutError:
            log.warning("the database did not answer while closing: connections dropped")
            self._pool.terminate()

    async def write(self, transaction: Callable[..., Transaction[T]], *args: Any) -> T:
        """Run a transaction that writes, again from its start if a deadlock ended it."""
        with DB_WRITE.time():
            for attempt in range(1, RETRIES + 1):
                try:
                    async with self._connection() as conn, conn.transaction():
                        return await _drive(conn, transaction, args)
                except _CONFLICTS:
                    if attempt == RETRIES:
                        raise
                except asyncpg.LockNotAvailableError as exc:
                    raise StoreBusy(
                        "Another connection held the game for too long; nothing was written."
                    ) from exc
                await asyncio.sleep(random.uniform(0, 0.002 * attempt))
            raise AssertionError("unreachable")

    async def read(self, transaction: Callable[..., Transaction[T]], *args: Any) -> T:
        """Run a transaction that only reads: its queries see one snapshot."""
        with DB_READ.time():
            async with (
                self._connection() as conn,
                conn.transaction(isolation="repeatable_read", readonly=True),
            ):
                return await _drive(conn, transaction, args)

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection of the pool for one call, if one is free in time; else StoreBusy.

        A call still running CALL_SECONDS after it asked loses its connection (dropped: the
        server rolls back what it had not committed), and the server gone or stopping ends
        it too: either way StoreBusy, nothing written.
        """
        asked = time.monotonic()
        try:
            conn = await self._pool.acquire(timeout=BUSY_TIMEOUT_MS / 1000)
        except TimeoutError as exc:
            raise StoreBusy("Every database connection stayed busy; nothing was done.") from exc
        except _OUT_OF_REACH as exc:
            raise StoreBusy(f"The database cannot be reached ({exc}); nothing was done.") from exc
        left = max(CALL_SECONDS - (time.monotonic() - asked), 0.1)
        watchdog = asyncio.get_running_loop().call_later(left, conn.terminate)
        try:
            yield conn
        except _OUT_OF_REACH as exc:
            raise StoreBusy(
                f"The database did not answer in time ({exc!r}); nothing was written."
            ) from exc
        finally:
            watchdog.cancel()
            await self._pool.release(conn)

    async def leases(self) -> Leases | None:
        """The shards' leases, on a connection of its own with the pool's settings but a
        keener TCP keepalive: the server releases them from a machine gone silent within
        about LEASE_KEEPALIVE's idle + interval × count seconds (a standby takes over)."""
        return await ShardLeases.connect(self.url, _SERVER_SETTINGS | _LEASE_KEEPALIVE)

    async def notices(self) -> Notices | None:
        """Notices between the processes, on a connection of their own with the leases'
        keen keepalive: a lost one is noticed and made again within seconds."""
        return await PgNotices.connect(self.url, _SERVER_SETTINGS | _LEASE_KEEPALIVE)

    async def backup(self, dest: str | os.PathLike[str]) -> int:
        """Refused: a PostgreSQL database is backed up with its own tool."""
        raise StoreError(
            f"{self} is a PostgreSQL database: back it up with pg_dump "
            f"(pg_dump --format=custom --file={dest} DATABASE_URL)."
        )

    async def ready(self) -> None:
        """A write can be made (in a transaction rolled back): the server is not read-only
        or a standby, and the bot's user may still write."""
        async with self._connection() as conn:
            attempt = conn.transaction()
            await attempt.start()
            try:
                await conn.execute("UPDATE schema_version SET version = version")
            except asyncpg.LockNotAvailableError as exc:
                raise StoreBusy("Another connection held the database for too long.") from exc
            finally:
                await attempt.rollback()

    async def take_turn(self, key: int) -> Turn | None:
        """Wait for advisory lock `key`: this process's turn, until `Turn.end_in` ends it.

        Always a turn (never None): other processes may share the database. On a
        connection of its own (the pool's are shared): closing it releases the lock,
        and so does the server if this process dies meanwhile.
        """
        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute("SELECT pg_advisory_lock($1)", key)
        except BaseException:
            await conn.close()
            raise
        return AdvisoryTurn(conn)


class AdvisoryTurn:
    """A `Turn` taken with `PostgresDatabase.take_turn`: an advisory lock, held until it ends."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn
        self._end: asyncio.TimerHandle | None = None

    def end_in(self, seconds: float) -> None:
        """End the turn `seconds` from now (replacing any end set before)."""
        if self._end is not None:
            self._end.cancel()
        self._end = asyncio.get_running_loop().call_later(seconds, _close_soon, self._conn)


async def _pool(url: str, patience: float) -> asyncpg.Pool:
    """The connection pool, once the server answers: tried again with backoff while it is
    not up, for `patience` seconds."""
    deadline = time.monotonic() + patience
    delay = 0.5
    while True:
        try:
            return await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=POOL_SIZE,
                init=_configure,
                reset=_keep,
                timeout=max(min(deadline - time.monotonic(), 10.0), 1.0),
                server_settings=_SERVER_SETTINGS,
            )
        except _NOT_UP as exc:
            if time.monotonic() + delay > deadline:
                raise DatabaseNotUp(
                    f"Cannot reach the PostgreSQL database {without_password(url)} after "
                    f"trying for {patience:.0f} s ({exc or type(exc).__name__}): check "
                    "APOPHIS_DATABASE, and that the server runs and is reachable from here."
                ) from exc
            log.warning(
                "the database %s cannot be reached yet (%s): trying again in %.1f s",
                without_password(url),
                exc or type(exc).__name__,
                delay,
            )
            await asyncio.sleep(delay)
            delay = min(delay * 2, OPEN_BACKOFF_MAX)
        except (asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise UnreachableDatabase(
                f"The PostgreSQL database {without_password(url)} refused the connection "
                f"({exc}): check APOPHIS_DATABASE, and that the server lets this user in."
            ) from exc


# ------------------------------------------------------------------ transactions


@functools.cache
def _sql(template: str) -> str:
    """The PostgreSQL text of a query: its fragments filled in, its ? numbered $1, $2..."""
    numbers = iter(range(1, 1_000))
    return _PARAMETER.sub(lambda _: f"${next(numbers)}", template.format_map(_DIALECT))


async def _drive(
    conn: asyncpg.Connection, transaction: Callable[..., Transaction[T]], args: tuple[Any, ...]
) -> T:
    """Run a transaction (bot.store.transactions) to its end (the caller commits or rolls back)."""
    run = Run(transaction, args)
    query = run.next()
    while query is not None:
        query = run.next(*(await _answer(conn, query)))
    return run.result


async def _answer(conn: asyncpg.Connection, query: Query) -> tuple[Any, Exception | None]:
    """What a query gives the transaction: its answer, or the Duplicate to throw into it.

    (After a Duplicate, PostgreSQL has aborted the transaction: all it can do is raise.)
    """
    sql = _sql(query.sql)
    try:
        if query.want == "one":
            row = await conn.fetchrow(sql, *query.args)
            return (None if row is None else tuple(row)), None
        if query.want == "all":
            return [tuple(row) for row in await conn.fetch(sql, *query.args)], None
        status = await conn.execute(sql, *query.args)
    except asyncpg.UniqueViolationError as exc:
        return None, Duplicate(f"{exc} ({exc.detail})")
    return int(status.rpartition(" ")[2]), None


def _close_soon(conn: asyncpg.Connection) -> None:
    """End a turn: closing its connection releases its advisory lock."""
    if conn.is_closed():
        return
    task = asyncio.ensure_future(conn.close())
    _closing.add(task)
    task.add_done_callback(_closing.discard)


#: Connections being closed (a task must be referenced until it is done).
_closing: set[asyncio.Future[None]] = set()


async def _keep(conn: asyncpg.Connection) -> None:
    """A connection goes back to the pool as it is: no transaction is ever left open on it
    (they are context managers) and it never holds session state (locks, LISTEN, SET),
    so the pool's reset, a round trip on every release, has nothing to undo."""


async def _configure(conn: asyncpg.Connection) -> None:
    """Per connection: meta values as JSON in both directions."""
    await conn.set_type_codec(
        "jsonb",
        encoder=lambda value: orjson.dumps(value).decode(),
        decoder=orjson.loads,
        schema="pg_catalog",
    )


# ------------------------------------------------------------------- migrations


async def schema_version(conn: asyncpg.Connection) -> int:
    """The version of the schema (0 for an empty database)."""
    if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
        return 0
    return await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")


async def migrate(
    conn: asyncpg.Connection, known: Sequence[migrations.Migration], where: str = "the database"
) -> None:
    """Apply the pending migrations, each in one transaction that also records its version;
    one that fails raises MigrationFailed naming it, the database left at the version before.

    An advisory lock makes processes starting together migrate one after the other.
    """
    for migration in known:
        try:
            async with conn.transaction():
                await conn.execute("SET LOCAL statement_timeout = 0")
                await conn.execute("SET LOCAL lock_timeout = 0")
                await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
                )
                if await schema_version(conn) >= migration.version:
                    continue
                await conn.execute(migration.sql)
                await conn.execute("DELETE FROM schema_version")
                await conn.execute("INSERT INTO schema_version VALUES ($1)", migration.version)
        except asyncpg.PostgresError as exc:
            raise MigrationFailed(migration.version, migration.name, where, str(exc)) from exc


async def _migrate(
    conn: asyncpg.Connection, known: Sequence[migrations.Migration], name: str
) -> None:
    version = await schema_version(conn)
    if version > len(known):
        raise SchemaTooNew(
            f"{name} has schema version {version}, but this bot only knows versions up to "
            f"{len(known)}: it was written by a newer version of the bot. Run that version, "
            "or restore a backup made by this one. The database was not modified."
        )
    await migrate(conn, known, name)
