"""What the game database stores and refuses: records, errors and choices, for every backend.

The store (`bot.store.store`) returns these records and raises these errors whichever
database is behind it (SQLite or PostgreSQL).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.lobby_settings import LobbySettings, SetUp
from engine import Outcome

#: How the bot reaches a game's players (bot.game.access CHANNEL, INTERACTIONS).
REACHES = ("channel", "interactions")
CARD_STYLES = ("suits", "colours")
#: The autopilot delays a server may choose, in seconds, shortest and longest (0: off).
AUTOPILOT_SECONDS = (30, 300)
#: The autopilot delay of a server that never chose one, and where none can (a DM).
DEFAULT_AUTOPILOT_SECONDS = 90
#: A game's outcomes, stored as the engine's names for them.
OUTCOMES = tuple(outcome.value for outcome in Outcome)
WINS = tuple(outcome.value for outcome in Outcome if outcome.won)
#: Statuses of a game that occupies its channel.
OPEN_STATUSES = ("lobby", "active")
#: The leaderboard ranks people with at least this many all-human games with a result...
RANKED_MIN_GAMES = 5
#: ...and shows this many of them, and this many of the fastest wins of each difficulty.
RANKED_PLAYERS = 10
FASTEST_PER_DIFFICULTY = 3
#: The firsts a person may earn on a server, each once, in the order a profile lists them:
#: the first game they won; won at hard; won in an all-human team (no crewmate, no
#: autopilot); won under the advanced rules; won with every launch on target (each launch
#: of the game passed its fuel check, its launch roll under the advanced rules, and its
#: accuracy roll: the engine's `LaunchEnded.hit`); won in under half the countdown.
FIRSTS = ("win", "hard", "people", "advanced", "on_target", "fast")
#: A server's shard is its id's timestamp bits (the id shifted right by this), modulo the
#: shard count (`shard_of`); the store's SQL finds it the same way.
SHARD_SHIFT = 22


# ------------------------------------------------------------------------ errors


class StoreError(Exception):
    """Base of every error the store raises on purpose."""


class DatabaseUnusable(StoreError):
    """The database cannot be used; it was not modified."""


class CorruptDatabase(DatabaseUnusable):
    """The file is not an SQLite database, or it is damaged."""


class UnreadableDatabase(DatabaseUnusable):
    """The file (or its folder) cannot be opened or read."""


class ReadOnlyDatabase(DatabaseUnusable):
    """The file can be read but not written."""


class UnreachableDatabase(DatabaseUnusable):
    """The database server refused the connection (a setting to fix)."""


class DatabaseNotUp(UnreachableDatabase):
    """The database server could not be reached for as long as start-up waits: it may be
    up later (the process exits with a status its service restarts)."""


class SchemaTooNew(DatabaseUnusable):
    """The database was written by a newer version of the bot."""


class DatabaseGone(DatabaseUnusable):
    """The database's file is no longer at its path: deleted, moved or replaced while the
    bot ran."""


class MigrationFailed(DatabaseUnusable):
    """A migration could not be applied: the database keeps the schema version it had."""

    def __init__(self, version: int, name: str, where: str, why: str) -> None:
        super().__init__(
            f"The migration migrations/{version:04d}_{name}.sql could not be applied to "
            f"{where} ({why}). Nothing of it was kept: the database stays at schema version "
            f"{version - 1}, usable once the cause is fixed (or restore the backup made "
            "before upgrading)."
        )


class StoreBusy(StoreError):
    """The database stayed locked (or queued) too long; nothing was written: try again."""


class ShardsHeld(StoreError):
    """Shards this process was told to run are held by another process (a setting to fix)."""


class LeaseLost(StoreError):
    """Shards this process ran were taken by another process while it could not reach the
    database: it must stop running them."""


class GameNotFound(StoreError):
    """No game has that id."""


class WrongStatus(StoreError):
    """The game is not in the status this operation needs (e.g. joining a started game)."""


class ChannelBusy(StoreError):
    """The channel already has a lobby or an active game."""


class StaleVersion(StoreError):
    """The write was based on an older version of the game than the stored one."""


class LobbyFull(StoreError):
    """The lobby already has the maximum number of players."""


class AlreadySeated(StoreError):
    """The player already has a seat in this game."""


class NotSeated(StoreError):
    """The player has no seat in this game."""


class SeatsChanged(StoreError):
    """The lobby's seats are not the players of the state being started."""


