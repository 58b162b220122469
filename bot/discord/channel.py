"""A game's channel as the outbox writes to it: through a token when one is usable, else the routes.

What a player waits for goes through interaction tokens (bot.discord.tokens), outside
Discord's global budget of 50 requests a second: follow-ups of the latest interaction in
the game (or of the board's), a message's edit and deletion through the token that posted
it. The channel routes, which spend the budget, are the fallback when no token is usable.
A channel that refuses the bot (bot.discord.access) gets no request through them: `Refused`
is raised instead (`Closed` for a game's thread a moderator locked), `Gone` once the
channel was deleted (its game then ends). A game reached through interactions alone never
uses them (`Unreachable`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord.http import Route

from bot.discord import embeds
from bot.discord.access import (
    ARCHIVED,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    UNKNOWN_CHANNEL,
    Access,
    ChannelUnusable,
    Closed,
    Gone,
    NoFiles,
    Refused,
    Unreachable,
    blocks,
)
from bot.discord.tokens import Owned, Token, Tokens
from bot.game.access import INTERACTIONS

if TYPE_CHECKING:
    from bot.table import Table
    from bot.views.message import Upload

log = logging.getLogger(__name__)


class GameChannel:
    """Requests to games' channels, and the newest token of each game (module docstring)."""

    def __init__(
        self,
        http: discord.http.HTTPClient,
        tokens: Tokens,
        access: Access,
        *,
        spend: Callable[[], Awaitable[None]],
        board_token: Callable[[Table], Token | None],
        gone: Callable[[int], None],
        no_files: Callable[[Table], None],
    ) -> None:
        """`board_token(table)`: the usable token of the board, when the game has no newer.
        `gone(channel_id)`: Discord answered that the channel is unknown. `no_files(table)`:
        Discord refused an upload there."""
        self.http, self.tokens, self.access = http, tokens, access
        self.spend, self.board_token = spend, board_token
        self.gone, self.no_files = gone, no_files
        #: game id -> the token of the latest interaction answered in the game.
        self.fresh: dict[int, Token] = {}

    def forget(self, game_id: int) -> None:
        self.fresh.pop(game_id, None)

    def fresh_token(self, table: Table) -> Token | None:
        """The newest usable token of the game (for follow-ups), if any."""
        for token in (self.fresh.get(table.id), self.board_token(table)):
            if self.tokens.can_post(token):
                return token
        return None

    async def request(
        self,
        method: str,
        table: Table,
        payload: dict[str, Any] | None,
        message_id: int | None = None,
        upload: Upload | None = None,
    ) -> Any:
        """A request to the game's channel through the channel routes (global budget); Discord's
        answer, as discord.py reads it (the message posted or edited).

        With `upload`, the picture goes along (a multipart request). Raises `Refused` (no
        request) while the channel refuses the bot what it needs (`Closed` while the game's
        thread is archived and locked: a message is neither posted nor edited there, though
        one may be deleted), `Gone` once it was deleted. An edit in a live game's thread
        that was archived (not locked) opens it again, as a new message there would."""
        if self.access.gone(table.channel_id):
            raise Gone(table)
        if table.reach == INTERACTIONS:  # no channel route works there: never tried
            raise Unreachable(table, given_up=message_id is not None)
        if method != "DELETE" and self.access.closed(table):
            raise Closed(table)
        missing = self.access.refused(table)
        if missing and blocks(missing, method, payload, upload is not None):
            self.access.note(table, missing)
            raise Refused(table)
        await self.spend()
        if message_id is None:
            route = Route(method, "/channels/{channel_id}/messages", channel_id=table.channel_id)
        else:
            route = Route(
                method,
                "/channels/{channel_id}/messages/{message_id}",
                channel_id=table.channel_id,
                message_id=message_id,
            )
        try:
            return await self._send(route, payload, upload)
        except discord.HTTPException as exc:
            error = exc
        if (
            error.code == ARCHIVED
            and method == "PATCH"
            and table.open
            and await self._reopen(table)
        ):
            try:
                return await self._send(route, payload, upload)
            except discord.HTTPException as exc:
                error = exc
        unusable = self._refusal(table, error, method, upload is not None)
        if unusable is not None:
            raise unusable from error
        raise error

    async def _send(
        self, route: Route, payload: dict[str, Any] | None, upload: Upload | None
    ) -> Any:
        if upload is not None:
            return await self.http.request(route, **embeds.multipart(upload, payload))
        return await self.http.request(route, json=payload)

    async def _reopen(self, table: Table) -> bool:
        """The live game's thread was archived (by a moderator, or by Discord when idle):
        opened again, as a new message there would; whether it is (not if it is locked)."""
        await self.spend()
        try:
            await self.http.edit_channel(table.channel_id, archived=False)
        except discord.HTTPException as exc:
            log.info("game %d: thread %d not opened again: %s", table.id, table.channel_id, exc)
            return False
        return True

    async def edit(
        self,
        table: Table,
        owned: Owned | None,
        message_id: int,
        payload: dict[str, Any],
        upload: Upload | None = None,
    ) -> None:
        """Edit a message of the channel: through its token if usable, else the channel route."""
        if owned is not None and self.tokens.usable(owned.token):
            try:
                mid = None if owned.original else message_id
                await self.tokens.edit(owned.token, mid, payload, upload)
                return
            except discord.HTTPException:
                pass  # the channel route decides
        await self.request("PATCH", table, payload, message_id, upload)

    async def follow_up(
        self, table: Table, payload: dict[str, Any], upload: Upload | None = None
    ) -> Owned | int:
        """Post in the channel: a follow-up of the game's newest token, else a channel post."""
        token = self.fresh_token(table)
        if token is not None:
            try:
                sent = await self.tokens.follow_up(token, payload, upload)
                return Owned(sent, token, original=False)
            except discord.HTTPException:
                pass
        posted = await self.request("POST", table, payload, upload=upload)
        return int(posted["id"])

    async def delete(self, table: Table, owned: Owned) -> None:
        """Delete a message of the channel: through its token if usable, else the channel
        route (a message already gone is no error)."""
        try:
            if self.tokens.usable(owned.token):
                try:
                    await self.tokens.delete(
                        owned.token, None if owned.original else owned.message_id
                    )
                    return
                except discord.HTTPException:
                    pass
            await self.request("DELETE", table, None, owned.message_id)
        except discord.NotFound:
            pass

    def _refusal(
        self, table: Table, exc: discord.HTTPException, method: str, upload: bool = False
    ) -> ChannelUnusable | None:
        """What a channel route's error means for the game's channel, if anything."""
        if exc.code == ARCHIVED:  # only a thread answers it
            # A new message refused, or a live game's thread that would not open again: a
            # moderator locked it. (An ended game's thread is archived: left so.)
            if method == "POST" or table.open:
                self.access.note_closed(table)
            return Closed(table)
        if isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_CHANNEL:
            self.access.forget(table.channel_id)
            self.gone(table.channel_id)
            return Gone(table)
        forbidden = isinstance(exc, discord.Forbidden)
        if (
            forbidden
            and upload
            and exc.code == MISSING_PERMISSIONS
            and not self.access.cached(table)
        ):
            self.no_files(table)  # all else allowed, as far as the bot knows
            return NoFiles(table)
        if forbidden and exc.code in (MISSING_ACCESS, MISSING_PERMISSIONS):
            # What the gateway's record says it lacks, and what Discord's answer means (so
            # that no request like this one is tried again while the refusal lasts).
            said = ("view_channel",) if exc.code == MISSING_ACCESS else self.access.needed(table)
            self.access.note(
                table, tuple(dict.fromkeys((*(self.access.cached(table) or ()), *said)))
            )
            return Refused(table)
        return None
