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
import math
import os
import random
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from bot.i18n.catalogs import t
from bot.pictures import board_picture, launch_picture, names, parts, sprites
from engine import Colour, Game, Outcome, Phase, PublicView, Rules, SeatView, Size
from engine.playout import choose_action
from tests.engine.helpers import table

PICTURES = Path(__file__).parent / "pictures"
REDRAW = os.environ.get("APOPHIS_REDRAW_PICTURES") == "1"
MAX_BYTES = 60 * 1024
NAMES = ("Ann", "Bob", "Cy", "Dee")


def draw(view: PublicView, language: str = "en") -> bytes:
    """The board picture of `view`, its seats' players called after NAMES."""
    return board_picture.draw(view, language, NAMES[: len(view.seats)])


def shown(view: PublicView, language: str = "en") -> parts.Shown:
    return board_picture.shown(view, language, NAMES[: len(view.seats)])


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
    first = draw(midgame())
    board_picture.drawn.cache_clear()
    assert draw(midgame()) == first
    assert first != draw(destroyed())
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
        s = shown(game.public_view())
        whole = board_picture._quantize(parts.board_rgb(s))
        drawn = Image.open(io.BytesIO(draw(game.public_view())))
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
            s = shown(game.public_view())
            for index, (_, _, facts) in enumerate(parts.BANDS):
                drawn = tuple(
                    parts.PARTS[name][2](s) for name, *_ in board_picture._BAND_PARTS[index]
                )
                assert seen.setdefault((index, rules, facts(s)), drawn) == drawn
    assert len(seen) > 50


def test_an_action_compresses_only_the_bands_of_the_seats_and_piles_it_changed(monkeypatch):
    """The rows above the cards and seats are kept compressed, and so are the rows of the
    seats an action left alone: a draw compresses the drawing seat's band and the deck's
    (beside the second seat), the turn passing the two seats' bands, a build only the
    rows above."""
    board_picture.forget(bands=True)  # none kept from the tests before (in any order)
    view = midgame()  # the second seat (22) to act
    draw(view)
    compressed = []
    original = board_picture.pngwrite.band
    monkeypatch.setattr(
        board_picture.pngwrite,
        "band",
        lambda rows, level: compressed.append(rows.shape[0]) or original(rows, level),
    )

    def heights(bands: slice) -> list[int]:
        return [bottom - top for top, bottom, _ in parts.BANDS[bands]]

    drew = _with_seats(dataclasses.replace(view, deck_size=view.deck_size - 2), (5, 2, 5, 0))
    assert draw(drew) != draw(view)
    assert compressed == heights(slice(2, 4))  # the first seat's, the second's and deck
    compressed.clear()
    assert draw(dataclasses.replace(drew, active_player=33)) != draw(drew)
    assert compressed == heights(slice(3, 5))  # the second seat's and the third's
    assert sum(heights(slice(2, None))) == parts.BAND_HEIGHT
    compressed.clear()
    built = (*view.rocket, (Colour.GREEN, Size.SMALL))
    draw(dataclasses.replace(drew, rocket=built))  # the same cards and seats
    assert compressed == heights(slice(0, 2))
    assert sum(compressed) == parts.BAND_TOP


def test_kept_bands_are_bounded_forgetting_the_oldest_first():
    kept = board_picture._Kept(budget=100)
    for key in range(5):
        kept.put(key, f"band {key}", 30)
    assert kept.used <= 100
    assert [kept.get(key) for key in range(5)] == [None, None, "band 2", "band 3", "band 4"]


#: Names whose letters reach the lit row's outline (accents over capitals, descenders),
#: one too long for its seat, and one with nothing the font draws.
HARD_NAMES = ("Émile Ångström", "gjpqy ÀÉÎÕ", "Wolfeschlegelsteinhausen der Große", "🚀")


