"""People's names as the pictures draw them: every script and emoji, or a form fonts can draw.

A name is drawn with the pictures' font (DejaVu Sans Condensed: Latin, Greek, Cyrillic,
Armenian, Georgian, Hebrew, Arabic…), and what that lacks with Noto Sans CJK (the common
Chinese, Japanese and Korean characters) or Noto Color Emoji (every single emoji), both
shipped in bot/pictures/fonts under the SIL Open Font License (devtools/font_subset.py
cuts them). Text is laid out without libraqm, so that every machine draws the same
picture: right-to-left runs are put in their visual order here, and Arabic letters joined
by their presentation forms. An emoji sequence is drawn as its parts (a family as its
people, a flag as its two letters), without its skin tone or presentation selector.

A letter no shipped font has (Devanagari, Tamil, Thai, a rare ideograph…) is written in
Latin letters read from its Unicode name ("नमस्ते" reads "Namaste"), so that a name always
shows something of itself; one with nothing at all left (symbols no font has) is drawn as
a person's silhouette, 👤. Never as a seat's number.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from itertools import chain
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.pictures import sprites as sp

FONTS = Path(__file__).parent / "fonts"
#: Noto Sans CJK SC, cut to the common Chinese, Japanese and Korean characters.
CJK_FILE = FONTS / "NotoSansCJK-names.otf"
#: Noto Color Emoji, its single emoji scaled to this many pixels.
EMOJI_FILE = FONTS / "NotoColorEmoji-names.ttf"
EMOJI_PIXELS = 16
#: The faces, in the order they are tried for a character.
TEXT, CJK, EMOJI = range(3)
#: What is left out: joiners, presentation selectors, skin tones, tags, the keycap.
LEFT_OUT = frozenset(
    chain((0x200D, 0xFE0E, 0xFE0F, 0x20E3), range(0x1F3FB, 0x1F400), range(0xE0000, 0xE0080))
)
VARIATION_EMOJI = "\ufe0f"  # after a character: drawn as an emoji where one is shipped
NOBODY = "\U0001f464"  # 👤, for a name with nothing left to draw
ELLIPSIS = "…"
LAM, ALEFS = "\u0644", frozenset("\u0622\u0623\u0625\u0627")
VIRAMAS = (" SIGN VIRAMA", " SIGN HALANTA", " SIGN PULLI", " SIGN COENG")


@lru_cache(maxsize=16)
def face(which: int, size: int) -> ImageFont.FreeTypeFont:
    """The font of face `which` for text `size` pixels tall (emoji come in one size)."""
    if which == TEXT:
        return sp.font(size)
    path, pixels = (CJK_FILE, size) if which == CJK else (EMOJI_FILE, EMOJI_PIXELS)
    return ImageFont.truetype(str(path), pixels, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=4096)
def has(which: int, char: str) -> bool:
    """Whether face `which` draws `char` (not the box, or nothing, for what it lacks)."""
    font = face(which, 16)
    if which == EMOJI:  # a bitmap font: nothing at all for what it lacks
        return font.getmask(char, "RGBA").size[1] > 0
    missing, mask = font.getmask(sp.NOT_A_CHARACTER), font.getmask(char)
    return (mask.size, bytes(mask)) != (missing.size, bytes(missing))


def drawn_by(char: str, emoji_first: bool = False) -> int | None:
    """The face that draws `char`, if any (the emoji one first when asked for)."""
    order = (EMOJI, TEXT, CJK) if emoji_first else (TEXT, CJK, EMOJI)
    return next((which for which in order if has(which, char)), None)


# ------------------------------------------------------- what can be drawn


def drawable(name: str) -> str:
    """`name` in the characters the faces draw, in its reading order: what they lack
    written in Latin letters (`romanise`), an emoji kept with its selector."""
    out: list[str] = []
    chars = unicodedata.normalize("NFC", name)
    for i, char in enumerate(chars):
        if ord(char) in LEFT_OUT or unicodedata.category(char) in ("Cc", "Cf"):
            continue
        wants_emoji = chars[i + 1 : i + 2] == VARIATION_EMOJI
        which = drawn_by(char, wants_emoji)
        if which is None:
            romanise(char, out)
        else:
            out.append(char + (VARIATION_EMOJI if which == EMOJI and wants_emoji else ""))
    return "".join(out).strip()


def romanise(char: str, out: list[str]) -> None:
    """Add `char` to a name written so far as `out`, in Latin letters: a letter as its
    Unicode name says it ("DEVANAGARI LETTER NA" is "na"); a vowel sign in the place of
    the letter's own "a", which a virama takes away; a letter whose name gives no sound
    (an ideograph) nor any other character, nothing."""
    name = unicodedata.name(char, "")
    if " VOWEL SIGN " in name or " CHARACTER SARA " in name or name.endswith(VIRAMAS):
        if out and out[-1].endswith("a") and out[-1].isascii():
            out[-1] = out[-1][:-1]
        if not name.endswith(VIRAMAS):
            out.append(name.rsplit(" ", 1)[-1].lower())
    elif name.endswith((" SIGN ANUSVARA", " SIGN CANDRABINDU")):
        out.append("n")
    elif not name.startswith("CJK "):
        for marker in (" LETTER ", " SYLLABLE ", " CHARACTER "):
            if marker in name:
                words = name.split(marker, 1)[1].split()
                sound = words[0].lower()
                if marker == " CHARACTER " and len(words) > 1:  # Thai's "SO SUA" is an s
                    sound = sound.rstrip("o") or sound
                starts = not out or out[-1].endswith(" ")
                out.append(sound.capitalize() if starts else sound)
                return


# ------------------------------------------------- right to left, joined


@lru_cache(maxsize=1)
def _arabic() -> tuple[dict[str, dict[str, str]], dict[str, dict[str, str]]]:
    """Each Arabic letter's presentation forms the text face has (isolated, final,
    initial, medial), and lam-alef's ligature forms, by the alef."""
    letters: dict[str, dict[str, str]] = {}
    ligatures: dict[str, dict[str, str]] = {}
    for point in chain(range(0xFB50, 0xFE00), range(0xFE70, 0xFF00)):
        form = chr(point)
        parts = unicodedata.decomposition(form).split()
        if not parts or parts[0] not in ("<isolated>", "<final>", "<initial>", "<medial>"):
            continue
        if not has(TEXT, form):
            continue
        kind, bases = parts[0][1:-1], [chr(int(p, 16)) for p in parts[1:]]
        if len(bases) == 1:
            letters.setdefault(bases[0], {})[kind] = form
        elif bases[0] == LAM and bases[1] in ALEFS:
            ligatures.setdefault(bases[1], {})[kind] = form
    return letters, ligatures