class NotLatest(StoreError):
    """A newer game was opened in the game's channel since (Play again is the latest's)."""


class Removed(StoreError):
    """The player was removed from that game by its host or a moderator."""


# ------------------------------------------------------------------------ records


@dataclass(frozen=True, slots=True)
class GameRecord(SetUp):
    """One game as stored, with its seats."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    #: Its lobby's settings, as its host chose them (bot.lobby_settings).
    settings: LobbySettings
    status: str
    seed: int | None
    start_player: int | None
    #: The engine's `Game.save()` data; None for a lobby.
    state: dict[str, Any] | None
    version: int
    board_message_id: int | None
    #: Unix time the clock runs out, while it runs.
    clock_deadline: float | None
    #: Seconds left, while the clock is frozen (and once the game has ended).
    clock_remaining: float | None
    created_at: float
    updated_at: float
    started_at: float | None
    ended_at: float | None
    outcome: str | None
    #: The channel whose lobby message the game's thread was opened from, when it plays in
    #: a thread of its own (`channel_id`); else None.
    parent_channel_id: int | None
    #: How the bot reaches its players: "channel", or "interactions" alone (0013_reach).
    reach: str
    #: Players seated now, in seat order.
    players: tuple[int, ...]
    #: Everyone who took a seat, in seat order: the players `Game.new` was given.
    starting_players: tuple[int, ...]
    #: People's display names when they took their seats (by user id; crewmates have none).
    names: dict[int, str] = field(default_factory=dict)
    #: People invited to this lobby by Play again, in the order of their seats.
    invited: tuple[int, ...] = ()

    def time_left(self, now: float) -> float | None:
        """Seconds left on the clock at `now` (None for a lobby)."""
        if self.clock_deadline is not None:
            return max(self.clock_deadline - now, 0.0)
        return self.clock_remaining


@dataclass(frozen=True, slots=True)
class LoggedAction:
    """One row of a game's append-only action log."""

    version: int
    at: float
    actor: int | None
    action: dict[str, Any]
    events: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's settings; a server that never changed them has these defaults."""

    guild_id: int
    moderator_role_id: int | None = None
    language: str = "en"
    default_difficulty: str = "medium"
    default_rules: str = "basic"
    #: Whether the player whose turn it is gets pinged in the channel.
    turn_pings: bool = True
    #: Whether boards carry their picture.
    pictures: bool = True
    #: Whether `language` was chosen (else the server's Discord locale decides).
    language_chosen: bool = False
    #: The server's preferred locale as Discord last gave it.
    discord_locale: str | None = None
    #: How cards are shown: "suits" (7♥) or "colours" (the coloured-deck edition).
    cards: str = "suits"
    #: Seconds without a move after which the autopilot plays a person's turn (0: never).
    autopilot_seconds: int = DEFAULT_AUTOPILOT_SECONDS
    #: Whether each game plays in a thread of its own, opened from its lobby message.
    threads: bool = False


@dataclass(frozen=True, slots=True)
class Tally:
    """Ended games of one rule set and difficulty on one server, with or without crewmates."""

    rules: str
    difficulty: str
    games: int
    wins: int
    losses: int
    abandoned: int
    with_crewmates: bool = False


@dataclass(frozen=True, slots=True)
class Win:
    """One won game, for the fastest-wins table."""

    game_id: int
    rules: str
    difficulty: str
    players: int
    outcome: str
    duration_seconds: float
    ended_at: float


@dataclass(frozen=True, slots=True)
class Stats:
    """A server's statistics."""

    tallies: tuple[Tally, ...]
    fastest_wins: tuple[Win, ...]


@dataclass(frozen=True, slots=True)
class PlayerTally:
    """One person's ended games of one rule set and difficulty on one server, with or
    without crewmates: those with a result, those won (seated to the end), those
    abandoned, and the launches they started in all of them, the hits and the damage."""

    rules: str
    difficulty: str
    with_crewmates: bool
    games: int
    wins: int
    abandoned: int
    launches: int
    hits: int
    damage: int