def test_names_over_the_seats_rows_are_the_board_drawn_whole():
    """A seat's row is drawn once for every game, its player's name put over it from a
    cache of names: names reaching into the lit row's outline, lit or not, and the same
    names in another game (found in the cache, on other rows), give the board drawn
    whole."""
    for seed in (5, 6):
        game, rng = Game.new([1, 2, 3, 4], Rules.BASIC, seed=seed), random.Random(seed)
        for _ in range(30):
            game.apply(choose_action(game.view_for(game.active_player), rng))
            s = board_picture.shown(game.public_view(), "fr", HARD_NAMES)
            whole = board_picture._quantize(parts.board_rgb(s))
            drawn = Image.open(io.BytesIO(board_picture.drawn(s)))
            assert drawn.tobytes() == whole.tobytes()


def test_a_new_game_draws_only_its_players_names_small():
    """With thousands of games, each with its own players, a table of a new game finds
    its seats' rows already drawn (they are every game's) and draws only its names, each
    kept as the few pixels it changes (a name's, not a row's), on its row lit and not
    (the other is wanted a few turns later, and its letters are at hand now)."""
    view = midgame()
    draw(view)
    rows = {name: len(board_picture._parts[name]) for name in parts.PARTS if "seat" in name}
    kept, used = len(board_picture._names), board_picture._names.used
    board_picture.draw(view, "en", ("Zoé Rowan", "Yann Rowan", "Xavier Rowan", "Wanda Rowan"))
    assert {name: len(board_picture._parts[name]) for name in rows} == rows
    assert len(board_picture._names) == kept + 8
    left, top, right, bottom = parts.NAME_BOXES[0]
    pixels = board_picture._names.used - used - 8 * board_picture._NAME_OVERHEAD
    assert pixels < 8 * (right - left) * (bottom - top) / 2
    # Another seat to act: its name, lit now, and the last one's, not lit, are at hand.
    after = len(board_picture._names)
    players = [seat.player for seat in view.seats]
    following = players[(players.index(view.active_player) + 1) % len(players)]
    board_picture.draw(
        dataclasses.replace(view, active_player=following),
        "en",
        ("Zoé Rowan", "Yann Rowan", "Xavier Rowan", "Wanda Rowan"),
    )
    assert len(board_picture._names) == after


@pytest.mark.parametrize(
    ("corners", "radius", "fill", "outline", "width"),
    [
        (parts.SEAT_BOXES[1], 6, sprites.GHOST, sprites.TEXT, 2),  # a lit seat
        (parts.SEAT_BOXES[2], 6, sprites.PANEL, None, 2),
        ((13, 21, 25, 37), 2, sprites.MUTED, sprites.TEXT, 1),  # a card
        ((306, 36, 344, 86), 6, None, sprites.GHOST, 2),  # a slot of the sequence
        ((349, 36, 387, 86), 6, sprites.PIECE_COLOURS[Colour.RED], sprites.OUTLINE, 2),
    ],
)
def test_a_pasted_box_is_the_rounded_rectangle_imagedraw_draws(
    corners, radius, fill, outline, width
):
    drawn = parts.background("en").copy()
    ImageDraw.Draw(drawn).rounded_rectangle(corners, radius, fill, outline, width)
    pasted = parts.background("en").copy()
    sprites.paste_box(pasted, corners, radius, fill, outline, width)
    assert pasted.tobytes() == drawn.tobytes()


def test_pictures_are_cached_by_what_they_show():
    view = midgame()
    draw(view)
    hits = board_picture.drawn.cache_info().hits
    # The turn number and the order the depot is listed in are not shown: same picture.
    same = dataclasses.replace(view, turn=view.turn + 7, depot=tuple(reversed(view.depot)))
    assert shown(same) == shown(view)
    draw(same)
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
            {"rocket", "depot"},
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
    assert changed_regions(draw(midgame()), draw(changed)) == regions


