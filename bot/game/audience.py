"""Who reads in which language: each player's Discord locale, each server's language and cards.

What one player sees (private replies, their panel, their hand DM) is in that player's
language: the locale of their latest interaction, stored so that a DM sent after a
restart still speaks it. What a channel sees is in its server's language: the one
chosen with `/apophis config`, else the server's preferred locale as Discord last gave
it, else English; the server also chooses how cards are shown (suits or colours). Where
there is no server (a DM, a group DM), a table speaks the language most of its seated
people speak, its host's on a tie, and shows cards as suits.
Both are held in memory; the store is written (in the background) only when one changes.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Coroutine, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from bot.i18n.catalogs import DEFAULT_LANGUAGE, language_of
from bot.table import is_crewmate

if TYPE_CHECKING:
    from bot.store.records import GuildSettings
    from bot.store.store import Store
    from bot.table import Table

log = logging.getLogger(__name__)


class _Locale(Protocol):
    @property
    def value(self) -> str: ...


class _User(Protocol):
    @property
    def id(self) -> int: ...


class Arrival(Protocol):
    """What a door's request says of its sender's languages (a discord.Interaction does)."""

    @property
    def locale(self) -> _Locale | None: ...

    @property
    def user(self) -> _User: ...

    @property
    def guild_id(self) -> int | None: ...

    @property
    def guild_locale(self) -> _Locale | None: ...


class Audience:
    """Languages of players and servers (see the module docstring)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        #: user id -> the Discord locale last seen from them.
        self._locales: dict[int, str] = {}
        #: guild id -> its preferred locale as last seen (ahead of the store's copy).
        self._guild_locales: dict[int, str] = {}
        self._servers: dict[int, GuildSettings] = {}
        self._writes: set[asyncio.Task] = set()

    def seen(self, interaction: Arrival) -> None:
        """Note the locales an interaction came with (stored in the background when new).

        Nothing waits for the store: a slow or locked database must not delay an answer,
        and a locale not saved is only saved at the next interaction.
        """
        locale = interaction.locale
        user = interaction.user.id
        if locale is not None and self._locales.get(user) != (value := str(locale.value)):
            self._locales[user] = value
            self._write(self.store.set_user_locale(user, value))
        guild_id, guild_locale = interaction.guild_id, interaction.guild_locale
        if guild_id is not None and guild_locale is not None:
            value = str(guild_locale.value)
            if self._guild_locales.get(guild_id) != value:
                self._guild_locales[guild_id] = value
                self._write(self._remember_guild_locale(guild_id, value))

    def _write(self, write: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.create_task(write)
        self._writes.add(task)
        task.add_done_callback(self._written)

    def _written(self, task: asyncio.Task) -> None:
        self._writes.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("a locale could not be saved: %s", task.exception())

    async def _remember_guild_locale(self, guild_id: int, locale: str) -> None:
        if (await self.store.get_guild_settings(guild_id)).discord_locale != locale:
            await self.update(guild_id, discord_locale=locale)

    async def player(self, user_id: int) -> str:
        """A player's language, for what is sent to them unasked (their DM, their panel)."""
        locale = self._locales.get(user_id)
        if locale is None:
            locale = await self.store.get_user_locale(user_id)
            if locale is None:
                return DEFAULT_LANGUAGE
            self._locales[user_id] = locale
        return language_of(locale)

    async def settings(self, guild_id: int) -> GuildSettings:
        settings = self._servers.get(guild_id)
        if settings is None:
            settings = await self.store.get_guild_settings(guild_id)
            self._servers[guild_id] = settings
        locale = self._guild_locales.get(guild_id)
        if locale is not None and settings.discord_locale != locale:  # seen, not yet stored
            settings = self._servers[guild_id] = replace(settings, discord_locale=locale)
        return settings

    async def update(self, guild_id: int, **changes: object) -> GuildSettings:
        """Change a server's settings (GuildSettings fields), in the store and here."""
        settings = await self.store.update_guild_settings(guild_id, **changes)
        self._servers[guild_id] = settings
        return settings

    async def server(self, guild_id: int) -> tuple[str, str]:
        """A server's language and card display."""
        return look(await self.settings(guild_id))

    async def table(self, table: Table) -> tuple[str, str]:
        """The language and card display a table's channel reads: its server's, or where
        there is no server, its people's (see the module docstring)."""
        language, cards = await self.server(table.guild_id)
        if table.guild_id:
            return language, cards
        return await self.most_spoken(table.host_id, table.seats), cards

    async def most_spoken(self, host_id: int, seats: Iterable[int]) -> str:
        """The language most of these people speak (crewmates aside), the host's on a tie."""
        people = [p for p in dict.fromkeys([host_id, *seats]) if not is_crewmate(p)]
        languages = Counter([await self.player(person) for person in people])
        return max(languages, key=languages.__getitem__)  # the first of the most: the host's


def look(settings: GuildSettings) -> tuple[str, str]:
    """The language and card display a server's settings give its channels."""
    if settings.language_chosen:
        language = language_of(settings.language)
    else:
        language = language_of(settings.discord_locale)
    return language, settings.cards
