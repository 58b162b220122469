"""What people do on Discord that is no interaction: a moderator's channel settings and
deletions, a user's post, an ephemeral message dismissed; Discord ending a token early.

A connected bot hears of each as on Discord (CHANNEL_UPDATE, CHANNEL_DELETE, THREAD_DELETE,
MESSAGE_CREATE when it asked for message events).
"""

from __future__ import annotations

from collections.abc import Callable

from .gateway import Gateway
from .state import (
    GUILD_MESSAGES,
    Channel,
    Interaction,
    Member,
    Message,
    Overwrite,
    OverwriteType,
    Role,
    User,
    World,
    notified_by,
)
from .threads import ThreadControls


class People:
    """Acts in the fake's world as people do, outside interactions."""

    def __init__(
        self, world: World, gateway: Gateway, threads: ThreadControls, *, url: Callable[[], str]
    ) -> None:
        self._world = world
        self._gateway = gateway
        self._threads = threads
        self._url = url

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
        channel = self._world.channel(channel)
        if isinstance(target, Role):
            kind, target_id = OverwriteType.ROLE, target.id
        else:
            kind, target_id = OverwriteType.MEMBER, self._world.user(target).id
        kept = [o for o in channel.overwrites if (o.type, o.id) != (kind, target_id)]
        if allow or deny:
            kept.append(Overwrite(target_id, kind, allow, deny))
        channel.overwrites = kept
        self._world.notifier.bump()
        await self._gateway.announce("CHANNEL_UPDATE", channel)

    async def delete_channel(self, channel: Channel | int) -> None:
        """Delete a guild channel or thread: a connected bot gets CHANNEL_DELETE (a thread:
        THREAD_DELETE), and its routes answer 404 Unknown Channel (10003) from now on; a
        text channel's threads go with it. Its messages stay readable by tests."""
        channel = self._world.channel(channel)
        if channel.guild_id is None:
            raise ValueError("only a guild's channels can be deleted")
        guild = self._world.guild(channel.guild_id)
        if channel.is_thread:
            del guild.threads[channel.id]
        else:
            del guild.channels[channel.id]
            for thread in [t for t in guild.threads.values() if t.parent_id == channel.id]:
                del guild.threads[thread.id], self._world.channels[thread.id]
        del self._world.channels[channel.id]
        self._world.notifier.bump()
        if channel.is_thread:
            await self._gateway.announce("THREAD_DELETE", channel)
        else:
            await self._gateway.announce("CHANNEL_DELETE", channel)

    async def say(self, channel: Channel | int, user: User | Member | int, content: str) -> Message:
        """A user posts in a channel; the bot gets MESSAGE_CREATE if it asked for message
        events (the GUILD_MESSAGES intent), as on Discord. Posting unarchives a thread."""
        channel, user = self._world.channel(channel), self._world.user(user)
        if channel.archived:
            await self._threads.set_thread(channel, archived=False)
        message = self._world.add_message(
            channel, author=user, content=content, notified=notified_by(content, None)
        )
        guild = self._world.guild_of(channel)
        session = self._gateway.session_for(channel.guild_id)
        if (
            guild is not None
            and self._world.has_bot(guild)
            and session is not None
            and session.intents & GUILD_MESSAGES
        ):
            payload = message.payload(self._url())
            payload["member"] = guild.members[user.id].payload(with_user=False)
            await self._gateway.dispatch("MESSAGE_CREATE", payload, channel.guild_id)
        return message

    def dismiss(self, message: Message | int) -> None:
        """A user dismisses an ephemeral message: editing it through its token gets 404."""
        message = self._world.message(message)
        if not message.ephemeral:
            raise ValueError("only ephemeral messages can be dismissed")
        message.deleted = True
        self._world.notifier.bump()

    def expire_token(self, interaction: Interaction) -> None:
        """Discord ends an interaction's token early: its uses get 401, code 50027 (not a
        violation; using a token past its 15 minutes is)."""
        interaction.token_expired = True
