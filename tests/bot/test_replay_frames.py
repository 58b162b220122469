"""A replay's pictures (bot.pictures.replay_frames), from games played by the engine: every
board under its caption, a launch's rocket on its pad and its checks one by one with their
dice and verdicts, the moves a long game's animation leaves out said where it resumes; the
words in both languages, each fitting its place."""

from __future__ import annotations

import dataclasses
import io
from dataclasses import dataclass

import pytest
from PIL import Image

from bot.i18n.catalogs import languages, t
from bot.pictures import board_picture, parts, replay_frames, sprites
from bot.pictures import replay as animation
from engine import HAND_LIMIT, Colour, Game, Phase, PublicView
from engine import events as ev
from tests.engine.helpers import table as position

ANN, BOB = 1, 2
NAMES = ("Ann", "Bob")


@dataclass(frozen=True)
class Move:
    """The table after a move and what it caused, as bot.views.history keeps them."""

    view: PublicView
    events: tuple[ev.Event, ...]


def played(game: Game, *moves) -> list[Move]:
    """The deal (as `game` stands), then each move played on it, as the public saw them."""
    found = [Move(game.public_view(), ())]
    for move in moves:
        events = move(game)
        found.append(Move(game.public_view(), tuple(e.seen_by(None) for e in events)))
    return found


def names(view: PublicView) -> tuple[str, ...]:
    return NAMES[: len(view.seats)]


def pictures(moves: list[Move], language: str = "en", shown: int = 100) -> list[tuple]:
    return list(replay_frames.frames(moves, language, names, shown))


