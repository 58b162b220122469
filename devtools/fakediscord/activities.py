"""Activity instances: launched in a channel, joined and left by people, ended by the last
one out (its id unknown from then on), as on Discord."""

from __future__ import annotations

from .commands import InvalidInvocation
from .state import ActivityInstance, Channel, Member, User, World


class Activities:
    """The running Activity instances of the fake's world (``World.activity_instances``)."""

    def __init__(self, world: World) -> None:
        self._world = world

    def launch_activity(self, channel: Channel | int, *users: User | Member | int) -> str:
        """These users start the Activity in a channel they can see (a server channel, a DM
        or group DM); where one is running already they join it, as on Discord. Returns the
        instance id (a new instance gets a new id and ``launch_id``)."""
        channel = self._world.channel(channel)
        people = [self._world.user(user) for user in users]
        if not people:
            raise InvalidInvocation("an Activity is launched by someone")
        for user in people:
            if not self._world.can_view(user, channel):
                raise InvalidInvocation(f"user {user.id} cannot see channel {channel.id}")
        return self.open_activity(channel, people)

    def open_activity(self, channel: Channel, users: list[User]) -> str:
        """Discord's side of a launch: the Activity starts in `channel` (or the running one
        is joined) with `users`, unchecked; the instance id."""
        running = self.instance_in(channel)
        if running is None:
            instance = ActivityInstance(self._world.snowflake(), channel)
            self._world.activity_instances[instance.id] = instance
            running = instance.id
        for user in users:
            self.join_instance(running, user)
        return running

    def join_instance(self, instance_id: str, user: User | Member | int) -> None:
        """A user joins a running Activity instance (KeyError if it is not running)."""
        instance = self._world.activity_instances[instance_id]
        user_id = self._world.user(user).id
        if user_id not in instance.users:
            instance.users.append(user_id)
        self._world.notifier.bump()

    def leave_instance(self, instance_id: str, user: User | Member | int) -> None:
        """A user leaves an Activity instance; when the last one leaves it ends, and its id
        is unknown from then on (the next launch there gets a new one)."""
        instance = self._world.activity_instances[instance_id]
        user_id = self._world.user(user).id
        if user_id in instance.users:
            instance.users.remove(user_id)
        if not instance.users:
            del self._world.activity_instances[instance_id]
        self._world.notifier.bump()

    def instance_in(self, channel: Channel | int) -> str | None:
        """The id of the Activity instance running in a channel, if any."""
        channel_id = channel.id if isinstance(channel, Channel) else channel
        return next(
            (i.id for i in self._world.activity_instances.values() if i.channel.id == channel_id),
            None,
        )

    def activity_instance(self, instance_id: str) -> ActivityInstance | None:
        """A running Activity instance (its channel and users), or None."""
        return self._world.activity_instances.get(instance_id)
