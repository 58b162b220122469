"""The pictures a replay's animation shows, move by move, each under a caption of its own.

Every picture is a board picture (bot.pictures.board_picture, drawn from a public view)
under `CAPTION` rows saying what it shows: the deal, "Replay · 58 moves", "Move 12 of
58: launch!", or over the first move after a gap in a long game's animation, which moves it
left out. An ended game's
picture has its banner there instead (bot.pictures.parts.ended), so every picture is the
same size. A move that rolled launch checks shows the rocket on its pad first, its launch
sequence complete, then each check in turn, its die, total and verdict in a column over
the sequence and the depot, before the table the launch left. Only public views and
events as the public sees them (`Event.seen_by(None)`) are read.

`frames` gives each picture (PNG, in the board's palette) and how long it shows, for
bot.pictures.replay to join into a GIF.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Protocol

import numpy as np
from PIL import Image

from bot.i18n.catalogs import t
from bot.pictures import board_picture, pngwrite
from bot.pictures import sprites as sp
from bot.pictures.parts import (
    BAND_TOP,
    ENDING_BOX,
    ENDING_HEIGHT,
    HEIGHT,
    LARGE,
    SMALL,
    WIDTH,
    Shown,
    background,
)
from engine import Colour, PublicView
from engine import events as ev

#: How long each picture shows, in milliseconds: the deal, a move, the table a launch left
#: (after its checks), the end, and the first picture after moves left out.
DEAL_MS = 1500
MOVE_MS = 500
LAUNCH_MS = 2000
END_MS = 4000
SKIP_MS = 3000
#: A launch: the rocket on its pad before it leaves, each check, the last check.
LIFTOFF_MS = 1000
CHECK_MS = 900
LAST_CHECK_MS = 1500
#: The caption's rows, above the board: as tall as an ended game's banner.
CAPTION = ENDING_HEIGHT
TITLE = 24  # the caption's size of letters
#: Where a launch's checks are shown, over the sequence and the depot (the board's
#: columns and rows), the panel drawn there (in the column), and each check's rows.
COLUMN = (298, 0, WIDTH, BAND_TOP)
COLUMN_PANEL = (4, 4, WIDTH - 298 - 4, BAND_TOP - 4)
CHECKS_TOP = 34
CHECK_ROW = 52
CHECKS_SHOWN = (COLUMN_PANEL[3] - CHECKS_TOP) // CHECK_ROW
#: In a check's row: where its die is (its numbers go under it), where its verdict
#: begins, how wide each may be, and its mark's size.
DIE_LEFT = 12
WORDS_LEFT = 44
MARK = 18
VERDICT_WIDTH = COLUMN_PANEL[2] - 8 - MARK - 6 - WORDS_LEFT
DETAIL_WIDTH = COLUMN_PANEL[2] - 8 - DIE_LEFT


class Move(Protocol):
    """The table after a move, and what the move caused, as the public saw them."""

    @property
    def view(self) -> PublicView: ...

    @property
    def events(self) -> tuple[ev.GameEvent, ...]: ...


def hold(events: Iterable[ev.GameEvent], *, first: bool, last: bool) -> int:
    """How long the table after a move shows (ms), given what the move caused: longer
    after launch checks, for the deal (`first`) and for the end (`last`)."""
    if last:
        return END_MS
    if first:
        return DEAL_MS
    return LAUNCH_MS if any(isinstance(event, ev.LaunchStep) for event in events) else MOVE_MS


def plan(last: int, shown: int) -> Iterator[tuple[int, tuple[int, int] | None]]:
    """The steps an animation of a game of `last` moves shows (step 0 is the deal, step n
    the table after move n), at most `shown` of them (2 at least: the deal and the end),
    each with None, or for the first after a gap the moves left out (first, last): every
    step, or the first half of `shown` and the last half."""
    if shown > last:
        yield from ((step, None) for step in range(last + 1))
        return
    shown = max(shown, 2)
    head = shown // 2
    resume = last - (shown - head) + 1
    yield from ((step, None) for step in range(head))
    yield resume, (head, resume - 1)
    yield from ((step, None) for step in range(resume + 1, last + 1))


def frames(
    moves: Sequence[Move],
    language: str,
    names: Callable[[PublicView], tuple[str, ...]],
    shown: int,
) -> Iterator[tuple[bytes, int]]:
    """The pictures of an animation of `moves` (the deal first), at most `shown` steps of
    them (`plan`; a launch's pictures count as its move's), and how long each shows; the
    words in `language`, each seat called by `names` of the view it is in."""
    last = len(moves) - 1
    for step, skipped in plan(last, shown):
        move = moves[step]
        # The first picture after a gap says so, whatever else it would say.
        note = None if skipped is None else _skipped(*skipped, language)
        steps = checks(move.events)
        if step and steps:
            started = any(isinstance(event, ev.LaunchStarted) for event in move.events)
            before = moves[step - 1].view
            if started:  # the last card played: the sequence is complete as it lifts off
                before = dataclasses.replace(before, sequence=tuple(Colour))
            key = "replay.frame.launch" if started else "replay.frame.reroll"
            caption = note or (t(language, key, step=step, steps=last), "")
            yield from launch(board_picture.shown(before, language, names(before)), steps, caption)
            note = None
        s = board_picture.shown(move.view, language, names(move.view))
        milliseconds = hold(move.events, first=step == 0, last=step == last)
        if note is not None and s.outcome is not None:  # the table first, then its end
            yield framed(s._replace(outcome=None), note), SKIP_MS
        elif note is not None:
            yield framed(s, note), max(milliseconds, SKIP_MS)
            continue
        yield framed(s, _moved(step, last, language)), milliseconds


def checks(events: Iterable[ev.GameEvent]) -> tuple[ev.LaunchStep, ...]:
    """The launch checks rolled among `events`, as the public sees them (a check skipped
    for want of a colour is no check)."""
    return tuple(
        event
        for event in (each.seen_by(None) for each in events)
        if isinstance(event, ev.LaunchStep) and event.success is not None
    )


def framed(s: Shown, caption: tuple[str, str]) -> bytes:
    """The picture of `s` under `caption` (a title, and a line under it or ""); an ended
    game's under its banner instead."""
    if s.outcome is not None:
        return board_picture.drawn(s)
    return board_picture.png_of_bands(WIDTH, [_caption(*caption), *board_picture.bands(s)])


