"""The board picture: deterministic, drawn from the public view only, each fact in its place.

Reference pictures live in tests/bot/pictures/. After changing the design on purpose,
redraw them with:

    APOPHIS_REDRAW_PICTURES=1 .venv/bin/python -m pytest tests/bot/test_picture.py -k reference
"""

from __future__ import annotations

import dataclasses
import inspect
import io
import itertools
import os
import random
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.pictures import board_picture, launch_picture, parts, sprites
from engine import Colour, Game, Outcome, Phase, PublicView, Rules, SeatView, Size
from engine.playout import choose_action
from tests.engine.helpers import table

PICTURES = Path(__file__).parent / "pictures"
REDRAW = os.environ.get("APOPHIS_REDRAW_PICTURES") == "1"
MAX_BYTES = 60 * 1024


def midgame() -> PublicView:
    game = table(
        players=(11, 22, 33, 44),
        hands=[["2H", "3H", "4H"], ["2S", "3S"], ["2C", "3C", "4C", "5C", "6C"], []],
        rocket=[("yellow", 3), ("red", 3), ("blue", 2), ("red", 1)],
        sequence=["7D", "7C"],
        active=1,
        damage=1,
        counters=2,
    )
    return game.public_view()


def destroyed() -> PublicView:
    game = table(players=(11, 22), rules="advanced", damage=3)
    game._finish(Outcome.DESTROYED)
    return game.public_view()


def tallest() -> PublicView:
    """The busiest board there can be: all twelve sections up, four full seats."""
    rocket = [(c.value, s) for s in (3, 2, 1) for c in Colour]
    hands = [["2H", "3H", "4H", "5H", "6H"], ["2S", "3S", "4S", "5S", "6S"]]
    hands += [["2C", "3C", "4C", "5C", "6C"], ["2D", "3D", "4D", "5D", "6D"]]
    game = table(players=(1, 2, 3, 4), hands=hands, rocket=rocket, sequence=["7D", "7C", "7H"])
    return game.public_view()


def launch_events():
    game = table(
        players=(11, 22),
        hands=[["2H", "2S", "2D", "2C"], []],
        rocket=[("yellow", 3), ("red", 2), ("blue", 1), ("green", 1)],
        dice=[2, 5, 4],
    )
    return game.launch(11, ["2H", "2S", "2D", "2C"])


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def changed_regions(before: bytes, after: bytes) -> set[str]:
    diff = ImageChops.difference(pixels(before), pixels(after))
    return {name for name, box in parts.REGIONS.items() if diff.crop(box).getbbox()}


# ------------------------------------------------------------ determinism


def test_the_same_table_gives_the_same_bytes_even_redrawn():
    first = board_picture.draw(midgame(), "en")
    board_picture.drawn.cache_clear()
    assert board_picture.draw(midgame(), "en") == first
    assert first != board_picture.draw(destroyed(), "en")
    assert first.startswith(b"\x89PNG")


@pytest.mark.parametrize("players", [1, 3, 4])
def test_a_board_put_together_from_cached_parts_is_the_board_drawn_whole(players):
    """Each part and band is cached by the facts it shows: if it read any other, a later
    table would get a stale one, and differ from the same table drawn whole. The PNG we
    write decodes to exactly the palette image."""
    game, rng = Game.new(list(range(players)), Rules.BASIC, seed=3), random.Random(3)
    for _ in range(120):
        if game.is_over:
            break
        game.apply(choose_action(game.view_for(game.active_player), rng))
        s = board_picture.shown(game.public_view(), "en")
        whole = board_picture._quantize(parts.board_rgb(s))
        drawn = Image.open(io.BytesIO(board_picture.draw(game.public_view(), "en")))
        assert drawn.mode == "P" and drawn.size == whole.size
        assert drawn.tobytes() == whole.tobytes()


def test_a_kept_band_s_facts_decide_every_part_drawn_in_it():
    """A band is kept by its facts alone: two tables that agree on them must agree on
    the facts of every part drawn in its rows (tables of whole games, both rule sets)."""
    seen: dict[tuple, tuple] = {}
    for seed, rules in itertools.product(range(6), Rules):
        game, rng = Game.new([1, 2, 3], rules, seed=seed), random.Random(seed)
        while not game.is_over:
            if game.phase is Phase.RESHUFFLE:
                game.finish_reshuffle()
            else:
                game.apply(choose_action(game.view_for(game.active_player), rng))
            s = board_picture.shown(game.public_view(), "en")
            for index, (_, _, facts) in enumerate(parts.BANDS):
                drawn = tuple(
                    parts.PARTS[name][2](s) for name, *_ in board_picture._BAND_PARTS[index]
                )
                assert seen.setdefault((index, rules, facts(s)), drawn) == drawn
    assert len(seen) > 50


