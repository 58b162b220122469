"""What a game in a thread of its own shows in its lobby's channel: the thread's name, the
lobby message once the game plays there, and the line with the game's result."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n import said
from bot.i18n.catalogs import t
from bot.views import embeds, render
from bot.views.components import rows
from bot.views.message import Message

if TYPE_CHECKING:
    from bot.table import Table


def thread_name(table: Table) -> str:
    """The name of a game's thread: "Apophis #12"."""
    return t(table.language, "thread.name", id=table.id)


def lobby_line(table: Table) -> Message:
    """The lobby message once its game plays in its thread: the lobby as it was (closed,
    without its buttons), and a line pointing to the thread."""
    text = t(table.language, "thread.lobby", id=table.id, thread=said.channel(table.channel_id))
    return Message(content=text, embed=embeds.lobby_embed(table), components=rows(), whole=True)


def result_line(table: Table) -> Message:
    """The one line the lobby's channel gets when the game in its thread ends: "🏁 Game #12
    in #Apophis #12: Apophis destroyed with 3:20 to spare." """
    game = table.game
    outcome = game.outcome.value if game is not None and game.outcome is not None else "abandoned"
    text = t(
        table.language,
        f"thread.result.{outcome}",
        id=table.id,
        thread=said.channel(table.channel_id),
        left=render.duration(table.remaining or 0),
    )
    return Message(content=text)