@dataclass(frozen=True, slots=True)
class Streak:
    """A person's wins in a row on one server, of one kind of team: in their latest games
    with a result (0 once one was not a win for them), and the longest run."""

    current: int = 0
    best: int = 0


@dataclass(frozen=True, slots=True)
class First:
    """A first a person earned (one of `FIRSTS`), and the game that earned it."""

    kind: str
    game_id: int


@dataclass(frozen=True, slots=True)
class Profile:
    """A person's record on one server (no tallies: no game ended with them there)."""

    user_id: int
    tallies: tuple[PlayerTally, ...]
    #: Their fastest win in an all-human team, and with crewmates.
    fastest_win: Win | None
    fastest_win_with_crewmates: Win | None
    #: Their win streaks in all-human teams, and with crewmates.
    streak: Streak = Streak()
    streak_with_crewmates: Streak = Streak()
    #: The firsts they earned, in the order of `FIRSTS`.
    firsts: tuple[First, ...] = ()


@dataclass(frozen=True, slots=True)
class TeamWin:
    """One of a server's fastest wins, with the people seated to the end, in seat order."""

    win: Win
    team: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Ranked:
    """A person on a server's leaderboard: their games with a result (all-human, or with
    crewmates), those won, and the lower bound of their win rate that ranks them."""

    user_id: int
    games: int
    wins: int
    score: float


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """A server's fastest all-human wins, a few per difficulty (easiest first), and its
    people with at least `RANKED_MIN_GAMES` such games, best first; and the same of teams
    with crewmates (an AI played a seat), apart."""

    fastest_wins: tuple[TeamWin, ...]
    players: tuple[Ranked, ...]
    fastest_wins_with_crewmates: tuple[TeamWin, ...] = ()
    players_with_crewmates: tuple[Ranked, ...] = ()


@dataclass(frozen=True, slots=True)
class Shards:
    """The Discord shards a process runs: a game belongs to the shard of its `home` (its
    server, or, without one, its channel). No ids: a process that owns no game (the live
    table alone, beside the processes that run the shards)."""

    ids: tuple[int, ...] = (0,)
    count: int = 1

    def __post_init__(self) -> None:
        if self.count < 1 or not all(0 <= i < self.count for i in self.ids):
            raise ValueError(f"shards {self.ids} are not all in 0..{self.count - 1}")

    @property
    def all(self) -> bool:
        """Whether these are all the shards there are (one process runs every server)."""
        return len(set(self.ids)) == self.count

    def of(self, guild_id: int) -> int:
        """The shard of a server, as Discord routes it."""
        return shard_of(guild_id, self.count)

    def __contains__(self, guild_id: int) -> bool:
        return self.of(guild_id) in self.ids

    def home_of(self, guild_id: int, channel_id: int) -> int:
        """The shard a game (or a channel with none yet) belongs to: its server's, or, for
        a DM or a group DM, its channel's (so that they spread over the processes)."""
        return shard_of(home(guild_id, channel_id), self.count)

    def own(self, guild_id: int, channel_id: int) -> bool:
        """Whether this process owns the games of that server's (or conversation's) channel."""
        return self.home_of(guild_id, channel_id) in self.ids

    def __str__(self) -> str:
        return f"{','.join(map(str, self.ids))} of {self.count}"


#: One process running every server.
ALL_SHARDS = Shards()


def home(guild_id: int, channel_id: int) -> int:
    """What decides a game's shard: its server, or, with none (a DM or a group DM), its
    channel; the store's SQL finds it the same way (bot.store.games.HOME)."""
    return guild_id or channel_id


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard of a server among `shard_count`, as Discord routes it."""
    return (guild_id >> SHARD_SHIFT) % shard_count


def check_choice(what: str, value: str, allowed: Sequence[str]) -> None:
    """ValueError unless `value` is one of `allowed`."""
    if value not in allowed:
        raise ValueError(f"Unknown {what} {value!r}: expected one of {', '.join(allowed)}.")
