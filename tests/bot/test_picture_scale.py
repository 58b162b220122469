"""The pictures read on a phone: shown 330 px wide, as Discord's phone apps show them, no
text on them has capitals less than 8 px tall.

The tests record every text Pillow draws (its words and font size, whatever part of the
pictures draws it) while a whole picture is drawn, measure the capitals of that size in
the shipped font as the pictures draw them, and scale that to the phone's width.
"""

from __future__ import annotations

import dataclasses
import io
from typing import NamedTuple

import pytest
from PIL import Image, ImageDraw

from bot.pictures import board_picture, launch_picture, names, parts, sprites
from engine import Game, Outcome, Phase, PublicView, Rules
from tests.bot.test_picture import launch_events, midgame, tallest
from tests.bot.test_picture_text import LONG_NAMES, _longest_launch

PHONE_WIDTH = 330  # px: how wide Discord's phone apps show a picture
SMALLEST = 8  # px: the least height of a capital letter there


class Label(NamedTuple):
    text: str
    size: int


@pytest.fixture
def labels(monkeypatch):
    """Every text drawn from now on (Pillow's ImageDraw.text, recorded, then done as usual),
    with the caches of drawn texts and backgrounds emptied, so that they are drawn again."""
    drawn: list[Label] = []
    text = ImageDraw.ImageDraw.text

    def recorded(self, xy, words, *args, **kwargs):
        font = kwargs.get("font")
        drawn.append(Label(words, font.size if font is not None else 0))
        return text(self, xy, words, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recorded)
    kept = (sprites.text_mask, names.name_image, parts.background)
    for cache in kept:
        cache.cache_clear()
    yield drawn
    for cache in kept:  # drawn the same, but not to be kept from a test
        cache.cache_clear()


def capital_height(size: int) -> int:
    """How many rows a capital letter of the shipped font covers at `size` px, as the
    pictures draw it (its ink, at half strength or more)."""
    mask = sprites.text_mask("H", size).point(lambda v: 255 if v >= 128 else 0)
    _, top, _, bottom = mask.getbbox()
    return bottom - top


def on_phone(size: int, width: int) -> float:
    """The height of a capital at `size` px on a picture `width` px wide, shown on a phone."""
    return capital_height(size) * PHONE_WIDTH / width


def assert_readable(labels: list[Label], width: int) -> None:
    assert labels, "nothing was drawn"
    smallest = min(labels, key=lambda label: label.size)
    height = on_phone(smallest.size, width)
    assert height >= SMALLEST, f"{smallest.text!r} has capitals {height:.1f} px tall on a phone"


def _with(view: PublicView, **changes) -> PublicView:
    return dataclasses.replace(view, **changes)


def _empty() -> PublicView:
    return Game.new([1, 2], Rules.BASIC, seed=1).public_view()


def _launching() -> PublicView:
    """A launch under way: its player may reroll a failed die."""
    return _with(tallest(), phase=Phase.REROLL, pending={"rerolls": 3}, active_player=3)


TABLES = {
    "empty table": (_empty, "en", ("Ann", "Bob")),
    "full rocket": (tallest, "en", ("Ann", "Bob", "Cy", "Dee")),
    "launch under way": (_launching, "en", ("Ann", "Bob", "Cy", "Dee")),
    "4 seats, long names": (tallest, "en", LONG_NAMES),
    "French, long names": (_launching, "fr", LONG_NAMES),
    "advanced rules": (lambda: _with(midgame(), rules=Rules.ADVANCED), "fr", LONG_NAMES),
    "game over": (
        lambda: _with(midgame(), phase=Phase.OVER, outcome=Outcome.LOST, active_player=None),
        "fr",
        LONG_NAMES,
    ),
}


@pytest.mark.parametrize("name", list(TABLES))
def test_every_text_of_the_board_reads_on_a_phone(name, labels):
    make, language, names = TABLES[name]
    s = board_picture.shown(make(), language, names)
    parts.board_rgb(s)  # the board drawn whole (the picture is put together from its parts)
    assert_readable(labels, Image.open(io.BytesIO(board_picture.drawn(s))).width)
    texts = {label.text for label in labels}
    assert any(name[:3] in text for text in texts for name in names)  # the names were drawn


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_text_of_the_launch_report_reads_on_a_phone(language, labels):
    for steps in (_longest_launch(), launch_picture._steps(launch_events())):
        launch_picture._heading_image(language, True)  # its rows (their bands are kept)
        for step in steps:
            launch_picture._step_image(step, language)
        png = launch_picture._launch(steps, language)
        assert_readable(labels, Image.open(io.BytesIO(png)).width)


#: The launch report is read alone on a phone: shown 360 px wide, its smallest capitals
#: are at least 11 px tall (they were 9: its small print, 16 px on 480, like the board's).
REPORT_WIDTH, REPORT_SMALLEST = 360, 11


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_launch_reports_smallest_text_is_11_px_tall_shown_360_px_wide(language, labels):
    for steps in (_longest_launch(), launch_picture._steps(launch_events())):
        width = Image.open(io.BytesIO(launch_picture._launch(steps, language))).width
        labels.clear()  # only its own rows' texts (drawing its first may draw others')
        sprites.text_mask.cache_clear()
        launch_picture._heading_image(language, True)
        for step in steps:
            launch_picture._step_image(step, language)
        smallest = min(labels, key=lambda label: label.size)
        height = capital_height(smallest.size) * REPORT_WIDTH / width
        assert height >= REPORT_SMALLEST, f"{smallest.text!r}: capitals {height:.1f} px tall"


def test_the_measure_fails_the_old_picture():
    """The old board's smallest words ("fuel needs 3", 12 px on 640) had capitals under
    5 px on a phone; its seats' names (16 px) 6 px."""
    assert on_phone(12, 640) < 5
    assert on_phone(16, 640) < SMALLEST
    assert on_phone(parts.SMALL, parts.WIDTH) >= SMALLEST
    with pytest.raises(AssertionError, match="fuel needs 3"):
        assert_readable([Label("fuel needs 3", 12), Label("Seat 1", 16)], 640)
