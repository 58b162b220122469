"""/apophis profile and /apophis leaderboard, mixed into the /apophis cog: a person's record
where it is asked (a server's games; in a DM or group DM, one's own games in DMs, or someone
else's in that conversation), and a server's leaderboard."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.discord import embeds
from bot.discord.answers import caller_of, server_records, speaks
from bot.discord.cogs import Part
from bot.game.ledger import covers
from bot.views import records

if TYPE_CHECKING:
    from bot.discord.client import ApophisBot


class Records(Part):
    """The records commands. `Apophis` has this class among its bases, and discord.py's
    CogMeta collects app commands from every class of a cog's MRO: they join /apophis."""

    bot: ApophisBot  # the cog's

    @app_commands.command(
        description="A player's games here (in DMs, yours): wins, fastest win, launches."
    )
    @app_commands.describe(player="Whose games (yours if left out)")
    async def profile(
        self, interaction: discord.Interaction[ApophisBot], player: discord.User | None = None
    ) -> None:
        caller = caller_of(interaction)
        who = (player or interaction.user).id
        covered = covers(caller, who)
        profile = await self.bot.service.ledger.profile(caller, who)
        if not profile.tallies:
            raise records.nothing_counted(who, covered, yours=who == caller.user_id)
        embed = embeds.embed(records.profile_embed(profile, covered, speaks(interaction)))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(description="This server's fastest teams and best win records.")
    @server_records
    async def leaderboard(self, interaction: discord.Interaction[ApophisBot]) -> None:
        assert interaction.guild_id is not None  # a server's (`server_records`)
        board = await self.bot.service.ledger.leaderboard(interaction.guild_id)
        embed = embeds.embed(records.leaderboard_embed(board, speaks(interaction)))
        await interaction.response.send_message(embed=embed, ephemeral=True)
