"""Requests by route class (interaction tokens, channel routes, DMs) and the token answers refused.

Where the bot is not a member of the place (a group DM, a server without the bot) every
request goes through an interaction's token; with the bot in the server, channel routes
and hand DMs are used too. The classes tell them apart, and the fake's refusals on the
token routes (Discord's follow-up cap, 40094; a token expired, 401, or unknown, 404) are
counted from the fake's own answers.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass

from devtools.fakediscord import FakeDiscord
from devtools.fakediscord.state import ChannelType
from devtools.fakediscord.wire import DiscordError

#: The route classes, in the order printed.
CALLBACKS = "callbacks"
ORIGINAL_EDITS = "@original edits"
FOLLOW_UPS = "follow-ups"
FOLLOW_UP_CHANGES = "follow-up edits/deletions"
OTHER_TOKEN = "other token requests"
CHANNEL_ROUTES = "channel routes"
DM_ROUTES = "DM routes"
OTHER = "other"
CLASSES = (
    CALLBACKS,
    ORIGINAL_EDITS,
    FOLLOW_UPS,
    FOLLOW_UP_CHANGES,
    OTHER_TOKEN,
    CHANNEL_ROUTES,
    DM_ROUTES,
    OTHER,
)
#: The token routes' handlers in the fake (devtools/fakediscord/rest.py), watched for refusals.
TOKEN_HANDLERS = (
    "interaction_callback",
    "create_followup",
    "get_webhook_message",
    "edit_webhook_message",
    "delete_webhook_message",
)
#: Discord's answer to a follow-up over the cap of a user-installed app's interaction.
FOLLOW_UP_CAP = 40094

_WEBHOOK = "/webhooks/{webhook_id}/{webhook_token}"
_FOLLOW_UP = _WEBHOOK + "/messages/{message_id}"


def route_class(fake: FakeDiscord, route: str, path: str) -> str:
    """The class of a request (`route`: the fake's "METHOD /template", `path`: its path)."""
    if route.startswith("POST /interactions/"):
        return CALLBACKS
    if route == f"PATCH {_WEBHOOK}/messages/@original":
        return ORIGINAL_EDITS
    if route == f"POST {_WEBHOOK}":
        return FOLLOW_UPS
    if route in (f"PATCH {_FOLLOW_UP}", f"DELETE {_FOLLOW_UP}"):
        return FOLLOW_UP_CHANGES
    if "/webhooks/" in route:
        return OTHER_TOKEN
    if route.startswith("POST /users/@me/channels"):
        return DM_ROUTES
    if route.split(" ", 1)[1].startswith("/channels/"):
        channel = fake.world.channels.get(int(path.split("/channels/", 1)[1].split("/")[0]))
        dm = channel is not None and channel.type is ChannelType.DM
        return DM_ROUTES if dm else CHANNEL_ROUTES
    return OTHER


def by_class(fake: FakeDiscord, records) -> dict[str, int]:
    """How many of `records` (the fake's RequestRecords) fell in each class."""
    counts = dict.fromkeys(CLASSES, 0)
    for r in records:
        counts[route_class(fake, r.route, r.path)] += 1
    return counts


@dataclass(frozen=True, slots=True)
class Refusal:
    """A token route's error answer: when (monotonic), which handler, status and code."""

    at: float
    handler: str
    status: int
    code: int


def watch_token_answers(fake: FakeDiscord) -> list[Refusal]:
    """Record every error answer of the fake's token routes, in the list returned. Call it
    before `fake.start()`: the routes take their handlers then."""
    refusals: list[Refusal] = []
    tokens = fake.rest.tokens
    for name in TOKEN_HANDLERS:
        handler = getattr(tokens, name)

        async def answered(request, handler=handler, name=name):
            try:
                return await handler(request)
            except DiscordError as error:
                refusals.append(Refusal(time.monotonic(), name, error.status, error.code))
                raise

        setattr(tokens, name, answered)
    return refusals


def refused(refusals: list[Refusal], start: float, end: float) -> Counter[tuple[int, int]]:
    """The window's refusals by (status, code)."""
    return Counter((r.status, r.code) for r in refusals if start <= r.at < end)
