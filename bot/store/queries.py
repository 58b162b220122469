"""Every SQL statement of the bot about games, clocks, users and servers, written once for
both backends as transactions (bot.store.transactions); the records kept for profiles and
leaderboards are in bot.store.tallies.

The SQL is the part of both dialects that is the same: `?` parameters (the PostgreSQL
backend numbers them), and four fragments each backend fills in: ``{greatest}`` (the
larger of two values), ``{open_index}`` (SQLite's hint to read only open games
through their index), ``{join}`` (SQLite's hint to keep the first table as the
outer loop) and ``{lock}`` (PostgreSQL's lock on a row read before it is changed).
A UNIQUE constraint that refuses a statement is thrown into the transaction as
`Duplicate`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import orjson

from bot.store.records import (
    AUTOPILOT_SECONDS,
    CARD_STYLES,
    DIFFICULTIES,
    OPEN_STATUSES,
    RULES,
    AlreadySeated,
    ChannelBusy,
    GameNotFound,
    GameRecord,
    GuildSettings,
    LobbyFull,
    LoggedAction,
    NotLatest,
    NotSeated,
    Removed,
    SeatsChanged,
    Shards,
    StaleVersion,
    StoreError,
    WrongStatus,
    check_choice,
)
from bot.store.tallies import record_players
from bot.store.transactions import Duplicate, Transaction, count, one, rows
from engine import MAX_PLAYERS

#: The meta key of the heartbeat of a process running every server (unix time it was
#: last known alive); a process running some shards beats for each (`heartbeat_key`).
LAST_ALIVE = "last_alive"


def heartbeat_key(shard: int, shard_count: int) -> str:
    """The meta key of a shard's heartbeat (the plain one for an unsharded bot)."""
    return LAST_ALIVE if shard_count == 1 else f"{LAST_ALIVE}:{shard}/{shard_count}"


# ----------------------------------------------------------------- games: reads

# Open games are read through the unique index on open games' channels, which holds
# exactly those rows: however many ended games the table holds, only they are read.
# Lobbies have no clock, so clock updates over open games touch only active ones.
_IS_OPEN = f"status IN {OPEN_STATUSES}"

_GAME_COLUMNS = (
    "id, guild_id, channel_id, host_id, rules, difficulty, length_seconds, status, seed, "
    "start_player, state, version, board_message_id, clock_deadline, clock_remaining, "
    "created_at, updated_at, started_at, ended_at, outcome, parent_channel_id, reach"
)


def _in_shards(shards: Shards, column: str = "guild_id") -> str:
    """A condition on a server id column: its shard is one of `shards` (empty for all)."""
    if shards.all:
        return ""
    ids = ", ".join(map(str, sorted(set(shards.ids))))
    return f" AND ({column} >> 22) % {shards.count} IN ({ids})"


def _game(
    row: Sequence[Any],
    seats: Sequence[tuple[int, float | None, str | None]],
    invited: Sequence[int] = (),
) -> GameRecord:
    """A record from a row of _GAME_COLUMNS, the game's (user_id, left_at, name) in seat
    order and the people invited to it."""
    state = row[10]
    return GameRecord(
        *row[:10],
        None if state is None else orjson.loads(state),
        *row[11:],
        players=tuple(user for user, left_at, _ in seats if left_at is None),
        starting_players=tuple(user for user, _, _ in seats),
        names={user: name for user, _, name in seats if name},
        invited=tuple(invited),
    )


def _seats(game_id: int) -> Transaction[list[tuple[int, float | None, str | None]]]:
    query = "SELECT user_id, left_at, name FROM players WHERE game_id = ? ORDER BY seat"
    return (yield rows(query, game_id))


def _invited(game_id: int) -> Transaction[list[int]]:
    query = "SELECT user_id FROM invitations WHERE game_id = ? ORDER BY seat"
    return [user for (user,) in (yield rows(query, game_id))]


def _loaded(row: Sequence[Any]) -> Transaction[GameRecord]:
    """The record of a game read as a row of _GAME_COLUMNS, with its seats and invitations."""
    return _game(row, (yield from _seats(row[0])), (yield from _invited(row[0])))


def _removed_by_others(game_id: int) -> Transaction[set[int]]:
    """The players of a game its host or a moderator removed (not those who left)."""
    query = "SELECT actor, action FROM actions WHERE game_id = ? AND action LIKE ?"
    found = yield rows(query, game_id, '%"remove_player"%')
    removed = set()
    for actor, action in found:
        player = orjson.loads(action).get("player")
        if player is not None and player != actor:
            removed.add(player)
    return removed


