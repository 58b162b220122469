"""How large a replay's animated picture is, and how long it takes to make, on one core.

Run: taskset -c 0 .venv/bin/python benchmarks/replay_bench.py [--actions 100] [--games 10]
Each game is played by the crew policy (engine.simulate), both rule sets, 2 to 4 players,
its clock running out at its `--actions`-th action (sooner if the team wins), and stored
as the bot stores it, in a new SQLite file. Making the replay is what /apophis replay
does: the record and the log read from the store, the game played again by the engine
(bot.views.history.replay), each move's board picture drawn (history.frames) and the GIF
written (bot.pictures.replay.animate). "first" is the first replay in the process (fonts,
sprites and the palette made then), "cold" each game with the board picture's caches
emptied (the worst a running bot meets). Prints moves, GIF size and seconds for each.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # devtools, from a checkout

from bot.pictures import board_picture
from bot.pictures import replay as animation
from bot.store.store import Store
from bot.views import history
from devtools.sample_replay import stored_game


async def make(store: Store, game_id: int) -> tuple[int, float, int, str, int]:
    """The replay's GIF as /apophis replay makes it: its size and the seconds it took, and
    the game's moves, rules and players."""
    start = time.perf_counter()
    record, log = await store.get_game(game_id), await store.game_log(game_id)
    replayed = history.replay(record, log, "en")
    gif = animation.animate(history.frames(replayed))
    took = time.perf_counter() - start
    return len(gif), took, len(log), record.rules, len(record.starting_players)


def forget() -> None:
    board_picture.forget(bands=True, parts=True)


def report(name: str, runs: list[tuple[int, float, int, str, int]]) -> None:
    for number, (size, seconds, moves, rules, players) in enumerate(runs, 1):
        print(
            f"{name:<6} game {number:>3}: {moves:>4} moves, {rules:<8} {players} players  "
            f"{size / 1024:7.1f} KB  {seconds:5.2f} s"
        )
    sizes, times = [run[0] for run in runs], [run[1] for run in runs]
    print(
        f"{name:<6} mean {statistics.fmean(sizes) / 1024:7.1f} KB, largest {max(sizes) / 1024:7.1f}"
        f" KB; mean {statistics.fmean(times):5.2f} s, slowest {max(times):5.2f} s\n"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=100)
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "replays.sqlite3")
        try:
            games = [await stored_game(store, seed, args.actions) for seed in range(args.games)]
            report("first", [await make(store, games[0])])
            cold = []
            for game_id in games:
                forget()
                cold.append(await make(store, game_id))
            report("cold", cold)
        finally:
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
