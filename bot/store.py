"""Persistence: games, seats, the action log, server settings and results in SQLite.

This module owns every SQL statement of the bot; the Discord layer only calls `Store`.

How it stays safe:

* One aiosqlite connection. Every public method runs as a single function on that
  connection's thread, and every write is one ``BEGIN IMMEDIATE ... COMMIT`` inside
  it: one thread hop per call, and transactions of concurrent tasks are serialised
  by aiosqlite's queue, so they can never interleave. (A caller cancelled while it
  waits does not cancel the call: it may still have committed.)
* Every call ends about `BUSY_TIMEOUT_MS` after it was made at the latest, well inside
  Discord's 3 seconds for answering a player: it waits (in the queue, then for another
  process's write lock) only until then. A write that cannot get the lock in time fails
  cleanly with `StoreBusy` before writing anything: SQLite's own busy timeout, never a
  cancelled transaction.
* One accepted action is one transaction: the new state, the bumped version and the
  log row (plus the result row when the game ends) commit together or not at all.
  A write naming a version other than the stored one is refused (`StaleVersion`).
* WAL journal with ``synchronous=NORMAL``: a killed process loses nothing that was
  committed (a power cut may lose the last few commits, never consistency).
* Opening checks the file before writing anything to it: a damaged, unreadable,
  read-only or newer-schema database raises a `DatabaseUnusable` error and is left
  exactly as it was.

Clocks: while the bot runs, an active game's clock is a deadline (unix time). A
planned shutdown calls `freeze_clocks`, turning deadlines into seconds remaining.
After a crash nothing was frozen, so the bot's heartbeat (`touch_alive`, every few
seconds) tells `resume_clocks` when the bot was last known alive; the time between
that and the restart is given back to the players. Clocks never run while the bot
is down.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite
import orjson

import migrations

#: Where the database lives unless the configuration (APOPHIS_DATABASE) says otherwise.
DEFAULT_DATABASE = "data/apophis.sqlite3"
#: How long a call may wait for the database (in the connection's queue, and for another
#: connection's write lock) before it gives up with StoreBusy; a player's command makes at
#: most two calls before it is answered, inside Discord's 3 seconds.
BUSY_TIMEOUT_MS = 1_000
#: Opening (checks, migrations) and a backup wait longer: no player is waiting on them.
OPEN_BUSY_TIMEOUT_MS = 5_000
MAX_SEATS = 4
RULES = ("basic", "advanced")
DIFFICULTIES = ("beginner", "easy", "medium", "hard", "custom")
OUTCOMES = ("destroyed", "deflected", "lost", "abandoned")
WINS = ("destroyed", "deflected")
#: The meta key of the bot's heartbeat (unix time it was last known alive).
LAST_ALIVE = "last_alive"
#: Statuses of a game that occupies its channel.
OPEN_STATUSES = ("lobby", "active")

T = TypeVar("T")


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


class SchemaTooNew(DatabaseUnusable):
    """The database was written by a newer version of the bot."""


class StoreBusy(StoreError):
    """The database stayed locked (or queued) too long; nothing was written: try again."""


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


# ------------------------------------------------------------------------ records


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game as stored, with its seats."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    rules: str
    difficulty: str
    length_seconds: int
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
    #: Players seated now, in seat order.
    players: tuple[int, ...]
    #: Everyone who took a seat, in seat order: the players `Game.new` was given.
    starting_players: tuple[int, ...]

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


# ------------------------------------------------------------------------- store


class Store:
    """The bot's database. Create with `await Store.open(path)`; every method is a coroutine."""

    def __init__(self, db: aiosqlite.Connection, path: Path) -> None:
        self._db = db
        self.path = path
        #: The busy timeout last set on the connection (milliseconds; only its thread reads it).
        self._busy_ms = OPEN_BUSY_TIMEOUT_MS

    @classmethod
    async def open(cls, path: str | os.PathLike[str] = DEFAULT_DATABASE) -> Store:
        """Open (creating if needed) and migrate the database; refuse an unusable one."""
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UnreadableDatabase(f"Cannot create the folder for {path}: {exc}.") from exc
        # Checks and migrations run on a connection of their own, in a worker thread:
        # a refused file never gets as far as the store's long-lived connection.
        await asyncio.to_thread(_prepare, path)
        try:
            db = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise _unusable(exc, path) from exc
        store = cls(db, path)
        try:
            await db._execute(_configure, db._conn)
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        """Close the connection (WAL contents are checkpointed into the file)."""
        await self._db.close()

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run `fn(connection, *args)` on the connection's thread, as one queue item.

        It waits for another connection's write lock only for what is left of
        BUSY_TIMEOUT_MS when it starts (none, if queued that long): else StoreBusy,
        nothing written.
        """
        # aiosqlite runs queued callables one at a time on its thread. It has no public
        # way to queue our own callable, so this is the one place that uses _execute:
        # a whole transaction in one hop that no other task's statements can split.
        # Each call's time runs from when it was made: a call queued behind others
        # made earlier ends no later than its own time, however long the queue.
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        return await self._db._execute(self._in_time, deadline, fn, *args)

    def _in_time(self, deadline: float, fn: Callable[..., T], *args: Any) -> T:
        """On the connection's thread: `fn` with the busy timeout cut to the time left."""
        conn = self._db._conn
        # In steps of 50 ms, rounded down: the pragma is rarely needed twice in a row. Out
        # of time, it still runs, but without waiting: reading never needs the write lock.
        busy_ms = max(int((deadline - time.monotonic()) * 20) * 50, 0)
        if busy_ms != self._busy_ms:
            conn.execute(f"PRAGMA busy_timeout = {busy_ms}")
            self._busy_ms = busy_ms
        try:
            return fn(conn, *args)
        except sqlite3.OperationalError as exc:
            if getattr(exc, "sqlite_errorname", "").startswith("SQLITE_BUSY"):
                raise StoreBusy(
                    "Another connection held the database for too long; nothing was written."
                ) from exc
            raise

    # ----------------------------------------------------------------- lobbies

    async def create_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        rules: str,
        difficulty: str,
        length_seconds: int,
        *,
        now: float | None = None,
    ) -> GameRecord:
        """Open a lobby in a channel with the host in seat 0; ChannelBusy if one is open."""
        _check_choice("rules", rules, RULES)
        _check_choice("difficulty", difficulty, DIFFICULTIES)
        return await self._run(
            _create_lobby,
            guild_id,
            channel_id,
            host_id,
            rules,
            difficulty,
            length_seconds,
            _now(now),
        )

    async def add_player(
        self, game_id: int, user_id: int, *, now: float | None = None
    ) -> GameRecord:
        """Seat a player in a lobby (after those already seated)."""
        return await self._run(_add_player, game_id, user_id, _now(now))

    async def remove_player(self, game_id: int, user_id: int) -> GameRecord:
        """Free a player's seat in a lobby (the others keep their join order)."""
        return await self._run(_remove_player, game_id, user_id)

    async def cancel_lobby(self, game_id: int, *, now: float | None = None) -> None:
        """Close a lobby that will not start (its channel becomes free)."""
        await self._run(_cancel_lobby, game_id, _now(now))

    async def start_game(
        self,
        game_id: int,
        *,
        seed: int,
        start_player: int,
        state: Mapping[str, Any],
        deadline: float,
        now: float | None = None,
    ) -> GameRecord:
        """Turn a lobby into an active game at version 0 with its clock running."""
        return await self._run(
            _start_game,
            game_id,
            seed,
            start_player,
            _dumps(state),
            list(state["players"]),
            deadline,
            _now(now),
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
    ) -> int:
        """Store one accepted action atomically and return the game's new version.

        `state` is the game after the action, `events` what it caused (as dicts),
        `actor` who acted (None for the bot). An `outcome` ends the game: status
        finished (or abandoned), clock stopped, result row written. `removed_player`
        frees that player's seat (the engine's remove_player action); `host_id` names
        the game's new host (the host left). Raises StaleVersion when the stored version
        is not `expected_version`.
        """
        if outcome is not None:
            _check_choice("outcome", outcome, OUTCOMES)
        return await self._run(
            _commit_action,
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
        )

    async def set_board_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the id of the game's board message."""
        await self._run(_set_board_message, game_id, message_id)

    # ------------------------------------------------------------------ reads

    async def get_game(self, game_id: int) -> GameRecord:
        """One game by id; GameNotFound if there is none."""
        return await self._run(_read, _load_game, game_id)

    async def active_game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The channel's lobby or active game, if any."""
        return await self._run(_read, _open_game_in_channel, channel_id)

    async def load_active_games(self) -> list[GameRecord]:
        """Every lobby and active game with its seats and clock, in id order (two queries)."""
        return await self._run(_read, _load_open_games)

    async def game_log(self, game_id: int) -> list[LoggedAction]:
        """A game's action log in version order (replays from its seed to its state)."""
        return await self._run(_game_log, game_id)

    # ------------------------------------------------- clocks and the bot itself

    async def get_meta(self, key: str) -> Any:
        """A value the bot keeps about itself (e.g. the hash of its synced commands)."""
        return await self._run(_get_meta, key)

    async def set_meta(self, key: str, value: Any) -> None:
        """Remember a value the bot keeps about itself."""
        await self._run(_set_meta, key, value)

    async def touch_alive(self, now: float | None = None) -> None:
        """Record that the bot is alive now (call every few seconds)."""
        await self._run(_set_meta, LAST_ALIVE, _now(now))

    async def freeze_clocks(self, now: float | None = None) -> int:
        """Stop every running clock (planned shutdown); returns how many were running."""
        return await self._run(_freeze_clocks, _now(now))

    async def resume_clocks(self, now: float | None = None) -> list[GameRecord]:
        """Start-up recovery: restart every clock from where it stopped; return open games.

        A clock frozen by `freeze_clocks` keeps its remaining time. A clock still
        running (the bot crashed) stopped when the bot was last known alive: the later
        of the last heartbeat and the game's last write.
        """
        return await self._run(_resume_clocks, _now(now))

    # ------------------------------------------------------- users and servers

    async def get_dm_channel(self, user_id: int) -> int | None:
        """The user's DM channel id, if known."""
        return await self._run(_get_dm_channel, user_id)

    async def set_dm_channel(self, user_id: int, channel_id: int) -> None:
        """Remember the user's DM channel id."""
        await self._run(_set_dm_channel, user_id, channel_id)

    async def get_hand_dm(self, game_id: int, user_id: int) -> int | None:
        """The id of the one DM that carries the player's hand in this game, if sent."""
        return await self._run(_get_hand_dm, game_id, user_id)

    async def set_hand_dm(self, game_id: int, user_id: int, message_id: int) -> None:
        """Remember the DM that carries the player's hand in this game."""
        await self._run(_set_hand_dm, game_id, user_id, message_id)

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (defaults if it never changed any)."""
        return await self._run(_guild_settings, guild_id)

    async def update_guild_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some of a server's settings (keyword names are GuildSettings fields)."""
        if "guild_id" in changes:
            raise TypeError("guild_id cannot be changed")
        return await self._run(_update_guild_settings, guild_id, changes)

    async def guilds_without_pictures(self) -> set[int]:
        """The servers that turned board pictures off."""
        return await self._run(_read, _guilds_without_pictures)

    async def stats(self, guild_id: int) -> Stats:
        """Ended games by rule set and difficulty, and the five fastest wins."""
        return await self._run(_read, _stats, guild_id)

    # ----------------------------------------------------------------- backup

    async def backup(self, dest: str | os.PathLike[str]) -> int:
        """Copy the live database to `dest` without pausing the bot; returns its size in bytes."""
        return await asyncio.to_thread(backup_database, self.path, dest)