def load_game(game_id: int) -> Transaction[GameRecord]:
    row = yield one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", game_id)
    if row is None:
        raise GameNotFound(f"There is no game {game_id}.")
    return (yield from _loaded(row))


def open_game_in_channel(channel_id: int) -> Transaction[GameRecord | None]:
    query = f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND {_IS_OPEN}"
    row = yield one(query, channel_id)
    return None if row is None else (yield from _loaded(row))


def load_open_games(shards: Shards) -> Transaction[list[GameRecord]]:
    """Every open game of these shards with its seats and invitations, in id order (two
    queries)."""
    query = (
        f"SELECT {_GAME_COLUMNS} FROM games {{open_index}} WHERE {_IS_OPEN}"
        f"{_in_shards(shards)} ORDER BY id"
    )
    games = yield rows(query)
    where = f" WHERE g.{_IS_OPEN}{_in_shards(shards, 'g.guild_id')}"
    query = (  # the seats (last column 0) and the invitations (1) of every open game
        "SELECT p.game_id, p.seat, p.user_id, p.left_at, p.name, 0 FROM games AS g "
        "{open_index} {join} players AS p ON p.game_id = g.id" + where + " UNION ALL "
        "SELECT i.game_id, i.seat, i.user_id, NULL, NULL, 1 FROM games AS g "
        "{open_index} {join} invitations AS i ON i.game_id = g.id" + where + " ORDER BY 1, 2"
    )
    seats: dict[int, list[tuple[int, float | None, str | None]]] = {}
    invited: dict[int, list[int]] = {}
    for game_id, _, user_id, left_at, name, invitation in (yield rows(query)):
        if invitation:
            invited.setdefault(game_id, []).append(user_id)
        else:
            seats.setdefault(game_id, []).append((user_id, left_at, name))
    return [_game(row, seats.get(row[0], ()), invited.get(row[0], ())) for row in games]


def game_log(game_id: int) -> Transaction[list[LoggedAction]]:
    query = (
        "SELECT version, at, actor, action, events FROM actions WHERE game_id = ? ORDER BY version"
    )
    return [
        LoggedAction(version, at, actor, orjson.loads(action), orjson.loads(events))
        for version, at, actor, action, events in (yield rows(query, game_id))
    ]


def _refuse(
    game_id: int, status: str, expected_version: int | None = None
) -> Transaction[StoreError]:
    """Why a write guarded by status (and version) matched no row."""
    row = yield one("SELECT status, version FROM games WHERE id = ?", game_id)
    if row is None:
        return GameNotFound(f"There is no game {game_id}.")
    if row[0] != status:
        return WrongStatus(f"Game {game_id} is {row[0]}, not {status}.")
    return StaleVersion(
        f"Game {game_id} is at version {row[1]}; this write was based on version "
        f"{expected_version}."
    )


def _require_status(game_id: int, status: str) -> Transaction[None]:
    """The game has this status, and it is locked until the transaction ends."""
    query = "SELECT 1 FROM games WHERE id = ? AND status = ? {lock}"
    if (yield one(query, game_id, status)) is None:
        raise (yield from _refuse(game_id, status))


# ---------------------------------------------------------------- games: writes


def _new_lobby(
    guild_id: int,
    channel_id: int,
    host_id: int,
    rules: str,
    difficulty: str,
    length_seconds: int,
    now: float,
    reach: str,
) -> Transaction[int]:
    """A lobby's row, without its seats; its id. ChannelBusy if the channel has one open."""
    query = (
        "INSERT INTO games (guild_id, channel_id, host_id, rules, difficulty, "
        "length_seconds, created_at, updated_at, reach) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "RETURNING id"
    )
    try:
        (game_id,) = yield one(
            query,
            guild_id,
            channel_id,
            host_id,
            rules,
            difficulty,
            length_seconds,
            now,
            now,
            reach,
        )
    except Duplicate as exc:
        if "channel_id" in str(exc):
            raise ChannelBusy(f"Channel {channel_id} already has an open game.") from None
        raise
    return game_id


def _seat(game_id: int, seat: int, user_id: int, now: float, name: str | None) -> Transaction[None]:
    query = "INSERT INTO players (game_id, seat, user_id, joined_at, name) VALUES (?, ?, ?, ?, ?)"
    yield count(query, game_id, seat, user_id, now, name)


