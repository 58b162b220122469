"""Thousands of random games, legal and illegal moves mixed, checking invariants each step."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    ACTIONS,
    HAND_LIMIT,
    Game,
    IllegalMove,
    Outcome,
    Phase,
    Rules,
    colour_of,
    full_deck,
)
from engine.cards import ALL_SECTIONS
from engine.events import SectionBuilt, TurnStarted
from engine.playout import choose_action
from tests.engine.helpers import all_cards, examples

DECK = full_deck()
GHOST = 99  # never seated


def wild_action(game: Game, rng: random.Random) -> dict[str, Any]:
    """An arbitrary action, usually illegal: wrong player, random cards, odd arguments."""
    kind = rng.choice([a for a in ACTIONS if a not in ("clock_expired", "end")])
    action: dict[str, Any] = {"type": kind}
    if kind not in ("finish_reshuffle", "skip_turn"):
        action["player"] = rng.choice([*game.players, GHOST])
    if kind in ("launch", "discard"):
        action["cards"] = rng.sample(DECK, rng.randint(0, 4))
    if kind == "build":
        action["colour"] = rng.choice(["green", "red", "blue", "yellow", "pink"])
        action["size"] = rng.choice([1, 2, 3, 4, "large", "medium", "small"])
        if rng.random() < 0.3:
            action["cards"] = rng.sample(DECK, rng.randint(0, 3))
    if kind == "take_seat":  # someone new, into a seat taken or left (or one never there)
        action["player"] = GHOST + 1 + rng.randrange(3)
        if rng.random() < 0.7:
            action["seat_of"] = rng.choice([*game.players, GHOST])
    if kind in ("skip_turn", "remove_player", "take_seat") and rng.random() < 0.8:
        action = {"type": "draw", "player": GHOST}  # keep games from emptying too fast
    return action


def check_invariants(game: Game, events) -> None:
    assert sorted(all_cards(game)) == sorted(DECK)
    assert len(game.depot) + len(game.rocket) == 12
    assert game.depot.isdisjoint(game.rocket)
    assert set(game.depot) | set(game.rocket) == set(ALL_SECTIONS)
    sizes = [size for _, size in game.rocket]
    assert sizes == sorted(sizes, reverse=True), "a section sits on a smaller one"
    suits = [colour_of(c) for c in game.sequence]
    assert len(suits) == len(set(suits))
    assert len(game.sequence) <= (4 if game.phase is Phase.REROLL else 3) or game.is_over
    if game.sequence:
        assert game.rocket
    # who built each section and played each launch card, beside them
    assert len(game.builders) == len(game.rocket)
    assert len(game.sequence_players) == len(game.sequence)
    for event in events:
        if isinstance(event, SectionBuilt):
            assert game.builders[-1] == event.player or not game.rocket
    if any(isinstance(e, TurnStarted) for e in events):
        assert all(len(h) <= HAND_LIMIT for h in game.hands), "turn passed over the limit"
    if game.phase is Phase.PLAY:
        assert all(len(h) <= HAND_LIMIT for h in game.hands)
    assert 0 <= game.damage <= 3
    assert game.apophis_value == 3 - game.damage
    assert 0 <= game.counters <= 5
    if game.rules is Rules.ADVANCED:
        assert game.counters == 0
    assert (game.phase is Phase.OVER) == (game.outcome is not None)
    assert (game.outcome is Outcome.DESTROYED) == (game.damage == 3)
    assert (game.outcome is Outcome.DEFLECTED) == (game.counters == 5)
    assert 1 <= len(game.players) <= 4 or game.outcome is Outcome.ABANDONED


def replay(start: dict[str, Any], log: list[dict[str, Any]]) -> Game:
    game = Game.restore(start)
    for action in log:
        game.apply(action)
    return game


@pytest.mark.slow
@settings(
    max_examples=examples(2000),  # in CI; the dev profile's few elsewhere
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    players=st.integers(1, 4),
    rules=st.sampled_from(list(Rules)),
    seed=st.integers(0, 2**64 - 1),
    moves=st.integers(0, 2**32),
    wildness=st.floats(0, 0.6),
    length=st.integers(1, 250),
)
def test_random_games_keep_every_invariant(players, rules, seed, moves, wildness, length):
    game = Game.new(list(range(1, players + 1)), rules, seed=seed)
    start = game.save()
    rng = random.Random(moves)
    log: list[dict[str, Any]] = []
    midpoint: tuple[int, dict[str, Any]] | None = None
    check_invariants(game, [])
    for _ in range(length):
        if game.is_over:
            break
        action = (
            wild_action(game, rng)
            if rng.random() < wildness
            else choose_action(game.view_for(game.active_player), rng)
        )
        before = game.save()
        try:
            events = game.apply(action)
        except IllegalMove:
            assert game.save() == before, f"illegal {action} changed the game"
            continue
        log.append(action)
        check_invariants(game, events)
        saved = game.save()
        assert Game.restore(saved).save() == saved
        if midpoint is None and rng.random() < 0.05:
            midpoint = (len(log), saved)
    assert replay(start, log).save() == game.save()
    if midpoint is not None:
        done, saved = midpoint
        assert replay(saved, log[done:]).save() == game.save()
