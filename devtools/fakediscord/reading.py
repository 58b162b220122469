"""What the bot did, as tests read it: its messages in a channel (as a user sees them), its
DMs, the messages that notified someone, the commands it synced, a token's follow-ups."""

from __future__ import annotations

from typing import Any

from .state import Channel, Guild, Interaction, Member, Message, User, World


class Reader:
    """Reads the fake's world for tests."""

    def __init__(self, world: World) -> None:
        self._world = world

    def notified(self, user: User | Member | int) -> list[Message]:
        """The messages that notified ``user`` (mentioned and let through), oldest first."""
        user_id = self._world.user(user).id
        return [m for m in self._world.messages.values() if user_id in m.notified]

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
        viewer = self._world.user(seen_by).id if seen_by is not None else None
        return [
            message
            for message in self._world.messages.values()
            if message.channel_id == channel_id
            and (include_deleted or not message.deleted)
            and (viewer is None or message.seen_by(viewer))
        ]

    def dms(self, user: User | Member | int) -> list[Message]:
        """The bot's DMs to a user, oldest first."""
        user = self._world.user(user)
        channel = self._world.dm_channels.get(user.id)
        return self.messages(channel) if channel is not None else []

    def followups_of(self, interaction: Interaction) -> int:
        """How many follow-ups the bot created with the interaction's token (the one that
        filled a deferred response included): at most 5 when only a user install
        authorized the interaction."""
        return interaction.followup_posts

    def synced_commands(self, guild: Guild | int | None = None) -> list[dict[str, Any]]:
        """The commands the bot synced globally, or for ``guild``."""
        if guild is None:
            return self._world.global_commands
        return self._world.guild_commands.get(self._world.guild(guild).id, [])