def test_a_new_hand_size_compresses_only_the_bottom_band(monkeypatch):
    """The rows above the cards and seats are kept compressed: a draw, a discard or a
    turn passing compresses only the bottom band again."""
    view = midgame()
    board_picture.draw(view, "en")
    compressed = []
    original = board_picture.pngwrite.band
    monkeypatch.setattr(
        board_picture.pngwrite,
        "band",
        lambda rows: compressed.append(rows.shape[0]) or original(rows),
    )
    drew = _with_seats(dataclasses.replace(view, deck_size=view.deck_size - 2), (5, 2, 5, 0))
    assert board_picture.draw(drew, "en") != board_picture.draw(view, "en")
    assert compressed == [parts.BAND_HEIGHT]
    compressed.clear()
    built = (*view.rocket, (Colour.GREEN, Size.SMALL))
    board_picture.draw(dataclasses.replace(drew, rocket=built), "en")  # the same cards and seats
    assert compressed == [bottom - top for top, bottom, _ in parts.BANDS[1:3]]
    assert sum(compressed) == parts.HEIGHT - parts.BANDS[1].top - parts.BAND_HEIGHT


def test_kept_bands_are_bounded_forgetting_the_oldest_first():
    kept = board_picture._Kept(budget=100)
    for key in range(5):
        kept.put(key, f"band {key}", 30)
    assert kept.used <= 100
    assert [kept.get(key) for key in range(5)] == [None, None, "band 2", "band 3", "band 4"]


def test_pictures_are_cached_by_what_they_show():
    view = midgame()
    board_picture.draw(view, "en")
    hits = board_picture.drawn.cache_info().hits
    # The turn number and the order the depot is listed in are not shown: same picture.
    same = dataclasses.replace(view, turn=view.turn + 7, depot=tuple(reversed(view.depot)))
    assert board_picture.shown(same, "en") == board_picture.shown(view, "en")
    board_picture.draw(same, "en")
    assert board_picture.drawn.cache_info().hits == hits + 1


# ----------------------------------------------------- each fact in its place


def _with_seats(view: PublicView, sizes) -> PublicView:
    seats = tuple(SeatView(s.player, n) for s, n in zip(view.seats, sizes, strict=True))
    return dataclasses.replace(view, seats=seats)


def _cases():
    view = midgame()
    built = (*view.rocket, (Colour.GREEN, Size.SMALL))
    depot = tuple(p for p in view.depot if p != (Colour.GREEN, Size.SMALL))
    return {
        "rocket": (
            dataclasses.replace(view, rocket=built, depot=depot),
            {"rocket", "points", "depot"},
        ),
        "sequence": (
            dataclasses.replace(view, sequence=(*view.sequence, Colour.RED)),
            {"sequence"},
        ),
        "apophis": (dataclasses.replace(view, damage=2, apophis_value=1), {"apophis"}),
        "counters": (dataclasses.replace(view, counters=3), {"counters"}),
        "hand sizes": (_with_seats(view, (3, 2, 4, 0)), {"seats"}),
        "turn": (dataclasses.replace(view, active_player=33), {"seats"}),
        "phase": (
            dataclasses.replace(view, phase=Phase.DISCARD, pending={"count": 1}),
            {"seats"},
        ),
        "deck": (dataclasses.replace(view, deck_size=view.deck_size - 2), {"cards"}),
        "discard pile": (dataclasses.replace(view, discard_size=5), {"cards"}),
    }


@pytest.mark.parametrize("fact", list(_cases()))
def test_each_public_fact_changes_the_picture_where_it_is_shown(fact):
    changed, regions = _cases()[fact]
    assert (
        changed_regions(board_picture.draw(midgame(), "en"), board_picture.draw(changed, "en"))
        == regions
    )


def test_the_end_of_the_game_is_drawn_across_the_board():
    view = midgame()
    lost = dataclasses.replace(view, phase=Phase.OVER, outcome=Outcome.LOST, active_player=None)
    assert {"apophis", "rocket", "depot"} <= changed_regions(
        board_picture.draw(view, "en"), board_picture.draw(lost, "en")
    )
    won = dataclasses.replace(lost, outcome=Outcome.DEFLECTED)
    assert board_picture.draw(won, "en") != board_picture.draw(lost, "en")
    assert "deflected" in board_picture.describe(won, "en").lower()


