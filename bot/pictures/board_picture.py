"""Pictures of the table (PNG) drawn from what the public sees, like chess.svg for a board.

`draw(view, language, names)` takes only a `PublicView` (and the seats' names and the
words' language), so no card of any hand can reach a picture.
Pictures are cached by what they show (`shown`): the countdown is not in them,
so a table that did not change draws nothing new. A new table is put together from
parts already drawn (bot.pictures.parts), band of rows by band: each band is kept
compressed by the facts it shows, so an action that changed only the cards and seats
compresses only the bottom band (bot.pictures.pngwrite). `describe` is the picture's alt
text. `png(image)`, `band` and `png_of_bands` write any of our pictures in the palette they
share."""

from __future__ import annotations

from collections import OrderedDict
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw

from bot.i18n.catalogs import t
from bot.pictures import pngwrite
from bot.pictures import sprites as sp
from bot.pictures.parts import (
    BANDS,
    HEIGHT,
    PARTS,
    WIDTH,
    Shown,
    background,
    board_rgb,
    ending_words,
    fuel,
)
from engine import Colour, Outcome, Phase, PublicView, Rules, Size

PALETTE_COLOURS = 96
CACHE_SIZE = 128  # whole pictures: the same table drawn again (a few megabytes at most)
#: For each band (parts.BANDS), how many bytes of it to keep compressed. The top and
#: middle ones, about 5.2 KB and 9.9 KB a table, for some 3,000 tables: at 2,500 busy
#: games, those their builds and launches made in the last half minute or so. The bottom
#: one, about 3.5 KB, for some 2,700 tables: each game's is new after nearly every
#: action, but games pass through the same few (a third of them, in 500 games).
BAND_CACHE_BYTES = (16 << 20, 30 << 20, 10 << 20)
PART_CACHE_BYTES = 2 << 20  # for each part: a few dozen rockets, hundreds of seats


def shown(view: PublicView, language: str, names: tuple[str, ...]) -> Shown:
    """What the picture of `view` shows, in `language`, its seats' players called `names`
    in seat order (equal for tables that look the same)."""
    players = [seat.player for seat in view.seats]
    active = players.index(view.active_player) if view.active_player in players else None
    pending = view.pending or {}
    note = (
        ""
        if view.phase is Phase.OVER
        else t(
            language,
            f"picture.note.{view.phase.value}",
            count=pending.get("count", 0),
            left=pending.get("rerolls", 0),
        )
    )
    return Shown(
        rules=view.rules,
        language=language,
        outcome=view.outcome if view.phase is Phase.OVER else None,
        active=None if view.phase is Phase.OVER else active,
        note=note,
        names=names,
        hands=tuple(seat.hand_size for seat in view.seats),
        damage=view.damage,
        counters=view.counters,
        rocket=tuple(view.rocket),
        sequence=frozenset(view.sequence),
        depot=frozenset(view.depot),
        deck=view.deck_size,
        discard=view.discard_size,
    )


def draw(view: PublicView, language: str, names: tuple[str, ...]) -> bytes:
    """The board picture of `view` as PNG bytes (the same table gives the same bytes)."""
    return drawn(shown(view, language, names))


def describe(view: PublicView, language: str, names: tuple[str, ...]) -> str:
    """The board picture in words (its alt text), in `language`."""
    return described(shown(view, language, names))


def described(s: Shown) -> str:
    """The alt text of the picture showing `s`."""
    language = s.language
    parts = [
        _described_table(language, s.rules, s.damage, s.counters, s.rocket, len(s.sequence)),
        t(language, "picture.alt.cards", deck=s.deck, discards=s.discard),
        _described_hands(language, s.names, s.hands),
    ]
    if s.outcome is not None:
        title, line = ending_words(s.outcome, language)
        parts.append(f"{title.capitalize()} {line}")
    elif s.active is not None:
        parts.append(t(language, "picture.alt.active", name=s.names[s.active], note=s.note))
    return t(language, "picture.alt.board", parts=t(language, "list.semicolon").join(parts))


