"""Interaction tokens: which ones the bot may still use, and requests sent through them.

An interaction's token may edit its original response and post, edit and delete
follow-ups for 15 minutes, and none of that counts against Discord's global limit of
50 requests a second. Tokens are kept in memory only (never on disk, never logged),
used for at most `TOKEN_USE_SECONDS`, and dropped at once when Discord answers that
the token or its message is gone (404, or 401 with code 50027): Discord restricts bots
that keep calling a dead webhook.

Requests go out on the bot's own connections (bot.discord.rest), as one prebuilt body
(JSON, or the multipart form of a picture and its message), and their answer is read only
when we need it (a follow-up's id, a picture's attachment id). Each request is counted in
the metrics (route class "interaction").
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeGuard

import discord

if TYPE_CHECKING:
    from bot.discord.rest import Rest
    from bot.views.message import Upload

log = logging.getLogger(__name__)

#: How long after an interaction we still use its token (Discord: 15 minutes), leaving
#: room for a request that waits in a queue.
TOKEN_USE_SECONDS = 14 * 60.0
#: Interaction callback types: a new message, and an update of the clicked one.
NEW_MESSAGE, UPDATE_MESSAGE = 4, 7
EPHEMERAL = 1 << 6
#: Discord's error for a follow-up over the cap of an interaction (a user-installed app
#: gets 5 an interaction): the token still edits what it posted.
MAX_FOLLOW_UPS = 40094


@dataclass(eq=False, slots=True)
class Token:
    """One interaction's token, usable until `until` (the sender's clock) unless dead."""

    value: str
    until: float
    dead: bool = False
    #: Discord refused it another follow-up (a user-installed app's few, MAX_FOLLOW_UPS).
    capped: bool = False

    def __repr__(self) -> str:  # never show the token itself
        return f"Token(until={self.until:.0f}, dead={self.dead}, capped={self.capped})"


@dataclass(slots=True)
class Owned:
    """A message in a channel, and the token that may edit it (None: channel routes only).

    `original`: it is the token's original response (else one of its follow-ups).
    """

    message_id: int
    token: Token | None
    original: bool = True


class Tokens:
    """Sends requests through interaction tokens and forgets the dead ones."""

    def __init__(self, client: discord.Client, rest: Rest, clock: Callable[[], float]) -> None:
        self.client, self.rest, self.clock = client, rest, clock

    def new(self, interaction: discord.Interaction) -> Token:
        """The token of an interaction just answered."""
        return Token(interaction.token, self.clock() + TOKEN_USE_SECONDS)

    def usable(self, token: Token | None) -> TypeGuard[Token]:
        return token is not None and not token.dead and self.clock() < token.until

    def can_post(self, token: Token | None) -> TypeGuard[Token]:
        """Whether `token` may still post a follow-up (usable, and under Discord's cap)."""
        return self.usable(token) and not token.capped

    async def respond(
        self, interaction: discord.Interaction, payload: dict[str, Any], *, update: bool = False
    ) -> None:
        """Answer `interaction` with `payload`: the clicked message updated, or a new
        private message (with the payload's own flags: a Components V2 layout's).
        discord.py's own response object is told it was answered."""
        private = {**payload, "flags": payload.get("flags", 0) | EPHEMERAL}
        body = {
            "type": UPDATE_MESSAGE if update else NEW_MESSAGE,
            "data": payload if update else private,
        }
        path = f"/interactions/{interaction.id}/{interaction.token}/callback"
        await self.rest.request("POST", path, body, again=True)  # (Discord refuses a second)
        interaction.response._response_type = (
            discord.InteractionResponseType.message_update
            if update
            else discord.InteractionResponseType.channel_message
        )

    async def edit(
        self,
        token: Token,
        message_id: int | None,
        payload: dict[str, Any],
        upload: Upload | None = None,
    ) -> Mapping[str, Any]:
        """Edit the original response (`message_id` None) or a follow-up.

        With `upload`, the picture goes along (a multipart request) and the edited message
        is returned (its attachments' ids; read when first asked: bot.discord.rest.Sent);
        else {}."""
        sent = await self._through(
            token, "PATCH", _message_path(message_id), payload, upload, want=upload is not None
        )
        return {} if sent is None else sent

    async def follow_up(
        self, token: Token, payload: dict[str, Any], upload: Upload | None = None
    ) -> int:
        """Post a follow-up message (with `upload`'s picture, if any); its id."""
        sent = await self._through(token, "POST", "?wait=true", payload, upload, want=True)
        return int(sent["id"])

    async def delete(self, token: Token, message_id: int | None) -> None:
        """Delete the original response (`message_id` None) or a follow-up."""
        await self._through(token, "DELETE", _message_path(message_id))

    async def _through(
        self,
        token: Token,
        method: str,
        tail: str,
        payload: dict[str, Any] | None = None,
        upload: Upload | None = None,
        want: bool = False,
    ) -> Any:
        """A request on the token's webhook (`tail` after its path)."""
        path = f"/webhooks/{self.client.application_id}/{token.value}{tail}"
        try:
            return await self.rest.request(method, path, payload, upload, want=want)
        except discord.HTTPException as exc:
            self._failed(token, method, exc)
            raise

    @staticmethod
    def _failed(token: Token, method: str, exc: discord.HTTPException) -> None:
        if exc.status in (401, 404):  # token expired or message dismissed: never again
            token.dead = True
        elif exc.code == MAX_FOLLOW_UPS:  # it may still edit what it posted
            token.capped = True
        log.debug("%s through an interaction token failed: %s", method, exc.status)


def _message_path(message_id: int | None) -> str:
    return f"/messages/{'@original' if message_id is None else message_id}"
