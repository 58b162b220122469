"""The engine's events: GameEvent names every one of them, and each survives its saved form."""

from __future__ import annotations

import inspect
import json
from typing import get_args

import pytest

from engine import GameEvent
from engine import events as ev

#: One event of each kind, with every field set away from its default.
SAMPLES: list[ev.GameEvent] = [
    ev.TurnStarted(1, 3),
    ev.CardsDrawn(1, 2, ("4H", "KS")),
    ev.ReshuffleStarted(2, 30, 10),
    ev.ReshuffleFinished(30),
    ev.DiscardRequired(1, 2),
    ev.CardsDiscarded(1, 2, ("4H", "KS"), forced=True),
    ev.SectionBuilt(2, "red", 3, ("7H", "8H", "9H")),
    ev.SequenceExtended(1, ("green", "red"), ("blue", "green", "red"), ("2C", "3H")),
    ev.RocketScrapped(2, 3, 4),
    ev.LaunchStarted(1, {"red": 3, "green": 2}, 5, 1),
    ev.LaunchStep("accuracy", 4, (("die", 4), ("Apophis", 3), ("guidance", 2)), 9, 7, False, True),
    ev.LaunchStep("fuel", None, (("booster fuel", 5), ("rocket points", 5)), 5, 5, False, True),
    ev.LaunchStep("damage", None, (), 0, 7, False, None),
    ev.RerollOffered(1, "damage", 2),
    ev.RerollUsed(1, "damage", 1),
    ev.RerollDeclined(1, "accuracy"),
    ev.ApophisDamaged(2, 4),
    ev.CounterAdded(3),
    ev.LaunchEnded(True, 4, 6),
    ev.TurnSkipped(2),
    ev.PlayerRemoved(2, 5),
    ev.SeatTaken(7, -1, 4),
    ev.GameWon("destroyed"),
    ev.GameLost("clock"),
    ev.GameAbandoned("no players left"),
]


def defined_events() -> set[type]:
    """Every event class engine.events defines, its private bases left out."""
    return {
        cls
        for name, cls in inspect.getmembers(ev, inspect.isclass)
        if issubclass(cls, ev.Event)
        and cls is not ev.Event
        and cls.__module__ == ev.__name__
        and not name.startswith("_")
    }


def test_game_event_is_every_event_the_engine_defines():
    assert set(get_args(GameEvent)) == defined_events()


def test_each_event_names_its_own_kind():
    kinds = [cls.kind for cls in get_args(GameEvent)]
    assert ev.Event.kind not in kinds
    assert len(set(kinds)) == len(kinds)


def test_the_samples_hold_every_kind():
    assert {type(e) for e in SAMPLES} == set(get_args(GameEvent))


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: e.kind)
def test_every_kind_round_trips_through_its_saved_form(event: ev.GameEvent):
    data = json.loads(json.dumps(event.to_dict()))  # logs keep it as JSON
    assert data["kind"] == event.kind
    assert ev.from_dict(data) == event
    public = event.seen_by(None)
    assert ev.from_dict(json.loads(json.dumps(public.to_dict()))) == public


def test_a_field_missing_from_an_older_log_takes_its_default():
    data = ev.CardsDiscarded(1, 2, ("4H", "KS")).to_dict()
    del data["forced"]
    assert ev.from_dict(data) == ev.CardsDiscarded(1, 2, ("4H", "KS"), forced=False)


def test_an_unknown_kind_is_refused():
    with pytest.raises(KeyError):
        ev.from_dict({"kind": "event"})
