"""Whole games played by a policy, timed by a model of real time, for the balance lab and tests.

A game is played once, with no clock, until it is won or `max_actions` have been
taken; the record says what it took to win (turns, follow-up decisions, reshuffles),
so one game answers for every clock length and pace: at `pace` seconds a turn (a
discard, reroll or accept decision a third of that, each reshuffle its 10 seconds) the
team wins if that time fits on the clock. The crew policy plays as if no clock were
running. Everything is deterministic for a given seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.crew import decide
from engine.game import RESHUFFLE_SECONDS, Game, Outcome, Phase, PlayerView
from engine.greedy import greedy_action
from engine.playout import choose_action

#: A policy: (the acting player's view, seconds left or None, a generator) -> their action.
#: It is shown only what that player may see, and ignores the arguments it does not use.
Policy = Callable[[PlayerView, float | None, random.Random], dict[str, Any]]

#: A follow-up decision (discard, reroll or accept) takes this share of a turn.
FOLLOW_UP = 1 / 3


def crew_policy(view: PlayerView, time_left: float | None, rng: random.Random) -> dict[str, Any]:
    decision = decide(view, time_left)
    assert decision is not None
    return decision.action


def greedy_policy(view: PlayerView, time_left: float | None, rng: random.Random) -> dict[str, Any]:
    action = greedy_action(view)
    assert action is not None
    return action


def random_policy(view: PlayerView, time_left: float | None, rng: random.Random) -> dict[str, Any]:
    return choose_action(view, rng)


POLICIES: dict[str, Policy] = {
    "crew": crew_policy,
    "greedy": greedy_policy,
    "random": random_policy,
}


@dataclass(frozen=True, slots=True)
class Record:
    """One game as played: how it ended and what it took to get there."""

    outcome: Outcome | None  # DESTROYED or DEFLECTED, or None: not won within the actions
    turns: int  # play actions (draw, build, launch, scrap)
    follow_ups: int  # discard, reroll and accept decisions
    reshuffles: int

    def seconds(self, pace: float) -> float:
        """Game time taken at `pace` seconds a turn."""
        return (self.turns + self.follow_ups * FOLLOW_UP) * pace + self.reshuffles * (
            RESHUFFLE_SECONDS
        )

    def outcome_within(self, minutes: float, pace: float) -> Outcome:
        """How the game ends on a clock of `minutes` at `pace` seconds a turn."""
        if self.outcome is None or self.seconds(pace) > minutes * 60:
            return Outcome.LOST
        return self.outcome

    def slowest_pace(self, minutes: float) -> float:
        """The most seconds a turn with which it is still won on that clock (0: never)."""
        if self.outcome is None:
            return 0.0
        spare = minutes * 60 - self.reshuffles * RESHUFFLE_SECONDS
        return max(spare, 0.0) / (self.turns + self.follow_ups * FOLLOW_UP)


def record(policy: Policy, players: int, rules: str, seed: int, max_actions: int) -> Record:
    """Play one game from its seed, every seat taken by `policy`, with no clock."""
    game = Game.new(list(range(1, players + 1)), rules, seed=seed)
    rng = random.Random(seed)
    turns = follow_ups = reshuffles = 0
    while not game.is_over and turns + follow_ups < max_actions:
        if game.phase is Phase.RESHUFFLE:
            reshuffles += 1
            game.finish_reshuffle()
            continue
        if game.phase in (Phase.DISCARD, Phase.REROLL):
            follow_ups += 1
        else:
            turns += 1
        game.apply(policy(game.view_for(game.active_player), None, rng))
    return Record(game.outcome if game.is_over else None, turns, follow_ups, reshuffles)
