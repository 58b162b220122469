"""Each server's settings, read (defaults for a server that never changed any) and
changed, as transactions (bot.store.transactions) for both backends."""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Sequence
from typing import Any

from bot.lobby_settings import DIFFICULTIES, RULES
from bot.store.records import (
    AUTOPILOT_SECONDS,
    CARD_STYLES,
    GuildSettings,
    check_choice,
)
from bot.store.transactions import Transaction, count, one, rows

#: The columns of the guild_settings table, named and ordered as GuildSettings' fields...
_COLUMNS = tuple(field.name for field in dataclasses.fields(GuildSettings))
#: ...of which these are flags, stored as 0 or 1.
_FLAGS = {name for name, hint in typing.get_type_hints(GuildSettings).items() if hint is bool}
_SELECT = f"SELECT {', '.join(_COLUMNS)} FROM guild_settings WHERE guild_id = ?"
_UPSERT = (
    f"INSERT INTO guild_settings ({', '.join(_COLUMNS)}) "
    f"VALUES ({', '.join('?' for _ in _COLUMNS)}) ON CONFLICT (guild_id) DO UPDATE SET "
    + ", ".join(f"{column} = excluded.{column}" for column in _COLUMNS[1:])
)


def _settings(row: Sequence[Any]) -> GuildSettings:
    """A server's settings from a row of _SELECT."""
    values: dict[str, Any] = dict(zip(_COLUMNS, row, strict=True))
    for flag in _FLAGS:
        values[flag] = bool(values[flag])
    return GuildSettings(**values)


def guild_settings(guild_id: int) -> Transaction[GuildSettings]:
    row = yield one(_SELECT, guild_id)
    return GuildSettings(guild_id) if row is None else _settings(row)


def update_guild_settings(guild_id: int, changes: dict[str, Any]) -> Transaction[GuildSettings]:
    # The server's row exists and is locked: a change made meanwhile is not overwritten.
    yield count("INSERT INTO guild_settings (guild_id) VALUES (?) ON CONFLICT DO NOTHING", guild_id)
    row = yield one(_SELECT + " {lock}", guild_id)
    settings = dataclasses.replace(_settings(row), **changes)
    check_choice("difficulty", settings.default_difficulty, DIFFICULTIES)
    check_choice("rules", settings.default_rules, RULES)
    check_choice("cards", settings.cards, CARD_STYLES)
    low, high = AUTOPILOT_SECONDS
    if settings.autopilot_seconds and not low <= settings.autopilot_seconds <= high:
        raise ValueError(f"The autopilot takes 0 (off) or {low} to {high} seconds.")
    yield count(_UPSERT, *dataclasses.astuple(settings))
    return settings


def guilds_without_pictures() -> Transaction[set[int]]:
    return {
        guild_id
        for (guild_id,) in (yield rows("SELECT guild_id FROM guild_settings WHERE pictures = 0"))
    }


def autopilot_delays() -> Transaction[dict[int, int]]:
    """The autopilot delay of every server with settings (0: off); the others have
    DEFAULT_AUTOPILOT_SECONDS."""
    query = "SELECT guild_id, autopilot_seconds FROM guild_settings"
    return dict((yield rows(query)))
