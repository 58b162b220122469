"""Public threads in the fake: started from a message, posted in, archived, as on Discord.

What Discord's documentation says of them (developers/topics/threads, resources/channel),
and the fake does:

- ``POST /channels/{channel_id}/messages/{message_id}/threads`` starts a public thread from
  a message of a text channel; the thread has the message's id, so a message has one thread
  at most (a second: 400, code 160004), and a thread cannot be started in a thread or a DM
  (400, code 50024). It needs Create Public Threads (else 403, code 50013). The bot's
  session gets THREAD_CREATE.
- A thread has its parent's permissions, except that Send Messages in Threads stands for
  Send Messages there (to post, and for the embeds and files that come with it).
- An archived thread takes no edit of a message (400, code 50083) but lets messages be
  deleted. A new message (the bot's, a follow-up or an interaction's response) unarchives
  it, unless it is locked and the bot lacks Manage Threads (then 400, code 50083): the
  bot's session gets THREAD_UPDATE. Discord offers no slash command in an archived thread.
- ``PATCH /channels/{channel_id}`` edits a thread: archiving it, or changing its name or
  its auto-archive duration, is for its creator or Manage Threads; locking for Manage
  Threads; unarchiving needs Send Messages in Threads (Manage Threads while it is locked).
  Editing an archived thread without unarchiving it is refused (400, code 50083).
  THREAD_UPDATE follows.
- GUILD_CREATE lists a guild's active threads; deleting a thread sends THREAD_DELETE, and
  deleting a text channel deletes its threads with it (only CHANNEL_DELETE is sent).

`ThreadRoutes` serves the routes, `post_into` and `check_editable` are the rules every
message route applies; `ThreadControls` lets tests start, archive and lock
threads as people do.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from .access import bot_permissions, request_channel
from .gateway import Gateway
from .state import (
    CREATE_PUBLIC_THREADS,
    DEFAULT_AUTO_ARCHIVE,
    EPHEMERAL,
    MANAGE_THREADS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    Channel,
    ChannelType,
    Member,
    Message,
    User,
    ViolationKind,
    World,
    utcnow,
)
from .violations import Violations
from .wire import BODY, DiscordError, json_response, require

#: Discord's answer to anything but a deletion in an archived thread.
ARCHIVED = (400, 50083, "Operation cannot be performed on an archived thread")


def sends_in(channel: Channel) -> int:
    """The permission that lets one post in a channel."""
    return SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES


def new_thread(parent: Channel, message_id: int, name: str, owner_id: int, **state: Any) -> Channel:
    """A public thread of `parent`, started from its message `message_id` (whose id it takes)."""
    return Channel(
        message_id,
        ChannelType.PUBLIC_THREAD,
        name,
        parent.guild_id,
        parent_id=parent.id,
        owner_id=owner_id,
        **state,
    )


def post_into(world: World, gateway: Gateway, channel: Channel, permissions: int) -> None:
    """A new message is about to go into `channel`: an archived thread is unarchived for it,
    unless it is locked and the bot may not manage threads (then refused)."""
    if not (channel.is_thread and channel.archived):
        return
    if channel.locked and not permissions & MANAGE_THREADS:
        raise DiscordError(*ARCHIVED)
    channel.archived, channel.archive_timestamp = False, utcnow()
    world.notifier.bump()
    gateway.announce_soon("THREAD_UPDATE", channel)


def check_editable(world: World, message: Message) -> None:
    """Refuse an edit of a message of an archived thread (ephemeral ones are not part of the
    thread: only their token reaches them)."""
    channel = world.channels.get(message.channel_id)
    if channel is not None and channel.archived and not message.flags & EPHEMERAL:
        raise DiscordError(*ARCHIVED)


class ThreadRoutes:
    """The thread routes of the fake's REST API (a part of `devtools.fakediscord.rest.RestApi`,
    whose message routes apply `post_into` and `check_editable` as the token's do)."""

    def __init__(
        self, world: World, gateway: Gateway, violations: Violations, threads: ThreadControls
    ) -> None:
        self._world = world
        self._gateway = gateway
        self._violations = violations
        self._threads = threads

    async def create_thread_from_message(self, request: web.Request) -> web.Response:
        """POST /channels/{channel_id}/messages/{message_id}/threads."""
        parent = request_channel(self._world, request)
        if parent.type is not ChannelType.GUILD_TEXT:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        message = self._world.messages.get(int(request.match_info["message_id"]))
        if (
            message is None
            or message.deleted
            or message.ephemeral
            or message.channel_id != parent.id
        ):
            raise DiscordError(404, 10008, "Unknown Message")
        require(bot_permissions(self._world, parent), CREATE_PUBLIC_THREADS)
        if message.id in self._world.channels:
            raise DiscordError(400, 160004, "A thread has already been created for this message")
        body = request[BODY]
        thread = await self._threads.start_thread(
            message,
            body["name"],
            by=self._world.bot,
            auto_archive_duration=body.get("auto_archive_duration") or DEFAULT_AUTO_ARCHIVE,
        )
        return json_response(thread.payload(), status=201)

    async def edit_channel(self, request: web.Request) -> web.Response:
        """PATCH /channels/{channel_id}: a thread's archived, locked, name, auto-archive."""
        thread = request_channel(self._world, request)
        if not thread.is_thread:
            self._violations.record(
                ViolationKind.UNIMPLEMENTED_ROUTE, "the fake edits threads only", request
            )
            raise DiscordError(400, 50035, "Invalid Form Body")
        body = request[BODY] or {}
        permissions = bot_permissions(self._world, thread)
        moderator = bool(permissions & MANAGE_THREADS)
        unarchiving = body.get("archived") is False
        if thread.archived and not unarchiving:
            raise DiscordError(*ARCHIVED)
        if "locked" in body and not moderator:
            raise DiscordError(403, 50013, "Missing Permissions")
        creators = {"archived", "name", "auto_archive_duration"} - (
            {"archived"} if unarchiving else set()
        )
        if creators & body.keys() and not (moderator or thread.owner_id == self._world.bot.id):
            raise DiscordError(403, 50013, "Missing Permissions")
        if unarchiving and thread.archived:
            require(permissions, MANAGE_THREADS if thread.locked else SEND_MESSAGES_IN_THREADS)
        for name in ("name", "locked", "auto_archive_duration"):
            if body.get(name) is not None:
                setattr(thread, name, body[name])
        if body.get("archived") is not None and body["archived"] != thread.archived:
            thread.archived, thread.archive_timestamp = body["archived"], utcnow()
        self._world.notifier.bump()
        await self._gateway.announce("THREAD_UPDATE", thread)
        return json_response(thread.payload())


