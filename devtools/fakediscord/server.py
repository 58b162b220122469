"""The fake Discord server and its test-facing API."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import re
import secrets
import time
import traceback
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import discord.gateway
import discord.http
import orjson
import yarl
from aiohttp import hdrs, web

from .commands import (
    PRIMARY_ENTRY_POINT,
    EntryPointHandler,
    Install,
    InvalidInvocation,
    build_command_data,
    build_component_data,
    check_usable,
    context_of,
    find_command,
    find_entry_point,
    installs_at,
    interaction_member_fields,
)
from .gateway import Gateway
from .oauth import TOKEN_PATH, OAuth2
from .rest import BODY, FILES, ROUTES, DiscordError, RestApi, Route, Uploads, json_response
from .schema import DEFAULT_OPENAPI_PATH, RequestValidator
from .state import (
    ATTACH_FILES,
    DEFAULT_EVERYONE_PERMISSIONS,
    EMBED_LINKS,
    GUILD_MESSAGES,
    MENTION_EVERYONE,
    USE_EXTERNAL_EMOJIS,
    ActivityInstance,
    ChangeNotifier,
    Channel,
    ChannelType,
    Guild,
    Interaction,
    InteractionType,
    Member,
    Message,
    Overwrite,
    OverwriteType,
    Role,
    User,
    Violation,
    ViolationKind,
    World,
    notified_by,
)
from .threads import ThreadControls

API_PREFIX = "/api/v10"
GATEWAY_PATH = "/gateway"
#: What Discord tells bots an interaction may carry as attachments (25 MiB).
ATTACHMENT_SIZE_LIMIT = 25 * 1024 * 1024
#: The app's permissions where its bot is not (a group DM, a server without the bot), as
#: Discord's ``app_permissions`` gives them; in the bot's DM, with USE_EXTERNAL_EMOJIS.
PRIVATE_APP_PERMISSIONS = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE
BOT_DM_APP_PERMISSIONS = PRIVATE_APP_PERMISSIONS | USE_EXTERNAL_EMOJIS

_FILE_FIELD = re.compile(r"files\[(\d+)\]")
_ROUTES_BY_KEY = {route.key: route for route in ROUTES}
_API_TOKEN_PATH = API_PREFIX + TOKEN_PATH


@dataclass(frozen=True)
class RequestRecord:
    """One request the bot made: when (fake time), to which route, with what outcome."""

    method: str
    route: str
    path: str
    at: float
    status: int
    counts_global: bool
    #: Files uploaded with it (multipart ``files[n]``).
    uploads: int = 0


@dataclass
class _RateLimit:
    """A 429 waiting for the next request that matches ``pattern``."""

    pattern: str
    retry_after: float
    is_global: bool
    via: bool = True
    #: The request's path (below the API prefix) it waits for; None: any of the route's.
    path: str | None = None

    def matches(self, route: Route, path: str | None = None) -> bool:
        on_path = self.path is None or path is None or path == self.path
        return self.pattern in (route.key, route.template) and on_path


class Stall:
    """The next request matching ``pattern``, held as a slow network would deliver it:
    ``reached`` is set when it arrives, and it is handled once ``release()`` is called."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.reached = asyncio.Event()
        self._released = asyncio.Event()

    def matches(self, route: Route) -> bool:
        return self.pattern in (route.key, route.template)

    def release(self) -> None:
        self._released.set()

    async def hold(self) -> None:
        self.reached.set()
        await self._released.wait()


@dataclass
class _Failure:
    """An error answer waiting for the next ``times`` requests that match ``pattern``."""

    pattern: str
    status: int
    code: int
    times: int

    def matches(self, route: Route) -> bool:
        return self.pattern in (route.key, route.template)


