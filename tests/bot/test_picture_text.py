"""The words on the pictures: the shipped font has every letter of them, and each fits its place.

Every character any picture can show, in every language, must have a real glyph in the
font (not the box a font draws for a character it lacks), and every text drawn must stay
inside its panel, inside the part that draws it, and clear of every other text and of
every tick or cross, with the longest words and numbers the game can give.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from itertools import combinations

import pytest
from babel.messages.pofile import read_po
from PIL import Image, ImageDraw, ImageFont

from bot.i18n.catalogs import catalog_path, languages
from bot.pictures import board_picture, launch_picture, parts, sprites
from engine import Colour, Outcome, Phase, PublicView, Rules, Size
from engine import events as ev
from tests.bot.test_picture import midgame, tallest

#: Names as long as a seat can show, and longer.
LONG_NAMES = ("Wolfeschlegelsteinhausen", "Bartholomew the Magnificent", "MMMMMMMMMMMMMMM", "Ékë")

#: The catalog messages the pictures draw, by key prefix (with the numbers they fill in).
DRAWN = ("picture.", "step.below", "step.needs", "replay.frame.", "replay.moves")
DRAWN_PARTS = "part."  # the launch report's "+ guidance 3"

Box = tuple[int, int, int, int]


def _has_glyph(face: ImageFont.FreeTypeFont, char: str) -> bool:
    missing = face.getmask(sprites.NOT_A_CHARACTER)
    mask = face.getmask(char)
    return (mask.size, bytes(mask)) != (missing.size, bytes(missing))


@cache
def _shipped_has_glyph(char: str) -> bool:
    return _has_glyph(sprites.font(16), char)


def _missing(text: str) -> list[str]:
    return sorted({c for c in text if not _shipped_has_glyph(c)})


def test_the_pictures_glyph_check_is_the_tests():
    """sprites.fitted leaves out what the font lacks by sprites.has_glyph: the same check."""
    for char in "Aé€…♠🚀ர\u202f":
        assert sprites.has_glyph(char) == _shipped_has_glyph(char), char


def _drawn_messages(language: str) -> dict[str, str]:
    with catalog_path(language).open("rb") as f:
        catalog = read_po(f, locale=language)
    found = {}
    for message in catalog:
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        if key and key.startswith((*DRAWN, DRAWN_PARTS)):
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            found[key] = "".join(strings)
    return found


# ------------------------------------------------------------------ glyphs


def test_the_font_is_the_one_shipped_with_its_licence():
    face = sprites.font(14)
    assert face.path == str(sprites.FONT_FILE) and sprites.FONT_FILE.is_file()
    assert "Bitstream" in (sprites.FONT_FILE.parent / "LICENSE").read_text(encoding="utf-8")
    assert face.layout_engine == ImageFont.Layout.BASIC  # the same with or without libraqm


def test_the_glyph_check_tells_a_missing_letter():
    """Pillow's built-in font has no accented letters: the check sees it (the old bug)."""
    builtin = ImageFont.load_default(size=16)
    assert _has_glyph(builtin, "E") and _has_glyph(builtin, " ")
    assert not _has_glyph(builtin, "É")


@pytest.mark.parametrize("language", languages())
def test_every_character_of_every_drawn_message_has_a_glyph(language):
    messages = _drawn_messages(language)
    assert {"picture.sequence", "picture.discard", "part.guidance"} <= set(messages)
    missing = {key: _missing(text) for key, text in messages.items() if _missing(text)}
    assert not missing, f"no glyph in the picture's font for {missing}"
    assert not _missing("0123456789+=/·:?’ ")


# ----------------------------------------------------------- what is drawn


class _Recorder:
    """Wraps sprites.paste_text and paste_mark: the ink box of every text and mark pasted."""

    def __init__(self) -> None:
        self.paste_text, self.paste_mark = sprites.paste_text, sprites.paste_mark
        self.drawn: list[tuple[str, Box]] = []

    def _ink(self, what: str, image: Image.Image, paste) -> None:
        alone = Image.new("RGB", image.size)
        paste(alone)
        box = alone.getbbox()
        assert box is not None, f"{what!r} drew nothing"
        self.drawn.append((what, box))

    def text(self, image, xy, text, size, colour, align="l"):
        self._ink(text, image, lambda on: self.paste_text(on, xy, text, size, (255,) * 3, align))
        return self.paste_text(image, xy, text, size, colour, align)

    def mark(self, image, xy, ok, size, colour):
        self._ink(
            "✓" if ok else "✗", image, lambda on: self.paste_mark(on, xy, ok, size, (255,) * 3)
        )
        self.paste_mark(image, xy, ok, size, colour)

    def take(self) -> list[tuple[str, Box]]:
        drawn, self.drawn = self.drawn, []
        return drawn


@pytest.fixture
def recorder(monkeypatch) -> _Recorder:
    recorder = _Recorder()
    monkeypatch.setattr(sprites, "paste_text", recorder.text)
    monkeypatch.setattr(sprites, "paste_mark", recorder.mark)
    return recorder


