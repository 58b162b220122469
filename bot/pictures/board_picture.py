"""Pictures of the table (PNG) drawn from what the public sees, like chess.svg for a board.

`draw(view, language, names)` takes only a `PublicView` (and the seats' names and the
words' language), so no card of any hand can reach a picture.
Pictures are cached by what they show (`shown`): the countdown is not in them,
so a table that did not change draws nothing new. A new table is put together from
parts already drawn (bot.pictures.parts), band of rows by band: each band is kept
compressed by the facts it shows, so an action that changed only the cards and seats
compresses only the bands of the seats' rows it changed (bot.pictures.pngwrite). A
seat's row is the same in every game, its player's name put over it from a cache of
names (`_over`): with thousands of games, each with its own players, a new table still
only pastes parts already drawn.
`describe` is the picture's alt text. `png(image)`, `band` and `png_of_bands` write any of
our pictures in the palette they share (`indexed` puts a drawing in it). An ended game's
picture is the board under a banner saying how it ended (bot.pictures.parts.ended)."""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable
from functools import lru_cache
from itertools import repeat
from typing import Generic, NamedTuple, TypeVar

import numpy as np
from PIL import Image, ImageDraw

from bot.i18n.catalogs import t
from bot.pictures import pngwrite, strip
from bot.pictures import sprites as sp
from bot.pictures.parts import (
    BANDS,
    GROUND_FACTS,
    HEIGHT,
    OVER,
    PARTS,
    TWINS,
    WIDTH,
    Box,
    Facts,
    Shown,
    background,
    board_rgb,
    fuel,
)
from engine import MAX_PLAYERS, Colour, Outcome, Phase, PublicView, Rules, Section, Size

PALETTE_COLOURS = 96
CACHE_SIZE = 128  # whole pictures: the same table drawn again (a few megabytes at most)
#: For each band (parts.BANDS), how many bytes of it to keep compressed. The top and
#: middle ones, about 5.2 KB and 9.9 KB a table, for some 3,000 tables: at 2,500 busy
#: games, those their builds and launches made in the last half minute or so. Each seat's
#: band, about 0.9 KB: it shows its player's name, so each game's is its own, but a seat
#: whose row an action did not change is found again (the last few seconds' tables).
BAND_CACHE_BYTES = (16 << 20, 30 << 20, *(1 << 20,) * MAX_PLAYERS)
#: How hard each band is compressed: the seats' bands, compressed again nearly every
#: action, at the fastest (a quarter faster, about 1 KB more a picture of some 20 KB).
BAND_LEVELS = (pngwrite.LEVEL, pngwrite.LEVEL, *(pngwrite.FASTEST,) * MAX_PLAYERS)
PART_CACHE_BYTES = 2 << 20  # for each part: hundreds of seats' rows, all of Apophis's
#: The rockets (their stacks of sections), 17 KB each: some 480. A game's rocket is
#: wanted again when its sequence or Apophis changes, after other games' builds: 600
#: games side by side draw 3,900 rockets with it (1,700 of them new), 2,500 with 16 MB.
ROCKET_CACHE_BYTES = 8 << 20
#: The rockets' points (the row above a stack), 10 KB each: the 400 or so ways the points
#: fall in 600 games.
POINTS_CACHE_BYTES = 4 << 20
#: The seats' names (parts.OVER), all together, each kept as the pixels it changes on its
#: row, lit and not: some 2 KB a name and state with what keeps it (a long one 3 KB), so
#: both states of 6,000 players' names, 1,500 busy games of four. Kept first in, first
#: out like the rest, it must hold all the names in play: games wanting more than that
#: would draw their names again every time (some 0.15 ms a seat).
NAME_CACHE_BYTES = 24 << 20
#: What keeping one more name costs besides its pixels (the key, the array, the entry).
_NAME_OVERHEAD = 500


def shown(view: PublicView, language: str, names: tuple[str, ...]) -> Shown:
    """What the picture of `view` shows, in `language`, its seats' players called `names`
    in seat order (equal for tables that look the same)."""
    players = [seat.player for seat in view.seats]
    active = players.index(view.active_player) if view.active_player in players else None
    pending = view.pending or {}
    note = _note(language, view.phase, pending.get("count", 0), pending.get("rerolls", 0))
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


