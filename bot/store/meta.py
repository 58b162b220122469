"""What the bot keeps about itself in the database (meta values by key), as transactions
(bot.store.transactions) for both backends."""

from __future__ import annotations

from typing import Any

from bot.store.transactions import Transaction, count, one


def get_meta(key: str) -> Transaction[Any]:
    row = yield one("SELECT value FROM meta WHERE key = ?", key)
    return None if row is None else row[0]


def set_meta(key: str, value: Any) -> Transaction[None]:
    query = (
        "INSERT INTO meta (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
    )
    yield count(query, key, value)