def backup_database(source: str | os.PathLike[str], dest: str | os.PathLike[str]) -> int:
    """Online copy of `source` to `dest` with SQLite's backup API; returns the copy's size.

    Uses its own read-only connection, so writers carry on meanwhile (WAL). The copy
    is written beside `dest` and renamed into place only once complete and checked.
    """
    source, dest = Path(source), Path(dest)
    if not dest.parent.is_dir():
        raise StoreError(f"The backup folder {dest.parent} does not exist.")
    if dest.exists() and dest.samefile(source):
        raise StoreError("The backup destination is the live database itself.")
    partial = dest.with_name(dest.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        with (
            closing(sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)) as src,
            closing(sqlite3.connect(partial)) as copy,
        ):
            src.execute(f"PRAGMA busy_timeout = {OPEN_BUSY_TIMEOUT_MS}")
            src.backup(copy)
            (verdict,) = copy.execute("PRAGMA quick_check").fetchone()
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        raise _unusable(exc, source) from exc
    if verdict != "ok":
        partial.unlink()
        raise CorruptDatabase(f"The backup of {source} failed its check: {verdict}.")
    os.replace(partial, dest)
    return dest.stat().st_size


# --------------------------------------------------------- helpers (any thread)


def _now(now: float | None) -> float:
    return time.time() if now is None else now


