"""Several bot processes on one PostgreSQL database, each running some of the bot's shards.

The fake Discord serves 4 shards; two processes (shards 0-1 and 2-3) play games in a
server of every shard. One is killed with SIGKILL in the middle of moves and started
again: every game goes on where it was, nothing is lost or applied twice, and the
statistics count each game once. (A process started by mistake on shards that are taken
is refused at start-up: tests/bot/test_leases.py.)
"""

from __future__ import annotations

import asyncio

import pytest

from bot.store.store import Store
from devtools.processes import SHARDS, BotProcess, move, open_game, play
from tests.bot.helpers import Scene
from tests.store.helpers import assert_consistent

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # slow: handed out first in parallel


async def test_processes_share_the_shards_and_survive_a_kill(fake_discord, postgres_url):
    scenes = [Scene(fake_discord, None, names=("ann", "bob"), shard=(k, SHARDS)) for k in range(4)]
    store = await Store.open(postgres_url)  # the test's own view of the database
    processes: list[BotProcess] = []
    try:
        low, high = await asyncio.gather(
            BotProcess.start(fake_discord, postgres_url, "0-1"),
            BotProcess.start(fake_discord, postgres_url, "2-3"),
        )
        processes += [low, high]
        assert sorted(fake_discord.gateway.shards) == [0, 1, 2, 3]
        for scene in scenes:
            await open_game(scene, store)

        # SIGKILL the process of shards 0-1 while moves in its servers are under way.
        in_flight = [
            await move(scene, await store.active_game_in_channel(scene.channel.id))
            for scene in scenes[:2]
        ]
        await low.kill()
        before = {s.channel.id: await store.active_game_in_channel(s.channel.id) for s in scenes}
        for scene in scenes[2:]:  # the other process plays on meanwhile
            await play(scene, store, 2)
        low = await BotProcess.start(fake_discord, postgres_url, "0-1")
        processes.append(low)
        for scene in scenes:
            record = await store.active_game_in_channel(scene.channel.id)
            was = before[scene.channel.id]
            assert record.id == was.id and record.status == "active"
            if scene in scenes[:2]:  # where it was: the move in flight landed whole, or not
                assert record.version in (3, 4) and record.version == was.version
            await play(scene, store, 3)
        assert all(i.response_type in (None, 4) for i in in_flight)

        # Every game ends once; the statistics count each once, its log replays it.
        for scene in scenes:
            game_id = (await store.active_game_in_channel(scene.channel.id)).id
            ended = await scene.cmd("apophis end", "ann")
            assert not ended.ephemeral, ended.response_data
            record = await store.get_game(game_id)
            assert record.status == "abandoned"
            assert_consistent(record, await store.game_log(game_id))
            tally = (await store.stats(scene.guild.id)).tallies
            assert [(t.games, t.abandoned) for t in tally] == [(1, 1)]
        assert await store.load_active_games() == []
        for process in (low, high):
            assert process.errors() == [], process.errors()
    finally:
        for process in processes:
            await process.stop()
        await store.close()