class _ErrorLogRecorder(logging.Handler):
    """Turns ERROR records from discord.py's loggers into violations."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__(level=logging.ERROR)
        self._fake = fake
        self.setFormatter(logging.Formatter("%(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self._fake.record_violation(ViolationKind.ERROR_LOG, self.format(record))


class FakeDiscord(ThreadControls):
    """A fake Discord (REST + gateway) on 127.0.0.1 for the real discord.py client.

    Build the world (guilds, channels, members) before the bot connects, then
    drive the bot like players would (:meth:`invoke`, :meth:`click`,
    :meth:`select`) and read what it did (:meth:`messages`, :meth:`dms`, the
    returned :class:`~.state.Interaction` records). Breaches of Discord's rules
    are collected in :attr:`violations`; :meth:`assert_no_violations` fails on them.
    """

    def __init__(
        self,
        *,
        openapi_path: Path = DEFAULT_OPENAPI_PATH,
        clock: Callable[[], float] = time.monotonic,
        interaction_deadline: float = 3.0,
        token_lifetime: float = 15 * 60.0,
        keep_history: bool = True,
    ) -> None:
        """Configure the fake; ``clock`` is its notion of time in seconds (see :meth:`now`)."""
        self.notifier = ChangeNotifier()
        self.world = World(self.notifier)
        self.validator = RequestValidator.load(openapi_path)
        #: Seconds the bot has for the first response to an interaction (Discord: 3).
        self.interaction_deadline = interaction_deadline
        #: Seconds an interaction token works for follow-ups and edits (Discord: 15 min).
        self.token_lifetime = token_lifetime
        #: Whether an edited message keeps its earlier versions (``Message.history``); the
        #: load benchmark turns it off, tests read it.
        self.keep_history = keep_history
        #: The token the bot must log in with.
        self.bot_token = "fake." + secrets.token_urlsafe(24)
        #: The application's OAuth2: client id and secret, codes, the browser's user.
        self.oauth = OAuth2(self.world, self.now)
        #: Recorded rule breaches not yet claimed by :meth:`expect_violation`.
        self.violations: list[Violation] = []
        #: Every REST request the bot made, in order.
        self.requests: list[RequestRecord] = []
        self._clock = clock
        self._time_offset = 0.0
        self._rate_limits: list[_RateLimit] = []
        self._failures: list[_Failure] = []
        self._stalls: list[Stall] = []
        self._rest = RestApi(self)
        self._announcing: set[asyncio.Task[None]] = set()
        self._log_recorder = _ErrorLogRecorder(self)
        self._runner: web.AppRunner | None = None
        self._port: int | None = None
        #: The gateway, with its identify/resume/reconnect counters.
        self.gateway = Gateway(
            self.world,
            self.bot_token,
            lambda: self.gateway_url,
            violation=self.record_violation,
        )

    # -- lifecycle ------------------------------------------------------------------------

    async def start(self) -> FakeDiscord:
        """Listen on 127.0.0.1 at a free port and start recording discord.py errors."""
        app = web.Application(middlewares=[self._middleware()])
        app.router.add_get(GATEWAY_PATH, self.gateway.handle)
        app.router.add_routes(self.oauth.routes(API_PREFIX))
        for route in ROUTES:
            app.router.add_route(
                route.method, API_PREFIX + route.template, self._rest.handler(route)
            )
        # Stopping waits at most a second for requests in flight (aiohttp's default: 60 s).
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = self._runner.addresses[0][1]
        logging.getLogger("discord").addHandler(self._log_recorder)
        return self

    async def stop(self) -> None:
        """Close connections, stop listening, stop recording discord.py errors."""
        logging.getLogger("discord").removeHandler(self._log_recorder)
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    # -- pointing discord.py at the fake --------------------------------------------------

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        if self._port is None:
            raise RuntimeError("the fake Discord is not started")
        return f"http://127.0.0.1:{self._port}"

    @property
    def api_base_url(self) -> str:
        """The value for DISCORD_API_BASE_URL (``discord.http.Route.BASE``)."""
        return self.url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """The value for DISCORD_GATEWAY_URL (``DiscordWebSocket.DEFAULT_GATEWAY``)."""
        return "ws" + self.url.removeprefix("http") + GATEWAY_PATH

    @contextlib.contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Point discord.py (this process) at the fake; restore the old targets after."""
        route_base = discord.http.Route.BASE
        gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base_url
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            discord.http.Route.BASE = route_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway

    @contextlib.asynccontextmanager
    async def connected(
        self, client: discord.Client, *, timeout: float = 5.0
    ) -> AsyncIterator[None]:
        """Log ``client`` in, connect it and wait for on_ready; close it on exit.

        Give the client a small ``guild_ready_timeout`` (e.g. 0.05): discord.py
        waits that long after the last GUILD_CREATE before it is ready.
        """
        with self.patch_discord():
            runner: asyncio.Task[None] | None = None
            try:
                await client.login(self.bot_token)
                runner = asyncio.create_task(client.connect())
                ready = asyncio.create_task(client.wait_until_ready())
                await asyncio.wait({runner, ready}, timeout=timeout, return_when="FIRST_COMPLETED")
                ready.cancel()
                if runner.done():
                    runner.result()
                    raise RuntimeError("the client stopped before it was ready")
                if not ready.done() or ready.cancelled():
                    raise TimeoutError(f"the client was not ready after {timeout} s")
                yield
            finally:
                await client.close()
                if runner is not None:
                    await runner

    # -- building the world ---------------------------------------------------------------

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        owner: User | int | None = None,
        preferred_locale: str = "en-US",
        shard: tuple[int, int] | None = None,
        bot_member: bool = True,
    ) -> Guild:
        """Add a guild (with its @everyone role and the bot as a member).

        ``shard=(shard_id, shard_count)`` gives it an id in that shard. ``bot_member=False``:
        a server that never installed the bot: the gateway does not announce it, and the
        bot's channel routes there answer 403 Missing Access (50001), while its members'
        interactions still reach the bot through a user install (:meth:`install_for_user`).
        """
        world = self.world
        guild_id = world.snowflake(shard)
        owner_id = world.user(owner).id if owner is not None else world.snowflake()
        guild = Guild(guild_id, name, owner_id, preferred_locale=preferred_locale)
        world.guilds[guild_id] = guild
        guild.roles[guild_id] = Role(
            guild_id, guild_id, "@everyone", DEFAULT_EVERYONE_PERMISSIONS, 0
        )
        if bot_member:
            guild.members[world.bot.id] = Member(world.bot, guild_id, [])
        return guild

    def add_role(self, guild: Guild | int, name: str, *, permissions: int = 0) -> Role:
        """Add a role with these permission bits (see ``discord.Permissions(...).value``)."""
        guild = self.world.guild(guild)
        role = Role(self.world.snowflake(), guild.id, name, permissions, len(guild.roles))
        guild.roles[role.id] = role
        return role

    def add_text_channel(self, guild: Guild | int, name: str) -> Channel:
        """Add a text channel to a guild."""
        guild = self.world.guild(guild)
        channel = Channel(
            self.world.snowflake(), ChannelType.GUILD_TEXT, name, guild.id, len(guild.channels)
        )
        guild.channels[channel.id] = self.world.channels[channel.id] = channel
        return channel

    def add_group_dm(self, *users: User | Member | int, name: str | None = None) -> Channel:
        """A group DM of these users (the first one made it); the bot is never in one, so
        its channel routes there answer 403 Missing Access (50001). Commands reach it only
        through a user install, and anyone in it can click the bot's messages there."""
        recipients = [self.world.user(user) for user in users]
        if not recipients:
            raise ValueError("a group DM has recipients")
        channel = Channel(
            self.world.snowflake(),
            ChannelType.GROUP_DM,
            name or "",
            recipients=recipients,
            owner_id=recipients[0].id,
        )
        self.world.channels[channel.id] = channel
        return channel

    def install_for_user(self, user: User | Member | int) -> None:
        """The user installs the app to their account (a user install): the commands whose
        ``integration_types`` hold 1 work for them wherever their ``contexts`` allow."""
        self.world.user_installs.add(self.world.user(user).id)
        self.notifier.bump()

    def enable_activities(self) -> dict[str, Any]:
        """Enable Activities, as in the developer portal: Discord creates the global Entry
        Point command "launch" (type 4, handler 2: Discord launches the Activity). Its
        ``integration_types`` [0, 1] and ``contexts`` [0, 1, 2] are the fake's assumption
        (unverified). Returns the command; enabling twice keeps the one there is."""
        world = self.world
        existing = find_entry_point(world.global_commands)
        if existing is not None:
            return existing
        command = {
            "id": str(world.snowflake()),
            "application_id": str(world.application_id),
            "version": str(world.snowflake()),
            "type": PRIMARY_ENTRY_POINT,
            "handler": int(EntryPointHandler.DISCORD_LAUNCH_ACTIVITY),
            "name": "launch",
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            "integration_types": [0, 1],
            "contexts": [0, 1, 2],
        }
        world.global_commands = [*world.global_commands, command]
        self.notifier.bump()
        return command

    def add_user(
        self,
        name: str,
        *,
        user_id: int | None = None,
        dms_open: bool = True,
        locale: str = "en-US",
    ) -> User:
        """Add a user (not in any guild yet); an existing ``user_id`` is returned as is.

        ``locale`` is the language chosen in their Discord client (``User.locale``).
        """
        world = self.world
        if user_id in world.users:
            return world.users[user_id]
        user = User(user_id or world.snowflake(), name, dms_open=dms_open, locale=locale)
        world.users[user.id] = user
        return user

    def add_member(
        self,
        guild: Guild | int,
        name: str,
        *,
        user_id: int | None = None,
        roles: Iterable[Role | str] = (),
        dms_open: bool = True,
        locale: str = "en-US",
    ) -> Member:
        """Add a user (new, or ``user_id``) to a guild with the given roles (records or names).

        The member's permissions are those of @everyone and their roles, as on Discord.
        """
        guild = self.world.guild(guild)
        user = self.add_user(name, user_id=user_id, dms_open=dms_open, locale=locale)
        role_ids = [r.id if isinstance(r, Role) else guild.role_named(r).id for r in roles]
        member = guild.members[user.id] = Member(user, guild.id, role_ids)
        return member

    async def set_permissions(
        self,
        channel: Channel | int,
        target: Role | Member | User,
        *,
        allow: int = 0,
        deny: int = 0,
    ) -> None:
        """Set a channel's permission overwrite for a role (the guild's @everyone role
        included) or a member, as a server's moderator does in the channel's settings.

        ``allow`` and ``deny`` are permission bits (``discord.Permissions(...).value``);
        both 0 removes the overwrite. A connected bot gets CHANNEL_UPDATE, as on Discord.
        """
        channel = self.world.channel(channel)
        if isinstance(target, Role):
            kind, target_id = OverwriteType.ROLE, target.id
        else:
            kind, target_id = OverwriteType.MEMBER, self.world.user(target).id
        kept = [o for o in channel.overwrites if (o.type, o.id) != (kind, target_id)]
        if allow or deny:
            kept.append(Overwrite(target_id, kind, allow, deny))
        channel.overwrites = kept
        self.notifier.bump()
        await self.announce("CHANNEL_UPDATE", channel)

    async def delete_channel(self, channel: Channel | int) -> None:
        """Delete a guild channel or thread: a connected bot gets CHANNEL_DELETE (a thread:
        THREAD_DELETE), and its routes answer 404 Unknown Channel (10003) from now on; a
        text channel's threads go with it. Its messages stay readable by tests."""
        channel = self.world.channel(channel)
        if channel.guild_id is None:
            raise ValueError("only a guild's channels can be deleted")
        guild = self.world.guild(channel.guild_id)
        if channel.is_thread:
            del guild.threads[channel.id]
        else:
            del guild.channels[channel.id]
            for thread in [t for t in guild.threads.values() if t.parent_id == channel.id]:
                del guild.threads[thread.id], self.world.channels[thread.id]
        del self.world.channels[channel.id]
        self.notifier.bump()
        if channel.is_thread:
            await self.announce("THREAD_DELETE", channel)
        else:
            await self.announce("CHANNEL_DELETE", channel)

    async def announce(self, event: str, channel: Channel, **extra: Any) -> None:
        """Dispatch a channel or thread event (its payload, and `extra` fields) to the session
        of its guild's shard, if a bot is there (and the guild has the bot)."""
        guild = self.world.guild(channel.guild_id)
        if self.world.has_bot(guild) and self.gateway.session_for(guild.id) is not None:
            payload = {**channel.payload(), **extra}
            await self.gateway.dispatch(event, payload, channel.guild_id)

    def announce_soon(self, event: str, channel: Channel, **extra: Any) -> None:
        """`announce`, from code that cannot wait for it: the gateway sends it next."""
        task = asyncio.create_task(self.announce(event, channel, **extra))
        self._announcing.add(task)
        task.add_done_callback(self._announcing.discard)

    def set_dms_open(self, user: User | Member | int, is_open: bool) -> None:
        """Open or close a user's DMs; sending to closed DMs gets 403, code 50007."""
        self.world.user(user).dms_open = is_open

    async def say(self, channel: Channel | int, user: User | Member | int, content: str) -> Message:
        """A user posts in a channel; the bot gets MESSAGE_CREATE if it asked for message
        events (the GUILD_MESSAGES intent), as on Discord. Posting unarchives a thread."""
        channel, user = self.world.channel(channel), self.world.user(user)
        if channel.archived:
            await self.set_thread(channel, archived=False)
        message = self.world.add_message(
            channel, author=user, content=content, notified=notified_by(content, None)
        )
        guild = self.world.guilds.get(channel.guild_id)
        session = self.gateway.session_for(channel.guild_id)
        if (
            guild is not None
            and self.world.has_bot(guild)
            and session is not None
            and session.intents & GUILD_MESSAGES
        ):
            payload = message.payload(self.url)
            payload["member"] = guild.members[user.id].payload(with_user=False)
            await self.gateway.dispatch("MESSAGE_CREATE", payload, channel.guild_id)
        return message

    def dismiss(self, message: Message | int) -> None:
        """A user dismisses an ephemeral message: editing it through its token gets 404."""
        message = self.world.message(message)
        if not message.ephemeral:
            raise ValueError("only ephemeral messages can be dismissed")
        message.deleted = True
        self.notifier.bump()

    def expire_token(self, interaction: Interaction) -> None:
        """Discord ends an interaction's token early: its uses get 401, code 50027 (not a
        violation; using a token past its 15 minutes is)."""
        interaction.token_expired = True

    def notified(self, user: User | Member | int) -> list[Message]:
        """The messages that notified ``user`` (mentioned and let through), oldest first."""
        user_id = self.world.user(user).id
        return [m for m in self.world.messages.values() if user_id in m.notified]

    # -- acting as players ------------------------------------------------------------------

    async def invoke(
        self,
        command: str,
        *,
        user: User | Member | int,
        channel: Channel | int,
        forged: bool = False,
        **options: Any,
    ) -> Interaction:
        """Run a synced slash command: ``invoke("apophis new", user=u, channel=c, mode="easy")``.

        ``command`` is the command name followed by its group/subcommand names;
        ``options`` are plain values (users, channels and roles as records or ids)
        typed by the synced command. Raises :class:`InvalidInvocation` for
        anything a Discord user could not do (unknown command or option,
        a value outside the choices or range, a command not offered here).

        Discord offers a command where its ``contexts`` hold the channel's (0 a server, 1 the
        bot's DM, 2 a group DM; without ``contexts``: servers, and the bot's DM unless
        ``dm_permission`` is false) and one of its ``integration_types`` (0 guild, 1 user;
        without: [0]) applies there: the guild install in a server that has the bot and in
        the bot's DM, the user install (:meth:`install_for_user`) anywhere. The interaction's
        ``authorizing_integration_owners`` names those installs. ``forged=True`` sends it
        anyway, as a tampered client could: option values unchecked, and in any channel.
        """
        user, channel = self.world.user(user), self.world.channel(channel)
        guild = self.world.guilds.get(channel.guild_id)
        definition, path = find_command(self.world.commands_for(channel.guild_id), command)
        if channel.archived:
            raise InvalidInvocation("Discord offers no command in an archived thread")
        owners = self._command_owners(definition, user, channel, forged=forged)
        data = build_command_data(self.world, guild, definition, path, options, forged=forged)
        return await self._dispatch_interaction(
            InteractionType.APPLICATION_COMMAND, user, channel, data, owners=owners
        )

    async def invoke_entry_point(
        self, *, user: User | Member | int, channel: Channel | int
    ) -> Interaction | str:
        """The user picks the app in the App Launcher here (its Entry Point command).

        With the command's ``handler`` 1 (APP_HANDLER; the fake's reading of a command
        without one, unverified) the bot gets an APPLICATION_COMMAND interaction whose data
        is ``{"id", "name", "type": 4}``, returned here; with 2
        (DISCORD_LAUNCH_ACTIVITY) Discord launches the Activity itself (or joins the one
        running in the channel) without telling the bot, and the instance id is returned.
        (Discord then posts a message of its own in the channel; the fake does not.)
        InvalidInvocation without Activities (:meth:`enable_activities`) or where the command
        is not offered (its ``contexts`` and ``integration_types``, as for :meth:`invoke`).
        """
        user, channel = self.world.user(user), self.world.channel(channel)
        command = find_entry_point(self.world.global_commands)
        if command is None:
            raise InvalidInvocation("the app has no Entry Point command: Activities are off")
        owners = self._command_owners(command, user, channel, forged=False)
        if command.get("handler") == EntryPointHandler.DISCORD_LAUNCH_ACTIVITY:
            return self.open_activity(channel, [user])
        data = {"id": str(command["id"]), "name": command["name"], "type": PRIMARY_ENTRY_POINT}
        return await self._dispatch_interaction(
            InteractionType.APPLICATION_COMMAND, user, channel, data, owners=owners
        )

    def _command_owners(
        self, command: dict[str, Any], user: User, channel: Channel, *, forged: bool
    ) -> dict[str, str]:
        """The ``authorizing_integration_owners`` of the command used here (InvalidInvocation
        where Discord does not offer it, unless ``forged``: then the installs that apply)."""
        installs = installs_at(self.world, channel, user)
        if forged:
            return {str(key): owner for key, owner in installs.items()}
        return check_usable(command, context_of(channel), installs)

    async def click(
        self,
        message: Message | int,
        custom_id: str,
        *,
        user: User | Member | int,
        forged: bool = False,
    ) -> Interaction:
        """Click the button ``custom_id`` on a message the bot sent.

        Raises :class:`InvalidInvocation` unless the message (as it is now) has that
        button, enabled, and ``user`` can see the message (in a channel they see: a member
        with View Channel, a recipient of the DM or group DM), as Discord sends nothing else;
        whether ``user`` installed the app does not matter. The interaction carries the
        ``authorizing_integration_owners`` of the interaction that made the message (a
        message the bot posted itself: its guild install's). ``forged=True``: any custom
        id, as if clicked on that message (even one ``user`` cannot see) by a tampered client.
        """
        return await self._component_interaction(message, custom_id, user, None, forged)

    async def select(
        self,
        message: Message | int,
        custom_id: str,
        values: Iterable[str],
        *,
        user: User | Member | int,
        forged: bool = False,
    ) -> Interaction:
        """Choose ``values`` in the string select ``custom_id`` on a message the bot sent.

        ``forged=True``: any custom id and values, whatever the message offers and
        whoever can see it.
        """
        return await self._component_interaction(message, custom_id, user, list(values), forged)

    async def _component_interaction(
        self,
        message: Message | int,
        custom_id: str,
        user: User | Member | int,
        values: list[str] | None,
        forged: bool,
    ) -> Interaction:
        message, user = self.world.message(message), self.world.user(user)
        channel = self.world.channel(message.channel_id)
        if not (forged or self.world.can_view(user, channel)):
            raise InvalidInvocation(f"user {user.id} cannot see channel {channel.id}")
        data = build_component_data(message, custom_id, user, values, forged=forged)
        origin = self.world.interactions.get(message.interaction_id or 0)
        if origin is not None:
            owners = dict(origin.authorizing_integration_owners)
        else:  # posted by the bot through its channel routes: the guild install's
            installs = installs_at(self.world, channel, user)
            owners = {"0": installs[Install.GUILD]} if Install.GUILD in installs else {}
        return await self._dispatch_interaction(
            InteractionType.MESSAGE_COMPONENT, user, channel, data, message, owners=owners
        )

    async def _dispatch_interaction(
        self,
        kind: InteractionType,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        source_message: Message | None = None,
        *,
        owners: dict[str, str],
    ) -> Interaction:
        world = self.world
        guild, who = interaction_member_fields(world, channel, user)
        interaction = Interaction(
            id=world.snowflake(),
            token="aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48),
            type=kind,
            user=user,
            channel=channel,
            data=data,
            created_at=self.now(),
            notifier=self.notifier,
            source_message=source_message,
            authorizing_integration_owners=owners,
        )
        world.interactions[interaction.id] = interaction
        world.interactions_by_token[interaction.token] = interaction
        payload: dict[str, Any] = {
            "id": str(interaction.id),
            "application_id": str(world.application_id),
            "type": int(kind),
            "token": interaction.token,
            "version": 1,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "locale": user.locale,
            "entitlements": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "context": int(context_of(channel)),
            "authorizing_integration_owners": owners,
            "app_permissions": str(self._app_permissions(channel)),
            **who,
        }
        if guild is not None:
            payload["guild_id"] = str(guild.id)
            payload["guild_locale"] = guild.preferred_locale
        if source_message is not None:
            payload["message"] = source_message.payload(self.url)
        await self.gateway.dispatch(
            "INTERACTION_CREATE", payload, guild.id if guild is not None else None
        )
        self.notifier.bump()
        return interaction

    def _app_permissions(self, channel: Channel) -> int:
        """An interaction's ``app_permissions``: the bot's in the channel where it is a
        member; else what Discord gives a user-installed app (developers/interactions/
        receiving-and-responding)."""
        if channel.type is ChannelType.DM:
            return BOT_DM_APP_PERMISSIONS
        guild = self.world.guilds.get(channel.guild_id)
        if guild is None or not self.world.has_bot(guild):
            return PRIVATE_APP_PERMISSIONS
        return guild.permissions_in(guild.members[self.world.bot.id], channel)

    # -- Activities -----------------------------------------------------------------------

    def launch_activity(self, channel: Channel | int, *users: User | Member | int) -> str:
        """These users start the Activity in a channel they can see (a server channel, a DM
        or group DM); where one is running already they join it, as on Discord. Returns the
        instance id (a new instance gets a new id and ``launch_id``)."""
        channel = self.world.channel(channel)
        people = [self.world.user(user) for user in users]
        if not people:
            raise InvalidInvocation("an Activity is launched by someone")
        for user in people:
            if not self.world.can_view(user, channel):
                raise InvalidInvocation(f"user {user.id} cannot see channel {channel.id}")
        return self.open_activity(channel, people)

    def open_activity(self, channel: Channel, users: list[User]) -> str:
        """Discord's side of a launch: the Activity starts in `channel` (or the running one
        is joined) with `users`, unchecked; the instance id."""
        running = self.instance_in(channel)
        if running is None:
            instance = ActivityInstance(self.world.snowflake(), channel)
            self.world.activity_instances[instance.id] = instance
            running = instance.id
        for user in users:
            self.join_instance(running, user)
        return running

    def join_instance(self, instance_id: str, user: User | Member | int) -> None:
        """A user joins a running Activity instance (KeyError if it is not running)."""
        instance = self.world.activity_instances[instance_id]
        user_id = self.world.user(user).id
        if user_id not in instance.users:
            instance.users.append(user_id)
        self.notifier.bump()

    def leave_instance(self, instance_id: str, user: User | Member | int) -> None:
        """A user leaves an Activity instance; when the last one leaves it ends, and its id
        is unknown from then on (the next launch there gets a new one)."""
        instance = self.world.activity_instances[instance_id]
        user_id = self.world.user(user).id
        if user_id in instance.users:
            instance.users.remove(user_id)
        if not instance.users:
            del self.world.activity_instances[instance_id]
        self.notifier.bump()

    def instance_in(self, channel: Channel | int) -> str | None:
        """The id of the Activity instance running in a channel, if any."""
        channel_id = channel.id if isinstance(channel, Channel) else channel
        return next(
            (i.id for i in self.world.activity_instances.values() if i.channel.id == channel_id),
            None,
        )

    def activity_instance(self, instance_id: str) -> ActivityInstance | None:
        """A running Activity instance (its channel and users), or None."""
        return self.world.activity_instances.get(instance_id)

    # -- reading what the bot did ---------------------------------------------------------

    def messages(
        self,
        channel: Channel | int,
        *,
        seen_by: User | Member | int | None = None,
        include_deleted: bool = False,
    ) -> list[Message]:
        """The bot's messages in a channel, oldest first (ephemeral ones included).

        With ``seen_by``, only what that user can see: public messages and the
        ephemeral ones shown to them.
        """
        channel_id = channel.id if isinstance(channel, Channel) else channel  # even deleted
        viewer = self.world.user(seen_by).id if seen_by is not None else None
        return [
            message
            for message in self.world.messages.values()
            if message.channel_id == channel_id
            and (include_deleted or not message.deleted)
            and (viewer is None or message.seen_by(viewer))
        ]

    def dms(self, user: User | Member | int) -> list[Message]:
        """The bot's DMs to a user, oldest first."""
        user = self.world.user(user)
        channel = self.world.dm_channels.get(user.id)
        return self.messages(channel) if channel is not None else []

    def followups_of(self, interaction: Interaction) -> int:
        """How many follow-ups the bot created with the interaction's token (the one that
        filled a deferred response included): at most 5 when only a user install
        authorized the interaction."""
        return interaction.followup_posts

    def synced_commands(self, guild: Guild | int | None = None) -> list[dict[str, Any]]:
        """The commands the bot synced globally, or for ``guild``."""
        if guild is None:
            return self.world.global_commands
        return self.world.guild_commands.get(self.world.guild(guild).id, [])

    async def wait_for(
        self, predicate: Callable[[], Any], *, timeout: float = 5.0, description: str = ""
    ) -> Any:
        """Wait until ``predicate()`` is truthy and return its value.

        The predicate is checked again whenever the fake records something (a
        request, an interaction, a response, a gateway session change), so it
        should depend on what the fake sees, not on the bot's private state.
        """
        return await self.notifier.wait(predicate, timeout=timeout, description=description)

    # -- Discord's behaviours on demand ---------------------------------------------------

    async def force_reconnect(self, *, timeout: float = 5.0) -> None:
        """Send op 7 RECONNECT and wait until the client has resumed (or re-identified)."""
        gateway = self.gateway
        before = gateway.resume_count + gateway.identify_count
        await gateway.request_reconnect()
        await self.wait_for(
            lambda: gateway.resume_count + gateway.identify_count > before,
            timeout=timeout,
            description="the client to come back after RECONNECT",
        )

    def rate_limit_next(
        self,
        pattern: str,
        *,
        retry_after: float = 0.05,
        is_global: bool = False,
        via: bool = True,
        path: str | None = None,
    ) -> None:
        """Answer the next request to a route with 429 (``retry_after`` s, ``Via`` header);
        with ``path`` (``"/channels/123/messages"``), the next to that path only.

        ``pattern`` is a route's OpenAPI template, optionally after its method:
        ``"POST /channels/{channel_id}/messages"``. ``via=False`` answers as a REST
        proxy does when it limits the bot itself (nirn-proxy, for one): without the
        ``Via`` header that Discord's own 429s carry, which discord.py does not retry.
        """
        limit = _RateLimit(pattern, retry_after, is_global, via, path)
        if not any(limit.matches(route) for route in ROUTES):
            raise ValueError(f"{pattern!r} names no route the fake implements")
        self._rate_limits.append(limit)

    def stall_next(self, pattern: str) -> Stall:
        """Hold the next request to a route until the returned stall is released (a request
        that reaches Discord after others sent later); ``pattern`` as in
        :meth:`rate_limit_next`."""
        stall = Stall(pattern)
        if not any(stall.matches(route) for route in ROUTES):
            raise ValueError(f"{pattern!r} names no route the fake implements")
        self._stalls.append(stall)
        return stall

    def fail_next(self, pattern: str, *, status: int = 500, code: int = 0, times: int = 1) -> None:
        """Answer the next ``times`` requests to a route with an error (an outage: 500, or
        any status and JSON code); ``pattern`` as in :meth:`rate_limit_next`."""
        failure = _Failure(pattern, status, code, times)
        if not any(failure.matches(route) for route in ROUTES):
            raise ValueError(f"{pattern!r} names no route the fake implements")
        self._failures.append(failure)

    def now(self) -> float:
        """The fake's time in seconds: its clock plus every :meth:`advance_time`."""
        return self._clock() + self._time_offset

    def advance_time(self, seconds: float) -> None:
        """Move the fake's time forward (interaction deadlines, token life)."""
        self._time_offset += seconds

    # -- request accounting -----------------------------------------------------------------

    @property
    def global_requests(self) -> int:
        """How many requests counted against Discord's global limit (50/s per bot)."""
        return sum(record.counts_global for record in self.requests)

    def requests_to(self, pattern: str) -> list[RequestRecord]:
        """The requests to a route, named like in :meth:`rate_limit_next`."""
        return [r for r in self.requests if pattern in (r.route, r.route.partition(" ")[2])]

    # -- violations ---------------------------------------------------------------------------

    def record_violation(
        self, kind: ViolationKind, message: str, request: web.Request | None = None
    ) -> None:
        """Note a breach of Discord's rules; it fails the test unless expected."""
        where = f"{request.method} {request.rel_url}" if request is not None else ""
        self.violations.append(Violation(kind, message, where))
        self.notifier.bump()

    async def expect_violation(self, kind: ViolationKind, *, timeout: float = 5.0) -> Violation:
        """Wait for a violation of this kind and claim it, so that it does not fail the test."""

        def first() -> Violation | None:
            return next((v for v in self.violations if v.kind == kind), None)

        violation = await self.wait_for(first, timeout=timeout, description=f"a {kind} violation")
        self.violations.remove(violation)
        return violation

    def assert_no_violations(self) -> None:
        """Fail (AssertionError) listing every unclaimed violation."""
        if self.violations:
            listing = "\n".join(f"  - {violation}" for violation in self.violations)
            raise AssertionError(f"the bot broke Discord's rules:\n{listing}")

    # -- the HTTP layer --------------------------------------------------------------------------

    def _middleware(self) -> Callable[..., Any]:
        @web.middleware
        async def middleware(
            request: web.Request, handler: Callable[..., Any]
        ) -> web.StreamResponse:
            # The token exchange is form-encoded and outside the OpenAPI description.
            if not request.path.startswith(API_PREFIX + "/") or request.path == _API_TOKEN_PATH:
                return await handler(request)
            route = self._route_of(request)
            if route is None:
                self.record_violation(
                    ViolationKind.UNIMPLEMENTED_ROUTE,
                    "the fake does not implement this route",
                    request,
                )
                return json_response({"code": 0, "message": "404: Not Found"}, status=404)
            response = await self._answer(request, route, handler)
            self.requests.append(
                RequestRecord(
                    request.method,
                    route.key,
                    request.path,
                    self.now(),
                    response.status,
                    route.counts_global and not _is_bearer(request),
                    len(request.get(FILES) or {}),
                )
            )
            self.notifier.bump()
            return response

        return middleware

    @staticmethod
    def _route_of(request: web.Request) -> Route | None:
        if request.match_info.http_exception is not None:
            return None
        template = request.match_info.route.resource.canonical.removeprefix(API_PREFIX)
        return _ROUTES_BY_KEY[f"{request.method} {template}"]

    def _authorized(self, request: web.Request, route: Route) -> bool:
        """The bot's token, or a live OAuth2 access token on a route that takes one."""
        if request.headers.get(hdrs.AUTHORIZATION) == f"Bot {self.bot_token}":
            return True
        return route.bearer and self.oauth.bearer_user(request) is not None

    async def _answer(
        self, request: web.Request, route: Route, handler: Callable[..., Any]
    ) -> web.StreamResponse:
        path = request.path.removeprefix(API_PREFIX)
        stall = next((stall for stall in self._stalls if stall.matches(route)), None)
        if stall is not None:
            self._stalls.remove(stall)
            await stall.hold()
        limit = next((lim for lim in self._rate_limits if lim.matches(route, path)), None)
        if limit is not None:
            self._rate_limits.remove(limit)
            return _rate_limited(route, limit)
        failure = next((f for f in self._failures if f.matches(route)), None)
        if failure is not None:
            failure.times -= 1
            if failure.times <= 0:
                self._failures.remove(failure)
            body = {"code": failure.code, "message": f"{failure.status}: injected failure"}
            return json_response(body, status=failure.status)
        if route.counts_global and not self._authorized(request, route):
            return json_response({"code": 0, "message": "401: Unauthorized"}, status=401)
        try:
            request[BODY], request[FILES] = await _read_body(request)
        except ValueError as error:
            self.record_violation(ViolationKind.SCHEMA, f"unreadable body: {error}", request)
            return json_response(
                {"code": 50109, "message": "The request body contains invalid JSON."}, status=400
            )
        if request[BODY] is not None:
            problem = self.validator.validate(request.method, route.template, request[BODY])
            if problem is not None:
                self.record_violation(ViolationKind.SCHEMA, str(problem), request)
                body = {
                    "code": 50035,
                    "message": "Invalid Form Body",
                    "errors": problem.discord_errors(),
                }
                return json_response(body, status=400)
        try:
            return await handler(request)
        except DiscordError as error:
            return error.response()
        except Exception:
            # A bug in the fake: fail the test with the traceback, and answer 400
            # rather than 500, which discord.py would retry for seconds.
            self.record_violation(ViolationKind.FAKE_ERROR, traceback.format_exc(), request)
            return json_response({"code": 0, "message": "fake Discord error"}, status=400)


