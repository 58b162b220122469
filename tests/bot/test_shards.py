"""Shards: a bot in more than 2,500 servers connects sharded; a process owns its shards' games."""

from __future__ import annotations

import pytest

from bot.store.store import Store
from tests.bot.helpers import Scene
from tests.store.helpers import start

pytestmark = pytest.mark.e2e


@pytest.mark.slow
async def test_a_bot_in_more_than_2500_servers_connects_with_shards(fake_discord, make_bot):
    # Discord closes an unsharded bot in this many servers (4011; tests/test_fakediscord_shards).
    scene = Scene(fake_discord, None, names=("ann",), shard=(2, 3))
    for index in range(2_500):
        fake_discord.add_guild(f"server {index}")
    bot = make_bot()
    scene.bot = bot
    async with fake_discord.connected(bot, timeout=60):
        assert bot.shard_count == fake_discord.gateway.recommended_shards == 3
        assert sorted(bot.shards) == [0, 1, 2]
        assert len(bot.guilds) == 2_501
        assert {s.shard for s in fake_discord.gateway.shards.values()} == {(0, 3), (1, 3), (2, 3)}
        # Interactions of a server on the last shard arrive on that shard's connection.
        reply = await scene.cmd("apophis new", "ann", difficulty="easy")
        assert not reply.ephemeral
        assert scene.live().guild_id == scene.guild.id
        assert bot.get_guild(scene.guild.id).shard_id == 2


async def test_a_process_recovers_and_freezes_its_own_shards_only(fake_discord, make_bot, database):
    mine = Scene(fake_discord, None, names=("ann", "bob"), shard=(1, 2))
    other = Scene(fake_discord, None, names=("cid", "dee"), shard=(0, 2))
    store = await Store.open(database)
    try:
        ann, bob = mine.id("ann"), mine.id("bob")
        cid, dee = other.id("cid"), other.id("dee")
        kept, _ = await start(store, [ann, bob], channel=mine.channel.id, guild=mine.guild.id)
        theirs, _ = await start(store, [cid, dee], channel=other.channel.id, guild=other.guild.id)
    finally:
        await store.close()

    bot = make_bot(APOPHIS_SHARD_COUNT="2", APOPHIS_SHARD_IDS="1")
    mine.bot = bot
    async with fake_discord.connected(bot, timeout=20):
        assert list(bot.shards) == [1]
        assert set(bot.service.tables) == {kept.id}
        assert [s.shard for s in fake_discord.gateway.shards.values()] == [(1, 2)]
        reply = await mine.cmd("hand", "ann")
        assert reply.ephemeral
    # Closed: only its own game's clock was resumed and then frozen.
    store = await Store.open(database)
    try:
        frozen, untouched = await store.get_game(kept.id), await store.get_game(theirs.id)
    finally:
        await store.close()
    assert frozen.clock_deadline is None and frozen.clock_remaining is not None
    assert (untouched.clock_deadline, untouched.clock_remaining) == (
        theirs.clock_deadline,
        theirs.clock_remaining,
    )
    assert untouched.updated_at == theirs.updated_at
