"""Bot processes on one PostgreSQL database against the fake Discord, and moves made in them.

For the tests (tests/bot/test_processes.py, test_leases.py) and the failover benchmark.
`BotProcess` runs `python -m bot` with some of the bot's shards (or as a standby), its
log collected line by line; `play` makes accepted moves in a place's game (a server's
channel and its members: `Place`, or the tests' Scene), each checked to have moved the
game's version on by exactly one.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections.abc import Mapping
from typing import Any, Protocol

from bot.store.records import GameRecord, shard_of
from bot.store.store import Store
from devtools.fakediscord import FakeDiscord
from engine import HAND_LIMIT, Game

SHARDS = 4
SETTINGS = {"APOPHIS_SHARD_COUNT": str(SHARDS), "APOPHIS_PROCESSES": "2"}
#: How long a process may take to be ready: each IDENTIFY waits its turn (5 s apart
#: across processes).
READY_SECONDS = 60


class Scene(Protocol):
    """A server's channel where a game is played, and its members by name."""

    fake: FakeDiscord
    guild: Any
    channel: Any
    members: dict[str, Any]

    def __getitem__(self, name: str) -> Any: ...

    def id(self, name: str) -> int: ...

    async def cmd(self, command: str, user: str, channel: Any = None, **options: Any) -> Any: ...


class Place:
    """A server of one shard, its #apophis channel and ann and bob (a `Scene`)."""

    def __init__(self, fake: FakeDiscord, shard: int) -> None:
        self.fake = fake
        self.guild = fake.add_guild(shard=(shard, SHARDS))
        self.channel = fake.add_text_channel(self.guild, "apophis")
        self.members = {name: fake.add_member(self.guild, name) for name in ("ann", "bob")}

    def __getitem__(self, name: str) -> Any:
        return self.members[name]

    def id(self, name: str) -> int:
        return int(self[name].user.id)

    async def cmd(self, command: str, user: str, channel: Any = None, **options: Any) -> Any:
        interaction = await self.fake.invoke(
            command, user=self[user].user, channel=channel or self.channel, **options
        )
        return await interaction.wait_response()


async def spawn_bot_process(
    fake: FakeDiscord, database: str, **settings: str
) -> asyncio.subprocess.Process:
    """`python -m bot` in its own process, on `database`, for the fake: not waited for.

    `settings` are more environment variables (APOPHIS_SHARD_IDS="0-1", ...). Its stderr
    (the log, at INFO) stays readable from `process.stderr`.
    """
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        env=bot_env(fake, database, os.environ, **settings),
        stderr=asyncio.subprocess.PIPE,
    )


def bot_env(
    fake: FakeDiscord, database: object, base: Mapping[str, str], **settings: str
) -> dict[str, str]:
    """The environment of a bot process for the fake: `base`, the fake's token and
    addresses, `database`, INFO logs, then `settings`."""
    return {
        **base,
        "DISCORD_TOKEN": fake.bot_token,
        "APOPHIS_DATABASE": str(database),
        "DISCORD_API_BASE_URL": fake.api_base_url,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "APOPHIS_LOG_LEVEL": "INFO",
        **settings,
    }


class BotProcess:
    """A bot process running some shards; its log collected line by line."""

    def __init__(self, process: asyncio.subprocess.Process, shards: str) -> None:
        self.process, self.shards = process, shards
        self.log: list[str] = []
        self._reader = asyncio.create_task(self._read())
        self._more = asyncio.Event()

    @classmethod
    async def start(cls, fake: FakeDiscord, database: str, shards: str) -> BotProcess:
        """A process on `shards`, once it is logged in and ready."""
        started = await cls.launch(fake, database, shards)
        await started.said("ready: logged in")
        return started

    @classmethod
    async def launch(cls, fake: FakeDiscord, database: str, shards: str) -> BotProcess:
        """A process on `shards` (or a standby), not waited for."""
        process = await spawn_bot_process(fake, database, APOPHIS_SHARD_IDS=shards, **SETTINGS)
        return cls(process, shards)

    async def _read(self) -> None:
        assert self.process.stderr is not None, "spawned with its stderr piped"
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
    assert record.state is not None and record.status == "active", record
    game = Game.restore(record.state)
    assert game.active_player is not None, "a game under way waits for someone"
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
    after = -1
    for _ in range(moves):
        record = await _game_in(scene, store)
        reply = await (await move(scene, record)).wait_response(timeout=10)
        after = (await _game_in(scene, store)).version
        assert after == record.version + 1, reply.response_data
    return after


async def _game_in(scene: Scene, store: Store) -> GameRecord:
    record = await store.active_game_in_channel(scene.channel.id)
    assert record is not None, "a game under way in the channel"
    return record


async def open_game(scene: Scene, store: Store, moves: int = 3) -> int:
    """A beginner game for ann and bob in the scene's channel, `moves` moves in; its version."""
    await scene.cmd("apophis new", "ann", difficulty="beginner")
    await scene.cmd("apophis join", "bob")
    await scene.cmd("apophis start", "ann", first=scene["ann"])
    return await play(scene, store, moves)


async def answered_after_kill(scenes: list[Scene], store: Store, owner: BotProcess) -> list[float]:
    """Kill `owner` (SIGKILL), the process of the scenes' shards; for each scene, the
    seconds from then until the next move in its game is answered by whichever process
    took its shard over (the move is made as soon as that process's gateway session has
    the shard, as a player trying again would)."""
    fake = scenes[0].fake
    shards = [shard_of(scene.guild.id, SHARDS) for scene in scenes]
    before = {shard: fake.gateway.shards[shard] for shard in shards}
    killed = time.monotonic()
    await owner.kill()

    async def answered(scene: Scene, shard: int) -> float:
        def taken_over() -> bool:
            now = fake.gateway.shards.get(shard)
            return (
                now is not None
                and now is not before[shard]
                and now.ws is not None
                and not now.ws.closed
            )

        await fake.wait_for(taken_over, timeout=READY_SECONDS, description="taken over")
        await play(scene, store, 1)
        return time.monotonic() - killed

    return list(await asyncio.gather(*map(answered, scenes, shards)))
