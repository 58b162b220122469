"""What waits for a channel that refuses the bot, parked by key, and telling its players so.

A channel that refuses the bot (bot.discord.access) gets no request through the channel
routes: what needed one waits, parked by key, and is sent through the next interaction's
token there, or once the permissions come back; the players are told once by DM, whoever
interacts there once privately. Nothing is sent to a deleted channel.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.access import Access, named
from bot.game.access import INTERACTIONS
from bot.i18n.catalogs import t
from bot.table import is_crewmate
from bot.views.message import Message

if TYPE_CHECKING:
    from bot.discord.dms import HandDMs
    from bot.discord.jobs import Job, Key
    from bot.discord.tokens import Token, Tokens
    from bot.game.audience import Audience
    from bot.table import Table


class Parking:
    """Jobs waiting for their game's channel to let the bot in (module docstring)."""

    def __init__(
        self,
        access: Access,
        tokens: Tokens,
        dms: HandDMs,
        audience: Audience,
        *,
        submit: Callable[[Key, Job], None],
    ) -> None:
        """`submit(key, job)` queues a job."""
        self.access, self.tokens, self.dms, self.audience = access, tokens, dms, audience
        self.submit = submit
        #: game id -> (its table, what waits for its channel to let the bot in, by key).
        self._parked: dict[int, tuple[Table, dict[Key, Job]]] = {}

    def park(self, table: Table, key: Key, job: Job) -> None:
        """Keep a job its channel refused until the bot may post there (or a token can
        carry it); the players of a game in play are told once, by DM."""
        if self.access.gone(table.channel_id):
            return
        self._parked.setdefault(table.id, (table, {}))[1].setdefault(key, job)
        game = table.game
        if table.status != "active" or game is None or table.reach == INTERACTIONS:
            return  # (reached through interactions alone: nothing is refused, it waits)
        for player in game.players:
            if is_crewmate(player):
                continue
            if self.access.first_time_for(table.channel_id, player, "dm"):
                told = ("dm", table.id, player, "refused")
                self.submit(told, partial(self._tell_by_dm, table, player))

    def unpark(self, channel_id: int) -> None:
        """Send what waited for the channel, its games' (through a token, or the channel)."""
        waiting = [
            game for game, (table, _) in self._parked.items() if table.channel_id == channel_id
        ]
        for game_id in waiting:
            for key, job in self._parked.pop(game_id)[1].items():
                self.submit(key, job)

    def forget(self, game_id: int) -> None:
        """The game is over and forgotten: what still waited for it goes too."""
        self._parked.pop(game_id, None)

    def drop(self, channel_id: int) -> None:
        """The channel was deleted: what waited for it is dropped."""
        for game_id, (table, _) in list(self._parked.items()):
            if table.channel_id == channel_id:
                del self._parked[game_id]

    async def tell_privately(self, token: Token, payload: dict[str, Any]) -> None:
        """Tell whoever interacted (an ephemeral follow-up of their interaction)."""
        with contextlib.suppress(discord.HTTPException):  # dismissed or expired: told later
            await self.tokens.follow_up(token, payload)

    async def _tell_by_dm(self, table: Table, player: int) -> None:
        refused = self.access.refused(table)
        if not refused or self.access.gone(table.channel_id):
            return  # let in again meanwhile
        language = await self.audience.player(player)
        text = t(
            language,
            "access.refused_dm",
            channel=f"<#{table.channel_id}>",
            missing=named(refused, language),
            id=table.id,
        )
        await self.dms.notice(player, Message(content=text).json())
