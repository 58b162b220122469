"""Every rule of RULINGS.md, each at least once, with exact positions and scripted dice."""

from __future__ import annotations

import pytest

from engine import Colour, Game, IllegalMove, Outcome, Phase, ScriptedRandom, Size, full_deck
from engine.events import CardsDrawn, LaunchStep
from tests.engine.helpers import ANN, BOB, CID, DEE, EVE, all_cards, kinds, table


def refused(game: Game, code: str, action: dict) -> IllegalMove:
    """Apply an action that must be refused with `code`; the game must not change."""
    before = game.save()
    with pytest.raises(IllegalMove) as info:
        game.apply(action)
    assert info.value.code == code, info.value.message
    assert str(info.value)  # a reason in words
    # ...and the same reason as data, for translations: plain values only.
    assert all(type(v) in (str, int) for v in info.value.params.values()), info.value.params
    assert game.save() == before
    return info.value


def steps(events) -> dict[str, LaunchStep]:
    return {e.step: e for e in events if isinstance(e, LaunchStep)}


# ------------------------------------------------------------------- setup


@pytest.mark.parametrize(("count", "each"), [(1, 4), (2, 4), (3, 3), (4, 3)])
def test_deal_gives_four_cards_to_one_or_two_players_and_three_otherwise(count, each):
    game = Game.new(list(range(count)), seed=5)
    assert [len(h) for h in game.hands] == [each] * count
    assert sorted(all_cards(game)) == sorted(full_deck())
    assert len(game.depot) == 12 and not game.rocket
    assert game.apophis_value == 3 and game.counters == 0


def test_deck_is_48_cards_twelve_per_suit_aces_in_the_depot():
    deck = full_deck()
    assert len(deck) == len(set(deck)) == 48
    for colour in Colour:
        assert sum(1 for c in deck if c.endswith(colour.suit)) == 12
    assert not any(c.startswith("A") for c in deck)


def test_start_player_is_the_hosts_choice_or_random_and_reproducible():
    assert Game.new([ANN, BOB, CID], seed=1, start_player=CID).active_player == CID
    starts = {Game.new([ANN, BOB, CID], seed=s).active_player for s in range(40)}
    assert starts == {ANN, BOB, CID}
    one, two = Game.new([ANN, BOB], seed=77), Game.new([ANN, BOB], seed=77)
    assert one.save() == two.save()
    assert Game.new([ANN, BOB], seed=78).save() != one.save()


@pytest.mark.parametrize(
    ("players", "start", "code"),
    [
        ([], None, "player_count"),
        ([1, 2, 3, 4, 5], None, "player_count"),
        ([1, 1], None, "duplicate_player"),
        ([1, 2], 3, "not_seated"),
    ],
)
def test_bad_setups_are_refused(players, start, code):
    with pytest.raises(IllegalMove) as info:
        Game.new(players, start_player=start)
    assert info.value.code == code


# -------------------------------------------------------------------- turns


def test_only_the_active_player_acts_and_outsiders_are_refused():
    game = table()
    refused(game, "not_your_turn", {"type": "draw", "player": BOB})
    refused(game, "not_seated", {"type": "draw", "player": EVE})
    refused(game, "unknown_action", {"type": "cheat", "player": ANN})
    refused(game, "bad_action", {"type": "draw", "player": ANN, "cards": ["2H"]})


def test_a_malformed_action_says_which_argument_is_wrong():
    game = table()
    extra = refused(game, "bad_action", {"type": "draw", "player": ANN, "cards": ["2H"]})
    assert "'cards'" in extra.message
    missing = refused(game, "bad_action", {"type": "build", "player": ANN, "colour": "red"})
    assert "'size'" in missing.message
    assert "'self'" in refused(game, "bad_action", {"type": "scrap", "self": 1}).message


def test_turn_passes_in_seat_order_and_wraps():
    game = table(players=(ANN, BOB, CID), active=1)
    assert game.draw(BOB)[-1].player == CID
    assert game.draw(CID)[-1].player == ANN
    assert game.active_player == ANN and game.turn == 3


# --------------------------------------------------------------------- draw


def test_draw_takes_two_cards_one_at_a_time_from_the_top():
    game = table(hands=[["2H"], ["3H"]], deck=["4H", "5H", "6H"])
    events = game.draw(ANN)
    assert kinds(events) == ["cards_drawn", "turn_started"]
    assert events[0].cards == ("4H", "5H")
    assert game.hands[0] == ["2H", "4H", "5H"] and game.deck == ["6H"]


