"""Turn pings: whom a turn pings, when, and taking a ping down.

A player whose turn comes is pinged only when they did nothing in the game for
`IDLE_BEFORE_PING` seconds, and at most once every `PING_EVERY` seconds (game seconds: a
demo's time scale shortens both), and only where the server wants turn pings; otherwise
their panel, redrawn for their turn, says it at its top. A ping is taken down once they
interact or the turn moves on.
"""

from __future__ import annotations

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

#: Game seconds a player must have done nothing in the game before their turn pings them.
IDLE_BEFORE_PING = 30.0
#: Game seconds at least between two pings of one player.
PING_EVERY = 60.0


@dataclass(slots=True)
class Ping:
    """The game's standing turn ping: whom it pinged, its message, and whether they
    interacted since (then it comes down)."""

    player: int
    message: Owned
    heard: bool = False


class Pings:
    """Every game's standing turn ping, and when its players last played or were pinged."""

    def __init__(
        self,
        channel: GameChannel,
        store: Store,
        *,
        clock: Callable[[], float],
        park: Callable[[Table, tuple, Job], None],
    ) -> None:
        """`park(table, key, job)` keeps a job until the channel lets the bot in."""
        self.channel, self.store, self.clock, self.park = channel, store, clock, park
        #: game id -> the player whose turn just came (None: nobody's, the game is over).
        self._due: dict[int, int | None] = {}
        self._pings: dict[int, Ping] = {}
        #: guild id -> whether the server wants turn pings.
        self._on: dict[int, bool] = {}
        #: game id -> player -> when (the outbox's clock) they last interacted in the game,
        #: and when they were last pinged.
        self._seen: dict[int, dict[int, float]] = {}
        self._pinged: dict[int, dict[int, float]] = {}

    def forget(self, game_id: int) -> None:
        for records in (self._due, self._pings, self._seen, self._pinged):
            records.pop(game_id, None)

    def set(self, guild_id: int, on: bool) -> None:
        self._on[guild_id] = on

    def due(self, table: Table, player: int | None) -> None:
        """It is `player`'s turn (None: nobody's): `ping` decides."""
        self._due[table.id] = player

    def seen(self, table: Table, player: int) -> bool:
        """`player` interacted in the game; whether the standing ping is theirs (then
        `ping` takes it down)."""
        self._seen.setdefault(table.id, {})[player] = self.clock()
        ping = self._pings.get(table.id)
        if ping is None or ping.player != player:
            return False
        ping.heard = True
        return True

    async def ping(self, table: Table) -> None:
        """Ping the player whose turn just came, if they are away; take the standing ping
        down once its player interacted or their turn is over."""
        player = self._due.pop(table.id, None)
        game = table.game
        active = game.active_player if game is not None and table.open else None
        old = self._pings.get(table.id)
        if player is not None and player == active and await self._away(table, player):
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
            self._pinged.setdefault(table.id, {})[player] = self.clock()
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

    async def _away(self, table: Table, player: int) -> bool:
        """Whether `player`'s turn pings them: they did nothing in the game lately, were not
        pinged lately, and the server wants turn pings."""
        now, scale = self.clock(), table.runtime.time_scale
        seen = self._seen.get(table.id, {}).get(player, float("-inf"))
        pinged = self._pinged.get(table.id, {}).get(player, float("-inf"))
        if now - seen < IDLE_BEFORE_PING / scale or now - pinged < PING_EVERY / scale:
            return False
        return await self._wanted(table.guild_id)

    async def _wanted(self, guild_id: int) -> bool:
        on = self._on.get(guild_id)
        if on is None:
            on = (await self.store.get_guild_settings(guild_id)).turn_pings
            self._on[guild_id] = on
        return on
