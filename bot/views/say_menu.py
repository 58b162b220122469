"""The hand panel's Say menu: every signal its player may give the team now, one click each."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.i18n.catalogs import t
from bot.views.components import option, picker
from bot.views.render import COLOUR_EMOJI
from bot.views.talk import signal_text
from engine.signals import offered

if TYPE_CHECKING:
    from bot.table import Table
    from engine import PlayerView

#: The menu's emoji for the signals that name no suit.
EMOJI = {"launch_next": "🚀", "dont_scrap": "✋"}


def say_picker(table: Table, view: PlayerView, language: str) -> dict[str, Any] | None:
    """The panel's Say menu: every signal its player may give now, one at a time (None:
    none, the game being over)."""
    signals = offered(view)
    if not signals:
        return None
    options = [
        option(
            signal_text(s, language, table.cards),
            s.code,
            COLOUR_EMOJI[s.colour] if s.colour is not None else EMOJI[s.kind],
        )
        for s in signals
    ]
    return picker(table.id, table.version, "say", options, placeholder=t(language, "talk.menu"))
