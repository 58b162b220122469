"""Turn pings: whom a turn pings, when, and taking a ping down.

A player is pinged only once their own turn has waited `WAIT_BEFORE_PING` game seconds
(a demo's time scale shortens it) with no move nor click of theirs in the game, never
as the turn passes to them, at most once a turn, and only where the server wants turn
pings; otherwise their panel, redrawn for their turn, says it at its top. A ping is
taken down once they interact or the turn moves on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.discord.access import ChannelUnusable, Refused
from bot.discord.tokens import Owned
from bot.i18n.catalogs import t
from bot.views import render
from bot.views.message import Message

if TYPE_CHECKING:
    from bot.discord.channel import GameChannel
    from bot.discord.jobs import Job
    from bot.store.store import Store
    from bot.table import Table

#: Game seconds a player's own turn waits, with nothing from them, before it pings them.
WAIT_BEFORE_PING = 20.0


@dataclass(slots=True)
class Ping:
    """The game's standing turn ping: whom it pinged, its message, and whether they
    interacted since (then it comes down)."""

    player: int
    message: Owned
    heard: bool = False


class Pings:
    """Every game's standing turn ping, and the wait of the turn that may ping next."""

    def __init__(
        self,
        channel: GameChannel,
        store: Store,
        *,
        later: Callable[[float, Callable[[], object]], asyncio.TimerHandle],
        ring: Callable[[Table], None],
        park: Callable[[Table, tuple, Job], None],
    ) -> None:
        """`later(delay, callback)` sets a timer on the game's time; `ring(table)` queues
        `ping(table)` at once (no interaction answers for it); `park(table, key, job)` keeps
        a job until the channel lets the bot in."""
        self.channel, self.store, self.later, self.ring, self.park = (
            channel,
            store,
            later,
            ring,
            park,
        )
        #: game id -> the player whose turn waits, and the timer that pings them.
        self._waits: dict[int, tuple[int, asyncio.TimerHandle]] = {}
        #: game id -> the player whose turn waited long enough (`ping` pings them).
        self._due: dict[int, int] = {}
        self._pings: dict[int, Ping] = {}
        #: guild id -> whether the server wants turn pings.
        self._on: dict[int, bool] = {}

    def forget(self, game_id: int) -> None:
        self._stop(game_id)
        for records in (self._due, self._pings):
            records.pop(game_id, None)

    def stop(self) -> None:
        """Shutdown: no turn pings any more."""
        for game_id in list(self._waits):
            self._stop(game_id)

    def set(self, guild_id: int, on: bool) -> None:
        self._on[guild_id] = on

    def due(self, table: Table, player: int | None) -> None:
        """It is `player`'s turn (None: nobody's, or a crewmate's): their wait begins."""
        self._stop(table.id)
        self._due.pop(table.id, None)
        if player is not None:
            self._wait(table, player)

    def seen(self, table: Table, player: int) -> bool:
        """`player` interacted in the game (their turn's wait begins again); whether the
        standing ping is theirs (then `ping` takes it down)."""
        waiting = self._waits.get(table.id)
        if waiting is not None and waiting[0] == player:
            self._wait(table, player)
        ping = self._pings.get(table.id)
        if ping is None or ping.player != player:
            return False
        ping.heard = True
        return True

    def _wait(self, table: Table, player: int) -> None:
        self._stop(table.id)
        delay = WAIT_BEFORE_PING / table.runtime.time_scale
        self._waits[table.id] = (player, self.later(delay, lambda: self._waited(table)))

    def _waited(self, table: Table) -> None:
        """The turn waited long enough: its player is pinged, once for this turn."""
        player, _ = self._waits.pop(table.id)
        self._due[table.id] = player
        self.ring(table)

    def _stop(self, game_id: int) -> None:
        waiting = self._waits.pop(game_id, None)
        if waiting is not None:
            waiting[1].cancel()

    async def ping(self, table: Table) -> None:
        """Ping the player whose turn waited long enough, if it is still theirs; take the
        standing ping down once its player interacted or their turn is over."""
        player = self._due.pop(table.id, None)
        game = table.game
        active = game.active_player if game is not None and table.open else None
        old = self._pings.get(table.id)
        if player is not None and player == active and await self._wanted(table.guild_id):
            ping = Message(
                content=t(table.language, "notice.ping", player=render.mention(player)),
                mentions={"users": [str(player)]},
            )
            try:
                sent = await self.channel.follow_up(table, ping.json())
            except ChannelUnusable:
                self._due.setdefault(table.id, player)  # still due, unless overtaken
                raise
            if not isinstance(sent, Owned):
                sent = Owned(sent, None)
            self._pings[table.id] = Ping(player, sent)
        elif old is None or (old.player == active and not old.heard):
            return  # it still stands
        else:
            del self._pings[table.id]
        if old is not None:
            gone = old.message
            try:
                await self.channel.delete(table, gone)
            except Refused:  # taken down once the channel lets the bot in
                unping = ("unping", gone.message_id)
                self.park(table, unping, lambda: self.channel.delete(table, gone))

    async def _wanted(self, guild_id: int) -> bool:
        on = self._on.get(guild_id)
        if on is None:
            on = (await self.store.get_guild_settings(guild_id)).turn_pings
            self._on[guild_id] = on
        return on
