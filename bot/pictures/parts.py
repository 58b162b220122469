"""The parts of the board picture: where each fact of the table goes, and its drawing.

`Shown` is what a picture shows. `PARTS` names each part: its box, the function that
draws it (in full colour, onto the whole board) and the facts it shows, by which
bot.pictures.board_picture caches it. `BANDS` lay out the rows in bands (`BandLayout`),
grouped by what changes them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, partial
from operator import attrgetter
from typing import NamedTuple

from PIL import Image, ImageDraw

from bot.i18n.catalogs import t
from bot.pictures import sprites as sp
from engine import MAX_PLAYERS, Colour, Outcome, Rules, Section, Size, rocket_points

WIDTH, HEIGHT = 640, 360
BAND_HEIGHT = 62  # the bottom band: the cards, the seats and the turn
BAND_TOP = HEIGHT - BAND_HEIGHT
PILES_WIDTH = 116
SEAT_WIDTH = (WIDTH - PILES_WIDTH) // MAX_PLAYERS
#: Where each public fact is drawn: (left, top, right, bottom).
REGIONS = {
    "apophis": (0, 28, 170, 228),
    "counters": (0, 228, 170, BAND_TOP),
    "rocket": (170, 28, 330, BAND_TOP),
    "sequence": (330, 28, 640, 104),
    "points": (330, 104, 640, 134),
    "depot": (330, 134, 640, BAND_TOP),
    "cards": (0, BAND_TOP, PILES_WIDTH, HEIGHT),
    "seats": (PILES_WIDTH, BAND_TOP, 640, HEIGHT),
}
#: Where each seat is drawn, and its box inside that.
SEAT_SLOTS = [
    (PILES_WIDTH + i * SEAT_WIDTH, BAND_TOP, PILES_WIDTH + (i + 1) * SEAT_WIDTH, HEIGHT)
    for i in range(MAX_PLAYERS)
]
SEAT_BOXES = [(left + 4, top + 6, right - 4, bottom - 6) for left, top, right, bottom in SEAT_SLOTS]
#: The panels behind Apophis, the rocket, the sequence and points, the depot, the piles.
PANELS = (
    (4, 28, 166, 294),
    (174, 28, 326, 294),
    (334, 28, 636, 130),
    (334, 134, 636, 294),
    (4, 304, PILES_WIDTH - 4, 354),
)
ROCKET_BASE = 64  # width of a large section on the rocket
DEPOT_BASE = 40
APOPHIS_BASE = 112
#: A stacked section shows this share of its height below the one on top of it.
STACK_SHOWS = 0.55
COLUMNS = {colour: 336 + i * 76 for i, colour in enumerate(Colour)}  # sequence and depot


class Shown(NamedTuple):
    """Exactly what a board picture shows: the cache key, and all the drawing reads."""

    rules: Rules
    language: str  # of the words on it (the server's)
    outcome: Outcome | None
    active: int | None  # seat index
    note: str  # what the active seat is doing
    hands: tuple[int, ...]
    damage: int
    counters: int
    rocket: tuple[Section, ...]
    sequence: frozenset[Colour]
    depot: frozenset[Section]
    deck: int
    discard: int


def ending_words(outcome: Outcome, language: str) -> tuple[str, str]:
    """The big line and the small one across an ended board."""
    return t(language, f"picture.end.{outcome.value}"), t(
        language, f"picture.end.{outcome.value}.line"
    )


def fuel(rocket: tuple[Section, ...]) -> tuple[int, bool]:
    points = rocket_points(rocket)
    total = sum(points.values())
    return total, 4 * points[Colour.YELLOW] >= total


def _sprite(image: Image.Image, sprite: Image.Image, centre_x: int, base_y: int) -> None:
    """Paste a sprite standing on base_y, centred on centre_x."""
    image.paste(sprite, (centre_x - sprite.width // 2, base_y - sprite.height), sprite)


def _symbol(image: Image.Image, colour: Colour, size: int, xy: tuple[int, int], ink: sp.RGB):
    image.paste(ink, xy, sp.suit_mask(colour, size))


def board_rgb(s: Shown) -> Image.Image:
    """The whole board drawn in full colour (the end, the palette; tests compare parts)."""
    image = background(s.rules, s.language).copy()
    canvas = ImageDraw.Draw(image)
    for _, draw_part, _ in PARTS.values():
        draw_part(image, canvas, s)
    if s.outcome is not None:
        ending(image, s.outcome, s.language)
    return image


@lru_cache(maxsize=8)
def background(rules: Rules, language: str) -> Image.Image:
    """The panels and the headings that never change."""
    image = Image.new("RGB", (WIDTH, HEIGHT), sp.BACKGROUND)
    canvas = ImageDraw.Draw(image)
    for box in PANELS:
        canvas.rounded_rectangle(box, 8, fill=sp.PANEL)
    heading = t(language, "picture.heading", rules=t(language, f"rules.{rules.value}"))
    sp.paste_text(image, (8, 6), heading, 15, sp.MUTED)
    left, top = REGIONS["depot"][:2]
    sp.paste_text(image, (left + 10, top + 6), t(language, "picture.depot"), 14, sp.MUTED)
    return image


def _apophis(image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    """The nest (large over medium over small), knocked-off pieces dashed; the counters."""
    cx, base = 85, 196
    sp.paste_text(image, (14, 34), t(s.language, "picture.apophis"), 14, sp.MUTED)
    value = max(3 - s.damage, 0)
    for size in (3, 2, 1):
        if size > value:  # knocked off: only its dashed outline remains
            _sprite(image, sp.outline_pyramid(size, APOPHIS_BASE, sp.MUTED, True), cx, base)
    if value:
        _sprite(image, sp.pyramid(None, value, APOPHIS_BASE), cx, base)
        for size in range(value - 1, 0, -1):  # the smaller pieces nested inside
            _sprite(image, sp.outline_pyramid(size, APOPHIS_BASE, sp.OUTLINE, False), cx, base)
    status = (
        t(s.language, "picture.value", value=value, damage=s.damage)
        if value
        else t(s.language, "picture.destroyed")
    )
    sp.paste_text(image, (cx, 200), status, 14, sp.TEXT, "c")
    if s.rules is Rules.BASIC:
        for i in range(5):
            x, y, r = 33 + i * 26, 246, 9
            if i < s.counters:
                canvas.ellipse((x - r, y - r, x + r, y + r), fill=sp.TEXT)
            else:
                canvas.ellipse((x - r, y - r, x + r, y + r), outline=sp.MUTED, width=2)
        deflection = t(s.language, "picture.deflection", counters=s.counters)
        sp.paste_text(image, (cx, 260), deflection, 13, sp.MUTED, "c")
    else:
        sp.paste_text(image, (cx, 246), t(s.language, "picture.no_deflection"), 13, sp.MUTED, "c")


def _rocket(image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    """The rocket bottom to top on its pad, squeezed to fit when it is very tall."""
    left, top, right, bottom = REGIONS["rocket"]
    cx, pad = (left + right) // 2, bottom - 14
    heading = t(s.language, "picture.rocket", sections=len(s.rocket))
    sp.paste_text(image, (left + 10, top + 6), heading, 14, sp.MUTED)
    canvas.rectangle((cx - 46, pad, cx + 46, pad + 4), fill=sp.MUTED)
    if not s.rocket:
        sp.paste_text(image, (cx, pad - 28), t(s.language, "picture.empty_pad"), 14, sp.MUTED, "c")
        return
    heights = [sp.pyramid_size(size, ROCKET_BASE)[1] for _, size in s.rocket]
    steps = [h * STACK_SHOWS for h in heights[:-1]]
    room = pad - (top + 28) - heights[-1]
    squeeze = min(1.0, room / sum(steps)) if steps else 1.0
    y = float(pad)
    for (colour, size), step in zip(s.rocket, [*steps, 0.0], strict=True):
        _sprite(image, sp.pyramid(colour, size, ROCKET_BASE), cx, round(y))
        y -= step * squeeze


def _sequence(image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    """Four suit slots, filled or still needed."""
    left, top = REGIONS["sequence"][:2]
    heading = t(s.language, "picture.sequence", played=len(s.sequence))
    sp.paste_text(image, (left + 10, top + 6), heading, 14, sp.MUTED)
    for colour, x in COLUMNS.items():
        box = (x + 4, top + 26, x + 68, top + 70)
        if colour in s.sequence:
            fill = sp.PIECE_COLOURS[colour]
            canvas.rounded_rectangle(box, 6, fill=fill, outline=sp.OUTLINE, width=2)
            _symbol(image, colour, 28, (x + 22, top + 34), sp.ink_on(fill))
        else:
            canvas.rounded_rectangle(box, 6, outline=sp.GHOST, width=2)
            _symbol(image, colour, 20, (x + 26, top + 38), sp.GHOST)


def _points(image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    """The rocket's points per suit, and whether its fuel passes the check."""
    left, top = REGIONS["points"][:2]
    points = rocket_points(s.rocket)
    y = top + 4
    for i, colour in enumerate(Colour):  # 6 points at most: one digit each
        x, ink = left + 10 + i * 34, sp.TEXT if points[colour] else sp.GHOST
        _symbol(image, colour, 16, (x, y + 2), ink)
        sp.paste_text(image, (x + 20, y), str(points[colour]), 17, ink)
    if s.rocket:
        total, ok = fuel(s.rocket)
        need = -(-total // 4)
        key = "picture.fuel_ok" if ok else "picture.fuel_needs"
        label = t(s.language, key, total=total, need=need)
        sp.paste_mark(image, (WIDTH - 30, y + 2), ok, 16, sp.TEXT)
        sp.paste_text(image, (WIDTH - 34, y + 3), label, 12, sp.TEXT, "r")


def _depot_piece(piece: Section, image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    """One of the depot's twelve pieces (by colour and size); a ghost when on the rocket."""
    sprite = sp.pyramid(*piece, DEPOT_BASE, piece not in s.depot)
    image.paste(sprite, DEPOT_BOXES[piece][:2], sprite)


def _depot_box(colour: Colour, size: Size) -> tuple[int, int, int, int]:
    """Where a piece of the depot stands: its column, on the line of its size."""
    base = REGIONS["depot"][1] + {Size.LARGE: 74, Size.MEDIUM: 116, Size.SMALL: 150}[size]
    width, height = sp.pyramid_size(size, DEPOT_BASE)
    left = COLUMNS[colour] + 36 - width // 2
    return left, base - height, left + width, base


#: The depot's pieces: each drawn and cached apart, as a build ghosts only one of them.
DEPOT_BOXES = {(colour, size): _depot_box(colour, size) for colour in Colour for size in Size}


def _pile(image: Image.Image, canvas: ImageDraw.ImageDraw, y: int, count: int, label: str) -> None:
    """A pile of cards face down: its size, and what it is."""
    left, right = PANELS[-1][0], PANELS[-1][2]
    icon = (left + 8, y + 2, left + 20, y + 18)
    canvas.rounded_rectangle(icon, 2, fill=sp.MUTED, outline=sp.TEXT)
    sp.paste_text(image, (left + 26, y - 1), str(count), 16, sp.TEXT)
    sp.paste_text(image, (right - 8, y + 2), label, 12, sp.MUTED, "r")


def _deck(image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    _pile(image, canvas, BAND_TOP + 10, s.deck, t(s.language, "picture.deck"))


def _discard(image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    _pile(image, canvas, BAND_TOP + 33, s.discard, t(s.language, "picture.discard"))


def _seat(index: int, image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    """The seat's box: its number and hand size; lit when it is to act, with what it does."""
    if index >= len(s.hands):
        return
    box, active = SEAT_BOXES[index], index == s.active
    canvas.rounded_rectangle(
        box,
        8,
        fill=sp.GHOST if active else sp.PANEL,
        outline=sp.TEXT if active else None,
        width=3,
    )
    x, y = box[0] + 8, box[1] + 6
    sp.paste_text(image, (x, y), t(s.language, "picture.seat", seat=index + 1), 16, sp.TEXT)
    held = t(s.language, "count.cards", count=s.hands[index])
    sp.paste_text(image, (box[2] - 8, y + 2), held, 13, sp.TEXT, "r")
    if active:
        y += 24
        canvas.polygon([(x, y + 2), (x + 8, y + 8), (x, y + 14)], fill=sp.TEXT)
        sp.paste_text(image, (x + 12, y), s.note, 12, sp.TEXT)


def _points_facts(s: Shown) -> tuple[int, ...]:
    """All the points row shows (no points at all: no rocket, no fuel check)."""
    return tuple(rocket_points(s.rocket).values())


def _in_depot(piece: Section, s: Shown) -> bool:
    return piece in s.depot


def _seat_facts(index: int, s: Shown) -> tuple:
    if index >= len(s.hands):
        return ()
    return (s.hands[index], s.note) if index == s.active else (s.hands[index],)


#: The parts of a board: where each is drawn, by what, and the facts it shows.
PARTS = {
    "apophis": ((0, 28, 170, BAND_TOP), _apophis, attrgetter("damage", "counters")),
    "rocket": (REGIONS["rocket"], _rocket, attrgetter("rocket")),
    "sequence": (REGIONS["sequence"], _sequence, attrgetter("sequence")),
    "points": (REGIONS["points"], _points, _points_facts),
    **{
        f"depot {colour.value} {size.label}": (
            box,
            partial(_depot_piece, (colour, size)),
            partial(_in_depot, (colour, size)),
        )
        for (colour, size), box in DEPOT_BOXES.items()
    },
    "deck": ((0, BAND_TOP, PILES_WIDTH, BAND_TOP + 31), _deck, attrgetter("deck")),
    "discard": ((0, BAND_TOP + 31, PILES_WIDTH, HEIGHT), _discard, attrgetter("discard")),
    **{
        f"seat {i}": (SEAT_SLOTS[i], partial(_seat, i), partial(_seat_facts, i))
        for i in range(MAX_PLAYERS)
    },
}


class BandLayout(NamedTuple):
    """Where a band of the picture's rows lies, and what it shows: whatever draws it reads
    only `facts` (the points follow from the rocket). Compressed, the band is a
    `pngwrite.Band`."""

    top: int
    bottom: int
    facts: Callable[[Shown], tuple]


#: The rows of the picture by what changes them: the heading (nothing), the top
#: (Apophis, the rocket, the sequence), the middle (the rocket, its points, the depot),
#: the bottom (the cards, the seats and the turn, which nearly every action changes).
BANDS = (
    BandLayout(0, REGIONS["apophis"][1], lambda s: ()),
    BandLayout(
        REGIONS["apophis"][1],
        REGIONS["points"][1],
        attrgetter("damage", "counters", "rocket", "sequence"),
    ),
    BandLayout(REGIONS["points"][1], BAND_TOP, attrgetter("damage", "counters", "rocket", "depot")),
    BandLayout(BAND_TOP, HEIGHT, attrgetter("deck", "discard", "hands", "active", "note")),
)


def ending(image: Image.Image, outcome: Outcome, language: str) -> None:
    title, line = ending_words(outcome, language)
    band = (0, 110, WIDTH, 200)
    shade = Image.new("L", (band[2] - band[0], band[3] - band[1]), 215)
    image.paste(sp.OUTLINE, band, shade)
    sp.paste_text(image, (WIDTH // 2, 122), title, 34, sp.TEXT, "c")
    sp.paste_text(image, (WIDTH // 2, 166), line, 18, sp.MUTED, "c")
