"""Every command goes to its game's owner: Discord's interactions of a group DM arrive on shard
0's process, and are handed whole to the process owning the game (its channel's shard).

Two processes on one PostgreSQL database against the fake Discord (2 shards), one per
shard. A group DM whose channel falls in shard 1: its slash commands and clicks arrive on
shard 0's process, which hands each to shard 1's; the lobby is created there (never on
shard 0's), joined, started and played from there, each answer in time, in the group DM.
With shard 1's process gone, shard 0's answers a command itself: not done, try again.
"""

from __future__ import annotations

import pytest

from bot.app import build as build_app
from bot.i18n.catalogs import t
from tests.bot.conftest import make_config
from tests.bot.helpers import Scene, text_of

pytestmark = pytest.mark.e2e


def process(fake, database, shard: int):
    settings = {
        "APOPHIS_PROCESSES": "2",
        "APOPHIS_SHARD_COUNT": "2",
        "APOPHIS_SHARD_IDS": str(shard),
    }
    config = make_config(fake, database, **settings)
    return build_app(config, guild_ready_timeout=0.05).discord


async def test_a_group_dms_commands_reach_the_process_that_owns_its_game(
    fake_discord, postgres_url
):
    first, second = process(fake_discord, postgres_url, 0), process(fake_discord, postgres_url, 1)
    # The scene reads the owner's state; Discord sends the interactions to shard 0's.
    scene = Scene(fake_discord, second, names=("ann", "bob"), group_dm=True, shard=(1, 2))
    group = scene.channel.id
    async with fake_discord.connected(first), fake_discord.connected(second):
        opened = await scene.cmd("apophis new", "ann", rules="basic", difficulty="easy")
        assert opened.response_type == 4, opened  # answered in time, by the owner
        assert group in second.service.by_channel and group not in first.service.by_channel
        lobby = await scene.shown()
        joined = await scene.click(lobby, "join", "bob")
        assert joined.response_type == 7  # the lobby, updated in the answer
        table = second.service.by_channel[group]
        assert sorted(table.seats) == sorted(scene.id(n) for n in ("ann", "bob"))
        started = await scene.click(scene.board(), "start", "ann")
        assert started.response_type == 7
        assert table.status == "active"
        version = table.version
        player = next(n for n in ("ann", "bob") if scene.id(n) == table.game.active_player)
        panel = await scene.panel(player)
        assert panel.ephemeral and text_of(panel)
        drawn = await scene.press(panel, "draw", player)
        assert drawn.response_type == 7
        assert table.version == version + 1  # applied once, on its owner
        assert not first.service.tables  # nothing was ever applied on shard 0's process

    # Both restarted: the game is back on shard 1's process only, and played from there.
    first, second = process(fake_discord, postgres_url, 0), process(fake_discord, postgres_url, 1)
    scene.bot = second
    async with fake_discord.connected(first), fake_discord.connected(second):
        table = second.service.by_channel[group]
        assert table.version == version + 1 and not first.service.tables
        opened = await scene.cmd("hand", "ann")  # (only the installer has the commands there)
        assert opened.ephemeral and opened.response_type == 4

    # Shard 1's process is gone: shard 0's answers the command itself, and does nothing.
    alone = process(fake_discord, postgres_url, 0)
    scene.bot = alone
    async with fake_discord.connected(alone):
        refused = await scene.cmd("hand", "ann")
        assert refused.ephemeral
        assert refused.response_data["content"] == t("en", "error.owner_away")
        assert not alone.service.tables
