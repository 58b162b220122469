"""What people do in Discord's client that reaches the bot as an interaction: a slash
command, the app's Entry Point, a click, a select's choice.

Like Discord, only what a user could send is sent (else `InvalidInvocation`), unless
``forged=True`` sends what a tampered client could (see devtools.fakediscord).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from typing import Any

from .activities import Activities
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
from .state import (
    ATTACH_FILES,
    EMBED_LINKS,
    MENTION_EVERYONE,
    USE_EXTERNAL_EMOJIS,
    Channel,
    ChannelType,
    Interaction,
    InteractionType,
    Member,
    Message,
    User,
    World,
)

#: What Discord tells bots an interaction may carry as attachments (25 MiB).
ATTACHMENT_SIZE_LIMIT = 25 * 1024 * 1024
#: The app's permissions where its bot is not (a group DM, a server without the bot), as
#: Discord's ``app_permissions`` gives them; in the bot's DM, with USE_EXTERNAL_EMOJIS.
PRIVATE_APP_PERMISSIONS = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE
BOT_DM_APP_PERMISSIONS = PRIVATE_APP_PERMISSIONS | USE_EXTERNAL_EMOJIS


class Players:
    """Sends the bot the interactions people make, and returns their records."""

    def __init__(
        self,
        world: World,
        gateway: Gateway,
        activities: Activities,
        *,
        now: Callable[[], float],
        url: Callable[[], str],
    ) -> None:
        self._world = world
        self._gateway = gateway
        self._activities = activities
        self._now = now
        self._url = url

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
        user, channel = self._world.user(user), self._world.channel(channel)
        guild = self._world.guild_of(channel)
        definition, path = find_command(self._world.commands_for(channel.guild_id), command)
        if channel.archived:
            raise InvalidInvocation("Discord offers no command in an archived thread")
        owners = self._command_owners(definition, user, channel, forged=forged)
        data = build_command_data(self._world, guild, definition, path, options, forged=forged)
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
        user, channel = self._world.user(user), self._world.channel(channel)
        command = find_entry_point(self._world.global_commands)
        if command is None:
            raise InvalidInvocation("the app has no Entry Point command: Activities are off")
        owners = self._command_owners(command, user, channel, forged=False)
        if command.get("handler") == EntryPointHandler.DISCORD_LAUNCH_ACTIVITY:
            return self._activities.open_activity(channel, [user])
        data = {"id": str(command["id"]), "name": command["name"], "type": PRIMARY_ENTRY_POINT}
        return await self._dispatch_interaction(
            InteractionType.APPLICATION_COMMAND, user, channel, data, owners=owners
        )

    def _command_owners(
        self, command: dict[str, Any], user: User, channel: Channel, *, forged: bool
    ) -> dict[str, str]:
        """The ``authorizing_integration_owners`` of the command used here (InvalidInvocation
        where Discord does not offer it, unless ``forged``: then the installs that apply)."""
        installs = installs_at(self._world, channel, user)
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
        message, user = self._world.message(message), self._world.user(user)
        channel = self._world.channel(message.channel_id)
        if not (forged or self._world.can_view(user, channel)):
            raise InvalidInvocation(f"user {user.id} cannot see channel {channel.id}")
        data = build_component_data(message, custom_id, user, values, forged=forged)
        origin = self._world.interactions.get(message.interaction_id or 0)
        if origin is not None:
            owners = dict(origin.authorizing_integration_owners)
        else:  # posted by the bot through its channel routes: the guild install's
            installs = installs_at(self._world, channel, user)
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
        world = self._world
        guild, who = interaction_member_fields(world, channel, user)
        interaction = Interaction(
            id=world.snowflake(),
            token="aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48),
            type=kind,
            user=user,
            channel=channel,
            data=data,
            created_at=self._now(),
            notifier=self._world.notifier,
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
            payload["message"] = source_message.payload(self._url())
        await self._gateway.dispatch(
            "INTERACTION_CREATE", payload, guild.id if guild is not None else None
        )
        self._world.notifier.bump()
        return interaction

    def _app_permissions(self, channel: Channel) -> int:
        """An interaction's ``app_permissions``: the bot's in the channel where it is a
        member; else what Discord gives a user-installed app (developers/interactions/
        receiving-and-responding)."""
        if channel.type is ChannelType.DM:
            return BOT_DM_APP_PERMISSIONS
        guild = self._world.guild_of(channel)
        if guild is None or not self._world.has_bot(guild):
            return PRIVATE_APP_PERMISSIONS
        return guild.permissions_in(guild.members[self._world.bot.id], channel)
