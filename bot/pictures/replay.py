"""A replay's animated picture: a game's board pictures, one a move, joined into one GIF.

The frames are board pictures (bot.pictures.board_picture), drawn from public views only
and all in the board's one palette, which becomes the GIF's colour table: the GIF shows
them exactly. After the first, a frame keeps only the box of pixels that changed, those
inside it that did not left transparent (the palette's first unused index), drawn over
the frame before; a frame the same as the one before only lengthens it. Frames are
written one at a time, so a long game costs no more memory than a short one, and a
hundred moves weigh about 300 KB. GIF rather than APNG, as Discord plays GIFs everywhere.

A replay's GIF weighs at most `GIF_LIMIT`: an animation shows at most `FRAMES` pictures
(`plan`: the first half and the last, the first after the gap `noted` with the moves it
skips), and fewer again while the GIF comes out heavier (`fewer`).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator

import numpy as np
from PIL import GifImagePlugin, Image

from bot.pictures import board_picture
from bot.pictures import sprites as sp
from bot.pictures.board_picture import PALETTE_COLOURS
from bot.pictures.parts import LARGE, WIDTH
from engine import events as ev

#: How long each frame shows, in milliseconds: the deal, a move, a move whose launch
#: checks were rolled (the table changed most, and the team wants to see why), the end.
DEAL_MS = 1500
MOVE_MS = 500
LAUNCH_MS = 2500
END_MS = 4000
#: How long the picture after skipped moves shows, the band across it said.
SKIP_MS = 3000
#: The most a replay's GIF weighs, in bytes: under what Discord takes from anyone (10 MiB
#: from a person without Nitro, 25 MiB from a bot), and a few seconds on a phone's data.
GIF_LIMIT = 8_000_000
#: The most pictures an animation shows (about ten minutes of moves at MOVE_MS): a 1,000-move
#: game whole, some 2.6 MB. A longer game shows its first and last moves, those between
#: skipped.
FRAMES = 1200
#: Where a picture says which moves were skipped before it: a band across the board.
NOTE_BAND = (0, 142, WIDTH, 218)
#: The palette index of the pixels a frame leaves as the frame before showed them.
CLEAR = PALETTE_COLOURS
#: Drawn over the frame before (GIF's disposal method 1: "do not dispose").
KEEP = 1
GIF_END = b";"


def hold(events: Iterable[ev.Event], *, first: bool, last: bool) -> int:
    """How long the picture after a move shows (ms), given what the move caused: longer
    for launch checks, the deal (`first`) and the end (`last`)."""
    if last:
        return END_MS
    if first:
        return DEAL_MS
    return LAUNCH_MS if any(isinstance(event, ev.LaunchStep) for event in events) else MOVE_MS


def plan(last: int, shown: int) -> Iterator[tuple[int, tuple[int, int] | None]]:
    """The steps an animation of a game of `last` moves shows (step 0 is the deal, step n
    the table after move n), at most `shown` of them (2 at least: the deal and the end),
    each with None, or for the first after a gap the moves skipped (first, last): every
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


def fewer(pictures: int, shown: int, size: int) -> int | None:
    """How many pictures the next try shows, after an animation showing `shown` of a game's
    `pictures` weighed `size` bytes: None when it is light enough (`GIF_LIMIT`) or shows
    only the deal and the end already, else fewer in proportion, a tenth more spared."""
    shown = min(shown, pictures)
    if size <= GIF_LIMIT or shown <= 2:
        return None
    return max(2, min(shown - 1, shown * GIF_LIMIT * 9 // (size * 10)))


def noted(png: bytes, title: str, line: str) -> bytes:
    """A board picture (PNG, in the board's palette) with a band across it saying what the
    animation skipped before it: ▶▶ and `title` (the moves), `line` under it (how many)."""
    with Image.open(io.BytesIO(png)) as image:
        board = image.convert("RGB")
    left, top, right, bottom = NOTE_BAND
    board.paste(sp.OUTLINE, NOTE_BAND, Image.new("L", (right - left, bottom - top), 215))
    sp.paste_text(board, ((left + right) // 2, top + 8), f"▶▶ {title}", 32, sp.TEXT, "c")
    sp.paste_text(board, ((left + right) // 2, top + 48), line, LARGE, sp.MUTED, "c")
    return board_picture.png(board)


def animate(frames: Iterable[tuple[bytes, int]]) -> bytes:
    """One looping GIF of board pictures (PNG bytes, in the board's palette; at least
    one), each shown for its milliseconds."""
    parts: list[bytes] = []
    shown: np.ndarray | None = None  # the picture the GIF shows after the frames so far
    waiting: tuple[Image.Image, tuple[int, int], int] | None = None  # until its time is known
    for png, milliseconds in frames:
        with Image.open(io.BytesIO(png)) as image:
            pixels = np.asarray(image)
            if shown is None:
                parts += GifImagePlugin.getheader(image, info={"loop": 0})[0]
        if waiting is not None and np.array_equal(pixels, shown):
            patch, offset, before = waiting
            waiting = (patch, offset, before + milliseconds)
            continue
        if waiting is not None:
            parts += _frame(*waiting)
        waiting = (*_change(shown, pixels), milliseconds)
        shown = pixels
    assert waiting is not None, "a GIF needs a frame"
    parts += _frame(*waiting)
    parts.append(GIF_END)
    return b"".join(parts)


def _change(before: np.ndarray | None, after: np.ndarray) -> tuple[Image.Image, tuple[int, int]]:
    """What a frame draws to turn `before` into `after`: the box of pixels that changed
    (unchanged ones inside it clear), and where it goes; the whole picture at first."""
    if before is None:
        box, offset = after, (0, 0)
    else:
        changed = after != before
        rows, columns = np.flatnonzero(changed.any(axis=1)), np.flatnonzero(changed.any(axis=0))
        inside = np.s_[rows[0] : rows[-1] + 1, columns[0] : columns[-1] + 1]
        box = np.where(changed[inside], after[inside], CLEAR).astype(np.uint8)
        offset = (int(columns[0]), int(rows[0]))
    height, width = box.shape
    return Image.frombytes("P", (width, height), box.tobytes()), offset


def _frame(patch: Image.Image, offset: tuple[int, int], milliseconds: int) -> list[bytes]:
    """One frame of the GIF: its control block (time, transparency, disposal) and pixels."""
    return GifImagePlugin.getdata(
        patch, offset, duration=milliseconds, transparency=CLEAR, disposal=KEEP
    )