def joined(text: str) -> str:
    """`text` with its Arabic letters in the forms their neighbours give them."""
    letters, ligatures = _arabic()
    if not any(char in letters for char in text):
        return text

    def joins_on(char: str | None) -> bool:  # joins the letter after it
        return char == "\u0640" or bool(char and {"initial", "medial"} & set(letters.get(char, {})))

    def joins_back(char: str | None) -> bool:  # joins the letter before it
        return char == "\u0640" or bool(char and {"final", "medial"} & set(letters.get(char, {})))

    solid = [i for i, char in enumerate(text) if unicodedata.category(char) != "Mn"]
    out = list(text)
    for k, i in enumerate(solid):
        char = text[i]
        before = text[solid[k - 1]] if k else None
        after = text[solid[k + 1]] if k + 1 < len(solid) else None
        back = joins_on(before) and joins_back(char)
        if char == LAM and after in ligatures:
            forms = ligatures[after]
            out[i], out[solid[k + 1]] = forms.get("final" if back else "isolated", char), ""
            continue
        if char not in letters or not out[i]:
            continue
        on = joins_on(char) and joins_back(after)
        kind = {(True, True): "medial", (True, False): "final", (False, True): "initial"}
        forms = letters[char]
        out[i] = forms.get(kind.get((back, on), "isolated"), forms.get("isolated", char))
    return "".join(out)


def _rtl(char: str) -> bool:
    return unicodedata.bidirectional(char) in ("R", "AL")


