"""The board's strip: Apophis, the rocket and the launch sequence in one short, wide picture.

The Discord board shows it in place of the whole table (bot.pictures.board_picture) so
that the board and a hand panel stand on a phone's screen together: 480 × 128, shown
about 244 px wide there (76 px tall), none of its words smaller than the table's
(`parts.SMALL`). The rocket lies on its side, bottom section on the left. What the strip
leaves out (the depot, the piles, the seats) the board says in words or behind Details.
Drawn only from what the public sees, and cached by it: draws and discards, which change
none of it, draw nothing new. A game's end puts its banner above (`parts.ending`).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.i18n.catalogs import t
from bot.pictures import sprites as sp
from bot.pictures.parts import ENDING_HEIGHT, LARGE, SMALL, WIDTH, ending, fuel
from engine import Colour, Outcome, Rules, Section

HEIGHT = 128
#: The three panels: Apophis, the rocket, the sequence (left, top, right, bottom).
PANELS = ((4, 4, 118, HEIGHT - 4), (122, 4, 326, HEIGHT - 4), (330, 4, WIDTH - 4, HEIGHT - 4))
APOPHIS_BASE = 52
SECTION_BASE = 40  # a large section's width on the rocket, as in the depot
ROCKET_FLOOR = 90  # where the sections stand
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
    cx, base, value = (panel[0] + panel[2]) // 2, 80, max(3 - damage, 0)
    for size in (3, 2, 1):
        if size > value:
            outline = sp.outline_pyramid(size, APOPHIS_BASE, sp.MUTED, True)
            _sprite(image, outline, cx - outline.width // 2, base)
    if value:
        stone = sp.pyramid(None, value, APOPHIS_BASE)
        _sprite(image, stone, cx - stone.width // 2, base)
    status = t(language, "picture.damage", damage=damage) if value else t(language, "picture.destroyed")
    sp.paste_text(image, (cx, base + 3), status, SMALL, sp.TEXT, "c")
    if rules is Rules.BASIC:
        for i in range(5):
            x, y, r = cx + (i - 2) * 16, base + 32, 6
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
        sp.paste_text(image, ((left + right) // 2, 52), t(language, "picture.empty_pad"), SMALL, sp.MUTED, "c")
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
        box = (x, 40, x + SLOT - 5, 84)
        if colour in sequence:
            fill = sp.PIECE_COLOURS[colour]
            sp.paste_box(image, box, 6, fill, sp.OUTLINE, 2)
            image.paste(sp.ink_on(fill), (x + 3, 51), sp.suit_mask(colour, 22))
        else:
            sp.paste_box(image, box, 6, None, sp.GHOST, 2)
            image.paste(sp.GHOST, (x + 5, 53), sp.suit_mask(colour, 18))


@lru_cache(maxsize=256)
def strip_rgb(
    rules: Rules,
    language: str,
    damage: int,
    counters: int,
    rocket: tuple[Section, ...],
    sequence: frozenset[Colour],
    outcome: Outcome | None,
) -> Image.Image:
    """The strip in full colour, under its banner once the game has ended."""
    top = ENDING_HEIGHT if outcome is not None else 0
    image = Image.new("RGB", (WIDTH, top + HEIGHT), sp.BACKGROUND)
    if outcome is not None:
        ending(image, outcome, language)
    table = Image.new("RGB", (WIDTH, HEIGHT), sp.BACKGROUND)
    canvas = ImageDraw.Draw(table)
    for panel in PANELS:
        canvas.rounded_rectangle(panel, 8, fill=sp.PANEL)
    _apophis(table, canvas, rules, damage, counters, language)
    _rocket(table, rocket, language)
    _sequence(table, sequence, language)
    image.paste(table, (0, top))
    return image