def test_the_seats_show_their_players_names():
    view = midgame()
    renamed = board_picture.draw(view, "en", ("Ann", "Bob", "Zoe", "Dee"))
    assert changed_regions(draw(view), renamed) == {"seats"}


def test_a_long_name_is_shortened_to_fit_and_none_is_ever_a_seats_number():
    s = board_picture.shown(midgame(), "en", ("A" * 40, "Bob 🚀", "", "ரமேஷ்"))
    long, rocket, empty, tamil = (parts.seat_name(s, i) for i in range(4))
    assert long.endswith("…") and long.startswith("AAA")
    assert names.width(long, parts.LARGE) <= parts.NAME_WIDTH
    assert rocket == "Bob 🚀"  # the emoji too (tests/bot/test_picture_names.py)
    assert empty == names.NOBODY  # nothing to draw: a silhouette
    assert tamil.startswith("Ram")  # a script no font has: in Latin letters


def test_the_end_of_the_game_is_a_banner_above_the_board_covering_none_of_it():
    view = midgame()
    lost = dataclasses.replace(view, phase=Phase.OVER, outcome=Outcome.LOST, active_player=None)
    ended = pixels(draw(lost))
    assert ended.size == (parts.WIDTH, parts.ENDING_HEIGHT + parts.HEIGHT)
    # Below the banner, the table exactly as it stood (no seat to act: the game is over).
    table = board_picture.drawn(shown(lost)._replace(outcome=None))
    below = ended.crop((0, parts.ENDING_HEIGHT, parts.WIDTH, ended.height))
    assert below.tobytes() == pixels(table).tobytes()
    banner = ended.crop((0, 0, parts.WIDTH, parts.ENDING_HEIGHT))
    assert ImageStat.Stat(banner).extrema != [(0, 0)] * 3
    won = dataclasses.replace(lost, outcome=Outcome.DEFLECTED)
    assert pixels(draw(won)).crop((0, 0, parts.WIDTH, parts.ENDING_HEIGHT)) != banner
    assert "deflected" in board_picture.describe(won, "en", NAMES).lower()


# ------------------------------------------------------------- no hand in it


def test_the_drawing_function_takes_only_the_public_view():
    parameters = inspect.signature(board_picture.draw).parameters
    # and the words' language and the seats' names, nothing else
    assert list(parameters) == ["view", "language", "names"]
    assert parameters["view"].annotation in (PublicView, "PublicView")
    assert parameters["names"].annotation in (tuple[str, ...], "tuple[str, ...]")
    player_view = table(players=(1, 2)).view_for(1)
    with pytest.raises(AttributeError):
        board_picture.draw(player_view, "en", NAMES[:2])


def test_different_hands_of_the_same_sizes_draw_the_same_picture():
    one = table(players=(1, 2), hands=[["2H", "3H", "4S"], ["5C", "6D"]])
    other = table(players=(1, 2), hands=[["9C", "9D", "9S"], ["KH", "QH"]])
    assert draw(one.public_view()) == draw(other.public_view())
    names = NAMES[:2]
    assert board_picture.describe(one.public_view(), "en", names) == board_picture.describe(
        other.public_view(), "en", names
    )


def test_the_launch_picture_shows_the_public_launch_steps():
    events = launch_events()
    png = launch_picture.draw_launch(events, "en")
    assert png == launch_picture.draw_launch([e.seen_by(None) for e in events], "en")
    steps = sum(1 for e in events if e.kind == "launch_step")
    assert pixels(png).height == launch_picture.HEADING + launch_picture.ROW * steps
    rolled = [
        dataclasses.replace(e, die=6, total=e.total + 6 - e.die)
        if e.kind == "launch_step" and e.die
        else e
        for e in events
    ]
    assert launch_picture.draw_launch(rolled, "en") != png


# ---------------------------------------------------------- reference pictures


