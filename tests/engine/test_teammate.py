"""The crew as a teammate: it builds on the team's rocket, adds to a teammate's launch
sequence, scraps a teammate's section only when that rocket cannot fly (saying why),
names the plan it aims for, and plays beside stand-ins for people."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game, Phase
from engine.crew import NOTICES, REASONS, RESTART_MARGIN, RISKY, Decision, Target, decide
from engine.events import RocketScrapped
from engine.playout import choose_action
from engine.simulate import POLICIES, Record, record
from engine.standin import standin_action
from tests.engine.helpers import ANN, BOB, table

#: Notices that allow scrapping a rocket holding a teammate's section.
CANNOT_FLY = {"scrap_no_fuel", "scrap_no_warhead", "scrap_sequence_dead", "scrap_too_late"}


def ann(game: Game, time_left: float | None = None, crewmates=()) -> Decision:
    decision = decide(game.view_for(ANN), time_left, crewmates=crewmates)
    assert decision is not None and decision.reason in REASONS
    if decision.notice is not None:
        assert decision.notice in NOTICES and decision.notice_text
        assert "\n" not in decision.notice_text
    return decision


# ------------------------------------------------------- a rocket that can fly


def test_builds_on_a_teammates_rocket_that_can_still_fly():
    """Bob's small yellow leaves only small sections to add, but red, blue and yellow
    small still make a fuelled rocket with a warhead: build on it (the policy of old
    scrapped it at once)."""
    game = table(
        rocket=[("yellow", 1)],
        builders=[BOB],
        hands=[["2H", "3D", "4C", "5S"], ["6H", "7H", "8H"]],
    )
    decision = ann(game)
    assert decision.action == {"type": "build", "player": ANN, "colour": "red", "size": 1}
    assert decision.notice is None
    game.apply(decision.action)
    assert game.builders == [BOB, ANN]


def test_a_section_nobody_is_known_to_have_built_is_a_teammates():
    """A game saved before the engine kept builders: its sections are not scrapped as if
    they were the crewmate's own."""
    game = table(rocket=[("green", 3)], hands=[["6D"], ["6H", "7H", "8H"]])
    assert game.public_view().builders == (None,)
    assert ann(game, 60).action["type"] != "scrap"


def test_scraps_its_own_rocket_only_for_a_clearly_better_one():
    """The same medium green and small red, ten turns before the end: the crewmate's own
    is scrapped for a plan more than `RESTART_MARGIN` times quicker, saying so; Bob's is
    built on."""
    hands = [["9C"], ["8D", "7S", "2D"]]
    own = table(rocket=[("green", 2), ("red", 1)], builders=[ANN, ANN], hands=hands)
    decision = ann(own, 60)
    assert decision.action["type"] == "scrap" and decision.reason == "scrap_restart"
    assert decision.notice == "scrap_restart"
    assert decision.notice_params["gain"] >= RESTART_MARGIN
    assert decision.plan is not None and decision.plan.scrap_first
    assert not any(decision.plan.built)
    bobs = table(rocket=[("green", 2), ("red", 1)], builders=[BOB, BOB], hands=hands)
    assert ann(bobs, 60).action["type"] != "scrap"


def test_adds_to_a_launch_sequence_a_teammate_started():
    game = table(
        rocket=[("red", 3), ("yellow", 2), ("blue", 1)],
        builders=[BOB, ANN, BOB],
        sequence=["5C"],
        sequence_by=[BOB],
        hands=[["7H", "2D", "KS", "4S"], ["6H"]],
    )
    decision = ann(game)
    assert decision.reason == "launch_complete"
    assert decision.action == {"type": "launch", "player": ANN, "cards": ["7H", "2D", "4S"]}
    assert decision.plan.cards == ("7H", "2D", "4S") and decision.plan.sequence_needs == ()
    assert decision.notice is None  # hit 4 in 6, then damage 1 in 2: not a risky launch


def test_adds_to_a_teammates_sequence_that_scrapping_would_beat():
    """From a game: the policy of old scrapped this rocket, Bob's launch card with it."""
    game = table(
        rocket=[("blue", 3), ("yellow", 3), ("green", 2)],
        builders=[ANN, BOB, ANN],
        sequence=["JH"],
        sequence_by=[BOB],
        hands=[["4H", "9D", "9H"], ["2C", "3C", "4C"]],
    )
    decision = ann(game)
    assert decision.action == {"type": "launch", "player": ANN, "cards": ["9D"]}
    assert decision.reason == "launch_extend"


