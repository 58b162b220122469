"""A lobby posted through its channel's route, where no interaction can carry its message.

Play again pressed in a game's thread opens its lobby in the channel the thread came from
(bot.discord.cogs.lobbies); at start-up, a lobby saved without its message (the bot
stopped in between) is posted (`show_unseen`, from bot.discord.returning). A lobby exists
only with its message: one Discord refuses, or one in a channel the bot may not post in,
is closed unseen.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.discord import embeds
from bot.discord.access import named
from bot.game.actions import held
from bot.views import components

if TYPE_CHECKING:
    from bot.discord.outbox import Outbox
    from bot.game.service import GameService
    from bot.table import Table

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()


async def post_unseen(
    client: discord.Client, service: GameService, table: Table
) -> discord.HTTPException | None:
    """Post lobby `table` in its channel through the channel route: its message, the
    lobby's board from now on. None once posted; else Discord's error, and the lobby is
    closed unseen."""
    channel = client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
    try:
        message = await channel.send(
            **embeds.kwargs(components.lobby_message(table)), allowed_mentions=NO_MENTIONS
        )
    except discord.HTTPException as exc:
        log.warning(
            "game %d: its lobby could not be posted in channel %d (%s): closed unseen",
            table.id,
            table.channel_id,
            exc,
        )
        await close_unseen(service, table)
        return exc
    await service.board_posted(table, message.id)
    return None


async def show_unseen(
    client: discord.Client, outbox: Outbox, service: GameService, table: Table
) -> None:
    """Start-up: a lobby saved without its message is posted now, or closed unseen if the
    bot may not post in its channel."""
    missing = outbox.access.lacking_in(table.guild_id, table.channel_id)
    if missing:
        log.warning(
            "game %d: its lobby was saved without its message, and channel %d refuses "
            "the bot %s: closed unseen",
            table.id,
            table.channel_id,
            named(missing, "en").replace("**", ""),
        )
        await close_unseen(service, table)
        return
    if await post_unseen(client, service, table) is None:
        log.info("game %d: its lobby, saved without its message, posted", table.id)


async def close_unseen(service: GameService, table: Table) -> None:
    """A lobby whose message could not be posted is closed before anyone saw it (as
    abandoned; nothing is shown of it), and its channel is free."""
    async with held(table):
        if table.status == "lobby":
            await service.lobbies.cancel(table)
