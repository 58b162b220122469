"""What everyone saw in a game: the fake Discord's messages, every version, in order.

A :class:`Record` is read from a :class:`~devtools.fakediscord.FakeDiscord` after (or
during) a game: the channel as everyone saw it (each message posted, each edit and
each deletion, oldest first) and, for each person, what only they saw (the private
replies and panels shown to them in the channel, and their DMs) beside what they did
(each command and click). Tests assert on it; `devtools.demo.page` draws it as HTML, in
the game's language: the record itself holds no words of its own, only what was shown
and done (commands as their code names, controls by the labels they showed).
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from devtools.fakediscord import Channel, FakeDiscord, Member, Message, User
from devtools.fakediscord.layout import TEXT_DISPLAY
from devtools.fakediscord.state import Attachment, InteractionType


@dataclass(frozen=True)
class Command:
    """A slash command as it was used: its words ("apophis", "start") by their code names,
    and the options given (name, value; a user's value is "@" and their name)."""

    words: tuple[str, ...]
    options: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        """'/apophis start first:@ann', by the code names (for assertions and logs)."""
        return "/" + " ".join([*self.words, *(f"{name}:{value}" for name, value in self.options)])


@dataclass(frozen=True)
class Used:
    """Who used which command (its bare words): the header Discord shows above its reply."""

    name: str
    command: Command


@dataclass(frozen=True)
class Shown:
    """One version of one message, shown from `at` on (`edit` 0: as posted)."""

    at: datetime.datetime
    message_id: int
    edit: int
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[Attachment]
    ephemeral: bool
    deleted: bool = False
    #: "ann used /draw": the interaction whose response this message is, if any.
    used_by: Used | None = None
    #: A direct message (not in the channel).
    dm: bool = False
    #: When the message was deleted, if it was (on every version of it).
    gone_at: datetime.datetime | None = None

    def text(self) -> str:
        """Content, embed text and text displays (a Components V2 message's), for
        assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            parts += [f"{f['name']}: {f['value']}" for f in embed.get("fields", [])]
            parts.append(embed.get("footer", {}).get("text", ""))
        parts += [c["content"] for c in _walk(self.components) if c.get("type") == TEXT_DISPLAY]
        return "\n".join(p for p in parts if p)


@dataclass(frozen=True)
class Did:
    """Something a person did: a slash command (`command`), or a click on a component (its
    label or placeholder in `control`, and for a select the labels of the options chosen)."""

    at: datetime.datetime
    command: Command | None = None
    control: str = ""
    chose: tuple[str, ...] | None = None


@dataclass
class Record:
    """A game as its people saw it: the channel, and each person's private side."""

    channel_name: str
    names: dict[int, str]
    channel: list[Shown] = field(default_factory=list)
    private: dict[str, list[Shown | Did]] = field(default_factory=dict)
    started_at: datetime.datetime | None = None
    #: Notifications the channel's messages sent (each user a message's mentions let
    #: through, deleted messages included: a ping notified when it was posted).
    pings: int = 0

    @property
    def public_messages(self) -> int:
        """Messages left in the channel for everyone (edits, and messages deleted, not counted)."""
        deleted = {s.message_id for s in self.channel if s.deleted}
        return sum(1 for s in self.channel if s.edit == 0 and s.message_id not in deleted)

    def dms(self, name: str) -> list[Shown]:
        """The DM messages `name` received (their first versions)."""
        return [
            s
            for s in self.private[name]
            if isinstance(s, Shown) and s.edit == 0 and s.dm and not s.deleted
        ]

    def actions(self, name: str) -> list[Did]:
        return [d for d in self.private[name] if isinstance(d, Did)]

    def clicks(self) -> Counter[str]:
        """Commands and clicks, by person."""
        return Counter({name: len(self.actions(name)) for name in self.private})


#: Discord's application command option type for a user.
USER_OPTION = 6


def record(fake: FakeDiscord, channel: Channel, people: Sequence[Member | User]) -> Record:
    """Read what `people` and the rest of the channel saw, from the fake's memory."""
    world = fake.world
    users = [world.user(p) for p in people]
    names = {u.id: u.name for u in world.users.values()}
    rec = Record(channel_name=channel.name, names=names)
    messages = fake.messages(channel, include_deleted=True)
    public = [m for m in messages if not m.ephemeral]
    rec.channel = _timeline(fake, public)
    rec.pings = sum(len(m.notified) for m in public)
    for user in users:
        mine = [m for m in messages if m.ephemeral and m.visible_to == user.id]
        dms = fake.dms(user)
        seen: list[Shown | Did] = [*_timeline(fake, mine), *_timeline(fake, dms, dm=True)]
        seen += _actions(fake, user, channel)
        seen.sort(key=lambda s: s.at)
        rec.private[user.name] = seen
    moments = [s.at for s in rec.channel] + [
        s.at for stream in rec.private.values() for s in stream
    ]
    rec.started_at = min(moments) if moments else None
    return rec


def _timeline(fake: FakeDiscord, messages: list[Message], *, dm: bool = False) -> list:
    shown = []
    for message in messages:
        used_by = None if dm else _used_by(fake, message)
        versions = [*message.history, message.snapshot()]
        for edit, version in enumerate(versions):
            shown.append(
                Shown(
                    at=version.at,
                    message_id=message.id,
                    edit=edit,
                    content=version.content,
                    embeds=version.embeds,
                    components=version.components,
                    attachments=version.attachments,
                    ephemeral=bool(version.flags & 64),
                    used_by=used_by if edit == 0 else None,
                    dm=dm,
                    gone_at=message.deleted_at if message.deleted else None,
                )
            )
        if message.deleted:
            last = shown[-1]
            shown.append(
                Shown(
                    at=message.deleted_at or last.at,
                    message_id=message.id,
                    edit=len(versions),
                    content="",
                    embeds=[],
                    components=[],
                    attachments=[],
                    ephemeral=last.ephemeral,
                    deleted=True,
                    dm=dm,
                )
            )
    shown.sort(key=lambda s: s.at)
    return shown


def _used_by(fake: FakeDiscord, message: Message) -> Used | None:
    interaction = fake.world.interactions.get(message.interaction_id or -1)
    if interaction is None or interaction.type is not InteractionType.APPLICATION_COMMAND:
        return None
    if interaction.message is not message:  # a follow-up: Discord shows no header there
        return None
    # As Discord shows it above the reply: the command's name, not the options typed.
    return Used(interaction.user.name, Command(_command(interaction.data, {}).words))


def _actions(fake: FakeDiscord, user: User, channel: Channel) -> list[Did]:
    names = {u.id: u.name for u in fake.world.users.values()}
    did = []
    for interaction in fake.world.interactions.values():
        if interaction.user.id != user.id or interaction.channel.id != channel.id:
            continue
        # Interactions are timed by the fake's own clock, messages by the wall clock.
        ago = datetime.timedelta(seconds=fake.now() - interaction.created_at)
        at = datetime.datetime.now(datetime.UTC) - ago
        if interaction.type is InteractionType.APPLICATION_COMMAND:
            did.append(Did(at, command=_command(interaction.data, names)))
        else:
            did.append(_clicked(at, interaction))
    return did


def _command(data: dict[str, Any], names: dict[int, str]) -> Command:
    """An application command's data as a Command ('apophis start', first: '@ann')."""
    words = [data.get("name", "?")]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):  # subcommand (group)
        words.append(options[0]["name"])
        options = options[0].get("options") or []
    given = tuple(
        (o["name"], f"@{names.get(int(o['value']), o['value'])}")
        if o.get("type") == USER_OPTION
        else (o["name"], str(o.get("value")))
        for o in options
    )
    return Command(tuple(words), given)


