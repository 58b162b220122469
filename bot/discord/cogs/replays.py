"""/apophis history and /apophis replay: a server's last games, and any of them played again.

`Replays` is a base of the /apophis group's cog (bot.discord.cogs.apophis): discord.py
gathers a cog's commands from all its bases. The replay's ◀ ▶ buttons come through the
Play cog, which routes every click by its custom id, to `Replays.replay_step`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.discord import inputs
from bot.discord.answers import speaks
from bot.errors import UserError
from bot.pictures import replay as animation
from bot.views import history

if TYPE_CHECKING:
    from bot.game.clicks import Click
    from bot.game.service import GameService

log = logging.getLogger(__name__)

#: The largest game number Discord lets a client type (its integers are 53-bit).
LARGEST_NUMBER = 2**53 - 1
NO_MENTIONS = discord.AllowedMentions.none()
#: Replays kept once drawn, by game and language: asked again, one is sent at once.
KEPT_REPLAYS = 8


@dataclass
class _Desk:
    """Where replays are drawn: one at a time for each server, the latest few kept."""

    drawing: set[int] = field(default_factory=set)
    kept: OrderedDict[tuple[int, str], bytes] = field(default_factory=OrderedDict)

    def keep(self, key: tuple[int, str], gif: bytes) -> None:
        self.kept[key] = gif
        while len(self.kept) > KEPT_REPLAYS:
            self.kept.popitem(last=False)


class Replays:
    """The /apophis commands about ended games, and the replay's buttons."""

    service: GameService  # the cog's (bot.discord.cogs.apophis)

    @property
    def desk(self) -> _Desk:
        """This cog's replays being drawn and kept (made when first needed)."""
        return self.__dict__.setdefault("_replay_desk", _Desk())

    @app_commands.command(description="This server's last 10 games, with their numbers.")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction) -> None:
        records = await self.service.ledger.recent_games(interaction.guild_id, history.GAMES)
        embed = history.history_embed(records, speaks(interaction))
        await interaction.response.send_message(embed=embed, allowed_mentions=NO_MENTIONS)

    @app_commands.command(description="Watch an ended game again, move by move.")
    @app_commands.describe(game="The game's number, as /apophis history lists it")
    @app_commands.guild_only()
    async def replay(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1, LARGEST_NUMBER]
    ) -> None:
        desk, guild = self.desk, interaction.guild_id
        played = await self.replayed(interaction, game)
        if guild in desk.drawing:
            raise UserError("replay.error.busy")
        await interaction.response.defer(thinking=True)
        key = (game, played.table.language)
        gif = desk.kept.get(key)
        if gif is None:
            desk.drawing.add(guild)
            try:
                gif = await self.draw(played)
            finally:
                desk.drawing.discard(guild)
            desk.keep(key, gif)
        message = history.animation_message(played, gif)
        await interaction.followup.send(**message.kwargs(new=True), allowed_mentions=NO_MENTIONS)

    async def draw(self, played: history.Replay) -> bytes:
        """The replay's GIF: frames drawn between the games' other work, written aside."""
        started = time.perf_counter()
        frames = []
        for frame in history.frames(played):
            frames.append(frame)
            await asyncio.sleep(0)  # a frame at a time: the games in play go on meanwhile
        gif = await asyncio.to_thread(animation.animate, frames)  # touches no shared cache
        log.info(
            "game %s replayed: %d moves, %d bytes in %.2f s",
            played.record.id,
            played.steps,
            len(gif),
            time.perf_counter() - started,
        )
        return gif

    async def replay_step(self, interaction: discord.Interaction, click: Click) -> None:
        """◀ or ▶ on a replay: the message shows the step its custom id carries."""
        problem = inputs.source_problem(click, interaction.message, interaction.user.id, None)
        if problem is not None:  # a forged click: refused before anything is edited
            raise problem
        played = await self.replayed(interaction, click.game)
        if not 0 <= click.version <= played.steps:
            raise UserError("replay.error.no_step")
        message = history.step_message(played, click.version)
        await interaction.response.edit_message(**message.kwargs())

    async def replayed(self, interaction: discord.Interaction, number: int) -> history.Replay:
        """Game `number` played again, in the reader's language; UserError unless it is one
        of this server's games that started and has ended."""
        record, actions = await self.service.ledger.game(number)
        history.check_replayable(record, interaction.guild_id)
        return history.replay(record, actions, speaks(interaction))