# ------------------------------------------------------------- no hand in it


def test_the_drawing_function_takes_only_the_public_view():
    parameters = inspect.signature(board_picture.draw).parameters
    assert list(parameters) == ["view", "language"]  # and the words' language, nothing else
    assert parameters["view"].annotation in (PublicView, "PublicView")
    player_view = table(players=(1, 2)).view_for(1)
    with pytest.raises(AttributeError):
        board_picture.draw(player_view, "en")


def test_different_hands_of_the_same_sizes_draw_the_same_picture():
    one = table(players=(1, 2), hands=[["2H", "3H", "4S"], ["5C", "6D"]])
    other = table(players=(1, 2), hands=[["9C", "9D", "9S"], ["KH", "QH"]])
    assert board_picture.draw(one.public_view(), "en") == board_picture.draw(
        other.public_view(), "en"
    )
    assert board_picture.describe(one.public_view(), "en") == board_picture.describe(
        other.public_view(), "en"
    )


def test_the_launch_picture_shows_the_public_launch_steps():
    events = launch_events()
    png = launch_picture.draw_launch(events, "en")
    assert png == launch_picture.draw_launch([e.seen_by(None) for e in events], "en")
    steps = sum(1 for e in events if e.kind == "launch_step")
    assert pixels(png).height == 36 + launch_picture.ROW * steps
    rolled = [
        dataclasses.replace(e, die=6, total=e.total + 6 - e.die)
        if e.kind == "launch_step" and e.die
        else e
        for e in events
    ]
    assert launch_picture.draw_launch(rolled, "en") != png


# ---------------------------------------------------------- reference pictures


REFERENCES = {
    "board_midgame.png": lambda: board_picture.draw(midgame(), "en"),
    "board_destroyed.png": lambda: board_picture.draw(destroyed(), "en"),
    "launch.png": lambda: launch_picture.draw_launch(launch_events(), "en"),
}


@pytest.mark.parametrize("name", list(REFERENCES))
def test_pictures_match_the_reference_pictures(name):
    png, path = REFERENCES[name](), PICTURES / name
    if REDRAW:
        PICTURES.mkdir(exist_ok=True)
        path.write_bytes(png)
        print(f"redrew {path}")
    drawn, reference = pixels(png), pixels(path.read_bytes())
    assert drawn.size == reference.size
    diff = ImageChops.difference(drawn, reference).convert("L")
    # A small tolerance: another FreeType may shade the letters' edges a little differently.
    assert max(ImageStat.Stat(diff).mean) < 1.5, f"{name} differs from its reference"
    assert sum(diff.point(lambda v: 255 if v > 48 else 0).histogram()[255:]) < 0.002 * (
        drawn.width * drawn.height
    ), f"{name} differs from its reference"


# ------------------------------------------------------------------- size


@pytest.mark.parametrize("make", [midgame, destroyed, tallest])
def test_a_picture_weighs_under_60_kb(make):
    assert len(board_picture.draw(make(), "en")) < MAX_BYTES


def test_the_alt_text_says_what_the_picture_shows():
    text = board_picture.describe(midgame(), "en")
    for words in ("damage 1 of 3", "deflection 2 of 5", "large yellow", "launch sequence 2 of 4"):
        assert words in text
    assert "seat 2 to play" in text
    assert len(text) <= 1024  # Discord's limit for an attachment's description


# ------------------------------------------------------ colour-vision check

#: Machado, Oliveira and Fernandes (2009), full severity, applied to linear RGB.
DEFICIENCIES = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def _linear(rgb):
    return [
        c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (v / 255 for v in rgb)
    ]


def _lab(linear):
    r, g, b = linear
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z))
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def _seen_with(rgb, matrix):
    linear = _linear(rgb)
    return [
        min(max(sum(m * c for m, c in zip(row, linear, strict=True)), 0.0), 1.0) for row in matrix
    ]


@pytest.mark.parametrize("deficiency", list(DEFICIENCIES))
def test_the_colours_stay_apart_under_colour_vision_deficiencies(deficiency):
    matrix = DEFICIENCIES[deficiency]
    seen = {c: _lab(_seen_with(rgb, matrix)) for c, rgb in sprites.PIECE_COLOURS.items()}
    for a, b in itertools.combinations(seen, 2):
        distance = sum((p - q) ** 2 for p, q in zip(seen[a], seen[b], strict=True)) ** 0.5
        assert distance > 25, f"{a} and {b} look alike under {deficiency} (ΔE {distance:.0f})"