def test_over_the_hand_limit_the_player_chooses_the_discards_and_then_the_turn_ends():
    game = table(hands=[["2H", "3H", "4H", "5H"], []], deck=["6H", "7H"])
    events = game.draw(ANN)
    assert kinds(events) == ["cards_drawn", "discard_required"]
    assert game.phase is Phase.DISCARD and game.active_player == ANN
    refused(game, "must_discard", {"type": "draw", "player": ANN})
    refused(game, "must_discard", {"type": "scrap", "player": ANN})
    refused(game, "not_your_turn", {"type": "draw", "player": BOB})
    refused(game, "no_discard_due", {"type": "discard", "player": BOB, "cards": []})
    refused(game, "wrong_discard_count", {"type": "discard", "player": ANN, "cards": []})
    refused(game, "not_in_hand", {"type": "discard", "player": ANN, "cards": ["KS"]})
    refused(game, "card_twice", {"type": "discard", "player": ANN, "cards": ["2H", "2H"]})
    refused(game, "not_a_card", {"type": "discard", "player": ANN, "cards": ["1Z"]})
    events = game.discard(ANN, ["3H"])
    assert kinds(events) == ["cards_discarded", "turn_started"]
    assert sorted(game.hands[0]) == sorted(["2H", "4H", "5H", "6H", "7H"])
    assert game.discard_pile[-1] == "3H" and game.active_player == BOB


def test_a_draw_from_an_empty_deck_waits_for_a_ten_second_reshuffle():
    game = table(hands=[["2H"], ["3H"]], deck=[])
    discards = len(game.discard_pile)
    events = game.draw(ANN)
    assert kinds(events) == ["reshuffle_started"]
    assert events[0].seconds == 10 and events[0].cards == discards
    assert game.phase is Phase.RESHUFFLE and game.hands[0] == ["2H"]
    refused(game, "reshuffling", {"type": "draw", "player": ANN})
    refused(game, "reshuffling", {"type": "build", "player": ANN, "colour": "red", "size": 1})
    refused(game, "reshuffling", {"type": "draw", "player": BOB})
    events = game.finish_reshuffle()
    assert kinds(events) == ["reshuffle_finished", "cards_drawn", "turn_started"]
    assert events[0].deck_size == discards and len(game.hands[0]) == 3
    assert game.discard_pile == [] and len(game.deck) == discards - 2
    assert sorted(all_cards(game)) == sorted(full_deck())


def test_with_one_card_left_the_second_is_drawn_after_the_reshuffle():
    game = table(hands=[["2H"], ["3H"]], deck=["4H"])
    events = game.draw(ANN)
    assert kinds(events) == ["cards_drawn", "reshuffle_started"]
    assert events[0].cards == ("4H",)
    events = game.finish_reshuffle()
    assert kinds(events) == ["reshuffle_finished", "cards_drawn", "turn_started"]
    assert events[1].count == 1 and len(game.hands[0]) == 3


def test_finishing_a_reshuffle_that_is_not_under_way_is_refused():
    refused(table(), "no_reshuffle", {"type": "finish_reshuffle"})


# -------------------------------------------------------------------- build


def test_build_pays_size_cards_of_the_suit_and_takes_the_piece_from_the_depot():
    game = table(hands=[["2C", "3C", "4C", "5H"], []])
    events = game.build(ANN, "green", "large")
    assert kinds(events) == ["section_built", "turn_started"]
    assert events[0].cards == ("2C", "3C", "4C")
    assert game.rocket == [(Colour.GREEN, Size.LARGE)]
    assert (Colour.GREEN, Size.LARGE) not in game.depot
    assert game.hands[0] == ["5H"] and game.discard_pile[-3:] == ["2C", "3C", "4C"]


def test_build_with_chosen_cards():
    game = table(hands=[["2D", "9D", "KD"], []])
    game.build(ANN, Colour.BLUE, Size.SMALL, cards=["KD"])
    assert game.hands[0] == ["2D", "9D"]


def test_sections_sit_only_on_sections_at_least_as_large():
    game = table(hands=[["2H", "3H", "2D", "3D", "4D"], ["2S", "3S"]], rocket=[("yellow", 2)])
    refused(game, "too_large", {"type": "build", "player": ANN, "colour": "blue", "size": 3})
    game.build(ANN, "red", 2)  # medium on medium is fine
    game.build(BOB, "yellow", "small")
    assert [s for _, s in game.rocket] == [2, 2, 1]


def test_the_first_section_may_be_any_size_and_the_rocket_any_height():
    hands = [[r + s for s in "CHDS" for r in ("2", "3", "4", "5", "6", "7")], []]
    game = table(players=(ANN,), hands=hands[:1])
    for size in (3, 2, 1):
        for colour in Colour:
            game.build(ANN, colour, size)
    assert len(game.rocket) == 12 and not game.depot


