"""A replay's animated picture: a game's pictures, joined into one looping GIF.

The pictures are those of bot.pictures.replay_frames (board pictures under a caption),
all in the board's one palette, which becomes the GIF's colour table: the GIF shows
them exactly. After the first, a frame keeps only the box of pixels that changed, those
inside it that did not left transparent (the palette's first unused index), drawn over
the frame before; a frame the same as the one before only lengthens it. Frames are
written one at a time, so a long game costs no more memory than a short one, and a
hundred moves weigh about 300 KB. GIF rather than APNG, as Discord plays GIFs everywhere.

A replay's GIF weighs at most `GIF_LIMIT`: an animation shows at most `FRAMES` moves
(replay_frames.plan: the first half and the last, the first after the gap saying which
it left out), and fewer again while the GIF comes out heavier (`fewer`).
"""

from __future__ import annotations

import io
from collections.abc import Iterable

import numpy as np
from PIL import GifImagePlugin, Image

from bot.pictures.board_picture import PALETTE_COLOURS

#: The most a replay's GIF weighs, in bytes: under what Discord takes from anyone (10 MiB
#: from a person without Nitro, 25 MiB from a bot), and a few seconds on a phone's data.
GIF_LIMIT = 8_000_000
#: The most moves an animation shows (about ten minutes of them at half a second each): a
#: 1,000-move game whole. A longer game shows its first and last moves, those between left
#: out.
FRAMES = 1200
#: The palette index of the pixels a frame leaves as the frame before showed them.
CLEAR = PALETTE_COLOURS
#: Drawn over the frame before (GIF's disposal method 1: "do not dispose").
KEEP = 1
GIF_END = b";"


def fewer(pictures: int, shown: int, size: int) -> int | None:
    """How many steps (moves) the next try shows, after an animation showing `shown` of a
    game's `pictures` steps weighed `size` bytes: None when it is light enough
    (`GIF_LIMIT`) or shows only the deal and the end already, else fewer in proportion, a
    tenth more spared."""
    shown = min(shown, pictures)
    if size <= GIF_LIMIT or shown <= 2:
        return None
    return max(2, min(shown - 1, shown * GIF_LIMIT * 9 // (size * 10)))


def animate(frames: Iterable[tuple[bytes, int]]) -> bytes:
    """One looping GIF of pictures of one size (PNG bytes, in the board's palette; at
    least one), each shown for its milliseconds."""
    parts: list[bytes] = []
    shown: np.ndarray | None = None  # the picture the GIF shows after the frames so far
    waiting: tuple[Image.Image, tuple[int, int], int] | None = None  # until its time is known
    for png, milliseconds in frames:
        with Image.open(io.BytesIO(png)) as image:
            pixels = np.asarray(image)
            if shown is None:
                parts += GifImagePlugin.getheader(image, info={"loop": 0})[0]
        if waiting is not None and shown is not None and np.array_equal(pixels, shown):
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
