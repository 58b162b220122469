"""Components: colours and their suits, section sizes, cards and the Parts Depot."""

from __future__ import annotations

from enum import IntEnum, StrEnum


class Rules(StrEnum):
    """Which rule set a game is played with."""

    BASIC = "basic"
    ADVANCED = "advanced"


class Colour(StrEnum):
    """A colour of rocket section; each colour is paid for with one suit of cards."""

    GREEN = "green"
    RED = "red"
    BLUE = "blue"
    YELLOW = "yellow"

    @property
    def suit(self) -> str:
        """The one-letter suit code of the cards that build this colour."""
        return _SUIT_LETTER[self]

    @property
    def symbol(self) -> str:
        """The suit symbol shown on cards of this colour."""
        return _SUIT_SYMBOL[self]

    @property
    def suit_name(self) -> str:
        """The suit's English name, plural ("clubs")."""
        return _SUIT_NAME[self]

    def role(self, rules: Rules) -> str:
        """What a section of this colour does under the given rules."""
        if self is Colour.GREEN:
            return "Deflecting warhead" if rules is Rules.BASIC else "Fail-safe"
        return _ROLE[self]


def fuel_needed(total_points: int) -> int:
    """The booster fuel (yellow points) a rocket of `total_points` needs to pass the fuel
    check: a quarter of its points, rounded up."""
    return -(-total_points // 4)


_SUIT_LETTER = {Colour.GREEN: "C", Colour.RED: "H", Colour.BLUE: "D", Colour.YELLOW: "S"}
_SUIT_SYMBOL = {Colour.GREEN: "♣", Colour.RED: "♥", Colour.BLUE: "♦", Colour.YELLOW: "♠"}
_SUIT_NAME = {
    Colour.GREEN: "clubs",
    Colour.RED: "hearts",
    Colour.BLUE: "diamonds",
    Colour.YELLOW: "spades",
}
_ROLE = {
    Colour.RED: "Nuclear warhead",
    Colour.BLUE: "Guidance system",
    Colour.YELLOW: "Booster fuel",
}
_COLOUR_OF_SUIT = {letter: colour for colour, letter in _SUIT_LETTER.items()}


class Size(IntEnum):
    """A pyramid size; its value is both its cost in cards and its points at launch."""

    SMALL = 1
    MEDIUM = 2
    LARGE = 3

    @property
    def label(self) -> str:
        """The size's name in lower case ("large")."""
        return self.name.lower()


#: Ranks in play. One card of each suit (the ace) is set aside under the depot.
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

#: A rocket section or depot piece: a colour and a size.
Section = tuple[Colour, Size]

ALL_SECTIONS: tuple[Section, ...] = tuple((c, s) for c in Colour for s in Size)


def full_deck() -> list[str]:
    """The 48 cards in play, as codes such as "7H" or "10C", in a fixed order."""
    return [rank + colour.suit for colour in Colour for rank in RANKS]


def colour_of(card: str) -> Colour:
    """The colour a card pays for. Every card is worth exactly 1 of its colour."""
    try:
        return _COLOUR_OF_SUIT[card[-1]]
    except (KeyError, IndexError):
        raise ValueError(f"not a card: {card!r}") from None


def card_label(card: str) -> str:
    """A card as a person reads it: "7♥", "10♣"."""
    return card[:-1] + colour_of(card).symbol


def is_card(card: object) -> bool:
    """True when the value is the code of a card in play."""
    return (
        isinstance(card, str)
        and len(card) >= 2
        and card[-1] in _COLOUR_OF_SUIT
        and card[:-1] in RANKS
    )


def section_label(section: Section) -> str:
    """A section as a person reads it: "large green"."""
    colour, size = section
    return f"{size.label} {colour.value}"
