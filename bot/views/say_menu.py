"""The hand panel's Say menu: every signal its player may give the team now, one click each."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from bot.i18n.catalogs import t
from bot.views.components import option, picker
from bot.views.render import COLOUR_EMOJI
from bot.views.talk import signal_text
from engine.signals import Signal, offered

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
    options = list(menu_options(signals, language, table.cards))
    return picker(table.id, table.version, "say", options, placeholder=t(language, "talk.menu"))


@functools.lru_cache(maxsize=4096)
def menu_options(
    signals: tuple[Signal, ...], language: str, style: str
) -> tuple[dict[str, Any], ...]:
    """The menu's options for `signals`, worded in `language` with the cards in `style`
    (worded once for each: every panel has the menu, mostly the same; never changed once
    made, as the panels that share them are only sent)."""
    return tuple(
        option(
            signal_text(s, language, style),
            s.code,
            COLOUR_EMOJI[s.colour] if s.colour is not None else EMOJI[s.kind],
        )
        for s in signals
    )
