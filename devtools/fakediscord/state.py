"""What the fake Discord knows: users, guilds, channels, messages, interactions, Activities.

Records are plain dataclasses that tests read directly. Each knows how to render
itself as the JSON payload Discord would send (``payload()``), so the REST and
gateway layers never build Discord objects by hand.
"""

from __future__ import annotations

import asyncio
import copy
import datetime
import itertools
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000

#: Message flag for "only the invoking user can see this".
EPHEMERAL = 1 << 6
#: Message flag for "the bot is thinking" (a deferred interaction response).
LOADING = 1 << 7
#: Discord's limit on a message's content (characters).
CONTENT_LIMIT = 2000
#: The gateway intent for message events in guild channels.
GUILD_MESSAGES = 1 << 9
#: A user mention in message content: <@id> or <@!id>.
USER_MENTION = re.compile(r"<@!?([0-9]+)>")

#: Permissions a guild's @everyone role has unless a test says otherwise
#: (view channels, send messages, embed links, attach files, read history,
#: use application commands, and as on Discord create public threads and send
#: messages in threads).
DEFAULT_EVERYONE_PERMISSIONS = (
    (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31) | (1 << 35) | (1 << 38)
)
ADMINISTRATOR = 1 << 3
ALL_PERMISSIONS = (1 << 51) - 1
#: The permissions a channel's routes need (Discord's bits).
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
SEND_TTS_MESSAGES = 1 << 12
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
#: What a member who cannot send messages in a channel (in a thread: Send Messages in
#: Threads) cannot do there either (Discord's implicit permissions).
IMPLIED_BY_SEND = SEND_TTS_MESSAGES | EMBED_LINKS | ATTACH_FILES | MENTION_EVERYONE
#: Minutes a thread stays listed without activity unless its creator says otherwise.
DEFAULT_AUTO_ARCHIVE = 1440


class ChannelType(IntEnum):
    """The channel types the fake serves."""

    GUILD_TEXT = 0
    DM = 1
    #: A group DM: its recipients, never the bot.
    GROUP_DM = 3
    #: A public thread, started from a message of a text channel (its parent).
    PUBLIC_THREAD = 11


class InteractionType(IntEnum):
    """Discord's interaction types that the fake can create."""

    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3


class ComponentType(IntEnum):
    """Component types a test can act on."""

    ACTION_ROW = 1
    BUTTON = 2
    STRING_SELECT = 3


def iso_timestamp(moment: datetime.datetime) -> str:
    """Render a datetime the way Discord does in payloads."""
    return moment.isoformat()


def notified_by(content: str, allowed: dict[str, Any] | None) -> set[int]:
    """Users a new message's mentions notify, as its ``allowed_mentions`` lets them.

    Without ``allowed_mentions`` every user mentioned is notified; with it, those of
    ``users`` when ``parse`` holds "users", else only the ids listed in ``users``.
    """
    mentioned = {int(user_id) for user_id in USER_MENTION.findall(content or "")}
    if allowed is None or "users" in allowed.get("parse", []):
        return mentioned
    return mentioned & {int(user_id) for user_id in allowed.get("users", [])}


def utcnow() -> datetime.datetime:
    """The current wall-clock time, timezone-aware (UTC)."""
    return datetime.datetime.now(datetime.UTC)


class SnowflakeFactory:
    """Hands out unique, increasing snowflakes whose timestamp part is now."""

    def __init__(self) -> None:
        self._counter = itertools.count()

    def __call__(self, shard: tuple[int, int] | None = None) -> int:
        """Return a new snowflake; with ``shard=(id, count)``, one that falls in that shard.

        (A guild's shard is its id's timestamp modulo the shard count: the timestamp
        is moved on by up to ``count - 1`` milliseconds.)
        """
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        if shard is not None:
            shard_id, count = shard
            ms += (shard_id - ms) % count
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


