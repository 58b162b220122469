"""Players' panels: one live panel per player, redrawn through its latest token.

A player's panel is the response to their own interaction, so it is redrawn through that
interaction's token while it is usable (their next click redraws it otherwise), saying at
its top when it is their turn. Each player has one live panel: opening a newer one turns
the older into a one-line pointer to it. Panels are Components V2 layouts
(bot.views.panel), and so is that pointer: Discord never takes the flag off a message.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.discord.tokens import Token, Tokens
from bot.i18n.catalogs import t
from bot.views import panel
from engine import Phase

if TYPE_CHECKING:
    from bot.game.audience import Audience
    from bot.table import Table


@dataclass(slots=True)
class Panel:
    """A player's live panel: the token whose original response it is, and the id of the
    interaction that opened it (a click on the panel names it in its metadata)."""

    token: Token
    opened_by: int


class Panels:
    """Every player's live panel in every game, and their older ones to point onwards."""

    def __init__(
        self, tokens: Tokens, audience: Audience, *, changed: Callable[[Table, int], None]
    ) -> None:
        """`changed(table, player)` has the player's panels refreshed."""
        self.tokens, self.audience, self.changed = tokens, audience, changed
        #: game id -> player -> their live panel, and the version it shows.
        self._live: dict[int, dict[int, Panel]] = {}
        self._versions: dict[int, dict[int, int]] = {}
        #: game id -> player -> the tokens of their older panels, to turn into pointers.
        self._moved: dict[int, dict[int, list[Token]]] = {}

    def forget(self, game_id: int) -> None:
        for records in (self._live, self._versions, self._moved):
            records.pop(game_id, None)

    def shown(
        self,
        table: Table,
        player: int,
        version: int,
        interaction: discord.Interaction,
        token: Token,
    ) -> None:
        """`interaction`'s response shows `player`'s panel at `version`: the clicked one
        updated, or a new one, which makes the one they had before a pointer to it."""
        panels = self._live.setdefault(table.id, {})
        old = panels.get(player)
        updated = interaction.response.type is discord.InteractionResponseType.message_update
        metadata = getattr(interaction.message, "interaction_metadata", None) if updated else None
        if metadata is not None:
            opened_by = metadata.id
        elif updated and old is not None:  # which panel cannot be told: taken as the live one
            opened_by = old.opened_by
        else:
            opened_by = interaction.id
        panels[player] = Panel(token, opened_by)
        if old is not None and old.opened_by != opened_by:
            self._moved.setdefault(table.id, {}).setdefault(player, []).append(old.token)
            self.changed(table, player)
        self._versions.setdefault(table.id, {})[player] = version

    async def refresh(self, table: Table, player: int) -> bool:
        """Turn a player's older panels into pointers to their newest, and redraw that one
        through its latest token, while it is usable (saying at its top when it is their
        turn: what tells them when they are not pinged). Whether their live panel shows
        the game as it is now (and so their hand)."""
        moved = self._moved.get(table.id, {}).pop(player, [])
        older = [token for token in moved if self.tokens.usable(token)]
        if older:
            stub = panel.stub(await self.audience.player(player)).json()
            for token in older:
                with contextlib.suppress(discord.HTTPException):  # dismissed meanwhile
                    await self.tokens.edit(token, None, stub)
        live = self._live.get(table.id, {}).get(player)
        game = table.game
        if live is None or not self.tokens.usable(live.token):
            return False
        if game is None or player not in game.players:
            if game is not None and table.open:  # they left the game in play: it closes
                self._live[table.id].pop(player, None)
                stub = panel.stub(await self.audience.player(player), "panel.left").json()
                with contextlib.suppress(discord.HTTPException):  # dismissed meanwhile
                    await self.tokens.edit(live.token, None, stub)
            return False
        versions = self._versions.setdefault(table.id, {})
        if versions.get(player, -1) >= table.version and table.open:
            return True
        version = table.version
        language = await self.audience.player(player)
        waiting = game.phase in (Phase.RESHUFFLE, Phase.OVER) or not table.open
        note = None if waiting or game.active_player != player else t(language, "ping.panel")
        try:
            message = panel.panel_message(table, player, language, note)
            await self.tokens.edit(live.token, None, message.json())
        except discord.HTTPException:
            return False  # dismissed or expired (the token is dropped): their next click redraws it
        versions[player] = version
        return True
