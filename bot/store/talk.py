"""Table talk kept: each player's latest signal in a game, replaced in one statement, read back
for the games in play, as transactions (bot.store.transactions) for both backends."""

from __future__ import annotations

from bot.store.transactions import Transaction, count, rows


def set_signal(
    game_id: int, player: int, signal: str, until_turn: int, now: float
) -> Transaction[None]:
    query = (
        "INSERT INTO signals (game_id, player, signal, until_turn, said_at) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, player) DO UPDATE SET "
        "signal = excluded.signal, until_turn = excluded.until_turn, said_at = excluded.said_at"
    )
    yield count(query, game_id, player, signal, until_turn, now)


def open_signals() -> Transaction[list[tuple[int, int, str, int]]]:
    """Every signal of a game in play: (game, player, signal's code, last turn it stands)."""
    query = (
        "SELECT s.game_id, s.player, s.signal, s.until_turn FROM signals AS s "
        "{join} games AS g ON g.id = s.game_id WHERE g.status = 'active' "
        "ORDER BY s.game_id, s.said_at"
    )
    return [tuple(row) for row in (yield rows(query))]


def signals_of(game_id: int) -> Transaction[list[tuple[int, str, int]]]:
    """A game's latest signals: (player, signal's code, last turn it stands), oldest first."""
    query = "SELECT player, signal, until_turn FROM signals WHERE game_id = ? ORDER BY said_at"
    return [tuple(row) for row in (yield rows(query, game_id))]
