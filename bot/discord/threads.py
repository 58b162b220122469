"""A game's thread of its own: opened from its lobby message as it starts, closed as it ends.

With `/apophis config threads: on`, the host's start opens a public thread from the lobby
message (Discord gives the thread the message's id) and the game moves there: its board,
panels, pings and launch reports live in the thread, and the lobby's channel is free for
another lobby, so several games may run at once in one channel, a thread each. The lobby
message stays in the channel as the lobby it was, without its buttons, pointing to the
thread. When the game ends, once its final board is shown, the channel gets one line with
the result and the thread is archived (a post there afterwards, which unarchives it, is
followed by archiving it again).

The game plays in its channel as before, and the host is told why in the start's private
answer, when the bot lacks Create Public Threads or Send Messages in Threads there (as the
start's interaction tells, or as Discord answers), when the channel takes no thread, or
when Discord does not open it within `OPEN_WAIT` seconds. A lobby opened in a thread plays
in that thread. The requests here go through the channel routes, in the global budget: a
handful a game.

A thread a moderator archived and locked while its game runs takes nothing from the bot:
the game goes on through its players' panels, its board and posts wait for the thread to
open again (bot.discord.access's `Closed`), and when it ends its result still goes to the
lobby's channel. A restart points the lobby message of every game in a thread to its
thread again (`point`), in case the bot stopped as the game moved there.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import discord
from discord.http import Route

from bot.discord.access import ARCHIVED, in_thread, named
from bot.i18n.catalogs import t
from bot.views.threads import lobby_line, result_line, thread_name

if TYPE_CHECKING:
    from bot.discord.tokens import Owned, Tokens
    from bot.table import Table

log = logging.getLogger(__name__)

#: What opening a game's thread needs in the lobby's channel, by discord.py's names.
TO_OPEN = ("create_public_threads", "send_messages_in_threads")
#: The channels a thread may start from a message of.
PARENTS = frozenset((discord.ChannelType.text, discord.ChannelType.news))
#: Discord's error for a message that has its thread already (whose id is the message's);
#: a thread archived already answers ARCHIVED.
THREAD_EXISTS = 160004
#: Seconds a start waits for its thread before the game plays in the channel (the host's
#: answer must come within Discord's 3 seconds).
OPEN_WAIT = 1.0
#: Minutes of quiet before Discord would archive a thread: a day, more than any game lasts,
#: so that the bot archives it when the game ends.
AUTO_ARCHIVE: Final = 1440


@dataclass(eq=False)
class Opening:
    """One start's attempt at its game's thread (a `bot.game.lobbies.Venue`); once made,
    why the game plays in its channel, if it does."""

    threads: Threads
    interaction: discord.Interaction
    #: The catalog key of why the game plays in its channel, and the permissions it names.
    refusal: str | None = None
    missing: tuple[str, ...] = ()

    async def __call__(self, table: Table) -> int | None:
        """The thread opened for `table`, or None to play in its channel."""
        channel = self.interaction.channel
        if in_thread(channel):
            return None
        permissions = self.interaction.app_permissions
        missing = tuple(name for name in TO_OPEN if not getattr(permissions, name))
        lobby = table.messages.board_id
        if getattr(channel, "type", None) not in PARENTS or lobby is None:
            self.refusal = "thread.refused.here"
        elif missing:
            self.refusal, self.missing = "thread.refused.permissions", missing
        else:
            try:
                async with asyncio.timeout(OPEN_WAIT):
                    return await self.threads.open(table, lobby)
            except discord.Forbidden:
                self.refusal, self.missing = "thread.refused.permissions", TO_OPEN
            except (TimeoutError, discord.HTTPException) as exc:
                self.refusal = "thread.refused.failed"
                log.warning(
                    "game %d: no thread opened in channel %d: %r", table.id, table.channel_id, exc
                )
        return None

    def note(self, language: str) -> str | None:
        """Why the game plays in its channel, in `language` (None: it does not)."""
        if self.refusal is None:
            return None
        return t(language, self.refusal, missing=named(self.missing, language))


class Threads:
    """Opens and closes games' threads (see the module docstring)."""

    def __init__(
        self, http: discord.http.HTTPClient, tokens: Tokens, spend: Callable[[], Awaitable[None]]
    ) -> None:
        """`spend()` waits for a share of the global budget before each request."""
        self.http = http
        self.tokens = tokens
        self._spend = spend
        #: Games whose result the lobby's channel was told, and those whose thread is
        #: archived (as far as the bot knows).
        self._told: set[int] = set()
        self._archived: set[int] = set()

    def opening(self, interaction: discord.Interaction) -> Opening:
        """An attempt at the thread of the game this interaction starts."""
        return Opening(self, interaction)

    async def open(self, table: Table, lobby: int) -> int:
        """Open the game's thread from its lobby message (`lobby`, its id); the thread's id
        (the message's)."""
        await self._spend()
        try:
            thread = await self.http.start_thread_with_message(
                table.channel_id,
                lobby,
                name=thread_name(table),
                auto_archive_duration=AUTO_ARCHIVE,
            )
        except discord.HTTPException as exc:
            if exc.code == THREAD_EXISTS:  # by a start that could not be saved: it is the one
                return lobby
            raise
        return int(thread["id"])

    async def point(self, table: Table, lobby: Owned | None) -> None:
        """The lobby message becomes the lobby line pointing to the thread: through the
        token that posted it while usable, else the channel route."""
        payload = lobby_line(table).json()
        if (
            lobby is not None
            and lobby.message_id == table.channel_id
            and self.tokens.usable(lobby.token)
        ):
            try:
                message = None if lobby.original else lobby.message_id
                await self.tokens.edit(lobby.token, message, payload)
                return
            except discord.HTTPException:
                pass  # the channel route decides
        await self._request("PATCH", table, payload, message_id=table.channel_id)

    async def close(self, table: Table) -> None:
        """The game ended and its final board is shown: the lobby's channel is told the
        result (once), and the thread is archived."""
        if table.id not in self._told:
            await self._request("POST", table, result_line(table).json())
            self._told.add(table.id)
        if table.id in self._archived:
            return
        await self._spend()
        try:
            await self.http.edit_channel(table.channel_id, archived=True)
        except discord.HTTPException as exc:
            if exc.code != ARCHIVED and not isinstance(exc, discord.Forbidden | discord.NotFound):
                raise
            log.info("game %d: thread %d not archived: %s", table.id, table.channel_id, exc)
        self._archived.add(table.id)

    def reopened(self, table: Table) -> bool:
        """The bot posted in the thread of a game that ended, which unarchives it: whether
        it had been archived (then it is to be closed again)."""
        if table.id not in self._archived:
            return False
        self._archived.discard(table.id)
        return True

    def forget(self, game_id: int) -> None:
        self._told.discard(game_id)
        self._archived.discard(game_id)

    async def _request(
        self, method: str, table: Table, payload: dict[str, Any], message_id: int | None = None
    ) -> None:
        """A request to the lobby's channel; one it refuses, or that is gone, is logged and
        not tried again."""
        if message_id is None:
            route = Route(method, "/channels/{channel_id}/messages", channel_id=table.parent_id)
        else:
            route = Route(
                method,
                "/channels/{channel_id}/messages/{message_id}",
                channel_id=table.parent_id,
                message_id=message_id,
            )
        await self._spend()
        try:
            await self.http.request(route, json=payload)
        except (discord.Forbidden, discord.NotFound) as exc:
            log.warning(
                "game %d: channel %d refused %s: %s", table.id, table.parent_id, method, exc
            )
