"""Bot processes on one PostgreSQL database against the fake Discord, and moves made in them.

`BotProcess` runs `python -m bot` with some of the bot's shards (or as a standby), its
log collected line by line; `play` makes accepted moves in a scene's game, each checked
to have moved the game's version on by exactly one.
"""

from __future__ import annotations

import asyncio
import signal
import time

from bot.store.records import GameRecord, shard_of
from bot.store.store import Store
from engine import HAND_LIMIT, Game
from tests.bot.helpers import Scene, spawn_bot_process, start_bot_process

SHARDS = 4
SETTINGS = {"APOPHIS_SHARD_COUNT": str(SHARDS), "APOPHIS_PROCESSES": "2"}
#: How long a process may take to be ready: each IDENTIFY waits its turn (5 s apart
#: across processes).
READY_SECONDS = 60


class BotProcess:
    """A bot process running some shards; its log collected line by line."""

    def __init__(self, process: asyncio.subprocess.Process, shards: str) -> None:
        self.process, self.shards = process, shards
        self.log: list[str] = []
        self._reader = asyncio.create_task(self._read())
        self._more = asyncio.Event()

    @classmethod
    async def start(cls, fake, database: str, shards: str) -> BotProcess:
        """A process on `shards`, once it is logged in and ready."""
        process = await start_bot_process(
            fake, database, timeout=READY_SECONDS, APOPHIS_SHARD_IDS=shards, **SETTINGS
        )
        return cls(process, shards)

    @classmethod
    async def launch(cls, fake, database: str, shards: str) -> BotProcess:
        """A process on `shards` (or a standby), not waited for."""
        process = await spawn_bot_process(fake, database, APOPHIS_SHARD_IDS=shards, **SETTINGS)
        return cls(process, shards)

    async def _read(self) -> None:
        while line := await self.process.stderr.readline():
            self.log.append(line.decode(errors="replace"))
            self._more.set()
        self._more.set()

    async def said(self, words: str, timeout: float = READY_SECONDS) -> str:
        """The first line of the log with `words`, once it is written."""
        async with asyncio.timeout(timeout):
            while True:
                self._more.clear()
                found = next((line for line in self.log if words in line), None)
                if found is not None:
                    return found
                assert not self._reader.done(), f"the process ended: {self.log[-5:]}"
                await self._more.wait()

    async def ended(self, timeout: float = 20) -> int:
        """The exit status, once the process has ended on its own."""
        async with asyncio.timeout(timeout):
            status = await self.process.wait()
            await self._reader
        return status

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


async def open_game(scene: Scene, store: Store, moves: int = 3) -> int:
    """A beginner game for ann and bob in the scene's channel, `moves` moves in; its version."""
    await scene.cmd("apophis new", "ann", difficulty="beginner")
    await scene.cmd("apophis join", "bob")
    await scene.cmd("apophis start", "ann", first=scene["ann"])
    return await play(scene, store, moves)


async def answered_after_kill(scene: Scene, store: Store, owner: BotProcess) -> float:
    """Kill `owner` (SIGKILL), the process of the scene's shard; the seconds from then
    until the next move in the scene's game is answered by whichever process takes the
    shard over (the move is made as soon as that process's gateway session has it)."""
    fake, shard = scene.fake, shard_of(scene.guild.id, SHARDS)
    before = fake.gateway.shards[shard]
    killed = time.monotonic()
    await owner.kill()

    def taken_over() -> bool:
        now = fake.gateway.shards.get(shard)
        return now is not before and now.ws is not None and not now.ws.closed

    await fake.wait_for(taken_over, timeout=READY_SECONDS, description="the shard taken over")
    await play(scene, store, 1)
    return time.monotonic() - killed