def test_build_refusals():
    game = table(hands=[["2H", "3C", "4C"], []], rocket=[("red", 3)])
    refused(game, "not_in_depot", {"type": "build", "player": ANN, "colour": "red", "size": 3})
    refused(game, "not_enough_cards", {"type": "build", "player": ANN, "colour": "red", "size": 2})
    refused(
        game,
        "wrong_payment",
        {"type": "build", "player": ANN, "colour": "green", "size": 2, "cards": ["2H", "3C"]},
    )
    refused(
        game,
        "wrong_payment",
        {"type": "build", "player": ANN, "colour": "green", "size": 1, "cards": ["3C", "4C"]},
    )
    refused(game, "bad_colour", {"type": "build", "player": ANN, "colour": "pink", "size": 1})
    refused(game, "bad_size", {"type": "build", "player": ANN, "colour": "red", "size": 4})
    refused(game, "not_your_turn", {"type": "build", "player": BOB, "colour": "red", "size": 1})


def test_no_building_once_a_launch_sequence_is_under_way():
    game = table(hands=[["2C", "3H"], []], rocket=[("red", 3)], sequence=["5D"])
    refused(
        game, "sequence_under_way", {"type": "build", "player": ANN, "colour": "green", "size": 1}
    )


# ------------------------------------------------------------------- launch


def test_launch_sequence_is_held_across_turns_until_the_fourth_suit():
    # The example of the rule texts: hearts; diamond and spade; a draw; a club launches.
    hands = [["2H", "9C"], ["3D", "3S", "4D"], ["5H"], ["6C"]]
    game = table(
        players=(ANN, BOB, CID, DEE),
        hands=hands,
        rocket=[("red", 3), ("yellow", 2), ("blue", 1)],
        dice=[6, 6],
    )
    assert kinds(game.launch(ANN, ["2H"]))[0] == "sequence_extended"
    refused(game, "same_suit_twice", {"type": "launch", "player": BOB, "cards": ["3D", "4D"]})
    events = game.launch(BOB, ["3D", "3S"])
    assert events[0].colours == ("red", "blue", "yellow")
    refused(game, "suit_in_sequence", {"type": "launch", "player": CID, "cards": ["5H"]})
    game.draw(CID)
    events = game.launch(DEE, ["6C"])
    assert kinds(events)[:2] == ["sequence_extended", "launch_started"]
    assert "launch_ended" in kinds(events)
    assert not game.rocket and not game.sequence and len(game.depot) == 12
    assert {"2H", "3D", "3S", "6C"} <= set(game.discard_pile)


def test_launch_refusals():
    game = table(hands=[["2H", "3H", "4D"], []])
    refused(game, "no_rocket", {"type": "launch", "player": ANN, "cards": ["2H"]})
    game = table(hands=[["2H", "3H", "4D"], []], rocket=[("red", 1)])
    refused(game, "no_cards", {"type": "launch", "player": ANN, "cards": []})
    refused(game, "same_suit_twice", {"type": "launch", "player": ANN, "cards": ["2H", "3H"]})
    refused(game, "not_in_hand", {"type": "launch", "player": ANN, "cards": ["2C"]})
    refused(game, "not_your_turn", {"type": "launch", "player": BOB, "cards": ["2C"]})


LAUNCH_CARDS = ["2C", "2H", "2D", "2S"]


def launch_game(rocket, dice=(), rules="basic", apophis_damage=0, counters=0) -> Game:
    return table(
        players=(ANN,),
        rules=rules,
        hands=[LAUNCH_CARDS],
        rocket=rocket,
        dice=dice,
        damage=apophis_damage,
        counters=counters,
    )


def test_fuel_example_eight_points_needs_two_fuel():
    # 1 large + 2 medium + 1 small = 8 points.
    short = launch_game([("red", 3), ("blue", 2), ("green", 2), ("yellow", 1)])
    events = short.launch(ANN, LAUNCH_CARDS)
    fuel = steps(events)["fuel"]
    assert (fuel.total, fuel.target, fuel.success) == (1, 2, False)
    assert set(steps(events)) == {"fuel"} and not events[-2].hit
    enough = launch_game([("red", 3), ("yellow", 2), ("blue", 2), ("green", 1)], dice=[6, 1, 1])
    fuel = steps(enough.launch(ANN, LAUNCH_CARDS))["fuel"]
    assert (fuel.total, fuel.target, fuel.success) == (2, 2, True)


