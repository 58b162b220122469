"""The routes of an interaction's token: its one initial response (the callback), then
follow-ups and edits or deletions of @original and the follow-ups, as Discord answers them.

The first response comes within the deadline, once, of a type the interaction takes; the
token works for its lifetime and after that first response; an interaction authorized by
a user install only gets `FOLLOWUP_CAP` follow-ups. None of these routes asks for the
channel's permissions, and none counts against the global limit.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from aiohttp import web

from . import layout
from .access import bot_permissions
from .activities import Activities
from .bodies import Bodies, refuse_empty
from .gateway import Gateway
from .state import (
    EPHEMERAL,
    LOADING,
    Interaction,
    InteractionType,
    Message,
    ResponseAttempt,
    ViolationKind,
    World,
    notified_by,
)
from .threads import post_into
from .timing import Timing
from .violations import Violations
from .wire import BODY, DiscordError, json_response


class CallbackType(IntEnum):
    """Interaction callback types."""

    CHANNEL_MESSAGE_WITH_SOURCE = 4
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    MODAL = 9
    LAUNCH_ACTIVITY = 12


#: Which initial responses Discord accepts for each kind of interaction.
_ALLOWED_CALLBACKS = {
    InteractionType.APPLICATION_COMMAND: {4, 5, 9, 12},
    InteractionType.MESSAGE_COMPONENT: {4, 5, 6, 7, 9, 12},
}


#: Follow-ups an interaction authorized by a user install only may create (Discord: 5).
FOLLOWUP_CAP = 5


class TokenRoutes:
    """The handlers of the interaction token's routes."""

    def __init__(
        self,
        world: World,
        *,
        gateway: Gateway,
        violations: Violations,
        timing: Timing,
        activities: Activities,
        bodies: Bodies,
    ) -> None:
        self._world = world
        self._gateway = gateway
        self._violations = violations
        self._timing = timing
        self._activities = activities
        self._bodies = bodies

    async def interaction_callback(self, request: web.Request) -> web.Response:
        """POST /interactions/{id}/{token}/callback: the one initial response."""
        interaction = self._world.interactions.get(int(request.match_info["interaction_id"]))
        if interaction is None or interaction.token != request.match_info["interaction_token"]:
            raise DiscordError(404, 10062, "Unknown interaction")
        body = request[BODY]
        try:
            message = self._respond(interaction, body["type"], body.get("data") or {}, request)
        except DiscordError as error:
            self.attempt(interaction, body, error.status)
            raise
        self.attempt(interaction, body, 200)
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        reply: dict[str, Any] = {
            "interaction": {
                "id": str(interaction.id),
                "type": int(interaction.type),
                "response_message_loading": body["type"]
                == CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
                "response_message_ephemeral": interaction.ephemeral,
            },
            "resource": {"type": body["type"]},
        }
        if message is not None:
            reply["interaction"]["response_message_id"] = str(message.id)
            if body["type"] != CallbackType.DEFERRED_UPDATE_MESSAGE:
                reply["resource"]["message"] = self._bodies.payload(message)
        if interaction.activity_instance_id is not None:  # the Activity, launched
            reply["interaction"]["activity_instance_id"] = interaction.activity_instance_id
            reply["resource"]["activity_instance"] = {"id": interaction.activity_instance_id}
        return json_response(reply)

    def attempt(self, interaction: Interaction, body: dict[str, Any], status: int) -> None:
        """Record an initial response's attempt and its answer (the load benchmark wraps
        this to time the bot's answers)."""
        attempt = ResponseAttempt(body["type"], body.get("data") or {}, status, self._timing.now())
        interaction.attempts.append(attempt)
        self._world.notifier.bump()

    def _respond(
        self, interaction: Interaction, kind: int, data: dict[str, Any], request: web.Request
    ) -> Message | None:
        timing = self._timing
        where = f"interaction {interaction.id}"
        if interaction.responded:
            self._violations.record(
                ViolationKind.DUPLICATE_RESPONSE,
                f"second initial response (type {kind}) to {where}",
                request,
            )
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        age = timing.now() - interaction.created_at
        if age > timing.interaction_deadline:
            self._violations.record(
                ViolationKind.LATE_RESPONSE,
                f"initial response to {where} came {age:.3f} s after it "
                f"(deadline {timing.interaction_deadline} s): Discord answers 10062",
                request,
            )
            raise DiscordError(404, 10062, "Unknown interaction")
        if kind not in _ALLOWED_CALLBACKS[interaction.type]:
            self._violations.record(
                ViolationKind.INVALID_RESPONSE,
                f"callback type {kind} is not valid for {interaction.type.name} {where}",
                request,
            )
            raise DiscordError(400, 50035, "Invalid Form Body")
        message: Message | None = None
        if kind == CallbackType.CHANNEL_MESSAGE_WITH_SOURCE:
            message = self._new_response_message(interaction, data, request, require_content=True)
        elif kind == CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
            loading = {"flags": LOADING | (data.get("flags", 0) & EPHEMERAL)}
            message = self._new_response_message(interaction, loading, request)
        elif kind in (CallbackType.DEFERRED_UPDATE_MESSAGE, CallbackType.UPDATE_MESSAGE):
            message = interaction.source_message  # a component's: only they take these
            if kind == CallbackType.UPDATE_MESSAGE and message is not None:
                self._bodies.edit(message, request, body=data)
        elif kind == CallbackType.LAUNCH_ACTIVITY:  # no message: the Activity opens
            channel, user = interaction.channel, interaction.user
            interaction.activity_instance_id = self._activities.open_activity(channel, [user])
        interaction.response_type, interaction.response_data = kind, data
        interaction.message = message
        self._world.notifier.bump()
        return message

    def _new_response_message(
        self,
        interaction: Interaction,
        data: dict[str, Any],
        request: web.Request,
        *,
        require_content: bool = False,
    ) -> Message:
        if require_content:  # a message of its own, not a deferred response's "thinking"
            self._bodies.check_layout(request, layout.new_problem(data))
        fields = self._bodies.fields(request, existing=[], body=data)
        if require_content:
            refuse_empty(fields)
        flags = fields.get("flags", 0)
        if not flags & EPHEMERAL:
            permissions = bot_permissions(self._world, interaction.channel)
            post_into(self._world, self._gateway, interaction.channel, permissions)
            fields["notified"] = notified_by(
                fields.get("content", ""), data.get("allowed_mentions")
            )
        return self._world.add_message(
            interaction.channel,
            **fields,
            type=20 if interaction.type is InteractionType.APPLICATION_COMMAND else 0,
            interaction_id=interaction.id,
            application_id=self._world.application_id,
            visible_to=interaction.user.id if flags & EPHEMERAL else None,
            interaction_metadata=_interaction_metadata(interaction),
        )

    async def create_followup(self, request: web.Request) -> web.StreamResponse:
        """POST /webhooks/{app}/{token}: a follow-up (the first one after a defer fills it).

        Authorized by a user install only, an interaction gets `FOLLOWUP_CAP` of them, then
        40094. Whether the one that fills a deferred response counts is not documented: the
        fake counts it (unverified; the stricter reading).
        """
        interaction = self._webhook_interaction(request)
        if interaction.user_installed_only and interaction.followup_posts >= FOLLOWUP_CAP:
            raise DiscordError(
                400, 40094, "This interaction has hit the maximum number of follow up messages"
            )
        pending = interaction.message
        if pending is not None and pending.loading:
            self._bodies.edit(pending, request)
            message = pending
        else:
            message = self._new_response_message(
                interaction, request[BODY] or {}, request, require_content=True
            )
            interaction.followups.append(message)
        interaction.followup_posts += 1
        self._world.notifier.bump()
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(self._bodies.payload(message))
        return web.Response(status=204)

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        """GET @original or a follow-up."""
        return json_response(self._bodies.payload(self._webhook_message(request)))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        """PATCH @original or a follow-up (editing a deferred reply fills it)."""
        message = self._webhook_message(request)
        self._bodies.edit(message, request)
        return json_response(self._bodies.payload(message))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        """DELETE @original or a follow-up."""
        self._bodies.delete(self._webhook_message(request))
        return web.Response(status=204)

    def _webhook_interaction(self, request: web.Request) -> Interaction:
        timing = self._timing
        info = request.match_info
        interaction = self._world.interactions_by_token.get(info["webhook_token"])
        if int(info["webhook_id"]) != self._world.application_id or interaction is None:
            raise DiscordError(404, 10015, "Unknown Webhook")
        if interaction.token_expired:
            raise DiscordError(401, 50027, "Invalid Webhook Token")
        age = timing.now() - interaction.created_at
        if age > timing.token_lifetime:
            self._violations.record(
                ViolationKind.EXPIRED_TOKEN,
                f"interaction {interaction.id} token used {age:.0f} s after the interaction "
                f"(token life {timing.token_lifetime} s)",
                request,
            )
            raise DiscordError(401, 50027, "Invalid Webhook Token")
        if not interaction.responded:
            self._violations.record(
                ViolationKind.INVALID_RESPONSE,
                f"webhook used before any initial response to interaction {interaction.id}",
                request,
            )
            raise DiscordError(404, 10015, "Unknown Webhook")
        return interaction

    def _webhook_message(self, request: web.Request) -> Message:
        interaction = self._webhook_interaction(request)
        wanted = request.match_info.get("message_id")
        for message in interaction.messages:
            if (wanted is None or message.id == int(wanted)) and not message.deleted:
                return message
        raise DiscordError(404, 10008, "Unknown Message")


def _interaction_metadata(interaction: Interaction) -> dict[str, Any]:
    """Who caused a response or follow-up, as Discord tells it on the message."""
    metadata: dict[str, Any] = {
        "id": str(interaction.id),
        "type": int(interaction.type),
        "user": interaction.user.payload(),
        "authorizing_integration_owners": dict(interaction.authorizing_integration_owners),
    }
    if interaction.message is not None:  # a follow-up: the response came first
        metadata["original_response_message_id"] = str(interaction.message.id)
    if interaction.source_message is not None:
        metadata["interacted_message_id"] = str(interaction.source_message.id)
    return metadata
