"""Clicks read lighter than discord.py does: the clicked message read only for what the bot asks.

Every button or select click arrives with the message it was clicked on, whole: a hand
panel's dozens of components, its author, its flags, who it answered. discord.py builds a
full Message of it (components, author, embeds, attachments, mentions) for each click,
some 6% of the bot's time at a hundred actions a second, and then offers the click to the
discord.ui views, which this bot does not use (its components are Discord's JSON:
bot.views.components). The bot reads four things of that message: its id, its flags
(ephemeral or not), who it answered (its interaction metadata) and its components'
custom ids (bot.discord.inputs). `Clicked` reads those from the raw message, when asked;
anything else asked of it builds discord.py's whole Message, so nothing is lost.

`read_clicks_lightly` installs this as the gateway's INTERACTION_CREATE parser for clicks;
every other interaction (commands, autocompletion, modals) goes to discord.py's own.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, cast

import discord

if TYPE_CHECKING:
    from discord.types.interactions import Interaction as InteractionPayload
    from discord.types.message import Message as MessagePayload

#: Discord's interaction type of a click on a message component.
COMPONENT = 3


class ClickedMessage:
    """The message a click came from, as Discord sent it with the click."""

    def __init__(self, state: Any, channel: Any, data: dict[str, Any]) -> None:
        self.id = int(data["id"])
        self.flags = discord.MessageFlags()
        self.flags.value = data.get("flags", 0)
        self._state, self._channel, self._data = state, channel, data
        self._metadata: discord.MessageInteractionMetadata | None = None
        self._whole: discord.Message | None = None

    @property
    def interaction_metadata(self) -> discord.MessageInteractionMetadata | None:
        """The interaction this message answered, if any (who clicked to open it)."""
        raw = self._data.get("interaction_metadata")
        if raw is not None and self._metadata is None:
            guild = getattr(self._channel, "guild", None)
            self._metadata = discord.MessageInteractionMetadata(
                state=self._state, guild=guild, data=raw
            )
        return self._metadata

    @property
    def custom_ids(self) -> list[str]:
        """The custom ids of its components, at any depth, in order."""
        return list(_custom_ids(self._data.get("components") or ()))

    def __getattr__(self, name: str) -> Any:
        """Anything else: read of discord.py's whole Message, built once when first asked."""
        if name.startswith("__"):
            raise AttributeError(name)
        if self._whole is None:
            data = cast("MessagePayload", self._data)  # as Discord sent it
            self._whole = discord.Message(state=self._state, channel=self._channel, data=data)
        return getattr(self._whole, name)

    def __repr__(self) -> str:
        return f"<ClickedMessage id={self.id} flags={self.flags.value}>"


def clicked_message(interaction: discord.Interaction) -> ClickedMessage | None:
    """The message a click came from, as the client reads it (`read_clicks_lightly`)."""
    return cast("ClickedMessage | None", interaction.message)


def _custom_ids(components: Any) -> Iterator[str]:
    for component in components:
        custom_id = component.get("custom_id")
        if custom_id:
            yield custom_id
        yield from _custom_ids(component.get("components") or ())
        accessory = component.get("accessory")
        if accessory is not None:
            yield from _custom_ids((accessory,))


class Clicked(discord.Interaction):
    """A click, its message a `ClickedMessage` (everything else as discord.py reads it)."""

    __slots__ = ()

    def _from_data(self, data: Any) -> None:
        rest = {key: value for key, value in data.items() if key != "message"}
        super()._from_data(cast("InteractionPayload", rest))
        raw = data.get("message")
        if raw is not None:
            self.message = ClickedMessage(self._state, self.channel, raw)  # type: ignore[assignment]


def read_clicks_lightly(state: Any) -> None:
    """Parse the gateway's clicks as `Clicked` (see the module docstring), on the client's
    connection state `state`; the other interactions as before."""
    parsers = state.parsers
    original = parsers["INTERACTION_CREATE"]

    def created(data: dict[str, Any]) -> None:
        if data.get("type") != COMPONENT:
            original(data)
            return
        state.dispatch("interaction", Clicked(data=cast("InteractionPayload", data), state=state))

    parsers["INTERACTION_CREATE"] = created
