"""The launch report's picture: each check with its die, what was added and the target.

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

HEADING = 36  # the title's rows
ROW = 50  # each check's


def _name(step: ev.LaunchStep, language: str) -> str:
    return t(language, f"picture.step.{step.step}")


def _target(step: ev.LaunchStep, language: str) -> str:
    return t(language, "step.below" if step.below else "step.needs", target=step.target)


def describe(events: Iterable[ev.Event], language: str) -> str:
    """The launch picture in words (its alt text), in `language`."""
    told = []
    for step in _steps(events):
        name = _name(step, language)
        if step.success is None:
            told.append(t(language, "picture.alt.skipped", name=name))
            continue
        words = {
            "name": name,
            "total": step.total,
            "target": _target(step, language),
            "verdict": t(language, "picture.alt.passed" if step.success else "picture.alt.failed"),
        }
        if step.die is None:  # the fuel check
            points = dict(step.parts)["rocket points"]
            told.append(t(language, "picture.alt.fuel", points=points, **words))
        else:
            told.append(t(language, "picture.alt.roll", die=step.die, **words))
    checks = "; ".join(told) or t(language, "picture.alt.no_checks")
    return t(language, "picture.alt.launch", checks=checks)


def _steps(events: Iterable[ev.Event]) -> tuple[ev.LaunchStep, ...]:
    return tuple(
        e for e in (event.seen_by(None) for event in events) if isinstance(e, ev.LaunchStep)
    )


def draw_launch(events: Iterable[ev.Event], language: str) -> bytes:
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


@lru_cache(maxsize=1024)  # some 3 KB each
def _step_band(step: ev.LaunchStep, language: str) -> pngwrite.Band:
    return board_picture.band(_step_image(step, language))


def _heading_image(language: str, steps: bool) -> Image.Image:
    """The title, over an empty row when there is no check to show."""
    image = Image.new("RGB", (WIDTH, HEADING + (0 if steps else ROW)), sp.BACKGROUND)
    sp.paste_text(image, (12, 8), t(language, "picture.launch_report"), 15, sp.MUTED)
    return image


def _step_image(step: ev.LaunchStep, language: str) -> Image.Image:
    """One check's row: its name, the die, what was added, the total, the target, the verdict."""
    image = Image.new("RGB", (WIDTH, ROW), sp.BACKGROUND)
    canvas = ImageDraw.Draw(image)
    y = 0
    canvas.rounded_rectangle((6, y, WIDTH - 6, y + ROW - 6), 8, fill=sp.PANEL)
    sp.paste_text(image, (16, y + 12), _name(step, language), 18, sp.TEXT)
    if step.success is None:
        skipped = t(language, "picture.skipped")
        sp.paste_text(image, (150, y + 14), skipped, 15, sp.MUTED)
        return image
    x = 150
    added = list(step.parts)
    if step.step == "fuel":  # no die: the fuel against the rocket's points
        parts = dict(step.parts)
        fuel = t(
            language,
            "picture.fuel",
            fuel=parts["booster fuel"],
            points=parts["rocket points"],
        )
        sp.paste_text(image, (x, y + 14), fuel, 15, sp.TEXT)
        added = []
    elif step.die is not None:
        image.paste(sp.die_face(step.die, 34), (x, y + 5), sp.die_face(step.die, 34))
        x += 42
        added = added[1:]
    for label, value in added:
        part = t(language, "part." + label.lower().replace(" ", "_"))
        x += sp.paste_text(image, (x, y + 14), f"+ {part} {value}", 15, sp.TEXT) + 10
    sp.paste_text(image, (452, y + 10), f"= {step.total}", 22, sp.TEXT)
    sp.paste_text(image, (510, y + 16), _target(step, language), 13, sp.MUTED)
    ink = sp.TEXT if step.success else sp.MUTED
    sp.paste_mark(image, (WIDTH - 40, y + 10), bool(step.success), 24, ink)
    return image
