"""Recovered games seen to once their shard is ready: their channels told the bot is back.

At start-up the game core brings back every open game of this process's shards (its
`recovered`); the client's setup hands them here (`expect`). When a shard's servers and
channels are in (`shard_ready`), its games whose channel was deleted while the bot was
away end (bot.discord.channel_events), and each other channel is told the bot is back,
with the time left, on a fresh board. What the bot left half done when it stopped is
finished then: a lobby saved without its message is posted (bot.discord.unseen), and the
lobby message of a game that moved to its thread becomes the line pointing to the thread.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import discord

from bot.discord.access import UNKNOWN_CHANNEL
from bot.discord.unseen import show_unseen
from bot.i18n.catalogs import t
from bot.store.records import home, shard_of
from bot.views.render import duration

if TYPE_CHECKING:
    from bot.discord.channel_events import ChannelEvents
    from bot.discord.outbox import Outbox
    from bot.game.service import GameService
    from bot.table import Table

log = logging.getLogger(__name__)


class Returning:
    """The recovered games whose channels are yet to hear from the bot, shard by shard."""

    def __init__(
        self,
        client: discord.Client,
        outbox: Outbox,
        service: GameService,
        channels: ChannelEvents,
    ) -> None:
        self.client = client
        self.outbox = outbox
        self.service = service
        self.channels = channels
        #: Games resumed whose channel is yet to be told the bot is back, and lobbies saved
        #: without their message, yet to be posted (once their shard's servers are in, so
        #: that the bot knows their channels).
        self._waiting: list[Table] = []

    def expect(self, tables: Iterable[Table]) -> None:
        """Games brought back: those in play, and lobbies saved without their message (posted
        then, or closed), wait for their shard; the others need no word."""
        tables = list(tables)
        unseen = [g for g in tables if g.status == "lobby" and g.messages.board_id is None]
        self._waiting += [g for g in tables if g.status == "active"] + unseen

    async def shard_ready(self, shard_id: int, shard_count: int) -> None:
        """A shard's servers and channels are in: its games whose channel is gone end (as
        abandoned), the channels of the others are told the bot is back.

        What the bot left half done when it stopped is finished: a lobby saved without its
        message is posted (or closed unseen, if the bot may not post in its channel), and
        the lobby message of a game that moved to its thread becomes the line pointing to
        the thread (it may still show the lobby's buttons)."""
        tables = self.service.tables.values()
        ours = [
            g for g in tables if shard_of(home(g.guild_id, g.channel_id), shard_count) == shard_id
        ]
        for table in ours:
            if await self._channel_is_gone(table):
                await self.channels.deleted(table.channel_id)
        waiting = self._waiting
        self._waiting = [
            g for g in waiting if shard_of(home(g.guild_id, g.channel_id), shard_count) != shard_id
        ]
        for table in waiting:
            if (
                not table.open
                or shard_of(home(table.guild_id, table.channel_id), shard_count) != shard_id
            ):
                continue
            if table.status == "lobby":
                await self._show_unseen(table)
                continue
            if table.parent_id is not None:
                self.outbox.moved(table, lobby_shown=False)
            self.outbox.fresh_board(table, self._back_notice(table))

    async def _show_unseen(self, table: Table) -> None:
        """A lobby saved without its message (the bot stopped in between): posted or closed."""
        try:
            await show_unseen(self.client, self.outbox, self.service, table)
        except Exception:
            log.exception("game %d: its lobby, saved without its message, was left as is", table.id)

    def _back_notice(self, table: Table) -> Callable[[], str]:
        def notice() -> str:  # worded when sent: the time left then
            left = table.time_left(self.service.now()) or 0
            return t(table.language, "notice.back", left=duration(left))

        return notice

    async def _channel_is_gone(self, table: Table) -> bool:
        """Whether a game's channel was deleted: not among the channels the gateway sent for
        its server, and Discord says so (a thread the gateway did not send, archived say,
        is still there)."""
        guild = self.client.get_guild(table.guild_id)
        if guild is None or guild.unavailable:
            return False  # an outage: its channels are unknown, not gone
        if guild.get_channel_or_thread(table.channel_id) is not None:
            return False
        try:
            await self.client.fetch_channel(table.channel_id)
        except discord.NotFound as exc:
            return exc.code == UNKNOWN_CHANNEL
        except discord.HTTPException:
            return False
        return False