@lru_cache(maxsize=4096)
def _described_table(
    language: str, rules: Rules, damage: int, counters: int, rocket: tuple, played: int
) -> str:
    """Apophis, the rocket and the sequence in words (a build or a launch changes them)."""
    parts = [t(language, "picture.alt.apophis", value=max(3 - damage, 0), damage=damage)]
    if rules is Rules.BASIC:
        parts.append(t(language, "picture.alt.deflection", counters=counters))
    if rocket:
        sections = ", ".join(t(language, f"build.{c.value}.{Size(z).label}") for c, z in rocket)
        total, booster, need = fuel(rocket)
        key = "picture.alt.rocket_fuelled" if booster >= need else "picture.alt.rocket_short"
        parts.append(t(language, key, sections=sections, count=total, fuel=booster, need=need))
    else:
        parts.append(t(language, "picture.alt.no_rocket"))
    parts.append(t(language, "picture.alt.sequence", played=played))
    return t(language, "list.semicolon").join(parts)


@lru_cache(maxsize=4096)
def _described_hands(language: str, names: tuple[str, ...], hands: tuple[int, ...]) -> str:
    seats = ", ".join(
        t(language, "picture.alt.seat", name=name, cards=t(language, "count.cards", count=n))
        for name, n in zip(names, hands, strict=True)
    )
    return t(language, "picture.alt.hands", hands=seats)


# ------------------------------------------------------------------ drawing


def png(image: Image.Image) -> bytes:
    """PNG of `image` in the fixed palette: a third of the bytes, and fast to encode."""
    return png_of_bands(image.width, [band(image)])


def band(image: Image.Image) -> pngwrite.Band:
    """The rows of `image` in the fixed palette, compressed: a band for `png_of_bands`."""
    return pngwrite.band_of(image if image.mode == "P" else _quantize(image))


def png_of_bands(width: int, bands: list[pngwrite.Band]) -> bytes:
    """The PNG of rows `width` wide in the fixed palette, from their bands top to bottom."""
    height = sum(each.length for each in bands) // (width + 1)
    return pngwrite.write(pngwrite.head(width, height, _palette_bytes()), bands)


def _quantize(image: Image.Image) -> Image.Image:
    return image.quantize(palette=_palette(), dither=Image.Dither.NONE)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The colours of every picture, found once from sample pictures showing them all."""
    rocket = ((Colour.YELLOW, Size.LARGE), (Colour.RED, Size.MEDIUM), (Colour.BLUE, Size.SMALL))
    sample = Shown(
        Rules.BASIC,
        "en",
        None,
        0,
        "to play",
        ("Ann", "Bob", "Cy", "Dee"),
        (5, 2, 0, 3),
        1,
        2,
        rocket,
        frozenset({Colour.GREEN, Colour.BLUE}),
        frozenset((Colour.GREEN, z) for z in Size),
        9,
        30,
    )
    images = [board_rgb(sample), board_rgb(sample._replace(outcome=Outcome.LOST, rocket=()))]
    strip = Image.new("RGB", (WIDTH, HEIGHT * len(images)))
    for i, image in enumerate(images):
        strip.paste(image, (0, i * HEIGHT))
    die = sp.die_face(5, sp.DIE_SIZE)  # and the launch report's dice
    strip.paste(die, (WIDTH // 2, HEIGHT // 2), die)
    return strip.quantize(PALETTE_COLOURS, Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


@lru_cache(maxsize=1)
def _palette_bytes() -> bytes:
    return bytes(_palette().getpalette()[: PALETTE_COLOURS * 3])


@lru_cache(maxsize=CACHE_SIZE)
def drawn(s: Shown) -> bytes:
    """The PNG of the picture showing `s` (cached: a table drawn again costs nothing)."""
    if s.outcome is not None:  # the end shades the whole board: drawn whole (once a game)
        return png(board_rgb(s))
    head = pngwrite.head(WIDTH, HEIGHT, _palette_bytes())
    return pngwrite.write(head, [_band(index, s) for index in range(len(BANDS))])


def _band(index: int, s: Shown) -> pngwrite.Band:
    """One band of rows, compressed, put together from the parts it shows (kept by the
    facts it shows: most actions change only the bottom one)."""
    key = (s.rules, s.language, BANDS[index].facts(s))
    band = _bands[index].get(key)
    if band is not None:
        return band
    rows = _band_background(index, s.language).copy()
    for name, into, rows_of_part in _BAND_PARTS[index]:
        rows[into] = _part(name, s)[rows_of_part]
    band = pngwrite.band(rows)
    _bands[index].put(key, band, len(band.chunk))
    return band


class _Kept:
    """A cache holding at most `budget` bytes, forgetting first what it learnt first.

    First in, first out rather than least recently used: at thousands of games, each
    game's band is wanted again after all the others had a turn."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self._items: OrderedDict[object, tuple[object, int]] = OrderedDict()

    def get(self, key: object):
        found = self._items.get(key)
        return None if found is None else found[0]

    def put(self, key: object, value: object, size: int) -> None:
        self._items[key] = (value, size)
        self.used += size
        while self.used > self.budget:
            self.used -= self._items.popitem(last=False)[1][1]

    def clear(self) -> None:
        self._items.clear()
        self.used = 0


