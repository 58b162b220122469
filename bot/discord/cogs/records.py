"""/apophis profile and /apophis leaderboard: this server's records, mixed into the /apophis cog."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.discord.answers import needs_a_server, needs_the_bot, speaks
from bot.errors import UserError
from bot.views import records
from bot.views.render import mention

if TYPE_CHECKING:
    from bot.game.service import GameService


class Records:
    """The records commands. `Apophis` has this class among its bases, and discord.py's
    CogMeta collects app commands from every class of a cog's MRO: they join /apophis."""

    service: GameService  # the cog's

    @app_commands.command(
        description="A player's games on this server: wins, fastest win, launches."
    )
    @app_commands.describe(player="Whose games (yours if left out)")
    @needs_a_server
    async def profile(
        self, interaction: discord.Interaction, player: discord.User | None = None
    ) -> None:
        who = player or interaction.user
        profile = await self.service.ledger.profile(interaction.guild_id, who.id)
        if not profile.tallies:
            yours = who.id == interaction.user.id
            key = "profile.none_yours" if yours else "profile.none"
            raise UserError(key, player=mention(who.id))
        embed = records.profile_embed(profile, speaks(interaction))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(description="This server's fastest teams and best win records.")
    @needs_the_bot
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        board = await self.service.ledger.leaderboard(interaction.guild_id)
        embed = records.leaderboard_embed(board, speaks(interaction))
        await interaction.response.send_message(embed=embed, ephemeral=True)
