"""A simple, fair-minded automatic player, for scripted games, benchmarks and tests.

It decides from the acting player's view alone (their own hand and the table), so
it cannot cheat, and it takes its randomness from the caller's generator so a
playout is reproducible.
"""

from __future__ import annotations

import random
from typing import Any

from engine.cards import Colour, Rules, Size, colour_of
from engine.game import Game
from engine.moves import legal_moves
from engine.views import Phase, PlayerView

R, Y, B, G = Colour.RED, Colour.YELLOW, Colour.BLUE, Colour.GREEN
L, M, S = Size.LARGE, Size.MEDIUM, Size.SMALL

#: Rockets worth launching (bottom first): fuelled, with warheads and some guidance.
PLANS = [
    [(R, L), (Y, M), (B, S)],
    [(R, M), (Y, M), (B, S)],
    [(R, L), (Y, L), (B, M), (G, M)],
    [(Y, L), (R, L), (B, M), (R, S)],
]
#: In basic rules green deflecting warheads are worth a rocket of their own.
BASIC_PLANS = [*PLANS, [(G, L), (Y, M), (B, S)], [(G, L), (R, L), (Y, L), (B, M)]]


def choose_action(view: PlayerView, rng: random.Random) -> dict[str, Any]:
    """A sensible action for the viewing player, who must act now, as data for `Game.apply`.

    While a reshuffle is under way the answer is the bot's own `finish_reshuffle`.
    """
    table, hand, player = view.table, list(view.hand), view.player
    if table.phase is Phase.RESHUFFLE:
        return {"type": "finish_reshuffle"}
    moves = legal_moves(view)
    if moves.discard:
        return {"type": "discard", "player": player, "cards": rng.sample(hand, moves.discard)}
    if moves.reroll:
        return {"type": rng.choice(("reroll", "reroll", "accept")), "player": player}

    draw = {"type": "draw", "player": player}
    if table.sequence:
        play = _one_per_colour(list(moves.launch))
        if play and rng.random() < 0.9:
            return {"type": "launch", "player": player, "cards": play}
        return rng.choice([draw, draw, draw, {"type": "scrap", "player": player}])

    rocket = list(table.rocket)
    candidates = BASIC_PLANS if table.rules is Rules.BASIC else PLANS
    plans = [plan for plan in candidates if plan[: len(rocket)] == rocket]
    if rng.random() < 0.1:
        plans = [[*rocket, (c, s)] for c, s in table.depot]  # now and then, improvise
    if not plans:
        return {"type": "scrap", "player": player}
    if any(plan == rocket for plan in plans):
        play = _one_per_colour(list(moves.launch))
        return {"type": "launch", "player": player, "cards": play} if play else draw
    for colour, size in rng.sample([plan[len(rocket)] for plan in plans], len(plans)):
        if (colour, size) in moves.builds:
            return {"type": "build", "player": player, "colour": colour.value, "size": int(size)}
    return draw


def _one_per_colour(cards: list[str]) -> list[str]:
    chosen: dict[Colour, str] = {}
    for card in cards:
        chosen.setdefault(colour_of(card), card)
    return list(chosen.values())


def play_out(game: Game, rng: random.Random, max_actions: int = 1000) -> int:
    """Play automatically until the game ends (the clock runs out after `max_actions`).

    Returns the number of actions applied.
    """
    applied = 0
    while not game.is_over:
        if applied >= max_actions:
            game.clock_expired()
        else:
            player = game.active_player
            assert player is not None  # the game is not over
            game.apply(choose_action(game.view_for(player), rng))
        applied += 1
    return applied
