"""One message as the bot sends it: its text, embed, components and picture, as one value.

Every message the views build (the lobby, the board, the launch report, a hand panel, an
older board's stub) and every line the bot posts is a `Message`. It turns into
discord.py's keyword arguments for an interaction response (`kwargs`) and into Discord's
JSON body for a request of our own (`json`): the one place for each conversion.

A message whose components are a Components V2 layout (the hand panel: bot.views.panel)
is all components: no content, no embed. Its JSON carries the IS_COMPONENTS_V2 flag, and
an edit with it clears the content and the embeds, as Discord requires of an edit that
sets the flag (a message sent before as content and an embed turns into the layout).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import discord

#: allowed_mentions that ping nobody.
NO_MENTIONS: dict[str, Any] = {"parse": []}
#: Discord's message flag of a Components V2 message; once set, never removed.
IS_COMPONENTS_V2 = 1 << 15


class Rows(Protocol):
    """What a message offers: its rows of components as Discord's JSON
    (bot.views.components.Components, given to discord.py as a view)."""

    def to_components(self) -> list[dict[str, Any]]: ...

    def has_components_v2(self) -> bool:
        """Whether they are a Components V2 layout (discord.py's LayoutView's question)."""
        ...


class Upload(Protocol):
    """A file uploaded with a message (bot.views.attachments.Picture)."""

    def file(self) -> discord.File: ...

    def attachment(self) -> dict[str, Any]: ...


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
    embed: discord.Embed | None = None
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

    def kwargs(self, *, new: bool = False) -> dict[str, Any]:
        """The message as discord.py's keyword arguments for an interaction response:
        `send_message` (`new`: its picture as a file) or `edit_message`. discord.py flags
        a layout itself."""
        found: dict[str, Any] = {}
        if self.layout and not new:
            found.update(content=None, embeds=[])
        if self.content is not None:
            found["content"] = self.content
        if self.embed is not None:
            found["embed"] = self.embed
        elif self.whole:
            found["embeds"] = []
        if self.components is not None or self.whole:
            found["view"] = self.components
        if self.picture is not None or self.whole:
            found["files" if new else "attachments"] = (
                [self.picture.file()] if self.picture is not None else []
            )
        return found

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
            body["embeds"] = [self.embed.to_dict()] if self.embed is not None else []
        if self.components is not None or self.whole:
            body["components"] = (
                self.components.to_components() if self.components is not None else []
            )
        if attachments and (self.picture is not None or self.whole):
            body["attachments"] = [self.picture.attachment()] if self.picture is not None else []
        if self.mentions is not None:
            body["allowed_mentions"] = self.mentions
        return body
