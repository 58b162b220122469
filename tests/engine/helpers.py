"""Building exact game positions for rule tests."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import settings

from engine import Colour, Game, ScriptedRandom, Size, full_deck

#: Players of the rule tests, by the names their docstrings give them (EVE is never seated).
ANN, BOB, CID, DEE, EVE = 1, 2, 3, 4, 5


def table(
    players: Sequence = (ANN, BOB),
    rules: str = "basic",
    hands: Sequence[Sequence[str]] | None = None,
    deck: Sequence[str] | None = None,
    discard: Sequence[str] = (),
    rocket: Sequence[tuple[str, int]] = (),
    sequence: Sequence[str] = (),
    active: int = 0,
    damage: int = 0,
    counters: int = 0,
    dice: Sequence[int] = (),
    builders: Sequence | None = None,
    sequence_by: Sequence | None = None,
) -> Game:
    """A game in the given position, all 48 cards accounted for.

    `deck` lists the cards drawn next first; without it the deck holds every card not
    placed elsewhere, with it those go to the discard pile. Dice come from `dice`.
    `builders` names who built each rocket section (bottom first) and `sequence_by` who
    played each sequence card; without them nobody is known to have.
    """
    game = Game.new(list(players), rules, seed=1, start_player=players[active])
    if hands is not None:
        game.hands = [list(h) for h in hands]
    placed = [c for h in game.hands for c in h] + list(discard) + list(sequence) + list(deck or ())
    assert len(placed) == len(set(placed)), "a card placed twice"
    rest = [c for c in full_deck() if c not in placed]
    if deck is None:
        game.deck, game.discard_pile = rest, list(discard)
    else:
        game.deck, game.discard_pile = list(reversed(deck)), list(discard) + rest
    game.sequence = list(sequence)
    game.rocket = [(Colour(c), Size(s)) for c, s in rocket]
    game.builders = list(builders) if builders is not None else [None] * len(game.rocket)
    game.sequence_players = (
        list(sequence_by) if sequence_by is not None else [None] * len(game.sequence)
    )
    assert len(game.builders) == len(game.rocket) and len(game.sequence_players) == len(sequence)
    game.depot -= set(game.rocket)
    game.damage, game.counters = damage, counters
    game.rng = ScriptedRandom(dice, state=99)
    return game


def all_cards(game: Game) -> list[str]:
    """Every card wherever it is (deck, discard pile, hands, launch sequence)."""
    return game.deck + game.discard_pile + [c for h in game.hands for c in h] + game.sequence


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def examples(full: int) -> int:
    """Hypothesis's `max_examples` for a property that runs `full` examples in CI: `full`
    under the "ci" profile, the active profile's count otherwise (see tests/conftest.py)."""
    if settings.get_current_profile_name() == "ci":
        return full
    return min(full, settings.default.max_examples)
