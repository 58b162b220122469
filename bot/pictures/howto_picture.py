"""The rules' picture: a turn in three panels, build, launch and roll, for `/apophis rules`.

As wide as the board and drawn with its pieces and text sizes, so it reads as well on a
phone. The rocket is one that can launch under either rules: a large red, a medium yellow
and a small blue section (6 points, 2 of them fuel: the quarter it needs, rounded up).
Drawn once for each language (its words), and cached.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from bot.i18n.catalogs import t
from bot.pictures import board_picture
from bot.pictures import sprites as sp
from bot.pictures.parts import SMALL, STACK_SHOWS, WIDTH
from engine import Colour, Section, Size, fuel_needed, rocket_points

HEIGHT = 212
GAP = 6  # between the panels, and around them
PANEL_WIDTH = (WIDTH - 4 * GAP) // 3
#: The example rocket, bottom to top.
ROCKET: tuple[Section, ...] = (
    (Colour.RED, Size.LARGE),
    (Colour.YELLOW, Size.MEDIUM),
    (Colour.BLUE, Size.SMALL),
)
#: The panels, left to right: their words' keys ("howto.picture.<key>", its caption
#: "….<key>.caption").
STEPS = ("build", "launch", "roll")
BASE = 42  # a large pyramid's base in the picture
PAD = 110  # the rocket's pad, from a panel's top
CAPTION_TOP = 146  # where each panel's caption (two lines) begins
LINE = 22


def panels() -> list[tuple[int, int, int, int]]:
    left = GAP
    boxes = []
    for _ in STEPS:
        boxes.append((left, GAP, left + PANEL_WIDTH, HEIGHT - GAP))
        left += PANEL_WIDTH + GAP
    return boxes


def fuel_words(language: str) -> str:
    """The rocket's points and its fuel check, as the board says them."""
    points = rocket_points(ROCKET)
    total = sum(points.values())
    fuel = points[Colour.YELLOW]
    return t(language, "picture.fuel_check", fuel=fuel, need=fuel_needed(total))


def texts(language: str) -> list[tuple[str, list[str]]]:
    """Each panel's heading and its caption's lines."""
    return [
        (
            t(language, f"howto.picture.{step}"),
            t(language, f"howto.picture.{step}.caption").split("\n"),
        )
        for step in STEPS
    ]


@lru_cache(maxsize=4)
def draw(language: str) -> bytes:
    """The picture as PNG bytes, in `language`."""
    image = Image.new("RGB", (WIDTH, HEIGHT), sp.BACKGROUND)
    boxes = panels()
    for box, (heading, caption) in zip(boxes, texts(language), strict=True):
        sp.paste_box(image, box, 8, sp.PANEL)
        sp.paste_text(image, (box[0] + 8, box[1] + 6), heading, SMALL, sp.MUTED)
        middle = (box[0] + box[2]) // 2
        for i, line in enumerate(caption):
            top = box[1] + CAPTION_TOP + i * LINE
            sp.paste_text(image, (middle, top), line, SMALL, sp.TEXT, "c")
    _rocket(image, boxes[0], language)
    _sequence(image, boxes[1])
    _die(image, boxes[2])
    return board_picture.png(image)


def _rocket(image: Image.Image, box: tuple[int, int, int, int], language: str) -> None:
    """The example rocket on its pad, as the board stacks it, its fuel check under it."""
    middle, y = (box[0] + box[2]) // 2, box[1] + PAD
    for colour, size in ROCKET:
        sprite = sp.pyramid(colour, size, BASE)
        image.paste(sprite, (middle - sprite.width // 2, y - sprite.height), sprite)
        y -= round(sprite.height * STACK_SHOWS)
    image.paste(sp.MUTED, (middle - 34, box[1] + PAD, middle + 34, box[1] + PAD + 4))
    words = fuel_words(language)
    width = sp.text_mask(words, SMALL).width + 6 + SMALL
    left = middle - width // 2
    sp.paste_text(image, (left, box[1] + PAD + 8), words, SMALL, sp.TEXT)
    sp.paste_mark(image, (left + width - SMALL, box[1] + PAD + 10), True, SMALL, sp.TEXT)


def _sequence(image: Image.Image, box: tuple[int, int, int, int]) -> None:
    """The four suits in the launch sequence, each a card of its colour."""
    width, gap = 30, 4
    left = (box[0] + box[2] - 4 * width - 3 * gap) // 2
    top = box[1] + 52
    for i, colour in enumerate((Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.GREEN)):
        x = left + i * (width + gap)
        fill = sp.PIECE_COLOURS[colour]
        sp.paste_box(image, (x, top, x + width, top + 42), 6, fill, sp.OUTLINE, 2)
        image.paste(sp.ink_on(fill), (x + 5, top + 11), sp.suit_mask(colour, 20))


def _die(image: Image.Image, box: tuple[int, int, int, int]) -> None:
    """A die, as the launch report draws them."""
    size = 48
    die = sp.die_face(5, size)
    image.paste(die, ((box[0] + box[2] - size) // 2, box[1] + 50), die)


def describe(language: str) -> str:
    """The picture in words (its alt text)."""
    return t(language, "howto.picture.alt")
