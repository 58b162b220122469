"""The launch report's picture: each check with its die, what was added and the target.

Drawn from the launch's events as the public sees them (`Event.seen_by(None)`), and
cached by those events.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from PIL import Image, ImageDraw

from bot import sprites as sp
from bot.picture import WIDTH, png
from engine import events as ev

STEP_NAMES = {
    "fuel": "Fuel",
    "launch": "Launch roll",
    "accuracy": "Accuracy",
    "damage": "Damage",
    "deflection": "Deflection",
}
ROW = 50


def describe(events: Iterable[ev.Event]) -> str:
    """The launch picture in words (its alt text)."""
    told = []
    for step in _steps(events):
        name = STEP_NAMES.get(step.step, step.step)
        if step.success is None:
            told.append(f"{name} skipped")
            continue
        target = f"explodes at {step.target}" if step.below else f"needs {step.target}"
        verdict = "passed" if step.success else "failed"
        if step.die is None:  # the fuel check
            points = dict(step.parts)["rocket points"]
            told.append(f"{name}: {step.total} of {points} points, {target}: {verdict}")
        else:
            told.append(f"{name}: die {step.die}, total {step.total}, {target}: {verdict}")
    return "Launch checks: " + ("; ".join(told) or "none yet") + "."


def _steps(events: Iterable[ev.Event]) -> tuple[ev.LaunchStep, ...]:
    return tuple(
        e for e in (event.seen_by(None) for event in events) if isinstance(e, ev.LaunchStep)
    )


def draw_launch(events: Iterable[ev.Event]) -> bytes:
    """The launch checks among `events` (as the public sees them): dice, sums, targets."""
    return _launch(_steps(events))


@lru_cache(maxsize=64)
def _launch(steps: tuple[ev.LaunchStep, ...]) -> bytes:
    return png(_launch_image(steps))


def _launch_image(steps: tuple[ev.LaunchStep, ...]) -> Image.Image:
    image = Image.new("RGB", (WIDTH, 36 + ROW * max(len(steps), 1)), sp.BACKGROUND)
    canvas = ImageDraw.Draw(image)
    sp.paste_text(image, (12, 8), "LAUNCH REPORT", 15, sp.MUTED)
    for i, step in enumerate(steps):
        y = 36 + i * ROW
        canvas.rounded_rectangle((6, y, WIDTH - 6, y + ROW - 6), 8, fill=sp.PANEL)
        sp.paste_text(image, (16, y + 12), STEP_NAMES.get(step.step, step.step), 18, sp.TEXT)
        if step.success is None:
            sp.paste_text(image, (150, y + 14), "skipped: no section of that colour", 15, sp.MUTED)
            continue
        x = 150
        added = list(step.parts)
        if step.step == "fuel":  # no die: the fuel against the rocket's points
            parts = dict(step.parts)
            fuel = f"yellow {parts['booster fuel']} of {parts['rocket points']} points"
            sp.paste_text(image, (x, y + 14), fuel, 15, sp.TEXT)
            added = []
        elif step.die is not None:
            image.paste(sp.die_face(step.die, 34), (x, y + 5), sp.die_face(step.die, 34))
            x += 42
            added = added[1:]
        for label, value in added:
            x += sp.paste_text(image, (x, y + 14), f"+ {label} {value}", 15, sp.TEXT) + 10
        sp.paste_text(image, (470, y + 10), f"= {step.total}", 22, sp.TEXT)
        target = f"explodes at {step.target}" if step.below else f"needs {step.target}"
        sp.paste_text(image, (530, y + 16), target, 13, sp.MUTED)
        image.paste(
            sp.TEXT if step.success else sp.MUTED,
            (WIDTH - 40, y + 10),
            sp.mark(bool(step.success), 24),
        )
    return image
