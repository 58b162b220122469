"""Lobbies written: opened (or opened again from an ended game), their seats and
invitations, their options, closed or started, as transactions (bot.store.transactions)
for both backends."""

from __future__ import annotations

import orjson

from bot.lobby_settings import LobbySettings
from bot.store.games import IS_OPEN, load_game, refuse, require_status, seats
from bot.store.records import (
    OPEN_STATUSES,
    AlreadySeated,
    ChannelBusy,
    GameNotFound,
    GameRecord,
    LobbyFull,
    NotLatest,
    NotSeated,
    Removed,
    SeatsChanged,
    WrongStatus,
)
from bot.store.transactions import Duplicate, Transaction, count, one, rows
from engine import MAX_PLAYERS


def _new_lobby(
    guild_id: int,
    channel_id: int,
    host_id: int,
    settings: LobbySettings,
    now: float,
    reach: str,
) -> Transaction[int]:
    """A lobby's row, without its seats; its id. ChannelBusy if the channel has one open."""
    columns = settings.columns()
    query = (
        f"INSERT INTO games (guild_id, channel_id, host_id, {', '.join(columns)}, created_at, "
        f"updated_at, reach) VALUES ({', '.join('?' * (len(columns) + 6))}) RETURNING id"
    )
    try:
        (game_id,) = yield one(
            query, guild_id, channel_id, host_id, *columns.values(), now, now, reach
        )
    except Duplicate as exc:
        if "channel_id" in str(exc):
            raise ChannelBusy(f"Channel {channel_id} already has an open game.") from None
        raise
    return game_id


def _seat(game_id: int, seat: int, user_id: int, now: float, name: str | None) -> Transaction[None]:
    query = "INSERT INTO players (game_id, seat, user_id, joined_at, name) VALUES (?, ?, ?, ?, ?)"
    yield count(query, game_id, seat, user_id, now, name)


def _touch(game_id: int, now: float) -> Transaction[None]:
    """A lobby changed now (a lobby nobody touches closes itself: bot.game.idle)."""
    yield count("UPDATE games SET updated_at = ? WHERE id = ?", now, game_id)


def removed_by_others(game_id: int) -> Transaction[set[int]]:
    """The players of a game its host or a moderator removed (not those who left)."""
    query = "SELECT actor, action FROM actions WHERE game_id = ? AND action LIKE ?"
    found = yield rows(query, game_id, '%"remove_player"%')
    removed = set()
    for actor, action in found:
        player = orjson.loads(action).get("player")
        if player is not None and player != actor:
            removed.add(player)
    return removed


def create_lobby(
    guild_id: int,
    channel_id: int,
    host_id: int,
    settings: LobbySettings,
    now: float,
    host_name: str | None = None,
    reach: str = "channel",
) -> Transaction[GameRecord]:
    game_id = yield from _new_lobby(guild_id, channel_id, host_id, settings, now, reach)
    yield from _seat(game_id, 0, host_id, now, host_name)
    return (yield from load_game(game_id))


def play_again(
    game_id: int,
    channel_id: int,
    host_id: int,
    now: float,
    host_name: str | None = None,
    reach: str = "channel",
) -> Transaction[GameRecord]:
    """A lobby like an ended game (rules, difficulty, countdown), its players reached as
    `reach` says (where it is pressed now, not as the ended game was), where its lobby was
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
    table = _seats_again(ended)
    if host_id not in table:
        raise NotSeated(f"Player {host_id} did not play game {game_id}.")
    removed = yield from removed_by_others(game_id)
    if host_id in removed:
        raise Removed(f"Player {host_id} was removed from game {game_id}.")
    home = ended.parent_channel_id or channel_id
    query = f"SELECT id FROM games WHERE channel_id = ? AND {IS_OPEN}"
    if (yield one(query, home)) is not None:
        raise ChannelBusy(f"Channel {home} already has an open game.")
    query = "SELECT MAX(id) FROM games WHERE channel_id = ? OR parent_channel_id = ?"
    (latest,) = yield one(query, home, home)
    if latest != game_id:
        raise NotLatest(f"Game {latest} was opened in channel {home} after game {game_id}.")
    lobby = yield from _new_lobby(ended.guild_id, home, host_id, ended.settings, now, reach)
    for seat, player in enumerate(table):
        if player == host_id or player < 0:  # the host, and the crewmates (negative ids)
            yield from _seat(lobby, seat, player, now, host_name if player == host_id else None)
        elif player not in removed:  # who was removed is not invited back
            query = "INSERT INTO invitations (game_id, user_id, seat) VALUES (?, ?, ?)"
            yield count(query, lobby, player, seat)
    return (yield from load_game(lobby))


def _seats_again(ended: GameRecord) -> list[int]:
    """Who sits where in a lobby like `ended`: its seats as dealt, a crewmate's seat that a
    person took mid-game (bot.game.seats) theirs, then whoever else sat down mid-game and
    is still seated (as many as fit)."""
    later = [p for p in ended.players if p > 0 and p not in ended.starting_players]
    seats = [
        later.pop(0) if p < 0 and p not in ended.players and later else p
        for p in ended.starting_players
    ]
    return (seats + later)[:MAX_PLAYERS]


def add_player(
    game_id: int, user_id: int, now: float, name: str | None = None
) -> Transaction[GameRecord]:
    yield from require_status(game_id, "lobby")
    seated = [user for user, *_ in (yield from seats(game_id))]
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
    yield from require_status(game_id, "lobby")
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


def configure_lobby(game_id: int, settings: LobbySettings, now: float) -> Transaction[GameRecord]:
    """A lobby's settings, chosen again by its host before the start."""
    columns = settings.columns()
    query = (
        f"UPDATE games SET {''.join(f'{column} = ?, ' for column in columns)}updated_at = ? "
        "WHERE id = ? AND status = 'lobby'"
    )
    if (yield count(query, *columns.values(), now, game_id)) == 0:
        raise (yield from refuse(game_id, "lobby"))
    return (yield from load_game(game_id))


def cancel_lobby(game_id: int, now: float) -> Transaction[None]:
    query = (
        "UPDATE games SET status = 'abandoned', outcome = 'abandoned', ended_at = ?, "
        "updated_at = ? WHERE id = ? AND status = 'lobby'"
    )
    if (yield count(query, now, now, game_id)) == 0:
        raise (yield from refuse(game_id, "lobby"))


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
    yield from require_status(game_id, "lobby")
    seated = [user for user, *_ in (yield from seats(game_id))]
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