def _strong(char: str) -> bool:
    """Whether `char` has a direction of its own (a letter), not its neighbours'."""
    return _rtl(char) or unicodedata.bidirectional(char) == "L"


def visual(text: str) -> str:
    """`text` in the order it is seen, left to right: each right-to-left run turned round
    (a letter keeping its marks), the runs themselves turned round when the text begins
    right to left."""
    if not any(map(_rtl, text)):
        return text
    runs: list[tuple[bool, list[str]]] = []
    for char in text:
        rtl = _rtl(char) if _strong(char) or not runs else runs[-1][0]
        if unicodedata.category(char) == "Mn" and runs:
            runs[-1][1][-1] += char  # a mark goes with its letter
        elif runs and runs[-1][0] == rtl:
            runs[-1][1].append(char)
        else:
            runs.append((rtl, [char]))
    seen = ["".join(reversed(chars)) if rtl else "".join(chars) for rtl, chars in runs]
    begins_rtl = _rtl(next(filter(_strong, text)))
    return "".join(reversed(seen) if begins_rtl else seen).strip()


# ------------------------------------------------------------ laid out


def runs(shown: str) -> list[tuple[int, str]]:
    """A name as shown (`fitted`'s) cut into runs of one face each, left to right."""
    out: list[tuple[int, str]] = []
    for i, char in enumerate(shown):
        if char == VARIATION_EMOJI:
            continue
        which = drawn_by(char, shown[i + 1 : i + 2] == VARIATION_EMOJI)
        if which is None:
            continue
        if out and out[-1][0] == which:
            out[-1] = (which, out[-1][1] + char)
        else:
            out.append((which, char))
    return out


def width(shown: str, size: int) -> int:
    return sum(round(face(which, size).getlength(text)) for which, text in runs(shown))


@lru_cache(maxsize=2048)
def fitted(name: str, size: int, room: int) -> str:
    """`name` as the pictures draw it in `room` pixels at `size`: in characters the faces
    draw (`drawable`), in visual order and joined, shortened with an ellipsis if too long;
    a silhouette if nothing is left."""
    letters = drawable(name)
    if not letters:
        return NOBODY
    shown = visual(joined(letters))
    while width(shown, size) > room and len(letters) > 1:
        letters = letters[:-1].rstrip()
        shown = visual(joined(letters + ELLIPSIS))
    return shown


@lru_cache(maxsize=1024)
def name_image(shown: str, size: int, colour: sp.RGB) -> Image.Image:
    """A name as shown (`fitted`'s), drawn on a transparent strip: its text's line top
    `sp.headroom(size)` rows below the strip's, its letters `colour`, its emoji their own."""
    pieces = runs(shown)
    ascent = face(TEXT, size).getmetrics()[0]
    top = sp.headroom(size)
    strip = Image.new("RGBA", (max(width(shown, size), 1), top + size + size // 3))
    x = 0
    for which, text in pieces:
        font = face(which, size)
        y = top + ascent - font.getmetrics()[0]
        if which == EMOJI:
            y = top + (size - EMOJI_PIXELS) // 2
            layer = Image.new("RGBA", strip.size)
            ImageDraw.Draw(layer).text((x, y), text, font=font, embedded_color=True)
            strip.alpha_composite(layer)
        else:
            mask = Image.new("L", strip.size)
            ImageDraw.Draw(mask).text((x, y), text, font=font, fill=255)
            strip.paste(Image.new("RGBA", strip.size, (*colour, 255)), (0, 0), mask)
        x += round(font.getlength(text))
    return strip


def paste(image: Image.Image, xy: tuple[int, int], shown: str, size: int, colour: sp.RGB) -> None:
    """Draw a name as shown (`fitted`'s) with its line's top at xy, aligned left (one in
    the pictures' font alone as any of their texts)."""
    if all(has(TEXT, char) for char in shown):
        sp.paste_text(image, xy, shown, size, colour)
        return
    strip = name_image(shown, size, colour)
    image.paste(strip, (xy[0], xy[1] - sp.headroom(size)), strip)