def create_lobby(
    guild_id: int,
    channel_id: int,
    host_id: int,
    rules: str,
    difficulty: str,
    length_seconds: int,
    now: float,
    host_name: str | None = None,
    reach: str = "channel",
) -> Transaction[GameRecord]:
    game_id = yield from _new_lobby(
        guild_id, channel_id, host_id, rules, difficulty, length_seconds, now, reach
    )
    yield from _seat(game_id, 0, host_id, now, host_name)
    return (yield from load_game(game_id))


def play_again(
    game_id: int, channel_id: int, host_id: int, now: float, host_name: str | None = None
) -> Transaction[GameRecord]:
    """A lobby like an ended game (rules, difficulty, countdown, reach), where its lobby was
    (the channel, also for a game played in a thread of it), pressed in the game's channel or
    thread, or in the channel its thread was opened from (its live table shows it): its
    host, who played it, in their seat, its crewmates in theirs, every other person who
    played it invited back to theirs. Only the latest game opened from that channel is
    played again (NotLatest)."""
    ended = yield from load_game(game_id)
    if channel_id not in (ended.channel_id, ended.parent_channel_id):  # its thread, or home
        raise GameNotFound(f"There is no game {game_id} in channel {channel_id}.")
    if ended.status in OPEN_STATUSES or ended.started_at is None:
        raise WrongStatus(f"Game {game_id} is {ended.status}: it was never played to its end.")
    if host_id not in ended.starting_players:
        raise NotSeated(f"Player {host_id} did not play game {game_id}.")
    removed = yield from _removed_by_others(game_id)
    if host_id in removed:
        raise Removed(f"Player {host_id} was removed from game {game_id}.")
    home = ended.parent_channel_id or channel_id
    query = f"SELECT id FROM games WHERE channel_id = ? AND {_IS_OPEN}"
    if (yield one(query, home)) is not None:
        raise ChannelBusy(f"Channel {home} already has an open game.")
    query = "SELECT MAX(id) FROM games WHERE channel_id = ? OR parent_channel_id = ?"
    (latest,) = yield one(query, home, home)
    if latest != game_id:
        raise NotLatest(f"Game {latest} was opened in channel {home} after game {game_id}.")
    lobby = yield from _new_lobby(
        ended.guild_id,
        home,
        host_id,
        ended.rules,
        ended.difficulty,
        ended.length_seconds,
        now,
        ended.reach,
    )
    for seat, player in enumerate(ended.starting_players):
        if player == host_id or player < 0:  # the host, and the crewmates (negative ids)
            yield from _seat(lobby, seat, player, now, host_name if player == host_id else None)
        elif player not in removed:  # who was removed is not invited back
            query = "INSERT INTO invitations (game_id, user_id, seat) VALUES (?, ?, ?)"
            yield count(query, lobby, player, seat)
    return (yield from load_game(lobby))


def add_player(
    game_id: int, user_id: int, now: float, name: str | None = None
) -> Transaction[GameRecord]:
    yield from _require_status(game_id, "lobby")
    seated = [user for user, _, _ in (yield from _seats(game_id))]
    if user_id in seated:
        raise AlreadySeated(f"Player {user_id} is already seated in game {game_id}.")
    if len(seated) >= MAX_PLAYERS:
        raise LobbyFull(f"Game {game_id} already has {MAX_PLAYERS} players.")
    # An invited person takes their seat of the game before; anyone else sits after every
    # seat taken, or kept for someone invited.
    query = "SELECT seat FROM invitations WHERE game_id = ? AND user_id = ?"
    seat = yield one(query, game_id, user_id)
    if seat is None:
        query = (
            "SELECT COALESCE(MAX(seat) + 1, 0) FROM (SELECT seat FROM players WHERE game_id = ? "
            "UNION ALL SELECT seat FROM invitations WHERE game_id = ?) AS taken"
        )
        seat = yield one(query, game_id, game_id)
    yield from _seat(game_id, seat[0], user_id, now, name)
    yield from _touch(game_id, now)
    return (yield from load_game(game_id))


def remove_player(game_id: int, user_id: int, now: float) -> Transaction[GameRecord]:
    yield from _require_status(game_id, "lobby")
    query = "DELETE FROM players WHERE game_id = ? AND user_id = ?"
    if (yield count(query, game_id, user_id)) == 0:
        raise NotSeated(f"Player {user_id} has no seat in game {game_id}.")
    yield from _touch(game_id, now)
    return (yield from load_game(game_id))


