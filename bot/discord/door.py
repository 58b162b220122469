"""Discord as a door of the game core: the client logged in and connected, or REST alone.

`DiscordDoor` is Discord's messages (bot.discord.client): started with the core, it logs
the client in (its setup runs then: outbox, cogs, commands) and keeps it connected to the
gateway until stopped. `DiscordRest` is for a process without that door (the live table
alone): the bot's token on Discord's REST API, no gateway, so that the gatekeeper can ask
who may watch and play where (bot.discord.gatekeeper), and nothing else.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot.discord.client import ApophisBot
    from bot.game.changes import TableChange
    from bot.game.core import GameCore

#: Discord's gateway close code for a token it does not take (reset, revoked).
AUTHENTICATION_FAILED = 4004


class DiscordDoor:
    """The client as one door of the core (bot.game.doors)."""

    def __init__(self, client: ApophisBot, token: str) -> None:
        self.client = client
        self.token = token
        #: The client's connection to the gateway, once this door logged it in: it ends
        #: only with the client, or with why it cannot connect (a refused token, at login
        #: or later, raises discord.LoginFailure).
        self.connection: asyncio.Task[None] | None = None

    def heard(self, change: TableChange) -> None:
        self.client.heard(change)

    async def start(self, core: GameCore) -> None:
        """Serve `core`: log in (unless discord.py was told to log in first, as the fake
        Discord's `connected` does: its login started the core), then connect."""
        self.client.core = core
        if self.client.http.token is not None:
            return
        await self.client.login(self.token)
        self.connection = asyncio.create_task(self._connect())

    async def _connect(self) -> None:
        """Connected until the client closes. A token Discord stops taking while the bot
        runs (reset on the Bot page: the gateway closes with 4004) ends it as a token
        refused at login does, with discord.LoginFailure."""
        try:
            await self.client.connect()
        except discord.ConnectionClosed as exc:
            if exc.code != AUTHENTICATION_FAILED:
                raise
            raise discord.LoginFailure("Discord no longer accepts the bot's token.") from exc

    async def stop(self) -> None:
        """Close the client (its clocks frozen first, its outbox given a grace), then stop
        connecting: discord.py would otherwise sleep out its reconnect back-off, tens of
        seconds after an outage."""
        try:
            await self.client.close()
        finally:
            if self.connection is not None:
                self.connection.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await self.connection


class DiscordRest:
    """Discord's REST API with the bot's token, no gateway: a client logged in, never
    connected (its cache stays empty), started and stopped like a door that hears nothing."""

    def __init__(self, token: str, **options: object) -> None:
        self.token = token
        self.client = discord.Client(intents=discord.Intents.none(), **options)  # type: ignore[arg-type]

    def heard(self, change: TableChange) -> None:
        return None

    async def start(self, core: GameCore) -> None:
        await self.client.login(self.token)

    async def stop(self) -> None:
        await self.client.close()