def test_fuel_example_ten_points_needs_three_fuel():
    # 2 large + 1 medium + 2 small = 10 points.
    two = launch_game([("red", 3), ("blue", 3), ("yellow", 2), ("green", 1), ("red", 1)])
    assert steps(two.launch(ANN, LAUNCH_CARDS))["fuel"].success is False
    three = launch_game(
        [("red", 3), ("blue", 3), ("yellow", 2), ("yellow", 1), ("green", 1)], dice=[6, 1, 1]
    )
    fuel = steps(three.launch(ANN, LAUNCH_CARDS))["fuel"]
    assert (fuel.total, fuel.target, fuel.success) == (3, 3, True)


def test_accuracy_example_three_plus_one_plus_two_is_a_miss():
    game = launch_game([("red", 3), ("yellow", 2), ("blue", 1)], dice=[2])
    events = game.launch(ANN, LAUNCH_CARDS)
    accuracy = steps(events)["accuracy"]
    assert accuracy.parts == (("die", 2), ("Apophis", 3), ("guidance", 1))
    assert (accuracy.total, accuracy.success) == (6, False)
    assert "damage" not in steps(events) and game.damage == 0
    assert events[-2].kind == "launch_ended" and not events[-2].hit


def test_accuracy_seven_hits():
    game = launch_game([("red", 3), ("yellow", 2), ("blue", 1)], dice=[3, 1])
    assert steps(game.launch(ANN, LAUNCH_CARDS))["accuracy"].success is True


def test_damage_example_two_red_plus_five_damages_and_adds_a_counter():
    game = launch_game([("yellow", 2), ("red", 2), ("blue", 1)], dice=[6, 5])
    events = game.launch(ANN, LAUNCH_CARDS)
    damage = steps(events)["damage"]
    assert damage.parts == (("die", 5), ("warheads", 2)) and damage.success
    assert game.damage == 1 and game.apophis_value == 2 and game.counters == 1
    assert "apophis_damaged" in kinds(events) and "counter_added" in kinds(events)
    assert events[-2].hit and len(game.depot) == 12


def test_no_red_means_no_damage_roll_and_no_green_no_deflection_roll():
    game = launch_game([("yellow", 2), ("blue", 1)], dice=[6])
    checks = steps(game.launch(ANN, LAUNCH_CARDS))
    assert checks["damage"].success is None and checks["damage"].die is None
    assert checks["deflection"].success is None


def test_deflection_adds_a_counter_in_basic_rules():
    game = launch_game([("green", 3), ("yellow", 1)], dice=[6, 4])
    events = game.launch(ANN, LAUNCH_CARDS)
    assert steps(events)["deflection"].success and game.counters == 1
    assert game.damage == 0


def test_damage_and_deflection_are_rolled_independently():
    game = launch_game([("green", 2), ("red", 2), ("yellow", 2)], dice=[6, 1, 5])
    checks = steps(game.launch(ANN, LAUNCH_CARDS))
    assert checks["damage"].success is False and checks["deflection"].success is True


def test_third_damage_destroys_apophis_and_wins_at_once():
    game = launch_game([("red", 3), ("yellow", 1)], dice=[6, 6], apophis_damage=2)
    events = game.launch(ANN, LAUNCH_CARDS)
    assert game.outcome is Outcome.DESTROYED and game.is_over
    assert "game_won" in kinds(events) and "turn_started" not in kinds(events)
    assert len(game.depot) == 12 and sorted(all_cards(game)) == sorted(full_deck())
    refused(game, "game_over", {"type": "draw", "player": ANN})
    refused(game, "game_over", {"type": "clock_expired"})


def test_five_deflection_counters_win():
    game = launch_game([("green", 3), ("yellow", 1)], dice=[6, 6], counters=4)
    game.launch(ANN, LAUNCH_CARDS)
    assert game.outcome is Outcome.DEFLECTED


def test_a_damage_that_brings_the_fifth_counter_wins_at_once():
    game = launch_game([("red", 3), ("green", 3), ("yellow", 2)], dice=[6, 6], counters=4)
    events = game.launch(ANN, LAUNCH_CARDS)
    assert game.outcome is Outcome.DEFLECTED and "deflection" not in steps(events)


def test_a_smaller_apophis_is_harder_to_hit():
    game = launch_game([("red", 1), ("yellow", 1)], dice=[4], apophis_damage=1)
    accuracy = steps(game.launch(ANN, LAUNCH_CARDS))["accuracy"]
    assert accuracy.parts[1] == ("Apophis", 2) and accuracy.success is False


# ------------------------------------------------------------------ advanced


