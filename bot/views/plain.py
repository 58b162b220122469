"""What the game says as plain words: people by their names, no mention, no bold.

The game's texts keep the people, channels and moments they name, and the words they
stress (bot.i18n.said); Discord's messages carry them as Discord writes them, while the
live table's state (bot.views.web_state) and a picture's description (bot.views.attachments)
have them written with `Names`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n.said import Channel, Moment, Person

if TYPE_CHECKING:
    from bot.table import Table


class Names:
    """The parts of a text at `table` as plain words: people by their names, channels by
    number, stressed words as plain words, and no moment (the live table shows its own
    clock; a description has none)."""

    __slots__ = ("table",)

    def __init__(self, table: Table) -> None:
        self.table = table

    def person(self, person: Person) -> str:
        return self.table.name_of(int(person.id))

    def channel(self, channel: Channel) -> str:
        return f"#{channel.id}"

    def moment(self, moment: Moment) -> str:
        return ""

    def stressed(self, text: str) -> str:
        return text
