"""How fast the rules engine plays: random complete games a second, on one core.

Run: .venv/bin/python benchmarks/engine_bench.py [--games N]
Each game is played by engine.playout (both rule sets, 1 to 4 players) to its end.
Three figures: whole games a second (policy included), engine actions a second
(`Game.apply` alone), and actions a second with a save after each (what the bot does).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import time
from typing import Any

from engine import Game, Rules
from engine.playout import choose_action


def record_games(count: int) -> list[tuple[Game, list[dict]]]:
    """Play `count` games once, keeping each start and its action log."""
    games = []
    for seed in range(count):
        rules = Rules.BASIC if seed % 2 else Rules.ADVANCED
        start = Game.new(list(range(seed % 4 + 1)), rules, seed=seed)
        game, rng = Game.restore(start.save()), random.Random(seed)
        log: list[dict[str, Any]] = []
        while (player := game.active_player) is not None and len(log) < 1000:
            action = choose_action(game.view_for(player), rng)
            game.apply(action)
            log.append(action)
        games.append((start, log))
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    args = parser.parse_args()

    started = time.perf_counter()
    recorded = record_games(args.games)
    whole = time.perf_counter() - started
    actions = sum(len(log) for _, log in recorded)

    def replay(save_each: bool) -> float:
        starts = [start.save() for start, _ in recorded]
        began = time.perf_counter()
        for data, (_, log) in zip(starts, recorded, strict=True):
            game = Game.restore(data)
            for action in log:
                game.apply(action)
                if save_each:
                    json.dumps(game.save())
        return time.perf_counter() - began

    apply_only, with_save = replay(False), replay(True)
    python = platform.python_version()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cpus, Python {python}")
    print(f"{'games played':<34}{args.games:>12,}")
    print(f"{'actions in them':<34}{actions:>12,}")
    print(f"{'complete games / s (with policy)':<34}{args.games / whole:>12,.1f}")
    print(f"{'actions / s, apply only':<34}{actions / apply_only:>12,.0f}")
    print(f"{'actions / s, apply + JSON save':<34}{actions / with_save:>12,.0f}")


if __name__ == "__main__":
    main()