def test_advanced_launch_roll_explodes_at_eight():
    game = launch_game([("yellow", 3), ("red", 3)], rules="advanced", dice=[5])
    events = game.launch(ANN, LAUNCH_CARDS)
    roll = steps(events)["launch"]
    assert (roll.total, roll.target, roll.below, roll.success) == (8, 8, True, False)
    assert "accuracy" not in steps(events) and not events[-2].hit


def test_advanced_has_no_deflection_and_damage_adds_no_counter():
    game = launch_game([("yellow", 3), ("red", 3), ("green", 1)], rules="advanced", dice=[4, 6, 6])
    checks = steps(game.launch(ANN, LAUNCH_CARDS))
    assert list(checks) == ["fuel", "launch", "accuracy", "damage"]
    assert game.damage == 1 and game.counters == 0


def test_fail_safes_give_one_reroll_per_two_green_points():
    game = launch_game(
        [("green", 3), ("green", 2), ("yellow", 2), ("red", 1)], rules="advanced", dice=[1, 1]
    )
    events = game.launch(ANN, LAUNCH_CARDS)
    assert events[1].rerolls == 2
    assert kinds(events)[-1] == "reroll_offered" and events[-1].step == "accuracy"
    assert game.phase is Phase.REROLL and game.public_view().pending["rerolls"] == 2


def test_reroll_replaces_the_die_and_may_itself_be_rerolled():
    game = launch_game(
        [("green", 3), ("green", 2), ("yellow", 2), ("red", 1)],
        rules="advanced",
        dice=[1, 1, 2, 6, 6],
    )
    game.launch(ANN, LAUNCH_CARDS)
    refused(game, "reroll_pending", {"type": "draw", "player": ANN})
    refused(game, "reroll_pending", {"type": "scrap", "player": ANN})
    events = game.reroll(ANN)  # 2 + 3 + 0 = 5: fails again, one reroll left
    assert kinds(events) == ["reroll_used", "launch_step", "reroll_offered"]
    assert events[0].rerolls == 1 and events[2].rerolls == 1
    events = game.reroll(ANN)  # 6: hit; then damage 6 + 1 = 7
    assert steps(events)["accuracy"].success and steps(events)["damage"].success
    assert game.damage == 1 and game.phase is Phase.PLAY


def test_accepting_a_failed_die_ends_the_launch_with_a_miss():
    game = launch_game([("green", 2), ("yellow", 2), ("red", 1)], rules="advanced", dice=[1, 1])
    game.launch(ANN, LAUNCH_CARDS)
    events = game.accept(ANN)
    assert kinds(events) == ["reroll_declined", "launch_ended", "turn_started"]
    assert not events[1].hit and game.damage == 0 and len(game.depot) == 12


def test_a_reroll_is_offered_for_the_launch_roll_and_damage_too():
    game = launch_game(
        [("green", 3), ("yellow", 3), ("green", 1), ("red", 1)],
        rules="advanced",
        dice=[6, 1, 5, 1, 6],
    )
    events = game.launch(ANN, LAUNCH_CARDS)  # launch roll 6 + 3 = 9: explodes
    assert events[-1].kind == "reroll_offered" and events[-1].step == "launch"
    events = game.reroll(ANN)  # launch 1 + 3 = 4 flies; accuracy 5 + 3 = 8; damage 1 + 1
    assert events[-1].kind == "reroll_offered" and events[-1].step == "damage"
    events = game.reroll(ANN)  # damage 6 + 1 = 7
    assert steps(events)["damage"].success and game.damage == 1
    refused(game, "no_reroll", {"type": "reroll", "player": ANN})


def test_no_reroll_offered_without_fail_safes_or_for_the_fuel_check():
    game = launch_game([("green", 1), ("yellow", 2), ("red", 1)], rules="advanced", dice=[1, 1])
    assert "reroll_offered" not in kinds(game.launch(ANN, LAUNCH_CARDS))
    game = launch_game([("green", 3), ("red", 3)], rules="advanced")
    assert "reroll_offered" not in kinds(game.launch(ANN, LAUNCH_CARDS))


def test_only_the_launching_player_decides_on_rerolls():
    game = table(
        rules="advanced",
        hands=[LAUNCH_CARDS, ["9H"]],
        rocket=[("green", 2), ("yellow", 2), ("red", 1)],
        dice=[1, 1],
    )
    game.launch(ANN, LAUNCH_CARDS)
    refused(game, "not_the_launcher", {"type": "reroll", "player": BOB})
    refused(game, "not_the_launcher", {"type": "accept", "player": BOB})
    refused(game, "not_your_turn", {"type": "draw", "player": BOB})
    refused(table(), "no_reroll", {"type": "accept", "player": ANN})


