"""A simple, fair-minded automatic player, for scripted games, benchmarks and tests.

It looks only at what the active player may see (their own hand and the table),
so it never cheats, and it takes its randomness from the caller's generator so a
playout is reproducible.
"""

from __future__ import annotations

import random
from typing import Any

from engine.cards import Colour, Size, colour_of
from engine.game import Game, Phase


def choose_action(game: Game, rng: random.Random) -> dict[str, Any]:
    """A sensible action for whoever must act now, as data for `Game.apply`.

    While a reshuffle is under way the answer is the bot's own `finish_reshuffle`.
    """
    if game.phase is Phase.RESHUFFLE:
        return {"type": "finish_reshuffle"}
    player = game.active_player
    view = game.view_for(player)
    table, hand = view.table, list(view.hand)
    if game.phase is Phase.DISCARD:
        return {
            "type": "discard",
            "player": player,
            "cards": rng.sample(hand, table.pending["count"]),
        }
    if game.phase is Phase.REROLL:
        return {"type": rng.choice(("reroll", "reroll", "accept")), "player": player}

    options: list[dict[str, Any]] = [{"type": "draw", "player": player}]
    if table.sequence:
        missing = {colour_of(c) for c in hand} - set(table.sequence)
        play = _one_per_colour([c for c in hand if colour_of(c) in missing])
        if play:
            options += [{"type": "launch", "player": player, "cards": play}] * 4
        options.append({"type": "scrap", "player": player})
        return rng.choice(options)

    points = table.points
    total = sum(points.values())
    ready = total > 0 and 4 * points[Colour.YELLOW] >= total and points[Colour.RED] > 0
    if ready and rng.random() < 0.7:
        play = _one_per_colour(hand)
        if play:
            return {"type": "launch", "player": player, "cards": play}
    top = table.rocket[-1][1] if table.rocket else Size.LARGE
    for colour, size in table.depot:
        affordable = sum(1 for c in hand if colour_of(c) is colour) >= size
        if affordable and size <= top:
            build = {"type": "build", "player": player, "colour": colour.value, "size": int(size)}
            weight = 1 + int(size) + (2 if colour in (Colour.RED, Colour.YELLOW) else 0)
            options += [build] * weight
    if table.rocket and rng.random() < 0.05:
        options.append({"type": "scrap", "player": player})
    return rng.choice(options)


def _one_per_colour(cards: list[str]) -> list[str]:
    chosen: dict[Colour, str] = {}
    for card in cards:
        chosen.setdefault(colour_of(card), card)
    return list(chosen.values())


def play_out(game: Game, rng: random.Random, max_actions: int = 300) -> int:
    """Play automatically until the game ends (the clock runs out after `max_actions`).

    Returns the number of actions applied.
    """
    applied = 0
    while not game.is_over:
        if applied >= max_actions:
            game.clock_expired()
        else:
            game.apply(choose_action(game, rng))
        applied += 1
    return applied
