"""Discord's interactions for another process's games, handed over whole; and those handed here.

Discord sends every interaction of a DM or a group DM to shard 0's process, whichever
process owns its game (a game without a server belongs to its channel's shard:
bot.store.records.Shards.home_of). Where several processes share the database, such an
interaction is handed, as Discord sent it, to the process holding that shard
(bot.game.relay), which handles it as if its own gateway had sent it, and answers it
itself (an interaction is answered through Discord's API, from anywhere, with its token).
One its owner does not take in time (stopping, or gone until a standby or a restart takes
its shards) is answered here: not done, try again in a few seconds.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n.catalogs import language_of, t

if TYPE_CHECKING:
    from bot.game.relay import Relay

log = logging.getLogger(__name__)
#: Discord's interaction types handed over: all but the ping (answered by Discord itself).
PING = 1


def install(client: discord.Client, relay: Relay) -> None:
    """Interactions for the other processes' games go to them; theirs are handled here."""
    state = client._connection
    parse = state.parsers["INTERACTION_CREATE"]
    shards = relay.shards
    tasks: set[asyncio.Task[None]] = set()

    def received(data: dict[str, Any]) -> None:
        guild = int(data.get("guild_id") or 0)
        channel = int(data.get("channel_id") or (data.get("channel") or {}).get("id") or 0)
        if data.get("type") == PING or shards.own(guild, channel):
            parse(data)
            return
        task = asyncio.ensure_future(_hand(client, relay, shards.home_of(guild, channel), data))
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    state.parsers["INTERACTION_CREATE"] = received
    relay.interaction = parse


async def _hand(client: discord.Client, relay: Relay, shard: int, data: dict[str, Any]) -> None:
    if await relay.hand(shard, data):
        return
    log.warning("an interaction for shard %d was not taken by its process: answered here", shard)
    interaction: discord.Interaction[discord.Client] = discord.Interaction(
        data=data,  # type: ignore[arg-type]
        state=client._connection,
    )
    text = t(language_of(data.get("locale")), "error.owner_away")
    try:
        await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as exc:  # answered by its owner after all, or expired
        log.info("an interaction handed over could not be answered here: %s", exc)
