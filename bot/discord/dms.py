"""Hand DMs (one message per player and game, sent at the deal, edited after) and notices.

The DM carries the player's latest hand and only the latest changes, within Discord's
2,000 characters, in the player's language (the last Discord locale seen from them) and
with cards as their server shows them. While the player's panel in the channel shows
their hand, kept current through its token, the DM says so instead (`point`: one edit,
not one an action, and none against Discord's global limit for a hand the player is
looking at already); it carries the hand again at the first change the panel cannot
show (bot.discord.outbox). Its id is stored (table hand_dms), so after a restart the
same message is edited rather than a new one sent. A DM that fails is retried by the
outbox with the state of that moment. A player whose DMs are closed is told once per
game in the channel; the bot tries again at a later change (backing off, as Discord
bans bots that collect too many 403 answers), so a player who opens their DMs gets
them again. A notice of its own (`notice`: the game's channel refuses the bot) is a DM
apart from the hand's.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n.catalogs import t
from bot.table import Change, Table
from bot.views import narration, render
from bot.views.message import Message

if TYPE_CHECKING:
    from bot.discord.rest import Rest
    from bot.game.audience import Audience
    from bot.store.store import Store

log = logging.getLogger(__name__)

#: After a 403 (DMs closed), seconds before trying that player again; doubles each time.
CLOSED_RETRY = (60.0, 600.0)


class HandDMs:
    """The hand DM of every player in every game (see the module docstring)."""

    def __init__(
        self,
        rest: Rest,
        client: discord.Client,
        store: Store,
        audience: Audience,
        *,
        spend: Callable[[], Awaitable[None]],
        tell_channel: Callable[[Table, str], None],
        clock: Callable[[], float],
    ) -> None:
        self.rest, self.client, self.store, self.audience = rest, client, store, audience
        self.spend, self.tell_channel, self.clock = spend, tell_channel, clock
        #: (game, player) -> changes not yet shown in the DM (the latest DM_CHANGES).
        self._changes: dict[tuple[int, int], list[Change]] = {}
        self._messages: dict[tuple[int, int], int] = {}
        self._channels: dict[int, int] = {}
        #: (game, player) -> (not before, next backoff) while their DMs are closed.
        self._closed: dict[tuple[int, int], tuple[float, float]] = {}
        self._told_closed: set[tuple[int, int]] = set()
        #: The (game, player) whose DM points to their panel rather than showing the hand.
        self._pointing: set[tuple[int, int]] = set()

    def changed(self, table: Table, player: int, changes: list[Change]) -> bool:
        """Note what changed; whether a DM should be sent now."""
        key = (table.id, player)
        pending = self._changes.setdefault(key, [])
        pending.extend(changes)
        del pending[: -render.DM_CHANGES]
        closed = self._closed.get(key)
        return closed is None or self.clock() >= closed[0]

    async def point(self, table: Table, player: int) -> None:
        """The player's panel shows their hand now: their DM says so, once (raises to be
        retried), unless it is their first DM of the game (the deal), which shows the hand.
        The changes wait for the DM's next hand."""
        key = (table.id, player)
        if key in self._pointing:
            return
        if key not in self._messages and await self.store.get_hand_dm(*key) is None:
            await self.send(table, player)  # the deal: the first DM of a game shows the hand
            return
        language = await self.audience.player(player)
        content = "\n".join((render.hand_dm(table, None, [], language), t(language, "dm.in_panel")))
        try:
            await self._deliver(key, player, Message(content=content).json())
        except discord.Forbidden:
            self._closed_now(table, key, player)
        else:
            self._closed.pop(key, None)
            self._pointing.add(key)

    async def send(self, table: Table, player: int) -> None:
        """Send or edit the player's DM with their hand now (raises to be retried)."""
        key = (table.id, player)
        self._pointing.discard(key)
        changes = self._changes.pop(key, [])
        game = table.game
        seated = game if game is not None and player in game.players else None
        hand = seated.view_for(player).hand if seated is not None else None
        try:
            language = await self.audience.player(player)
            said = [narration.change_text(c, language, table.cards) for c in changes]
            content = render.hand_dm(table, hand, said, language)
            await self._deliver(key, player, Message(content=content).json())
        except discord.Forbidden:
            self._closed_now(table, key, player)
            self._keep(key, changes)
        except Exception:
            self._keep(key, changes)
            raise
        else:
            self._closed.pop(key, None)
            if seated is None or seated.is_over:  # the last DM of this game for this player
                self._messages.pop(key, None)
                self._told_closed.discard(key)

    async def notice(self, player: int, payload: dict[str, Any]) -> None:
        """A DM of its own to a player, apart from their hand's (nothing if their DMs are
        closed: the channel would be told of that, and the channel is what refuses us)."""
        channel_id = await self._channel(player)
        await self.spend()
        with contextlib.suppress(discord.Forbidden):
            await self._request(channel_id, "POST", "", payload)

    def _keep(self, key: tuple[int, int], changes: list[Change]) -> None:
        """Put back what the DM did not carry, before anything newer."""
        pending = changes + self._changes.get(key, [])
        self._changes[key] = pending[-render.DM_CHANGES :]

    async def _deliver(self, key: tuple[int, int], player: int, payload: dict[str, Any]) -> None:
        channel_id = await self._channel(player)
        message_id = self._messages.get(key)
        if message_id is None:
            message_id = await self.store.get_hand_dm(*key)
        if message_id is not None:
            await self.spend()
            try:
                await self._request(channel_id, "PATCH", f"/{message_id}", payload)
                self._messages[key] = message_id
                return
            except discord.NotFound:  # deleted on Discord's side: send a new one
                pass
        await self.spend()
        sent = await self._request(channel_id, "POST", "", payload, want=True)
        self._messages[key] = int(sent["id"])
        await self.store.set_hand_dm(*key, int(sent["id"]))

    async def _request(
        self, channel_id: int, method: str, tail: str, payload: dict[str, Any], want: bool = False
    ) -> Any:
        """A request on the DM channel's messages (`tail` after their path), as the bot."""
        path = f"/channels/{channel_id}/messages{tail}"
        return await self.rest.request(method, path, payload, want=want, bucket=f"dm {channel_id}")

    def _closed_now(self, table: Table, key: tuple[int, int], player: int) -> None:
        first, longest = CLOSED_RETRY
        backoff = self._closed.get(key, (0.0, first))[1]
        self._closed[key] = (self.clock() + backoff, min(backoff * 2, longest))
        if key not in self._told_closed:
            self._told_closed.add(key)
            self.tell_channel(
                table, t(table.language, "notice.dms_closed", player=render.mention(player))
            )

    async def _channel(self, user_id: int) -> int:
        channel_id = self._channels.get(user_id)
        if channel_id is None:
            channel_id = await self.store.get_dm_channel(user_id)
        if channel_id is None:
            await self.spend()
            dm = await self.client.create_dm(discord.Object(user_id))
            channel_id = dm.id
            await self.store.set_dm_channel(user_id, channel_id)
        self._channels[user_id] = channel_id
        return channel_id