class ThreadControls:
    """What tests do with threads as people do (`FakeDiscord` offers them)."""

    def __init__(self, world: World, gateway: Gateway) -> None:
        self._world = world
        self._gateway = gateway

    async def start_thread(
        self,
        message: Message | int,
        name: str,
        *,
        by: User | Member | int,
        auto_archive_duration: int = DEFAULT_AUTO_ARCHIVE,
    ) -> Channel:
        """`by` starts a public thread from a message of a text channel (the thread takes the
        message's id); a connected bot gets THREAD_CREATE (see devtools.fakediscord.threads)."""
        message = self._world.message(message)
        parent = self._world.channel(message.channel_id)
        owner = self._world.user(by)
        thread = new_thread(
            parent, message.id, name, owner.id, auto_archive_duration=auto_archive_duration
        )
        guild = self._world.guild_of(parent)
        if guild is None:
            raise ValueError("threads are started in a server's text channels")
        guild.threads[thread.id] = thread
        self._world.channels[thread.id] = thread
        self._world.notifier.bump()
        await self._gateway.announce("THREAD_CREATE", thread, newly_created=True)
        return thread

    def thread_of(self, message: Message | int) -> Channel | None:
        """The thread started from a message, if any (it has the message's id)."""
        found = self._world.channels.get(self._world.message(message).id)
        return found if found is not None and found.is_thread else None

    async def set_thread(
        self, thread: Channel | int, *, archived: bool | None = None, locked: bool | None = None
    ) -> None:
        """A moderator archives or unarchives, locks or unlocks a thread; a connected bot gets
        THREAD_UPDATE."""
        thread = self._world.channel(thread)
        if locked is not None:
            thread.locked = locked
        if archived is not None and archived != thread.archived:
            thread.archived, thread.archive_timestamp = archived, utcnow()
        self._world.notifier.bump()
        await self._gateway.announce("THREAD_UPDATE", thread)
