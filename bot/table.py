"""The shared nouns of the bot: a channel's table, its launch report, hand changes, crewmate seats.

Every layer above the store may import this module; it imports only the store's
records, a lobby's settings and the engine. A crewmate's `Notice` says why it made a
move, in public.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.lobby_settings import LobbySettings, SetUp
from bot.store.records import GameRecord
from engine import Game
from engine import events as ev
from engine.signals import Said

#: How many lines the board's *Last actions* keeps.
RECENT_LINES = 6

#: A change of one player's hand, to be worded later: (message key, its cards).
Change = tuple[str, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Notice:
    """Why a crewmate makes a move its teammates might not expect, told in public with it.

    `code` is one of `engine.crew.NOTICES` and `params` its parameters; `plan` the
    rocket it aims for, as (colour, size) pieces bottom to top (empty: none).
    """

    code: str
    params: dict[str, Any]
    plan: tuple[tuple[str, int], ...] = ()


def is_crewmate(player: int) -> bool:
    """Whether a seat is held by an AI crewmate (Discord ids are positive)."""
    return player < 0


def next_crewmate(seats: list[int]) -> int:
    """The id for a new crewmate in a lobby: -1, -2 or -3, the first one free."""
    return next(-n for n in range(1, len(seats) + 2) if -n not in seats)


#: What `seat_to_take` names for a seat someone left empty (no player has id 0).
EMPTY_SEAT = 0


def seat_to_take(game: Game) -> int | None:
    """The seat a member who is not seated may take in a game in play: the first crewmate's
    (its id), else EMPTY_SEAT where someone left one, else None (none is free)."""
    if game.is_over:
        return None
    crewmates = [player for player in game.players if is_crewmate(player)]
    if crewmates:
        return crewmates[0]
    return EMPTY_SEAT if len(game.players) < game.seats else None


@dataclass(eq=False)
class Report:
    """The current launch told step by step: one report per launch, updated in place."""

    lines: list[str]
    #: The language it is told in: the channel's when the launch started, kept to its end
    #: (a language chosen meanwhile speaks from the next message on).
    language: str = "en"
    #: The launch's events as the public sees them (its picture is drawn from them).
    events: list[ev.GameEvent] = field(default_factory=list)
    #: Whether it waits for a reroll decision.
    open: bool = False
    #: Folded to one line: the launch is over and someone has acted since.
    folded: bool = False
    #: Bumped by every change; `shown` is the count the report message shows.
    changes: int = 1
    shown: int = 0


@dataclass(eq=False)
class Messages:
    """Where a table shows in its channel: the board's message and what came below it."""

    #: The board (or the lobby) message, once posted.
    board_id: int | None = None
    #: Messages posted in the channel below the board since it was posted.
    below: int = 0
    #: When (time.monotonic) `/board` last posted this game's board again.
    reposted_at: float = float("-inf")


@dataclass(eq=False)
class Runtime:
    """What a table needs while this process runs it, never stored: its lock, its timers,
    its time and how fast it runs, and when each person last acted in it."""

    #: The game's own lock: every action on it is made holding it (bot.game.actions).
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: The clock's timer (its next warning or the end), and the running reshuffle's.
    timers: list[asyncio.TimerHandle] = field(default_factory=list)
    reshuffle_timer: asyncio.TimerHandle | None = None
    #: Unix time the running reshuffle ends, and how fast game time runs (demos).
    reshuffle_ends: float | None = None
    time_scale: float = 1.0
    #: The game's time (the service's clock, bot.game.timer), as what is drawn reads it.
    now: Callable[[], float] = time.time
    #: When (the service's clock) each person last clicked or typed something in this game,
    #: and the autopilot's moves since every person went on autopilot (bot.game.autopilot).
    seen: dict[int, float] = field(default_factory=dict)
    unattended: int = 0
    #: When (the service's clock) each person's latest signals were said (bot.game.talk).
    talked: dict[int, deque[float]] = field(default_factory=dict)
    #: Who made the last move saved here, and its kind (an action's "type"): a click aimed
    #: at an older board that repeats it was a double click (bot.errors.StaleBoard.of).
    last: tuple[int | None, str] | None = None