# -------------------------------------------------------------------- scrap


def test_scrap_returns_sections_and_discards_the_sequence():
    game = table(hands=[["2H"], []], rocket=[("red", 3), ("blue", 1)], sequence=["5D"])
    events = game.scrap(ANN)
    assert (events[0].sections, events[0].cards) == (2, 1)
    assert not game.rocket and not game.sequence and len(game.depot) == 12
    assert game.discard_pile[-1] == "5D"


def test_scrap_with_nothing_to_scrap_is_refused():
    refused(table(), "nothing_to_scrap", {"type": "scrap", "player": ANN})


# -------------------------------------------------------------------- clock


@pytest.mark.parametrize("where", ["play", "reshuffle", "discard", "reroll"])
def test_the_clock_ends_the_game_whatever_is_in_progress(where):
    if where == "reshuffle":
        game = table(hands=[["2H"], []], deck=[])
        game.draw(ANN)
    elif where == "discard":
        game = table(hands=[["2H", "3H", "4H", "5H", "6H"], []])
        game.draw(ANN)
    elif where == "reroll":
        game = launch_game([("green", 2), ("yellow", 2), ("red", 1)], rules="advanced", dice=[1, 1])
        game.launch(ANN, LAUNCH_CARDS)
    else:
        game = table()
    assert game.phase.value == where
    events = game.clock_expired()
    assert kinds(events) == ["game_lost"] and game.outcome is Outcome.LOST
    assert game.active_player is None and sorted(all_cards(game)) == sorted(full_deck())
    for action in (
        {"type": "draw", "player": ANN},
        {"type": "finish_reshuffle"},
        {"type": "skip_turn"},
        {"type": "end", "reason": "x"},
    ):
        with pytest.raises(IllegalMove):
            game.apply(action)


# ------------------------------------------------------- skip, remove, end


def test_skip_passes_the_turn():
    game = table()
    assert kinds(game.skip_turn()) == ["turn_skipped", "turn_started"]
    assert game.active_player == BOB


def test_skip_during_a_discard_drops_the_cards_just_drawn():
    game = table(hands=[["2H", "3H", "4H", "5H", "6H"], []], deck=["7H", "8H"])
    game.draw(ANN)
    events = game.skip_turn()
    assert events[1].cards == ("7H", "8H") and events[1].forced
    assert game.hands[0] == ["2H", "3H", "4H", "5H", "6H"] and game.active_player == BOB


def test_skip_during_a_reroll_decision_accepts_the_die():
    game = table(
        rules="advanced",
        hands=[LAUNCH_CARDS, []],
        rocket=[("green", 2), ("yellow", 2), ("red", 1)],
        dice=[1, 1],
    )
    game.launch(ANN, LAUNCH_CARDS)
    events = game.skip_turn()
    assert kinds(events) == ["turn_skipped", "launch_ended", "turn_started"]
    assert game.active_player == BOB and len(game.depot) == 12


def test_skip_during_a_reshuffle_abandons_the_draw_and_the_next_player_waits():
    game = table(hands=[["2H"], ["3H"]], deck=[])
    game.draw(ANN)
    assert kinds(game.skip_turn()) == ["turn_skipped", "turn_started"]
    refused(game, "reshuffling", {"type": "draw", "player": BOB})
    events = game.finish_reshuffle()
    assert kinds(events) == ["reshuffle_finished"]
    assert game.hands[0] == ["2H"] and game.active_player == BOB
    game.draw(BOB)
    assert len(game.hands[1]) == 3


def test_removing_a_player_discards_their_cards_and_keeps_the_turn_order():
    game = table(players=(ANN, BOB, CID), hands=[["2H"], ["3H", "4H"], ["5H"]], active=2)
    events = game.remove_player(BOB)
    assert events[0].cards == 2 and game.players == [ANN, CID]
    assert game.active_player == CID and {"3H", "4H"} <= set(game.discard_pile)
    game.draw(CID)
    assert game.active_player == ANN


def test_removing_the_active_player_passes_the_turn():
    game = table(players=(ANN, BOB, CID), active=2)
    events = game.remove_player(CID)
    assert kinds(events) == ["player_removed", "turn_started"] and events[1].player == ANN
    assert game.active_player == ANN
    game = table(players=(ANN, BOB, CID), hands=[["2H", "3H", "4H", "5H", "6H"], [], []], active=0)
    game.draw(ANN)
    game.remove_player(ANN)
    assert game.phase is Phase.PLAY and game.active_player == BOB
    assert sorted(all_cards(game)) == sorted(full_deck())


