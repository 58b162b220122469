"""What players may see of a game: the table, one player's hand, the phase and the outcome."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.cards import Colour, Rules, Section
from engine.events import PlayerId


class Phase(StrEnum):
    """What the game is waiting for."""

    PLAY = "play"  # the active player chooses one of the four actions
    DISCARD = "discard"  # the active player must discard down to the hand limit
    RESHUFFLE = "reshuffle"  # the discards are being shuffled into a new deck
    REROLL = "reroll"  # the active player decides to reroll a failed die or accept it
    OVER = "over"


class Outcome(StrEnum):
    """How a finished game ended."""

    DESTROYED = "destroyed"  # won: Apophis took its third damage
    DEFLECTED = "deflected"  # won: five deflection counters (basic rules)
    LOST = "lost"  # the clock ran out
    ABANDONED = "abandoned"  # ended by the host, a moderator, or every player leaving

    @property
    def won(self) -> bool:
        """True for the two winning outcomes."""
        return self in (Outcome.DESTROYED, Outcome.DEFLECTED)


@dataclass(frozen=True, slots=True)
class SeatView:
    player: PlayerId
    hand_size: int


@dataclass(frozen=True, slots=True)
class PastRocket:
    """A rocket the team had earlier in the game, launched or scrapped, as everyone saw it:
    its sections bottom first and who built each, who played each launch-sequence card
    (the first of them started it), and who scrapped it (None: it was launched)."""

    rocket: tuple[Section, ...]
    builders: tuple[PlayerId | None, ...]
    sequence_players: tuple[PlayerId | None, ...]
    scrapped_by: PlayerId | None = None

    @property
    def launched(self) -> bool:
        return self.scrapped_by is None


@dataclass(frozen=True, slots=True)
class PublicView:
    """Everything on the table; no card in any hand."""

    rules: Rules
    phase: Phase
    outcome: Outcome | None
    turn: int
    active_player: PlayerId | None
    seats: tuple[SeatView, ...]
    apophis_value: int
    damage: int
    counters: int
    rocket: tuple[Section, ...]
    points: dict[Colour, int]
    sequence: tuple[Colour, ...]
    depot: tuple[Section, ...]
    deck_size: int
    discard_size: int
    pending: dict[str, Any] | None
    #: Who built each section of `rocket`, bottom first (None: not known, as in a game
    #: saved before the engine kept it).
    builders: tuple[PlayerId | None, ...] = ()
    #: Who played each card of `sequence`, in the same order (None: not known).
    sequence_players: tuple[PlayerId | None, ...] = ()
    #: The turn (`turn`'s count then) in which each section of `rocket` was built, and
    #: each card of `sequence` played (None: not known).
    built_turns: tuple[int | None, ...] = ()
    sequence_turns: tuple[int | None, ...] = ()
    #: The rockets launched or scrapped earlier in the game, oldest first (the latest
    #: `PAST_ROCKETS_KEPT`; none from before the engine kept them).
    past_rockets: tuple[PastRocket, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one player sees: the table and their own hand."""

    player: PlayerId
    hand: tuple[str, ...]
    table: PublicView