@lru_cache(maxsize=256)
def _note(language: str, phase: Phase, count: int, left: int) -> str:
    """What the seat to act is doing."""
    if phase is Phase.OVER:
        return ""
    return t(language, f"picture.note.{phase.value}", count=count, left=left)


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
        parts.append(t(language, f"picture.alt.end.{s.outcome.value}"))
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
    seats = ", ".join(map(_described_seat, repeat(language), names, hands))
    return t(language, "picture.alt.hands", hands=seats)


@lru_cache(maxsize=4096)
def _described_seat(language: str, name: str, cards: int) -> str:
    """A seat in words: its player and the cards in their hand (few change an action)."""
    return t(language, "picture.alt.seat", name=name, cards=t(language, "count.cards", count=cards))


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
    return pngwrite.write(_head(width, height), bands)


@lru_cache(maxsize=64)
def _head(width: int, height: int) -> bytes:
    """What comes before the bands of our pictures `width` by `height` (a few sizes)."""
    return pngwrite.head(width, height, _palette_bytes())


def _quantize(image: Image.Image) -> Image.Image:
    return image.quantize(palette=_palette(), dither=Image.Dither.NONE)


def indexed(image: Image.Image) -> np.ndarray:
    """The pixels of an RGB picture as indices of the fixed palette (rows of them)."""
    return np.asarray(_quantize(image))


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
    strip = Image.new("RGB", (WIDTH, sum(image.height for image in images)))
    for i, image in enumerate(images):
        strip.paste(image, (0, sum(before.height for before in images[:i])))
    die = sp.die_face(5, sp.DIE_SIZE)  # and the launch report's dice
    strip.paste(die, (WIDTH // 2, HEIGHT // 2), die)
    return strip.quantize(PALETTE_COLOURS, Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


@lru_cache(maxsize=1)
def _palette_bytes() -> bytes:
    palette = _palette().getpalette()
    assert palette is not None, "a quantized picture has its palette"
    return bytes(palette[: PALETTE_COLOURS * 3])


@lru_cache(maxsize=CACHE_SIZE)
def drawn(s: Shown) -> bytes:
    """The PNG of the picture showing `s` (cached: a table drawn again costs nothing)."""
    if s.outcome is not None:  # the end, under its banner: drawn whole (once a game)
        return png(board_rgb(s))
    return png_of_bands(WIDTH, bands(s))


def strip_drawn(s: Shown) -> bytes:
    """The PNG of the board's strip (bot.pictures.strip) showing `s` (cached)."""
    table = (s.rules, s.language, s.damage, s.counters, s.rocket, s.sequence)
    return _strip_png(table, s.names, s.hands, s.active)


@lru_cache(maxsize=CACHE_SIZE)
def _strip_png(
    table: tuple[Rules, str, int, int, tuple[Section, ...], frozenset[Colour]],
    seats: tuple[str, ...],
    hands: tuple[int, ...],
    active: int | None,
) -> bytes:
    return png(strip.strip_rgb(table, seats, hands, active))


def bands(s: Shown) -> list[pngwrite.Band]:
    """The rows of the picture showing `s`, a game in play, as bands top to bottom (each
    kept: a replay puts its own rows above them)."""
    return [_band(index, s) for index in range(len(BANDS))]


def _band(index: int, s: Shown) -> pngwrite.Band:
    """One band of rows, compressed, put together from the parts it shows (kept by the
    facts it shows: most actions change only the bottom one)."""
    key = (s.rules, s.language, BANDS[index].facts(s))
    band = _bands[index].get(key)
    if band is not None:
        return band
    rows = _band_background(index, s.language).copy()
    for placed in _BAND_PARTS[index]:
        if isinstance(placed, _Pasted):
            name, facts, kept, into, rows_of_part = placed
            part = kept.get((name, s.rules, s.language, facts(s)))
            rows[into] = (_part(name, s) if part is None else part)[rows_of_part]
            continue
        # Drawn over a part put there before: only the pixels it changes in it.
        name, facts, at = placed
        over = _names.get((name, s.rules, s.language, facts(s)))
        top, left, pixels = _over(name, s) if over is None else over
        top, left = at[0] + top, at[1] + left
        rows[top : top + pixels.shape[0], left : left + pixels.shape[1]] = pixels
    band = pngwrite.band(rows, BAND_LEVELS[index])
    _bands[index].put(key, band, len(band.chunk))
    return band


#: What a cache keeps.
V = TypeVar("V")


class _Kept(Generic[V]):
    """A cache holding at most `budget` bytes, forgetting first what it learnt first.

    First in, first out rather than least recently used: at thousands of games, each
    game's band is wanted again after all the others had a turn. `get` is its
    dictionary's own (a picture looks up a dozen things)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self._items: dict[Hashable, V] = {}
        self._order: deque[tuple[Hashable, int]] = deque()  # keys and sizes, oldest first
        self.get = self._items.get

    def put(self, key: Hashable, value: V, size: int) -> None:
        if key in self._items:
            return
        self._items[key] = value
        self._order.append((key, size))
        self.used += size
        while self.used > self.budget:
            oldest, oldest_size = self._order.popleft()
            del self._items[oldest]
            self.used -= oldest_size

    def clear(self) -> None:
        self._items.clear()
        self._order.clear()
        self.used = 0

    def __len__(self) -> int:
        return len(self._items)


#: A part drawn over another (parts.OVER), as kept: where the pixels it changes begin in
#: its box (top, left), and those pixels.
Over = tuple[int, int, np.ndarray]

_bands: tuple[_Kept[pngwrite.Band], ...] = tuple(_Kept(budget) for budget in BAND_CACHE_BYTES)
#: The parts drawn, by part; those drawn over another (parts.OVER) share one cache.
_names: _Kept[Over] = _Kept(NAME_CACHE_BYTES)
_budgets = {"rocket": ROCKET_CACHE_BYTES, "rocket points": POINTS_CACHE_BYTES}
_parts: dict[str, _Kept[np.ndarray]] = {
    name: _Kept(_budgets.get(name, PART_CACHE_BYTES)) for name in PARTS if name not in OVER
}


def forget(*, bands: bool = False, parts: bool = False) -> None:
    """Empty the kept whole pictures (and the kept bands, and the parts with the seats'
    names drawn over them): for benchmarks that measure a cold start."""
    drawn.cache_clear()
    _strip_png.cache_clear()
    for band in _bands if bands else ():
        band.clear()
    if parts:
        for part in _parts.values():
            part.clear()
        _names.clear()
        _grounds.clear()


@lru_cache(maxsize=len(BANDS) * 4)
def _band_background(index: int, language: str) -> np.ndarray:
    """The background of a band's rows in the palette, on a `pngwrite.canvas`."""
    top, bottom, _ = BANDS[index]
    rows = pngwrite.canvas(WIDTH, bottom - top)
    rows[:, 1:] = np.asarray(_quantize(background(language).crop((0, top, WIDTH, bottom))))
    return rows


def _part(name: str, s: Shown) -> np.ndarray:
    """One part of the board (its rows in the palette), drawn once for the facts it shows."""
    box, draw_part, facts = PARTS[name]
    key = (name, s.rules, s.language, facts(s))
    part = _parts[name].get(key)
    if part is None:
        image = _scratch(s.language)
        image.paste(_blank(name, s.language), box[:2])  # what an earlier part drew
        draw_part(image, ImageDraw.Draw(image), s)
        part = np.asarray(_quantize(image.crop(box)))
        _parts[name].put(key, part, part.nbytes)
    return part


def _over(name: str, s: Shown) -> Over:
    """A part drawn over another (a seat's name over its row), drawn once for the facts
    it shows: only the pixels it changes in the other's, the least rectangle of them, and
    where that lies in its box (top, left). It is drawn on what the other shows in its box
    (`_ground`), not on the other drawn whole, and in both states of that (parts.TWINS: a
    row lit and not) while its letters are at hand: a game's first turns draw each of
    its players' names that way, and that was most of their pictures' cost."""
    facts = PARTS[name][2]
    key = (name, s.rules, s.language, facts(s))
    found = _names.get(key)
    if found is None:
        found = _drawn_over(name, s, key)
        twin = TWINS[name](s)
        twin_key = (name, s.rules, s.language, facts(twin))
        if twin_key != key and _names.get(twin_key) is None:
            _drawn_over(name, twin, twin_key)
    return found


def _drawn_over(name: str, s: Shown, key: tuple) -> Over:
    """`_over`'s drawing, kept by `key`."""
    box, draw_part, _ = PARTS[name]
    ground, under = _ground(name, s)
    image = _scratch(s.language)
    image.paste(ground, box[:2])
    draw_part(image, ImageDraw.Draw(image), s)
    drawn = np.asarray(_quantize(image.crop(box)))
    changed = drawn != under
    rows, columns = np.flatnonzero(changed.any(1)), np.flatnonzero(changed.any(0))
    if rows.size:
        first, last, start, end = rows[0], rows[-1] + 1, columns[0], columns[-1] + 1
        found = (int(first), int(start), drawn[first:last, start:end].copy())
    else:
        found = (0, 0, drawn[:0, :0].copy())
    _names.put(key, found, found[2].nbytes + _NAME_OVERHEAD)
    return found


def _ground(name: str, s: Shown) -> tuple[Image.Image, np.ndarray]:
    """What the part under `name` (parts.OVER) shows inside `name`'s box, in RGB and in
    the palette: it depends on `name`'s own facts only (a seat's row is lit or not under
    its name: parts.GROUND_FACTS), so a few are kept."""
    key = (name, s.rules, s.language, GROUND_FACTS[name](s))
    found = _grounds.get(key)
    if found is None:
        under = OVER[name]
        under_box, draw_under, _ = PARTS[under]
        image = _scratch(s.language)
        image.paste(_blank(under, s.language), under_box[:2])
        draw_under(image, ImageDraw.Draw(image), s)
        ground = image.crop(PARTS[name][0])
        found = _grounds[key] = (ground, np.asarray(_quantize(ground)))
    return found


#: `_ground`'s, by part, rules, language and ground facts (a few dozen).
_grounds: dict[tuple, tuple[Image.Image, np.ndarray]] = {}


@lru_cache(maxsize=8)
def _scratch(language: str) -> Image.Image:
    """A whole board to draw parts on (in their own boxes, each blanked first)."""
    return background(language).copy()


@lru_cache(maxsize=len(PARTS) * 4)
def _blank(name: str, language: str) -> Image.Image:
    """The background of a part's box."""
    return background(language).crop(PARTS[name][0])


class _Pasted(NamedTuple):
    """A part in a band: its facts and cache, where its rows go among the band's (`into`,
    rows and columns), and which of its rows are the band's."""

    name: str
    facts: Facts
    kept: _Kept[np.ndarray]
    into: tuple[slice, slice]
    rows: slice


class _Drawn(NamedTuple):
    """A part drawn over another in a band (cached in `_names`): its facts, and where its
    box lies among the band's rows (top, left)."""

    name: str
    facts: Facts
    at: tuple[int, int]


def _placed(name: str, box: Box, facts: Facts, top: int, bottom: int) -> _Pasted | _Drawn:
    """A part of the band of rows `top` to `bottom` (on a canvas: x + 1)."""
    left, part_top, right, part_bottom = box
    if name in OVER:
        assert top <= part_top and part_bottom <= bottom, "a part drawn over another is in one band"
        return _Drawn(name, facts, (part_top - top, left + 1))
    first, last = max(part_top, top), min(part_bottom, bottom)
    into = (slice(first - top, last - top), slice(left + 1, right + 1))
    return _Pasted(name, facts, _parts[name], into, slice(first - part_top, last - part_top))


#: The parts each band shows, in the order they are put there.
_BAND_PARTS = [
    [
        _placed(name, box, facts, top, bottom)
        for name, (box, _, facts) in PARTS.items()
        if box[1] < bottom and box[3] > top
    ]
    for top, bottom, _ in BANDS
]
