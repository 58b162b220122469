"""Several bot processes on one PostgreSQL database, each running some of the bot's shards.

The fake Discord serves 4 shards; two processes (shards 0-1 and 2-3) play games in a
server of every shard. One is killed with SIGKILL in the middle of moves and started
again: every game goes on where it was, nothing is lost or applied twice, and the
statistics count each game once. A third process started by mistake on shards that are
taken is refused by the version check when it writes a game the other moved on.
"""

from __future__ import annotations

import asyncio
import signal

import pytest

from bot.store.records import GameRecord
from bot.store.store import Store
from engine import HAND_LIMIT, Game
from tests.bot.helpers import Scene, start_bot_process
from tests.store.helpers import assert_consistent

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # slow: handed out first in parallel

SHARDS = 4
SETTINGS = {"APOPHIS_SHARD_COUNT": str(SHARDS), "APOPHIS_PROCESSES": "2"}


class BotProcess:
    """A bot process running some shards; its log collected line by line."""

    def __init__(self, process: asyncio.subprocess.Process, shards: str) -> None:
        self.process, self.shards = process, shards
        self.log: list[str] = []
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def start(cls, fake, database: str, shards: str) -> BotProcess:
        # Each IDENTIFY waits its turn (5 s apart across processes): allow for the others.
        process = await start_bot_process(
            fake, database, timeout=60, APOPHIS_SHARD_IDS=shards, **SETTINGS
        )
        return cls(process, shards)

    async def _read(self) -> None:
        while line := await self.process.stderr.readline():
            self.log.append(line.decode(errors="replace"))

    async def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        await self._reader

    async def stop(self) -> None:
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            await self.process.wait()
        await self._reader

    def errors(self) -> list[str]:
        return [line for line in self.log if " ERROR " in line]


def name_of(scene: Scene, user_id: int) -> str:
    return next(name for name in scene.members if scene.id(name) == user_id)


async def move(scene: Scene, record: GameRecord):
    """The move the game as recorded waits for, by the player it waits for (draw or discard)."""
    game = Game.restore(record.state)
    player = name_of(scene, game.active_player)
    if game.phase.value == "discard":
        hand = game.hands[game.players.index(game.active_player)]
        cards = " ".join(hand[HAND_LIMIT:])
        return await scene.fake.invoke(
            "discard", user=scene[player], channel=scene.channel, cards=cards
        )
    return await scene.fake.invoke("draw", user=scene[player], channel=scene.channel)


async def play(scene: Scene, store: Store, moves: int) -> int:
    """Make `moves` accepted moves; the game's version after them."""
    for _ in range(moves):
        record = await store.active_game_in_channel(scene.channel.id)
        reply = await (await move(scene, record)).wait_response(timeout=10)
        after = (await store.active_game_in_channel(scene.channel.id)).version
        assert after == record.version + 1, reply.response_data
    return after


async def test_processes_share_the_shards_survive_a_kill_and_refuse_a_rival(
    fake_discord, postgres_url
):
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
            await scene.cmd("apophis new", "ann", difficulty="beginner")
            await scene.cmd("apophis join", "bob")
            await scene.cmd("apophis start", "ann", first=scene["ann"])
            await play(scene, store, 3)

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

        # A third process started by mistake on shards 0-1: it loads their games, but the
        # first process keeps their traffic and moves the game of shard 1 on.
        rival = await BotProcess.start(fake_discord, postgres_url, "0-1")
        processes.append(rival)
        shard_one = scenes[1]
        loaded = await store.active_game_in_channel(shard_one.channel.id)  # as the rival has it
        moved = await play(shard_one, store, 1)
        await low.kill()  # its traffic now goes to the rival, which holds an older version
        # A move that the rival's older game accepts: the version check refuses it.
        refused = await (await move(shard_one, loaded)).wait_response(timeout=10)
        assert refused.ephemeral and "was not made" in refused.response_data["content"]
        assert (await store.active_game_in_channel(shard_one.channel.id)).version == moved
        assert await play(shard_one, store, 1) == moved + 1  # reloaded: the retry is accepted
        game_id = (await store.active_game_in_channel(shard_one.channel.id)).id
        (error,) = rival.errors()
        assert f"game {game_id} " in error and f"shard 1 of {SHARDS}" in error
        assert "another bot process is running shard 1" in error

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
        for process in (high, rival):
            assert process.errors() == ([] if process is high else [error]), process.errors()
    finally:
        for process in processes:
            await process.stop()
        await store.close()
