"""Small cached drawings the pictures are made of: pyramids, suit symbols, dice, text.

Each is drawn once (four times larger, then scaled down, for smooth edges) and kept,
so a picture is mostly pasting. Suit symbols are vector shapes and the only font is
DejaVu Sans Condensed, shipped in bot/pictures/fonts (with its licence) and laid out without
libraqm, so a fresh machine draws the same pictures without reading any font of the
system, accented letters included.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from engine import Colour

RGB = tuple[int, int, int]
#: The pictures' only font (Bitstream Vera licence: bot/pictures/fonts/LICENSE).
FONT_FILE = Path(__file__).parent / "fonts" / "DejaVuSansCondensed.ttf"
NOT_A_CHARACTER = "\U0010fffd"  # no font has it: its glyph is the font's box for "missing"

#: Each piece's colour reads as its name (the red of the buttons' 🟥, not orange), and the
#: four stay apart under the three colour-vision deficiencies: they are four steps of
#: lightness (blue, red, green, yellow), which a missing cone does not take away
#: (tests/bot/test_picture.py simulates them).
PIECE_COLOURS: dict[Colour, RGB] = {
    Colour.GREEN: (90, 205, 150),
    Colour.RED: (210, 20, 30),
    Colour.BLUE: (20, 60, 230),
    Colour.YELLOW: (248, 226, 30),
}
BACKGROUND: RGB = (30, 34, 51)
PANEL: RGB = (42, 48, 71)
TEXT: RGB = (236, 239, 244)
MUTED: RGB = (166, 174, 196)
GHOST: RGB = (88, 96, 122)
STONE: RGB = (160, 150, 140)
OUTLINE: RGB = (14, 16, 24)
DARK_INK: RGB = (17, 17, 17)
LIGHT_INK: RGB = (255, 255, 255)

#: Pyramid proportions (Looney Pyramids are nearly similar triangles): size -> scale.
SCALE = {1: 0.58, 2: 0.78, 3: 1.0}
#: The large pyramid's height over its base.
ASPECT = 1.15
_SUPER = 4  # supersampling factor for smooth edges


def ink_on(colour: RGB) -> RGB:
    """Black or white, whichever reads better on `colour`."""
    r, g, b = colour
    return DARK_INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else LIGHT_INK


def _smooth(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    return image.resize(size, Image.Resampling.LANCZOS)


# ------------------------------------------------------------------- symbols


def _suit_shapes(draw: ImageDraw.ImageDraw, colour: Colour, s: float) -> None:
    """A suit symbol filling an s-by-s box, drawn with white on a mask."""

    def circle(cx: float, cy: float, r: float) -> None:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=255)

    if colour is Colour.BLUE:  # diamond
        draw.polygon([(s / 2, 0), (s * 0.9, s / 2), (s / 2, s), (s * 0.1, s / 2)], fill=255)
    elif colour is Colour.RED:  # heart
        circle(s * 0.29, s * 0.32, s * 0.25)
        circle(s * 0.71, s * 0.32, s * 0.25)
        draw.polygon([(s * 0.05, s * 0.42), (s * 0.95, s * 0.42), (s / 2, s * 0.96)], fill=255)
    elif colour is Colour.YELLOW:  # spade
        circle(s * 0.29, s * 0.58, s * 0.22)
        circle(s * 0.71, s * 0.58, s * 0.22)
        draw.polygon([(s * 0.08, s * 0.52), (s * 0.92, s * 0.52), (s / 2, 0)], fill=255)
        draw.polygon([(s / 2, s * 0.6), (s * 0.68, s), (s * 0.32, s)], fill=255)
    else:  # club
        circle(s / 2, s * 0.26, s * 0.22)
        circle(s * 0.26, s * 0.6, s * 0.22)
        circle(s * 0.74, s * 0.6, s * 0.22)
        draw.polygon([(s / 2, s * 0.45), (s * 0.68, s), (s * 0.32, s)], fill=255)


@lru_cache(maxsize=64)
def suit_mask(colour: Colour, size: int) -> Image.Image:
    """The suit symbol of `colour` as a smooth mask, `size` pixels square."""
    big = Image.new("L", (size * _SUPER, size * _SUPER), 0)
    _suit_shapes(ImageDraw.Draw(big), colour, size * _SUPER)
    return _smooth(big, (size, size))


# ------------------------------------------------------------------ pyramids


def pyramid_size(size: int, base: int) -> tuple[int, int]:
    """Width and height in pixels of a pyramid of `size` when a large one is `base` wide."""
    width = round(base * SCALE[size])
    return width, round(width * ASPECT)


@lru_cache(maxsize=128)
def pyramid(colour: Colour | None, size: int, base: int, ghost: bool = False) -> Image.Image:
    """A pyramid seen from the side, with its pips and suit symbol (RGBA sprite).

    `colour` None is Apophis's stone. A ghost is the outline of a piece that is
    elsewhere: faint, but still with its symbol and pips.
    """
    width, height = pyramid_size(size, base)
    fill = STONE if colour is None else PIECE_COLOURS[colour]
    big = Image.new("RGBA", (width * _SUPER, height * _SUPER), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    w, h, line = width * _SUPER, height * _SUPER, 2 * _SUPER
    outline = [(0, h - 1), (w - 1, h - 1), (w / 2, 0)]
    if ghost:
        draw.polygon(outline, fill=(*GHOST, 90), outline=(*MUTED, 255), width=line)
        ink: RGB = MUTED
    else:
        draw.polygon(outline, fill=(*fill, 255), outline=(*OUTLINE, 255), width=line)
        ink = ink_on(fill)
    # Pips sit in a row just above the base, as on the real pieces.
    pip_r, gap = max(w // 22, 5), max(w // 7, 14)
    y = h - line - pip_r * 2.2
    for i in range(size):
        x = w / 2 + (i - (size - 1) / 2) * gap
        draw.ellipse((x - pip_r, y - pip_r, x + pip_r, y + pip_r), fill=(*ink, 255))
    sprite = _smooth(big, (width, height))
    if colour is not None:
        symbol = max(width // 3, 8)
        mask = suit_mask(colour, symbol)
        top = height - round(height * 0.2) - symbol
        sprite.paste((*ink, 255), ((width - symbol) // 2, top), mask)
    return sprite


@lru_cache(maxsize=16)
def outline_pyramid(size: int, base: int, colour: RGB, dashed: bool) -> Image.Image:
    """Only the edges of a pyramid (Apophis's pieces: nested, or knocked off when dashed)."""
    width, height = pyramid_size(size, base)
    big = Image.new("RGBA", (width * _SUPER, height * _SUPER), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    w, h, line = width * _SUPER, height * _SUPER, 2 * _SUPER
    corners = [(0, h - line), (w - line, h - line), (w / 2, line)]
    for a, b in zip(corners, [*corners[1:], corners[0]], strict=True):
        if not dashed:
            draw.line([a, b], fill=(*colour, 255), width=line)
            continue
        steps = 15
        for i in range(0, steps, 2):
            p = (a[0] + (b[0] - a[0]) * i / steps, a[1] + (b[1] - a[1]) * i / steps)
            q = (a[0] + (b[0] - a[0]) * (i + 1) / steps, a[1] + (b[1] - a[1]) * (i + 1) / steps)
            draw.line([p, q], fill=(*colour, 255), width=line)
    return _smooth(big, (width, height))


# ---------------------------------------------------------------- dice, marks

DIE_SIZE = 24  # the launch report's dice


@lru_cache(maxsize=8)
def die_face(value: int, size: int) -> Image.Image:
    """A white six-sided die showing `value` (RGBA sprite)."""
    big = Image.new("RGBA", (size * _SUPER, size * _SUPER), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    s = size * _SUPER
    draw.rounded_rectangle((0, 0, s - 1, s - 1), radius=s // 6, fill=(*LIGHT_INK, 255))
    spots = {
        1: [(2, 2)],
        2: [(1, 1), (3, 3)],
        3: [(1, 1), (2, 2), (3, 3)],
        4: [(1, 1), (3, 1), (1, 3), (3, 3)],
        5: [(1, 1), (3, 1), (2, 2), (1, 3), (3, 3)],
        6: [(1, 1), (3, 1), (1, 2), (3, 2), (1, 3), (3, 3)],
    }[value]
    r = s / 10
    for gx, gy in spots:
        x, y = s * gx / 4, s * gy / 4
        draw.ellipse((x - r, y - r, x + r, y + r), fill=(*DARK_INK, 255))
    return _smooth(big, (size, size))


@lru_cache(maxsize=8)
def mark(ok: bool, size: int) -> Image.Image:
    """A tick (ok) or a cross as a smooth mask, so that a result is not told by colour alone."""
    big = Image.new("L", (size * _SUPER, size * _SUPER), 0)
    draw = ImageDraw.Draw(big)
    s, line = size * _SUPER, max(size * _SUPER // 6, 2)
    if ok:
        draw.line([(s * 0.1, s * 0.55), (s * 0.4, s * 0.85), (s * 0.9, s * 0.15)], 255, line)
    else:
        draw.line([(s * 0.15, s * 0.15), (s * 0.85, s * 0.85)], 255, line)
        draw.line([(s * 0.85, s * 0.15), (s * 0.15, s * 0.85)], 255, line)
    return _smooth(big, (size, size))


def paste_mark(image: Image.Image, xy: tuple[int, int], ok: bool, size: int, colour: RGB) -> None:
    """Paste a tick (ok) or a cross `size` pixels square, its top left corner at xy."""
    image.paste(colour, xy, mark(ok, size))


# --------------------------------------------------------------------- boxes


@lru_cache(maxsize=16)
def box(
    size: tuple[int, int], radius: int, fill: RGB | None, outline: RGB | None, width: int
) -> tuple[Image.Image, Image.Image]:
    """A rounded rectangle `size` wide and high, exactly as ImageDraw draws it (no
    smoothing): its colours and its shape (a mask), drawn once and pasted in a tenth of
    the time."""
    shape = Image.new("RGBA", size, (0, 0, 0, 0))
    inside = None if fill is None else (*fill, 255)
    ink = None if outline is None else (*outline, 255)
    corners = (0, 0, size[0] - 1, size[1] - 1)
    ImageDraw.Draw(shape).rounded_rectangle(corners, radius, inside, ink, width)
    return shape.convert("RGB"), shape.getchannel("A").convert("1", dither=Image.Dither.NONE)


def paste_box(
    image: Image.Image,
    corners: tuple[int, int, int, int],
    radius: int,
    fill: RGB | None,
    outline: RGB | None = None,
    width: int = 1,
) -> None:
    """Draw a rounded rectangle on `image`, as ImageDraw.rounded_rectangle(corners, ...)."""
    left, top, right, bottom = corners
    colours, shape = box((right - left + 1, bottom - top + 1), radius, fill, outline, width)
    image.paste(colours, (left, top), shape)


# ---------------------------------------------------------------------- text


@lru_cache(maxsize=8)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The shipped font at `size` pixels, laid out the same with or without libraqm."""
    return ImageFont.truetype(str(FONT_FILE), size, layout_engine=ImageFont.Layout.BASIC)


def headroom(size: int) -> int:
    """Rows above a line of text at `size` for accents over capitals (É reaches above it)."""
    return size // 5


@lru_cache(maxsize=1024)
def text_mask(text: str, size: int) -> Image.Image:
    """`text` as a smooth mask, as wide as its ink, with room for accents and descenders.

    Its line's top is `headroom(size)` rows below the mask's top."""
    face = font(size)
    right = int(face.getbbox(text)[2])  # (in whole pixels; Pillow's hints say a float)
    top = headroom(size)
    mask = Image.new("L", (max(right, 1), top + size + size // 3), 0)
    ImageDraw.Draw(mask).text((0, top), text, font=face, fill=255)
    return mask


@lru_cache(maxsize=256)
def has_glyph(char: str) -> bool:
    """Whether the shipped font draws `char` (not the box it draws for what it lacks)."""
    face = font(16)
    missing, mask = face.getmask(NOT_A_CHARACTER), face.getmask(char)
    return (mask.size, bytes(mask)) != (missing.size, bytes(missing))


@lru_cache(maxsize=1024)
def fitted(text: str, size: int, width: int) -> str:
    """`text` as the font can draw it in `width` pixels at `size`: without the characters
    it lacks (most emoji, scripts it has no letters of), shortened with an ellipsis if
    too long."""
    text = "".join(char for char in text if has_glyph(char)).strip()
    face = font(size)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1].rstrip()
    return text + "…"


def paste_text(
    image: Image.Image, xy: tuple[int, int], text: str, size: int, colour: RGB, align: str = "l"
) -> int:
    """Paste `text` with its top at xy[1], aligned left, centre or right of xy[0]; its width."""
    mask = text_mask(text, size)
    x = xy[0] - {"l": 0, "c": mask.width // 2, "r": mask.width}[align]
    image.paste(colour, (x, xy[1] - headroom(size)), mask)
    return mask.width
