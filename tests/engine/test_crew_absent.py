"""The crew playing the seat of an absent player (the autopilot, `decide(absent=True)`):
it carries on their plan, keeps their sections and launch cards as a teammate's, and
finishes the launch sequence they started."""

from __future__ import annotations

from engine import Colour, Size
from engine.crew import REASONS, decide
from engine.views import PastRocket
from tests.engine.helpers import ANN, BOB, table


def both(game, time_left: float | None = 900):
    """Ann's decision as her own crewmate would take it, and as the autopilot in her
    absence."""
    view = game.view_for(ANN)
    present, absent = decide(view, time_left), decide(view, time_left, absent=True)
    assert present is not None and absent is not None
    assert present.reason in REASONS and absent.reason in REASONS
    return present, absent


def test_the_absent_players_own_rocket_is_built_on_not_restarted():
    """Ann built a small yellow and went quiet. Played as her own, the rocket would be
    scrapped for a better one; the autopilot builds on what she built."""
    game = table(
        rules="advanced",
        rocket=[("yellow", 1)],
        builders=[ANN],
        hands=[["JH", "QS", "JS"], ["5D", "10S", "2H"]],
    )
    present, absent = both(game)
    assert present.reason == "scrap_restart"
    assert absent.action == {"type": "build", "player": ANN, "colour": "red", "size": 1}
    assert absent.plan is not None and absent.plan.built[0]


def test_the_launch_sequence_the_absent_player_started_is_carried_on():
    """Ann started the launch of her small yellow and small green (a spade in the
    sequence). Played as her own, it would be scrapped for a quicker rocket; the autopilot
    adds her hand's hearts and diamonds to it."""
    game = table(
        rocket=[("yellow", 1), ("green", 1)],
        builders=[ANN, ANN],
        sequence=["8S"],
        sequence_by=[ANN],
        hands=[["JD", "4H"], ["KD", "QS", "QH"]],
    )
    present, absent = both(game)
    assert present.reason == "scrap_restart"
    assert absent.reason == "launch_extend"
    assert absent.action == {"type": "launch", "player": ANN, "cards": ["4H", "JD"]}


def test_the_rocket_the_absent_player_was_building_is_the_plan():
    """Ann's last rocket was red L + yellow L + green M + blue M, and she has built the
    large red of the next one. Her hand pays for a large blue, which her own crewmate
    would add (toward a rocket of its own), and not for the large yellow: the autopilot
    draws for the yellow, carrying on her rocket."""
    red_l, yellow_l = (Colour.RED, Size.LARGE), (Colour.YELLOW, Size.LARGE)
    green_m, blue_m = (Colour.GREEN, Size.MEDIUM), (Colour.BLUE, Size.MEDIUM)
    game = table(
        rocket=[("red", 3)],
        builders=[ANN],
        hands=[["5D", "6D", "7D", "2S", "3S"], ["7H", "8H", "9H"]],
    )
    game.past_rockets = [
        PastRocket((red_l, yellow_l, green_m, blue_m), (ANN, ANN, BOB, ANN), (ANN,) * 4)
    ]
    present, absent = both(game)
    assert present.action == {"type": "build", "player": ANN, "colour": "blue", "size": 3}
    assert absent.action == {"type": "draw", "player": ANN}
    assert absent.reason == "draw_for_plan"
    assert absent.plan is not None
    assert absent.plan.pieces == (("red", 3), ("yellow", 3), ("green", 2), ("blue", 2))
    assert absent.params["short"] == {"green": 2, "yellow": 1}
