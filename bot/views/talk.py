"""Table talk in words: a signal in the reader's language, and a seat's latest signal.

A signal (engine.signals) names a suit and a count at most, never a card, so its words
carry nothing of a hand beyond what its speaker chose to say. The board shows each
player's standing signal beside their seat in the channel's language; the live table
in its viewer's; the Say menu (bot.views.say_menu) is the speaker's own, on their panel.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n.catalogs import t
from bot.views.render import mention, suit_marks
from engine.signals import Signal, standing

if TYPE_CHECKING:
    from bot.table import Table
    from engine import PublicView

#: The mark before a signal, on the board, the table and the panel's note.
MARK = "💬"


def signal_text(signal: Signal, language: str, style: str = "suits") -> str:
    """A signal as its speaker says it, in `language`: "I'll build ♥", "I hold 2 ♦"."""
    key = f"talk.{signal.kind}"
    if signal.colour is None:
        return t(language, key)
    suit = suit_marks([signal.colour], style)
    if signal.count is None:
        return t(language, key, suit=suit)
    return t(language, key, suit=suit, count=signal.count)


def seat_signal(table: Table, view: PublicView, player: int, language: str) -> str | None:
    """The signal `player` gave that still stands (`view`: the game's public view), in
    `language` (None: none)."""
    if not table.said:
        return None
    said = standing(table.said.values(), view).get(player)
    return None if said is None else signal_text(said.signal, language, table.cards)


def seat_mark(table: Table, view: PublicView, player: int) -> str:
    """What the board adds to a player's line: " · 💬 I'll build ♥" (the channel's
    language), or nothing."""
    said = seat_signal(table, view, player, table.language)
    return "" if said is None else f" · {MARK} {said}"


def said_line(table: Table, view: PublicView, player: int) -> str:
    """A short board's line for a player's standing signal: "💬 @Bob: I'll build ♥" (the
    channel's language), or "" for none."""
    said = seat_signal(table, view, player, table.language)
    return "" if said is None else f"{MARK} {mention(player)}: {said}"
