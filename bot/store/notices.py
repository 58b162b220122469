"""PostgreSQL's notices between the bot's processes: LISTEN and NOTIFY on a connection of their own.

Several processes sharing one database tell each other what happened (a game changed: its id
and version) and hand each other work (a command for a game another process owns, and its
answer) through the server's notices. A notice is not stored: one sent while a process is
not listening (its connection lost) is never heard, so after a lost connection is made again
every channel is listened to again and `reconnected` is called, for the listener to read
again what it follows. Calls that cannot be made raise StoreBusy. Alone on SQLite there is
nobody to tell: `Store.notices` is None.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from typing import Self

import asyncpg

from bot.store.database import Heard
from bot.store.records import StoreBusy

log = logging.getLogger("bot.store")
#: The longest a notice (or connecting for one) may take.
NOTICE_SECONDS = 2.0
#: How long closing waits for the server's goodbye before dropping the connection.
CLOSE_SECONDS = 0.5
#: How long a lost connection waits before it is made again, at most.
RECONNECT_MAX_SECONDS = 4.0
#: The longest payload the server takes (PostgreSQL's limit is 8,000 bytes).
MAX_PAYLOAD = 7_900
#: What a server that is gone, stopping or not answering raises.
_OUT_OF_REACH = (
    OSError,
    asyncio.TimeoutError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    asyncpg.PostgresError,
)


class PgNotices:
    """This process's notices (see the module docstring). Open with
    `await PgNotices.connect(url, settings)`; `close` when done."""

    def __init__(self, url: str, settings: Mapping[str, str]) -> None:
        self._url = url
        self._settings = dict(settings)
        self._conn: asyncpg.Connection | None = None
        #: What is heard on each channel listened to.
        self._heard: dict[str, Heard] = {}
        #: Called after a lost connection is made again (notices may have been missed).
        self.reconnected: Callable[[], None] = lambda: None
        self._calls = asyncio.Lock()
        self._mending: asyncio.Task[None] | None = None
        self._closed = False

    @classmethod
    async def connect(cls, url: str, settings: Mapping[str, str]) -> Self:
        notices = cls(url, settings)
        notices._conn = await notices._connection()
        return notices

    async def listen(self, channel: str, heard: Heard) -> None:
        """Hear every payload sent on `channel` from now on (again after a reconnection)."""
        self._heard[channel] = heard
        conn = self._conn
        if conn is not None and not conn.is_closed():
            async with self._calls:
                await self._guarded(conn.add_listener(channel, self._deliver))

    async def unlisten(self, channel: str) -> None:
        if self._heard.pop(channel, None) is None:
            return
        conn = self._conn
        if conn is not None and not conn.is_closed():
            async with self._calls:
                await self._guarded(conn.remove_listener(channel, self._deliver))

    async def notify(self, channel: str, payload: str) -> None:
        """Send `payload` to whoever listens on `channel` now (StoreBusy: not sent)."""
        if len(payload.encode()) > MAX_PAYLOAD:
            raise ValueError(f"a notice of {len(payload)} characters is over {MAX_PAYLOAD}")
        conn = self._conn
        if self._closed or conn is None or conn.is_closed():
            raise StoreBusy("The notices' connection is closed, or being made again.")
        async with self._calls:
            await self._guarded(
                conn.execute("SELECT pg_notify($1, $2)", channel, payload, timeout=NOTICE_SECONDS)
            )

    async def close(self) -> None:
        """Stop listening and sending (a call under way is given CLOSE_SECONDS to end)."""
        self._closed = True
        if self._mending is not None:
            self._mending.cancel()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(CLOSE_SECONDS), self._calls:
                pass
        conn, self._conn = self._conn, None
        if conn is not None and not conn.is_closed():
            try:
                await asyncio.wait_for(conn.close(), CLOSE_SECONDS)
            except Exception:
                conn.terminate()

    # ------------------------------------------------------------------ inside

    def _deliver(self, conn: object, pid: int, channel: str, payload: str) -> None:
        heard = self._heard.get(channel)
        if heard is None:
            return
        try:
            heard(payload)
        except Exception:
            log.exception("a notice on %s could not be handled", channel)

    async def _guarded(self, call: object) -> None:
        try:
            await call  # type: ignore[misc]
        except _OUT_OF_REACH as exc:
            if self._conn is not None:
                self._conn.terminate()
            self._lost()
            raise StoreBusy(f"The notices' connection was lost ({exc!r}).") from exc

    async def _connection(self) -> asyncpg.Connection:
        try:
            conn = await asyncpg.connect(
                self._url, timeout=NOTICE_SECONDS, server_settings=self._settings
            )
        except _OUT_OF_REACH as exc:
            raise StoreBusy(f"The database cannot be reached for notices ({exc!r}).") from exc
        conn.add_termination_listener(lambda _: self._lost())
        return conn

    def _lost(self) -> None:
        """The connection ended: made again in the background, then listened on again."""
        if self._closed or (self._mending is not None and not self._mending.done()):
            return
        self._mending = asyncio.get_running_loop().create_task(self._mend())

    async def _mend(self) -> None:
        wait = 0.25
        while not self._closed:
            with contextlib.suppress(StoreBusy):
                conn = await self._connection()
                try:
                    for channel in list(self._heard):
                        await conn.add_listener(channel, self._deliver)
                except _OUT_OF_REACH:
                    conn.terminate()
                else:
                    self._conn = conn
                    log.info("the notices' connection was made again")
                    self.reconnected()
                    return
            await asyncio.sleep(wait)
            wait = min(wait * 2, RECONNECT_MAX_SECONDS)