def drop_invitation(game_id: int, user_id: int) -> Transaction[GameRecord]:
    """A lobby's invitation withdrawn (the person left the server)."""
    query = "DELETE FROM invitations WHERE game_id = ? AND user_id = ?"
    yield count(query, game_id, user_id)
    return (yield from load_game(game_id))


def _touch(game_id: int, now: float) -> Transaction[None]:
    """A lobby changed now (a lobby nobody touches closes itself: bot.game.idle)."""
    yield count("UPDATE games SET updated_at = ? WHERE id = ?", now, game_id)


def configure_lobby(
    game_id: int, rules: str, difficulty: str, length_seconds: int, now: float
) -> Transaction[GameRecord]:
    """A lobby's rules, difficulty and countdown, chosen again by its host before the start."""
    query = (
        "UPDATE games SET rules = ?, difficulty = ?, length_seconds = ?, updated_at = ? "
        "WHERE id = ? AND status = 'lobby'"
    )
    if (yield count(query, rules, difficulty, length_seconds, now, game_id)) == 0:
        raise (yield from _refuse(game_id, "lobby"))
    return (yield from load_game(game_id))


def cancel_lobby(game_id: int, now: float) -> Transaction[None]:
    query = (
        "UPDATE games SET status = 'abandoned', outcome = 'abandoned', ended_at = ?, "
        "updated_at = ? WHERE id = ? AND status = 'lobby'"
    )
    if (yield count(query, now, now, game_id)) == 0:
        raise (yield from _refuse(game_id, "lobby"))


def start_game(
    game_id: int,
    seed: int,
    start_player: int,
    state: str,
    players: list[int],
    deadline: float,
    now: float,
    thread_id: int | None = None,
) -> Transaction[GameRecord]:
    yield from _require_status(game_id, "lobby")
    seated = [user for user, _, _ in (yield from _seats(game_id))]
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
    yield count(query, seed, start_player, state, deadline, now, now, game_id)
    if thread_id is not None:  # it moves to its thread; its board is yet to be posted there
        query = (
            "UPDATE games SET parent_channel_id = channel_id, channel_id = ?, "
            "board_message_id = NULL WHERE id = ?"
        )
        yield count(query, thread_id, game_id)
    return (yield from load_game(game_id))


def commit_action(
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
    autopiloted: int | None = None,
) -> Transaction[int]:
    version = expected_version + 1
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
            "clock_remaining = {greatest}(COALESCE(clock_deadline - ?, clock_remaining), 0) "
            "WHERE id = ? AND status = 'active' AND version = ?"
        )
        status = "abandoned" if outcome == "abandoned" else "finished"
        values = (state, version, now, status, outcome, now, now, game_id, expected_version)
    if (yield count(query, *values)) == 0:
        raise (yield from _refuse(game_id, "active", expected_version))
    if removed_player is not None:
        query = (
            "UPDATE players SET left_at = ? WHERE game_id = ? AND user_id = ? AND left_at IS NULL"
        )
        if (yield count(query, now, game_id, removed_player)) == 0:
            raise NotSeated(f"Player {removed_player} has no seat in game {game_id}.")
    if host_id is not None:
        yield count("UPDATE games SET host_id = ? WHERE id = ?", host_id, game_id)
    if autopiloted is not None:  # the autopilot played this person's seat
        query = "UPDATE players SET autopiloted = 1 WHERE game_id = ? AND user_id = ?"
        yield count(query, game_id, autopiloted)
    query = (
        "INSERT INTO actions (game_id, version, at, actor, action, events) "
        "VALUES (?, ?, ?, ?, ?, ?)"
    )
    yield count(query, game_id, version, now, actor, action, events)
    if outcome is not None:
        query = (
            "INSERT INTO results (game_id, guild_id, channel_id, rules, difficulty, "
            "length_seconds, players, outcome, duration_seconds, time_left_seconds, ended_at, "
            "crewmates) "
            "SELECT id, guild_id, channel_id, rules, difficulty, length_seconds, "
            "(SELECT COUNT(*) FROM players WHERE game_id = games.id), outcome, "
            "{greatest}(length_seconds - clock_remaining, 0), clock_remaining, ended_at, "
            # the seats an AI played: crewmates', and people's the autopilot took over
            "(SELECT COUNT(*) FROM players WHERE game_id = games.id "
            "AND (user_id < 0 OR autopiloted = 1)) "
            "FROM games WHERE id = ?"
        )
        yield count(query, game_id)
        yield from record_players(game_id)
    return version


