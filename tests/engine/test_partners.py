"""The population of teammates (engine.partners): every style plays whole games legally and
deterministically, beside anyone, and shows its defining habit in a scripted position."""

from __future__ import annotations

import random

import pytest

from engine import Game, Phase
from engine.events import LaunchStarted, RerollOffered, SequenceExtended
from engine.partners import STYLES
from engine.simulate import POLICIES, record
from engine.standin import standin_action
from tests.engine.helpers import ANN, BOB, table

#: Whom each style sits beside in the legality test: random moves (varied positions),
#: the crew, the stand-in, greedy, and every style.
OTHERS = ("random", "crew", "standin", "greedy", *STYLES)


@pytest.mark.parametrize("name", STYLES)
def test_a_team_of_one_style_plays_its_games_to_the_end(name):
    """With no clock a team of one style wins in the end: it never stalls, and the engine
    (which refuses an illegal action) accepted every one of its actions."""
    for seed in range(4):
        for players in (1, 2, 3, 4):
            rules = ("basic", "advanced")[(seed + players) % 2]
            result = record(POLICIES[name], players, rules, seed, 3000)
            assert result.outcome is not None and result.outcome.won


@pytest.mark.parametrize("name", STYLES)
def test_each_style_plays_legally_and_deterministically_beside_anyone(name):
    """In seats 1 and 3 beside each other policy: every action applies, the same view gives
    the same action, nobody else is asked to act, and every phase it meets is answered
    (a discard and a reroll decision among them)."""
    action = STYLES[name]
    met: set[Phase] = set()
    for seed, other in enumerate(OTHERS * 2):
        rules = ("basic", "advanced")[seed % 2]
        players = 2 + seed % 3
        rng = random.Random(seed)
        game = Game.new(list(range(1, players + 1)), rules, seed=seed)
        for _ in range(300):
            if game.is_over:
                break
            if game.phase is Phase.RESHUFFLE:
                assert action(game.view_for(1)) is None
                game.finish_reshuffle()
                continue
            player = game.active_player
            idle = player % players + 1  # someone whose move it is not
            if player % 2 == 1:
                view = game.view_for(player)
                chosen = action(view)
                assert chosen is not None and chosen == action(view)
                assert action(game.view_for(idle)) is None
                met.add(game.phase)
            else:
                chosen = POLICIES[other](game.view_for(player), None, rng)
            game.apply(chosen)
        if game.is_over:
            assert action(game.view_for(1)) is None
    assert met == {Phase.PLAY, Phase.DISCARD, Phase.REROLL}


