"""/apophis replay under load (#34, 13 and 14): requests at the same moment draw one GIF for
the server; a burst of ◀ ▶ on a long replay is answered without playing the game again for
each click, nor on the event loop; a long game's GIF stays under its weight, saying on its
pictures which moves it skipped."""

from __future__ import annotations

import asyncio
import io
import itertools
import threading

import pytest
from PIL import Image, ImageSequence

from bot.discord.cogs import replays
from bot.pictures import board_picture, replay_frames
from bot.pictures import replay as animation
from bot.store.store import Store
from bot.views import history
from devtools.sample_replay import stored_game
from engine import Game
from tests.bot.helpers import Scene, bot_state, button_id, content, text_of
from tests.bot.test_replay import public_views

pytestmark = pytest.mark.e2e

NAMES = ("Ann", "Bo", "Cy", "Dee")


# ------------------------------------------------------------------- helpers


async def long_game(store: Store, guild_id: int, moves: int, seed: int = 2) -> int:
    """A game of server `guild_id`, stored as the bot stores one: its players act at random
    (seed 2 neither wins nor loses before its 1,098th move) until its clock runs out at its
    `moves`-th action. Its number."""
    game_id = await stored_game(
        store, seed, moves, guild_id=guild_id, channel_id=10_000 + seed, policy="random"
    )
    assert len(await store.game_log(game_id)) == moves
    return game_id


def gif_frames(data: bytes) -> list[bytes]:
    """Every frame of a GIF as it shows, in RGB."""
    with Image.open(io.BytesIO(data)) as gif:
        return [frame.convert("RGB").tobytes() for frame in ImageSequence.Iterator(gif)]


def rgb(png: bytes) -> bytes:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB").tobytes()


def distinct(frames: list[bytes]) -> list[bytes]:
    """The frames as a GIF shows them: one the same as the one before only lengthens it."""
    return [frame for i, frame in enumerate(frames) if i == 0 or frame != frames[i - 1]]


def replay_of(scene: Scene, user: str, game: int):
    """/apophis replay game:<game> asked by `user` (not waited for)."""
    return scene.fake.invoke("apophis replay", user=scene[user], channel=scene.channel, game=game)


def held_draws(cog, monkeypatch) -> tuple[list[int], asyncio.Event]:
    """The cog's GIFs drawn only once the returned event is set; the games drawn, listed
    as each drawing begins."""
    drawn, gate = [], asyncio.Event()
    draw = cog.draw

    async def held(played):
        drawn.append(played.record.id)
        await gate.wait()
        return await draw(played)

    monkeypatch.setattr(cog, "draw", held)
    return drawn, gate


# ------------------------------------------------------- one replay a server


async def test_replays_asked_at_the_same_moment_are_drawn_once_for_the_server(
    fake_discord, make_bot, monkeypatch
):
    people = ("ann", "bob", "cid", "dee", "eve", "fay")
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=people)
    async with fake_discord.connected(bot):
        game = await long_game(bot.store, scene.guild.id, 6)
        drawn, gate = held_draws(bot.get_cog("Apophis"), monkeypatch)
        # The game is read once all six requests have reached the bot (each reading it,
        # or answered): none has deferred yet.
        reading, read = [], asyncio.Event()
        ledger = bot.service.ledger
        read_game = ledger.game

        async def held_read(number):
            reading.append(number)
            await read.wait()
            return await read_game(number)

        monkeypatch.setattr(ledger, "game", held_read)
        # Six people ask at the same moment, the drawing held until all have an answer.
        asked = await asyncio.gather(*(replay_of(scene, name, game) for name in people))
        await bot_state(lambda: len(reading) + sum(i.responded for i in asked) == len(people))
        read.set()
        await asyncio.gather(*(interaction.wait_response() for interaction in asked))
        gate.set()
        drawer = [i for i in asked if i.response_type == 5]  # deferred: drawing
        told = [i for i in asked if i.response_type == 4]
        assert len(drawer) == 1 and not drawer[0].ephemeral
        (gif,) = (await drawer[0].wait_reply()).attachments
        assert gif.filename == f"apophis-replay-{game}.gif"
    assert drawn == [game]  # drawn once, whoever asked
    assert len(told) == 5 and all(i.ephemeral for i in told)
    assert all("A replay is being drawn here" in content(i) for i in told)


