"""What an accepted action caused, as plain data the bot renders.

Some events name the cards that left or entered one player's hand; `seen_by` gives
the copy another viewer may see, with those cards removed (the count stays).

`GameEvent` is the closed union of every event the engine makes: its actions return lists
of it, and a `match` over one ending in `assert_never` is checked exhaustive by mypy.
`to_dict` gives an event's saved form and `from_dict` reads it back.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Self, TypeAlias, get_args

PlayerId = int


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all events. `kind` names the event in saved logs."""

    kind: ClassVar[str] = "event"

    def seen_by(self, viewer: PlayerId | None) -> Self:
        """This event as `viewer` may see it (None: the public)."""
        return self

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible form, with the event's kind."""
        data: dict[str, Any] = {"kind": self.kind}
        for field in dataclasses.fields(self):
            data[field.name] = _plain(getattr(self, field.name))
        return data


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class _HandCards(Event):
    """An event whose `cards` left or entered `player`'s hand: only they see them."""

    # `player` and `cards` are fields of each subclass, declared there so that each keeps
    # its own field order; mypy checks this base class alone, which has neither.
    def seen_by(self, viewer: PlayerId | None) -> Self:
        if viewer == self.player:  # type: ignore[attr-defined]
            return self
        return dataclasses.replace(self, cards=())  # type: ignore[call-arg]


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn_started"
    player: PlayerId
    turn: int


@dataclass(frozen=True, slots=True)
class CardsDrawn(_HandCards):
    kind: ClassVar[str] = "cards_drawn"
    player: PlayerId
    count: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ReshuffleStarted(Event):
    kind: ClassVar[str] = "reshuffle_started"
    player: PlayerId
    cards: int
    seconds: int


@dataclass(frozen=True, slots=True)
class ReshuffleFinished(Event):
    kind: ClassVar[str] = "reshuffle_finished"
    deck_size: int


@dataclass(frozen=True, slots=True)
class DiscardRequired(Event):
    kind: ClassVar[str] = "discard_required"
    player: PlayerId
    count: int


@dataclass(frozen=True, slots=True)
class CardsDiscarded(_HandCards):
    """Cards a player discarded to the hand limit (`forced`: chosen for them on a skip)."""

    kind: ClassVar[str] = "cards_discarded"
    player: PlayerId
    count: int
    cards: tuple[str, ...]
    forced: bool = False


@dataclass(frozen=True, slots=True)
class SectionBuilt(_HandCards):
    kind: ClassVar[str] = "section_built"
    player: PlayerId
    colour: str
    size: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SequenceExtended(_HandCards):
    """Cards added to the launch sequence; `colours` is the whole sequence so far."""

    kind: ClassVar[str] = "sequence_extended"
    player: PlayerId
    added: tuple[str, ...]
    colours: tuple[str, ...]
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RocketScrapped(Event):
    kind: ClassVar[str] = "rocket_scrapped"
    player: PlayerId
    sections: int
    cards: int


@dataclass(frozen=True, slots=True)
class LaunchStarted(Event):
    """The fourth suit was played. `points` by colour, `rerolls` the fail-safes give."""

    kind: ClassVar[str] = "launch_started"
    player: PlayerId
    points: dict[str, int]
    total: int
    rerolls: int


@dataclass(frozen=True, slots=True)
class LaunchStep(Event):
    """One launch check.

    `parts` are the named numbers added up (the die first when there is one);
    success means `total >= target`, or `total < target` when `below` is true
    (the advanced launch roll). `success` is None when the step was skipped.
    """

    kind: ClassVar[str] = "launch_step"
    step: str
    die: int | None
    parts: tuple[tuple[str, int], ...]
    total: int
    target: int
    below: bool
    success: bool | None


@dataclass(frozen=True, slots=True)
class RerollOffered(Event):
    kind: ClassVar[str] = "reroll_offered"
    player: PlayerId
    step: str
    rerolls: int


@dataclass(frozen=True, slots=True)
class RerollUsed(Event):
    kind: ClassVar[str] = "reroll_used"
    player: PlayerId
    step: str
    rerolls: int


@dataclass(frozen=True, slots=True)
class RerollDeclined(Event):
    kind: ClassVar[str] = "reroll_declined"
    player: PlayerId
    step: str


@dataclass(frozen=True, slots=True)
class ApophisDamaged(Event):
    kind: ClassVar[str] = "apophis_damaged"
    damage: int
    value: int


@dataclass(frozen=True, slots=True)
class CounterAdded(Event):
    kind: ClassVar[str] = "counter_added"
    counters: int


@dataclass(frozen=True, slots=True)
class LaunchEnded(Event):
    """The rocket's sections went back to the depot and the sequence to the discards."""

    kind: ClassVar[str] = "launch_ended"
    hit: bool
    sections: int
    cards: int


@dataclass(frozen=True, slots=True)
class TurnSkipped(Event):
    kind: ClassVar[str] = "turn_skipped"
    player: PlayerId


@dataclass(frozen=True, slots=True)
class PlayerRemoved(Event):
    kind: ClassVar[str] = "player_removed"
    player: PlayerId
    cards: int


@dataclass(frozen=True, slots=True)
class SeatTaken(Event):
    """`player` sat down mid-game: in the seat of `seat_of`, with its place in the turns and
    its `cards` (the same hand, nothing dealt), or in a seat someone left (`seat_of` None:
    no cards, just before the player whose turn it is)."""

    kind: ClassVar[str] = "seat_taken"
    player: PlayerId
    seat_of: PlayerId | None
    cards: int


@dataclass(frozen=True, slots=True)
class GameWon(Event):
    kind: ClassVar[str] = "game_won"
    reason: str


@dataclass(frozen=True, slots=True)
class GameLost(Event):
    kind: ClassVar[str] = "game_lost"
    reason: str


@dataclass(frozen=True, slots=True)
class GameAbandoned(Event):
    kind: ClassVar[str] = "game_abandoned"
    reason: str


#: Every event the engine makes, and nothing else (tests/engine/test_events.py checks it
#: against the classes above): a new event is added here too.
GameEvent: TypeAlias = (
    TurnStarted
    | CardsDrawn
    | ReshuffleStarted
    | ReshuffleFinished
    | DiscardRequired
    | CardsDiscarded
    | SectionBuilt
    | SequenceExtended
    | RocketScrapped
    | LaunchStarted
    | LaunchStep
    | RerollOffered
    | RerollUsed
    | RerollDeclined
    | ApophisDamaged
    | CounterAdded
    | LaunchEnded
    | TurnSkipped
    | PlayerRemoved
    | SeatTaken
    | GameWon
    | GameLost
    | GameAbandoned
)

#: Each event's class by the `kind` its saved form names.
_KINDS: dict[str, type[GameEvent]] = {cls.kind: cls for cls in get_args(GameEvent)}


def from_dict(data: Mapping[str, Any]) -> GameEvent:
    """The event a saved form (`Event.to_dict`) describes.

    Lists become tuples again (every sequence an event holds is one); a field the form
    lacks takes its default (a log saved before the field was added).
    """
    cls = _KINDS[data["kind"]]
    fields = dataclasses.fields(cls)
    return cls(**{f.name: _tupled(data[f.name]) for f in fields if f.name in data})


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value