def test_removing_the_last_player_abandons_the_game():
    game = table(players=(ANN,))
    events = game.remove_player(ANN)
    assert kinds(events) == ["player_removed", "game_abandoned"]
    assert game.outcome is Outcome.ABANDONED and sorted(all_cards(game)) == sorted(full_deck())
    refused(table(), "not_seated", {"type": "remove_player", "player": EVE})


def test_end_abandons_without_a_result():
    game = table()
    assert kinds(game.end("reset by a moderator")) == ["game_abandoned"]
    assert game.outcome is Outcome.ABANDONED and not game.outcome.won


# -------------------------------------------------------------------- views


def test_views_show_a_player_their_own_hand_only():
    game = table(players=(ANN, BOB, CID), hands=[["2H", "3H"], ["4D"], ["5S", "6S", "7S"]])
    view = game.view_for(BOB)
    assert view.hand == ("4D",)
    assert [s.hand_size for s in view.table.seats] == [2, 1, 3]
    public = repr(game.public_view())
    for card in ("2H", "3H", "4D", "5S", "6S", "7S"):
        assert card not in public and card not in repr(view.table)
    with pytest.raises(IllegalMove):
        game.view_for(EVE)


def test_events_with_cards_are_redacted_for_everyone_but_their_owner():
    game = table(hands=[["2H"], []], deck=["4H", "5H"])
    drawn = game.draw(ANN)[0]
    assert isinstance(drawn, CardsDrawn)
    assert drawn.seen_by(ANN).cards == ("4H", "5H")
    assert drawn.seen_by(BOB).cards == () and drawn.seen_by(None).count == 2
    assert "4H" not in repr(drawn.seen_by(None)) and "4H" not in str(drawn.seen_by(None).to_dict())


# -------------------------------------------------------------- save/restore


def test_save_restore_round_trips_and_continues_identically():
    game = Game.new([ANN, BOB, CID], "advanced", seed=42)
    data = game.save()
    assert Game.restore(data).save() == data
    twin = Game.restore(data)
    player = game.active_player
    assert [e.to_dict() for e in game.draw(player)] == [e.to_dict() for e in twin.draw(player)]
    assert game.save() == twin.save()


def test_the_table_shows_who_built_each_section_and_played_each_launch_card():
    game = table(
        players=(ANN, BOB, CID),
        hands=[["2H", "3H", "4H", "7C"], ["5S", "6S"], ["8D", "9H"]],
    )
    game.build(ANN, "red", "large")
    game.build(BOB, "yellow", "medium")
    game.launch(CID, ["8D"])
    game.launch(ANN, ["7C"])
    view = game.public_view()
    assert view.builders == (ANN, BOB)
    assert view.sequence_players == (CID, ANN)
    assert game.view_for(CID).table.builders == (ANN, BOB)
    game.scrap(BOB)
    assert game.public_view().builders == () and game.public_view().sequence_players == ()


def test_a_launch_clears_who_built_and_played_what():
    game = table(
        rocket=[("red", 3), ("yellow", 2), ("blue", 1)],
        builders=[ANN, BOB, ANN],
        sequence=["2C", "3H", "4D"],
        sequence_by=[BOB, BOB, ANN],
        hands=[["5S"], []],
        dice=[6, 6, 6],
    )
    game.launch(ANN, ["5S"])
    assert game.builders == [] and game.sequence_players == []
    assert game.public_view().builders == ()


def test_who_built_what_is_saved_and_restored():
    game = table(hands=[["2H", "3H", "4H", "5D"], ["6S", "7S"]])
    game.build(ANN, "red", "large")
    game.build(BOB, "yellow", "medium")
    game.launch(ANN, ["5D"])
    data = game.save()
    assert data["builders"] == [ANN, BOB] and data["sequence_players"] == [ANN]
    twin = Game.restore(data)
    assert twin.save() == data and twin.public_view() == game.public_view()


def test_a_game_saved_before_builders_were_kept_restores_with_them_unknown():
    """Stored games from earlier versions have no builders: they load, nobody is known to
    have built their sections, and play goes on (new sections record their builder)."""
    game = table(hands=[["2H", "3H", "4H", "5D"], ["6S", "7S", "8S"]])
    game.build(ANN, "red", "large")
    game.build(BOB, "yellow", "medium")
    game.launch(ANN, ["5D"])
    data = game.save()
    del data["builders"], data["sequence_players"]
    old = Game.restore(data)
    assert old.public_view().builders == (None, None)
    assert old.public_view().sequence_players == (None,)
    assert old.save()["builders"] == [None, None]
    old.launch(BOB, ["8S"])
    assert old.public_view().sequence_players == (None, BOB)
    fresh = table(hands=[["2H", "3H", "4H"], ["6S"]])
    saved = fresh.save()
    del saved["builders"], saved["sequence_players"]
    restored = Game.restore(saved)
    restored.build(ANN, "red", "large")
    assert restored.public_view().builders == (ANN,)