_bands = tuple(_Kept(budget) for budget in BAND_CACHE_BYTES)


@lru_cache(maxsize=16)
def _band_background(index: int, language: str) -> np.ndarray:
    """The background of a band's rows in the palette, on a `pngwrite.canvas`."""
    top, bottom, _ = BANDS[index]
    rows = pngwrite.canvas(WIDTH, bottom - top)
    rows[:, 1:] = np.asarray(_quantize(background(language).crop((0, top, WIDTH, bottom))))
    return rows


_parts: dict[str, OrderedDict[tuple, np.ndarray]] = {}


def _part(name: str, s: Shown) -> np.ndarray:
    """One part of the board (its rows in the palette), drawn once for the facts it shows."""
    box, draw_part, facts = PARTS[name]
    kept = _parts.setdefault(name, OrderedDict())
    key = (s.rules, s.language, facts(s))
    part = kept.get(key)
    if part is None:
        image = _scratch(s.language)
        image.paste(_blank(name, s.language), box[:2])  # what an earlier part drew
        draw_part(image, ImageDraw.Draw(image), s)
        part = np.asarray(_quantize(image.crop(box)))
        if len(kept) * part.size >= PART_CACHE_BYTES:
            kept.popitem(last=False)
        kept[key] = part
    return part


@lru_cache(maxsize=8)
def _scratch(language: str) -> Image.Image:
    """A whole board to draw parts on (in their own boxes, each blanked first)."""
    return background(language).copy()


@lru_cache(maxsize=len(PARTS) * 4)
def _blank(name: str, language: str) -> Image.Image:
    """The background of a part's box."""
    return background(language).crop(PARTS[name][0])


def _placed(box: tuple[int, int, int, int], top: int, bottom: int) -> tuple[tuple, slice]:
    """Where a part's rows go among the rows of a band (on a canvas: x + 1), and which
    of its rows are the band's."""
    left, part_top, right, part_bottom = box
    first, last = max(part_top, top), min(part_bottom, bottom)
    into = (slice(first - top, last - top), slice(left + 1, right + 1))
    return into, slice(first - part_top, last - part_top)


#: The parts each band shows: where their rows go in it, and which of them.
_BAND_PARTS = [
    [
        (name, *_placed(box, top, bottom))
        for name, (box, _, _) in PARTS.items()
        if box[1] < bottom and box[3] > top
    ]
    for top, bottom, _ in BANDS
]
