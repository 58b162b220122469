"""Whether the bot may post in a game's channel, what it lacks there, and channels deleted.

The channel routes (a board edited or posted when no interaction token is usable, notices,
pings, the old board's stub) need View Channel and Send Messages (Send Messages in Threads
in a thread) and Embed Links for the board's and reports' embeds. Attach Files is not
needed: without it the board and the reports are in words (`files_refused`), and the
channel is told once. Read Message History, which the invite asks for, is
needed by no route the bot uses (it reads no message). Interaction tokens need none of
them: a player's click or command works, and carries what follows it, whatever the
channel allows. A game in a thread of its own needs them in its thread (its parent's
permissions, Send Messages in Threads standing for Send Messages); opening the thread
needs Create Public Threads too (bot.discord.threads), named here like the others.

A channel that refuses the bot is noted once (logged once at WARNING, until the bot may
post there again), by what the gateway told of its permissions, by an interaction's
`app_permissions`, or by Discord's 403 (Missing Access, 50001; Missing Permissions, 50013):
the outbox sends no request there that needs what it lacks (`blocks`) until the
permissions come back (a channel or role update, or an interaction that shows them), and
keeps what it could not send meanwhile. A game's thread that a moderator archived and
locked refuses every new message and edit (Discord's 50083, archived thread) although the
bot's permissions allow them: it is noted `Closed`, a refusal like the others, until the
gateway tells it is open again.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from time import monotonic
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n.catalogs import t
from bot.views.render import and_list

if TYPE_CHECKING:
    from bot.table import Table

log = logging.getLogger(__name__)

#: Discord's errors for a channel the bot cannot see, cannot act in, or that is gone.
MISSING_ACCESS, MISSING_PERMISSIONS, UNKNOWN_CHANNEL = 50001, 50013, 10003
#: Discord's error for an interaction answered too late (or twice).
UNKNOWN_INTERACTION = 10062
#: Discord's error for a message posted or edited in an archived thread (a new message
#: opens it again, unless a moderator locked it).
ARCHIVED = 50083
#: What the channel routes need, by discord.py's names (pictures need Attach Files too,
#: but a channel without it gets the board in words instead).
NEEDED = ("view_channel", "send_messages", "embed_links")
IN_THREADS = {"send_messages": "send_messages_in_threads"}
#: Seconds what was told of a channel's Attach Files stands before the gateway's record is
#: read again (an interaction there tells it anew, and a refused upload teaches it at once).
TOLD_FOR = 30.0
_IN_CHANNELS = {thread: channel for channel, thread in IN_THREADS.items()}
#: The permissions whose names the catalogs keep with game threads' messages.
_THREAD_KEYS = frozenset(("create_public_threads",))


class ChannelUnusable(Exception):
    """A request to the game's channel cannot be sent (see the subclasses)."""

    def __init__(self, table: Table) -> None:
        super().__init__(f"channel {table.channel_id} of game {table.id}")
        self.table = table


class Refused(ChannelUnusable):
    """The channel refuses the bot (permissions): what was to be sent waits."""


class Closed(Refused):
    """The game's thread is archived and takes no message from the bot (a moderator locked
    it): what was to be sent waits, as for a refusal, until it is opened again."""


class Gone(ChannelUnusable):
    """The channel was deleted: nothing is sent there any more."""


class Unreachable(Refused):
    """A game reached through interactions alone (bot.game.access INTERACTIONS: no channel
    route works where the bot is not a member) has no token usable for this: what was to
    be posted waits for the next interaction there; what would only edit or delete a
    message whose token is gone is given up (`given_up`)."""

    def __init__(self, table: Table, given_up: bool = False) -> None:
        super().__init__(table)
        self.given_up = given_up


class NoFiles(ChannelUnusable):
    """The channel refused a picture (no Attach Files): what carried it is sent again in
    words."""


def lacking(permissions: discord.Permissions, *, thread: bool = False) -> tuple[str, ...]:
    """What the bot lacks of what it needs, by discord.py's names (View Channel alone when
    it cannot even see the channel: nothing else counts then)."""
    if not permissions.view_channel:
        return ("view_channel",)
    return tuple(name for name in needed(thread) if not getattr(permissions, name))