def pixels(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB")


def board_of(png: bytes) -> bytes:
    """The board under a picture's caption."""
    image = pixels(png)
    assert image.size == (parts.WIDTH, replay_frames.CAPTION + parts.HEIGHT)
    return image.crop((0, replay_frames.CAPTION, image.width, image.height)).tobytes()


def drawn(view: PublicView) -> bytes:
    return pixels(board_picture.draw(view, "en", names(view))).tobytes()


@pytest.fixture
def words(monkeypatch) -> list[str]:
    """Every text the replay's own drawings paste from now on (drawn afresh)."""
    pasted: list[str] = []
    paste = sprites.paste_text

    def recorded(image, xy, text, size, colour, align="l"):
        pasted.append(text)
        return paste(image, xy, text, size, colour, align)

    monkeypatch.setattr(sprites, "paste_text", recorded)
    replay_frames._caption.cache_clear()
    replay_frames._column.cache_clear()
    yield pasted
    replay_frames._caption.cache_clear()
    replay_frames._column.cache_clear()


def basic_hit() -> list[Move]:
    """Basic rules: Ann and Bob build a red and yellow rocket, Ann launches it: it hits and
    damages Apophis (deflection is skipped: no green); then Bob draws."""
    game = position(
        players=(ANN, BOB),
        hands=[["3H", "4H", "5H", "2C", "2H", "2D", "2S"], ["3S", "4S"]],
        dice=[6, 4],  # accuracy 6 + 3 = 9 hits; damage 4 + 3 = 7 damages
    )
    return played(
        game,
        lambda g: g.build(ANN, "red", "large"),
        lambda g: g.build(BOB, "yellow", "medium"),
        lambda g: g.launch(ANN, ["2C", "2H", "2D", "2S"]),
        lambda g: g.draw(BOB),
    )


# ------------------------------------------------------------------ a launch


def test_a_launch_shows_its_rocket_on_the_pad_then_each_check_with_its_die(words):
    moves = basic_hit()
    frames = pictures(moves)
    ms = replay_frames
    assert [hold for _, hold in frames] == [
        ms.DEAL_MS, ms.MOVE_MS, ms.MOVE_MS,  # the deal, two builds
        ms.LIFTOFF_MS, ms.CHECK_MS, ms.CHECK_MS, ms.LAST_CHECK_MS,  # the launch: 3 checks
        ms.LAUNCH_MS, ms.END_MS,  # the table it left, and Bob's draw, the last
    ]  # fmt: skip
    liftoff, fuel, hit, damage, after = (png for png, _ in frames[3:8])
    # The rocket before it leaves, its launch sequence complete.
    before = moves[2].view
    assert len(before.rocket) == 2 and len(before.sequence) == 0
    assert board_of(liftoff) == drawn(dataclasses.replace(before, sequence=tuple(Colour)))
    # Each check added in turn over the sequence and the depot; nothing else changes.
    caption = replay_frames.CAPTION
    left, top, right, bottom = replay_frames.COLUMN
    column = (left, caption + top, right, caption + bottom)
    boards = [pixels(png) for png in (liftoff, fuel, hit, damage)]
    outside = [image.copy() for image in boards]
    for image in outside:
        image.paste((0, 0, 0), column)
    assert all(image.tobytes() == outside[0].tobytes() for image in outside)
    assert len({image.crop(column).tobytes() for image in boards}) == 4
    # Then the table as the launch left it: Apophis damaged, the pad empty.
    assert board_of(after) == drawn(moves[3].view) and moves[3].view.damage == 1
    for said in ("Move 3 of 4: launch!", "LAUNCH", "fuelled", "fuel 2 of 2", "hit"):
        assert said in words
    assert "= 9, needs 7" in words and "damaged" in words and "= 7, needs 7" in words
    assert "The deal" in words and "Replay · 4 moves" in words  # over every other move
    assert "Move 1 of 4" not in words


def test_a_launch_is_told_in_the_replays_language(words):
    pictures(basic_hit(), "fr")
    for said in ("LANCEMENT", "plein fait", "touché", "endommagé", "= 9, il faut 7", "La donne"):
        assert said in words
    assert "Coup 3 sur 4\u202f: lancement\u202f!" in words


def test_no_fuel_an_explosion_and_a_reroll_have_their_verdicts(words):
    reds = ["3H", "4H", "5H", "6H", "7H", "8H"]  # Ann's two large red sections
    game = position(
        players=(ANN, BOB),
        rules="advanced",
        hands=[
            [*reds, "2C", "2H", "2D", "2S", "9C", "10C", "QC", "9H", "QD", "QS"],
            ["3C", "10H", "3D", "7S", "3S", "4S", "JH", "QH", "KH", "5S", "6S"],
        ],
        # Explodes (6 + 2); then flies (1 + 2), hits (6 + 3), no damage (1 + 3) and the
        # fail-safe's reroll damages (5 + 3).
        dice=[6, 1, 6, 1, 5],
    )
    moves = played(
        game,
        lambda g: g.build(ANN, "red", "large"),
        lambda g: g.launch(BOB, ["3C", "10H", "3D", "7S"]),  # 3 points, no fuel
        lambda g: g.build(ANN, "red", "large"),
        lambda g: g.build(BOB, "yellow", "medium"),
        lambda g: g.launch(ANN, ["2C", "2H", "2D", "2S"]),  # explodes
        lambda g: g.build(BOB, "red", "large"),
        lambda g: g.build(ANN, "green", "medium"),
        lambda g: g.build(BOB, "yellow", "medium"),
        lambda g: g.launch(ANN, ["QC", "9H", "QD", "QS"]),  # no damage: a reroll offered
        lambda g: g.reroll(ANN),
        lambda g: g.draw(BOB),
    )
    frames = pictures(moves)
    for said in ("no fuel", "fuel 0 of 1", "exploded", "= 8, explodes at 8", "lift-off"):
        assert said in words
    assert "no damage" in words and "damaged" in words
    assert "Move 10 of 11: a reroll" in words
    # The reroll's pictures show the rocket still on its pad, and only the check rolled again.
    reroll = [png for png, hold in frames if hold == replay_frames.LAST_CHECK_MS][-1]
    assert moves[9].view.rocket and board_of(reroll) != drawn(moves[9].view)
    assert replay_frames.checks(moves[10].events) == (
        ev.LaunchStep("damage", 5, (("die", 5), ("warheads", 3)), 8, 7, False, True),
    )


# ---------------------------------------------------------- left-out moves


def drawing_game(moves: int) -> list[Move]:
    """Ann and Bob draw, and discard down to the hand limit, `moves` - 1 times; the clock
    runs out with the last move."""

    def draw(game: Game) -> list[ev.Event]:
        player = game.active_player
        if game.phase is Phase.DISCARD:
            return game.discard(player, game.hands[game.players.index(player)][HAND_LIMIT:])
        return game.draw(player)

    game = Game.new([ANN, BOB], "basic", seed=4)
    return played(game, *[draw] * (moves - 1), lambda g: g.clock_expired())


def test_the_first_picture_after_a_gap_says_which_moves_it_left_out(words):
    moves = drawing_game(9)
    assert list(replay_frames.plan(9, 4)) == [(0, None), (1, None), (8, (2, 7)), (9, None)]
    frames = pictures(moves, shown=4)
    assert [hold for _, hold in frames] == [
        replay_frames.DEAL_MS,
        replay_frames.MOVE_MS,
        replay_frames.SKIP_MS,
        replay_frames.END_MS,
    ]
    assert "▶▶ Moves 2–7 not shown" in words and "6 moves" in words
    assert board_of(frames[2][0]) == drawn(moves[8].view)  # the table, under the note
    assert (
        pixels(frames[3][0]).tobytes()
        == pixels(board_picture.draw(moves[9].view, "en", NAMES)).tobytes()
    )  # the end: the ended board under its banner


def test_a_gap_right_before_the_end_is_said_before_the_ending_banner(words):
    moves = drawing_game(9)
    frames = pictures(moves, "fr", shown=2)
    assert [hold for _, hold in frames] == [
        replay_frames.DEAL_MS,
        replay_frames.SKIP_MS,
        replay_frames.END_MS,
    ]
    assert "▶▶ Coups 1 à 8 non montrés" in words and "8 coups" in words
    ended = moves[9].view
    in_play = board_picture.shown(ended, "fr", NAMES)._replace(outcome=None)
    assert board_of(frames[1][0]) == pixels(board_picture.drawn(in_play)).tobytes()


def test_every_picture_of_an_animation_is_the_same_size_for_its_gif():
    frames = pictures(drawing_game(5))
    sizes = {pixels(png).size for png, _ in frames}
    assert sizes == {(parts.WIDTH, parts.ENDING_HEIGHT + parts.HEIGHT)}
    gif = animation.animate(frames)
    with Image.open(io.BytesIO(gif)) as image:
        assert image.size == (parts.WIDTH, parts.ENDING_HEIGHT + parts.HEIGHT)
        assert image.n_frames == len(frames)


# ---------------------------------------------------------- words that fit


def _longest_checks() -> list[ev.LaunchStep]:
    """Every check passed and failed, with the biggest numbers it can have."""
    return [
        ev.LaunchStep("fuel", None, (("booster fuel", 6), ("rocket points", 24)), 6, 6, False, ok)
        for ok in (True, False)
    ] + [
        ev.LaunchStep(name, 6, (("die", 6),), total, 8, name == "launch", ok)
        for name, total in (("launch", 12), ("accuracy", 15), ("damage", 12), ("deflection", 12))
        for ok in (True, False)
    ]


@pytest.mark.parametrize("language", languages())
def test_every_check_s_words_fit_its_row_unshortened(language):
    large, small = sprites.font(parts.LARGE), sprites.font(parts.SMALL)
    for step in _longest_checks():
        verdict = replay_frames.verdict(step, language)
        assert large.getlength(verdict) <= replay_frames.VERDICT_WIDTH, verdict
        detail = replay_frames.detail(step, language)
        assert small.getlength(detail) <= replay_frames.DETAIL_WIDTH, detail
        assert sprites.fitted(verdict, parts.LARGE, 999) == verdict  # every glyph drawn
    heading = t(language, "picture.launch_checks")
    assert small.getlength(heading) <= replay_frames.DETAIL_WIDTH


@pytest.mark.parametrize("language", languages())
def test_every_caption_fits_its_panel(language):
    title = sprites.font(replay_frames.TITLE)
    left, _, right, _ = parts.ENDING_BOX
    room = right - left - 16
    for words in (
        t(language, "replay.frame.launch", step=1234, steps=1234),
        t(language, "replay.frame.reroll", step=1234, steps=1234),
        t(language, "replay.frame.skipped", first=1234, last=5678),
        t(language, "replay.frame.deal"),
        t(language, "replay.frame.game", moves=t(language, "replay.moves", count=12345)),
    ):
        assert title.getlength(words) <= room, words
        assert sprites.fitted(words, replay_frames.TITLE, 999) == words
