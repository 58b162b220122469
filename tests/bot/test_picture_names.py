"""People's names on the board picture: emoji and every script drawn, or a form that can be.

The names are drawn from the shipped fonts only (bot/pictures/names.py): what one face
lacks another draws, right-to-left names read right to left, Arabic letters join, and a
letter no font has is written in Latin letters. Nothing is dropped silently, and no name
is ever replaced by its seat's number.
"""

from __future__ import annotations

import io
import unicodedata

import numpy as np
import pytest
from fontTools.ttLib import TTFont
from PIL import Image

from bot.i18n.catalogs import languages
from bot.pictures import board_picture, names, parts
from tests.bot.test_picture import MAX_BYTES, midgame

PEOPLE = ("Ada 🚀", "李雷", "Жанна", "🙂")
#: Names of many scripts, with what the seat must show of them.
SHOWN = {
    "Ada 🚀": "Ada 🚀",
    "李雷": "李雷",
    "Жанна": "Жанна",
    "🙂": "🙂",
    "さくら": "さくら",
    "민준": "민준",
    "Ελένη": "Ελένη",
    "ნინო": "ნინო",
    "Ann ❤️": "Ann ❤\ufe0f",
    "👍🏽 Bob": "👍 Bob",  # the skin tone left out
    "👨‍👩‍👧": "👨👩👧",  # a family as its people
    "नमस्ते": "Namaste",  # no Devanagari font: in Latin letters
}


def seat_of(name: str, index: int = 0, language: str = "en") -> str:
    people = list(PEOPLE)
    people[index] = name
    return parts.seat_name(board_picture.shown(midgame(), language, tuple(people)), index)


@pytest.mark.parametrize(("name", "seen"), SHOWN.items())
def test_a_name_keeps_its_emoji_and_its_script(name, seen):
    assert seat_of(name) == seen
    drawn_by = {which for which, _ in names.runs(seen)}
    emoji = any(unicodedata.category(c) == "So" for c in seen)
    assert (names.EMOJI in drawn_by) == emoji


@pytest.mark.parametrize(
    ("name", "face"),
    [("李雷", names.CJK), ("민준", names.CJK), ("Жанна", names.TEXT), ("ليلى", names.TEXT)],
)
def test_each_letter_is_drawn_by_a_face_that_has_it_not_as_a_missing_glyphs_box(name, face):
    shown = names.fitted(name, parts.LARGE, parts.NAME_WIDTH)
    assert names.runs(shown) == [(face, shown)]
    font = names.face(face, parts.LARGE)
    missing = font.getmask("\U0010fffd")
    for char in shown:
        mask = font.getmask(char)
        assert (mask.size, bytes(mask)) != (missing.size, bytes(missing)), char
    assert names.name_image(shown, parts.LARGE, (255, 255, 255)).getbbox() is not None


def test_an_emoji_is_drawn_in_its_colours_beside_the_letters():
    png = board_picture.draw(midgame(), "en", PEOPLE)
    with Image.open(io.BytesIO(png)) as picture:
        board = picture.convert("RGB")
    left, top = parts.SEAT_BOXES[3][:2]
    smile = board.crop((left + parts.NAME_LEFT, top, left + parts.NAME_LEFT + 22, top + 24))
    r, g, b = np.asarray(smile).astype(int).transpose(2, 0, 1)
    assert ((r > 180) & (g > 140) & (b < 100)).sum() > 40, "🙂 is drawn yellow"


def test_right_to_left_names_read_right_to_left_and_arabic_letters_join():
    assert names.fitted("שרה", parts.LARGE, parts.NAME_WIDTH) == "הרש"  # seen left to right
    layla = names.fitted("ليلى", parts.LARGE, parts.NAME_WIDTH)
    assert [unicodedata.decomposition(c).split()[0] for c in reversed(layla)] == [
        "<initial>",
        "<medial>",
        "<medial>",
        "<final>",
    ]
    assert names.fitted("Zoë שרה", parts.LARGE, parts.NAME_WIDTH) == "Zoë הרש"
    assert names.fitted("محمد علي", parts.LARGE, parts.NAME_WIDTH).startswith(
        names.joined("علي")[::-1]
    )  # the first word is on the right


@pytest.mark.parametrize("language", languages())
@pytest.mark.parametrize("name", ["", "\U000f0000", "\u200d", "A" * 40, "ரமேஷ்", "สมชาย"])
def test_no_name_is_ever_a_seats_number(language, name):
    shown = seat_of(name, 1, language)
    assert shown and not any(c.isdigit() for c in shown)
    assert names.width(shown, parts.LARGE) <= parts.NAME_WIDTH
    assert all(names.drawn_by(c) is not None for c in shown if c != "\ufe0f")
    assert shown == names.NOBODY or shown[0].isalpha()
    assert not shown.startswith(("Seat", "Place"))


def test_a_long_name_of_wide_characters_is_shortened_to_fit():
    shown = names.fitted("李雷" * 20, parts.LARGE, parts.NAME_WIDTH)
    assert shown.startswith("李雷李雷") and shown.endswith("…")
    assert names.width(shown, parts.LARGE) <= parts.NAME_WIDTH
    mixed = names.fitted("🙂" * 20, parts.LARGE, parts.NAME_WIDTH)
    assert mixed.endswith("…") and names.width(mixed, parts.LARGE) <= parts.NAME_WIDTH


def test_the_picture_with_such_names_is_the_same_each_time_and_small():
    png = board_picture.draw(midgame(), "fr", ("ليلى", "नमस्ते", "Ann ❤️", "👨‍👩‍👧 さくら"))
    board_picture.forget(bands=True, parts=True)
    again = board_picture.draw(midgame(), "fr", ("ليلى", "नमस्ते", "Ann ❤️", "👨‍👩‍👧 さくら"))
    assert png == again and len(png) < MAX_BYTES
    assert board_picture.draw(midgame(), "en", PEOPLE) != board_picture.draw(
        midgame(), "en", ("Ada", "Li", "Zh", "X")
    )


def test_the_shipped_fonts_are_small_cover_names_and_carry_their_licence():
    cjk, emoji = TTFont(names.CJK_FILE), TTFont(names.EMOJI_FILE)
    assert names.CJK_FILE.stat().st_size < 1500 * 1024
    assert names.EMOJI_FILE.stat().st_size < 700 * 1024
    assert {ord(c) for c in "李雷王芳さくら민준"} <= set(cjk.getBestCmap())
    assert {ord(c) for c in "🙂🚀❤👍👨"} <= set(emoji.getBestCmap())
    licence = (names.FONTS / "OFL.txt").read_text()
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    for font in (cjk, emoji):
        assert "Open Font License" in font["name"].getDebugName(13)
        assert font["name"].getDebugName(1).startswith("Noto")
