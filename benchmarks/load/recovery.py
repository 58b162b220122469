"""Start-up recovery: the bot started on N stored active games, timed until it resumes them."""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.load.bots import NO_OPENAPI, BotProcess, rss_kb
from benchmarks.load.database import new_database
from bot.lobby_settings import LobbySettings
from bot.store.store import Store
from devtools.fakediscord import FakeDiscord
from engine import DIFFICULTY_MINUTES, Game
from engine.playout import choose_action


async def stored_games(database: str, channels: list[tuple[int, int]], seed: int = 0) -> None:
    """Active 4-player games written as the bot writes them (Store API)."""
    store = await Store.open(database)
    rng = random.Random(seed)
    now = time.time()
    try:
        for i, (guild_id, channel_id) in enumerate(channels):
            players = [10_000_000 + 4 * i + seat for seat in range(4)]
            rules = rng.choice(("basic", "advanced"))
            record = await store.create_lobby(
                guild_id,
                channel_id,
                players[0],
                LobbySettings(rules, "medium", DIFFICULTY_MINUTES["medium"]),
                now=now,
            )
            for player in players[1:]:
                await store.add_player(record.id, player, now=now)
            game = Game.new(players, rules, seed=i)
            # Some play already happened: a few actions from the automatic player.
            for _ in range(rng.randrange(0, 12)):
                if (actor := game.active_player) is None:
                    break
                game.apply(choose_action(game.view_for(actor), rng))
            if game.is_over:
                game = Game.new(players, rules, seed=i)
            await store.start_game(
                record.id,
                seed=i,
                start_player=players[0],
                state=game.save(),
                deadline=now + rng.uniform(60, 600),
                now=now,
            )
    finally:
        await store.close()


async def run_recovery(args, count: int) -> dict[str, float]:
    fake = FakeDiscord(openapi_path=NO_OPENAPI)
    await fake.start()
    workdir = Path(tempfile.mkdtemp(prefix="apophis-recovery-"))
    database = new_database(args, workdir)
    channels = []
    per_guild = 100
    for i in range(0, count, per_guild):
        guild = fake.add_guild(f"Recovery {i // per_guild}")
        for _ in range(min(per_guild, count - i)):
            channels.append((guild.id, fake.add_text_channel(guild, "apophis").id))
    began = time.monotonic()
    await stored_games(database, channels)
    prepared = time.monotonic() - began
    bot = BotProcess(fake, database, workdir, log_level="INFO", args=args)
    # Recovery as in production: the outbox paced at 45/s (it only queues here).
    bot.args = argparse.Namespace(**{**vars(args), "global_rate": 45})
    resumed = bot.watch(r"resumed (\d+) open games")
    await bot.start()
    try:
        at, match = await asyncio.wait_for(resumed, 300)
        if int(match[1]) != count:
            raise RuntimeError(f"the bot resumed {match[1]} games, not {count}")
        resumed_s = at - bot.started
        rss = rss_kb(bot.pid)
        while fake.gateway.identify_count == 0 and time.monotonic() - at < 120:
            await asyncio.sleep(0.05)
        identified_s = time.monotonic() - bot.started
    finally:
        errors = bot.errors()
        await bot.stop()
        await fake.stop()
    if errors:
        print(f"recovery of {count}: bot logged errors, e.g. {errors[0][:300]}", file=sys.stderr)
    return {
        "games": count,
        "resumed": resumed_s,
        "identified": identified_s,
        "rss_mb": rss / 1024,
        "prepared": prepared,
    }