def needed(thread: bool) -> tuple[str, ...]:
    """What the channel routes need, in a thread or a channel, by discord.py's names."""
    return tuple(IN_THREADS.get(name, name) for name in NEEDED) if thread else NEEDED


def in_thread(channel: object) -> bool:
    """Whether an interaction's channel (as discord.py gave it) is a thread."""
    return isinstance(channel, discord.Thread)


def blocks(
    missing: tuple[str, ...], method: str, payload: dict[str, Any] | None, upload: bool
) -> bool:
    """Whether lacking `missing` keeps a channel-route request from going through: every one
    needs View Channel, a new message Send Messages, embeds Embed Links, a file Attach Files
    (editing or deleting its own message needs nothing more)."""
    needed = {"view_channel"}
    if method == "POST":
        needed.add("send_messages")
    if payload and payload.get("embeds"):
        needed.add("embed_links")
    if upload:
        needed.add("attach_files")
    return any(_IN_CHANNELS.get(name, name) in needed for name in missing)


def named(missing: tuple[str, ...], language: str) -> str:
    """The permissions as Discord's settings name them, in bold: "**Send Messages** and
    **Embed Links**"."""
    keys = [f"thread.permission.{n}" if n in _THREAD_KEYS else f"permission.{n}" for n in missing]
    return and_list([f"**{t(language, key)}**" for key in keys], language)


@dataclass
class _Refusal:
    table: Table
    missing: tuple[str, ...]
    #: Who was told, by DM ("dm") or privately in the channel ("here"): each once while it lasts.
    told: set[tuple[str, int]] = field(default_factory=set)


