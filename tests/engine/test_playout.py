"""Complete games played from a script, with no Discord code anywhere."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine import Game, Outcome, Rules
from engine.playout import play_out


@pytest.mark.slow
def test_scripted_games_reach_every_ending_of_both_rule_sets():
    endings: Counter = Counter()
    for seed in range(160):
        rules = Rules.BASIC if seed % 2 else Rules.ADVANCED
        game = Game.new(list(range(seed % 4 + 1)), rules, seed=seed)
        actions = play_out(game, random.Random(seed))
        assert game.is_over and actions > 0
        endings[(rules, game.outcome)] += 1
    assert endings[(Rules.BASIC, Outcome.DESTROYED)] > 0
    assert endings[(Rules.BASIC, Outcome.DEFLECTED)] > 0
    assert endings[(Rules.ADVANCED, Outcome.DESTROYED)] > 0
    assert endings[(Rules.BASIC, Outcome.LOST)] > 0
    assert endings[(Rules.ADVANCED, Outcome.LOST)] > 0
    assert endings[(Rules.ADVANCED, Outcome.DEFLECTED)] == 0


def test_a_playout_is_reproducible():
    one, two = Game.new([1, 2, 3], seed=9), Game.new([1, 2, 3], seed=9)
    play_out(one, random.Random(4))
    play_out(two, random.Random(4))
    assert one.save() == two.save()