def _dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def _check_choice(what: str, value: str, allowed: Sequence[str]) -> None:
    if value not in allowed:
        raise ValueError(f"Unknown {what} {value!r}: expected one of {', '.join(allowed)}.")


def _unusable(exc: sqlite3.Error, path: Path) -> StoreError:
    """A clear error for a database that cannot be opened or used at all."""
    name = getattr(exc, "sqlite_errorname", "")
    if name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
        return CorruptDatabase(
            f"{path} is not an SQLite database or is damaged ({exc}). It was not modified: "
            "restore it from a backup or move it away to start afresh."
        )
    if name.startswith("SQLITE_READONLY"):
        return ReadOnlyDatabase(
            f"{path} can be read but not written ({exc}): check the permissions of the file "
            "and its folder. It was not modified."
        )
    if name.startswith(("SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH", "SQLITE_IOERR")):
        return UnreadableDatabase(
            f"{path} cannot be opened or read ({exc}): check that the path is right and the "
            "permissions of the file and its folder. It was not modified."
        )
    return StoreError(f"Database error on {path}: {exc}.")


# ------------------------------------------- the connection thread: transactions


@contextmanager
def _transaction(conn: sqlite3.Connection, kind: str = "IMMEDIATE") -> Iterator[None]:
    """BEGIN ... COMMIT, rolling back on any error (IMMEDIATE takes the write lock first)."""
    conn.execute(f"BEGIN {kind}")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _read(conn: sqlite3.Connection, fn: Callable[..., T], *args: Any) -> T:
    """Run a reader of several queries in one read transaction: they see one snapshot."""
    with _transaction(conn, "DEFERRED"):
        return fn(conn, *args)


