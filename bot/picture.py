"""Pictures of the table (PNG) drawn from what the public sees, like chess.svg for a board.

`draw(view)` takes only a `PublicView`, so no card of any hand can reach a picture.
Pictures are cached by what they show (`shown(view)`): the countdown is not in them,
so a table that did not change draws nothing new. `describe(view)` is the picture's alt
text. `REGIONS` says where each part of the table is drawn. `png(image)` writes any of
our pictures in the palette they share.
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from bot import sprites as sp
from engine import Colour, Outcome, Phase, PublicView, Rules, Section, Size, rocket_points

WIDTH, HEIGHT = 640, 360
#: Where each public fact is drawn: (left, top, right, bottom).
REGIONS = {
    "apophis": (0, 28, 170, 206),
    "counters": (0, 206, 170, 250),
    "cards": (0, 250, 170, 298),
    "rocket": (170, 28, 330, 298),
    "sequence": (330, 28, 640, 104),
    "points": (330, 104, 640, 134),
    "depot": (330, 134, 640, 298),
    "seats": (0, 298, 640, 360),
}
#: Seat boxes inside "seats", one per seat in order.
SEAT_BOXES = [(8 + i * 158, 304, 158 + i * 158, 354) for i in range(4)]
ROCKET_BASE = 64  # width of a large section on the rocket
DEPOT_BASE = 40
APOPHIS_BASE = 112
#: A stacked section shows this share of its height below the one on top of it.
STACK_SHOWS = 0.55
COLUMNS = {colour: 336 + i * 76 for i, colour in enumerate(Colour)}  # sequence and depot
PNG_LEVEL = 1  # zlib effort: 6 is a fifth smaller and twice as slow
PALETTE_COLOURS = 96
CACHE_SIZE = 128  # most tables are drawn once: a few megabytes at most
ENDINGS = {
    Outcome.DESTROYED: ("APOPHIS DESTROYED", "Earth is safe"),
    Outcome.DEFLECTED: ("APOPHIS DEFLECTED", "It will miss Earth"),
    Outcome.LOST: ("EARTH HIT", "The countdown ran out"),
    Outcome.ABANDONED: ("GAME ENDED", "No result"),
}


class Shown(NamedTuple):
    """Exactly what a board picture shows: the cache key, and all the drawing reads."""

    rules: Rules
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


def shown(view: PublicView) -> Shown:
    """What the picture of `view` shows (equal for tables that look the same)."""
    players = [seat.player for seat in view.seats]
    active = players.index(view.active_player) if view.active_player in players else None
    pending = view.pending or {}
    note = {
        Phase.PLAY: "to play",
        Phase.DISCARD: f"discards {pending.get('count', '')}",
        Phase.RESHUFFLE: "waits: shuffling",
        Phase.REROLL: f"reroll? {pending.get('rerolls', 0)} left",
        Phase.OVER: "",
    }[view.phase]
    return Shown(
        rules=view.rules,
        outcome=view.outcome if view.phase is Phase.OVER else None,
        active=None if view.phase is Phase.OVER else active,
        note=note,
        hands=tuple(seat.hand_size for seat in view.seats),
        damage=view.damage,
        counters=view.counters,
        rocket=tuple(view.rocket),
        sequence=frozenset(view.sequence),
        depot=frozenset(view.depot),
        deck=view.deck_size,
        discard=view.discard_size,
    )


def draw(view: PublicView) -> bytes:
    """The board picture of `view` as PNG bytes (the same table gives the same bytes)."""
    return _board(shown(view))


def describe(view: PublicView) -> str:
    """The board picture in words (its alt text)."""
    s = shown(view)
    parts = [f"Apophis value {max(3 - s.damage, 0)}, damage {s.damage} of 3"]
    if s.rules is Rules.BASIC:
        parts.append(f"deflection {s.counters} of 5")
    if s.rocket:
        sections = ", ".join(f"{Size(z).label} {c.value}" for c, z in s.rocket)
        total, fuel = _fuel(s.rocket)
        parts.append(
            f"rocket bottom to top: {sections} ({total} points, fuel {'ok' if fuel else 'short'})"
        )
    else:
        parts.append("no rocket")
    parts.append(f"launch sequence {len(s.sequence)} of 4")
    parts.append(f"deck {s.deck}, discard pile {s.discard}")
    parts.append("hands " + ", ".join(f"seat {i + 1}: {n}" for i, n in enumerate(s.hands)))
    if s.outcome is not None:
        parts.append(" ".join(ENDINGS[s.outcome]).capitalize())
    elif s.active is not None:
        parts.append(f"seat {s.active + 1} {s.note}")
    return "Board: " + "; ".join(parts) + "."


def _fuel(rocket: tuple[Section, ...]) -> tuple[int, bool]:
    points = rocket_points(rocket)
    total = sum(points.values())
    return total, 4 * points[Colour.YELLOW] >= total


# ------------------------------------------------------------------ drawing


def png(image: Image.Image) -> bytes:
    """PNG of `image` in the fixed palette: a third of the bytes, and fast to encode."""
    out = io.BytesIO()
    (image if image.mode == "P" else _quantize(image)).save(out, "PNG", compress_level=PNG_LEVEL)
    return out.getvalue()


def _quantize(image: Image.Image) -> Image.Image:
    return image.quantize(palette=_palette(), dither=Image.Dither.NONE)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The colours of every picture, found once from sample pictures showing them all."""
    rocket = ((Colour.YELLOW, Size.LARGE), (Colour.RED, Size.MEDIUM), (Colour.BLUE, Size.SMALL))
    sample = Shown(
        Rules.BASIC,
        None,
        0,
        "to play",
        (5, 2, 0, 3),
        1,
        2,
        rocket,
        frozenset({Colour.GREEN, Colour.BLUE}),
        frozenset((Colour.GREEN, z) for z in Size),
        9,
        30,
    )
    images = [_board_rgb(sample), _board_rgb(sample._replace(outcome=Outcome.LOST, rocket=()))]
    strip = Image.new("RGB", (WIDTH, HEIGHT * len(images)))
    for i, image in enumerate(images):
        strip.paste(image, (0, i * HEIGHT))
    die = sp.die_face(5, 34)  # and the launch report's dice
    strip.paste(die, (WIDTH // 2, HEIGHT // 2), die)
    return strip.quantize(PALETTE_COLOURS, Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _sprite(image: Image.Image, sprite: Image.Image, centre_x: int, base_y: int) -> None:
    """Paste a sprite standing on base_y, centred on centre_x."""
    image.paste(sprite, (centre_x - sprite.width // 2, base_y - sprite.height), sprite)


def _symbol(image: Image.Image, colour: Colour, size: int, xy: tuple[int, int], ink: sp.RGB):
    image.paste(ink, xy, sp.suit_mask(colour, size))


@lru_cache(maxsize=CACHE_SIZE)
def _board(s: Shown) -> bytes:
    return png(_board_image(s))


def _board_image(s: Shown) -> Image.Image:
    """The board in the palette, put together from parts drawn once for what they show."""
    if s.outcome is not None:  # the end shades the whole board: drawn whole (once a game)
        return _quantize(_board_rgb(s))
    image = _background_in_palette(s.rules).copy()
    for name, (box, _, _) in PARTS.items():
        image.paste(_part(name, s), box[:2])
    return image


def _board_rgb(s: Shown) -> Image.Image:
    image = _background(s.rules).copy()
    canvas = ImageDraw.Draw(image)
    for _, draw_part, _ in PARTS.values():
        draw_part(image, canvas, s)
    if s.outcome is not None:
        _ending(image, s.outcome)
    return image


@lru_cache(maxsize=2)
def _background(rules: Rules) -> Image.Image:
    """The panels and the heading."""
    image = Image.new("RGB", (WIDTH, HEIGHT), sp.BACKGROUND)
    canvas = ImageDraw.Draw(image)
    for name in ("apophis", "rocket", "sequence", "depot"):
        left, top, right, bottom = REGIONS[name]
        canvas.rounded_rectangle((left + 4, top, right - 4, bottom - 4), 8, fill=sp.PANEL)
    sp.paste_text(image, (8, 6), f"APOPHIS  ·  {rules.value} rules", 15, sp.MUTED)
    return image


@lru_cache(maxsize=2)
def _background_in_palette(rules: Rules) -> Image.Image:
    return _quantize(_background(rules))


_parts: dict[tuple, Image.Image] = {}


def _part(name: str, s: Shown) -> Image.Image:
    """One part of the board (in the palette), drawn once for the facts it shows."""
    box, draw_part, fields = PARTS[name]
    key = (name, s.rules, *(getattr(s, field) for field in fields))
    part = _parts.get(key)
    if part is None:
        image = _background(s.rules).copy()
        draw_part(image, ImageDraw.Draw(image), s)
        part = _quantize(image.crop(box))
        if len(_parts) >= PART_CACHE_SIZE:
            _parts.clear()
        _parts[key] = part
    return part


def _apophis(image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    """The nest (large over medium over small), knocked-off pieces dashed; the counters."""
    cx, base = 85, 184
    sp.paste_text(image, (14, 34), "APOPHIS", 14, sp.MUTED)
    value = max(3 - s.damage, 0)
    for size in (3, 2, 1):
        if size > value:  # knocked off: only its dashed outline remains
            _sprite(image, sp.outline_pyramid(size, APOPHIS_BASE, sp.MUTED, True), cx, base)
    if value:
        _sprite(image, sp.pyramid(None, value, APOPHIS_BASE), cx, base)
        for size in range(value - 1, 0, -1):  # the smaller pieces nested inside
            _sprite(image, sp.outline_pyramid(size, APOPHIS_BASE, sp.OUTLINE, False), cx, base)
    status = f"value {value}  ·  damage {s.damage}/3" if value else "destroyed"
    sp.paste_text(image, (cx, 186), status, 14, sp.TEXT, "c")
    if s.rules is Rules.BASIC:
        for i in range(5):
            x, y, r = 33 + i * 26, 222, 9
            if i < s.counters:
                canvas.ellipse((x - r, y - r, x + r, y + r), fill=sp.TEXT)
            else:
                canvas.ellipse((x - r, y - r, x + r, y + r), outline=sp.MUTED, width=2)
        sp.paste_text(image, (cx, 233), f"deflection {s.counters}/5", 13, sp.MUTED, "c")
    else:
        sp.paste_text(image, (cx, 222), "no deflection", 13, sp.MUTED, "c")


def _rocket(image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    """The rocket bottom to top on its pad, squeezed to fit when it is very tall."""
    left, top, right, bottom = REGIONS["rocket"]
    cx, pad = (left + right) // 2, bottom - 14
    sp.paste_text(image, (left + 10, top + 6), f"ROCKET  {len(s.rocket)}", 14, sp.MUTED)
    canvas.rectangle((cx - 46, pad, cx + 46, pad + 4), fill=sp.MUTED)
    if not s.rocket:
        sp.paste_text(image, (cx, pad - 28), "empty pad", 14, sp.MUTED, "c")
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
    """Four suit slots, filled or still needed; under them the rocket's points and fuel."""
    left, top = REGIONS["sequence"][:2]
    sp.paste_text(
        image, (left + 10, top + 6), f"LAUNCH SEQUENCE  {len(s.sequence)}/4", 14, sp.MUTED
    )
    for colour, x in COLUMNS.items():
        box = (x + 4, top + 26, x + 68, top + 70)
        if colour in s.sequence:
            fill = sp.PIECE_COLOURS[colour]
            canvas.rounded_rectangle(box, 6, fill=fill, outline=sp.OUTLINE, width=2)
            _symbol(image, colour, 28, (x + 22, top + 34), sp.ink_on(fill))
        else:
            canvas.rounded_rectangle(box, 6, outline=sp.GHOST, width=2)
            _symbol(image, colour, 20, (x + 26, top + 38), sp.GHOST)
    points = rocket_points(s.rocket)
    y = REGIONS["points"][1] + 4
    for i, colour in enumerate(Colour):
        x, ink = left + 10 + i * 46, sp.TEXT if points[colour] else sp.GHOST
        _symbol(image, colour, 16, (x, y + 2), ink)
        sp.paste_text(image, (x + 20, y), str(points[colour]), 17, ink)
    if s.rocket:
        total, ok = _fuel(s.rocket)
        need = -(-total // 4)
        label = f"{total} pts, fuel ok" if ok else f"{total} pts, fuel needs {need}"
        image.paste(sp.TEXT, (WIDTH - 30, y + 2), sp.mark(ok, 16))
        sp.paste_text(image, (WIDTH - 34, y + 2), label, 13, sp.TEXT, "r")


def _depot(image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    """The twelve pieces by colour and size; those on the rocket are ghosts."""
    left, top = REGIONS["depot"][:2]
    sp.paste_text(image, (left + 10, top + 6), "DEPOT", 14, sp.MUTED)
    bases = {Size.LARGE: top + 74, Size.MEDIUM: top + 116, Size.SMALL: top + 150}
    for colour, x in COLUMNS.items():
        for size, base in bases.items():
            ghost = (colour, size) not in s.depot
            _sprite(image, sp.pyramid(colour, size, DEPOT_BASE, ghost), x + 36, base)


def _cards(image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    left, top = REGIONS["cards"][:2]
    for i, (label, count) in enumerate((("deck", s.deck), ("discard", s.discard))):
        x, y = left + 14 + i * 80, top + 6
        canvas.rounded_rectangle((x, y, x + 22, y + 32), 4, fill=sp.MUTED, outline=sp.TEXT)
        sp.paste_text(image, (x + 28, y - 2), str(count), 20, sp.TEXT)
        sp.paste_text(image, (x + 28, y + 20), label, 12, sp.MUTED)


def _seats(image: Image.Image, canvas: ImageDraw.ImageDraw, s: Shown) -> None:
    """A box per seat: its number and hand size; the active seat lit, with what it does."""
    for i, (box, hand) in enumerate(zip(SEAT_BOXES, s.hands, strict=False)):
        active = i == s.active
        canvas.rounded_rectangle(
            box,
            8,
            fill=sp.GHOST if active else sp.PANEL,
            outline=sp.TEXT if active else None,
            width=3,
        )
        x, y = box[0] + 10, box[1] + 6
        if active:
            canvas.polygon([(x, y + 4), (x + 12, y + 12), (x, y + 20)], fill=sp.TEXT)
            x += 18
        sp.paste_text(image, (x, y), f"Seat {i + 1}", 18, sp.TEXT)
        sp.paste_text(
            image, (box[2] - 10, y + 2), f"{hand} card{'s' if hand != 1 else ''}", 14, sp.TEXT, "r"
        )
        if active:
            sp.paste_text(image, (box[0] + 28, y + 24), s.note, 13, sp.TEXT)


#: The parts of a board: where each is drawn, by what, and the facts it shows.
PARTS = {
    "apophis": ((0, 28, 170, 250), _apophis, ("damage", "counters")),
    "cards": (REGIONS["cards"], _cards, ("deck", "discard")),
    "rocket": (REGIONS["rocket"], _rocket, ("rocket",)),
    "sequence": ((330, 28, 640, 134), _sequence, ("sequence", "rocket")),
    "depot": (REGIONS["depot"], _depot, ("depot",)),
    "seats": (REGIONS["seats"], _seats, ("hands", "active", "note")),
}
PART_CACHE_SIZE = 256  # parts of 8 to 50 KB: 10 MB at most


def _ending(image: Image.Image, outcome: Outcome) -> None:
    title, line = ENDINGS[outcome]
    band = (0, 110, WIDTH, 200)
    shade = Image.new("L", (band[2] - band[0], band[3] - band[1]), 215)
    image.paste(sp.OUTLINE, band, shade)
    sp.paste_text(image, (WIDTH // 2, 122), title, 34, sp.TEXT, "c")
    sp.paste_text(image, (WIDTH // 2, 166), line, 18, sp.MUTED, "c")