def _is_bearer(request: web.Request) -> bool:
    """Whether a user's OAuth2 token made the request (it does not count against the bot's
    global limit)."""
    return request.headers.get(hdrs.AUTHORIZATION, "").startswith("Bearer ")


def _rate_limited(route: Route, limit: _RateLimit) -> web.Response:
    """A 429 as Discord sends it: body with retry_after, Via and X-RateLimit-* headers."""
    headers = {
        "Retry-After": str(math.ceil(limit.retry_after)),
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{time.time() + limit.retry_after:.3f}",
        "X-RateLimit-Reset-After": f"{limit.retry_after:.3f}",
        "X-RateLimit-Bucket": f"fake-{abs(hash(route.key)):x}",
        "X-RateLimit-Scope": "global" if limit.is_global else "user",
    }
    if limit.via:
        headers["Via"] = "1.1 google"
    if limit.is_global:
        headers["X-RateLimit-Global"] = "true"
    body = {
        "message": "You are being rate limited.",
        "retry_after": limit.retry_after,
        "global": limit.is_global,
    }
    return json_response(body, status=429, headers=headers)


async def _read_body(request: web.Request) -> tuple[Any, Uploads]:
    """The JSON body (or multipart ``payload_json``) and the uploads by ``files[n]`` index."""
    if request.content_type != "multipart/form-data":
        raw = await request.read()
        return (orjson.loads(raw) if raw else None), {}
    body: Any = None
    files: Uploads = {}
    reader = await request.multipart()
    while (part := await reader.next()) is not None:
        if part.name == "payload_json":
            body = json.loads(await part.text())
        elif (match := _FILE_FIELD.fullmatch(part.name or "")) is not None:
            content = bytes(await part.read())
            files[int(match[1])] = (
                part.filename or "",
                part.headers.get(hdrs.CONTENT_TYPE),
                content,
            )
    return body, files


__all__ = ["FakeDiscord", "InvalidInvocation", "RequestRecord"]
