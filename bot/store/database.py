"""The one interface `Store` uses of a database backend, whichever it is.

Both backends, `bot.store.sqlite.SQLiteDatabase` and `bot.store.postgres.PostgresDatabase`,
implement `Database` exactly: the same members with the same parameters and return
types (tests/store/test_database.py checks it, and that `Store` uses nothing else).
`Store` picks one when it opens a database and never asks which it has after that.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, Protocol, Self, TypeVar

from bot.store.transactions import Transaction

T = TypeVar("T")


class Turn(Protocol):
    """This process's turn at something the processes sharing a database do one at a time.

    Held from `Database.take_turn` until `end_in` ends it, or until the process ends.
    """

    def end_in(self, seconds: float) -> None:
        """End the turn `seconds` from now (replacing any end set before; 0: now)."""
        ...


class Leases(Protocol):
    """The shards this process holds against every other process sharing the database:
    held until they are closed, or the process ends (bot.store.leases)."""

    #: The shards held.
    held: tuple[int, ...]

    async def take(self, shard_ids: Sequence[int]) -> tuple[int, ...]:
        """Take those of `shard_ids` no other process holds, without waiting; those taken."""
        ...

    async def count(self, shard_count: int) -> frozenset[int]:
        """Say this process counts the shards as `shard_count`, for as long as it holds
        leases; the other counts that processes holding leases say."""
        ...

    async def holders(self) -> frozenset[int]:
        """The shards some process (this one included) holds now."""
        ...

    async def still_held(self) -> tuple[int, ...]:
        """Which of `held` are still this process's: after a lost connection, all but
        those another process took meanwhile (the others are taken again, at once or at
        a later call). StoreError while the database cannot be reached."""
        ...

    async def close(self) -> None:
        """Release them all."""
        ...


#: A listener of notices: told each payload heard on its channel.
Heard = Callable[[str], None]


class Notices(Protocol):
    """What this process tells the others sharing the database, and hears from them, by
    channel (bot.store.notices); a notice not heard when sent is lost."""

    #: Called after the connection was lost and made again (notices may have been missed).
    reconnected: Callable[[], None]

    async def listen(self, channel: str, heard: Heard) -> None: ...

    async def unlisten(self, channel: str) -> None: ...

    async def notify(self, channel: str, payload: str) -> None:
        """StoreBusy when it cannot be sent now."""
        ...

    async def close(self) -> None: ...


class Database(Protocol):
    """A database the store runs its transactions on (`bot.store.transactions`).

    Open with `await Backend.open(database)`; every other method is a coroutine too.
    """

    @classmethod
    async def open(cls, database: str | os.PathLike[str]) -> Self:
        """Open the database (an SQLite file, created if needed; a postgresql:// URL) and
        bring its schema up to date (the pending migrations, each in one transaction).

        Checks come before anything is written: a database that cannot be used (damaged,
        unreadable, read-only, unreachable, or of a newer schema than this bot knows)
        raises a `DatabaseUnusable` error and is left exactly as it was.
        """
        ...

    def __str__(self) -> str:
        """The database as it may be shown or logged (a file's path, a URL without its
        password)."""
        ...

    async def close(self) -> None:
        """Close the database's connections (nothing is used after)."""
        ...

    async def write(self, transaction: Callable[..., Transaction[T]], *args: Any) -> T:
        """Run `transaction(*args)` as one database transaction that writes; its result.

        Everything it wrote commits together when it returns, or nothing does when it
        raises. Writes of one game run one after the other whichever process makes them
        (a write based on an older version is refused by the transaction itself:
        `StaleVersion`). The call ends about a second (``BUSY_TIMEOUT_MS``) after it was
        made at the latest: one that cannot have the database (or the game's row) in
        time raises `StoreBusy`, having written nothing.
        """
        ...

    async def read(self, transaction: Callable[..., Transaction[T]], *args: Any) -> T:
        """Run `transaction(*args)` as one database transaction that only reads; its result.

        Its queries see one snapshot of the database. The same deadline as `write`:
        `StoreBusy` about a second after the call when the database is not had in time.
        """
        ...

    async def ready(self) -> None:
        """Whether the database can take the bot's writes now: raises `StoreError` saying
        why not (SQLite: `DatabaseGone` once its file was deleted, moved or replaced while
        the bot ran; `StoreBusy` while another connection holds it), else the backend's
        own error. It writes nothing: the write it tries is rolled back.
        """
        ...

    async def take_turn(self, key: int) -> Turn | None:
        """Wait for this process's turn at something the processes sharing the database
        do one at a time (`key` names which), and return it: held until `Turn.end_in`
        ends it, or the process ends (a process that dies in its turn ends it).

        None when no other process can share the database: nobody to take turns with.
        Not bound by the one-second deadline: a turn is waited for as long as it takes.
        """
        ...

    async def leases(self) -> Leases | None:
        """A connection of its own on which this process holds its shards' leases, none
        held yet. None when no other process can share the database: nobody to lease from.
        """
        ...

    async def notices(self) -> Notices | None:
        """A connection of its own for notices between the processes sharing the database;
        None when no other process can share it (nobody to tell)."""
        ...

    async def backup(self, dest: str | os.PathLike[str]) -> int:
        """Copy the live database to `dest` without pausing the bot; the copy's size in bytes.

        The copy is written beside `dest` and renamed into place only once complete and
        checked. A database backed up with its own tool instead (PostgreSQL: pg_dump)
        raises `StoreError` saying how.
        """
        ...