def _clicked(at: datetime.datetime, interaction) -> Did:
    """A click on a component (Draw 2), or a choice in a select (7H, 2D in Launch…)."""
    custom_id = interaction.data.get("custom_id", "")
    source = interaction.source_message
    component: dict[str, Any] = {}
    if source is not None:  # the control as it was then (the message may have changed since,
        # and a discard's card buttons pass their ids on: the version shown then first)
        current = (source.edited_at or source.created_at, source.components)
        versions = [(v.at, v.components) for v in source.history] + [current]
        shown = [components for start, components in versions if start <= at]
        component = next(
            (
                c
                for components in [*reversed(shown), *(c for _, c in reversed(versions))]
                for c in _walk(components)
                if c.get("custom_id") == custom_id
            ),
            {},
        )
    emoji = (component.get("emoji") or {}).get("name")  # a button of an emoji alone (🔄)
    label = component.get("label") or emoji or component.get("placeholder") or custom_id
    values = interaction.data.get("values")
    if values is not None:
        names = {o["value"]: o.get("label", o["value"]) for o in component.get("options", [])}
        return Did(at, control=label, chose=tuple(names.get(v, v) for v in values))
    return Did(at, control=label)


def _walk(components: list[dict[str, Any]]):
    for component in components:
        yield component
        yield from _walk(component.get("components", []))
