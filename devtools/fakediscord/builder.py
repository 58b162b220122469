"""The world a test builds before the bot connects: guilds with their roles, channels and
members, users, group DMs, user installs, Activities enabled, DMs opened or closed.

Guilds, channels and members added after the bot connected are not announced over the
gateway (as nothing on Discord would make them appear unannounced).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .commands import PRIMARY_ENTRY_POINT, EntryPointHandler, find_entry_point
from .state import (
    DEFAULT_EVERYONE_PERMISSIONS,
    Channel,
    ChannelType,
    Guild,
    Member,
    Role,
    User,
    World,
)


class Builder:
    """Adds records to the fake's world as Discord would hold them."""

    def __init__(self, world: World) -> None:
        self._world = world

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
        world = self._world
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
        guild = self._world.guild(guild)
        role = Role(self._world.snowflake(), guild.id, name, permissions, len(guild.roles))
        guild.roles[role.id] = role
        return role

    def add_text_channel(self, guild: Guild | int, name: str) -> Channel:
        """Add a text channel to a guild."""
        guild = self._world.guild(guild)
        channel = Channel(
            self._world.snowflake(), ChannelType.GUILD_TEXT, name, guild.id, len(guild.channels)
        )
        guild.channels[channel.id] = self._world.channels[channel.id] = channel
        return channel

    def add_group_dm(
        self,
        *users: User | Member | int,
        name: str | None = None,
        shard: tuple[int, int] | None = None,
    ) -> Channel:
        """A group DM of these users (the first one made it); the bot is never in one, so
        its channel routes there answer 403 Missing Access (50001). Commands reach it only
        through a user install, and anyone in it can click the bot's messages there.
        `shard`: (id, count), one whose id falls in that shard (as a game without a server
        belongs to its channel's shard; its interactions still arrive on shard 0)."""
        recipients = [self._world.user(user) for user in users]
        if not recipients:
            raise ValueError("a group DM has recipients")
        channel = Channel(
            self._world.snowflake(shard),
            ChannelType.GROUP_DM,
            name or "",
            recipients=recipients,
            owner_id=recipients[0].id,
        )
        self._world.channels[channel.id] = channel
        return channel

    def install_commands(self, guild: Guild | int) -> None:
        """The server installs the app's commands without its bot user (the
        applications.commands scope alone): its members' interactions are authorized by the
        guild install, while the bot stays no member (``add_guild(bot_member=False)``)."""
        self._world.command_installs.add(self._world.guild(guild).id)
        self._world.notifier.bump()

    def install_for_user(self, user: User | Member | int) -> None:
        """The user installs the app to their account (a user install): the commands whose
        ``integration_types`` hold 1 work for them wherever their ``contexts`` allow."""
        self._world.user_installs.add(self._world.user(user).id)
        self._world.notifier.bump()

    def enable_activities(self) -> dict[str, Any]:
        """Enable Activities, as in the developer portal: Discord creates the global Entry
        Point command "launch" (type 4, handler 2: Discord launches the Activity). Its
        ``integration_types`` [0, 1] and ``contexts`` [0, 1, 2] are the fake's assumption
        (unverified). Returns the command; enabling twice keeps the one there is."""
        world = self._world
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
        self._world.notifier.bump()
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
        world = self._world
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
        guild = self._world.guild(guild)
        user = self.add_user(name, user_id=user_id, dms_open=dms_open, locale=locale)
        role_ids = [r.id if isinstance(r, Role) else guild.role_named(r).id for r in roles]
        member = guild.members[user.id] = Member(user, guild.id, role_ids)
        return member

    def set_dms_open(self, user: User | Member | int, is_open: bool) -> None:
        """Open or close a user's DMs; sending to closed DMs gets 403, code 50007."""
        self._world.user(user).dms_open = is_open
