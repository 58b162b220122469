"""The REST subset of Discord's HTTP API that the fake implements.

Handlers raise :class:`DiscordError` for the answers Discord gives to a bot's
mistakes (unknown message, DMs closed, a second initial response...); the front door
(devtools.fakediscord.front) turns them into Discord-shaped JSON errors. Rule breaches
that a bot must never commit are also recorded as violations
(devtools.fakediscord.violations).

The channel routes answer as Discord does for the bot's permissions in the channel
(`Guild.permissions_in`): 403 Missing Access (50001) without View Channel, 403 Missing
Permissions (50013) without what the request needs (Send Messages to post, Attach Files
to upload, Read Message History to read a message; embeds without Embed Links are left
out, and a message left empty is refused with 50013). A deleted channel's routes answer
404 Unknown Channel (10003). Interaction callbacks and webhooks (interaction tokens,
devtools.fakediscord.tokens) are not subject to channel permissions. Threads
(devtools.fakediscord.threads) take the same routes, Send Messages in Threads standing for
Send Messages.

Where the bot is not (a group DM, a server without the bot) every channel route answers
403 Missing Access (50001): Discord documents nothing of a bot token there, and the notes'
reading is that it fails (unverified); only interaction tokens reach those channels. An
interaction authorized by a user install only may create 5 follow-ups (40094 after).

Every message body, on every route, is read by devtools.fakediscord.bodies and checked for
Components V2's rules (devtools.fakediscord.layout): the flag and what it rules out, 40
components, a TextDisplay's length, the flag never taken off by an edit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiohttp import web

from . import layout
from .access import bot_permissions, request_channel, request_message
from .activities import Activities
from .bodies import Bodies, refuse_empty, without_embeds_unless
from .commands import CHAT_INPUT, PRIMARY_ENTRY_POINT, find_entry_point
from .front import Handler
from .gateway import Gateway
from .oauth import OAuth2
from .routes import Route
from .state import ATTACH_FILES, EPHEMERAL, READ_MESSAGE_HISTORY, ChannelType, World, notified_by
from .threads import ThreadControls, ThreadRoutes, post_into, sends_in
from .timing import Timing
from .tokens import TokenRoutes
from .violations import Violations
from .wire import BODY, FILES, DiscordError, json_response, require

#: Discord's answer to a bulk overwrite that leaves out the app's Entry Point command.
ENTRY_POINT_REMOVED = (
    "You cannot remove this app's Entry Point command in a bulk update operation. Please "
    "include the Entry Point command in your update request or delete it separately."
)


class RestApi:
    """Route handlers; they read and change the fake's :class:`~.state.World`. The token's
    routes (`tokens`) and the threads' (`thread_routes`) are parts of their own."""

    def __init__(
        self,
        world: World,
        *,
        gateway: Gateway,
        oauth: OAuth2,
        violations: Violations,
        timing: Timing,
        activities: Activities,
        threads: ThreadControls,
        url: Callable[[], str],
        gateway_url: Callable[[], str],
        keep_history: bool = True,
    ) -> None:
        self._world = world
        self._gateway = gateway
        self._oauth = oauth
        self._gateway_url = gateway_url
        #: Message bodies read and edits made, for every route.
        self.bodies = Bodies(world, violations, url=url, keep_history=keep_history)
        #: The interaction token's routes.
        self.tokens = TokenRoutes(
            world,
            gateway=gateway,
            violations=violations,
            timing=timing,
            activities=activities,
            bodies=self.bodies,
        )
        #: The thread routes.
        self.thread_routes = ThreadRoutes(world, gateway, violations, threads)

    def handler(self, route: Route) -> Handler:
        """The bound handler for a route, from whichever part serves it."""
        for handlers in (self, self.tokens, self.thread_routes):
            found: Handler | None = getattr(handlers, route.handler, None)
            if found is not None:
                return found
        raise LookupError(f"no handler {route.handler!r} for {route.key}")

    # -- login and gateway discovery -------------------------------------------------

    async def get_current_user(self, request: web.Request) -> web.Response:
        """GET /users/@me: the bot user (login), or the user of an OAuth2 bearer token."""
        user = self._oauth.bearer_user(request)
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
                "url": self._gateway_url(),
                "shards": self._gateway.recommended_shards,
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
        """GET the synced global or guild commands: their translations (the
        ``name_localizations`` and ``description_localizations`` of the commands, their
        options and choices) only with ``?with_localizations=true``, as Discord does."""
        guild_id = self._guild_scope(request)
        world = self._world
        synced = world.guild_commands.get(guild_id, []) if guild_id else world.global_commands
        if request.query.get("with_localizations", "").lower() == "true":
            return json_response(synced)
        return json_response([_untranslated(command) for command in synced])

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
        return json_response(request_channel(self._world, request).payload())

    async def create_message(self, request: web.Request) -> web.Response:
        """POST /channels/{channel_id}/messages (JSON or multipart with files)."""
        channel = request_channel(self._world, request)
        recipient = channel.recipient
        if channel.type is ChannelType.DM and recipient is not None and not recipient.dms_open:
            raise DiscordError(403, 50007, "Cannot send messages to this user")
        permissions = bot_permissions(self._world, channel)
        require(permissions, sends_in(channel))
        if request[FILES]:
            require(permissions, ATTACH_FILES)
        self.bodies.check_layout(request, layout.new_problem(request[BODY] or {}))
        fields = self.bodies.fields(request, existing=[])
        fields = refuse_empty(without_embeds_unless(permissions, fields))
        post_into(self._world, self._gateway, channel, permissions)
        fields["flags"] = fields.get("flags", 0) & ~EPHEMERAL
        fields["notified"] = notified_by(
            fields.get("content", ""), request[BODY].get("allowed_mentions")
        )
        message = self._world.add_message(channel, **fields)
        return json_response(self.bodies.payload(message))

    async def get_message(self, request: web.Request) -> web.Response:
        """GET /channels/{channel_id}/messages/{message_id}."""
        message = request_message(self._world, request)
        require(
            bot_permissions(self._world, request_channel(self._world, request)),
            READ_MESSAGE_HISTORY,
        )
        return json_response(self.bodies.payload(message))

    async def edit_message(self, request: web.Request) -> web.Response:
        """PATCH /channels/{channel_id}/messages/{message_id} (one's own: View Channel does)."""
        message = request_message(self._world, request)
        permissions = bot_permissions(self._world, request_channel(self._world, request))
        if request[FILES]:
            require(permissions, ATTACH_FILES)
        self.bodies.edit(message, request, permissions=permissions)
        return json_response(self.bodies.payload(message))

    async def delete_message(self, request: web.Request) -> web.Response:
        """DELETE /channels/{channel_id}/messages/{message_id}."""
        self.bodies.delete(request_message(self._world, request))
        return web.Response(status=204)

    # -- interactions -------------------------------------------------------------------

    # -- shared message changes -----------------------------------------------------


#: The fields of a command (and of its options and choices) that carry its translations.
LOCALIZATIONS = ("name_localizations", "description_localizations")


def _untranslated(part: dict[str, Any]) -> dict[str, Any]:
    """A command, option or choice as GET returns it without ``with_localizations``: no
    translations, at any depth."""
    kept = {key: value for key, value in part.items() if key not in LOCALIZATIONS}
    for nested in ("options", "choices"):
        if isinstance(kept.get(nested), list):
            kept[nested] = [_untranslated(item) for item in kept[nested]]
    return kept


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
