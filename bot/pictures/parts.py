"""The parts of the board picture: where each fact of the table goes, and its drawing.

The board is laid out for Discord's phone apps, which show it about 330 px wide: 4:3
(the desktop app shows an embed's image up to 400 by 300), few words, and none smaller
than `SMALL` px, whose capitals are 8 px tall there (tests/bot/test_picture_scale.py).
`Shown` is what a picture shows. `PARTS` names each part: its box, the function that
draws it (in full colour, onto the whole board) and the facts it shows, by which
bot.pictures.board_picture caches it; a part drawn over another (`OVER`: a seat's name
over its row) is kept as the few pixels it changes in it. `BANDS` lay out the rows in
bands (`BandLayout`), grouped by what changes them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import lru_cache, partial
from operator import attrgetter
from typing import NamedTuple

from PIL import Image, ImageDraw

from bot.i18n.catalogs import t
from bot.pictures import names
from bot.pictures import sprites as sp
from engine import MAX_PLAYERS, Colour, Outcome, Rules, Section, Size, fuel_needed, rocket_points

WIDTH, HEIGHT = 480, 360
SMALL = 16  # the smallest text: headings, counts, notes
LARGE = 18  # names and Apophis's state
BAND_TOP = 250  # the bottom band: the cards, the seats and the turn
BAND_HEIGHT = HEIGHT - BAND_TOP
#: Where each public fact is drawn: (left, top, right, bottom).
REGIONS = {
    "apophis": (0, 0, 126, 180),
    "counters": (0, 180, 126, BAND_TOP),
    "rocket": (126, 0, 298, BAND_TOP),
    "sequence": (298, 0, WIDTH, 98),
    "depot": (298, 98, WIDTH, BAND_TOP),
    "cards": (0, BAND_TOP, 106, HEIGHT),
    "seats": (106, BAND_TOP, WIDTH, HEIGHT),
}
#: The panels behind Apophis, the rocket, the sequence, the depot and the piles.
PANELS = (
    (4, 4, 122, 246),
    (130, 4, 294, 246),
    (302, 4, 476, 94),
    (302, 102, 476, 246),
    (4, 252, 102, 354),
)
#: Each seat is a row of a table (name, hand size, what it is doing): its part's box, and
#: the box drawn in it.
SEAT_ROW = 26
SEAT_SLOTS = [
    (106, BAND_TOP + 1 + i * SEAT_ROW, WIDTH, BAND_TOP + 1 + (i + 1) * SEAT_ROW)
    for i in range(MAX_PLAYERS)
]
SEAT_BOXES = [(left + 2, top + 1, right - 4, bottom - 1) for left, top, right, bottom in SEAT_SLOTS]
NAME_LEFT = 20  # where the player's name begins, from a seat's left
NAME_WIDTH = 146  # a name longer than this is shortened, with an ellipsis
CARDS_LEFT = 174  # where the hand sizes begin, from a seat's left
#: Where each seat's name is drawn, over its row (its own part: the row is the same for
#: every game, and a name the same on every row of its game).
NAME_BOXES = [
    (box[0] + NAME_LEFT, slot[1], box[0] + CARDS_LEFT, slot[3])
    for slot, box in zip(SEAT_SLOTS, SEAT_BOXES, strict=True)
]
NOTE_LEFT = 220  # and where the note of the seat to act begins
APOPHIS_CENTRE = 63
ROCKET_CENTRE = 212
ROCKET_BASE = 68  # width of a large section on the rocket
ROCKET_PAD = 206  # where the rocket stands
ROCKET_TOP = 60  # how high it may reach (squeezed if taller), under its points
#: The rocket's own box (a part of its own: the points above it and the fuel check
#: under it are shared by other rockets), as wide as the words of an empty pad.
ROCKET_BOX = (ROCKET_CENTRE - 60, ROCKET_TOP, ROCKET_CENTRE + 60, ROCKET_PAD)
DEPOT_BASE = 40
APOPHIS_BASE = 92
#: An ended game's picture is the board under a banner of its own, this many rows tall,
#: which covers nothing of the table; the banner's box in it.
ENDING_HEIGHT = 76
ENDING_BOX = (4, 4, WIDTH - 4, ENDING_HEIGHT - 2)
#: A stacked section shows this share of its height below the one on top of it.
STACK_SHOWS = 0.55
COLUMNS = {colour: 304 + i * 43 for i, colour in enumerate(Colour)}  # sequence and depot


class Shown(NamedTuple):
    """Exactly what a board picture shows: the cache key, and all the drawing reads."""

    rules: Rules
    language: str  # of the words on it (the server's)
    outcome: Outcome | None
    active: int | None  # seat index
    note: str  # what the active seat is doing
    names: tuple[str, ...]  # the seats' players, as people see them
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


def fuel(rocket: tuple[Section, ...]) -> tuple[int, int, int]:
    """The rocket's points, its booster fuel (yellow points), and the fuel it needs."""
    points = rocket_points(rocket)
    total = sum(points.values())
    return total, points[Colour.YELLOW], fuel_needed(total)


