"""legal_moves: the game accepts every move it lists, and refuses every move it leaves out."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game, IllegalMove, Phase, full_deck, legal_moves
from engine.cards import Colour, Size
from engine.playout import choose_action
from tests.engine.helpers import ANN, BOB, table

DECK = full_deck()
KINDS = ("draw", "build", "launch", "scrap", "discard", "reroll", "accept")


def accepted(game: Game, action: dict[str, Any]) -> bool:
    """Whether the game takes `action`, tried on a copy."""
    try:
        Game.restore(game.save()).apply(action)
    except IllegalMove:
        return False
    return True


def some_action(game: Game, player: Any, rng: random.Random) -> dict[str, Any]:
    """A move of any kind for `player`, often illegal: their own cards or any, any section."""
    hand = game.hands[game.players.index(player)]
    kind = rng.choice(KINDS)
    action: dict[str, Any] = {"type": kind, "player": player}
    pool = hand if hand and rng.random() < 0.7 else DECK
    if kind in ("launch", "discard"):
        action["cards"] = rng.sample(pool, min(rng.randint(0, 4), len(pool)))
    if kind == "build":
        action["colour"] = rng.choice([*Colour, "pink"])
        action["size"] = rng.choice([*Size, 4, "large", "small"])
        if rng.random() < 0.4:
            action["cards"] = rng.sample(pool, min(rng.randint(0, 3), len(pool)))
    if rng.random() < 0.05:
        action["colour" if kind != "build" else "extra"] = "red"  # malformed
    return action


def positions(seed: int, players: int, rules: str, length: int) -> list[Game]:
    """The positions of one automatic game, from its start on."""
    rng = random.Random(seed)
    game = Game.new(list(range(1, players + 1)), rules, seed=seed)
    seen = [Game.restore(game.save())]
    for _ in range(length):
        if game.is_over:
            break
        player = game.active_player
        assert player is not None
        game.apply(choose_action(game.view_for(player), rng))
        seen.append(Game.restore(game.save()))
    return seen


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(1, 4),
    rules=st.sampled_from(["basic", "advanced"]),
    length=st.integers(0, 120),
)
def test_the_moves_listed_are_exactly_those_the_game_accepts(seed, players, rules, length):
    rng = random.Random(seed)
    for game in positions(seed, players, rules, length)[::3]:
        for player in game.players:
            moves = legal_moves(game.view_for(player))
            listed = list(moves.actions())
            for action in listed:
                assert moves.allows(action), action
                assert accepted(game, action), action
            assert bool(moves) == bool(listed)
            for _ in range(12):
                action = some_action(game, player, rng)
                assert moves.allows(action) == accepted(game, action), action


def test_a_player_whose_turn_it_is_not_has_no_move():
    game = table()
    moves = legal_moves(game.view_for(BOB))
    assert not moves and list(moves.actions()) == []
    assert not moves.allows({"type": "draw", "player": BOB})
    game.clock_expired()
    assert not legal_moves(game.view_for(ANN)) and not legal_moves(game.view_for(BOB))


def test_builds_are_the_sections_paid_for_that_fit():
    game = table(hands=[["2H", "3H", "4S", "5C"], ["9C"]], rocket=[("yellow", 2)])
    moves = legal_moves(game.view_for(ANN))
    G, R, Y = Colour.GREEN, Colour.RED, Colour.YELLOW
    assert moves.builds == ((G, Size.SMALL), (R, Size.SMALL), (R, Size.MEDIUM), (Y, Size.SMALL))
    assert moves.launch == ("2H", "3H", "4S", "5C") and moves.scrap and moves.draw


def test_a_launch_sequence_under_way_takes_only_the_suits_it_lacks_and_no_section():
    game = table(hands=[["2H", "3H", "4S", "5C"], ["9C"]], rocket=[("red", 3)], sequence=["7S"])
    moves = legal_moves(game.view_for(ANN))
    assert moves.builds == () and moves.launch == ("2H", "3H", "5C")
    assert moves.allows({"type": "launch", "player": ANN, "cards": ["3H", "5C"]})
    assert not moves.allows({"type": "launch", "player": ANN, "cards": ["2H", "3H"]})
    assert not moves.allows({"type": "launch", "player": ANN, "cards": ["4S"]})


def test_a_discard_due_is_the_only_move():
    game = table(hands=[["2H", "3H", "4S", "5C", "6C"], ["9C"]], deck=["7D", "8D"])
    game.draw(ANN)
    assert game.phase is Phase.DISCARD
    moves = legal_moves(game.view_for(ANN))
    assert moves.discard == 2 and not moves.draw and not moves.builds
    assert [a["type"] for a in moves.actions()] == ["discard"]


def test_a_failed_die_waits_for_a_reroll_or_an_accept_and_nothing_else():
    """An advanced launch whose accuracy die (2) fails, with a fail-safe to reroll it."""
    game = table(
        rules="advanced",
        hands=[["2S", "9C"], ["3C"]],
        rocket=[("red", 3), ("green", 2), ("yellow", 2)],
        sequence=["2C", "2H", "2D"],
        dice=[1, 2, 6, 6],
    )
    game.launch(ANN, ["2S"])
    assert game.phase is Phase.REROLL
    moves = legal_moves(game.view_for(ANN))
    assert moves.reroll and not moves.draw and not moves.launch and not moves.scrap
    assert [a["type"] for a in moves.actions()] == ["reroll", "accept"]
    assert not legal_moves(game.view_for(BOB))
    rng = random.Random(7)
    for _ in range(60):
        for player in (ANN, BOB):
            action = some_action(game, player, rng)
            assert legal_moves(game.view_for(player)).allows(action) == accepted(game, action)
