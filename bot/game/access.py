"""Who may do what here: one answer for every door (Discord's messages, the live table, ...).

A door says who is asking and what it knows of them where they ask (`Standing`: member of
the server, may view the channel, may send there, their roles and the permissions that make
a moderator). The game layer decides from it, by one policy (`check`): a member of the server
who can view the channel may see its game; to play (open, join, start, move, crewmates,
Play again) they must also be able to send messages there; the host or a moderator may end,
skip and kick; a moderator may reset. A moderator has Manage Messages in the channel or the
server's moderator role (`/apophis config`). Whoever is refused is told why by name, and
nothing changes.

How a door learns a `Standing` is its own affair: Discord's interactions carry the member's
permissions in the channel; the web door asks a `Gatekeeper` (the gateway's cache, then
Discord's API, briefly cached); a third door (an Activity instance's participants, a group
DM's members) plugs in its own. The Activity's door asks the gatekeeper where an
Activity's instance runs and who is in it (`Instance`), as Discord says, never the client.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from bot.errors import UserError
from bot.table import Table


@dataclass(frozen=True, slots=True)
class Standing:
    """What a door knows of a person where they act (a server's channel, or a thread)."""

    #: A member of the server the channel belongs to.
    member: bool
    #: May view the channel (and so its game), and send messages there (play).
    view: bool
    send: bool
    #: Manage Messages in the channel; Manage Server in the server.
    manage_messages: bool = False
    manage_guild: bool = False
    #: Their roles in the server (the moderator role is one of the server's settings).
    roles: frozenset[int] = frozenset()


#: Someone the server does not know (no member there, or a server that shares nothing).
OUTSIDER = Standing(member=False, view=False, send=False)
#: Someone in a DM or a group DM: everyone there sees it and writes in it, and nobody is a
#: moderator (the host still ends, skips and kicks).
RECIPIENT = Standing(member=True, view=True, send=True)

#: How the bot reaches a place's players: through its channel (the bot is a member of the
#: server, or it is the bot's DM), or through interactions alone (a user-installed app in a
#: server without the bot, a DM or a group DM: no channel route works there).
CHANNEL, INTERACTIONS = "channel", "interactions"


@dataclass(frozen=True, slots=True)
class Caller:
    """A person acting through a door: who, by what name, in which channel, with what standing."""

    user_id: int
    name: str | None
    guild_id: int
    channel_id: int
    standing: Standing
    #: Whether the door's answer carries what follows (a Discord interaction's token);
    #: if not (the web), what the command caused is sent at once.
    answers: bool = True
    #: How the bot reaches the place (CHANNEL or INTERACTIONS): a game opened there keeps it.
    reach: str = CHANNEL


#: An Activity's instance id as Discord makes them (`i-<launch>-gc-<server>-<channel>`): ASCII
#: letters, digits and dashes, so that it is one path segment of Discord's URLs ("." and ".."
#: would climb out of it).
INSTANCE_ID = re.compile(r"[0-9A-Za-z][0-9A-Za-z-]{0,127}", re.ASCII)


@dataclass(frozen=True, slots=True)
class Instance:
    """A Discord Activity's instance, as Discord tells it: where it runs, who is in it."""

    #: The channel it runs in (a server's, a DM or a group DM): its game's place.
    channel_id: int
    #: The server of that channel (None: a DM or a group DM).
    guild_id: int | None
    #: Who is in it now.
    users: frozenset[int]


class Gatekeeper(Protocol):
    """How a door that does not carry permissions learns a person's standing in a channel,
    whether a channel is public (its server's @everyone may view it), whether someone
    is still a member of a server (a lobby's seats and invitations), and where an
    Activity's instance runs and who is in it (None: Discord knows no such instance, or
    it ended; OSError: Discord cannot say now)."""

    async def standing(self, user_id: int, guild_id: int, channel_id: int) -> Standing: ...

    async def guild_of(self, channel_id: int) -> int | None: ...

    async def public(self, channel_id: int) -> bool: ...

    async def is_member(self, user_id: int, guild_id: int) -> bool: ...

    def avatar(self, user_id: int) -> str | None: ...

    async def instance(self, instance_id: str) -> Instance | None: ...


def is_moderator(standing: Standing, moderator_role: int | None) -> bool:
    """Manage Messages in the channel, or the server's moderator role."""
    if standing.manage_messages:
        return True
    return moderator_role is not None and moderator_role in standing.roles


def _unseeing(standing: Standing) -> UserError | None:
    """Why this person may not see the channel's game (None: they may)."""
    if not standing.member:
        return UserError("seat.not_member")
    return None if standing.view else UserError("seat.cannot_view")


def may_see(standing: Standing) -> None:
    """UserError, by name, unless this person may see the channel's game."""
    refusal = _unseeing(standing)
    if refusal is not None:
        raise refusal


def watch_refusal(public: bool, standing: Standing | None) -> UserError | None:
    """Why a channel's table may not be watched (None: it may): anyone with its link may
    where the server's @everyone may view the channel, else a member who may view it
    (`standing`, None for someone not signed in)."""
    if public:
        return None
    if standing is None:
        return UserError("seat.sign_in_to_watch")
    return _unseeing(standing)


def may_play(standing: Standing) -> None:
    """UserError, by name, unless this person may take part in the channel's game."""
    may_see(standing)
    if not standing.send:
        raise UserError("seat.cannot_send")


def may_run(caller: Caller, table: Table, moderator_role: int | None) -> None:
    """UserError unless the caller hosts `table` or moderates here (end, skip, kick)."""
    may_see(caller.standing)
    if caller.user_id != table.host_id and not is_moderator(caller.standing, moderator_role):
        raise UserError("error.host_or_moderator")


def may_moderate(caller: Caller, moderator_role: int | None) -> None:
    """UserError unless the caller moderates here (reset)."""
    may_see(caller.standing)
    if not is_moderator(caller.standing, moderator_role):
        raise UserError("error.moderators_reset")