# --------------------------------------------------------- opening and migrations


def _prepare(path: Path) -> None:
    """Check the file is usable before writing to it, then switch to WAL and migrate."""
    known = migrations.load()
    try:
        with closing(sqlite3.connect(path, isolation_level=None)) as conn:
            _configure(conn)
            version = _schema_version(conn)
            if version > len(known):
                raise SchemaTooNew(
                    f"{path} has schema version {version}, but this bot only knows versions "
                    f"up to {len(known)}: it was written by a newer version of the bot. Run "
                    "that version, or restore a backup made by this one. The file was not "
                    "modified."
                )
            (verdict,) = conn.execute("PRAGMA quick_check(1)").fetchone()
            if verdict != "ok":
                raise CorruptDatabase(
                    f"{path} is damaged ({verdict}). It was not modified: restore it from a backup."
                )
            # Rewrite the version number in a transaction that is rolled back: we learn
            # now, not at the first move, whether the file can be written; nothing changes.
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute(f"PRAGMA user_version = {version}")
            finally:
                conn.execute("ROLLBACK")
            (mode,) = conn.execute("PRAGMA journal_mode = WAL").fetchone()
            if mode != "wal":
                raise StoreError(f"{path} could not be switched to WAL journaling ({mode!r}).")
            _migrate(conn, known)
    except sqlite3.Error as exc:
        raise _unusable(exc, path) from exc


def _configure(conn: sqlite3.Connection) -> None:
    """The per-connection settings (WAL itself is stored in the file)."""
    conn.execute(f"PRAGMA busy_timeout = {OPEN_BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")


def _schema_version(conn: sqlite3.Connection) -> int:
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    return version


def _migrate(conn: sqlite3.Connection, known: Sequence[migrations.Migration]) -> None:
    """Apply the pending migrations, each in one transaction that also sets user_version.

    Runs with foreign keys off (SQLite cannot toggle them inside a transaction, and a
    migration may rebuild a table), checking them before each commit instead.
    """
    conn.execute("PRAGMA foreign_keys = OFF")
    for migration in known:
        with _transaction(conn):
            # Read under the write lock: another process may have migrated meanwhile.
            if _schema_version(conn) >= migration.version:
                continue
            for statement in _statements(migration.sql):
                conn.execute(statement)
            violation = conn.execute("PRAGMA foreign_key_check").fetchone()
            if violation is not None:
                raise StoreError(
                    f"Migration {migration.version} ({migration.name}) breaks a foreign key: "
                    f"{tuple(violation)}."
                )
            conn.execute(f"PRAGMA user_version = {migration.version}")


