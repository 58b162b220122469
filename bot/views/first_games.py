"""What a newcomer is shown once, privately, as they take a lobby's seat: a welcome line and
the picture of a rocket that can launch (in words where the server shows no pictures; the
live table draws the same rocket itself, from `words`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n.catalogs import t
from bot.pictures import first_rocket
from bot.views import table_state
from bot.views.attachments import Picture
from bot.views.message import Message

if TYPE_CHECKING:
    from bot.table import Table

#: The picture's file name (the same picture for every newcomer of a language).
FILENAME = "first-rocket.png"


def welcome(table: Table, language: str) -> Message:
    """The welcome, in the newcomer's `language`: the line, with the picture where the
    server shows pictures (`Table.pictured`), else the picture's words after it."""
    line = t(language, "first.welcome")
    described = first_rocket.describe(language)
    if not table.pictured:
        return Message(content=f"{line}\n{described}")
    return Message(content=line, picture=Picture(FILENAME, first_rocket.draw(language), described))


def owed(table: Table, person: int) -> bool:
    """Whether `person` is a newcomer at `table` not yet shown the welcome (bot.game.newcomers)."""
    return person in table.newcomers and person not in table.welcomed


def words(language: str) -> table_state.First:
    """The welcome's words as the live table shows them beside its own drawing of the
    rocket: the line, and the picture in words."""
    return {"line": t(language, "first.welcome"), "alt": first_rocket.describe(language)}
