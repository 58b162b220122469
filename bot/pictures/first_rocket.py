"""A first game's picture: a rocket that can launch, drawn by the board picture's parts.

A red large, a yellow medium and a blue medium (7 points, 2 of them fuel: a quarter of 7 is
less than 2, so the fuel check passes), with three suits of its launch sequence played: one
more card, of the fourth suit, launches it. It is the board's rocket, sequence and depot
as the board picture draws them, so that a first-time player knows them on the board.
"""

from __future__ import annotations

from functools import lru_cache

from bot.i18n.catalogs import t
from bot.pictures import parts
from bot.pictures.board_picture import png
from engine import Colour, Rules, Size, fuel_needed, rocket_points

#: The rocket, bottom first, and the suits of its launch sequence already played.
ROCKET = ((Colour.RED, Size.LARGE), (Colour.YELLOW, Size.MEDIUM), (Colour.BLUE, Size.MEDIUM))
PLAYED = frozenset({Colour.RED, Colour.BLUE, Colour.YELLOW})
#: The part of the board it shows: the rocket, the launch sequence and the depot.
BOX = (parts.REGIONS["rocket"][0], 0, parts.WIDTH, parts.BAND_TOP)


@lru_cache(maxsize=8)
def draw(language: str) -> bytes:
    """The picture (PNG), its words in `language`."""
    shown = parts.Shown(
        rules=Rules.BASIC,
        language=language,
        outcome=None,
        active=None,
        note="",
        names=(),
        hands=(),
        damage=0,
        counters=0,
        rocket=ROCKET,
        sequence=PLAYED,
        depot=frozenset((c, s) for c in Colour for s in Size) - set(ROCKET),
        deck=0,
        discard=0,
    )
    return png(parts.board_rgb(shown).crop(BOX))


def describe(language: str) -> str:
    """The picture in words (its alt text)."""
    points = rocket_points(ROCKET)
    total = sum(points.values())
    return t(
        language,
        "first.picture.alt",
        points=total,
        fuel=points[Colour.YELLOW],
        need=fuel_needed(total),
    )
