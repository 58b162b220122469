"""A person's standing in a channel, for doors that do not carry Discord's permissions (the web).

Discord's interactions carry the member's permissions in their channel (`standing_of`); a
door that only knows who someone is (a signed-in web session) asks the `Gatekeeper`. With
the gateway's cache (a process connected to it), it answers from the cache where it holds
the facts (the server, its channels and roles, a member the cache happens to hold), and
from Discord's API where it does not (`GET /guilds/{guild}/members/{user}`). A server the
cache does not hold (one of another process's shards, when several run the bot), and
every server without the cache (a process serving the live table alone, `cached=False`),
comes from Discord's API with its roles and the channel (`GET /guilds/{guild}`,
`GET /channels/{channel}`, and a thread's parent); a process holding every shard asks
only for members, as the cache holds all the rest. Each answer is kept briefly
(MEMBER_SECONDS), so that a burst of moves costs one request. A server the bot is not
in, an account that is not a member of it, a channel it does not know: each is an
outsider's standing, never an error.

An Activity's instance (where it runs, who is in it) is Discord's word alone:
`GET /applications/{application}/activity-instances/{instance}` with the bot's token,
kept INSTANCE_SECONDS, so that a relaunch or someone leaving shows soon while a burst of
moves costs one request; Discord knowing no such instance (it ended) is kept as None.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import discord

from bot.game.access import INSTANCE_ID, OUTSIDER, RECIPIENT, Instance, Standing

log = logging.getLogger(__name__)

#: How long a member fetched from Discord is trusted (a role or a kick shows after that).
MEMBER_SECONDS = 60.0
#: Members kept at most (the oldest go first).
MEMBERS_KEPT = 4096
#: How long an Activity instance's answer is trusted, and how many are kept at most.
INSTANCE_SECONDS = 5.0
INSTANCES_KEPT = 1024
#: Discord's route telling an Activity's instance (a bot token's).
INSTANCE_ROUTE = "/applications/{application_id}/activity-instances/{instance_id}"
#: Where Discord serves pictures; an avatar is kept as its path under it.
CDN = "https://cdn.discordapp.com/"
#: Discord's error for an account that is not a member of the server.
UNKNOWN_MEMBER = 10007
_THREADS = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)
#: What `Gatekeeper._channel` finds: a server's channel, or a thread.
_Channel = discord.abc.GuildChannel | discord.Thread


def standing_from(
    permissions: discord.Permissions, roles: frozenset[int], *, thread: bool
) -> Standing:
    """A member's standing from their permissions in a channel (a thread's, if `thread`)."""
    send = permissions.send_messages_in_threads if thread else permissions.send_messages
    return Standing(
        member=True,
        view=permissions.view_channel,
        send=send,
        manage_messages=permissions.manage_messages,
        manage_guild=permissions.manage_guild,
        roles=roles,
    )


def standing_of(interaction: discord.Interaction) -> Standing:
    """The standing an interaction shows: its member's permissions in its channel."""
    if interaction.guild_id is None:  # a DM or a group DM: whoever is in it takes part
        return RECIPIENT
    # the member's role ids as Discord sent them (Member.roles would build sorted Roles)
    roles = frozenset(getattr(interaction.user, "_roles", ()))
    channel = interaction.channel
    thread = getattr(channel, "type", None) in _THREADS
    return standing_from(interaction.permissions, roles, thread=thread)


