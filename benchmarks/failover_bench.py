"""Failover benchmark: the time from a kill -9 of a process to the first move its standby answers.

Run: .venv/bin/python benchmarks/failover_bench.py [--rounds N]

Each round, on a fresh database of a throwaway PostgreSQL server (devtools/pgserver.py)
and a fresh fake Discord (4 shards): a bot process runs shards 0-1, a standby
(APOPHIS_SHARD_IDS=standby) watches, and a game is under way in a server of shard 0 and
one of shard 1. The process is killed with SIGKILL; each game's next move is made as
soon as the standby's gateway session has its shard (as a player trying again would),
and timed from the kill to its answer. Each move is checked to have moved its game on
by exactly one version. Prints each round and the worst. The standby looks at the
leases every 2 s, then logs in shard by shard, one IDENTIFY every 5 s across the bot:
shard 1 is answered about 5 s after shard 0.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.app import on_fast_loop
from bot.store.store import Store
from devtools.fakediscord import FakeDiscord
from devtools.pgserver import PostgresServer, unavailable_reason
from devtools.processes import BotProcess, Place, Scene, answered_after_kill, open_game

#: Where request bodies would be checked against Discord's OpenAPI description: not here.
NO_OPENAPI = Path("/nonexistent/discord-openapi.json")
#: The goal: a standby answers within this many seconds of the kill.
GOAL_SECONDS = 30.0


async def one_round(server: PostgresServer) -> list[float]:
    """A kill -9 and the standby's takeover: the seconds to the answer in shard 0 and 1."""
    url = server.create_database()
    async with FakeDiscord(openapi_path=NO_OPENAPI) as fake:
        scenes: list[Scene] = [Place(fake, shard) for shard in (0, 1)]
        store = await Store.open(url)
        processes: list[BotProcess] = []
        try:
            owner = await BotProcess.start(fake, url, "0-1")
            standby = await BotProcess.launch(fake, url, "standby")
            processes += [owner, standby]
            await standby.said("standing by for shards 0, 1")
            for scene in scenes:
                await open_game(scene, store)
            return await answered_after_kill(scenes, store, owner)
        finally:
            for process in processes:
                await process.stop()
            await store.close()


async def bench(rounds: int) -> int:
    with PostgresServer() as server:
        worst = 0.0
        for k in range(1, rounds + 1):
            seconds = await one_round(server)
            worst = max(worst, *seconds)
            shown = ", ".join(f"shard {s}: {t:.1f} s" for s, t in enumerate(seconds))
            print(f"round {k}: kill -9 to the first move answered by the standby: {shown}")
    verdict = "within" if worst < GOAL_SECONDS else "OVER"
    print(f"worst of {rounds} rounds: {worst:.1f} s ({verdict} the goal of {GOAL_SECONDS:g} s)")
    return 0 if worst < GOAL_SECONDS else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="kills to measure (default 3)")
    args = parser.parse_args()
    reason = unavailable_reason()
    if reason is not None:
        print(f"failover_bench: {reason}", file=sys.stderr)
        return 2
    return on_fast_loop(bench(args.rounds))


if __name__ == "__main__":
    sys.exit(main())