class Access:
    """The channels that refuse the bot (each noted once) and the deleted ones."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self._refusals: dict[int, _Refusal] = {}
        self._gone: set[int] = set()
        #: Threads found archived and closed to the bot (Discord answered 50083).
        self._closed: set[int] = set()
        #: Channels that refuse the bot Attach Files, as last learnt (True: they allow it).
        self._files: dict[int, bool] = {}
        #: When each channel's Attach Files was last told (an interaction, a refused upload).
        self._told: dict[int, float] = {}

    def gone(self, channel_id: int) -> bool:
        return channel_id in self._gone

    def forget(self, channel_id: int) -> None:
        """The channel was deleted: it is gone for good."""
        self._gone.add(channel_id)
        self._refusals.pop(channel_id, None)
        self._closed.discard(channel_id)

    def closed(self, table: Table) -> bool:
        """Whether the game's thread was found closed to the bot (archived, and locked by a
        moderator) and the gateway has not told since that it is open again."""
        if table.channel_id not in self._closed:
            return False
        guild = self.client.get_guild(table.guild_id)
        thread = None if guild is None else guild.get_thread(table.channel_id)
        if thread is not None and not thread.archived:  # (an archived one is not listed)
            self._closed.discard(table.channel_id)
            log.info("thread %d of game %d is open again", table.channel_id, table.id)
            return False
        return True

    def note_closed(self, table: Table) -> None:
        """Discord refused a message in the game's thread: archived, and closed to the bot
        (logged once, until it is open again)."""
        if table.channel_id in self._closed:
            return
        self._closed.add(table.channel_id)
        log.warning(
            "thread %d of game %d is archived and locked: the game goes on through its "
            "players' panels; its board and posts wait until a moderator opens it again",
            table.channel_id,
            table.id,
        )

    def refused(self, table: Table) -> tuple[str, ...]:
        """What the channel's routes would refuse for lack of permissions (empty: none, as
        far as the bot knows): as noted, else as the gateway told the channel's permissions."""
        refusal = self._refusals.get(table.channel_id)
        if refusal is not None:
            return refusal.missing
        return self.cached(table) or ()

    def needed(self, table: Table) -> tuple[str, ...]:
        """What the channel routes need in the table's channel (a thread's names for a game
        in a thread, as the table or the gateway tells)."""
        known = self._permissions(table)
        return needed(table.parent_id is not None or (known is not None and known[1]))

    def cached(self, table: Table) -> tuple[str, ...] | None:
        """What the bot lacks in the table's channel by the gateway's record of it; None
        when the gateway did not tell (yet)."""
        return self.lacking_in(table.guild_id, table.channel_id)

    def lacking_in(self, guild_id: int, channel_id: int) -> tuple[str, ...] | None:
        """What the bot lacks of what the channel routes need in a channel of a server (a
        lobby to post there, say), by the gateway's record; None when it did not tell."""
        known = self._permissions_in(guild_id, channel_id)
        if known is None:
            return None
        permissions, thread = known
        return lacking(permissions, thread=thread)

    def _permissions(self, table: Table) -> tuple[discord.Permissions, bool] | None:
        """The bot's permissions in the table's channel by the gateway's record, and whether
        it is a thread; None when the gateway did not tell (yet)."""
        return self._permissions_in(table.guild_id, table.channel_id)

    def _permissions_in(
        self, guild_id: int, channel_id: int
    ) -> tuple[discord.Permissions, bool] | None:
        guild = self.client.get_guild(guild_id)
        if guild is None or guild.unavailable or guild.me is None:
            return None
        channel = guild.get_channel_or_thread(channel_id)
        if channel is None:
            return None
        return channel.permissions_for(guild.me), isinstance(channel, discord.Thread)

    def files(self, table: Table, allowed: bool | None = None) -> bool | None:
        """Whether the channel lets the bot attach files, learnt from `allowed` (an
        interaction's permissions, or a refused upload: False) or else the gateway's record;
        True or False when that changed what the bot knew, None when nothing changed.
        What was told stands for `TOLD_FOR` seconds: the gateway's record is read only
        after (working it out from the roles was a sizeable part of drawing a board)."""
        now = monotonic()
        if allowed is not None:
            self._told[table.channel_id] = now
        elif now - self._told.get(table.channel_id, -TOLD_FOR) < TOLD_FOR:
            return None
        else:
            known = self._permissions(table)
            if known is None:
                return None
            allowed = known[0].attach_files
        if self._files.get(table.channel_id, True) == allowed:
            self._files[table.channel_id] = allowed
            return None
        self._files[table.channel_id] = allowed
        return allowed

    def note(self, table: Table, missing: tuple[str, ...]) -> bool:
        """The channel refuses the bot `missing`; whether that is news (then logged, once)."""
        refusal = self._refusals.get(table.channel_id)
        if refusal is not None:
            refusal.missing = missing or refusal.missing
            return False
        self._refusals[table.channel_id] = _Refusal(table, missing)
        log.warning(
            "cannot post in channel %d of server %d (game %d): missing %s; the game goes on "
            "through its players' interactions, and what could not be sent waits until the "
            "bot may post there again",
            table.channel_id,
            table.guild_id,
            table.id,
            named(missing, "en").replace("**", ""),
        )
        return True

    def first_time_for(self, channel_id: int, user_id: int, where: str) -> bool:
        """Whether `user_id` is yet to be told, `where` ("dm", or "here": privately in the
        channel), that the channel refuses the bot (now told)."""
        refusal = self._refusals.get(channel_id)
        if refusal is None or (where, user_id) in refusal.told:
            return False
        refusal.told.add((where, user_id))
        return True

    def recheck(self, table: Table) -> bool | None:
        """The gateway's record of the channel changed: True if the bot now lacks nothing
        there (the refusal ends), False if it still lacks something (what is kept up to date),
        None if the record says nothing of it."""
        missing = self.cached(table)
        if missing is None:
            return None
        if not missing:
            return self.allowed(table.channel_id)
        refusal = self._refusals.get(table.channel_id)
        if refusal is not None:
            refusal.missing = missing
        return False

    def allowed(self, channel_id: int) -> bool:
        """The bot may post in the channel (again); whether it had been refused."""
        refusal = self._refusals.pop(channel_id, None)
        if refusal is not None:
            log.info("may post in channel %d again (game %d)", channel_id, refusal.table.id)
        return refusal is not None

    def refusing(self, guild_id: int) -> list[Table]:
        """The tables whose channel in this server refuses the bot."""
        return [r.table for r in self._refusals.values() if r.table.guild_id == guild_id]