@pytest.mark.parametrize("name", [n for n in STYLES if n != "builder"])
def test_only_the_big_builder_ever_scraps(name):
    for seed in range(3):
        game = Game.new([1, 2], "basic", seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.turn < 200:
            if game.phase is Phase.RESHUFFLE:
                game.finish_reshuffle()
                continue
            view = game.view_for(game.active_player)
            if game.active_player == 1:
                chosen = STYLES[name](view)
                assert chosen is not None and chosen["type"] != "scrap"
            else:
                chosen = POLICIES["random"](view, None, rng)
            game.apply(chosen)


def ann(game: Game, name: str) -> dict:
    chosen = STYLES[name](game.view_for(ANN))
    assert chosen is not None
    return chosen


# ------------------------------------------------------------ the impatient launcher


def test_the_impatient_launcher_launches_once_the_pad_passes_the_fuel_check():
    """Bob's medium red and small yellow pass the fuel check and carry a warhead: Ann plays
    every suit she holds at once, and the rocket launches, guidance or not."""
    game = table(
        rocket=[("red", 2), ("yellow", 1)],
        builders=[BOB, BOB],
        hands=[["7H", "2D", "KS", "4C", "9H"], ["6H"]],
    )
    chosen = ann(game, "impatient")
    assert chosen == {"type": "launch", "player": ANN, "cards": ["4C", "7H", "2D", "KS"]}
    assert any(isinstance(e, LaunchStarted) for e in game.apply(chosen))
    # The stand-in, holding the same cards, builds on towards its own rocket.
    assert (
        standin_action(
            table(
                rocket=[("red", 2), ("yellow", 1)], hands=[["7H", "2D", "KS", "4C", "9H"], ["6H"]]
            ).view_for(ANN)
        )["type"]
        != "launch"
    )


def test_the_impatient_launcher_aims_at_a_warhead_and_just_enough_fuel():
    """A medium yellow alone passes the fuel check but carries no warhead: it builds the
    medium red of a quick rocket."""
    game = table(rocket=[("yellow", 2)], builders=[BOB], hands=[["7H", "8H", "2D"], ["6H"]])
    assert ann(game, "impatient") == {"type": "build", "player": ANN, "colour": "red", "size": 2}


def test_the_impatient_launcher_sends_a_rocket_off_its_plan_at_once():
    """A large blue fits none of its quick rockets: it starts the launch sequence."""
    game = table(rocket=[("blue", 3)], builders=[BOB], hands=[["7H", "8S", "2D"], ["6H"]])
    chosen = ann(game, "impatient")
    assert chosen == {"type": "launch", "player": ANN, "cards": ["7H", "2D", "8S"]}
    assert any(isinstance(e, SequenceExtended) for e in game.apply(chosen))


# ------------------------------------------------------------------ the big builder


def test_the_big_builder_builds_a_large_section_first():
    game = table(hands=[["2H", "3H", "4H", "5S", "6S"], ["6H"]])
    assert ann(game, "builder") == {"type": "build", "player": ANN, "colour": "red", "size": 3}


def test_the_big_builder_launches_late():
    """Large red and large yellow could fly already: it waits, drawing, for its large blue,
    and launches only the whole rocket."""
    cards = ["2H", "3S", "4C", "5D"]
    game = table(rocket=[("red", 3), ("yellow", 3)], builders=[BOB, ANN], hands=[cards, []])
    assert ann(game, "builder") == {"type": "draw", "player": ANN}
    whole = table(
        rocket=[("red", 3), ("yellow", 3), ("blue", 3), ("green", 2)], hands=[cards, ["6H"]]
    )
    assert ann(whole, "builder")["type"] == "launch"


def test_the_big_builder_keeps_a_rocket_off_its_list_fuelled():
    """On Bob's medium red it adds the largest section it can pay for that keeps the fuel
    check passed: the medium yellow, not the medium blue."""
    game = table(rocket=[("red", 2)], builders=[BOB], hands=[["2S", "3S", "4D", "5D"], ["6H"]])
    assert ann(game, "builder") == {"type": "build", "player": ANN, "colour": "yellow", "size": 2}


def test_the_big_builder_waits_for_yellow_rather_than_spoil_the_fuel():
    """Medium blue and medium green fail the fuel check: it pays for no small red nor small
    yellow (after which the rocket fails it still, and no yellow left that fits could fuel
    it) and draws, for the medium yellow; a rocket that nothing left would fuel, it scraps."""
    rocket = [("blue", 2), ("green", 2)]
    game = table(rocket=rocket, builders=[BOB, ANN], hands=[["2D", "3H", "4S"], ["6H"]])
    assert ann(game, "builder") == {"type": "draw", "player": ANN}
    paid = table(rocket=rocket, builders=[BOB, ANN], hands=[["2D", "3S", "4S"], ["6H"]])
    assert ann(paid, "builder") == {"type": "build", "player": ANN, "colour": "yellow", "size": 2}
    unfuelled = table(rocket=[*rocket, ("yellow", 1), ("red", 1)], hands=[["2D", "3H"], ["6H"]])
    assert ann(unfuelled, "builder") == {"type": "scrap", "player": ANN}


def test_the_big_builder_scraps_a_rocket_that_can_neither_grow_nor_fly():
    """Every small is on it (nothing more fits) and one yellow point cannot fuel seven."""
    rocket = [("blue", 3), ("red", 1), ("green", 1), ("yellow", 1), ("blue", 1)]
    game = table(rocket=rocket, builders=[BOB] * 5, hands=[["2S", "3S", "4D"], ["6H"]])
    assert ann(game, "builder") == {"type": "scrap", "player": ANN}


# ------------------------------------------------------------------------ the hoarder


def test_the_hoarder_keeps_a_launch_card_of_each_suit():
    """Drawing over the limit, it keeps one card of each suit where the stand-in keeps the
    cards of the sections still to build."""
    hands = [["5S", "6S", "7S", "2D", "3D"], ["6H"]]
    kept = {}
    for name, action in (("hoarder", STYLES["hoarder"]), ("standin", standin_action)):
        game = table(rocket=[("red", 3)], builders=[BOB], hands=hands, deck=["4C", "9H"])
        game.draw(ANN)
        assert game.phase is Phase.DISCARD
        chosen = action(game.view_for(ANN))
        game.apply(chosen)
        kept[name] = {card[-1] for card in game.hands[0]}
    assert kept["hoarder"] == {"C", "H", "D", "S"}
    assert "H" not in kept["standin"]


def test_the_hoarder_launches_all_at_once_or_not_at_all():
    """Its rocket is finished: with three suits it draws, with four it plays them together
    and the rocket launches."""
    rocket = [("red", 3), ("yellow", 2), ("blue", 2)]
    three = table(rocket=rocket, builders=[BOB] * 3, hands=[["2H", "3S", "4D"], ["6H"]])
    assert ann(three, "hoarder") == {"type": "draw", "player": ANN}
    four = table(rocket=rocket, builders=[BOB] * 3, hands=[["2H", "3S", "4D", "5C"], ["6H"]])
    chosen = ann(four, "hoarder")
    assert chosen == {"type": "launch", "player": ANN, "cards": ["5C", "2H", "4D", "3S"]}
    assert any(isinstance(e, LaunchStarted) for e in four.apply(chosen))


def test_the_hoarder_adds_to_a_teammates_sequence_only_to_complete_it():
    rocket = [("red", 3), ("yellow", 2), ("blue", 2)]
    position = {"rocket": rocket, "builders": [BOB] * 3, "sequence": ["5C"]}
    lacking = table(**position, sequence_by=[BOB], hands=[["2H", "4D", "7C"], ["6H"]])
    assert ann(lacking, "hoarder") == {"type": "draw", "player": ANN}
    able = table(**position, sequence_by=[BOB], hands=[["2H", "4D", "3S"], ["6H"]])
    assert ann(able, "hoarder")["cards"] == ["2H", "4D", "3S"]


# -------------------------------------------------------------- the outside partner


def test_the_planner_starts_a_launch_on_a_pad_that_fits_none_of_its_plans():
    """Bob's large green is in none of its plans: it does not adapt, it launches."""
    game = table(rocket=[("green", 3)], builders=[BOB], hands=[["2H", "3D", "4S", "5H"], ["6H"]])
    chosen = ann(game, "planner")
    assert chosen == {"type": "launch", "player": ANN, "cards": ["2H", "3D", "4S"]}
    game.apply(chosen)
    assert game.sequence == ["2H", "3D", "4S"] and game.rocket == [("green", 3)]


def test_the_planner_follows_its_own_plan():
    """A large yellow starts its first plan: the large red comes next, then it launches
    the finished rocket."""
    game = table(rocket=[("yellow", 3)], builders=[BOB], hands=[["2H", "3H", "4H"], ["6H"]])
    assert ann(game, "planner") == {"type": "build", "player": ANN, "colour": "red", "size": 3}
    done = table(rocket=[("yellow", 3), ("red", 3), ("blue", 2)], hands=[["2H", "3C"], ["6H"]])
    assert ann(done, "planner") == {"type": "launch", "player": ANN, "cards": ["3C", "2H"]}


# ---------------------------------------------------------------------- every style


@pytest.mark.parametrize("name", STYLES)
def test_every_style_completes_a_sequence_and_rerolls_a_failed_die(name):
    """Advanced rules: Bob's sequence lacks only spades; the style completes it; the launch
    roll explodes (6 + 2 fuel), a fail-safe allows a reroll, and the style takes it."""
    game = table(
        rules="advanced",
        rocket=[("red", 3), ("yellow", 2), ("green", 2)],
        builders=[BOB, ANN, BOB],
        sequence=["5C", "6H", "7D"],
        sequence_by=[BOB, BOB, BOB],
        hands=[["8S", "9S"], ["6S"]],
        dice=[6, 1, 6, 6],
    )
    chosen = ann(game, name)
    assert chosen == {"type": "launch", "player": ANN, "cards": ["8S"]}
    assert any(isinstance(e, RerollOffered) for e in game.apply(chosen))
    assert STYLES[name](game.view_for(BOB)) is None
    assert ann(game, name) == {"type": "reroll", "player": ANN}
    game.apply({"type": "reroll", "player": ANN})
    assert game.damage == 1