async def test_a_kept_replay_is_sent_while_another_is_drawn_and_a_new_one_waits(
    fake_discord, make_bot, monkeypatch
):
    bot = make_bot()
    scene = Scene(fake_discord, bot)
    async with fake_discord.connected(bot):
        first = await long_game(bot.store, scene.guild.id, 4, seed=2)
        second = await long_game(bot.store, scene.guild.id, 4, seed=5)
        third = await long_game(bot.store, scene.guild.id, 4, seed=8)
        kept = await replay_of(scene, "ann", first)
        gif = (await kept.wait_reply()).attachments[0].content
        drawn, gate = held_draws(bot.get_cog("Apophis"), monkeypatch)
        drawing = await replay_of(scene, "ann", second)
        await drawing.wait_response()
        # While the second is drawn: the first, kept, is sent at once; a third must wait.
        again = await replay_of(scene, "bob", first)
        assert (await again.wait_reply()).attachments[0].content == gif
        busy = await (await replay_of(scene, "cid", third)).wait_response()
        assert busy.ephemeral and "being drawn" in content(busy)
        gate.set()
        assert (await drawing.wait_reply()).attachments[0].filename.endswith(f"-{second}.gif")
    assert drawn == [second]


# ----------------------------------------------------------- a burst of ◀ ▶


async def test_a_burst_of_clicks_after_a_restart_plays_a_long_game_again_once_off_the_loop(
    fake_discord, make_bot, monkeypatch
):
    fake_discord.gateway.identify_interval = 0  # restarted at once
    bot = make_bot()
    scene = Scene(fake_discord, bot)
    async with fake_discord.connected(bot):
        game = await long_game(bot.store, scene.guild.id, 1001)
        cog = bot.get_cog("Apophis")

        async def one_picture(played):  # the animation is not what this test is about
            return animation.animate(itertools.islice(history.frames(played), 1))

        monkeypatch.setattr(cog, "draw", one_picture)
        message = await (await replay_of(scene, "ann", game)).wait_reply()
    scene.bot = bot = make_bot()  # nothing of the game kept in the new process
    applied: list[int] = []
    apply = Game.apply

    def counted(self, action):
        applied.append(threading.get_ident())
        return apply(self, action)

    monkeypatch.setattr(Game, "apply", counted)
    async with fake_discord.connected(bot):
        next_id = button_id(message, "next")
        clicks = await asyncio.gather(
            *(fake_discord.click(message, next_id, user=scene["bob"]) for _ in range(48))
        )
        await asyncio.gather(*(click.wait_response() for click in clicks))
        assert all(click.response_type == 7 for click in clicks)  # every one answered
        assert f"Game #{game} · the deal" in text_of(message)
    # The game was played again once for the 48 clicks, in a thread, not in the loop.
    assert len(applied) == 1001
    assert threading.main_thread().ident not in applied


# ------------------------------------------------------- a long game's GIF


