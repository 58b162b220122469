"""Lobbies posted in a channel: a new one (/apophis new), or one like the last game (Play again).

`Lobbies` is a base of the /apophis group's cog (bot.discord.cogs.apophis). Play again is
a button of a game's final board; the Play cog, which routes every click by its custom
id, passes it to `Lobbies.play_again`.

A lobby exists only with its message. One that an interaction's answer carries is closed
if that answer fails; one posted in another channel (Play again pressed in a game's
thread opens its lobby in the channel the thread came from) is refused, with the reason
and before anything is saved, when the bot may not post there, and closed unseen if
Discord refuses its message all the same. At start-up, a lobby saved without its message
(the bot stopped in between) is posted, or closed unseen if the bot may not post there
(bot.discord.unseen).
"""

from __future__ import annotations

import logging
from functools import partial
from typing import TYPE_CHECKING

import discord

from bot.discord import embeds, inputs
from bot.discord.access import in_thread, named, needed
from bot.discord.answers import caller_of, speaks
from bot.discord.clicked import clicked_message
from bot.discord.cogs import Part
from bot.discord.unseen import close_unseen, post_unseen
from bot.errors import UserError
from bot.game import newcomers
from bot.game.commands import PlayAgain
from bot.i18n.catalogs import t
from bot.store.records import GameNotFound
from bot.views import components, first_games

if TYPE_CHECKING:
    from bot.discord.client import ApophisBot
    from bot.game.clicks import Click
    from bot.table import Table

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()


class Lobbies(Part):
    """Posting lobbies: a new one, or one like the channel's last game."""

    bot: ApophisBot  # the cog's (bot.discord.cogs.apophis)

    async def post_lobby(self, interaction: discord.Interaction, table: Table) -> None:
        """Answer `interaction` with the lobby `table` just opened: its message in the
        channel, the lobby's board from now on (the lobby closes if the answer fails)."""
        try:
            response = await interaction.response.send_message(
                **embeds.kwargs(components.lobby_message(table)), allowed_mentions=NO_MENTIONS
            )
        except discord.HTTPException:
            await close_unseen(self.bot.service, table)
            raise
        message_id = getattr(response.resource, "id", None)
        if message_id is not None:
            answered = partial(
                self.bot.outbox.answered,
                table,
                interaction,
                board=(message_id, components.drawn_version(table)),
            )
            await self.bot.service.board_posted(table, message_id, then=answered)

    async def welcome(self, interaction: discord.Interaction, table: Table) -> None:
        """After the answer to a newcomer taking a lobby's seat (opening it, or joining): the
        picture of a rocket that can launch, privately and once (bot.game.newcomers)."""
        if newcomers.to_welcome(table, interaction.user.id):
            shown = first_games.welcome(table, speaks(interaction))
            await interaction.followup.send(**embeds.kwargs(shown, new=True), ephemeral=True)

    async def play_again(self, interaction: discord.Interaction[ApophisBot], click: Click) -> None:
        """Play again, pressed on an ended game's final board: a lobby with its rules,
        countdown and seats, whoever pressed it hosting from their seat, its crewmates
        seated and its other players invited back (each joins with the lobby's Join).
        Refused privately, and nothing done, unless it is the channel's latest game, its
        channel is free, the bot may post there and the clicker played it."""
        user = interaction.user
        problem = inputs.source_problem(click, clicked_message(interaction), user.id, None)
        if problem is not None:  # a forged click: only from a board of that game
            raise problem
        await self.check_home(interaction, click.game)
        outcome = await self.bot.service.run(caller_of(interaction), PlayAgain(click.game))
        table = outcome.table
        log.info("game %s played again as game %s by %s", click.game, table.id, user.id)
        if table.channel_id == interaction.channel_id:
            await self.post_lobby(interaction, table)
            return
        # Pressed in the game's thread: the lobby opens in the channel the game came from,
        # posted there before the presser is told so.
        language = speaks(interaction)
        channel = f"<#{table.channel_id}>"
        failed = await post_unseen(self.bot, self.bot.service, table)
        if isinstance(failed, discord.Forbidden):
            missing = named(needed(False), language)
            raise UserError("again.not_posted", channel=channel, missing=missing)
        if failed is not None:
            raise failed
        await interaction.response.send_message(
            t(language, "again.elsewhere", channel=channel), ephemeral=True
        )

    async def check_home(self, interaction: discord.Interaction[ApophisBot], game_id: int) -> None:
        """Play again pressed in a game's thread opens the lobby in the channel the thread
        came from: refused before anything is saved if the bot may not post there, as
        the gateway tells (UserError naming what it lacks)."""
        if not in_thread(interaction.channel):
            return
        try:
            ended = await self.bot.service.store.get_game(game_id)
        except GameNotFound:
            return  # the command says why
        home = ended.parent_channel_id
        if home is None or home == interaction.channel_id:
            return
        missing = self.bot.outbox.access.lacking_in(interaction.guild_id or 0, home)
        if missing:
            language = speaks(interaction)
            raise UserError("again.refused", channel=f"<#{home}>", missing=named(missing, language))