class Gatekeeper:
    """Standings looked up by who and where (see the module docstring)."""

    def __init__(
        self,
        client: discord.Client,
        clock: Callable[[], float] = time.monotonic,
        *,
        cached: bool = True,
    ) -> None:
        self.client = client
        self.clock = clock
        #: Whether the client's gateway cache holds servers (those of its shards); the
        #: others, and all without it, come from Discord's API.
        self.cached = cached
        #: Places fetched from Discord's API: until when, and the channel (or thread)
        #: built with its server (None: not one the bot may see).
        self._places: OrderedDict[int, tuple[float, _Channel | None]] = OrderedDict()
        #: Servers fetched from Discord's API: until when, and the server.
        self._guilds: OrderedDict[int, tuple[float, discord.Guild]] = OrderedDict()
        self._members: OrderedDict[tuple[int, int], tuple[float, discord.Member | None]] = (
            OrderedDict()
        )
        #: The picture each person seen lately shows (a path under Discord's CDN), by id.
        self._avatars: OrderedDict[int, str | None] = OrderedDict()
        #: Activity instances asked about lately: until when each answer holds, and it.
        self._instances: OrderedDict[str, tuple[float, Instance | None]] = OrderedDict()
        #: The instances Discord is being asked about now.
        self._asking: dict[str, asyncio.Future[Instance | None]] = {}

    async def guild_of(self, channel_id: int) -> int | None:
        """The server of a channel (or thread) the bot sees; None if unknown."""
        channel = await self._channel(channel_id)
        guild = getattr(channel, "guild", None)
        return guild.id if guild is not None else None

    async def public(self, channel_id: int) -> bool:
        """Whether the server's @everyone may view the channel (or thread)."""
        channel = await self._channel(channel_id)
        guild = getattr(channel, "guild", None)
        if guild is None or channel is None or not hasattr(channel, "permissions_for"):
            return False
        return channel.permissions_for(guild.default_role).view_channel

    async def standing(self, user_id: int, guild_id: int, channel_id: int) -> Standing:
        channel: _Channel | None
        if self._cache_answers(guild_id):
            guild = self.client.get_guild(guild_id)
            if guild is None or guild.unavailable:
                return OUTSIDER  # a server the bot is not in (or cannot see now)
            channel = guild.get_channel_or_thread(channel_id)
        else:
            channel = await self._channel(channel_id)
            guild = getattr(channel, "guild", None)
            if guild is None or guild.id != guild_id:
                return OUTSIDER  # a server the bot is not in, or not this channel's
        if channel is None:
            return OUTSIDER
        try:
            member = await self._member(guild, user_id)
        except discord.HTTPException:  # an outage: refused for now
            return OUTSIDER
        if member is None:
            return OUTSIDER
        roles = frozenset(role.id for role in member.roles)
        thread = isinstance(channel, discord.Thread)
        return standing_from(channel.permissions_for(member), roles, thread=thread)

    async def is_member(self, user_id: int, guild_id: int) -> bool:
        """Whether someone is (still) a member of a server: False only when Discord says
        they are not (an outage, or a server unknown for now, is no proof of leaving)."""
        guild: discord.Guild | None
        if self._cache_answers(guild_id):
            guild = self.client.get_guild(guild_id)
        else:
            try:
                guild = await self._guild(guild_id)
            except discord.HTTPException:
                return True
        if guild is None or guild.unavailable:
            return True
        try:
            return await self._member(guild, user_id) is not None
        except discord.HTTPException:
            return True

    def avatar(self, user_id: int) -> str | None:
        """The path, under Discord's CDN, of the picture someone seen lately chose (their
        server's or their own); None for a default picture or someone unknown."""
        return self._avatars.get(user_id)

    async def instance(self, instance_id: str) -> Instance | None:
        """Where an Activity's instance runs and who is in it, as Discord says (None: no
        such instance, or it ended); OSError when Discord cannot say now (not kept).
        Asked about at once by several (everyone reconnecting), Discord is asked once; an
        id not of Discord's form is no instance, and Discord is not asked."""
        if INSTANCE_ID.fullmatch(instance_id) is None:
            return None
        kept = self._instances.get(instance_id)
        if kept is not None and kept[0] > self.clock():
            return kept[1]
        asking = self._asking.get(instance_id)
        if asking is None:
            asking = self._asking[instance_id] = asyncio.ensure_future(self._ask(instance_id))
            asking.add_done_callback(lambda _: self._asking.pop(instance_id, None))
        return await asyncio.shield(asking)

    async def _ask(self, instance_id: str) -> Instance | None:
        """Discord's answer for an instance, kept INSTANCE_SECONDS (see `instance`)."""
        route = discord.http.Route(
            "GET",
            INSTANCE_ROUTE,
            application_id=self.client.application_id,
            instance_id=instance_id,
        )
        try:
            found = _instance(await self.client.http.request(route))
        except discord.NotFound:
            found = None
        except discord.HTTPException as exc:  # an outage: not remembered
            log.warning("could not look up Activity instance %s: %s", instance_id, exc)
            raise OSError(f"Discord could not tell instance {instance_id}") from exc
        self._instances[instance_id] = (self.clock() + INSTANCE_SECONDS, found)
        self._instances.move_to_end(instance_id)
        while len(self._instances) > INSTANCES_KEPT:
            self._instances.popitem(last=False)
        return found

    def seen(self, interaction: discord.Interaction) -> None:
        """An interaction from a server shows its member there now: kept, so that checking
        them soon after asks Discord nothing."""
        user = interaction.user
        if interaction.guild_id is not None and isinstance(user, discord.Member):
            self._keep((interaction.guild_id, user.id), user)

    def _cache_answers(self, guild_id: int | None) -> bool:
        """Whether the gateway's cache is the word on a server (None: on any channel): it
        holds every server of this process's shards, so one it lacks has not the bot."""
        if not self.cached:
            return False
        count = self.client.shard_count or 1
        shards = getattr(self.client, "shard_ids", None)
        if shards is None or set(shards) >= set(range(count)):  # every shard is held here
            return True
        return guild_id is not None and (guild_id >> 22) % count in shards

    async def _member(self, guild: discord.Guild, user_id: int) -> discord.Member | None:
        """The member, None if not one; HTTPException if Discord cannot say now."""
        cached = guild.get_member(user_id)
        if cached is not None:
            return cached
        key = (guild.id, user_id)
        kept = self._members.get(key)
        if kept is not None and kept[0] > self.clock():
            return kept[1]
        try:
            member: discord.Member | None = await guild.fetch_member(user_id)
        except discord.NotFound:
            member = None
        except discord.HTTPException as exc:  # an outage: not remembered
            log.warning("could not look up member %s of server %s: %s", user_id, guild.id, exc)
            raise
        self._keep(key, member)
        return member

    async def _channel(self, channel_id: int) -> _Channel | None:
        """A channel (or thread) with its server, from the gateway's cache where it holds
        it (or every shard's), else from Discord's API (kept MEMBER_SECONDS); None if the
        bot cannot see it."""
        held = self.client.get_channel(channel_id) if self.cached else None
        if held is not None or self._cache_answers(None):
            return held  # type: ignore[return-value]
        kept = self._places.get(channel_id)
        if kept is not None and kept[0] > self.clock():
            return kept[1]
        try:
            found = await self._fetch_channel(channel_id)
        except (discord.NotFound, discord.Forbidden):
            found = None
        except discord.HTTPException as exc:  # an outage: not remembered
            log.warning("could not look up channel %s: %s", channel_id, exc)
            return None
        self._places[channel_id] = (self.clock() + MEMBER_SECONDS, found)
        self._places.move_to_end(channel_id)
        while len(self._places) > MEMBERS_KEPT:
            self._places.popitem(last=False)
        return found

    async def _fetch_channel(self, channel_id: int) -> _Channel | None:
        """A server's channel or thread from Discord's API, built with its server and roles
        (and a thread's parent), so that permissions are computed as from the cache."""
        data: Any = await self.client.http.get_channel(channel_id)
        guild_id = data.get("guild_id")
        if guild_id is None:
            return None  # a DM or a group DM: no server to ask about
        guild = await self._guild(int(guild_id))
        if data["type"] not in {kind.value for kind in _THREADS}:
            return self._built(guild, data)
        if self._built(guild, await self.client.http.get_channel(int(data["parent_id"]))) is None:
            return None
        thread = discord.Thread(guild=guild, state=self.client._connection, data=data)
        guild._add_thread(thread)
        return thread

    def _built(self, guild: discord.Guild, data: Any) -> discord.abc.GuildChannel | None:
        """A server's channel from Discord's answer, added to `guild` (None: not one)."""
        factory, _ = discord.channel._guild_channel_factory(data["type"])
        if factory is None or data.get("guild_id") != str(guild.id):
            return None
        channel = factory(state=self.client._connection, guild=guild, data=data)
        guild._add_channel(channel)
        return channel

    async def _guild(self, guild_id: int) -> discord.Guild:
        """A server with its roles, from Discord's API, kept MEMBER_SECONDS (HTTPException:
        Discord would not say)."""
        kept = self._guilds.get(guild_id)
        if kept is not None and kept[0] > self.clock():
            return kept[1]
        guild = await self.client.fetch_guild(guild_id, with_counts=False)
        self._guilds[guild_id] = (self.clock() + MEMBER_SECONDS, guild)
        self._guilds.move_to_end(guild_id)
        while len(self._guilds) > MEMBERS_KEPT:
            self._guilds.popitem(last=False)
        return guild

    def _keep(self, key: tuple[int, int], member: discord.Member | None) -> None:
        self._members[key] = (self.clock() + MEMBER_SECONDS, member)
        self._members.move_to_end(key)
        while len(self._members) > MEMBERS_KEPT:
            self._members.popitem(last=False)
        if member is not None:
            chosen = member.guild_avatar or member.avatar
            self._avatars[member.id] = (
                chosen.with_format("png").with_size(64).url.removeprefix(CDN) if chosen else None
            )
            self._avatars.move_to_end(member.id)
            while len(self._avatars) > MEMBERS_KEPT:
                self._avatars.popitem(last=False)


def _instance(data: object) -> Instance | None:
    """An instance from Discord's answer (None: not one, as if Discord knew none)."""
    try:
        location = data["location"]  # type: ignore[index]
        guild = location.get("guild_id")
        return Instance(
            channel_id=int(location["channel_id"]),
            guild_id=int(guild) if guild is not None else None,
            users=frozenset(int(user) for user in data["users"]),  # type: ignore[index]
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        log.warning("Discord's answer for an Activity instance could not be read")
        return None
