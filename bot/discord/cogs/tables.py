"""/apophis table and the Table button: the channel's live table (bot.web), opened from Discord.

With Activities enabled (APOPHIS_ACTIVITY=on) Discord launches it in the channel as an
Activity (the LAUNCH_ACTIVITY response); else it is a link to open in a browser (in a
server's channel the bot is in: elsewhere a browser could only be refused), or a word on
why there is none. It is the channel's table, a game in play or not: without one it
shows that, and a lobby can be opened from it later.

`LiveTable` is a base of the /apophis group's cog (bot.discord.cogs.apophis). The Table
button is on the lobby and the board of every table followed where the live table can be
opened (`Table.web`, set as the service follows each: bot.game.tables); the Play cog, which
routes every click by its custom id, passes its clicks to `LiveTable.table_button`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.discord import embeds, inputs
from bot.discord.answers import speaks, with_the_bot
from bot.discord.clicked import clicked_message
from bot.discord.cogs import Part
from bot.discord.entry import launch
from bot.i18n.catalogs import t
from bot.views import components

if TYPE_CHECKING:
    from bot.discord.client import ApophisBot
    from bot.game.clicks import Click

log = logging.getLogger(__name__)


class LiveTable(Part):
    """The /apophis command and the button that open the channel's live table."""

    bot: ApophisBot  # the cog's (bot.discord.cogs.apophis)

    @app_commands.command(description="Open this channel's live table, in Discord or a browser.")
    async def table(self, interaction: discord.Interaction[ApophisBot]) -> None:
        await self.open_live_table(interaction)

    async def table_button(
        self, interaction: discord.Interaction[ApophisBot], click: Click
    ) -> None:
        """Table, pressed on a lobby or a board (a final one too, its game ended)."""
        table = self.bot.service.tables.get(click.game)
        board = table.messages.board_id if table is not None else None
        problem = inputs.source_problem(
            click, clicked_message(interaction), interaction.user.id, board
        )
        if problem is not None:  # a forged click: only from a lobby or board of that game
            raise problem
        await self.open_live_table(interaction)

    async def open_live_table(self, interaction: discord.Interaction[ApophisBot]) -> None:
        """The live table of the channel: launched as an Activity, or its link, privately;
        or why there is none."""
        config, language = self.bot.config, speaks(interaction)
        if config.activity:
            try:
                await launch(interaction)
                return
            except discord.HTTPException as exc:  # Activities not enabled for the application?
                log.warning(
                    "Discord refused to launch the Activity (%s %s): is it enabled in the "
                    "developer portal? Answered with the table's link instead",
                    exc.status,
                    exc.code,
                )
        if config.web and not with_the_bot(interaction):
            # a browser cannot be told who is in a DM or a group DM, nor see a channel of
            # a server without the bot: the link would only be refused there
            await interaction.response.send_message(
                t(language, "table.browser_elsewhere"), ephemeral=True
            )
            return
        if config.web:
            url = f"{config.public_url}/?channel={interaction.channel_id}"
            message = components.table_link(url, language)
            await interaction.response.send_message(**embeds.kwargs(message), ephemeral=True)
            return
        said = [t(language, "table.off")]
        if interaction.permissions.manage_guild:  # who may ask whoever runs the bot
            said.append(t(language, "table.off.setup"))
        await interaction.response.send_message("\n".join(said), ephemeral=True)
