"""Interaction tokens: which ones the bot may still use, and requests sent through them.

An interaction's token may edit its original response and post, edit and delete
follow-ups for 15 minutes, and none of that counts against Discord's global limit of
50 requests a second. Tokens are kept in memory only (never on disk, never logged),
used for at most `TOKEN_USE_SECONDS`, and dropped at once when Discord answers that
the token or its message is gone (404, or 401 with code 50027): Discord restricts bots
that keep calling a dead webhook.

Requests go through discord.py's webhook adapter, which keeps no rate-limit record per
token (its HTTP client keeps one per route and token for five minutes, and scans them
all whenever it adds one: at hundreds of tokens a second, a third of the bot's time).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord.webhook.async_ import async_context

if TYPE_CHECKING:
    from bot.board_picture import Picture

log = logging.getLogger(__name__)

#: How long after an interaction we still use its token (Discord: 15 minutes), leaving
#: room for a request that waits in a queue.
TOKEN_USE_SECONDS = 14 * 60.0


@dataclass(eq=False, slots=True)
class Token:
    """One interaction's token, usable until `until` (the sender's clock) unless dead."""

    value: str
    until: float
    dead: bool = False

    def __repr__(self) -> str:  # never show the token itself
        return f"Token(until={self.until:.0f}, dead={self.dead})"


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

    def __init__(self, client: discord.Client, clock: Callable[[], float]) -> None:
        self.client = client
        self.clock = clock
        self._webhook: discord.Webhook | None = None

    def new(self, interaction: discord.Interaction) -> Token:
        """The token of an interaction just answered."""
        return Token(interaction.token, self.clock() + TOKEN_USE_SECONDS)

    def usable(self, token: Token | None) -> bool:
        return token is not None and not token.dead and self.clock() < token.until

    async def edit(
        self, token: Token, message_id: int | None, payload: dict, upload: Picture | None = None
    ) -> dict:
        """Edit the original response (`message_id` None) or a follow-up; the message.

        With `upload`, the picture goes along (a multipart request)."""
        body = _body(payload, upload)
        if message_id is None:
            return await self._send(token, "edit_original_interaction_response", **body)
        return await self._send(token, "edit_webhook_message", message_id, **body)

    async def follow_up(self, token: Token, payload: dict, upload: Picture | None = None) -> int:
        """Post a follow-up message (with `upload`'s picture, if any); its id."""
        sent = await self._send(token, "execute_webhook", **_body(payload, upload), wait=True)
        return int(sent["id"])

    async def delete(self, token: Token, message_id: int) -> None:
        await self._send(token, "delete_webhook_message", message_id)

    async def _send(self, token: Token, method: str, *args: Any, **kwargs: Any) -> Any:
        if self._webhook is None:
            # The client's session and proxy settings, as discord.py's own webhooks use them.
            self._webhook = discord.Webhook.partial(
                self.client.application_id, "-", client=self.client
            )
        webhook = self._webhook
        send = getattr(async_context.get(), method)
        try:
            return await send(
                webhook.id,
                token.value,
                *args,
                session=webhook.session,
                proxy=webhook.proxy,
                proxy_auth=webhook.proxy_auth,
                **kwargs,
            )
        except discord.HTTPException as exc:
            if exc.status in (401, 404):  # token expired or message dismissed: never again
                token.dead = True
            log.debug("%s through an interaction token failed: %s", method, exc.status)
            raise


def _body(payload: dict, upload: Picture | None) -> dict[str, Any]:
    """The webhook adapter's keyword arguments for `payload`, multipart with a picture."""
    if upload is None:
        return {"payload": payload}
    form = upload.multipart(payload)
    return {"multipart": form["form"], "files": form["files"]}
