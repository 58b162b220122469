"""The floor: the least a discord.py bot does for an action (one callback, one edit).

Started by benchmarks/floor_bench.py in its own process, pointed at the fake Discord as the
bot is (DISCORD_API_BASE_URL, DISCORD_GATEWAY_URL). It is discord.py and aiohttp alone,
set up as the bot sets up its client (the same intents, no message cache, the same event
loop, uvloop where it is built): one slash command, `/tap`, answered with one callback (a
private message) and one edit of that message through the interaction's token. It keeps
nothing, draws nothing, stores nothing: what it costs per interaction is what any bot
built on these libraries pays for an action, whatever it does.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable

import discord
import yarl
from discord import app_commands

LOOP_FACTORY: Callable[[], asyncio.AbstractEventLoop] | None
try:
    import uvloop

    LOOP_FACTORY = uvloop.new_event_loop
except ImportError:  # the bot runs on asyncio's own loop then, and so does the floor
    LOOP_FACTORY = None


def client() -> discord.Client:
    bot = discord.Client(
        intents=discord.Intents(guilds=True, guild_messages=True), max_messages=None
    )
    tree = app_commands.CommandTree(bot)

    @tree.command(name="tap", description="One callback and one edit")
    async def tap(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Tapped", ephemeral=True)
        await interaction.edit_original_response(content="Tapped, then edited")

    @bot.event
    async def on_ready() -> None:
        await tree.sync()
        print("floor-ready", file=sys.stderr, flush=True)

    return bot


async def run() -> None:
    async with client() as bot:
        await bot.start(os.environ["DISCORD_TOKEN"])


def main() -> None:
    discord.http.Route.BASE = os.environ["DISCORD_API_BASE_URL"].rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY_URL"])
    with asyncio.Runner(loop_factory=LOOP_FACTORY) as runner:
        runner.run(run())


if __name__ == "__main__":
    main()