REFERENCES = {
    "board_midgame.png": lambda: draw(midgame()),
    "board_destroyed.png": lambda: draw(destroyed()),
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
    assert len(draw(make())) < MAX_BYTES


def test_the_alt_text_says_what_the_picture_shows():
    text = board_picture.describe(midgame(), "en", NAMES)
    for words in (
        "damage 1 of 3",
        "deflection 2 of 5",
        "large yellow",
        "9 points, fuel 3, 3 needed: enough",
        "launch sequence 2 of 4",
        "Ann (3 cards), Bob (2 cards), Cy (5 cards), Dee (no cards)",
    ):
        assert words in text
    assert "Bob to play" in text
    assert len(text) <= 1024  # Discord's limit for an attachment's description


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("outcome", list(Outcome))
def test_an_ended_boards_alt_text_tells_the_end_in_one_sentence(language, outcome):
    """Not the banner's two lines run together ("Apophis destroyed Earth is safe.")."""
    view = dataclasses.replace(midgame(), phase=Phase.OVER, outcome=outcome, active_player=None)
    text = board_picture.describe(view, language, NAMES)
    title, line = parts.ending_words(outcome, language)
    assert f"{title.capitalize()} {line}" not in text
    end = text.rsplit(";", 1)[1].strip()
    assert end[0].islower() and end.endswith(".") and end.count(".") == 1, end
    assert end.rstrip(".") == t(language, f"picture.alt.end.{outcome.value}")


# ------------------------------------------------------ colour-vision check

#: Machado, Oliveira and Fernandes (2009), full severity, applied to linear RGB.
DEFICIENCIES = {
    "normal vision": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
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
#: The least CIELAB distance (ΔE*ab) between two pieces' colours, seen with any of them:
#: 2.3 is just noticeable; the old palette's orange hearts came to 33 from the yellow
#: spades under deuteranopia.
APART = 40
#: The hue (CIELAB h°) each colour's name allows: pure red is at 40°, the buttons' 🟥 at
#: 25°, and orange from 55° (the old hearts were at 56°).
HUES = {
    Colour.RED: (20, 45),
    Colour.GREEN: (130, 170),
    Colour.BLUE: (280, 310),
    Colour.YELLOW: (85, 105),
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


def _apart(palette, matrix) -> float:
    """The least distance between two of `palette`'s colours, seen through `matrix`."""
    seen = [_lab(_seen_with(rgb, matrix)) for rgb in palette.values()]
    return min(math.dist(a, b) for a, b in itertools.combinations(seen, 2))


@pytest.mark.parametrize("deficiency", list(DEFICIENCIES))
def test_the_colours_stay_apart_under_colour_vision_deficiencies(deficiency):
    distance = _apart(sprites.PIECE_COLOURS, DEFICIENCIES[deficiency])
    assert distance >= APART, f"two pieces look alike with {deficiency} (ΔE {distance:.0f})"


def test_the_simulation_tells_apart_what_a_deficiency_confuses():
    """The old orange hearts came too near the yellow spades for deuteranopes, and this
    brick red and olive green, far apart for most, are one colour for them."""
    old = {**sprites.PIECE_COLOURS, Colour.RED: (213, 94, 0), Colour.YELLOW: (240, 228, 66)}
    assert _apart(old, DEFICIENCIES["deuteranopia"]) < APART
    plain = {Colour.RED: (180, 80, 40), Colour.GREEN: (110, 130, 40)}
    assert _apart(plain, DEFICIENCIES["normal vision"]) >= APART
    assert _apart(plain, DEFICIENCIES["deuteranopia"]) < 10


@pytest.mark.parametrize("colour", list(Colour))
def test_each_piece_reads_as_its_colour_s_name(colour):
    _, a, b = _lab(_linear(sprites.PIECE_COLOURS[colour]))
    hue, chroma = math.degrees(math.atan2(b, a)) % 360, math.hypot(a, b)
    low, high = HUES[colour]
    assert low <= hue <= high and chroma > 40, f"{colour} reads as another colour ({hue:.0f}°)"