async def test_a_long_games_gif_keeps_under_its_weight_saying_what_it_skipped(
    fake_discord, make_bot, monkeypatch
):
    limit = 200_000  # the 300 moves' every picture weighs about 1 MB
    monkeypatch.setattr(animation, "GIF_LIMIT", limit, raising=False)
    tries: list[tuple[int, list[tuple[bytes, int]]]] = []  # each try: its moves, its pictures
    frames = replay_frames.frames

    def recorded(moves, language, names, shown):
        pictures: list[tuple[bytes, int]] = []
        tries.append((shown, pictures))
        for picture in frames(moves, language, names, shown):
            pictures.append(picture)
            yield picture

    monkeypatch.setattr(replay_frames, "frames", recorded)
    bot = make_bot()
    scene = Scene(fake_discord, bot)
    async with fake_discord.connected(bot):
        game = await long_game(bot.store, scene.guild.id, 300)
        message = await (await replay_of(scene, "ann", game)).wait_reply()
        views, names = await public_views(bot.store, game)
    (attachment,) = message.attachments
    assert len(attachment.content) <= limit
    # Drawn again with fewer moves until light enough: the GIF shows the last try's pictures.
    (first_try, _), *_, (shown, pictures) = tries
    assert len(tries) > 1 and shown < first_try
    assert gif_frames(attachment.content) == distinct([rgb(png) for png, _ in pictures])
    # The first moves, then the caption saying which were left out over the first after
    # them, then the last moves to the end.
    (resume, (first, through)), *_ = (
        (step, gap) for step, gap in replay_frames.plan(300, shown) if gap is not None
    )
    assert 0 < first <= through < resume == through + 1 < 300
    note = replay_frames._skipped(first, through, "en")
    assert note == (f"▶▶ Moves {first}–{through} not shown", f"{through - first + 1} moves")
    s = board_picture.shown(views[resume], "en", names)
    noted = replay_frames.framed(s, note)
    assert [hold for png, hold in pictures if png == noted] == [replay_frames.SKIP_MS]


def test_an_animation_shows_its_first_moves_and_its_last_within_its_pictures():
    plan = replay_frames.plan
    assert list(plan(4, 10)) == [(step, None) for step in range(5)]
    assert list(plan(9, 4)) == [(0, None), (1, None), (8, (2, 7)), (9, None)]
    assert list(plan(9, 1)) == [(0, None), (9, (1, 8))]  # the deal and the end
    # Too heavy: fewer pictures in proportion, to two at least; light enough, done.
    limit = animation.GIF_LIMIT
    assert animation.fewer(1000, 1200, limit) is None
    assert animation.fewer(1000, 1200, 2 * limit) == 450
    assert animation.fewer(1000, 3, 100 * limit) == 2
    assert animation.fewer(1000, 2, 100 * limit) is None


async def test_the_longest_games_gif_shows_at_most_its_pictures_under_8_mb(tmp_path):
    store = await Store.open(tmp_path / "long.sqlite3")
    try:
        game = await long_game(store, 1, 1700, seed=9)  # seed 9 plays 1,774 moves
        record, log = await store.get_game(game), await store.game_log(game)
    finally:
        await store.close()
    played = history.replay(record, log, "en")
    steps = list(replay_frames.plan(played.steps, animation.FRAMES))
    assert len(steps) == animation.FRAMES == 1200 and steps[600][1] == (600, played.steps - 600)
    frames = list(history.frames(played, animation.FRAMES))  # and each launch's pictures
    assert len(frames) > 1200
    held = [hold for _, hold in frames]
    assert held.count(replay_frames.SKIP_MS) == 1  # the first after the gap, held longer
    assert animation.GIF_LIMIT == 8_000_000
    assert len(await replays.Replays().draw(played)) <= animation.GIF_LIMIT  # as posted


async def test_games_played_again_are_kept_within_their_moves_the_latest_used_first():
    desk, loop = replays._Desk(), asyncio.get_running_loop()

    def played(number: int, moves: int) -> None:
        done = desk.playing[number] = loop.create_future()
        done.set_result(replays._Played(record=None, moves=(None,) * moves))
        desk.keep_played(number, done)

    for number in (1, 2, 3):
        played(number, 4000)
    assert list(desk.played) == [2, 3] and desk.played_moves == 8000  # 10,000 at most
    played(4, 20_000)  # a game longer than them all is kept alone
    assert list(desk.played) == [4] and desk.played_moves == 20_000 and not desk.playing
