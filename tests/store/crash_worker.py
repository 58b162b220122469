"""Crash-test worker: plays random games against a database file until it is killed.

Run as ``python -m tests.store.crash_worker DB SEED``, or forked from a process that has
imported it already (``run_forked``, as tests/store/test_crash.py does 25 times a run:
no interpreter to start, nothing to import again). One task per channel shares a
single Store: each opens a lobby, seats 1 to 4 players, starts the game and plays it
with the engine's playout policy (now and then a player leaves, a turn is skipped or
the host ends the game; the clock runs out after 150 actions), then opens the next.
After every committed action it prints ``GAME_ID VERSION``. Started again on the same
file it resumes every open game, lobbies included, where the database says it is.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import time
from multiprocessing.connection import Connection
from typing import Any

from bot.lobby_settings import LobbySettings
from bot.store.records import GameRecord
from bot.store.store import Store
from engine import Game

from .helpers import commit, next_action, start_lobby

CHANNELS = 6


def choose(game: Game, rng: random.Random, version: int) -> dict[str, Any]:
    """Mostly playout moves, with the rarer ways a game changes or ends mixed in."""
    roll = rng.random()
    if roll < 0.01:
        return {"type": "remove_player", "player": rng.choice(game.players)}
    if roll < 0.02:
        return {"type": "skip_turn"}
    if roll < 0.025:
        return {"type": "end", "reason": "host"}
    return next_action(game, rng, version, limit=150)


async def play(store: Store, record: GameRecord, rng: random.Random) -> None:
    game = Game.restore(record.state)
    version = record.version
    while not game.is_over:
        action = choose(game, rng, version)
        version = await commit(store, record.id, version, game, action, now=time.time())
        print(record.id, version, flush=True)


async def run_channel(
    store: Store, channel: int, record: GameRecord | None, rng: random.Random
) -> None:
    while True:
        if record is None:
            rules = rng.choice(("basic", "advanced"))
            record = await store.create_lobby(
                1, channel, channel * 10, LobbySettings(rules, "medium", 10)
            )
        if record.status == "lobby":
            wanted = rng.randint(1, 4)
            for user in range(channel * 10 + 1, channel * 10 + 4):
                if len(record.players) >= wanted:
                    break
                if user not in record.players:
                    record = await store.add_player(record.id, user)
            record, _ = await start_lobby(store, record, seed=rng.getrandbits(32), now=time.time())
        await play(store, record, rng)
        record = None


async def main(path: str, seed: int) -> None:
    store = await Store.open(path)
    resumed = {record.channel_id: record for record in await store.resume_clocks()}
    rng = random.Random(seed)
    await asyncio.gather(
        *(
            run_channel(store, channel, resumed.get(channel), random.Random(rng.random()))
            for channel in range(CHANNELS)
        )
    )


def run_forked(path: str, seed: int, out: Connection, err: Connection) -> None:
    """The worker in a forked process: its lines to `out`, its errors to `err` (the write
    ends of two pipes, as standard output and standard error would be)."""
    os.dup2(out.fileno(), 1)
    os.dup2(err.fileno(), 2)
    out.close()
    err.close()
    asyncio.run(main(path, seed))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
