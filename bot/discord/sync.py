"""The slash commands sent to Discord, only when they changed since the last sync.

Globally they go beside the Activity's Entry Point, kept as it is or, with Activities on,
made (bot.discord.entry); to the dev server instead when APOPHIS_DEV_GUILD is set. What
was sent last is kept in the store as a digest of the commands as Discord gets them
(translations included: a changed word is a change) and of APOPHIS_ACTIVITY.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.discord.entry import sync_global

if TYPE_CHECKING:
    from bot.config import Config
    from bot.store.store import Store

log = logging.getLogger(__name__)

COMMANDS_HASH_KEY = "commands_hash"


async def sync_commands(client: commands.AutoShardedBot, config: Config, store: Store) -> None:
    """Send `client`'s slash commands to Discord, but only when they changed since last
    time (or APOPHIS_ACTIVITY did): globally beside the Activity's Entry Point, or to the
    dev server, if set. Its tree has its translator already (the client's setup)."""
    tree = client.tree
    guild = discord.Object(config.dev_guild) if config.dev_guild else None
    if guild is not None:
        tree.copy_global_to(guild=guild)
    # As Discord will get them, translations included: a changed word is a change.
    translator = tree.translator
    assert translator is not None, "set by the client's setup"
    payload = [
        await c.get_translated_payload(tree, translator) for c in tree.get_commands(guild=guild)
    ]
    activity = config.activity
    digest = hashlib.sha256(
        json.dumps([guild and guild.id, payload, activity], sort_keys=True).encode()
    ).hexdigest()
    if await store.get_meta(COMMANDS_HASH_KEY) == digest:
        log.info("slash commands unchanged; not syncing")
        return
    synced: Sequence[object]
    if guild is None:
        assert client.application_id is not None, "known once logged in"
        synced = await sync_global(client.http, client.application_id, payload, activity=activity)
    else:  # the Entry Point is global: the dev server's commands leave it alone
        synced = await tree.sync(guild=guild)
    await store.set_meta(COMMANDS_HASH_KEY, digest)
    log.info("synced %d commands%s", len(synced), f" to guild {guild.id}" if guild else "")
