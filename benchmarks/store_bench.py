"""Store benchmark: latency of committing one action, and start-up load of N active games.

Run ``.venv/bin/python benchmarks/store_bench.py`` (about a minute). Not a test: it
prints a table. Every database is a fresh file in a temporary folder (WAL,
synchronous=NORMAL, as the bot runs it). Games are played by the engine's playout
policy; only the store's calls are timed.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import platform
import random
import sqlite3
import statistics
import tempfile
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any

import orjson

from bot.lobby_settings import LobbySettings
from bot.store.store import Store
from engine import Game
from engine.playout import choose_action

#: Commits made before timing starts (caches, WAL file growth).
WARM_UP = 500
PLAYERS = [111_111_111_111_111_111, 222_222_222_222_222_222, 333_333_333_333_333_333]


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if "model name" in line)
    except (OSError, StopIteration):
        pass
    return (
        f"{cpu}, {os.cpu_count()} CPUs; Python {platform.python_version()}, "
        f"SQLite {sqlite3.sqlite_version}, aiosqlite {version('aiosqlite')}, "
        f"orjson {version('orjson')}; {platform.platform()}"
    )


async def new_game(store: Store, channel: int, seed: int) -> tuple[int, Game]:
    """A started 3-player game in its own channel: its id and the engine game."""
    lobby = await store.create_lobby(
        1, channel, PLAYERS[0], LobbySettings("advanced", "medium", 15)
    )
    for player in PLAYERS[1:]:
        await store.add_player(lobby.id, player)
    game = Game.new(PLAYERS, rules="advanced", seed=seed, start_player=PLAYERS[seed % 3])
    await store.start_game(
        lobby.id,
        seed=seed,
        start_player=PLAYERS[seed % 3],
        state=game.save(),
        deadline=time.time() + 900,
    )
    return lobby.id, game


class Table:
    """Games being played in turn; a game that ends is replaced by a new one."""

    def __init__(self, store: Store, padding: int) -> None:
        self.store = store
        self.padding = "x" * padding
        self.rng = random.Random(1)
        self.channels = itertools.count()
        self.state_sizes: list[int] = []

    async def seat(self) -> list[Any]:
        """A new game as [game id, engine game, version]."""
        channel = next(self.channels)
        return [*(await new_game(self.store, channel, channel)), 0]

    async def step(self, slot: list[Any], latencies: list[float]) -> None:
        """Play one action of the slot's game and time its commit."""
        game_id, game, game_version = slot
        action = choose_action(game.view_for(game.active_player), self.rng)
        events = [event.to_dict() for event in game.apply(action)]
        state = game.save()
        if self.padding:
            # Room for what the bot may keep beside the engine's state.
            state["bot"] = self.padding
        if len(self.state_sizes) < 1_000:
            self.state_sizes.append(len(orjson.dumps(state)))
        started = time.perf_counter()
        slot[2] = await self.store.commit_action(
            game_id,
            game_version,
            state=state,
            actor=action.get("player"),
            action=action,
            events=events,
            outcome=game.outcome.value if game.is_over else None,
        )
        latencies.append(time.perf_counter() - started)
        if game.is_over:
            slot[:] = await self.seat()


def summary(latencies: list[float]) -> str:
    micros = sorted(x * 1e6 for x in latencies)
    p99 = micros[int(len(micros) * 0.99) - 1]
    return f"{statistics.median(micros):9.1f} µs{p99:9.1f} µs{len(micros):>9,}"


async def commit_latency(folder: Path, actions: int, padding: int) -> tuple[str, int]:
    """Median and p99 of commit_action, one action at a time over 24 games in play."""
    store = await Store.open(folder / f"commit-{padding}.sqlite3")
    try:
        table = Table(store, padding)
        slots = [await table.seat() for _ in range(24)]
        warm_up: list[float] = []
        for turn in range(WARM_UP):
            await table.step(slots[turn % len(slots)], warm_up)
        latencies: list[float] = []
        for turn in range(actions):
            await table.step(slots[turn % len(slots)], latencies)
        return summary(latencies), int(statistics.median(table.state_sizes))
    finally:
        await store.close()


async def one_hop(folder: Path, count: int) -> str:
    """The floor under every call: a trivial read, i.e. mostly aiosqlite's thread hop."""
    store = await Store.open(folder / "hop.sqlite3")
    try:
        latencies = []
        for _ in range(WARM_UP + count):
            started = time.perf_counter()
            await store.get_dm_channel(1)
            latencies.append(time.perf_counter() - started)
        return summary(latencies[WARM_UP:])
    finally:
        await store.close()


async def startup(folder: Path, count: int, moves: int) -> dict[str, float]:
    """Seconds to open, resume and load `count` active games of `moves` actions each."""
    path = folder / f"startup-{count}.sqlite3"
    store = await Store.open(path)
    rng = random.Random(count)
    for channel in range(count):
        game_id, game = await new_game(store, channel, channel)
        for game_version in range(moves):
            player = game.active_player
            if player is None:  # the game is over
                break
            action = choose_action(game.view_for(player), rng)
            events = [event.to_dict() for event in game.apply(action)]
            await store.commit_action(
                game_id,
                game_version,
                state=game.save(),
                actor=action.get("player"),
                action=action,
                events=events,
            )
    await store.freeze_clocks()
    await store.close()

    timings = {"size_mb": path.stat().st_size / 1e6}
    started = time.perf_counter()
    store = await Store.open(path)
    timings["open"] = time.perf_counter() - started
    try:
        started = time.perf_counter()
        resumed = await store.resume_clocks()
        timings["resume"] = time.perf_counter() - started
        started = time.perf_counter()
        loaded = await store.load_active_games()
        timings["load"] = time.perf_counter() - started
        assert len(resumed) == len(loaded) == count
    finally:
        await store.close()
    return timings


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=5_000, help="commits per latency row")
    parser.add_argument("--games", type=int, nargs="+", default=[1_000, 10_000])
    parser.add_argument("--moves", type=int, default=5, help="actions played per loaded game")
    args = parser.parse_args()
    print(f"Machine: {machine()}\n")
    with tempfile.TemporaryDirectory(prefix="store-bench-") as folder:
        print("commit_action: one accepted action = one transaction (state + version + log row)")
        print(f"{'state':<36}{'median':>12}{'p99':>12}{'commits':>9}")
        for padding, label in ((0, "engine save()"), (2_300, "engine save() + 2.3 KB extra")):
            row, size = await commit_latency(Path(folder), args.actions, padding)
            print(f"{f'{label} (~{size / 1000:.1f} KB)':<36}{row}")
        print(f"{'reference: one-hop read (DM channel)':<36}{await one_hop(Path(folder), 5_000)}")
        print()
        print(f"Start-up with N active games ({args.moves} actions each, clocks frozen):")
        print(f"{'N':>8}{'db size':>10}{'open':>10}{'resume_clocks':>15}{'load_active':>13}")
        for count in args.games:
            t = await startup(Path(folder), count, args.moves)
            print(
                f"{count:>8,}{t['size_mb']:>8.1f} MB{t['open'] * 1e3:>8.0f} ms"
                f"{t['resume'] * 1e3:>12.0f} ms{t['load'] * 1e3:>10.0f} ms"
            )
        print(
            "\nopen = integrity quick_check + migrations check; resume_clocks = clocks "
            "restarted and every open game loaded, one transaction."
        )


if __name__ == "__main__":
    asyncio.run(main())
