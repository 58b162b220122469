"""What the bot remembers of each person: their DM channel, their Discord locale, and the
one DM that carries their hand in each game, as transactions (bot.store.transactions) for
both backends."""

from __future__ import annotations

from bot.store.transactions import Transaction, count, one


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
