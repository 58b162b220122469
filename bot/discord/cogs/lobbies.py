"""Lobbies posted in a channel: a new one (/apophis new), or one like the last game (Play again).

`Lobbies` is a base of the /apophis group's cog (bot.discord.cogs.apophis). Play again is
a button of a game's final board; the Play cog, which routes every click by its custom
id, passes it to `Lobbies.play_again`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.discord import inputs
from bot.discord.answers import caller_of, speaks
from bot.game.commands import PlayAgain
from bot.i18n.catalogs import t
from bot.views import components

if TYPE_CHECKING:
    from bot.discord.client import ApophisBot
    from bot.game.clicks import Click
    from bot.table import Table

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()


class Lobbies:
    """Posting lobbies: a new one, or one like the channel's last game."""

    bot: ApophisBot  # the cog's (bot.discord.cogs.apophis)

    async def post_lobby(self, interaction: discord.Interaction, table: Table) -> None:
        """Answer `interaction` with the lobby `table` just opened: its message in the
        channel, the lobby's board from now on."""
        response = await interaction.response.send_message(
            **components.lobby_message(table).kwargs(), allowed_mentions=NO_MENTIONS
        )
        message_id = getattr(response.resource, "id", None)
        if message_id is not None:
            await self.bot.service.board_posted(table, message_id)
            self.bot.outbox.answered(
                table, interaction, board_version=components.drawn_version(table)
            )

    async def play_again(self, interaction: discord.Interaction, click: Click) -> None:
        """Play again, pressed on an ended game's final board: a lobby with its rules,
        countdown and seats, whoever pressed it hosting from their seat, its crewmates
        seated and its other players invited back (each joins with the lobby's Join).
        Refused privately, and nothing done, unless it is the channel's latest game, its
        channel is free and the clicker played it."""
        user = interaction.user
        problem = inputs.source_problem(click, interaction.message, user.id, None)
        if problem is not None:  # a forged click: only from a board of that game
            raise problem
        outcome = await self.bot.service.run(caller_of(interaction), PlayAgain(click.game))
        table = outcome.table
        log.info("game %s played again as game %s by %s", click.game, table.id, user.id)
        if table.channel_id == interaction.channel_id:
            await self.post_lobby(interaction, table)
            return
        # Pressed in the game's thread: the lobby opens in the channel the game came from.
        language = speaks(interaction)
        await interaction.response.send_message(
            t(language, "again.elsewhere", channel=f"<#{table.channel_id}>"), ephemeral=True
        )
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        message = await channel.send(
            **components.lobby_message(table).kwargs(), allowed_mentions=NO_MENTIONS
        )
        await self.bot.service.board_posted(table, message.id)
