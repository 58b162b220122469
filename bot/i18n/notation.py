"""How cards are written and read: suits (7♥) or colours (7 red), in each language.

A server chooses the display: the classic deck's suits, or the coloured-deck edition,
where a card is its rank and colour. Typed card lists are read in every form whatever
the display: codes (``7H``), suit symbols (``7♥``, also ``7♥️`` or ``7♥︎`` with the
variation selectors keyboards add, and the outline symbols ``7♡``), the bot's own colour
squares (``7🟥``), and colours in English or French (``7 red``, ``7rouge``), with French
ranks too (``V``, ``D``, ``R`` for jack, queen and king). A line copied from a hand
("🟥 hearts: 3♥ 7♥", or "🟥 3 red, 7 red" in colours) is read too: a suit's name followed
by a colon is a heading, and a colour square standing alone is the line's bullet.
Anything else is refused by naming it (`UnreadableCard`), never with an exception of
another kind, whatever the text.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TypeVar

from bot.i18n.catalogs import languages, t
from engine import Colour, colour_of

W = TypeVar("W")

#: Display styles a server can choose.
STYLES = ("suits", "colours")
SUIT_LETTER = {c.suit: c for c in Colour}  # "H" -> Colour.RED
#: Every way a suit or colour may be typed, lower case.
SUIT_WORDS: dict[str, Colour] = {
    **{c.symbol: c for c in Colour},
    "♧": Colour.GREEN,
    "♡": Colour.RED,
    "♢": Colour.BLUE,
    "♤": Colour.YELLOW,
    "🟩": Colour.GREEN,
    "🟥": Colour.RED,
    "🟦": Colour.BLUE,
    "🟨": Colour.YELLOW,
    **{letter.lower(): c for letter, c in SUIT_LETTER.items()},
    **{c.value: c for c in Colour},
    "vert": Colour.GREEN,
    "verte": Colour.GREEN,
    "rouge": Colour.RED,
    "bleu": Colour.BLUE,
    "bleue": Colour.BLUE,
    "jaune": Colour.YELLOW,
}
RANK_WORDS = {
    **{str(n): str(n) for n in range(2, 11)},
    "j": "J",
    "q": "Q",
    "k": "K",
    "v": "J",  # valet
    "d": "Q",  # dame
    "r": "K",  # roi
}
_SUIT = "|".join(sorted(map(re.escape, SUIT_WORDS), key=len, reverse=True))
_RANK = "10|[2-9jqkvdr]"
CARD = re.compile(rf"(?P<rank>{_RANK})[\s-]*(?P<suit>{_SUIT})(?![\w])", re.IGNORECASE)
SEPARATORS = re.compile(r"[\s,;]+")
#: A colour square between cards: the bullet of a hand's line, not a card.
BULLETS = re.compile("[🟩🟥🟦🟨]")
#: Characters that change how a symbol looks, not what it is (text or emoji style).
VARIATION_SELECTORS = dict.fromkeys(map(ord, "\ufe0e\ufe0f"))


class UnreadableCard(ValueError):
    """A typed card list with something that is not a card; `token` is the first such."""

    def __init__(self, token: str) -> None:
        super().__init__(token)
        self.token = token


def _headings() -> re.Pattern[str]:
    """A hand's suit heading, as the bot writes it in any language: "🟥 hearts:"."""
    names = {
        t(language, f"{kind}.{c.value}")
        for language in languages()
        for c in Colour
        for kind in ("suit", "colour")
    }
    words = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
    squares = "|".join(re.escape(w) for w, c in SUIT_WORDS.items() if not w.isascii())
    return re.compile(rf"(?:(?:{squares})\s*)?(?:{words})\s*:", re.IGNORECASE)


HEADING = _headings()


def parse_cards(text: str) -> list[str]:
    """Cards typed by a player, as codes ("7H"); UnreadableCard for anything else."""
    clean = HEADING.sub(" ", unicodedata.normalize("NFC", text).translate(VARIATION_SELECTORS))
    cards, at = [], 0
    for match in CARD.finditer(clean):
        _check_gap(clean[at : match.start()])
        rank, suit = _word(RANK_WORDS, match["rank"]), _word(SUIT_WORDS, match["suit"])
        if rank is None or suit is None:  # a letter that only matches when case-folded
            raise UnreadableCard(match[0])
        cards.append(rank + suit.suit)
        at = match.end()
    _check_gap(clean[at:])
    return cards


def _word(words: dict[str, W], typed: str) -> W | None:
    """What a typed rank or suit means, in any case ("ſ" folds to "s": so does its lookup)."""
    return words.get(typed.lower(), words.get(typed.casefold()))


def _check_gap(gap: str) -> None:
    leftover = SEPARATORS.sub(" ", BULLETS.sub(" ", gap)).strip()
    if leftover:
        raise UnreadableCard(leftover[:40])


def card_text(card: str, language: str, style: str = "suits") -> str:
    """A card as a player reads it: "7♥", "V♠" in French, or "7 red" in colours."""
    rank, colour = card[:-1], colour_of(card)
    if rank in ("J", "Q", "K"):
        rank = t(language, f"rank.{rank}")
    if style == "colours":
        return t(
            language, "card.in_colour", rank=rank, colour=t(language, f"colour.{colour.value}")
        )
    return rank + colour.symbol


def cards_text(cards: list[str] | tuple[str, ...], language: str, style: str = "suits") -> str:
    """Cards one after another: "7♥ K♠", or "7 red, K yellow" in colours."""
    return (", " if style == "colours" else " ").join(card_text(c, language, style) for c in cards)