def set_board_message(game_id: int, message_id: int | None) -> Transaction[None]:
    query = "UPDATE games SET board_message_id = ? WHERE id = ?"
    if (yield count(query, message_id, game_id)) == 0:
        raise GameNotFound(f"There is no game {game_id}.")


# ------------------------------------------------------ clocks and the bot itself


def ping() -> Transaction[Any]:
    """A trivial query: the database answers."""
    return (yield one("SELECT 1"))


def get_meta(key: str) -> Transaction[Any]:
    row = yield one("SELECT value FROM meta WHERE key = ?", key)
    return None if row is None else row[0]


def set_meta(key: str, value: Any) -> Transaction[None]:
    query = (
        "INSERT INTO meta (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
    )
    yield count(query, key, value)


def touch_alive(shards: Shards, now: float) -> Transaction[None]:
    for shard in sorted(set(shards.ids)):
        yield from set_meta(heartbeat_key(shard, shards.count), now)


def freeze_clocks(shards: Shards, now: float) -> Transaction[int]:
    query = (
        "UPDATE games {open_index} SET clock_remaining = {greatest}(clock_deadline - ?, 0), "
        f"clock_deadline = NULL WHERE {_IS_OPEN} AND clock_deadline IS NOT NULL"
        f"{_in_shards(shards)}"
    )
    return (yield count(query, now))


def resume_clocks(shards: Shards, now: float) -> Transaction[list[GameRecord]]:
    for shard in sorted(set(shards.ids)):
        one_shard = Shards((shard,), shards.count)
        # Clocks left running by a crash stopped when the shard was last known alive
        # (a shard that never beat on its own: when the unsharded bot last did).
        alive = yield from get_meta(heartbeat_key(shard, shards.count))
        if alive is None and shards.count > 1:
            alive = yield from get_meta(LAST_ALIVE)
        query = (
            "UPDATE games {open_index} SET clock_remaining = {greatest}(clock_deadline - "
            "{greatest}(updated_at, ?), 0), clock_deadline = NULL "
            f"WHERE {_IS_OPEN} AND clock_deadline IS NOT NULL{_in_shards(one_shard)}"
        )
        yield count(query, alive or 0.0)
    query = (
        "UPDATE games {open_index} SET clock_deadline = ? + clock_remaining, "
        f"clock_remaining = NULL WHERE {_IS_OPEN} AND clock_remaining IS NOT NULL"
        f"{_in_shards(shards)}"
    )
    yield count(query, now)
    yield from touch_alive(shards, now)
    return (yield from load_open_games(shards))


# ------------------------------------------------------------- users and servers


def get_dm_channel(user_id: int) -> Transaction[int | None]:
    row = yield one("SELECT dm_channel_id FROM users WHERE user_id = ?", user_id)
    return None if row is None else row[0]


def set_dm_channel(user_id: int, channel_id: int) -> Transaction[None]:
    query = (
        "INSERT INTO users (user_id, dm_channel_id) VALUES (?, ?) "
        "ON CONFLICT (user_id) DO UPDATE SET dm_channel_id = excluded.dm_channel_id"
    )
    yield count(query, user_id, channel_id)


def get_user_locale(user_id: int) -> Transaction[str | None]:
    row = yield one("SELECT locale FROM user_locales WHERE user_id = ?", user_id)
    return None if row is None else row[0]


def set_user_locale(user_id: int, locale: str) -> Transaction[None]:
    query = (
        "INSERT INTO user_locales (user_id, locale) VALUES (?, ?) "
        "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale"
    )
    yield count(query, user_id, locale)


def get_hand_dm(game_id: int, user_id: int) -> Transaction[int | None]:
    query = "SELECT message_id FROM hand_dms WHERE game_id = ? AND user_id = ?"
    row = yield one(query, game_id, user_id)
    return None if row is None else row[0]


def set_hand_dm(game_id: int, user_id: int, message_id: int) -> Transaction[None]:
    query = (
        "INSERT INTO hand_dms (game_id, user_id, message_id) VALUES (?, ?, ?) "
        "ON CONFLICT (game_id, user_id) DO UPDATE SET message_id = excluded.message_id"
    )
    yield count(query, game_id, user_id, message_id)


_SETTINGS = (
    "SELECT guild_id, moderator_role_id, language, default_difficulty, default_rules, "
    "turn_pings, pictures, language_chosen, discord_locale, cards, autopilot_seconds, "
    "threads FROM guild_settings WHERE guild_id = ?"
)