def _inside(inner: Box, outer: Box) -> bool:
    return (
        inner[0] >= outer[0]
        and inner[1] >= outer[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _with(view: PublicView, **changes) -> PublicView:
    return dataclasses.replace(view, **changes)


def _boards() -> list[PublicView]:
    """Tables with the longest texts and numbers a game can show, every phase and seat."""
    full = tallest()  # 12 sections: 24 points, fuel ok
    no_yellow = tuple((c, s) for s in Size for c in Colour if c is not Colour.YELLOW)  # needs 5
    boards = [
        _with(full, deck_size=38, discard_size=38, damage=2, counters=5),
        _with(full, rocket=no_yellow, phase=Phase.DISCARD, pending={"count": 2}),
        _with(full, phase=Phase.REROLL, pending={"rerolls": 3}, active_player=3),
        _with(full, phase=Phase.RESHUFFLE, active_player=4, rocket=()),
        _with(midgame(), damage=3),
    ]
    seats = full.seats
    boards += [
        _with(
            full, seats=tuple(dataclasses.replace(s, hand_size=7) for s in seats), active_player=p
        )
        for p in (1, 2)
    ]
    return boards


def _frames() -> list[Box]:
    """Where text may be: the panels, the seats' boxes."""
    return [*parts.PANELS, *parts.SEAT_BOXES]


@pytest.mark.parametrize("language", languages())
@pytest.mark.parametrize("rules", list(Rules))
def test_every_text_on_a_board_fits_its_place_and_clears_the_others(language, rules, recorder):
    for view in _boards():
        s = board_picture.shown(_with(view, rules=rules), language, LONG_NAMES[: len(view.seats)])
        parts.background(s.language)  # cached: the parts below draw on a copy
        recorder.take()
        parts.background.__wrapped__(s.language)
        drawn = [("background", text, box) for text, box in recorder.take()]
        for name, (_, draw_part, _) in parts.PARTS.items():
            image = parts.background(s.language).copy()
            draw_part(image, ImageDraw.Draw(image), s)
            drawn += [(name, text, box) for text, box in recorder.take()]
        for name, text, box in drawn:
            assert not _missing(text), f"{text!r}: no glyph for {_missing(text)}"
            assert any(_inside(box, frame) for frame in _frames()), f"{text!r} leaves its panel"
            if name != "background":
                assert _inside(box, parts.PARTS[name][0]), f"{text!r} is cut off: {name}"
        for (_, a, box_a), (_, b, box_b) in combinations(drawn, 2):
            assert not _overlap(box_a, box_b), f"{a!r} and {b!r} overlap ({language})"


@pytest.mark.parametrize("language", languages())
def test_the_ending_words_fit_their_banner_above_the_board(language, recorder):
    for outcome in Outcome:
        image = Image.new("RGB", (parts.WIDTH, parts.ENDING_HEIGHT))
        parts.ending(image, outcome, language)
        (title, title_box), (line, line_box) = recorder.take()
        left, top, right, bottom = parts.ENDING_BOX
        for text, box in ((title, title_box), (line, line_box)):
            assert not _missing(text)
            assert _inside(box, (left + 8, top + 2, right - 8, bottom - 2)), f"{text!r} leaves it"
        assert not _overlap(title_box, line_box)


def _longest_launch() -> tuple[ev.LaunchStep, ...]:
    """Every kind of launch step with the biggest numbers it can have, and skipped ones."""
    return (
        ev.LaunchStep(
            "fuel", None, (("booster fuel", 6), ("rocket points", 24)), 6, 6, False, True
        ),
        ev.LaunchStep("launch", 6, (("die", 6), ("booster fuel", 6)), 12, 8, True, False),
        ev.LaunchStep(
            "accuracy", 6, (("die", 6), ("Apophis", 3), ("guidance", 6)), 15, 7, False, True
        ),
        ev.LaunchStep("damage", 6, (("die", 6), ("warheads", 6)), 12, 7, False, True),
        ev.LaunchStep("deflection", 6, (("die", 6), ("warheads", 6)), 12, 7, False, False),
        ev.LaunchStep("damage", None, (), 0, 7, False, None),
        ev.LaunchStep("deflection", None, (), 0, 7, False, None),
    )


@pytest.mark.parametrize("language", languages())
def test_every_text_of_a_launch_report_fits_its_row(language, recorder):
    """The title, and each check in its own row (the picture is joined from those rows)."""
    heading = (0, 0, parts.WIDTH, launch_picture.HEADING)
    rows = [(lambda: launch_picture._heading_image(language, True), heading)]
    step_box = (6, 0, parts.WIDTH - 6, launch_picture.ROW - 6)
    rows += [
        (lambda step=step: launch_picture._step_image(step, language), step_box)
        for step in _longest_launch()
    ]
    for draw, row in rows:
        draw()
        drawn = recorder.take()
        assert drawn
        for text, box in drawn:
            assert not _missing(text), f"{text!r}: no glyph for {_missing(text)}"
            assert _inside(box, row), f"{text!r} leaves its row"
        for (a, box_a), (b, box_b) in combinations(drawn, 2):
            assert not _overlap(box_a, box_b), f"{a!r} and {b!r} overlap ({language})"
