"""Games read back as records (one, a channel's open one, every open one of some shards),
and the guard every write on a game's status goes through, as transactions
(bot.store.transactions) for both backends."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from bot import lobby_settings
from bot.lobby_settings import LobbySettings
from bot.store.records import (
    OPEN_STATUSES,
    SHARD_SHIFT,
    GameNotFound,
    GameRecord,
    Shards,
    StaleVersion,
    StoreError,
    WrongStatus,
)
from bot.store.transactions import Transaction, one, rows

# Open games are read through the unique index on open games' channels, which holds
# exactly those rows: however many ended games the table holds, only they are read.
# Lobbies have no clock, so clock updates over open games touch only active ones.
IS_OPEN = f"status IN {OPEN_STATUSES}"

#: The columns of the games table a `GameRecord` is read from, named as its fields, with
#: its settings' columns (bot.lobby_settings.COLUMNS) in the place of `settings`.
COLUMNS = (
    f"id, guild_id, channel_id, host_id, {', '.join(lobby_settings.COLUMNS)}, status, seed, "
    "start_player, state, version, board_message_id, clock_deadline, clock_remaining, "
    "created_at, updated_at, started_at, ended_at, outcome, parent_channel_id, reach"
)
_NAMES = COLUMNS.split(", ")

#: A game's seat as read: (user_id, left_at, name, dealt: 1 if it was dealt in, 0 if it sat
#: down mid-game).
Seat = tuple[int, float | None, str | None, int]


def in_shards(shards: Shards, table: str = "") -> str:
    """A condition on the games table (named `table`, with its dot: "g."): its games' home
    shard is one of `shards` (empty for all); as `bot.store.records.home` and `shard_of`
    find it."""
    if shards.all:
        return ""
    if not shards.ids:
        return " AND 1 = 0"
    home = f"(CASE WHEN {table}guild_id = 0 THEN {table}channel_id ELSE {table}guild_id END)"
    ids = ", ".join(map(str, sorted(set(shards.ids))))
    return f" AND ({home} >> {SHARD_SHIFT}) % {shards.count} IN ({ids})"


def record(row: Sequence[Any], seats: Sequence[Seat], invited: Sequence[int] = ()) -> GameRecord:
    """A record from a row of COLUMNS, the game's seats in seat order and the people
    invited to it."""
    fields = dict(zip(_NAMES, row, strict=True))
    settings = {column: fields.pop(column) for column in lobby_settings.COLUMNS}
    state = fields.pop("state")
    return GameRecord(
        **fields,
        settings=LobbySettings.from_columns(settings),
        state=None if state is None else orjson.loads(state),
        players=tuple(user for user, left_at, _, _ in seats if left_at is None),
        starting_players=tuple(user for user, _, _, dealt in seats if dealt),
        names={user: name for user, _, name, _ in seats if name},
        invited=tuple(invited),
    )


def seats(game_id: int) -> Transaction[list[Seat]]:
    """A game's seats, in seat order (those who left included)."""
    query = "SELECT user_id, left_at, name, dealt FROM players WHERE game_id = ? ORDER BY seat"
    return (yield rows(query, game_id))


def _invited(game_id: int) -> Transaction[list[int]]:
    query = "SELECT user_id FROM invitations WHERE game_id = ? ORDER BY seat"
    return [user for (user,) in (yield rows(query, game_id))]


def _loaded(row: Sequence[Any]) -> Transaction[GameRecord]:
    """The record of a game read as a row of COLUMNS, with its seats and invitations."""
    return record(row, (yield from seats(row[0])), (yield from _invited(row[0])))


def load_game(game_id: int) -> Transaction[GameRecord]:
    row = yield one(f"SELECT {COLUMNS} FROM games WHERE id = ?", game_id)
    if row is None:
        raise GameNotFound(f"There is no game {game_id}.")
    return (yield from _loaded(row))


def open_game_in_channel(channel_id: int) -> Transaction[GameRecord | None]:
    query = f"SELECT {COLUMNS} FROM games WHERE channel_id = ? AND {IS_OPEN}"
    row = yield one(query, channel_id)
    return None if row is None else (yield from _loaded(row))


def load_open_games(shards: Shards) -> Transaction[list[GameRecord]]:
    """Every open game of these shards with its seats and invitations, in id order (two
    queries)."""
    query = (
        f"SELECT {COLUMNS} FROM games {{open_index}} WHERE {IS_OPEN}{in_shards(shards)} ORDER BY id"
    )
    games = yield rows(query)
    where = f" WHERE g.{IS_OPEN}{in_shards(shards, 'g.')}"
    query = (  # the seats (last column 0) and the invitations (1) of every open game
        "SELECT p.game_id, p.seat, p.user_id, p.left_at, p.name, p.dealt, 0 FROM games AS g "
        "{open_index} {join} players AS p ON p.game_id = g.id" + where + " UNION ALL "
        "SELECT i.game_id, i.seat, i.user_id, NULL, NULL, 1, 1 FROM games AS g "
        "{open_index} {join} invitations AS i ON i.game_id = g.id" + where + " ORDER BY 1, 2"
    )
    taken: dict[int, list[Seat]] = {}
    invited: dict[int, list[int]] = {}
    for game_id, _, user_id, left_at, name, dealt, invitation in (yield rows(query)):
        if invitation:
            invited.setdefault(game_id, []).append(user_id)
        else:
            taken.setdefault(game_id, []).append((user_id, left_at, name, dealt))
    return [record(row, taken.get(row[0], ()), invited.get(row[0], ())) for row in games]


def refuse(
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


def require_status(game_id: int, status: str) -> Transaction[None]:
    """The game has this status, and it is locked until the transaction ends."""
    query = "SELECT 1 FROM games WHERE id = ? AND status = ? {lock}"
    if (yield one(query, game_id, status)) is None:
        raise (yield from refuse(game_id, status))
