"""What Discord tells of games' channels: one deleted ends its game, new permissions reopen it.

A channel deleted (told by the gateway, found by the outbox's Unknown Channel, or found
gone at start-up: bot.discord.returning) gets nothing more sent, and its lobby or game
ends, with those of its threads. A change of a server's channels or roles, or of the
bot's own roles, lets the outbox post again where a channel refused it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from bot.discord.outbox import Outbox
    from bot.game.service import GameService

log = logging.getLogger(__name__)


class ChannelEvents:
    """Channels deleted and permissions changed, for the outbox and the game service."""

    def __init__(self, client: discord.Client, outbox: Outbox, service: GameService) -> None:
        self.client = client
        self.outbox = outbox
        self.service = service
        self._tasks: set[asyncio.Task[None]] = set()

    async def deleted(self, channel_id: int) -> None:
        """A channel was deleted: nothing more is sent there, and its lobby or game ends."""
        if channel_id not in self.service.by_channel:
            return  # no game there (what an ended one still sends gets Unknown Channel)
        self.outbox.channel_gone(channel_id)
        table = await self.service.channel_gone(channel_id)
        if table is not None:
            log.info("game %d ended: its channel %d was deleted", table.id, channel_id)

    async def deleted_with_threads(self, channel_id: int) -> None:
        """A server's channel was deleted: its threads went with it."""
        await self.deleted(channel_id)
        tables = self.service.tables.values()
        threads = [g.channel_id for g in tables if g.parent_id == channel_id]
        for thread in threads:
            await self.deleted(thread)

    def found_gone(self, channel_id: int) -> None:
        """The outbox met Unknown Channel: the channel's game ends, in a task of its own."""
        self._spawn(self.deleted(channel_id))

    def permissions_changed(self, guild_id: int) -> None:
        """A server's channels or roles changed (the outbox retries where it was refused)."""
        self.outbox.permissions_changed(guild_id)

    def member_changed(self, member: discord.Member) -> None:
        """A member's roles changed: if the member is the bot, its permissions did too."""
        if self.client.user is not None and member.id == self.client.user.id:
            self.outbox.permissions_changed(member.guild.id)

    def stop(self) -> None:
        """Shutdown: the endings still under way (`found_gone`) are cancelled."""
        for task in self._tasks:
            task.cancel()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