class ChangeNotifier:
    """Wakes every waiter whenever the fake records a change (no polling)."""

    def __init__(self) -> None:
        self._changed = asyncio.Event()

    def bump(self) -> None:
        """Signal that something changed."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait(
        self, predicate: Callable[[], Any], *, timeout: float, description: str = ""
    ) -> Any:
        """Wait until ``predicate()`` is truthy and return its value.

        The predicate is evaluated at once and again after every change. Raises
        ``TimeoutError`` naming ``description`` if it is still falsy after ``timeout``.
        """
        try:
            async with asyncio.timeout(timeout):
                while not (result := predicate()):
                    await self._changed.wait()
                return result
        except TimeoutError:
            what = description or getattr(predicate, "__name__", "a condition")
            raise TimeoutError(f"timed out after {timeout} s waiting for {what}") from None


@dataclass
class User:
    """A Discord user (a player, or the bot itself)."""

    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    #: The language the user chose in Discord (sent with each of their interactions).
    locale: str = "en-US"

    def payload(self) -> dict[str, Any]:
        """The user object as Discord sends it."""
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }

    def private_payload(self) -> dict[str, Any]:
        """The user object ``GET /users/@me`` gives the user's own OAuth2 token (``identify``)."""
        return {
            **self.payload(),
            "mfa_enabled": False,
            "locale": self.locale,
            "premium_type": 0,
        }


@dataclass
class Role:
    """A guild role with its permission bits."""

    id: int
    guild_id: int
    name: str
    permissions: int
    position: int

    def payload(self) -> dict[str, Any]:
        """The role object as Discord sends it."""
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


class OverwriteType(IntEnum):
    """Whom a channel's permission overwrite is for."""

    ROLE = 0
    MEMBER = 1