def seat_name(s: Shown, index: int) -> str:
    """The name on a seat, as the fonts draw it in its place (bot.pictures.names)."""
    return names.fitted(s.names[index], LARGE, NAME_WIDTH)


def _sprite(image: Image.Image, sprite: Image.Image, centre_x: int, base_y: int) -> None:
    """Paste a sprite standing on base_y, centred on centre_x."""
    image.paste(sprite, (centre_x - sprite.width // 2, base_y - sprite.height), sprite)


def _symbol(
    image: Image.Image, colour: Colour, size: int, xy: tuple[int, int], ink: sp.RGB
) -> None:
    image.paste(ink, xy, sp.suit_mask(colour, size))


def _heading(image: Image.Image, panel: tuple[int, int, int, int], text: str) -> None:
    """A panel's heading, at its top left."""
    sp.paste_text(image, (panel[0] + 8, panel[1] + 6), text, SMALL, sp.MUTED)


def board_rgb(s: Shown) -> Image.Image:
    """The whole picture drawn in full colour (the end, the palette; tests compare parts):
    the board, under its banner once the game has ended (`ended`)."""
    image = background(s.language).copy()
    canvas = ImageDraw.Draw(image)
    for _, draw_part, _ in PARTS.values():
        draw_part(image, canvas, s)
    return image if s.outcome is None else ended(image, s.outcome, s.language)


@lru_cache(maxsize=8)
def background(language: str) -> Image.Image:
    """The panels and the headings that never change."""
    image = Image.new("RGB", (WIDTH, HEIGHT), sp.BACKGROUND)
    canvas = ImageDraw.Draw(image)
    for box in PANELS:
        canvas.rounded_rectangle(box, 8, fill=sp.PANEL)
    _heading(image, PANELS[0], t(language, "picture.apophis"))
    _heading(image, PANELS[3], t(language, "picture.depot"))
    for y, label in PILES.values():
        sp.paste_text(image, (PANELS[-1][0] + 8, y), t(language, label), SMALL, sp.MUTED)
    return image


def _apophis(image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    """The nest (large over medium over small), knocked-off pieces dashed; the counters."""
    cx, base = APOPHIS_CENTRE, 148
    value = max(3 - s.damage, 0)
    for size in (3, 2, 1):
        if size > value:  # knocked off: only its dashed outline remains
            _sprite(image, sp.outline_pyramid(size, APOPHIS_BASE, sp.MUTED, True), cx, base)
    if value:
        _sprite(image, sp.pyramid(None, value, APOPHIS_BASE), cx, base)
        for size in range(value - 1, 0, -1):  # the smaller pieces nested inside
            _sprite(image, sp.outline_pyramid(size, APOPHIS_BASE, sp.OUTLINE, False), cx, base)
    status = (
        t(s.language, "picture.damage", damage=s.damage)
        if value
        else t(s.language, "picture.destroyed")
    )
    sp.paste_text(image, (cx, 154), status, LARGE, sp.TEXT, "c")
    if s.rules is Rules.BASIC:
        for i in range(5):
            x, y, r = cx + (i - 2) * 22, 198, 9
            if i < s.counters:
                canvas.ellipse((x - r, y - r, x + r, y + r), fill=sp.TEXT)
            else:
                canvas.ellipse((x - r, y - r, x + r, y + r), outline=sp.MUTED, width=2)
        deflection = t(s.language, "picture.deflection", counters=s.counters)
        sp.paste_text(image, (cx, 214), deflection, SMALL, sp.MUTED, "c")
    else:
        deflection = t(s.language, "picture.no_deflection")
        sp.paste_text(image, (cx, 196), deflection, SMALL, sp.MUTED, "c")


def _rocket_points(image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    """The rocket's points, in all and by suit (above its stack)."""
    left, top = PANELS[1][:2]
    _heading(image, PANELS[1], t(s.language, "picture.rocket", count=fuel(s.rocket)[0]))
    points = rocket_points(s.rocket)
    for i, colour in enumerate(Colour):  # 6 points at most: one digit each
        x, ink = left + 12 + i * 38, sp.TEXT if points[colour] else sp.GHOST
        _symbol(image, colour, 16, (x, top + 34), ink)
        sp.paste_text(image, (x + 19, top + 30), str(points[colour]), LARGE, ink)


def _rocket(image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    """The rocket bottom to top on its pad (squeezed to fit when it is very tall), or the
    pad said empty."""
    cx, pad = ROCKET_CENTRE, ROCKET_PAD
    if not s.rocket:
        empty = t(s.language, "picture.empty_pad")
        sp.paste_text(image, (cx, pad - 40), empty, SMALL, sp.MUTED, "c")
        return
    heights = [sp.pyramid_size(size, ROCKET_BASE)[1] for _, size in s.rocket]
    steps = [h * STACK_SHOWS for h in heights[:-1]]
    room = pad - ROCKET_TOP - heights[-1]
    squeeze = min(1.0, room / sum(steps)) if steps else 1.0
    y = float(pad)
    for (colour, size), step in zip(s.rocket, [*steps, 0.0], strict=True):
        _sprite(image, sp.pyramid(colour, size, ROCKET_BASE), cx, round(y))
        y -= step * squeeze


def _rocket_fuel(image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    """The pad, and the fuel check in words under the rocket."""
    cx, pad = ROCKET_CENTRE, ROCKET_PAD
    canvas.rectangle((cx - 44, pad, cx + 44, pad + 4), fill=sp.MUTED)
    if not s.rocket:
        return
    _, booster, need = fuel(s.rocket)
    label = t(s.language, "picture.fuel_check", fuel=booster, need=need)
    width = sp.text_mask(label, SMALL).width + 6 + SMALL
    x = cx - width // 2
    sp.paste_text(image, (x, pad + 12), label, SMALL, sp.TEXT)
    sp.paste_mark(image, (x + width - SMALL, pad + 14), booster >= need, SMALL, sp.TEXT)


@lru_cache(maxsize=4096)
def _points(rocket: tuple[Section, ...]) -> tuple[int, ...]:
    return tuple(rocket_points(rocket).values())


def _points_facts(s: Shown) -> tuple[int, ...]:
    """What the rocket's points part shows: its points by suit."""
    return _points(s.rocket)


@lru_cache(maxsize=4096)
def _fuelled(rocket: tuple[Section, ...]) -> tuple[int, int] | None:
    return fuel(rocket)[1:] if rocket else None


def _fuel_facts(s: Shown) -> tuple[int, int] | None:
    """What the rocket's fuel part shows: its booster fuel and the fuel it needs (None
    without a rocket)."""
    return _fuelled(s.rocket)


def _sequence(image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    """Four suit slots, filled or still needed."""
    top = PANELS[2][1]
    _heading(image, PANELS[2], t(s.language, "picture.sequence", played=len(s.sequence)))
    for colour, x in COLUMNS.items():
        box = (x + 2, top + 32, x + 40, top + 82)
        if colour in s.sequence:
            fill = sp.PIECE_COLOURS[colour]
            sp.paste_box(image, box, 6, fill, sp.OUTLINE, 2)
            _symbol(image, colour, 26, (x + 8, top + 44), sp.ink_on(fill))
        else:
            sp.paste_box(image, box, 6, None, sp.GHOST, 2)
            _symbol(image, colour, 20, (x + 11, top + 47), sp.GHOST)


def _depot_piece(piece: Section, image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    """One of the depot's twelve pieces (by colour and size); a ghost when on the rocket."""
    sprite = sp.pyramid(*piece, DEPOT_BASE, piece not in s.depot)
    image.paste(sprite, DEPOT_BOXES[piece][:2], sprite)


def _depot_box(colour: Colour, size: Size) -> tuple[int, int, int, int]:
    """Where a piece of the depot stands: its column, on the line of its size."""
    base = PANELS[3][1] + {Size.LARGE: 74, Size.MEDIUM: 112, Size.SMALL: 141}[size]
    width, height = sp.pyramid_size(size, DEPOT_BASE)
    left = COLUMNS[colour] + 21 - width // 2
    return left, base - height, left + width, base


#: The depot's pieces: each drawn and cached apart, as a build ghosts only one of them.
DEPOT_BOXES = {(colour, size): _depot_box(colour, size) for colour in Colour for size in Size}


def _cards(image: Image.Image, xy: tuple[int, int], count: int) -> None:
    """A card face down, and how many there are: a pile's size, or a hand's."""
    x, y = xy
    sp.paste_box(image, (x, y + 4, x + 12, y + 20), 2, sp.MUTED, sp.TEXT)
    sp.paste_text(image, (x + 20, y), str(count), LARGE, sp.TEXT)


#: The piles of cards face down: where each one's label is (the background's), its size
#: under it.
PILES = {"deck": (BAND_TOP + 6, "picture.deck"), "discard": (BAND_TOP + 54, "picture.discard")}


def _pile(image: Image.Image, pile: str, count: int) -> None:
    """A pile's size, under its label."""
    _cards(image, (PANELS[-1][0] + 8, PILES[pile][0] + 21), count)


def _deck(image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    _pile(image, "deck", s.deck)


def _discard(image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    _pile(image, "discard", s.discard)


def _seat(index: int, image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    """The seat's row: its hand size, lit when it is to act, with what it is doing (its
    player's name is drawn over it: `_seat_name`)."""
    if index >= len(s.hands):
        return
    box, active = SEAT_BOXES[index], index == s.active
    sp.paste_box(image, box, 6, sp.GHOST if active else sp.PANEL, sp.TEXT if active else None, 2)
    left, top = box[:2]
    if active:
        marker = [(left + 7, top + 6), (left + 15, top + 12), (left + 7, top + 18)]
        canvas.polygon(marker, fill=sp.TEXT)
    _cards(image, (left + CARDS_LEFT, top + 1), s.hands[index])
    if active:
        note = sp.fitted(s.note, SMALL, box[2] - 8 - (left + NOTE_LEFT))
        sp.paste_text(image, (left + NOTE_LEFT, top + 3), note, SMALL, sp.TEXT)


def _seat_name(index: int, image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    """The seat's player's name, on its row (`_seat`, drawn first)."""
    if index >= len(s.hands):
        return
    left, top = SEAT_BOXES[index][:2]
    names.paste(image, (left + NAME_LEFT, top + 1), seat_name(s, index), LARGE, sp.TEXT)


def _in_depot(piece: Section, s: Shown) -> bool:
    return piece in s.depot


def _seat_facts(index: int, s: Shown) -> tuple:
    """A seat's row, but for its name: the same in every game."""
    if index >= len(s.hands):
        return ()
    return (s.hands[index], s.note) if index == s.active else (s.hands[index],)


def _lit(index: int, s: Shown) -> tuple:
    """Whether a seat's row is lit (its player is to act), if it has a player."""
    return () if index >= len(s.hands) else (index == s.active,)


def _lit_otherwise(index: int, s: Shown) -> Shown:
    """The same table with a seat's row lit if it was not, and not if it was."""
    return s._replace(active=None if s.active == index else index)


def _name_facts(index: int, s: Shown) -> tuple:
    """A seat's name, and whether its row is lit under it."""
    return () if index >= len(s.hands) else (s.names[index], index == s.active)


#: A box on the board: (left, top, right, bottom).
Box = tuple[int, int, int, int]
#: What draws a part, in full colour, onto the whole board (its image, a canvas on it).
Drawing = Callable[[Image.Image, ImageDraw.ImageDraw, Shown], None]
#: The facts a part shows, by which it is cached.
Facts = Callable[[Shown], Hashable]

#: The parts of a board: where each is drawn, by what, and the facts it shows.
PARTS: dict[str, tuple[Box, Drawing, Facts]] = {
    "apophis": ((0, 0, 126, BAND_TOP), _apophis, attrgetter("damage", "counters")),
    "rocket points": ((126, 0, 298, ROCKET_TOP), _rocket_points, _points_facts),
    "rocket": (ROCKET_BOX, _rocket, attrgetter("rocket")),
    "rocket fuel": ((126, ROCKET_PAD, 298, BAND_TOP), _rocket_fuel, _fuel_facts),
    "sequence": (REGIONS["sequence"], _sequence, attrgetter("sequence")),
    **{
        f"depot {colour.value} {size.label}": (
            box,
            partial(_depot_piece, (colour, size)),
            partial(_in_depot, (colour, size)),
        )
        for (colour, size), box in DEPOT_BOXES.items()
    },
    # Each beside the seats' rows whose band (`BANDS`) shows it: the deck's size beside
    # the second seat's, the discard's beside the third's and the fourth's.
    "deck": ((0, SEAT_SLOTS[1][1], 106, SEAT_SLOTS[2][1]), _deck, attrgetter("deck")),
    "discard": ((0, SEAT_SLOTS[2][1], 106, HEIGHT), _discard, attrgetter("discard")),
    **{
        part: drawing
        for i in range(MAX_PLAYERS)
        for part, drawing in (
            (f"seat {i}", (SEAT_SLOTS[i], partial(_seat, i), partial(_seat_facts, i))),
            (f"name {i}", (NAME_BOXES[i], partial(_seat_name, i), partial(_name_facts, i))),
        )
    },
}
#: The parts drawn over another, which is drawn before them: what they draw depends on
#: their own facts only, and so does the other's drawing inside their box.
OVER = {f"name {i}": f"seat {i}" for i in range(MAX_PLAYERS)}
#: What the other's drawing inside their box depends on (of their own facts): a seat's
#: row under its name is lit or not.
GROUND_FACTS = {f"name {i}": partial(_lit, i) for i in range(MAX_PLAYERS)}
#: The same table with the other's drawing inside their box in its other state (a seat's
#: row lit if it was not, and the other way): both are drawn at once.
TWINS = {f"name {i}": partial(_lit_otherwise, i) for i in range(MAX_PLAYERS)}


class BandLayout(NamedTuple):
    """Where a band of the picture's rows lies, and what it shows: whatever draws it reads
    only `facts`. Compressed, the band is a `pngwrite.Band`."""

    top: int
    bottom: int
    facts: Callable[[Shown], tuple]


def _seat_band_facts(index: int, pile: str | None, s: Shown) -> tuple:
    """A seat's band: its row, its name on it, and the size of the pile beside it."""
    return _seat_facts(index, s), _name_facts(index, s), pile and getattr(s, pile)


def _seat_band(index: int) -> BandLayout:
    """The rows of a seat (the first's from the bottom band's top, the last's to the
    picture's bottom), and the pile beside them (at most one: `PARTS`)."""
    top = BAND_TOP if index == 0 else SEAT_SLOTS[index][1]
    bottom = HEIGHT if index == MAX_PLAYERS - 1 else SEAT_SLOTS[index + 1][1]
    beside = [pile for pile in PILES if PARTS[pile][0][1] < bottom and PARTS[pile][0][3] > top]
    assert len(beside) <= 1, "a seat's band shows one pile at most"
    return BandLayout(top, bottom, partial(_seat_band_facts, index, next(iter(beside), None)))


#: The rows of the picture by what changes them: the top (Apophis, the rocket, the
#: sequence), the middle (Apophis, the rocket, the depot), then the bottom (the cards,
#: the seats and the turn, which nearly every action changes) by seat: an action
#: changes one or two seats' rows, and the others' bands are kept.
BANDS = (
    BandLayout(0, REGIONS["depot"][1], attrgetter("damage", "counters", "rocket", "sequence")),
    BandLayout(REGIONS["depot"][1], BAND_TOP, attrgetter("damage", "counters", "rocket", "depot")),
    *(_seat_band(i) for i in range(MAX_PLAYERS)),
)


#: The banner's colour by how the game ended: a win green, a loss red, no result grey
#: (the pieces' own colours, as the final board's embed, so the palette has them).
ENDING_FILL: dict[Outcome, sp.RGB] = {
    Outcome.DESTROYED: sp.PIECE_COLOURS[Colour.GREEN],
    Outcome.DEFLECTED: sp.PIECE_COLOURS[Colour.GREEN],
    Outcome.LOST: sp.PIECE_COLOURS[Colour.RED],
    Outcome.ABANDONED: sp.GHOST,
}


def ended(board: Image.Image, outcome: Outcome, language: str) -> Image.Image:
    """An ended game's picture: `board` (drawn as in play) under its banner."""
    image = Image.new("RGB", (WIDTH, ENDING_HEIGHT + HEIGHT), sp.BACKGROUND)
    ending(image, outcome, language)
    image.paste(board, (0, ENDING_HEIGHT))
    return image


def ending(image: Image.Image, outcome: Outcome, language: str) -> None:
    """The banner across the top `ENDING_HEIGHT` rows of `image`: how the game ended in
    big letters, and a line under it, on the outcome's colour."""
    title, line = ending_words(outcome, language)
    fill = ENDING_FILL[outcome]
    ink = sp.ink_on(fill)
    sp.paste_box(image, ENDING_BOX, 8, fill)
    sp.paste_text(image, (WIDTH // 2, ENDING_BOX[1] + 6), title, 32, ink, "c")
    sp.paste_text(image, (WIDTH // 2, ENDING_BOX[1] + 44), line, LARGE, ink, "c")
