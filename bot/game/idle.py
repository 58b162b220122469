"""Lobbies nobody touches close themselves: one sweep a minute, through the lobbies' own path.

A lobby that no one has joined, left, changed or started for LOBBY_IDLE_SECONDS (seats,
crewmates; a Play again lobby included) is closed as a host's End would close it (recorded
as abandoned, its message showing it closed, the channel free), and the channel is told
why in one line. Time is counted from the lobby's last change as stored, so a restart
does not start it again; game time runs APOPHIS_TIME_SCALE times faster, as for the clocks.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bot.game import changes
from bot.game.clocks import Clocks
from bot.game.lobbies import Lobbies
from bot.game.tables import Tables
from bot.i18n.catalogs import t
from bot.table import Table

log = logging.getLogger(__name__)

#: How long a lobby may wait untouched before it closes itself, and how often lobbies are
#: looked at (both in game seconds).
LOBBY_IDLE_SECONDS = 30 * 60
SWEEP_SECONDS = 60.0


class IdleLobbies:
    """Closes the lobbies nobody touches (see the module docstring)."""

    def __init__(
        self,
        tables: Tables,
        lobbies: Lobbies,
        clocks: Clocks,
        stream: changes.Stream,
        *,
        now: Callable[[], float],
        time_scale: float,
    ) -> None:
        self.tables = tables
        self.lobbies = lobbies
        self.clocks = clocks
        self.stream = stream
        self.now = now
        self.time_scale = time_scale
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task] = set()

    def start(self) -> None:
        """Sweep every SWEEP_SECONDS from now on."""
        delay = SWEEP_SECONDS / self.time_scale
        self._timer = self.clocks.timer.call_later(delay, self._due)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for task in self._tasks:
            task.cancel()

    def _due(self) -> None:
        task = asyncio.get_running_loop().create_task(self.sweep())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        self.start()

    def idle(self, table: Table) -> bool:
        """Whether a lobby has waited untouched long enough to close itself."""
        waited = (self.now() - table.touched) * self.time_scale
        return table.status == "lobby" and waited >= LOBBY_IDLE_SECONDS

    async def sweep(self) -> list[Table]:
        """Close every lobby idle long enough; those closed."""
        closed = []
        for table in [table for table in self.tables.by_id.values() if self.idle(table)]:
            await self.clocks.until_saved(self._close, table, "timer.lobby_idle")
            if not table.open:
                closed.append(table)
        return closed

    async def _close(self, table: Table) -> None:
        async with table.runtime.lock:
            if not self.idle(table):  # someone came meanwhile
                return
            await self.lobbies.cancel(table)
        minutes = LOBBY_IDLE_SECONDS // 60
        line = t(table.language, "lobby.idle_closed", id=table.id, count=minutes)
        self.stream.publish(changes.Posted(table, line))
        self.stream.publish(changes.Settled(table))
        log.info("lobby %s in channel %s closed itself: untouched", table.id, table.channel_id)
