"""Shards held by leases on PostgreSQL: advisory locks on a connection of their own.

A process holds a shard while its lease connection holds the advisory lock
(`SHARD_LOCK`, shard id). Nothing is written: the server itself releases every lock of a
connection when it closes, so a lease lapses when its process stops, is killed (its
socket is closed at once by its machine), or falls silent (a machine gone or cut off:
the server's TCP keepalive notices within about 11 s: bot.store.postgres). Taking a
lease never waits: a shard another connection holds is refused at once
(``pg_try_advisory_lock``). Which shards are held, by anyone, is read from ``pg_locks``,
without taking them.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping, Sequence
from typing import Self

import asyncpg

from bot.store.records import StoreBusy

log = logging.getLogger("bot.store")
#: The first key of each shard's advisory lock (the second is the shard id).
SHARD_LOCK = 0x41504F03
#: The first key of the lock shared by the processes counting the shards alike (the
#: second is APOPHIS_SHARD_COUNT).
COUNT_LOCK = 0x41504F04
#: The longest a lease query (or connecting for one) may take.
LEASE_CALL_SECONDS = 5.0
#: How long closing waits for the server's goodbye before dropping the connection (the
#: server releases the leases either way, at once: a planned stop stays within its bound).
LEASE_CLOSE_SECONDS = 0.5
#: The second keys of the advisory locks (of two keys) held in this database, by their
#: first key.
_HELD = (
    "SELECT DISTINCT objid::int FROM pg_locks WHERE locktype = 'advisory' AND granted"
    " AND classid = $1 AND objsubid = 2"
    " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
)
#: What a server that is gone, stopping or not answering raises.
_OUT_OF_REACH = (OSError, asyncpg.InterfaceError, asyncpg.PostgresConnectionError)


class ShardLeases:
    """This process's shard leases (`held`), on one connection of their own.

    Open with `await ShardLeases.connect(url, settings)` (`settings`: the server settings
    of every connection, TCP keepalive among them). A call the server does not answer in
    time, or cannot be made at all, raises StoreBusy.
    """

    def __init__(self, conn: asyncpg.Connection, url: str, settings: Mapping[str, str]) -> None:
        self._conn = conn
        #: The server process of the connection (its locks' holder in ``pg_locks``).
        self._pid = conn.get_server_pid()
        self._url = url
        self._settings = dict(settings)
        #: The shards whose lease this connection holds.
        self.held: tuple[int, ...] = ()
        #: How this process counts the shards (`count`), once it said so.
        self._count: int | None = None
        #: Shards of `held` a lost connection (server process `_lost_pid`) may still hold,
        #: to be taken back on this one.
        self._pending: set[int] = set()
        self._lost_pid = 0

    @classmethod
    async def connect(cls, url: str, settings: Mapping[str, str]) -> Self:
        return cls(await _connect(url, settings), url, settings)

    async def take(self, shard_ids: Sequence[int]) -> tuple[int, ...]:
        """Take the leases of `shard_ids` that no other connection holds, without waiting;
        those taken (added to `held`)."""
        rows = await self._call(
            "SELECT s, pg_try_advisory_lock($1, s) FROM unnest($2::int[]) AS s ORDER BY s",
            SHARD_LOCK,
            list(shard_ids),
        )
        taken = tuple(row[0] for row in rows if row[1])
        self.held = tuple(sorted(set(self.held) | set(taken)))
        return taken

    async def count(self, shard_count: int) -> frozenset[int]:
        """Count the shards as `shard_count` (a lock shared with every process counting them
        alike, held as long as the leases); the other counts some process holds now."""
        await self._call("SELECT pg_advisory_lock_shared($1, $2)", COUNT_LOCK, shard_count)
        self._count = shard_count
        rows = await self._call(_HELD, COUNT_LOCK)
        return frozenset(row[0] for row in rows) - {shard_count}

    async def holders(self) -> frozenset[int]:
        """The shards whose lease some connection to this database holds now."""
        return frozenset(row[0] for row in await self._call(_HELD, SHARD_LOCK))

    async def still_held(self) -> tuple[int, ...]:
        """Which of `held` are still this process's: all of them while the connection
        answers. After it was lost, a new one takes them again; those the lost one still
        holds (the server has not noticed yet: it is told to drop it) stay this process's
        and are taken at the next call; those another process took are no longer in
        `held`."""
        if self._conn.is_closed() or not await self._answers():
            await self._reconnect()
        if self._pending:
            await self._take_back()
        return self.held

    async def _answers(self) -> bool:
        try:
            await self._call("SELECT 1")
        except StoreBusy:
            return False
        return True

    async def _reconnect(self) -> None:
        """A new connection, saying the count again; the lost one's leases to take back."""
        lost = self._pid
        self._conn = await _reach(self._url, self._settings)
        self._pid = self._conn.get_server_pid()
        self._pending |= set(self.held)
        if self._count is not None:
            await self.count(self._count)
        with contextlib.suppress(StoreBusy, asyncpg.PostgresError):
            await self._call("SELECT pg_terminate_backend($1)", lost)
        self._lost_pid = lost

    async def _take_back(self) -> None:
        """Take the lost connection's leases again: those another process holds now are
        gone from `held`; the others (the lost connection still holds them, or nobody
        does) are tried again at the next call."""
        taken = await self.take(sorted(self._pending))
        rows = await self._call(
            "SELECT objid::int, pid FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND classid = $1 AND objsubid = 2 AND objid::int = ANY($2::int[])",
            SHARD_LOCK,
            sorted(self._pending - set(taken)),
        )
        others = {row[0] for row in rows if row[1] != self._lost_pid}
        self._pending -= set(taken) | others
        self.held = tuple(shard for shard in self.held if shard not in others)
        if not self._pending and self.held:
            shards = ", ".join(map(str, self.held))
            log.info("the leases' connection was lost: shards %s held again", shards)

    async def close(self) -> None:
        """Release every lease (closing the connection)."""
        if self._conn.is_closed():
            return
        try:
            await self._conn.close(timeout=LEASE_CLOSE_SECONDS)
        except Exception:
            self._conn.terminate()

    async def _call(self, sql: str, *args: object) -> list[asyncpg.Record]:
        """A query's rows. A lost connection is made again only while it held nothing
        (`still_held` takes the leases of a lost one again)."""
        if self._conn.is_closed():
            if self.held:
                raise StoreBusy("The lease connection was lost.")
            self._conn = await _reach(self._url, self._settings)
            self._pid = self._conn.get_server_pid()
        try:
            return await self._conn.fetch(sql, *args, timeout=LEASE_CALL_SECONDS)
        except _OUT_OF_REACH as exc:
            self._conn.terminate()
            raise StoreBusy(f"The lease connection was lost ({exc!r}).") from exc


async def _reach(url: str, settings: Mapping[str, str]) -> asyncpg.Connection:
    """A new lease connection, or StoreBusy when the server cannot be reached."""
    try:
        return await _connect(url, settings)
    except _OUT_OF_REACH as exc:
        raise StoreBusy(f"The database cannot be reached for the leases ({exc!r}).") from exc


async def _connect(url: str, settings: Mapping[str, str]) -> asyncpg.Connection:
    return await asyncpg.connect(url, timeout=LEASE_CALL_SECONDS, server_settings=dict(settings))
