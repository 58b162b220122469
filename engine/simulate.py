"""Whole games played by a policy against a modelled clock, for the balance lab and tests.

Real time is modelled, not measured: every turn takes `seconds_per_turn`, a discard
or a reroll decision a third of that, and each reshuffle its 10 seconds; the game
is lost the moment the clock would pass its length. Everything is deterministic for
a given seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.crew import decide
from engine.game import RESHUFFLE_SECONDS, Game, Outcome, Phase
from engine.greedy import greedy_action
from engine.playout import choose_action

#: A policy: (game, seconds left, the game's own generator) -> the active player's action.
#: Only the random playout policy reads the game itself (it, too, looks only at the view).
Policy = Callable[[Game, float, random.Random], dict[str, Any]]

#: Minutes on the clock for each difficulty.
DIFFICULTIES = {"beginner": 15, "easy": 12, "medium": 10, "hard": 8}
#: A follow-up decision (discard, reroll or accept) takes this share of a turn.
FOLLOW_UP = 1 / 3


def crew_policy(game: Game, time_left: float, rng: random.Random) -> dict[str, Any]:
    decision = decide(game.view_for(game.active_player), time_left)
    assert decision is not None
    return decision.action


def greedy_policy(game: Game, time_left: float, rng: random.Random) -> dict[str, Any]:
    action = greedy_action(game.view_for(game.active_player))
    assert action is not None
    return action


def random_policy(game: Game, time_left: float, rng: random.Random) -> dict[str, Any]:
    return choose_action(game, rng)


POLICIES: dict[str, Policy] = {
    "crew": crew_policy,
    "greedy": greedy_policy,
    "random": random_policy,
}


@dataclass(frozen=True, slots=True)
class Result:
    outcome: Outcome
    seconds: float  # game time used
    turns: int


def play(
    policy: Policy,
    players: int,
    rules: str,
    minutes: float,
    seconds_per_turn: float,
    seed: int,
) -> Result:
    """One game from its seed to the end, every seat played by `policy`."""
    game = Game.new(list(range(1, players + 1)), rules, seed=seed)
    rng = random.Random(seed)
    limit = minutes * 60.0
    elapsed = 0.0
    while not game.is_over:
        if game.phase is Phase.RESHUFFLE:
            cost = RESHUFFLE_SECONDS
            action: dict[str, Any] = {"type": "finish_reshuffle"}
        else:
            follow_up = game.phase in (Phase.DISCARD, Phase.REROLL)
            cost = seconds_per_turn * (FOLLOW_UP if follow_up else 1.0)
            action = policy(game, limit - elapsed, rng)
        if elapsed + cost > limit:
            game.clock_expired()
            break
        elapsed += cost
        game.apply(action)
    return Result(game.outcome, elapsed, game.turn)  # type: ignore[arg-type]
