"""The game database: games, seats, the action log, server settings and results.

`Store` is the one interface the bot uses, whichever database is behind it: an SQLite
file (`bot.store.sqlite`, the default) or PostgreSQL (`bot.store.postgres`, when
APOPHIS_DATABASE is a ``postgresql://`` URL). Both are a `bot.store.database.Database`,
all the store knows of them once one is open. Every statement is in a module of its job
(`bot.store.games`, `lobbies`, `actions`, `clocks`, ...: bot.store.transactions), written
once for both; the records it returns and the errors it raises are in
`bot.store.records`.

The same guarantees on both:

* One accepted action is one transaction: the new state, the bumped version and the
  log row (plus, when the game ends, its result, each person's tallies and streaks, and
  the firsts earned with it) commit together or not at all.
  A write naming a version other than the stored one is refused (`StaleVersion`),
  whichever process wrote the newer one.
* At most one open game per channel, and an append-only action log, enforced by the
  database itself.
* A newer schema than the bot knows, or a database that cannot be used, is refused
  with a `DatabaseUnusable` error before anything is written.
* Every call ends about a second after it was made at the latest, well inside Discord's
  3 seconds for answering a player: one that cannot have the database in time fails
  cleanly with `StoreBusy`, having written nothing.

Clocks: while the bot runs, an active game's clock is a deadline (unix time). A
planned shutdown calls `freeze_clocks`, turning deadlines into seconds remaining.
After a crash nothing was frozen, so the bot's heartbeat (`touch_alive`, every few
seconds) tells `resume_clocks` when the bot was last known alive; the time between
that and the restart is given back to the players. Clocks never run while the bot
is down. A process running some of the bot's shards (`Shards`) freezes, resumes and
beats for the games of its shards only: each shard has its own heartbeat.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from bot.lobby_settings import DIFFICULTIES, RULES, LobbySettings
from bot.store import (
    actions,
    clocks,
    firsts,
    games,
    history,
    lobbies,
    meta,
    newcomers,
    sessions,
    settings,
    talk,
    tallies,
    users,
)
from bot.store.database import Database, Leases, Notices, Turn
from bot.store.postgres import PostgresDatabase, is_postgresql
from bot.store.records import (
    ALL_SHARDS,
    OUTCOMES,
    REACHES,
    GameRecord,
    GuildSettings,
    Leaderboard,
    LoggedAction,
    Profile,
    Shards,
    Stats,
    check_choice,
)
from bot.store.sqlite import DEFAULT_DATABASE, SQLiteDatabase


class Store:
    """The bot's database. Create with `await Store.open(database)`; every method is a coroutine."""

    def __init__(self, db: Database, shards: Shards = ALL_SHARDS) -> None:
        self._db = db
        #: The shards this process runs: clocks are frozen, resumed and beat for their games.
        self.shards = shards

    def __str__(self) -> str:
        return str(self._db)

    @classmethod
    async def open(
        cls, database: str | os.PathLike[str] = DEFAULT_DATABASE, shards: Shards = ALL_SHARDS
    ) -> Store:
        """Open (creating and migrating if needed) an SQLite file or a postgresql:// URL.

        An unusable database raises a `DatabaseUnusable` error and is left as it was.
        """
        backend: type[Database] = PostgresDatabase if is_postgresql(database) else SQLiteDatabase
        return cls(await backend.open(database), shards)

    async def close(self) -> None:
        """Close the database's connections."""
        await self._db.close()

    async def ready(self) -> None:
        """Whether the database can take the bot's writes now (the bot's readiness): raises
        why not (`Database.ready`). Writes nothing."""
        await self._db.ready()

    # ------------------------------------------------------------ web sessions

    async def end_session(self, signature: str, expires: float, now: float) -> None:
        """Remember that a web session ended before its time (`expires`), for every process."""
        await self._db.write(sessions.end_session, signature, expires, now)

    async def session_ended(self, signature: str) -> bool:
        """Whether the web session of that signature was ended (on any process)."""
        return await self._db.read(sessions.session_ended, signature)

    async def sessions_ended_since(self, since: float) -> list[str]:
        """The web sessions ended at `since` or later (unix time), oldest first."""
        return await self._db.read(sessions.sessions_ended_since, since)

    # ----------------------------------------------------------------- lobbies

    async def create_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        settings: LobbySettings,
        *,
        now: float | None = None,
        host_name: str | None = None,
        reach: str = "channel",
    ) -> GameRecord:
        """Open a lobby set to `settings` in a channel with the host in seat 0 (`reach`: how
        the bot reaches its players there, 0013_reach); ChannelBusy if one is open."""
        _check(settings)
        check_choice("reach", reach, REACHES)
        return await self._db.write(
            lobbies.create_lobby,
            guild_id,
            channel_id,
            host_id,
            settings,
            _now(now),
            host_name,
            reach,
        )

    async def play_again(
        self,
        game_id: int,
        channel_id: int,
        host_id: int,
        *,
        now: float | None = None,
        host_name: str | None = None,
        reach: str = "channel",
    ) -> GameRecord:
        """Open a lobby like an ended game, in its channel (Play again): the same rules,
        difficulty and countdown, its players reached as `reach` says; `host_id`, who
        played it, hosts from their seat of that game, its crewmates keep theirs, and
        everyone else who played it is invited back to theirs. NotLatest if a newer game
        was opened there, NotSeated if `host_id` did not play it, ChannelBusy if the
        channel has an open game."""
        return await self._db.write(
            lobbies.play_again, game_id, channel_id, host_id, _now(now), host_name, reach
        )

    async def add_player(
        self, game_id: int, user_id: int, *, now: float | None = None, name: str | None = None
    ) -> GameRecord:
        """Seat a player in a lobby, with their display name: someone invited in their seat
        of the game before, anyone else after every seat taken or kept."""
        return await self._db.write(lobbies.add_player, game_id, user_id, _now(now), name)

    async def remove_player(
        self, game_id: int, user_id: int, *, now: float | None = None
    ) -> GameRecord:
        """Free a player's seat in a lobby (the others keep their join order)."""
        return await self._db.write(lobbies.remove_player, game_id, user_id, _now(now))

    async def removed_from(self, game_id: int) -> set[int]:
        """The players of a game its host or a moderator removed (not those who left)."""
        return await self._db.read(lobbies.removed_by_others, game_id)

    async def drop_invitation(self, game_id: int, user_id: int) -> GameRecord:
        """Withdraw a lobby's invitation to someone (they left the server)."""
        return await self._db.write(lobbies.drop_invitation, game_id, user_id)

    async def configure_lobby(
        self, game_id: int, settings: LobbySettings, *, now: float | None = None
    ) -> GameRecord:
        """Change a lobby's settings (WrongStatus once it started)."""
        _check(settings)
        return await self._db.write(lobbies.configure_lobby, game_id, settings, _now(now))

    async def cancel_lobby(self, game_id: int, *, now: float | None = None) -> None:
        """Close a lobby that will not start (its channel becomes free)."""
        await self._db.write(lobbies.cancel_lobby, game_id, _now(now))

    async def start_game(
        self,
        game_id: int,
        *,
        seed: int,
        start_player: int,
        state: Mapping[str, Any],
        deadline: float,
        now: float | None = None,
        thread_id: int | None = None,
    ) -> GameRecord:
        """Turn a lobby into an active game at version 0 with its clock running; with a
        `thread_id`, the game moves to that thread of its channel (the channel is free)."""
        return await self._db.write(
            lobbies.start_game,
            game_id,
            seed,
            start_player,
            _dumps(state),
            list(state["players"]),
            deadline,
            _now(now),
            thread_id,
        )

    # ------------------------------------------------------------------- play

    async def commit_action(
        self,
        game_id: int,
        expected_version: int,
        *,
        state: Mapping[str, Any],
        actor: int | None,
        action: Mapping[str, Any],
        events: Sequence[Mapping[str, Any]],
        outcome: str | None = None,
        removed_player: int | None = None,
        host_id: int | None = None,
        now: float | None = None,
        autopiloted: int | None = None,
        seated: tuple[int, str | None] | None = None,
    ) -> int:
        """Store one accepted action atomically and return the game's new version.

        `state` is the game after the action, `events` what it caused (as dicts),
        `actor` who acted (None for the bot). An `outcome` ends the game: status
        finished (or abandoned), clock stopped, result row written. `removed_player`
        frees that player's seat (the engine's remove_player action); `host_id` names
        the game's new host (the host left); `autopiloted` the person whose seat the
        autopilot played this move (the game is then not an all-human result: its result
        counts that seat with the crewmates'); `seated` the one who sat down mid-game, with
        their display name (the engine's take_seat: the seat they took is `removed_player`'s,
        if anyone's). Raises StaleVersion when the stored version is not `expected_version`.
        """
        if outcome is not None:
            check_choice("outcome", outcome, OUTCOMES)
        return await self._db.write(
            actions.commit_action,
            game_id,
            expected_version,
            _dumps(state),
            actor,
            _dumps(action),
            _dumps(events),
            outcome,
            removed_player,
            host_id,
            _now(now),
            autopiloted,
            seated,
        )

    async def set_board_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the id of the game's board message."""
        await self._db.write(actions.set_board_message, game_id, message_id)

    # ------------------------------------------------------------------ reads

    async def get_game(self, game_id: int) -> GameRecord:
        """One game by id; GameNotFound if there is none."""
        return await self._db.read(games.load_game, game_id)

    async def active_game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The channel's lobby or active game, if any."""
        return await self._db.read(games.open_game_in_channel, channel_id)

    async def load_active_games(self) -> list[GameRecord]:
        """Every lobby and active game with its seats and clock, in id order (two queries)."""
        return await self._db.read(games.load_open_games, self.shards)

    async def game_log(self, game_id: int) -> list[LoggedAction]:
        """A game's action log in version order (replays from its seed to its state)."""
        return await self._db.read(actions.game_log, game_id)

    async def game_as_told(
        self, game_id: int, since: int = 0
    ) -> tuple[GameRecord, list[LoggedAction], list[tuple[int, str, int]]]:
        """A game, its actions logged after version `since`, and its standing signals
        (player, code, last turn): what a process that does not own it shows, in one read
        (GameNotFound if there is none)."""
        return await self._db.read(actions.game_as_told, game_id, since)

    # ------------------------------------------------------------ table talk

    async def set_signal(
        self, game_id: int, player: int, signal: str, until_turn: int, now: float | None = None
    ) -> None:
        """A player's latest signal in a game (engine.signals: its code, and the last turn
        it stands), in place of the one before."""
        await self._db.write(talk.set_signal, game_id, player, signal, until_turn, _now(now))

    async def open_signals(self) -> list[tuple[int, int, str, int]]:
        """The latest signals of every game in play: (game, player, code, last turn),
        oldest first."""
        return await self._db.read(talk.open_signals)

    # ------------------------------------------------- clocks and the bot itself

    async def get_meta(self, key: str) -> Any:
        """A value the bot keeps about itself (e.g. the hash of its synced commands)."""
        return await self._db.read(meta.get_meta, key)

    async def set_meta(self, key: str, value: Any) -> None:
        """Remember a value the bot keeps about itself."""
        await self._db.write(meta.set_meta, key, value)

    async def touch_alive(self, now: float | None = None) -> None:
        """Record that the bot is alive now (call every few seconds)."""
        await self._db.write(clocks.touch_alive, self.shards, _now(now))

    async def freeze_clocks(self, now: float | None = None) -> int:
        """Stop every running clock (planned shutdown); returns how many were running."""
        return await self._db.write(clocks.freeze_clocks, self.shards, _now(now))

    async def resume_clocks(self, now: float | None = None) -> list[GameRecord]:
        """Start-up recovery: restart every clock from where it stopped; return open games.

        A clock frozen by `freeze_clocks` keeps its remaining time. A clock still
        running (the bot crashed) stopped when the bot was last known alive: the later
        of the last heartbeat and the game's last write.
        """
        return await self._db.write(clocks.resume_clocks, self.shards, _now(now))

    # ------------------------------------------------------- users and servers

    async def get_dm_channel(self, user_id: int) -> int | None:
        """The user's DM channel id, if known."""
        return await self._db.read(users.get_dm_channel, user_id)

    async def get_user_locale(self, user_id: int) -> str | None:
        """The Discord locale last seen from a user (None: never seen)."""
        return await self._db.read(users.get_user_locale, user_id)

    async def set_user_locale(self, user_id: int, locale: str) -> None:
        await self._db.write(users.set_user_locale, user_id, locale)

    async def set_dm_channel(self, user_id: int, channel_id: int) -> None:
        """Remember the user's DM channel id."""
        await self._db.write(users.set_dm_channel, user_id, channel_id)

    async def get_hand_dm(self, game_id: int, user_id: int) -> int | None:
        """The id of the one DM that carries the player's hand in this game, if sent."""
        return await self._db.read(users.get_hand_dm, game_id, user_id)

    async def set_hand_dm(self, game_id: int, user_id: int, message_id: int) -> None:
        """Remember the DM that carries the player's hand in this game."""
        await self._db.write(users.set_hand_dm, game_id, user_id, message_id)

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (defaults if it never changed any)."""
        return await self._db.read(settings.guild_settings, guild_id)

    async def update_guild_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some of a server's settings (keyword names are GuildSettings fields)."""
        if "guild_id" in changes:
            raise TypeError("guild_id cannot be changed")
        return await self._db.write(settings.update_guild_settings, guild_id, changes)

    async def guilds_without_pictures(self) -> set[int]:
        """The servers that turned board pictures off."""
        return await self._db.read(settings.guilds_without_pictures)

    async def autopilot_delays(self) -> dict[int, int]:
        """The autopilot delay in seconds (0: off) of each server with settings."""
        return await self._db.read(settings.autopilot_delays)

    async def stats(self, guild_id: int) -> Stats:
        """Ended games by rule set and difficulty, and the five fastest wins."""
        return await self._db.read(tallies.stats, guild_id)

    async def profile(self, guild_id: int, user_id: int) -> Profile:
        """A person's games on a server by rule set and difficulty (crewmates apart): wins,
        launches, hits and damage, their fastest wins and streaks, and their firsts."""
        return await self._db.read(tallies.profile, guild_id, user_id)

    async def conversation_profile(self, channel_id: int, user_id: int) -> Profile:
        """A person's games in one DM or group DM, as `profile` counts a server's."""
        return await self._db.read(tallies.conversation_profile, channel_id, user_id)

    async def game_firsts(self, game_id: int) -> list[tuple[int, str]]:
        """The firsts people earned with a game (bot.store.records.FIRSTS): (person,
        first) each, by person."""
        return await self._db.read(firsts.game_firsts, game_id)

    async def leaderboard(self, guild_id: int) -> Leaderboard:
        """A server's fastest all-human wins per difficulty, and its people ranked by the
        lower bound of their win rate (those with enough all-human games)."""
        return await self._db.read(tallies.leaderboard, guild_id)

    async def newness(self, guild_id: int, people: Sequence[int]) -> newcomers.Newness:
        """Whether a team has won on the server (0: none), and which of `people` have won a
        game, and finished one, anywhere."""
        return await self._db.read(newcomers.newness, guild_id, people)

    # ------------------------------------------------------- other processes

    async def take_turn(self, key: int) -> Turn | None:
        """Wait for this process's turn at something the bot's processes do one at a time.

        Every process sharing the database takes turns (on PostgreSQL, advisory lock
        `key`) and holds its turn until `Turn.end_in` ends it. None when no other
        process can share the database (SQLite): there is nobody to take turns with.
        """
        return await self._db.take_turn(key)

    async def leases(self) -> Leases | None:
        """Where this process holds its shards' leases (none held yet), so that no other
        process runs them (bot.store.leases). None when no other process can share the
        database (SQLite): nobody to lease from."""
        return await self._db.leases()

    async def notices(self) -> Notices | None:
        """Notices to and from the other processes sharing the database (bot.store.notices);
        None when none can share it (SQLite)."""
        return await self._db.notices()

    # ----------------------------------------------------------------- backup

    async def backup(self, dest: str | os.PathLike[str]) -> int:
        """Copy the live database to `dest` without pausing the bot; returns its size in bytes.

        SQLite only: a PostgreSQL database is backed up with pg_dump (StoreError says so).
        """
        return await self._db.backup(dest)

    # ------------------------------------------------------ history and replays

    async def recent_games(self, guild_id: int, limit: int) -> list[GameRecord]:
        """A server's last `limit` ended games (those that started), the latest first."""
        return await self._db.read(history.recent_games, guild_id, limit)

    async def recent_games_in_conversation(self, channel_id: int, limit: int) -> list[GameRecord]:
        """A DM's or a group DM's last `limit` ended games (those that started), the latest
        first."""
        return await self._db.read(history.recent_games_in_conversation, channel_id, limit)


def _check(settings: LobbySettings) -> None:
    """ValueError unless the store keeps rules and a difficulty a lobby may have."""
    check_choice("rules", settings.rules, RULES)
    check_choice("difficulty", settings.difficulty, DIFFICULTIES)


def _now(now: float | None) -> float:
    return time.time() if now is None else now


def _dumps(value: Any) -> str:
    return orjson.dumps(value).decode()
