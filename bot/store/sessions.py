"""Web sessions ended before their time, as transactions (bot.store.transactions) for both
backends: a logout holds on every process sharing the database, and after a restart."""

from __future__ import annotations

from bot.store.transactions import Transaction, count, one, rows


def end_session(signature: str, expires: float, now: float) -> Transaction[None]:
    """Record a session's end (once), and forget those that would have expired by now."""
    yield count("DELETE FROM ended_sessions WHERE expires <= ?", now)
    yield count(
        "INSERT INTO ended_sessions (signature, expires, ended_at) VALUES (?, ?, ?) "
        "ON CONFLICT (signature) DO NOTHING",
        signature,
        expires,
        now,
    )


def session_ended(signature: str) -> Transaction[bool]:
    row = yield one("SELECT 1 FROM ended_sessions WHERE signature = ?", signature)
    return row is not None


def sessions_ended_since(since: float) -> Transaction[list[str]]:
    found = yield rows(
        "SELECT signature FROM ended_sessions WHERE ended_at >= ? ORDER BY ended_at", since
    )
    return [signature for (signature,) in found]
