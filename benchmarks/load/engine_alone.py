"""The engine alone: actions a second through Game.apply, with a save after each."""

from __future__ import annotations

import random
import time
from typing import Any

import orjson

from engine import Game
from engine.playout import choose_action


def run_engine(games: int = 300) -> tuple[int, float]:
    """Actions a second through Game.apply with a save (orjson, as the store does)."""
    logs = []
    for seed in range(games):
        start = Game.new(list(range(4)), "advanced" if seed % 2 else "basic", seed=seed)
        game, rng = Game.restore(start.save()), random.Random(seed)
        log: list[dict[str, Any]] = []
        while (player := game.active_player) is not None and len(log) < 1000:
            action = choose_action(game.view_for(player), rng)
            game.apply(action)
            log.append(action)
        logs.append((start.save(), log))
    actions = sum(len(log) for _, log in logs)
    began = time.perf_counter()
    for data, log in logs:
        game = Game.restore(data)
        for action in log:
            game.apply(action)
            orjson.dumps(game.save())
    return actions, actions / (time.perf_counter() - began)