def test_a_risky_launch_says_so_with_the_odds():
    """Bob started the sequence of a small red and small yellow: completing it is
    right, and announced (accuracy 3 in 6, then damage 1 in 6)."""
    game = table(
        rocket=[("red", 1), ("yellow", 1)],
        builders=[BOB, BOB],
        sequence=["5C"],
        sequence_by=[BOB],
        hands=[["7H", "2D", "KS", "4S"], ["6H"]],
    )
    decision = ann(game)
    assert decision.reason == "launch_complete"
    assert decision.notice == "launch_risky"
    assert decision.notice_params == {
        "success": 0.083,
        "damage": 0.083,
        "deflect": 0.0,
        "hit": 0.5,
        "explode": 0.0,
        "rerolls": 0,
    }
    assert decision.notice_params["success"] < RISKY
    assert "8%" in decision.notice_text


def test_an_advanced_launch_tells_the_chance_it_explodes():
    game = table(
        rules="advanced",
        rocket=[("yellow", 3), ("red", 1)],
        builders=[BOB, BOB],
        sequence=["5C"],
        sequence_by=[BOB],
        hands=[["7H", "2D", "KS", "4S"], ["6H"]],
    )
    decision = ann(game)
    assert decision.action["type"] == "launch" and decision.notice == "launch_risky"
    assert decision.notice_params["explode"] == pytest.approx(2 / 6, abs=0.001)
    assert "explodes" in decision.notice_text


# --------------------------------------------------- a rocket that cannot fly


@pytest.mark.parametrize(
    ("position", "notice", "params"),
    [
        pytest.param(  # only the small yellow fits: 1 fuel for 7 points, 2 needed
            {
                "rocket": [("red", 3), ("blue", 2), ("blue", 1)],
                "builders": [BOB, ANN, BOB],
                "hands": [["10H", "3H", "6S"], ["6D"]],
            },
            "scrap_no_fuel",
            {"fuel": 1, "points": 7, "needed": 2},
            id="no fuel",
        ),
        pytest.param(  # the small red fits, but then the small yellow cannot fuel it
            {
                "rules": "advanced",
                "rocket": [("green", 2), ("green", 1)],
                "builders": [ANN, BOB],
                "hands": [["KH"], ["6D"]],
            },
            "scrap_no_warhead",
            {"warheads": ["red"]},
            id="no warhead",
        ),
        pytest.param(  # a sequence is under way on a rocket without fuel
            {
                "rocket": [("red", 3), ("blue", 2)],
                "builders": [BOB, BOB],
                "sequence": ["5C"],
                "sequence_by": [BOB],
                "hands": [["7H", "2D", "KS"], ["6D"]],
            },
            "scrap_sequence_dead",
            {"cause": "fuel", "fuel": 0, "needed": 2},
            id="sequence without fuel",
        ),
        pytest.param(  # advanced rules: a sequence under way on a rocket without red
            {
                "rules": "advanced",
                "rocket": [("yellow", 3), ("blue", 2)],
                "builders": [BOB, BOB],
                "sequence": ["5C"],
                "sequence_by": [BOB],
                "hands": [["7H", "2D", "KS"], ["6D"]],
            },
            "scrap_sequence_dead",
            {"cause": "warhead", "fuel": 3, "needed": 2},
            id="sequence without warhead",
        ),
    ],
)
def test_scraps_a_teammates_rocket_that_cannot_fly_saying_why(position, notice, params):
    game = table(**position)
    decision = ann(game)
    assert decision.action == {"type": "scrap", "player": ANN}
    assert decision.reason == "scrap_dead"
    assert (decision.notice, decision.notice_params) == (notice, params)
    events = game.apply(decision.action)
    assert isinstance(events[0], RocketScrapped) and game.builders == []


def test_scraps_a_teammates_rocket_that_cannot_be_finished_in_time():
    """About ten turns left, this rocket (no fuel yet) needs some thirteen by estimate,
    and a new small one fits."""
    game = table(
        rules="advanced",
        rocket=[("green", 3), ("blue", 3), ("red", 3)],
        builders=[ANN, BOB, ANN],
        hands=[["10H", "3S", "9H"], ["5H", "JH", "8C"]],
    )
    assert ann(game, None).action["type"] != "scrap"  # with time, it is built on
    decision = ann(game, 60)
    assert decision.action["type"] == "scrap" and decision.notice == "scrap_too_late"
    assert decision.notice_params == {"turns_left": 10, "turns_needed": 13}
    assert decision.plan.scrap_first


# ------------------------------------------------------------------ the plan


def test_a_decision_names_the_rocket_it_aims_for_and_what_the_move_adds():
    """Blue and yellow medium both go next: the yellow first, after which Bob (a
    crewmate) finds a rocket that can launch."""
    game = table(
        rocket=[("red", 3)],
        builders=[BOB],
        hands=[["3S", "4S", "9D", "10D"], ["6H", "7H", "8H"]],
    )
    decision = ann(game, crewmates={BOB})
    assert decision.action == {"type": "build", "player": ANN, "colour": "yellow", "size": 2}
    assert decision.plan == Target(
        pieces=(("red", 3), ("blue", 2), ("yellow", 2), ("red", 1)),
        built=(True, False, False, False),
        builders=(BOB, None, None, None),
        scrap_first=False,
        section=("yellow", 2),
        cards=(),
        sequence_needs=("green", "red", "blue", "yellow"),
        short={"red": 1},
        damage=0.556,
        deflect=0.0,
    )
    assert "red L + blue M + yellow M + red S; the team has red L" in decision.text