def test_restore_refuses_an_unknown_format():
    data = Game.new([ANN]).save()
    data["format"] = 99
    with pytest.raises(ValueError, match="format"):
        Game.restore(data)


def test_scripted_random_checks_its_script():
    with pytest.raises(ValueError):
        ScriptedRandom(dice=[7]).d6()
    with pytest.raises(ValueError):
        ScriptedRandom(shuffles=[[1, 2]]).shuffle([1, 3])
    rng = ScriptedRandom(shuffles=[[BOB, ANN]])
    items = [ANN, BOB]
    rng.shuffle(items)
    assert items == [BOB, ANN]


def test_skip_during_a_reshuffle_never_leaves_a_hand_over_the_limit():
    game = table(hands=[["2H", "3H", "4H", "5H", "6H"], []], deck=["7H"])
    game.draw(ANN)  # 6 cards, then the deck runs out
    events = game.skip_turn()
    assert kinds(events) == ["turn_skipped", "cards_discarded", "turn_started"]
    assert events[1].cards == ("7H",) and len(game.hands[0]) == 5


def test_a_game_rebuilt_with_the_start_player_it_drew_is_the_same_game():
    drawn = Game.new([ANN, BOB, CID], seed=31)
    rebuilt = Game.new([ANN, BOB, CID], seed=31, start_player=drawn.active_player)
    assert rebuilt.save() == drawn.save()


def test_the_public_view_is_made_once_between_actions():
    game = table()
    view = game.public_view()
    assert game.public_view() is view and game.view_for(BOB).table is view
    refused(game, "not_your_turn", {"type": "draw", "player": BOB})
    assert game.public_view() == view  # a refused action changes nothing
    game.draw(ANN)  # two cards drawn, over the hand limit: a discard is due
    after = game.public_view()
    assert after.deck_size == view.deck_size - 2 and after.phase is not view.phase
    assert game.arrange(damage=2).public_view().damage == 2  # set up by hand: seen
    with pytest.raises(AttributeError):
        game.arrange(_public=None)


def test_taking_a_seat_keeps_its_hand_its_turn_and_every_card():
    game = table(players=(ANN, -1, CID), hands=[["2H"], ["3H", "4H"], ["5H"]], active=1)
    game.draw(-1)
    before = sorted(all_cards(game))
    hand = list(game.hands[1])
    events = game.take_seat(DEE, seat_of=-1)
    assert kinds(events) == ["seat_taken"] and (events[0].seat_of, events[0].cards) == (-1, 4)
    assert game.players == [ANN, DEE, CID] and game.hands[1] == hand
    assert sorted(all_cards(game)) == before and game.active_player == CID
    refused(game, "not_seated", {"type": "draw", "player": -1})
    refused(game, "already_seated", {"type": "take_seat", "player": DEE, "seat_of": CID})
    refused(game, "not_seated", {"type": "take_seat", "player": EVE, "seat_of": -1})


def test_the_drawer_of_a_reshuffle_can_be_replaced_mid_draw():
    game = table(hands=[["2H"], ["3H"]], deck=[])
    game.draw(ANN)
    game.take_seat(EVE, seat_of=ANN)
    drawn = [e for e in game.finish_reshuffle() if isinstance(e, CardsDrawn)]
    assert [e.player for e in drawn] == [EVE] and len(game.hands[0]) == 3
    assert game.players == [EVE, BOB] and game.active_player == BOB


def test_a_seat_someone_left_can_be_taken_with_no_cards_before_the_turn():
    game = table(players=(ANN, BOB, CID), active=2)
    refused(game, "no_free_seat", {"type": "take_seat", "player": EVE})
    game.remove_player(BOB)
    before = sorted(all_cards(game))
    events = game.take_seat(EVE)
    assert events[0].seat_of is None and events[0].cards == 0
    assert game.players == [ANN, EVE, CID] and game.hands[1] == []
    assert game.active_player == CID and sorted(all_cards(game)) == before
    game.draw(CID)
    assert game.active_player == ANN
    refused(game, "no_free_seat", {"type": "take_seat", "player": DEE})
    assert Game.restore(game.save()).save() == game.save()
    game.end("host")
    refused(game, "game_over", {"type": "take_seat", "player": DEE, "seat_of": ANN})
