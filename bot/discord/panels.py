"""Players' panels: one live panel per player, redrawn through its latest token.

A player's panel is the response to their own interaction (or, for a move pressed on the
board, a private follow-up of it), so it is redrawn through that interaction's token while
it is usable (their next click redraws it otherwise), saying at its top when it is their
turn and, out of turn, whose turn it is now. Each player has one live panel: opening a
newer one removes the older (through its token; one too old for it to reach becomes the
live one again if it is clicked). Panels are Components V2 layouts (bot.views.panel).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
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

#: Seconds a redraw of a player's panel waits for the one being posted for them (a board
#: move's follow-up) to land: until then, whether their panel shows their hand is unknown.
FOLLOW_WAIT = 1.0


@dataclass(slots=True)
class Panel:
    """A player's live panel: the token that may edit it, which of that token's messages it
    is (`follow_up`: a follow-up's id; None, its original response), and the id of the
    interaction that opened it (a click on the panel names it in its metadata)."""

    token: Token
    opened_by: int
    follow_up: int | None = None


class Panels:
    """Every player's live panel in every game, and their older ones to remove."""

    def __init__(
        self, tokens: Tokens, audience: Audience, *, changed: Callable[[Table, int], None]
    ) -> None:
        """`changed(table, player)` has the player's panels refreshed."""
        self.tokens, self.audience, self.changed = tokens, audience, changed
        #: game id -> player -> their live panel, and the version it shows.
        self._live: dict[int, dict[int, Panel]] = {}
        self._versions: dict[int, dict[int, int]] = {}
        #: game id -> player -> their older panels, to remove.
        self._older: dict[int, dict[int, list[Panel]]] = {}
        #: (game id, player) -> set once the panel being posted for them has landed.
        self._coming: dict[tuple[int, int], asyncio.Event] = {}

    def forget(self, game_id: int) -> None:
        for records in (self._live, self._versions, self._older):
            records.pop(game_id, None)

    def shown(
        self,
        table: Table,
        player: int,
        version: int,
        interaction: discord.Interaction,
        token: Token,
        *,
        follow_up: int | None = None,
    ) -> None:
        """`interaction`'s response (or its follow-up `follow_up`) shows `player`'s panel at
        `version`: the clicked one updated, or a new one, which has the one they had before
        removed."""
        panels = self._live.setdefault(table.id, {})
        old = panels.get(player)
        updated = interaction.response.type is discord.InteractionResponseType.message_update
        updated = updated and follow_up is None  # (a board's click updates the board)
        metadata = getattr(interaction.message, "interaction_metadata", None) if updated else None
        if metadata is not None:
            opened_by = metadata.id
        elif updated and old is not None:  # which panel cannot be told: taken as the live one
            opened_by = old.opened_by
        else:
            opened_by = interaction.id
        panels[player] = Panel(token, opened_by, follow_up)
        if old is not None and old.opened_by != opened_by:
            self._older.setdefault(table.id, {}).setdefault(player, []).append(old)
            self.changed(table, player)
        self._versions.setdefault(table.id, {})[player] = version

    def follow(
        self,
        table: Table,
        player: int,
        interaction: discord.Interaction,
        token: Token,
        post: Callable[[], Awaitable[int]],
    ) -> Awaitable[None]:
        """`player`'s panel, showing the game now, is about to be posted as a follow-up of
        `interaction` through `token` (`post()`, its id; raises what Discord answers): what
        posts it, after which it is their live panel. Their panel's redraws wait for it
        from now on (a refresh meanwhile could not tell whether their panel shows their
        hand)."""
        key, version = (table.id, player), table.version
        self._coming[key] = coming = asyncio.Event()

        async def landing() -> None:
            try:
                follow_up = await post()
            finally:
                coming.set()
                if self._coming.get(key) is coming:
                    del self._coming[key]
            self.shown(table, player, version, interaction, token, follow_up=follow_up)

        return landing()

    def holding(self, table: Table) -> list[int]:
        """The players of `table` whose live panel can still be redrawn."""
        live = self._live.get(table.id, {})
        return [player for player, shown in live.items() if self.tokens.usable(shown.token)]

    async def refresh(self, table: Table, player: int) -> bool:
        """Remove a player's older panels, and redraw their newest through its latest token,
        while it is usable (saying at its top when it is their turn: what tells them when
        they are not pinged). Whether their live panel shows the game as it is now (and so
        their hand)."""
        coming = self._coming.get((table.id, player))
        if coming is not None:  # (if it never lands, the live panel is the one before)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(FOLLOW_WAIT):
                    await coming.wait()
        for old in self._older.get(table.id, {}).pop(player, []):
            if self.tokens.usable(old.token):
                with contextlib.suppress(discord.HTTPException):  # dismissed meanwhile
                    await self.tokens.delete(old.token, old.follow_up)
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
            await self.tokens.edit(live.token, live.follow_up, message.json())
        except discord.HTTPException:
            return False  # dismissed or expired (the token is dropped): their next click redraws it
        versions[player] = version
        return True