@dataclass(eq=False)
class Table(SetUp):
    """A channel's lobby or game, as the running bot holds it: the game's state and who plays
    it where (here), its messages (`messages`), and what running it takes (`runtime`)."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    #: What its host set the lobby to (bot.lobby_settings).
    settings: LobbySettings
    status: str
    seats: list[int]
    version: int = 0
    game: Game | None = None
    #: The game's state as last committed (what a failed commit puts the game back to).
    stored: dict[str, Any] | None = None
    #: The channel whose lobby message the game's thread (`channel_id`) was opened from,
    #: when it plays in a thread of its own (bot.discord.threads); else None.
    parent_id: int | None = None
    #: How the bot reaches its players (bot.game.access: "channel", or "interactions" alone
    #: where no channel route works: a user-installed app in a server without the bot, a
    #: DM or a group DM).
    reach: str = "channel"
    #: Unix time the clock runs out, while it runs.
    deadline: float | None = None
    #: Seconds that were left when the clock stopped (game over).
    remaining: float | None = None
    recent: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT_LINES))
    #: The current (or last) launch's report.
    report: Report | None = None
    #: Once the game is over: every event of its action log, oldest first, read back from
    #: the store (its final board sums up the launches from them, those before a restart
    #: too).
    history: list[ev.GameEvent] = field(default_factory=list)
    #: Once the game is over: the firsts its people earned with it, (person, first) each
    #: (bot.store.records.FIRSTS), read back from the store (its final board tells them).
    firsts: list[tuple[int, str]] = field(default_factory=list)
    #: The server's language and card display (what the channel reads).
    language: str = "en"
    cards: str = "suits"
    #: Whether the board carries its picture (the server's setting), and whether the channel
    #: lets the bot attach files (without it the board is in words).
    pictures: bool = True
    files: bool = True
    #: Whether the live table (bot.web) can be opened here: the lobby and the board carry a
    #: Table button (set as the service follows the table: bot.game.tables).
    web: bool = False
    #: People's display names by user id, as they took their seats.
    names: dict[int, str] = field(default_factory=dict)
    #: People invited back to this lobby by Play again, in the order of their seats.
    invited: list[int] = field(default_factory=list)
    #: When (unix time) the lobby last changed: opened, or a seat taken or freed.
    touched: float = 0.0
    #: People whose seats the autopilot plays (they went quiet).
    autopilot: set[int] = field(default_factory=set)
    #: Why the lobby offers the first games' difficulty (a catalog key; None: the server's
    #: usual default, or the host's choice), and the people seated who have never finished
    #: a game, and those of them shown the picture of a rocket that can launch
    #: (bot.game.newcomers).
    offer: str | None = None
    newcomers: set[int] = field(default_factory=set)
    welcomed: set[int] = field(default_factory=set)
    #: Each player's latest signal to the team (engine.signals; stored: bot.game.talk).
    said: dict[int, Said] = field(default_factory=dict)
    messages: Messages = field(default_factory=Messages)
    runtime: Runtime = field(default_factory=Runtime)

    @property
    def open(self) -> bool:
        return self.status in ("lobby", "active")

    @property
    def started_game(self) -> Game:
        """The game, where it is known to have started (asking a lobby is a bug)."""
        assert self.game is not None, f"table {self.id} is a lobby: it has no game"
        return self.game

    def name_of(self, player: int) -> str:
        """A player's name as a picture can draw it: their display name, "Robot 1" for a
        crewmate, else their seat ("#2", for a seat taken before names were kept)."""
        if is_crewmate(player):
            return f"Robot {-player}"
        name = self.names.get(player)
        if name:
            return name
        seats = list(self.game.players) if self.game is not None else self.seats
        return f"#{seats.index(player) + 1}" if player in seats else "?"

    @property
    def pictured(self) -> bool:
        """Whether the board and launch reports carry pictures here and now."""
        return self.pictures and self.files

    def on_autopilot(self, player: int) -> bool:
        """Whether the board marks `player`'s seat as played by the autopilot (never once
        the game has ended)."""
        return self.open and player in self.autopilot

    def time_left(self, now: float) -> float | None:
        if self.deadline is not None:
            return max(self.deadline - now, 0.0)
        return self.remaining

    @classmethod
    def from_record(cls, record: GameRecord) -> Table:
        table = cls(
            id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            host_id=record.host_id,
            settings=record.settings,
            status=record.status,
            seats=list(record.players),
            version=record.version,
            messages=Messages(board_id=record.board_message_id),
            parent_id=record.parent_channel_id,
            reach=record.reach,
            deadline=record.clock_deadline,
            remaining=record.clock_remaining,
            names=dict(record.names),
            invited=list(record.invited),
            touched=record.updated_at,
        )
        if record.state is not None:
            table.game, table.stored = Game.restore(record.state), record.state
            table.seats = list(table.game.players)
        return table
