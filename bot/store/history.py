"""Ended games read back for a server's or a conversation's history and replays, as
transactions (bot.store.transactions) for both backends."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.store.games import COLUMNS, Seat, record
from bot.store.records import GameRecord
from bot.store.transactions import Transaction, rows

#: The games table's COLUMNS read as `g`.
_G_COLUMNS = ", ".join(f"g.{column}" for column in COLUMNS.split(", "))


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
    """The records of ended games read as rows of COLUMNS, in their order, with their
    seats (one query for all)."""
    if not games:
        return []
    query = (
        "SELECT game_id, user_id, left_at, name, dealt FROM players "
        f"WHERE game_id IN ({', '.join('?' for _ in games)}) ORDER BY game_id, seat"
    )
    seats: dict[int, list[Seat]] = {}
    for game_id, user_id, left_at, name, dealt in (yield rows(query, *(row[0] for row in games))):
        seats.setdefault(game_id, []).append((user_id, left_at, name, dealt))
    return [record(row, seats.get(row[0], ())) for row in games]
