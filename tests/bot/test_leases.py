"""Shards held by leases: a process on shards another holds is refused at start-up, and a
standby takes over the shards of a process killed with SIGKILL.

Three processes on one PostgreSQL database against the fake Discord (4 shards): one on
shards 0-1, one on 2-3, and a standby. A fourth, started by mistake on shards 1-2, stops
with one line naming them and exit status 2, having loaded, posted and identified
nothing. Then the process of shards 0-1 is killed: the standby takes exactly those
over, says once in their game's channel that the bot is back, and answers the next move
within the goal of 30 seconds, with nothing lost or applied twice. A standby started
then sees every shard held, and stops at once when told to.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.store.store import Store
from devtools.processes import SHARDS, BotProcess, answered_after_kill, open_game, play
from tests.bot.helpers import Scene
from tests.store.helpers import assert_consistent

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # slow: handed out first in parallel

#: The goal for a standby answering the first move after its owner was killed.
FAILOVER_GOAL_SECONDS = 30.0


def back_notices(scene: Scene) -> list:
    return [m for m in scene.public() if "back after a restart" in m.content]


async def test_held_shards_refuse_a_second_process_and_a_standby_takes_over_a_killed_one(
    fake_discord, postgres_url
):
    low_scene, high_scene = (
        Scene(fake_discord, None, names=("ann", "bob"), shard=(k, SHARDS)) for k in (0, 2)
    )
    store = await Store.open(postgres_url)  # the test's own view of the database
    processes: list[BotProcess] = []
    try:
        low, high = await asyncio.gather(
            BotProcess.start(fake_discord, postgres_url, "0-1"),
            BotProcess.start(fake_discord, postgres_url, "2-3"),
        )
        processes += [low, high]
        standby = await BotProcess.launch(fake_discord, postgres_url, "standby")
        processes.append(standby)
        await standby.said("standing by for shards 0, 1, 2, 3")
        versions = [await open_game(scene, store) for scene in (low_scene, high_scene)]

        # A process started by mistake on shards 1-2: refused before anything else.
        posted = len(fake_discord.messages(low_scene.channel))
        identified = fake_discord.gateway.identify_count
        rival = await BotProcess.launch(fake_discord, postgres_url, "1-2")
        processes.append(rival)
        assert await rival.ended() == 2
        assert rival.log[-1] == (
            "apophis-bot: shards 1, 2 of 4 are held by another bot process running now "
            "(APOPHIS_SHARD_IDS=1,2): give this process shards no other runs, or "
            "APOPHIS_SHARD_IDS=standby to take over when that one stops.\n"
        )
        assert not any("resumed" in line for line in rival.log), rival.log
        assert len(fake_discord.messages(low_scene.channel)) == posted
        assert fake_discord.gateway.identify_count == identified

        # The process of shards 0-1 killed: the standby takes exactly those over.
        (seconds,) = await answered_after_kill([low_scene], store, low)
        assert seconds < FAILOVER_GOAL_SECONDS, seconds
        print(f"kill -9 to the first move answered by the standby: {seconds:.1f} s")
        assert "taking over shards 0, 1:" in await standby.said("taking over")
        assert "shards 0,1 of 4" in await standby.said("ready: logged in")
        record = await store.active_game_in_channel(low_scene.channel.id)
        assert record.version == versions[0] + 1  # nothing lost, the move applied once
        assert await play(low_scene, store, 2) == versions[0] + 3
        assert_consistent(record, (await store.game_log(record.id))[: record.version])
        notices = await fake_discord.wait_for(lambda: back_notices(low_scene))
        assert len(notices) == 1
        assert await play(high_scene, store, 1) == versions[1] + 1  # the other plays on
        assert back_notices(high_scene) == []
        assert len(back_notices(low_scene)) == 1

        # A new standby sees every shard held again; told to stop, it stops at once.
        spare = await BotProcess.launch(fake_discord, postgres_url, "standby")
        processes.append(spare)
        await spare.said("standing by for shards 0, 1, 2, 3")
        await spare.stop()
        assert spare.process.returncode == 0
        assert not any("resumed" in line for line in spare.log), spare.log
        assert [p.errors() for p in (high, standby)] == [[], []]
    finally:
        for process in processes:
            await process.stop()
        await store.close()
