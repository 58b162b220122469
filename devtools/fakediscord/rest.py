"""The REST subset of Discord's HTTP API that the fake implements.

Handlers raise :class:`DiscordError` for the answers Discord gives to a bot's
mistakes (unknown message, DMs closed, a second initial response...); the
server turns them into Discord-shaped JSON errors. Rule breaches that a bot
must never commit are also recorded as violations by ``FakeDiscord``.

The channel routes answer as Discord does for the bot's permissions in the channel
(`Guild.permissions_in`): 403 Missing Access (50001) without View Channel, 403 Missing
Permissions (50013) without what the request needs (Send Messages to post, Attach Files
to upload, Read Message History to read a message; embeds without Embed Links are left
out, and a message left empty is refused with 50013). A deleted channel's routes answer
404 Unknown Channel (10003). Interaction callbacks and webhooks (interaction tokens) are
not subject to channel permissions. Threads (devtools.fakediscord.threads) take the same
routes, Send Messages in Threads standing for Send Messages.

Where the bot is not (a group DM, a server without the bot) every channel route answers
403 Missing Access (50001): Discord documents nothing of a bot token there, and the notes'
reading is that it fails (unverified); only interaction tokens reach those channels. An
interaction authorized by a user install only may create 5 follow-ups (40094 after).

Every message body, on every route, is checked for Components V2's rules
(devtools.fakediscord.layout): the flag and what it rules out, 40 components, a
TextDisplay's length, the flag never taken off by an edit.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import layout
from .commands import CHAT_INPUT, PRIMARY_ENTRY_POINT, find_entry_point
from .state import (
    ATTACH_FILES,
    CONTENT_LIMIT,
    EMBED_LINKS,
    EPHEMERAL,
    LOADING,
    READ_MESSAGE_HISTORY,
    VIEW_CHANNEL,
    Attachment,
    Channel,
    ChannelType,
    Interaction,
    InteractionType,
    Message,
    ResponseAttempt,
    ViolationKind,
    notified_by,
    utcnow,
)
from .threads import ThreadRoutes, sends_in
from .wire import BODY, FILES, DiscordError, json_response, require

if TYPE_CHECKING:
    from .server import FakeDiscord

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Uploads = dict[int, tuple[str, str | None, bytes]]

#: Message fields a bot sets in a create or edit request.
_CONTENT_FIELDS = ("content", "embeds", "components")


#: Discord's answer to a bulk overwrite that leaves out the app's Entry Point command.
ENTRY_POINT_REMOVED = (
    "You cannot remove this app's Entry Point command in a bulk update operation. Please "
    "include the Entry Point command in your update request or delete it separately."
)


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


@dataclass(frozen=True)
class Route:
    """An implemented route, named by its OpenAPI path template."""

    method: str
    template: str
    handler: str
    counts_global: bool = True
    #: Whether a user's OAuth2 access token (``Authorization: Bearer``) may call it too.
    bearer: bool = False

    @property
    def key(self) -> str:
        """``"METHOD /template"``, the name used in request logs and rate-limit patterns."""
        return f"{self.method} {self.template}"


_WEBHOOK = "/webhooks/{webhook_id}/{webhook_token}"
_ORIGINAL = _WEBHOOK + "/messages/@original"
_WEBHOOK_MESSAGE = _WEBHOOK + "/messages/{message_id}"
_MESSAGE = "/channels/{channel_id}/messages/{message_id}"

#: Every route the fake implements, in matching order (``@original`` before ``{message_id}``).
#: Interaction callbacks and the interaction webhooks do not count against the global limit.
ROUTES = (
    Route("GET", "/users/@me", "get_current_user", bearer=True),
    Route("GET", "/oauth2/applications/@me", "get_application"),
    Route("GET", "/gateway", "get_gateway"),
    Route("GET", "/gateway/bot", "get_gateway"),
    Route("GET", "/applications/{application_id}/commands", "get_commands"),
    Route("PUT", "/applications/{application_id}/commands", "put_commands"),
    Route("GET", "/applications/{application_id}/guilds/{guild_id}/commands", "get_commands"),
    Route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", "put_commands"),
    Route("POST", "/users/@me/channels", "create_dm"),
    Route("GET", "/guilds/{guild_id}", "get_guild"),
    Route("GET", "/guilds/{guild_id}/members/{user_id}", "get_guild_member"),
    Route("GET", "/channels/{channel_id}", "get_channel"),
    Route("PATCH", "/channels/{channel_id}", "edit_channel"),
    Route("POST", "/channels/{channel_id}/messages", "create_message"),
    Route("GET", _MESSAGE, "get_message"),
    Route("PATCH", _MESSAGE, "edit_message"),
    Route("DELETE", _MESSAGE, "delete_message"),
    Route("POST", _MESSAGE + "/threads", "create_thread_from_message"),
    Route(
        "POST",
        "/interactions/{interaction_id}/{interaction_token}/callback",
        "interaction_callback",
        counts_global=False,
    ),
    Route("POST", _WEBHOOK, "create_followup", counts_global=False),
    Route("GET", _ORIGINAL, "get_webhook_message", counts_global=False),
    Route("PATCH", _ORIGINAL, "edit_webhook_message", counts_global=False),
    Route("DELETE", _ORIGINAL, "delete_webhook_message", counts_global=False),
    Route("GET", _WEBHOOK_MESSAGE, "get_webhook_message", counts_global=False),
    Route("PATCH", _WEBHOOK_MESSAGE, "edit_webhook_message", counts_global=False),
    Route("DELETE", _WEBHOOK_MESSAGE, "delete_webhook_message", counts_global=False),
    Route("GET", "/applications/{application_id}/activity-instances/{instance_id}", "get_instance"),
)

#: Follow-ups an interaction authorized by a user install only may create (Discord: 5).
FOLLOWUP_CAP = 5


class RestApi(ThreadRoutes):
    """Route handlers; they read and change the fake's :class:`~.state.World`."""

    def __init__(self, fake: FakeDiscord) -> None:
        self._fake = fake
        self._world = fake.world

    def handler(self, route: Route) -> Handler:
        """The bound handler for a route."""
        return getattr(self, route.handler)

    # -- login and gateway discovery -------------------------------------------------

    async def get_current_user(self, request: web.Request) -> web.Response:
        """GET /users/@me: the bot user (login), or the user of an OAuth2 bearer token."""
        user = self._fake.oauth.bearer_user(request)
        if user is not None:
            return json_response(user.private_payload())
        return json_response(self._world.bot.payload())

    async def get_application(self, request: web.Request) -> web.Response:
        """GET /oauth2/applications/@me: the bot's application (login)."""
        world = self._world
        return json_response(
            {
                "id": str(world.application_id),
                "name": world.bot.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": world.bot.payload(),
                "verify_key": "0" * 64,
                "team": None,
                "flags": 0,
                "summary": "",
            }
        )

    async def get_gateway(self, request: web.Request) -> web.Response:
        """GET /gateway and /gateway/bot: where the websocket is."""
        return json_response(
            {
                "url": self._fake.gateway_url,
                "shards": self._fake.gateway.recommended_shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    # -- guild members ---------------------------------------------------------------

    async def get_guild(self, request: web.Request) -> web.Response:
        """GET /guilds/{guild_id}: a guild with its roles (no channels, no members), for a
        bot in it."""
        guild = self._world.guilds.get(int(request.match_info["guild_id"]))
        if guild is None or self._world.bot.id not in guild.members:
            raise DiscordError(403, 50001, "Missing Access")
        payload = guild.payload()
        for listed in ("channels", "members", "threads", "presences", "voice_states"):
            payload.pop(listed, None)
        return json_response(payload)

    async def get_guild_member(self, request: web.Request) -> web.Response:
        """GET /guilds/{guild_id}/members/{user_id}: a member, for a bot in that guild."""
        guild = self._world.guilds.get(int(request.match_info["guild_id"]))
        if guild is None or self._world.bot.id not in guild.members:
            raise DiscordError(403, 50001, "Missing Access")
        member = guild.members.get(int(request.match_info["user_id"]))
        if member is None:
            raise DiscordError(404, 10007, "Unknown Member")
        return json_response(member.payload())

    # -- application commands --------------------------------------------------------

    async def get_commands(self, request: web.Request) -> web.Response:
        """GET the synced global or guild commands."""
        guild_id = self._guild_scope(request)
        world = self._world
        synced = world.guild_commands.get(guild_id, []) if guild_id else world.global_commands
        return json_response(synced)

    async def put_commands(self, request: web.Request) -> web.Response:
        """PUT (bulk overwrite) the global or guild commands; ids are kept per type and name.

        An Entry Point (type 4, with its ``handler``) is global only and one per app; a PUT
        that leaves out the app's Entry Point is refused whole with 50240, as library
        threads report (Pycord-Development/pycord PR #3276, DisnakeDev/disnake PR #1570);
        Discord's documentation says nothing of it (unverified).
        """
        guild_id = self._guild_scope(request)
        world = self._world
        previous = world.guild_commands.get(guild_id, []) if guild_id else world.global_commands
        bodies = request[BODY] or []
        _check_entry_points(bodies, previous, guild_id)
        ids = {(c["type"], c["name"]): c["id"] for c in previous}
        synced = []
        for body in bodies:
            kind = body.get("type") or CHAT_INPUT
            command = {
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "nsfw": False,
                **body,
                "type": kind,
                "id": ids.get((kind, body["name"])) or str(world.snowflake()),
                "application_id": str(world.application_id),
                "version": str(world.snowflake()),
            }
            if guild_id:
                command["guild_id"] = str(guild_id)
            synced.append(command)
        if guild_id:
            world.guild_commands[guild_id] = synced
        else:
            world.global_commands = synced
        world.notifier.bump()
        return json_response(synced)

    def _guild_scope(self, request: web.Request) -> int | None:
        if int(request.match_info["application_id"]) != self._world.application_id:
            raise DiscordError(403, 50001, "Missing Access")
        guild_id = request.match_info.get("guild_id")
        guild = self._world.guilds.get(int(guild_id)) if guild_id is not None else None
        if guild_id is not None and (guild is None or not self._world.has_bot(guild)):
            raise DiscordError(403, 50001, "Missing Access")
        return int(guild_id) if guild_id is not None else None

    # -- Activities ------------------------------------------------------------------

    async def get_instance(self, request: web.Request) -> web.Response:
        """GET /applications/{app}/activity-instances/{instance}: a running instance.

        An unknown or ended one: 404. Discord documents no error code for it (none in
        developers/topics/opcodes-and-status-codes, the OpenAPI description's generic 4XX
        only); the fake answers 10002 Unknown Application, a guess: read the status.
        """
        if int(request.match_info["application_id"]) != self._world.application_id:
            raise DiscordError(403, 50001, "Missing Access")
        instance = self._world.activity_instances.get(request.match_info["instance_id"])
        if instance is None:
            raise DiscordError(404, 10002, "Unknown Application")
        return json_response(instance.payload(self._world.application_id))

    # -- channels, DMs and channel messages ------------------------------------------

    async def create_dm(self, request: web.Request) -> web.Response:
        """POST /users/@me/channels: open (or reuse) the DM channel with a user."""
        user = self._world.users.get(int(request[BODY]["recipient_id"]))
        if user is None:
            raise DiscordError(400, 50033, "Invalid Recipient(s)")
        return json_response(self._world.dm_channel(user).payload())

    async def get_channel(self, request: web.Request) -> web.Response:
        """GET /channels/{channel_id}."""
        return json_response(self._channel(request).payload())

    async def create_message(self, request: web.Request) -> web.Response:
        """POST /channels/{channel_id}/messages (JSON or multipart with files)."""
        channel = self._channel(request)
        if channel.type is ChannelType.DM and not channel.recipient.dms_open:
            raise DiscordError(403, 50007, "Cannot send messages to this user")
        permissions = self._bot_permissions(channel)
        require(permissions, sends_in(channel))
        if request[FILES]:
            require(permissions, ATTACH_FILES)
        self._check_layout(request, layout.new_problem(request[BODY] or {}))
        fields = self._message_fields(request, existing=[])
        fields = _require_content(_without_embeds_unless(permissions, fields))
        self._post_into(channel, permissions)
        fields["flags"] = fields.get("flags", 0) & ~EPHEMERAL
        fields["notified"] = notified_by(
            fields.get("content", ""), request[BODY].get("allowed_mentions")
        )
        message = self._world.add_message(channel, **fields)
        return json_response(self._payload(message))

    async def get_message(self, request: web.Request) -> web.Response:
        """GET /channels/{channel_id}/messages/{message_id}."""
        message = self._channel_message(request)
        require(self._bot_permissions(self._channel(request)), READ_MESSAGE_HISTORY)
        return json_response(self._payload(message))

    async def edit_message(self, request: web.Request) -> web.Response:
        """PATCH /channels/{channel_id}/messages/{message_id} (one's own: View Channel does)."""
        message = self._channel_message(request)
        permissions = self._bot_permissions(self._channel(request))
        if request[FILES]:
            require(permissions, ATTACH_FILES)
        self._edit(message, request, permissions=permissions)
        return json_response(self._payload(message))

    async def delete_message(self, request: web.Request) -> web.Response:
        """DELETE /channels/{channel_id}/messages/{message_id}."""
        self._delete(self._channel_message(request))
        return web.Response(status=204)

    def _channel(self, request: web.Request) -> Channel:
        """The request's channel: 404 Unknown Channel if there is none (deleted), 403
        Missing Access if the bot cannot view it."""
        channel = self._world.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        if not self._bot_permissions(channel) & VIEW_CHANNEL:
            raise DiscordError(403, 50001, "Missing Access")
        return channel

    def _bot_permissions(self, channel: Channel) -> int:
        """The bot's permissions in a channel: every one in its DM, none where it is not (a
        group DM, a server without the bot)."""
        if channel.type is ChannelType.DM:
            return ~0
        guild = self._world.guilds.get(channel.guild_id)
        bot = guild.members.get(self._world.bot.id) if guild is not None else None
        return guild.permissions_in(bot, channel) if bot is not None else 0

    def _channel_message(self, request: web.Request) -> Message:
        """A message through the channel routes: ephemeral ones are unknown there."""
        channel = self._channel(request)
        message = self._world.messages.get(int(request.match_info["message_id"]))
        if (
            message is None
            or message.deleted
            or message.ephemeral
            or message.channel_id != channel.id
        ):
            raise DiscordError(404, 10008, "Unknown Message")
        return message

    # -- interactions -------------------------------------------------------------------

    async def interaction_callback(self, request: web.Request) -> web.Response:
        """POST /interactions/{id}/{token}/callback: the one initial response."""
        interaction = self._world.interactions.get(int(request.match_info["interaction_id"]))
        if interaction is None or interaction.token != request.match_info["interaction_token"]:
            raise DiscordError(404, 10062, "Unknown interaction")
        body = request[BODY]
        try:
            message = self._respond(interaction, body["type"], body.get("data") or {}, request)
        except DiscordError as error:
            self._attempt(interaction, body, error.status)
            raise
        self._attempt(interaction, body, 200)
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
                reply["resource"]["message"] = self._payload(message)
        if interaction.activity_instance_id is not None:  # the Activity, launched
            reply["interaction"]["activity_instance_id"] = interaction.activity_instance_id
            reply["resource"]["activity_instance"] = {"id": interaction.activity_instance_id}
        return json_response(reply)

    def _attempt(self, interaction: Interaction, body: dict[str, Any], status: int) -> None:
        attempt = ResponseAttempt(body["type"], body.get("data") or {}, status, self._fake.now())
        interaction.attempts.append(attempt)
        self._world.notifier.bump()

    def _respond(
        self, interaction: Interaction, kind: int, data: dict[str, Any], request: web.Request
    ) -> Message | None:
        fake = self._fake
        where = f"interaction {interaction.id}"
        if interaction.responded:
            fake.record_violation(
                ViolationKind.DUPLICATE_RESPONSE,
                f"second initial response (type {kind}) to {where}",
                request,
            )
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        age = fake.now() - interaction.created_at
        if age > fake.interaction_deadline:
            fake.record_violation(
                ViolationKind.LATE_RESPONSE,
                f"initial response to {where} came {age:.3f} s after it "
                f"(deadline {fake.interaction_deadline} s): Discord answers 10062",
                request,
            )
            raise DiscordError(404, 10062, "Unknown interaction")
        if kind not in _ALLOWED_CALLBACKS[interaction.type]:
            fake.record_violation(
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
            message = interaction.source_message
            if kind == CallbackType.UPDATE_MESSAGE:
                self._edit(message, request, body=data)
        elif kind == CallbackType.LAUNCH_ACTIVITY:  # no message: the Activity opens
            channel, user = interaction.channel, interaction.user
            interaction.activity_instance_id = fake.open_activity(channel, [user])
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
            self._check_layout(request, layout.new_problem(data))
        fields = self._message_fields(request, existing=[], body=data)
        if require_content:
            _require_content(fields)
        flags = fields.get("flags", 0)
        if not flags & EPHEMERAL:
            self._post_into(interaction.channel, self._bot_permissions(interaction.channel))
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
            self._edit(pending, request)
            message = pending
        else:
            message = self._new_response_message(
                interaction, request[BODY] or {}, request, require_content=True
            )
            interaction.followups.append(message)
        interaction.followup_posts += 1
        self._world.notifier.bump()
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(self._payload(message))
        return web.Response(status=204)

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        """GET @original or a follow-up."""
        return json_response(self._payload(self._webhook_message(request)))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        """PATCH @original or a follow-up (editing a deferred reply fills it)."""
        message = self._webhook_message(request)
        self._edit(message, request)
        return json_response(self._payload(message))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        """DELETE @original or a follow-up."""
        self._delete(self._webhook_message(request))
        return web.Response(status=204)

    def _webhook_interaction(self, request: web.Request) -> Interaction:
        fake = self._fake
        info = request.match_info
        interaction = self._world.interactions_by_token.get(info["webhook_token"])
        if int(info["webhook_id"]) != self._world.application_id or interaction is None:
            raise DiscordError(404, 10015, "Unknown Webhook")
        if interaction.token_expired:
            raise DiscordError(401, 50027, "Invalid Webhook Token")
        age = fake.now() - interaction.created_at
        if age > fake.token_lifetime:
            fake.record_violation(
                ViolationKind.EXPIRED_TOKEN,
                f"interaction {interaction.id} token used {age:.0f} s after the interaction "
                f"(token life {fake.token_lifetime} s)",
                request,
            )
            raise DiscordError(401, 50027, "Invalid Webhook Token")
        if not interaction.responded:
            fake.record_violation(
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

    # -- shared message changes -----------------------------------------------------

    def _payload(self, message: Message) -> dict[str, Any]:
        return message.payload(self._fake.url)

    def _edit(
        self,
        message: Message,
        request: web.Request,
        body: dict[str, Any] | None = None,
        *,
        permissions: int = ~0,
    ) -> None:
        """Edit a message; through a channel route, as the bot's `permissions` there allow.

        A deferred response being filled takes a new message's body."""
        self._check_editable(message)
        body = (request[BODY] if body is None else body) or {}
        if message.loading:
            self._check_layout(request, layout.new_problem(body))
        else:
            self._check_layout(request, layout.edit_problem(message.flags, body))
        fields = self._message_fields(request, existing=message.attachments, body=body)
        if fields.get("embeds") and not permissions & EMBED_LINKS:
            _without_embeds_unless(permissions, {**_current(message), **fields})
            fields["embeds"] = []
        fields.pop("flags", None)
        if self._fake.keep_history:
            message.history.append(message.snapshot())
        for name, value in fields.items():
            setattr(message, name, value)
        message.flags = layout.flags_after_edit(message.flags, body) & ~LOADING
        message.edited_at = utcnow()
        self._world.notifier.bump()

    def _check_layout(self, request: web.Request, problem: str | None) -> None:
        """Refuse a body that breaks Components V2's rules (`problem`), as Discord does."""
        if problem is not None:
            self._fake.record_violation(ViolationKind.COMPONENTS_V2, problem, request)
            raise DiscordError(400, 50035, f"Invalid Form Body: {problem}")

    def _delete(self, message: Message) -> None:
        message.deleted = True
        message.deleted_at = utcnow()
        self._world.notifier.bump()

    def _message_fields(
        self,
        request: web.Request,
        *,
        existing: list[Attachment],
        body: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The message fields a create/edit body sets, with uploads turned into attachments.

        ``body`` defaults to the request's JSON (or multipart ``payload_json``). In the
        body's ``attachments``, an id naming an existing attachment keeps it and an
        index ``n`` names the upload ``files[n]``; without ``attachments``, existing
        ones are kept and every upload is added.
        """
        body = request[BODY] if body is None else body
        body = body or {}
        content = body.get("content") or ""
        if len(content) > CONTENT_LIMIT:
            self._fake.record_violation(
                ViolationKind.CONTENT_TOO_LONG,
                f"message content of {len(content)} characters (Discord's limit: {CONTENT_LIMIT})",
                request,
            )
            raise DiscordError(400, 50035, "Invalid Form Body: content too long")
        fields = {name: body[name] or _empty(name) for name in _CONTENT_FIELDS if name in body}
        if "flags" in body:
            fields["flags"] = body["flags"] or 0
        uploads: Uploads = request[FILES]
        if "attachments" not in body and not uploads:
            self._check_attachment_links(request, fields, existing)
            return fields
        kept = {attachment.id: attachment for attachment in existing}
        listed = body.get("attachments")
        if listed is None:
            listed = [{"id": index} for index in uploads]
            attachments = list(existing)
        else:
            attachments = []
        for entry in listed:
            ref = int(entry["id"])
            if ref in kept:
                attachments.append(kept[ref])
            elif ref in uploads:
                filename, content_type, content = uploads[ref]
                attachments.append(
                    Attachment(
                        id=self._world.snowflake(),
                        filename=entry.get("filename") or filename,
                        content=content,
                        content_type=content_type,
                        description=entry.get("description"),
                    )
                )
            else:
                raise DiscordError(400, 50035, f"Invalid Form Body: unknown attachment {ref}")
        fields["attachments"] = attachments
        self._check_attachment_links(request, fields, attachments)
        return fields

    def _check_attachment_links(
        self, request: web.Request, fields: dict[str, Any], attachments: list[Attachment]
    ) -> None:
        """An embed image naming ``attachment://file`` needs that file on the message.

        Discord does not refuse such a message: it shows the embed without the image,
        which for the bot is a picture lost, so the fake records it as a violation.
        """
        names = {attachment.filename for attachment in attachments}
        for embed in fields.get("embeds") or []:
            for part in ("image", "thumbnail"):
                url = (embed.get(part) or {}).get("url", "")
                if url.startswith("attachment://") and url[len("attachment://") :] not in names:
                    self._fake.record_violation(
                        ViolationKind.SCHEMA,
                        f"embed {part} {url} names no attachment of the message "
                        f"(it has {sorted(names)})",
                        request,
                    )


def _check_entry_points(
    bodies: list[dict[str, Any]], previous: list[dict[str, Any]], guild_id: int | None
) -> None:
    """Discord's rules for Entry Point commands in a bulk overwrite (see `put_commands`):
    global only, one per app (documented; the code of the refusal is not: 50035 here)."""
    entry_points = [body for body in bodies if body.get("type") == PRIMARY_ENTRY_POINT]
    if entry_points and guild_id is not None:
        raise DiscordError(400, 50035, "Invalid Form Body: an Entry Point command is global only")
    if len(entry_points) > 1:
        raise DiscordError(400, 50035, "Invalid Form Body: an app has one Entry Point command")
    if find_entry_point(previous) is not None and not entry_points:
        raise DiscordError(400, 50240, ENTRY_POINT_REMOVED)


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


def _without_embeds_unless(permissions: int, fields: dict[str, Any]) -> dict[str, Any]:
    """A new message's fields, its embeds left out without Embed Links (as Discord hides
    them); Missing Permissions when nothing else would be left of it."""
    if not fields.get("embeds") or permissions & EMBED_LINKS:
        return fields
    kept = {**fields, "embeds": []}
    if not any(kept.get(name) for name in (*_CONTENT_FIELDS, "attachments")):
        raise DiscordError(403, 50013, "Missing Permissions")
    return kept


def _current(message: Message) -> dict[str, Any]:
    """A message's fields as an edit starts from them."""
    return {
        "content": message.content,
        "components": message.components,
        "attachments": message.attachments,
    }


def _require_content(fields: dict[str, Any]) -> dict[str, Any]:
    """``fields`` if they make a message Discord accepts, else Discord's 50006 error."""
    if not any(fields.get(name) for name in (*_CONTENT_FIELDS, "attachments")):
        raise DiscordError(400, 50006, "Cannot send an empty message")
    return fields


def _empty(name: str) -> Any:
    return "" if name == "content" else []