def test_a_draw_says_what_the_plan_still_lacks():
    game = table(rocket=[("red", 3)], builders=[BOB], hands=[["2H"], ["6H"]])
    decision = ann(game)
    assert decision.reason == "draw_for_plan"
    plan = decision.plan
    assert plan.built == (True,) + (False,) * (len(plan.pieces) - 1)
    assert plan.pieces[0] == ("red", 3) and plan.section is None and not plan.cards
    assert plan.short == decision.params["short"] == {"red": 2, "blue": 3, "yellow": 3}
    assert "; the team has red L) still needs 2 ♥ and 3 ♦ and 3 ♠." in decision.text


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    rules=st.sampled_from(["basic", "advanced"]),
    players=st.integers(2, 4),
    other=st.sampled_from(["standin", "greedy", "random"]),
)
def test_every_scrap_says_why_and_a_teammates_section_only_when_it_cannot_fly(
    seed, rules, players, other
):
    """The crew in seat 1 beside other players, at random times left: every scrap carries
    a notice; a rocket holding someone else's section or launch card is scrapped only
    when it cannot fly; launches it announces are risky ones; every plan is well formed."""
    rng = random.Random(seed)
    game = Game.new(list(range(1, players + 1)), rules, seed=seed)
    for _ in range(200):
        if game.is_over:
            break
        if game.phase is Phase.RESHUFFLE:
            game.finish_reshuffle()
            continue
        player = game.active_player
        view = game.view_for(player)
        if player != 1:
            game.apply(POLICIES[other](view, None, rng))
            continue
        decision = decide(view, rng.choice([None, rng.uniform(0, 600)]))
        assert decision is not None
        shared = any(b != 1 for b in (*game.builders, *game.sequence_players))
        if decision.action["type"] == "scrap":
            assert decision.notice in NOTICES and decision.notice != "launch_risky"
            assert decision.reason in ("scrap_dead", "scrap_restart")
            if shared:
                assert decision.notice in CANNOT_FLY
        elif decision.notice is not None:
            assert decision.action["type"] == "launch" and decision.notice == "launch_risky"
            assert decision.notice_params["success"] < RISKY
        plan = decision.plan
        if plan is not None:
            assert len(plan.pieces) == len(plan.built) == len(plan.builders)
            if not plan.scrap_first:
                assert plan.pieces[: len(game.rocket)] == tuple(
                    (c.value, int(s)) for c, s in game.rocket
                )
                assert sum(plan.built) == len(game.rocket)
            if decision.action["type"] == "build":
                section = (decision.action["colour"], decision.action["size"])
                assert plan.section == section and section in plan.pieces
        game.apply(decision.action)


# ------------------------------------------------------------ the stand-in


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), rules=st.sampled_from(["basic", "advanced"]))
def test_the_stand_in_plays_legally_and_never_scraps(seed, rules):
    """Its moves mixed with random ones (so positions are varied): every one applies."""
    rng = random.Random(seed)
    game = Game.new([1, 2, 3], rules, seed=seed)
    for _ in range(250):
        if game.is_over:
            break
        if game.phase is Phase.RESHUFFLE:
            game.finish_reshuffle()
            continue
        view = game.view_for(game.active_player)
        if game.active_player == 1:
            action = standin_action(view)
            assert action is not None and action["type"] != "scrap"
            assert standin_action(game.view_for(2)) is None  # not their turn
        else:
            action = choose_action(view, rng)
        game.apply(action)


def test_mixed_seatings_play_whole_games():
    """The crew beside a stand-in and greedy: games end, and the crew scraps none of its
    teammates' sections there (it may scrap greedy's rockets that cannot fly, saying why)."""
    crew, standin, greedy = POLICIES["crew"], POLICIES["standin"], POLICIES["greedy"]
    won = 0
    for seed in range(3):
        for rules in ("basic", "advanced"):
            result = record([crew, standin], 2, rules, seed, 450)
            assert isinstance(result, Record) and result.turns + result.follow_ups <= 450
            assert result.scraps == ()
            won += result.outcome is not None
            three = record([crew, greedy, greedy], 3, rules, seed, 450)
            assert all(s.why in CANNOT_FLY for s in three.scraps if s.seat == 0)
    assert won >= 4
    alone = record(standin, 1, "basic", 1, 450)  # one policy for every seat, as before
    assert alone.turns > 0 and alone.scraps == ()