def _settings(row: Sequence[Any]) -> GuildSettings:
    """A server's settings from a row of _SETTINGS (flags are stored as 0 or 1)."""
    return GuildSettings(*row[:5], *map(bool, row[5:8]), *row[8:11], bool(row[11]))


def guild_settings(guild_id: int) -> Transaction[GuildSettings]:
    row = yield one(_SETTINGS, guild_id)
    return GuildSettings(guild_id) if row is None else _settings(row)


def update_guild_settings(guild_id: int, changes: dict[str, Any]) -> Transaction[GuildSettings]:
    # The server's row exists and is locked: a change made meanwhile is not overwritten.
    yield count("INSERT INTO guild_settings (guild_id) VALUES (?) ON CONFLICT DO NOTHING", guild_id)
    row = yield one(_SETTINGS + " {lock}", guild_id)
    settings = dataclasses.replace(_settings(row), **changes)
    check_choice("difficulty", settings.default_difficulty, DIFFICULTIES)
    check_choice("rules", settings.default_rules, RULES)
    check_choice("cards", settings.cards, CARD_STYLES)
    low, high = AUTOPILOT_SECONDS
    if settings.autopilot_seconds and not low <= settings.autopilot_seconds <= high:
        raise ValueError(f"The autopilot takes 0 (off) or {low} to {high} seconds.")
    columns = [field.name for field in dataclasses.fields(GuildSettings)]
    query = (
        f"INSERT INTO guild_settings ({', '.join(columns)}) "
        f"VALUES ({', '.join('?' for _ in columns)}) ON CONFLICT (guild_id) DO UPDATE SET "
        + ", ".join(f"{column} = excluded.{column}" for column in columns[1:])
    )
    yield count(query, *dataclasses.astuple(settings))
    return settings


def guilds_without_pictures() -> Transaction[set[int]]:
    return {
        guild_id
        for (guild_id,) in (yield rows("SELECT guild_id FROM guild_settings WHERE pictures = 0"))
    }


def autopilot_delays() -> Transaction[dict[int, int]]:
    query = "SELECT guild_id, autopilot_seconds FROM guild_settings WHERE autopilot_seconds > 0"
    return dict((yield rows(query)))


# ---------------------------------------------------------- history and replays


#: _GAME_COLUMNS of the games table read as `g`.
_G_COLUMNS = ", ".join(f"g.{column}" for column in _GAME_COLUMNS.split(", "))


def recent_games(guild_id: int, limit: int) -> Transaction[list[GameRecord]]:
    """A server's last `limit` ended games (lobbies that never started are not games), the
    latest first, with their seats (two queries; through the results' index by server)."""
    query = (
        f"SELECT {_G_COLUMNS} FROM results AS r {{join}} games AS g ON g.id = r.game_id "
        "WHERE r.guild_id = ? ORDER BY r.ended_at DESC, r.game_id DESC LIMIT ?"
    )
    return (yield from _with_seats((yield rows(query, guild_id, limit))))


def recent_games_in_conversation(channel_id: int, limit: int) -> Transaction[list[GameRecord]]:
    """The last `limit` ended games of a DM or a group DM (stored with no server), the
    latest first, with their seats. Read through the index of games by channel, newest
    first: a channel holds one open game at a time, so its games end in the order they
    were opened."""
    query = (
        f"SELECT {_G_COLUMNS} FROM games AS g {{join}} results AS r ON r.game_id = g.id "
        "WHERE g.channel_id = ? AND g.guild_id = 0 ORDER BY g.id DESC LIMIT ?"
    )
    return (yield from _with_seats((yield rows(query, channel_id, limit))))


def _with_seats(games: Sequence[Sequence[Any]]) -> Transaction[list[GameRecord]]:
    """The records of ended games read as rows of _GAME_COLUMNS, in their order, with their
    seats (one query for all)."""
    if not games:
        return []
    query = (
        "SELECT game_id, user_id, left_at, name FROM players "
        f"WHERE game_id IN ({', '.join('?' for _ in games)}) ORDER BY game_id, seat"
    )
    seats: dict[int, list[tuple[int, float | None, str | None]]] = {}
    for game_id, user_id, left_at, name in (yield rows(query, *(row[0] for row in games))):
        seats.setdefault(game_id, []).append((user_id, left_at, name))
    return [_game(row, seats.get(row[0], ())) for row in games]
