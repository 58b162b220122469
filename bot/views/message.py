"""One message as the bot sends it: its text, embed, components and picture, as one value.

Every message the views build (the lobby, the board, the launch report, a hand panel, an
older board's stub) and every line the bot posts is a `Message`, plain data, and its
boxed part (Discord calls it an embed) an `Embed`. It turns into Discord's JSON body for
a request of our own (`json`); the Discord door turns it into discord.py's keyword
arguments for an interaction response (bot.discord.embeds).

A message whose components are a Components V2 layout (the hand panel: bot.views.panel)
is all components: no content, no embed. Its JSON carries the IS_COMPONENTS_V2 flag, and
an edit with it clears the content and the embeds, as Discord requires of an edit that
sets the flag (a message sent before as content and an embed turns into the layout).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Protocol

#: allowed_mentions that ping nobody.
NO_MENTIONS: dict[str, Any] = {"parse": []}
#: Discord's message flag of a Components V2 message; once set, never removed.
IS_COMPONENTS_V2 = 1 << 15


@dataclass(slots=True)
class Field:
    """One field of an embed: a name above its value, inline beside its neighbours or not."""

    name: str
    value: str
    inline: bool = True


@dataclass(slots=True)
class Embed:
    """What an embed shows. Values are kept as plain strings (a `Line` becomes its words)."""

    title: str | None = None
    description: str | None = None
    colour: int | None = None
    fields: list[Field] = field(default_factory=list)
    footer: str | None = None
    #: The picture shown in the embed (``attachment://`` the file uploaded with it).
    image: str | None = None

    def __post_init__(self) -> None:
        self.title = None if self.title is None else str(self.title)
        self.description = None if self.description is None else str(self.description)

    def add_field(self, *, name: str, value: str, inline: bool = True) -> None:
        self.fields.append(Field(str(name), str(value), inline))

    def set_footer(self, *, text: str) -> None:
        self.footer = str(text)

    def set_image(self, *, url: str) -> None:
        self.image = url

    def __len__(self) -> int:
        """How much text it holds, as Discord counts it against its limit of 6,000."""
        texts = [self.title, self.description, self.footer]
        texts += [text for f in self.fields for text in (f.name, f.value)]
        return sum(len(text) for text in texts if text)

    def copy(self) -> Embed:
        return replace(self, fields=list(self.fields))

    def json(self) -> dict[str, Any]:
        """The embed as Discord's JSON (what discord.py's `Embed.to_dict` gives)."""
        body: dict[str, Any] = {}
        if self.footer is not None:
            body["footer"] = {"text": self.footer}
        if self.image is not None:
            body["image"] = {"url": self.image}
        if self.fields:
            body["fields"] = [
                {"inline": f.inline, "name": f.name, "value": f.value} for f in self.fields
            ]
        body["flags"] = 0
        if self.colour is not None:
            body["color"] = self.colour
        body["type"] = "rich"
        if self.description is not None:
            body["description"] = self.description
        if self.title is not None:
            body["title"] = self.title
        return body


class Rows(Protocol):
    """What a message offers: its rows of components as Discord's JSON
    (bot.views.components.Components, given to discord.py as a view)."""

    def to_components(self) -> list[dict[str, Any]]: ...

    def has_components_v2(self) -> bool:
        """Whether they are a Components V2 layout (discord.py's LayoutView's question)."""
        ...


class Upload(Protocol):
    """A picture uploaded with a message (bot.views.attachments.Picture)."""

    @property
    def filename(self) -> str: ...

    @property
    def png(self) -> bytes: ...

    @property
    def description(self) -> str: ...

    def attachment(self) -> dict[str, Any]: ...

    def form(self, payload: dict[str, Any]) -> tuple[str, bytes]:
        """`payload` with the picture as one multipart body: its content type and bytes."""
        ...


@dataclass(frozen=True, slots=True)
class Message:
    """A message: what it says, shows and offers, and whom it may ping.

    A field left None is not part of the message (an edit leaves it as it was), unless
    the message is `whole`: it stands for all of the message it replaces, so an edit
    removes what it lacks (the embed, the components, the picture). A board or a launch
    report drawn with its picture (or without one) is whole, and so is an older board's
    stub. A message laid out in Components V2 (`layout`) has only its components.
    """

    content: str | None = None
    embed: Embed | None = None
    components: Rows | None = None
    #: The picture the embed shows (``attachment://`` its file name), uploaded with it.
    picture: Upload | None = None
    whole: bool = False
    #: Discord's allowed_mentions in the JSON body (None: not sent). discord.py adds the
    #: client's own (nobody) to every request it makes.
    mentions: dict[str, Any] | None = field(default_factory=NO_MENTIONS.copy)

    def __post_init__(self) -> None:
        if self.layout and (self.content is not None or self.embed or self.picture):
            raise ValueError("a Components V2 message is all components")

    @property
    def layout(self) -> bool:
        """Whether the message is a Components V2 layout (IS_COMPONENTS_V2)."""
        return self.components is not None and self.components.has_components_v2()

    def json(self, *, new: bool = False, attachments: bool = True) -> dict[str, Any]:
        """The message as Discord's JSON body: to send (`new`), or to edit a message with.

        Its picture is named as the upload ``files[0]``. `attachments` False leaves the
        attachments out for the sender to name (bot.discord.board keeps a picture it
        uploaded before by its id, and names one only when there is one). A layout is
        flagged, and its edit clears the content and the embeds.
        """
        body: dict[str, Any] = {}
        if self.layout:
            body["flags"] = IS_COMPONENTS_V2
            if not new:
                body.update(content=None, embeds=[])
        if self.content is not None:
            body["content"] = self.content
        if self.embed is not None or self.whole:
            body["embeds"] = [self.embed.json()] if self.embed is not None else []
        if self.components is not None or self.whole:
            body["components"] = (
                self.components.to_components() if self.components is not None else []
            )
        if attachments and (self.picture is not None or self.whole):
            body["attachments"] = [self.picture.attachment()] if self.picture is not None else []
        if self.mentions is not None:
            body["allowed_mentions"] = self.mentions
        return body