def _statements(script: str) -> Iterator[str]:
    """The complete statements of an SQL script (sqlite3 executes one at a time)."""
    pending = ""
    *pieces, rest = script.split(";")
    for piece in pieces:
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            yield pending
            pending = ""
    rest = pending + rest
    if any(line.strip() and not line.strip().startswith("--") for line in rest.splitlines()):
        raise ValueError(f"SQL script ends with an incomplete statement: {rest.strip()[:80]!r}")


# ----------------------------------------------------------------- games: reads

# Queries over every open game name the unique index on open games' channels, which
# holds exactly those rows: they read only them, however many ended games the table
# holds (without statistics SQLite would scan the whole table). Lobbies have no clock,
# so clock updates over open games touch only active ones.
_OPEN_INDEX = "INDEXED BY games_one_open_per_channel"
_IS_OPEN = f"status IN {OPEN_STATUSES}"

_GAME_COLUMNS = (
    "id, guild_id, channel_id, host_id, rules, difficulty, length_seconds, status, seed, "
    "start_player, state, version, board_message_id, clock_deadline, clock_remaining, "
    "created_at, updated_at, started_at, ended_at, outcome"
)


def _game(row: Sequence[Any], seats: Sequence[tuple[int, float | None]]) -> GameRecord:
    """A record from a row of _GAME_COLUMNS and the game's (user_id, left_at) in seat order."""
    state = row[10]
    return GameRecord(
        *row[:10],
        None if state is None else orjson.loads(state),
        *row[11:],
        players=tuple(user for user, left_at in seats if left_at is None),
        starting_players=tuple(user for user, _ in seats),
    )


def _seats(conn: sqlite3.Connection, game_id: int) -> list[tuple[int, float | None]]:
    query = "SELECT user_id, left_at FROM players WHERE game_id = ? ORDER BY seat"
    return conn.execute(query, (game_id,)).fetchall()


def _load_game(conn: sqlite3.Connection, game_id: int) -> GameRecord:
    query = f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?"
    row = conn.execute(query, (game_id,)).fetchone()
    if row is None:
        raise GameNotFound(f"There is no game {game_id}.")
    return _game(row, _seats(conn, game_id))


def _open_game_in_channel(conn: sqlite3.Connection, channel_id: int) -> GameRecord | None:
    query = f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND {_IS_OPEN}"
    row = conn.execute(query, (channel_id,)).fetchone()
    return None if row is None else _game(row, _seats(conn, row[0]))


def _load_open_games(conn: sqlite3.Connection) -> list[GameRecord]:
    query = f"SELECT {_GAME_COLUMNS} FROM games {_OPEN_INDEX} WHERE {_IS_OPEN} ORDER BY id"
    rows = conn.execute(query).fetchall()
    # CROSS JOIN keeps the open games as the outer loop: players of ended games are skipped.
    query = (
        f"SELECT p.game_id, p.user_id, p.left_at FROM games AS g {_OPEN_INDEX} "
        f"CROSS JOIN players AS p ON p.game_id = g.id WHERE g.{_IS_OPEN} "
        "ORDER BY p.game_id, p.seat"
    )
    seats: dict[int, list[tuple[int, float | None]]] = {}
    for game_id, user_id, left_at in conn.execute(query):
        seats.setdefault(game_id, []).append((user_id, left_at))
    return [_game(row, seats.get(row[0], ())) for row in rows]


def _game_log(conn: sqlite3.Connection, game_id: int) -> list[LoggedAction]:
    query = (
        "SELECT version, at, actor, action, events FROM actions WHERE game_id = ? ORDER BY version"
    )
    return [
        LoggedAction(version, at, actor, orjson.loads(action), orjson.loads(events))
        for version, at, actor, action, events in conn.execute(query, (game_id,))
    ]


