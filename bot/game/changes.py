"""What happened to a table, as one stream of typed changes that every listener subscribes to.

The game service publishes each change once it is committed (or, for what the store does
not keep, once it is made); the Discord outbox, the web table's feed, the crewmates' driver
and the autopilot subscribe, each taking the changes it cares for. Listeners are told in
the order they subscribed, synchronously: none may block, and what takes time they queue.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.table import Change, Table


@dataclass(frozen=True, slots=True)
class Followed:
    """The service follows a table from now on: a lobby opened, or a game came back at start-up."""

    table: Table


@dataclass(frozen=True, slots=True)
class BoardChanged:
    """The table's state changed: its board (and everything drawn from it) should show it."""

    table: Table


@dataclass(frozen=True, slots=True)
class LobbyChanged:
    """A lobby's seats changed (a join, a leave, a crewmate, a kick)."""

    table: Table


@dataclass(frozen=True, slots=True)
class BoardOutdated:
    """The board should be redrawn although the game did not change (a setting did)."""

    table: Table


@dataclass(frozen=True, slots=True)
class HandChanged:
    """A player's hand changed (`changes` say how, to be worded for them)."""

    table: Table
    player: int
    changes: list[Change]


@dataclass(frozen=True, slots=True)
class PanelChanged:
    """A player's private panel should be redrawn (their turn came, or a change not theirs)."""

    table: Table
    player: int


@dataclass(frozen=True, slots=True)
class TurnPassed:
    """It is `player`'s turn now (None: nobody's, the game is over)."""

    table: Table
    player: int | None


@dataclass(frozen=True, slots=True)
class ReportChanged:
    """The current launch's report (`table.report`) has new lines."""

    table: Table


@dataclass(frozen=True, slots=True)
class Posted:
    """Something to tell the table's channel (a timer's notice, a held-up game)."""

    table: Table
    content: str


@dataclass(frozen=True, slots=True)
class Settled:
    """No interaction will answer for what was just told (a timer, the web): send it now."""

    table: Table


TableChange = (
    Followed
    | BoardChanged
    | LobbyChanged
    | BoardOutdated
    | HandChanged
    | PanelChanged
    | TurnPassed
    | ReportChanged
    | Posted
    | Settled
)
Listener = Callable[[TableChange], None]


class Stream:
    """The changes of every table, told to every subscriber (see the module docstring)."""

    def __init__(self) -> None:
        self.listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> None:
        self.listeners.append(listener)

    def publish(self, change: TableChange) -> None:
        for listener in self.listeners:
            listener(change)
