"""The launch report's picture: each check with its die, what was added and the target.

As wide as the board, with bigger text: shown 360 px wide, its smallest capitals are 11 px
tall (tests/bot/test_picture_scale.py), where the board's are 9.

Drawn from the launch's events as the public sees them (`Event.seen_by(None)`), and
cached by those events.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.i18n.catalogs import t
from bot.pictures import board_picture, pngwrite
from bot.pictures import sprites as sp
from bot.pictures.board_picture import WIDTH
from engine import events as ev

HEADING = 38  # the title's rows
ROW = 74  # each check's: two lines
#: Text sizes: the smallest (the title, a check's second line), a check's name, its total
#: and verdict.
SMALL, NAME, TOTAL = 20, 23, 26
DIE = 28  # a die's size


def _name(step: ev.LaunchStep, language: str) -> str:
    return t(language, f"picture.step.{step.step}")


def _target(step: ev.LaunchStep, language: str) -> str:
    return t(language, "step.below" if step.below else "step.needs", target=step.target)


def _steps(events: Iterable[ev.GameEvent]) -> tuple[ev.LaunchStep, ...]:
    return tuple(
        e for e in (event.seen_by(None) for event in events) if isinstance(e, ev.LaunchStep)
    )


def draw_launch(events: Iterable[ev.GameEvent], language: str) -> bytes:
    """The launch checks among `events` (as the public sees them): dice, sums, targets."""
    return _launch(_steps(events), language)


@lru_cache(maxsize=64)
def _launch(steps: tuple[ev.LaunchStep, ...], language: str) -> bytes:
    """The PNG, joined from the heading's band and each step's (each kept: the same check
    with the same die looks the same in every launch)."""
    bands = [_heading_band(language, bool(steps))] + [_step_band(s, language) for s in steps]
    return board_picture.png_of_bands(WIDTH, bands)


@lru_cache(maxsize=4)
def _heading_band(language: str, steps: bool) -> pngwrite.Band:
    return board_picture.band(_heading_image(language, steps))


@lru_cache(maxsize=1024)  # some 2 KB each
def _step_band(step: ev.LaunchStep, language: str) -> pngwrite.Band:
    return board_picture.band(_step_image(step, language))


def _heading_image(language: str, steps: bool) -> Image.Image:
    """The title, over an empty row when there is no check to show."""
    image = Image.new("RGB", (WIDTH, HEADING + (0 if steps else ROW)), sp.BACKGROUND)
    sp.paste_text(image, (12, 8), t(language, "picture.launch_report"), SMALL, sp.MUTED)
    return image


def _step_image(step: ev.LaunchStep, language: str) -> Image.Image:
    """One check's row: its name, the total and the verdict; below, the die and what was
    added to it, and the target."""
    image = Image.new("RGB", (WIDTH, ROW), sp.BACKGROUND)
    canvas = ImageDraw.Draw(image)
    canvas.rounded_rectangle((6, 0, WIDTH - 6, ROW - 6), 8, fill=sp.PANEL)
    sp.paste_text(image, (16, 6), _name(step, language), NAME, sp.TEXT)
    below = 38  # the second line's top
    if step.success is None:
        sp.paste_text(image, (16, below), t(language, "picture.skipped"), SMALL, sp.MUTED)
        return image
    x = 16
    added = list(step.parts)
    if step.step == "fuel":  # no die: the fuel against the rocket's points
        parts = dict(step.parts)
        fuel = t(language, "picture.fuel", fuel=parts["booster fuel"], count=parts["rocket points"])
        sp.paste_text(image, (x, below), fuel, SMALL, sp.TEXT)
        added = []
    elif step.die is not None:
        die = sp.die_face(step.die, DIE)
        image.paste(die, (x, below - 4), die)
        x += DIE + 8
        added = added[1:]
    for label, value in added:
        part = t(language, "part." + label.lower().replace(" ", "_"))
        x += sp.paste_text(image, (x, below), f"+ {part} {value}", SMALL, sp.TEXT) + 8
    sp.paste_text(image, (WIDTH - 16, below), _target(step, language), SMALL, sp.MUTED, "r")
    sp.paste_text(image, (WIDTH - 54, 4), f"= {step.total}", TOTAL, sp.TEXT, "r")
    ink = sp.TEXT if step.success else sp.MUTED
    sp.paste_mark(image, (WIDTH - 42, 6), bool(step.success), TOTAL, ink)
    return image
