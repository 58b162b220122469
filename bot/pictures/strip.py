"""The board's strip: Apophis, the rocket, the launch sequence and the seats in one short,
wide picture.

The Discord board shows it in place of the whole table (bot.pictures.board_picture) so
that the board and a hand panel stand on a phone's screen together: 480 × 136, shown
about 244 px wide there (69 px tall), none of its words smaller than the table's
(`parts.SMALL`). The rocket lies on its side, bottom section on the left; under the
three panels, one row of the seats (each player's name, the one to act lit, and the
cards in their hand). What the strip leaves out (the depot, the piles) is behind the
board's Details. Drawn only from what the public sees; the table above the seats is
kept by what it shows (most actions change only the seats). A game's end is the final
board's words (no banner: the strip stays short).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.i18n.catalogs import t
from bot.pictures import names
from bot.pictures import sprites as sp
from bot.pictures.parts import SMALL, WIDTH, fuel
from engine import Colour, Rules, Section

TABLE_HEIGHT = 112  # the three panels
SEATS_HEIGHT = 24  # the row of seats under them
HEIGHT = TABLE_HEIGHT + SEATS_HEIGHT
#: The three panels: Apophis, the rocket, the sequence (left, top, right, bottom).
PANELS = (
    (4, 4, 118, TABLE_HEIGHT - 4),
    (122, 4, 326, TABLE_HEIGHT - 4),
    (330, 4, WIDTH - 4, TABLE_HEIGHT - 4),
)
APOPHIS_BASE = 42
SECTION_BASE = 40  # a large section's width on the rocket, as in the depot
ROCKET_FLOOR = 78  # where the sections stand
SLOT = 33  # a sequence slot's pitch


def _heading(image: Image.Image, panel: tuple[int, int, int, int], text: str) -> None:
    sp.paste_text(image, (panel[0] + 8, panel[1] + 5), text, SMALL, sp.MUTED)


def _sprite(image: Image.Image, sprite: Image.Image, left: int, base: int) -> None:
    image.paste(sprite, (left, base - sprite.height), sprite)


def _apophis(
    image: Image.Image,
    canvas: ImageDraw.ImageDraw,
    rules: Rules,
    damage: int,
    counters: int,
    language: str,
) -> None:
    """The nest, its knocked-off pieces dashed, the damage in words, the counters as dots."""
    panel = PANELS[0]
    _heading(image, panel, t(language, "picture.apophis"))
    cx, base, value = (panel[0] + panel[2]) // 2, 72, max(3 - damage, 0)
    for size in (3, 2, 1):
        if size > value:
            outline = sp.outline_pyramid(size, APOPHIS_BASE, sp.MUTED, True)
            _sprite(image, outline, cx - outline.width // 2, base)
    if value:
        stone = sp.pyramid(None, value, APOPHIS_BASE)
        _sprite(image, stone, cx - stone.width // 2, base)
    status = (
        t(language, "picture.damage", damage=damage) if value else t(language, "picture.destroyed")
    )
    sp.paste_text(image, (cx, base + 3), status, SMALL, sp.TEXT, "c")
    if rules is Rules.BASIC:
        for i in range(5):
            x, y, r = cx + (i - 2) * 16, base + 28, 6
            box = (x - r, y - r, x + r, y + r)
            if i < counters:
                canvas.ellipse(box, fill=sp.TEXT)
            else:
                canvas.ellipse(box, outline=sp.MUTED, width=2)


def _rocket(image: Image.Image, rocket: tuple[Section, ...], language: str) -> None:
    """The sections side by side, bottom first (squeezed together when many), its points,
    and the fuel check under them; or the pad said empty."""
    panel = PANELS[1]
    total, booster, need = fuel(rocket)
    _heading(image, panel, t(language, "picture.rocket", count=total))
    left, right = panel[0] + 10, panel[2] - 10
    if not rocket:
        sp.paste_text(
            image, ((left + right) // 2, 44), t(language, "picture.empty_pad"), SMALL, sp.MUTED, "c"
        )
        return
    widths = [sp.pyramid_size(size, SECTION_BASE)[0] for _, size in rocket]
    room = right - left - widths[-1]
    step = min(1.0, room / sum(widths[:-1])) if len(widths) > 1 else 1.0
    x = float(left)
    for (colour, size), wide in zip(rocket, widths, strict=True):
        _sprite(image, sp.pyramid(colour, size, SECTION_BASE), round(x), ROCKET_FLOOR)
        x += (wide + 4) * step if step == 1.0 else wide * step
    label = t(language, "picture.fuel_check", fuel=booster, need=need)
    width = sp.paste_text(image, (left, ROCKET_FLOOR + 8), label, SMALL, sp.TEXT)
    sp.paste_mark(image, (left + width + 6, ROCKET_FLOOR + 10), booster >= need, SMALL, sp.TEXT)


def _sequence(image: Image.Image, sequence: frozenset[Colour], language: str) -> None:
    """Four suit slots, filled or still needed."""
    panel = PANELS[2]
    _heading(image, panel, t(language, "picture.sequence", played=len(sequence)))
    for i, colour in enumerate(Colour):
        x = panel[0] + 10 + i * SLOT
        box = (x, 30, x + SLOT - 5, 72)
        if colour in sequence:
            fill = sp.PIECE_COLOURS[colour]
            sp.paste_box(image, box, 6, fill, sp.OUTLINE, 2)
            image.paste(sp.ink_on(fill), (x + 3, 40), sp.suit_mask(colour, 22))
        else:
            sp.paste_box(image, box, 6, None, sp.GHOST, 2)
            image.paste(sp.GHOST, (x + 5, 42), sp.suit_mask(colour, 18))


@lru_cache(maxsize=256)
def table_rgb(
    rules: Rules,
    language: str,
    damage: int,
    counters: int,
    rocket: tuple[Section, ...],
    sequence: frozenset[Colour],
) -> Image.Image:
    """The three panels in full colour (kept: a build, a launch or a scrap changes them)."""
    table = Image.new("RGB", (WIDTH, TABLE_HEIGHT), sp.BACKGROUND)
    canvas = ImageDraw.Draw(table)
    for panel in PANELS:
        canvas.rounded_rectangle(panel, 8, fill=sp.PANEL)
    _apophis(table, canvas, rules, damage, counters, language)
    _rocket(table, rocket, language)
    _sequence(table, sequence, language)
    return table


def _seats(
    image: Image.Image, top: int, seats: tuple[str, ...], hands: tuple[int, ...], active: int | None
) -> None:
    """One cell a seat: the one to act lit and marked ▶, its player's name (shortened to
    fit), the cards in their hand."""
    canvas = ImageDraw.Draw(image)
    wide = (WIDTH - 4) // max(len(seats), 1)
    for i, (name, held) in enumerate(zip(seats, hands, strict=True)):
        left, lit = 4 + i * wide, i == active
        box = (left, top, left + wide - 4, top + SEATS_HEIGHT - 4)
        sp.paste_box(image, box, 6, sp.GHOST if lit else sp.PANEL, sp.TEXT if lit else None, 2)
        if lit:
            y = top + 5
            canvas.polygon([(left + 6, y), (left + 13, y + 6), (left + 6, y + 12)], fill=sp.TEXT)
        count = str(held)
        count_width = sp.text_mask(count, SMALL).width
        shown = names.fitted(name, SMALL, wide - 50 - count_width)
        names.paste(image, (left + 17, top + 2), shown, SMALL, sp.TEXT)
        right = box[2] - 6
        sp.paste_text(image, (right, top + 2), count, SMALL, sp.TEXT, "r")
        card = right - count_width - 14  # a card face down, before the count
        sp.paste_box(image, (card, top + 5, card + 9, top + 17), 2, sp.MUTED, sp.TEXT)


def strip_rgb(
    table: tuple[Rules, str, int, int, tuple[Section, ...], frozenset[Colour]],
    seats: tuple[str, ...],
    hands: tuple[int, ...],
    active: int | None,
) -> Image.Image:
    """The strip in full colour: the panels (`table`: `table_rgb`'s facts), then the seats
    (their players' `seats` names, the cards in their `hands`, the seat to act)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), sp.BACKGROUND)
    image.paste(table_rgb(*table), (0, 0))
    _seats(image, TABLE_HEIGHT, seats, hands, active)
    return image