def _refuse(
    conn: sqlite3.Connection, game_id: int, status: str, expected_version: int | None = None
) -> StoreError:
    """Why a write guarded by status (and version) matched no row."""
    query = "SELECT status, version FROM games WHERE id = ?"
    row = conn.execute(query, (game_id,)).fetchone()
    if row is None:
        return GameNotFound(f"There is no game {game_id}.")
    if row[0] != status:
        return WrongStatus(f"Game {game_id} is {row[0]}, not {status}.")
    return StaleVersion(
        f"Game {game_id} is at version {row[1]}; this write was based on version "
        f"{expected_version}."
    )


def _require_status(conn: sqlite3.Connection, game_id: int, status: str) -> None:
    query = "SELECT 1 FROM games WHERE id = ? AND status = ?"
    if conn.execute(query, (game_id, status)).fetchone() is None:
        raise _refuse(conn, game_id, status)


# ---------------------------------------------------------------- games: writes


def _create_lobby(
    conn: sqlite3.Connection,
    guild_id: int,
    channel_id: int,
    host_id: int,
    rules: str,
    difficulty: str,
    length_seconds: int,
    now: float,
) -> GameRecord:
    with _transaction(conn):
        query = (
            "INSERT INTO games (guild_id, channel_id, host_id, rules, difficulty, "
            "length_seconds, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        )
        values = (guild_id, channel_id, host_id, rules, difficulty, length_seconds, now, now)
        try:
            game_id = conn.execute(query, values).lastrowid
        except sqlite3.IntegrityError as exc:
            if "games.channel_id" in str(exc):
                raise ChannelBusy(f"Channel {channel_id} already has an open game.") from None
            raise
        query = "INSERT INTO players (game_id, seat, user_id, joined_at) VALUES (?, 0, ?, ?)"
        conn.execute(query, (game_id, host_id, now))
        return _load_game(conn, game_id)


def _add_player(conn: sqlite3.Connection, game_id: int, user_id: int, now: float) -> GameRecord:
    with _transaction(conn):
        _require_status(conn, game_id, "lobby")
        seated = [user for user, _ in _seats(conn, game_id)]
        if user_id in seated:
            raise AlreadySeated(f"Player {user_id} is already seated in game {game_id}.")
        if len(seated) >= MAX_SEATS:
            raise LobbyFull(f"Game {game_id} already has {MAX_SEATS} players.")
        query = (
            "INSERT INTO players (game_id, seat, user_id, joined_at) "
            "SELECT ?, COALESCE(MAX(seat) + 1, 0), ?, ? FROM players WHERE game_id = ?"
        )
        conn.execute(query, (game_id, user_id, now, game_id))
        return _load_game(conn, game_id)


def _remove_player(conn: sqlite3.Connection, game_id: int, user_id: int) -> GameRecord:
    with _transaction(conn):
        _require_status(conn, game_id, "lobby")
        query = "DELETE FROM players WHERE game_id = ? AND user_id = ?"
        if conn.execute(query, (game_id, user_id)).rowcount == 0:
            raise NotSeated(f"Player {user_id} has no seat in game {game_id}.")
        return _load_game(conn, game_id)


def _cancel_lobby(conn: sqlite3.Connection, game_id: int, now: float) -> None:
    with _transaction(conn):
        query = (
            "UPDATE games SET status = 'abandoned', outcome = 'abandoned', ended_at = ?, "
            "updated_at = ? WHERE id = ? AND status = 'lobby'"
        )
        if conn.execute(query, (now, now, game_id)).rowcount == 0:
            raise _refuse(conn, game_id, "lobby")


def _start_game(
    conn: sqlite3.Connection,
    game_id: int,
    seed: int,
    start_player: int,
    state: str,
    players: list[int],
    deadline: float,
    now: float,
) -> GameRecord:
    with _transaction(conn):
        _require_status(conn, game_id, "lobby")
        seated = [user for user, _ in _seats(conn, game_id)]
        if seated != players:
            raise SeatsChanged(
                f"Game {game_id} has players {seated}, but the state being started has {players}."
            )
        if start_player not in seated:
            raise NotSeated(f"The start player {start_player} has no seat in game {game_id}.")
        query = (
            "UPDATE games SET status = 'active', seed = ?, start_player = ?, state = ?, "
            "clock_deadline = ?, started_at = ?, updated_at = ? WHERE id = ?"
        )
        conn.execute(query, (seed, start_player, state, deadline, now, now, game_id))
        return _load_game(conn, game_id)


def _commit_action(
    conn: sqlite3.Connection,
    game_id: int,
    expected_version: int,
    state: str,
    actor: int | None,
    action: str,
    events: str,
    outcome: str | None,
    removed_player: int | None,
    host_id: int | None,
    now: float,
) -> int:
    version = expected_version + 1
    with _transaction(conn):
        if outcome is None:
            query = (
                "UPDATE games SET state = ?, version = ?, updated_at = ? "
                "WHERE id = ? AND status = 'active' AND version = ?"
            )
            values: tuple[Any, ...] = (state, version, now, game_id, expected_version)
        else:
            # The clock stops for good: what was left is kept as the frozen remainder.
            query = (
                "UPDATE games SET state = ?, version = ?, updated_at = ?, status = ?, "
                "outcome = ?, ended_at = ?, clock_deadline = NULL, "
                "clock_remaining = MAX(COALESCE(clock_deadline - ?, clock_remaining), 0) "
                "WHERE id = ? AND status = 'active' AND version = ?"
            )
            status = "abandoned" if outcome == "abandoned" else "finished"
            values = (state, version, now, status, outcome, now, now, game_id, expected_version)
        if conn.execute(query, values).rowcount == 0:
            raise _refuse(conn, game_id, "active", expected_version)
        if removed_player is not None:
            query = (
                "UPDATE players SET left_at = ? WHERE game_id = ? AND user_id = ? "
                "AND left_at IS NULL"
            )
            if conn.execute(query, (now, game_id, removed_player)).rowcount == 0:
                raise NotSeated(f"Player {removed_player} has no seat in game {game_id}.")
        if host_id is not None:
            query = "UPDATE games SET host_id = ? WHERE id = ?"
            conn.execute(query, (host_id, game_id))
        query = (
            "INSERT INTO actions (game_id, version, at, actor, action, events) "
            "VALUES (?, ?, ?, ?, ?, ?)"
        )
        conn.execute(query, (game_id, version, now, actor, action, events))
        if outcome is not None:
            query = (
                "INSERT INTO results (game_id, guild_id, channel_id, rules, difficulty, "
                "length_seconds, players, outcome, duration_seconds, time_left_seconds, ended_at, "
                "crewmates) "
                "SELECT id, guild_id, channel_id, rules, difficulty, length_seconds, "
                "(SELECT COUNT(*) FROM players WHERE game_id = games.id), outcome, "
                "MAX(length_seconds - clock_remaining, 0), clock_remaining, ended_at, "
                "(SELECT COUNT(*) FROM players WHERE game_id = games.id AND user_id < 0) "
                "FROM games WHERE id = ?"
            )
            conn.execute(query, (game_id,))
    return version


def _set_board_message(conn: sqlite3.Connection, game_id: int, message_id: int | None) -> None:
    with _transaction(conn):
        query = "UPDATE games SET board_message_id = ? WHERE id = ?"
        if conn.execute(query, (message_id, game_id)).rowcount == 0:
            raise GameNotFound(f"There is no game {game_id}.")


# ------------------------------------------------------ clocks and the bot itself


def _get_meta(conn: sqlite3.Connection, key: str) -> Any:
    query = "SELECT value FROM meta WHERE key = ?"
    row = conn.execute(query, (key,)).fetchone()
    return None if row is None else row[0]


def _set_meta(conn: sqlite3.Connection, key: str, value: Any) -> None:
    with _transaction(conn):
        _put_meta(conn, key, value)


def _put_meta(conn: sqlite3.Connection, key: str, value: Any) -> None:
    query = (
        "INSERT INTO meta (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
    )
    conn.execute(query, (key, value))


def _freeze_clocks(conn: sqlite3.Connection, now: float) -> int:
    with _transaction(conn):
        query = (
            f"UPDATE games {_OPEN_INDEX} SET clock_remaining = MAX(clock_deadline - ?, 0), "
            f"clock_deadline = NULL WHERE {_IS_OPEN} AND clock_deadline IS NOT NULL"
        )
        return conn.execute(query, (now,)).rowcount


def _resume_clocks(conn: sqlite3.Connection, now: float) -> list[GameRecord]:
    with _transaction(conn):
        # Clocks left running by a crash stopped when the bot was last known alive.
        query = (
            f"UPDATE games {_OPEN_INDEX} SET clock_remaining = MAX(clock_deadline - "
            "MAX(updated_at, COALESCE((SELECT value FROM meta WHERE key = ?), 0)), 0), "
            f"clock_deadline = NULL WHERE {_IS_OPEN} AND clock_deadline IS NOT NULL"
        )
        conn.execute(query, (LAST_ALIVE,))
        query = (
            f"UPDATE games {_OPEN_INDEX} SET clock_deadline = ? + clock_remaining, "
            f"clock_remaining = NULL WHERE {_IS_OPEN} AND clock_remaining IS NOT NULL"
        )
        conn.execute(query, (now,))
        _put_meta(conn, LAST_ALIVE, now)
        return _load_open_games(conn)


# ------------------------------------------------------------- users and servers


def _get_dm_channel(conn: sqlite3.Connection, user_id: int) -> int | None:
    query = "SELECT dm_channel_id FROM users WHERE user_id = ?"
    row = conn.execute(query, (user_id,)).fetchone()
    return None if row is None else row[0]


def _set_dm_channel(conn: sqlite3.Connection, user_id: int, channel_id: int) -> None:
    with _transaction(conn):
        query = (
            "INSERT INTO users (user_id, dm_channel_id) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET dm_channel_id = excluded.dm_channel_id"
        )
        conn.execute(query, (user_id, channel_id))


def _get_hand_dm(conn: sqlite3.Connection, game_id: int, user_id: int) -> int | None:
    query = "SELECT message_id FROM hand_dms WHERE game_id = ? AND user_id = ?"
    row = conn.execute(query, (game_id, user_id)).fetchone()
    return None if row is None else row[0]


def _set_hand_dm(conn: sqlite3.Connection, game_id: int, user_id: int, message_id: int) -> None:
    with _transaction(conn):
        query = (
            "INSERT INTO hand_dms (game_id, user_id, message_id) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id, user_id) DO UPDATE SET message_id = excluded.message_id"
        )
        conn.execute(query, (game_id, user_id, message_id))


def _guild_settings(conn: sqlite3.Connection, guild_id: int) -> GuildSettings:
    query = (
        "SELECT guild_id, moderator_role_id, language, default_difficulty, default_rules, "
        "turn_pings, pictures FROM guild_settings WHERE guild_id = ?"
    )
    row = conn.execute(query, (guild_id,)).fetchone()
    if row is None:
        return GuildSettings(guild_id)
    return GuildSettings(*row[:5], bool(row[5]), bool(row[6]))


def _guilds_without_pictures(conn: sqlite3.Connection) -> set[int]:
    query = "SELECT guild_id FROM guild_settings WHERE pictures = 0"
    return {guild_id for (guild_id,) in conn.execute(query)}


def _update_guild_settings(
    conn: sqlite3.Connection, guild_id: int, changes: dict[str, Any]
) -> GuildSettings:
    with _transaction(conn):
        settings = dataclasses.replace(_guild_settings(conn, guild_id), **changes)
        _check_choice("difficulty", settings.default_difficulty, DIFFICULTIES)
        _check_choice("rules", settings.default_rules, RULES)
        query = (
            "INSERT OR REPLACE INTO guild_settings (guild_id, moderator_role_id, language, "
            "default_difficulty, default_rules, turn_pings, pictures) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)"
        )
        conn.execute(query, dataclasses.astuple(settings))
        return settings


def _stats(conn: sqlite3.Connection, guild_id: int) -> Stats:
    query = (
        f"SELECT rules, difficulty, COUNT(*), SUM(outcome IN {WINS}), SUM(outcome = 'lost'), "
        "SUM(outcome = 'abandoned'), crewmates > 0 AS crew FROM results WHERE guild_id = ? "
        "GROUP BY rules, difficulty, crew ORDER BY rules, difficulty, crew"
    )
    tallies = tuple(Tally(*row[:6], bool(row[6])) for row in conn.execute(query, (guild_id,)))
    query = (
        "SELECT game_id, rules, difficulty, players, outcome, duration_seconds, ended_at "
        f"FROM results WHERE guild_id = ? AND outcome IN {WINS} AND crewmates = 0 "
        "ORDER BY duration_seconds, ended_at LIMIT 5"
    )
    wins = tuple(Win(*row) for row in conn.execute(query, (guild_id,)))
    return Stats(tallies, wins)
