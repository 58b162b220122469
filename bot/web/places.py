"""Where a web client is and who they are there: the channel its hello names, or the Activity
instance Discord vouches for; whether they may watch; the caller they act as.

A browser names a channel of a server the bot is in (elsewhere a browser cannot be told
who is there): whoever may see it there may watch (bot.game.access). Inside
Discord the client names its Activity's instance, and nothing else it says is trusted:
the gatekeeper asks Discord where the instance runs and who is in it. Only they may watch
or play there (an unknown or ended instance, or someone not in it, is refused by name),
as a DM's recipients do (bot.game.access.RECIPIENT; the bot reaches such a game through
interactions alone), but in a server's channel the bot is in their standing is the
gatekeeper's, as for any door: the channel's game and the Activity's are one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.errors import UserError
from bot.game.access import CHANNEL as REACH_CHANNEL
from bot.game.access import (
    INSTANCE_ID,
    INTERACTIONS,
    RECIPIENT,
    Caller,
    Gatekeeper,
    Instance,
    watch_refusal,
)

if TYPE_CHECKING:
    from bot.web.sessions import User

#: A channel's id as a hello names it: ASCII digits (str.isdigit() takes "²"), 63 bits.
CHANNEL = re.compile(r"[0-9]{1,19}", re.ASCII)


@dataclass(frozen=True, slots=True)
class Activity:
    """Where a client inside Discord runs, as Discord told it: its instance, its server (0:
    a DM or a group DM), and whether the bot is in that server's channel (there, people's
    standing is the gatekeeper's, and the bot reaches the game's players by its channel)."""

    instance_id: str
    guild_id: int
    bot_there: bool


def channel_id(text: str) -> int | None:
    """The channel id a hello names (None: not one)."""
    if CHANNEL.fullmatch(text) is None:
        return None
    number = int(text)
    return number if 0 < number < 1 << 63 else None


class Places:
    """Where web clients are, and who they are there (see the module docstring)."""

    def __init__(self, gatekeeper: Gatekeeper) -> None:
        self.gatekeeper = gatekeeper

    async def participant(self, instance_id: object, user: User | None) -> Instance:
        """The Activity's instance, as Discord tells it now; UserError, by name, unless
        `user` is in it (OSError: Discord cannot say now)."""
        if user is None:  # nobody to look for (and Discord is asked nothing for them)
            raise UserError("web.error.activity_sign_in")
        found = None
        if isinstance(instance_id, str) and INSTANCE_ID.fullmatch(instance_id) is not None:
            found = await self.gatekeeper.instance(instance_id)
        if found is None:
            raise UserError("web.error.no_activity")
        if user.id not in found.users:
            raise UserError("web.error.not_in_activity")
        return found

    async def activity(self, instance_id: str, found: Instance) -> Activity:
        """Where an instance runs, for its clients: in a server's channel the bot is in, or
        elsewhere (a DM, a group DM, a server without the bot)."""
        guild = found.guild_id
        there = guild is not None and await self.gatekeeper.guild_of(found.channel_id) == guild
        return Activity(instance_id, guild or 0, there)

    async def may_watch_activity(
        self, activity: Activity, channel: int, user: User
    ) -> UserError | None:
        """Why a participant may not watch the Activity's table (None: they may): only in
        a server's channel the bot is in, where their standing there decides."""
        if not activity.bot_there:
            return None
        standing = await self.gatekeeper.standing(user.id, activity.guild_id, channel)
        return watch_refusal(await self.gatekeeper.public(channel), standing)

    async def may_watch(self, channel: int, user: User | None) -> UserError | None:
        """Why this person may not watch the channel's table (None: they may). A browser
        is shown only a channel of a server the bot is in: a DM's or a group DM's people,
        or a server's without the bot, cannot be told from a browser."""
        guild = await self.gatekeeper.guild_of(channel)
        if guild is None:
            return UserError("table.browser_elsewhere")
        public = await self.gatekeeper.public(channel)
        standing = None
        if user is not None:
            standing = await self.gatekeeper.standing(user.id, guild, channel)
        return watch_refusal(public, standing)

    async def caller(
        self, user: User | None, activity: Activity | None, guild_id: int, channel_id: int
    ) -> Caller:
        """The signed-in person as the game layer sees them, acting in `channel_id` (the
        game's channel, or its thread); in an Activity away from the bot's channels, a
        participant as in a DM, whose game the bot reaches by interactions alone."""
        assert user is not None
        if activity is not None and not activity.bot_there:  # a participant (checked first)
            standing, reach = RECIPIENT, INTERACTIONS
        else:
            standing = await self.gatekeeper.standing(user.id, guild_id, channel_id)
            reach = REACH_CHANNEL
        return Caller(
            user.id, user.name, guild_id, channel_id, standing, answers=False, reach=reach
        )