def launch(
    s: Shown, steps: tuple[ev.LaunchStep, ...], caption: tuple[str, str]
) -> Iterator[tuple[bytes, int]]:
    """A launch's pictures: the table `s` as the rocket lifts off, then with each of
    `steps` in turn added to the column of checks."""
    yield framed(s, caption), LIFTOFF_MS
    with Image.open(io.BytesIO(board_picture.drawn(s))) as image:
        board = np.asarray(image)
    left, top, right, bottom = COLUMN
    for shown in range(1, len(steps) + 1):
        rows = pngwrite.canvas(WIDTH, HEIGHT)
        rows[:, 1:] = board
        rows[top:bottom, left + 1 : right + 1] = _column(steps[:shown], s.language)
        picture = board_picture.png_of_bands(WIDTH, [_caption(*caption), pngwrite.band(rows)])
        yield picture, CHECK_MS if shown < len(steps) else LAST_CHECK_MS


def verdict(step: ev.LaunchStep, language: str) -> str:
    """What a check's roll (or the fuel) made of the launch, in a word or two."""
    return t(language, f"picture.verdict.{step.step}.{'yes' if step.success else 'no'}")


def detail(step: ev.LaunchStep, language: str) -> str:
    """A check's numbers: its total against its target ("= 9, needs 7"), or the fuel."""
    if step.die is None:  # the fuel check: the booster fuel against what the rocket needs
        return t(language, "picture.fuel_check", fuel=step.total, need=step.target)
    target = t(language, "step.below" if step.below else "step.needs", target=step.target)
    return t(language, "picture.check", total=step.total, target=target)


def _moved(step: int, last: int, language: str) -> tuple[str, str]:
    """The caption over the table after a move: the deal, or the game's length (the same
    over every move, so that a frame keeps only what the move changed on the table)."""
    if step == 0:
        return t(language, "replay.frame.deal"), ""
    return t(language, "replay.frame.game", moves=t(language, "replay.moves", count=last)), ""


def _skipped(first: int, last: int, language: str) -> tuple[str, str]:
    """The caption over the first picture after moves `first` to `last` were left out."""
    title = t(language, "replay.frame.skipped", first=first, last=last)
    return title, t(language, "replay.moves", count=last - first + 1)


@lru_cache(maxsize=256)
def _caption(title: str, line: str) -> pngwrite.Band:
    """The caption's rows: `title`, and `line` under it (if any), on a panel."""
    image = Image.new("RGB", (WIDTH, CAPTION), sp.BACKGROUND)
    sp.paste_box(image, ENDING_BOX, 8, sp.PANEL)
    top, bottom = ENDING_BOX[1], ENDING_BOX[3]
    if line:
        sp.paste_text(image, (WIDTH // 2, top + 6), title, TITLE, sp.TEXT, "c")
        sp.paste_text(image, (WIDTH // 2, top + 40), line, LARGE, sp.MUTED, "c")
    else:
        sp.paste_text(image, (WIDTH // 2, (top + bottom - TITLE) // 2), title, TITLE, sp.TEXT, "c")
    return board_picture.band(image)


@lru_cache(maxsize=512)
def _column(steps: tuple[ev.LaunchStep, ...], language: str) -> np.ndarray:
    """The column of a launch's checks so far, over the sequence and the depot (in the
    palette): its heading, then each check's die (the fuel's symbol for the fuel check),
    verdict and mark, and its numbers under them; the latest `CHECKS_SHOWN`."""
    image = background(language).crop(COLUMN)
    sp.paste_box(image, COLUMN_PANEL, 8, sp.PANEL)
    heading = sp.fitted(t(language, "picture.launch_checks"), SMALL, DETAIL_WIDTH)
    sp.paste_text(image, (DIE_LEFT, COLUMN_PANEL[1] + 6), heading, SMALL, sp.MUTED)
    for row, step in enumerate(steps[-CHECKS_SHOWN:]):
        top = CHECKS_TOP + row * CHECK_ROW
        if step.die is None:  # the fuel: booster fuel is yellow
            fuel = sp.suit_mask(Colour.YELLOW, 22)
            image.paste(sp.PIECE_COLOURS[Colour.YELLOW], (DIE_LEFT + 1, top + 2), fuel)
        else:
            die = sp.die_face(step.die, sp.DIE_SIZE)
            image.paste(die, (DIE_LEFT, top + 1), die)
        words = sp.fitted(verdict(step, language), LARGE, VERDICT_WIDTH)
        width = sp.paste_text(image, (WORDS_LEFT, top + 2), words, LARGE, sp.TEXT)
        sp.paste_mark(image, (WORDS_LEFT + width + 6, top + 5), bool(step.success), MARK, sp.TEXT)
        numbers = sp.fitted(detail(step, language), SMALL, DETAIL_WIDTH)
        sp.paste_text(image, (DIE_LEFT, top + 29), numbers, SMALL, sp.MUTED)
    return board_picture.indexed(image)