@dataclass
class Overwrite:
    """A channel's permission overwrite for a role (@everyone's id is the guild's) or member."""

    id: int
    type: OverwriteType
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict[str, Any]:
        """The overwrite object as Discord sends it."""
        return {
            "id": str(self.id),
            "type": int(self.type),
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass
class Channel:
    """A guild text channel, a public thread of one, a DM channel or a group DM.

    A thread started from a message has that message's id; it has its parent's
    permissions (`Guild.permissions_in`), and while ``archived`` it takes no new message
    and no edit (see devtools.fakediscord.threads).
    """

    id: int
    type: ChannelType
    name: str = ""
    guild_id: int | None = None
    position: int = 0
    recipient: User | None = None
    #: A group DM's people (the bot is never one of them); its owner is ``owner_id``.
    recipients: list[User] = field(default_factory=list)
    #: Permission overwrites (guild channels), applied as Discord does (see
    #: `Guild.permissions_in`).
    overwrites: list[Overwrite] = field(default_factory=list)
    #: A thread's text channel, who started it (a group DM's owner), and its state.
    parent_id: int | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = DEFAULT_AUTO_ARCHIVE
    #: When the thread was created, archived or unarchived last.
    archive_timestamp: datetime.datetime = field(default_factory=utcnow)

    @property
    def is_thread(self) -> bool:
        return self.type is ChannelType.PUBLIC_THREAD

    @property
    def is_private(self) -> bool:
        """A DM or a group DM (no guild)."""
        return self.type in (ChannelType.DM, ChannelType.GROUP_DM)

    def payload(self) -> dict[str, Any]:
        """The channel object as Discord sends it."""
        if self.is_thread:
            return {
                "id": str(self.id),
                "type": int(self.type),
                "guild_id": str(self.guild_id),
                "parent_id": str(self.parent_id),
                "owner_id": str(self.owner_id),
                "name": self.name,
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "message_count": 0,
                "member_count": 1,
                "total_message_sent": 0,
                "flags": 0,
                "thread_metadata": {
                    "archived": self.archived,
                    "archive_timestamp": iso_timestamp(self.archive_timestamp),
                    "auto_archive_duration": self.auto_archive_duration,
                    "locked": self.locked,
                },
            }
        if self.type is ChannelType.GROUP_DM:
            return {
                "id": str(self.id),
                "type": int(self.type),
                "name": self.name or None,
                "icon": None,
                "owner_id": str(self.owner_id),
                "last_message_id": None,
                "recipients": [user.payload() for user in self.recipients],
                "flags": 0,
            }
        if self.type is ChannelType.DM:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": int(self.type),
                "last_message_id": None,
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        return {
            "id": str(self.id),
            "type": int(self.type),
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [overwrite.payload() for overwrite in self.overwrites],
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }


@dataclass
class Member:
    """A user's membership of a guild."""

    user: User
    guild_id: int
    role_ids: list[int]
    joined_at: datetime.datetime = field(default_factory=utcnow)

    def payload(self, *, permissions: int | None = None, with_user: bool = True) -> dict[str, Any]:
        """The guild member object; interactions add the member's ``permissions``."""
        data: dict[str, Any] = {
            "roles": [str(role_id) for role_id in self.role_ids],
            "nick": None,
            "avatar": None,
            "joined_at": iso_timestamp(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class Guild:
    """A guild with its roles, text channels and members."""

    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    #: The server's preferred language (a Community server's setting; else en-US).
    preferred_locale: str = "en-US"
    channels: dict[int, Channel] = field(default_factory=dict)
    #: Its threads, archived ones included (GUILD_CREATE lists the active ones).
    threads: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)

    def role_named(self, name: str) -> Role:
        """The guild's role called ``name`` (KeyError if there is none)."""
        for role in self.roles.values():
            if role.name == name:
                return role
        raise KeyError(f"guild {self.id} has no role named {name!r}")

    def permissions_of(self, member: Member) -> int:
        """The member's guild-wide permissions: @everyone, their roles, owner/admin."""
        if member.user.id == self.owner_id:
            return ALL_PERMISSIONS
        bits = self.roles[self.id].permissions
        for role_id in member.role_ids:
            bits |= self.roles[role_id].permissions
        return ALL_PERMISSIONS if bits & ADMINISTRATOR else bits

    def permissions_in(self, member: Member, channel: Channel) -> int:
        """The member's permissions in one of the guild's channels, computed as Discord does.

        The guild-wide permissions (owner and administrators have all), then the channel's
        overwrites: @everyone's, then the member's roles' (denies, then allows), then the
        member's own; then the implicit ones: without View Channel nothing, without Send
        Messages no embeds, files, TTS or @everyone either. A thread has its parent's
        overwrites, and there Send Messages in Threads stands for Send Messages.
        """
        bits = self.permissions_of(member)
        if bits == ALL_PERMISSIONS:
            return bits
        sends = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
        if channel.is_thread and channel.parent_id is not None:
            channel = self.channels[channel.parent_id]
        overwrites = {(o.type, o.id): o for o in channel.overwrites}
        everyone = overwrites.get((OverwriteType.ROLE, self.id))
        if everyone is not None:
            bits = (bits & ~everyone.deny) | everyone.allow
        allow = deny = 0
        for role_id in member.role_ids:
            role = overwrites.get((OverwriteType.ROLE, role_id))
            if role is not None:
                allow, deny = allow | role.allow, deny | role.deny
        bits = (bits & ~deny) | allow
        own = overwrites.get((OverwriteType.MEMBER, member.user.id))
        if own is not None:
            bits = (bits & ~own.deny) | own.allow
        if not bits & sends:
            bits &= ~IMPLIED_BY_SEND
        return bits if bits & VIEW_CHANNEL else 0

    def payload(self) -> dict[str, Any]:
        """The GUILD_CREATE payload (channels and every member included)."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "owner_id": str(self.owner_id),
            "unavailable": False,
            "large": False,
            "member_count": len(self.members),
            "roles": [role.payload() for role in self.roles.values()],
            "channels": [channel.payload() for channel in self.channels.values()],
            "members": [member.payload() for member in self.members.values()],
            "threads": [t.payload() for t in self.threads.values() if not t.archived],
            "presences": [],
            "voice_states": [],
            "emojis": [],
            "stickers": [],
            "features": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "preferred_locale": self.preferred_locale,
            "joined_at": iso_timestamp(utcnow()),
        }


@dataclass
class Attachment:
    """A file the bot uploaded with a message."""

    id: int
    filename: str
    content: bytes
    content_type: str | None = None
    description: str | None = None

    def payload(self, url_base: str) -> dict[str, Any]:
        """The attachment object as Discord sends it."""
        url = f"{url_base}/attachments/{self.id}/{self.filename}"
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.content),
            "url": url,
            "proxy_url": url,
        }
        if self.content_type is not None:
            data["content_type"] = self.content_type
        if self.description is not None:
            data["description"] = self.description
        return data


@dataclass(frozen=True)
class MessageVersion:
    """One earlier state of an edited message, and when it began to be shown."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[Attachment]
    flags: int
    at: datetime.datetime


@dataclass
class Message:
    """A message the bot posted, in a channel, a DM, or as an interaction response.

    ``history`` holds earlier versions, oldest first, one per edit.
    ``visible_to`` is the only user who can see an ephemeral message.
    """

    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    interaction_id: int | None = None
    application_id: int | None = None
    visible_to: int | None = None
    created_at: datetime.datetime = field(default_factory=utcnow)
    edited_at: datetime.datetime | None = None
    deleted: bool = False
    deleted_at: datetime.datetime | None = None
    history: list[MessageVersion] = field(default_factory=list)
    #: Users this message notified when it was posted (mentions let through by its
    #: allowed_mentions; an ephemeral message or an edit notifies nobody).
    notified: set[int] = field(default_factory=set)
    #: For an interaction's response or follow-up: that interaction (who interacted), as
    #: Discord's ``interaction_metadata``; kept as it was when edited.
    interaction_metadata: dict[str, Any] | None = None

    @property
    def ephemeral(self) -> bool:
        """Whether only ``visible_to`` can see this message."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether this is a deferred response still "thinking"."""
        return bool(self.flags & LOADING)

    def seen_by(self, user_id: int) -> bool:
        """Whether the given user can see this message."""
        return not self.deleted and (not self.ephemeral or self.visible_to == user_id)

    def iter_components(self) -> Iterator[dict[str, Any]]:
        """Every interactive component on the message, inside its action rows."""
        stack = list(reversed(self.components))
        while stack:
            component = stack.pop()
            yield component
            stack.extend(reversed(component.get("components", [])))

    def component(self, custom_id: str) -> dict[str, Any]:
        """The component with this custom_id (LookupError if absent)."""
        for component in self.iter_components():
            if component.get("custom_id") == custom_id:
                return component
        present = [c["custom_id"] for c in self.iter_components() if "custom_id" in c]
        raise LookupError(
            f"message {self.id} has no component with custom_id {custom_id!r}; it has {present}"
        )

    def snapshot(self) -> MessageVersion:
        """The current state, as kept in ``history`` when the message is edited."""
        return MessageVersion(
            self.content,
            copy.deepcopy(self.embeds),
            copy.deepcopy(self.components),
            list(self.attachments),
            self.flags,
            self.edited_at or self.created_at,
        )

    def payload(self, url_base: str) -> dict[str, Any]:
        """The message object as Discord sends it."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso_timestamp(self.created_at),
            "edited_timestamp": iso_timestamp(self.edited_at) if self.edited_at else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload(url_base) for a in self.attachments],
            "embeds": self.embeds,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
            data["webhook_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        return data


@dataclass(frozen=True)
class ResponseAttempt:
    """One initial-response request the bot made for an interaction."""

    type: int
    data: dict[str, Any]
    status: int
    at: float


@dataclass
class Interaction:
    """An interaction the fake dispatched, and everything the bot did with it.

    ``response_type``/``response_data`` describe the accepted initial response,
    ``message`` is the message that response created or edited (the clicked
    message for component updates), ``followups`` the follow-up messages, and
    ``attempts`` every initial-response request, accepted or refused. A LAUNCH_ACTIVITY
    response (type 12) creates no message: ``activity_instance_id`` names the Activity
    instance it launched or joined. ``authorizing_integration_owners`` is what the
    interaction carried (install type -> owner id, as strings).
    """

    id: int
    token: str
    type: InteractionType
    user: User
    channel: Channel
    data: dict[str, Any]
    created_at: float
    notifier: ChangeNotifier
    source_message: Message | None = None
    response_type: int | None = None
    response_data: dict[str, Any] | None = None
    message: Message | None = None
    followups: list[Message] = field(default_factory=list)
    attempts: list[ResponseAttempt] = field(default_factory=list)
    #: Set by ``FakeDiscord.expire_token``: Discord answers 401, code 50027, from now on.
    token_expired: bool = False
    #: The Activity instance a LAUNCH_ACTIVITY response launched or joined (None: none).
    activity_instance_id: str | None = None
    authorizing_integration_owners: dict[str, str] = field(default_factory=dict)
    #: Follow-ups the token created (POST /webhooks/{app}/{token} accepted), the one that
    #: filled a deferred response included.
    followup_posts: int = 0

    @property
    def user_installed_only(self) -> bool:
        """Whether only the user's install authorized it (at most 5 follow-ups, then)."""
        return set(self.authorizing_integration_owners) == {"1"}

    @property
    def responded(self) -> bool:
        """Whether an initial response was accepted."""
        return self.response_type is not None

    @property
    def ephemeral(self) -> bool:
        """Whether the initial response was flagged ephemeral."""
        return bool((self.response_data or {}).get("flags", 0) & EPHEMERAL)

    @property
    def messages(self) -> list[Message]:
        """The response message (if any) followed by the follow-ups."""
        head = [self.message] if self.message is not None else []
        return head + self.followups

    async def wait_response(self, timeout: float = 5.0) -> Interaction:
        """Wait until the bot's initial response has been accepted; return self."""
        await self.notifier.wait(
            lambda: self.responded,
            timeout=timeout,
            description=f"a response to interaction {self.id}",
        )
        return self

    async def wait_reply(self, timeout: float = 5.0) -> Message:
        """Wait until the response message exists and is no longer "thinking"; return it.

        For a deferred response that is the first edit or follow-up that fills it.
        """
        await self.notifier.wait(
            lambda: self.message is not None and not self.message.loading,
            timeout=timeout,
            description=f"the reply to interaction {self.id}",
        )
        assert self.message is not None
        return self.message

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[Message]:
        """Wait until the bot has sent at least ``count`` follow-ups; return them."""
        await self.notifier.wait(
            lambda: len(self.followups) >= count,
            timeout=timeout,
            description=f"{count} follow-up(s) to interaction {self.id}",
        )
        return self.followups


@dataclass
class ActivityInstance:
    """A running Activity in a channel, and who is in it (user ids, in the order they came).

    Its id and location follow the example of Discord's Get Application Activity Instance
    (developers/resources/application): ``i-<launch id>-gc-<guild id>-<channel id>`` in a
    server; ``pc-<channel id>`` for a DM or group DM is the fake's own guess (unverified).
    """

    launch_id: int
    channel: Channel
    users: list[int] = field(default_factory=list)

    @property
    def location_id(self) -> str:
        """Where it runs: ``gc-<guild id>-<channel id>`` or ``pc-<channel id>``."""
        if self.channel.is_private:
            return f"pc-{self.channel.id}"
        return f"gc-{self.channel.guild_id}-{self.channel.id}"

    @property
    def id(self) -> str:
        """The instance id, shared by everyone in it."""
        return f"i-{self.launch_id}-{self.location_id}"

    def payload(self, application_id: int) -> dict[str, Any]:
        """The activity instance object (``GET /applications/{id}/activity-instances/{id}``)."""
        location: dict[str, Any] = {
            "id": self.location_id,
            "kind": "pc" if self.channel.is_private else "gc",
            "channel_id": str(self.channel.id),
        }
        if not self.channel.is_private:
            location["guild_id"] = str(self.channel.guild_id)
        return {
            "application_id": str(application_id),
            "instance_id": self.id,
            "launch_id": str(self.launch_id),
            "location": location,
            "users": [str(user_id) for user_id in self.users],
        }


class ViolationKind(StrEnum):
    """Ways the bot can break Discord's rules; each fails the test unless expected."""

    SCHEMA = "schema"
    UNIMPLEMENTED_ROUTE = "unimplemented_route"
    LATE_RESPONSE = "late_response"
    DUPLICATE_RESPONSE = "duplicate_response"
    INVALID_RESPONSE = "invalid_response"
    EXPIRED_TOKEN = "expired_token"
    CONTENT_TOO_LONG = "content_too_long"
    #: A body breaking Components V2's rules (devtools.fakediscord.layout).
    COMPONENTS_V2 = "components_v2"
    ERROR_LOG = "error_log"
    IDENTIFY_RATE = "identify_rate"
    #: Not the bot's fault: the fake itself failed while answering a request.
    FAKE_ERROR = "fake_error"


@dataclass(frozen=True)
class Violation:
    """One recorded breach of Discord's rules (or ERROR logged by discord.py)."""

    kind: ViolationKind
    message: str
    request: str = ""

    def __str__(self) -> str:
        where = f" [{self.request}]" if self.request else ""
        return f"{self.kind}: {self.message}{where}"


class World:
    """Every record the fake holds, with lookups that accept a record or an id."""

    def __init__(self, notifier: ChangeNotifier) -> None:
        self.notifier = notifier
        self.snowflake = SnowflakeFactory()
        self.application_id = self.snowflake()
        self.bot = User(self.application_id, "Fake Bot", bot=True)
        self.users: dict[int, User] = {self.bot.id: self.bot}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.dm_channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, Interaction] = {}
        self.interactions_by_token: dict[str, Interaction] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        #: Users who installed the app to their account (user install).
        self.user_installs: set[int] = set()
        #: Servers that installed the app's commands without its bot user (the
        #: applications.commands scope alone): a guild install, the bot not a member.
        self.command_installs: set[int] = set()
        #: The running Activity instances by id (an ended one is gone).
        self.activity_instances: dict[str, ActivityInstance] = {}

    def user(self, ref: User | Member | int) -> User:
        """The user for a User/Member record or a user id."""
        if isinstance(ref, Member):
            return ref.user
        return self.users[ref.id if isinstance(ref, User) else ref]

    def guild(self, ref: Guild | int) -> Guild:
        """The guild for a record or an id."""
        return self.guilds[ref.id if isinstance(ref, Guild) else ref]

    def channel(self, ref: Channel | int) -> Channel:
        """The channel for a record or an id."""
        return self.channels[ref.id if isinstance(ref, Channel) else ref]

    def message(self, ref: Message | int) -> Message:
        """The message for a record or an id."""
        return self.messages[ref.id if isinstance(ref, Message) else ref]

    def guild_of(self, channel: Channel) -> Guild | None:
        """The guild a channel is in; None for a DM or group DM (or a guild deleted)."""
        return self.guilds.get(channel.guild_id) if channel.guild_id is not None else None

    def bot_guilds(self) -> list[Guild]:
        """The guilds the bot is in (those its gateway announces)."""
        return [guild for guild in self.guilds.values() if self.has_bot(guild)]

    def has_bot(self, guild: Guild) -> bool:
        """Whether the bot is a member of the guild (the guild installed it)."""
        return self.bot.id in guild.members

    def can_view(self, user: User, channel: Channel) -> bool:
        """Whether a user sees a channel: a DM's or group DM's recipient, or a member of the
        guild with View Channel there."""
        if channel.type is ChannelType.DM:
            return channel.recipient is not None and channel.recipient.id == user.id
        if channel.type is ChannelType.GROUP_DM:
            return any(recipient.id == user.id for recipient in channel.recipients)
        guild = self.guild_of(channel)
        member = guild.members.get(user.id) if guild is not None else None
        if guild is None or member is None:
            return False
        return bool(guild.permissions_in(member, channel) & VIEW_CHANNEL)

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and ``user``, created on first use."""
        if user.id not in self.dm_channels:
            channel = Channel(self.snowflake(), ChannelType.DM, recipient=user)
            self.dm_channels[user.id] = self.channels[channel.id] = channel
        return self.dm_channels[user.id]

    def commands_for(self, guild_id: int | None) -> list[dict[str, Any]]:
        """The commands usable in a guild: its own, then the global ones."""
        local = self.guild_commands.get(guild_id, []) if guild_id is not None else []
        return local + self.global_commands

    def add_message(self, channel: Channel, **fields: Any) -> Message:
        """Record a new message in ``channel`` (by the bot unless ``author`` is given)."""
        fields.setdefault("author", self.bot)
        message = Message(
            id=self.snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            **fields,
        )
        self.messages[message.id] = message
        self.notifier.bump()
        return message
