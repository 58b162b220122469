"""/apophis replay through the fake Discord: an animation of public views only, stepped with
◀ ▶ by editing the message, after a restart and on both databases; bad numbers refused."""

from __future__ import annotations

import asyncio
import io
import json

import pytest
from PIL import Image, ImageSequence

from bot.app import build as build_bot
from bot.discord.client import ApophisBot
from bot.pictures import board_picture, replay_frames
from bot.store.store import Store
from bot.table import Table
from devtools.fakediscord import InvalidInvocation
from engine import HAND_LIMIT, Game, Phase, PublicView
from engine import events as ev
from tests.bot.conftest import make_config
from tests.bot.helpers import CARD, Scene, bot_state, button_id, content, enabled, text_of

pytestmark = pytest.mark.e2e


# ------------------------------------------------------------------- helpers


async def play(scene: Scene, table: Table, moves: int) -> None:
    """The active players draw, and discard down to the hand limit, until the game's log
    holds `moves` actions."""
    names = {scene.id(name): name for name in scene.members}
    while table.version < moves:
        game = table.game
        player = game.active_player
        if game.phase is Phase.DISCARD:
            hand = game.hands[game.players.index(player)]
            await scene.cmd("discard", names[player], cards=" ".join(hand[HAND_LIMIT:]))
        else:
            await scene.cmd("draw", names[player])


async def lose(scene: Scene, table: Table) -> None:
    """The clock runs out as the active player plays on: the game is lost."""
    names = {scene.id(name): name for name in scene.members}
    table.deadline = scene.bot.service.now() - 1
    await scene.cmd("draw", names[table.game.active_player])
    await bot_state(lambda: not table.open)


async def played_and_lost(scene: Scene, moves: int = 8) -> Table:
    """ann and bob play `moves` moves, then run out of time."""
    table = await scene.new_game("ann", "bob")
    await play(scene, table, moves)
    await lose(scene, table)
    return table


async def replayed(scene: Scene, game: int, user: str = "ann"):
    """/apophis replay game:<game>: the message it posts, once filled."""
    interaction = await scene.fake.invoke(
        "apophis replay", user=scene[user], channel=scene.channel, game=game
    )
    await interaction.wait_response()
    return interaction, await interaction.wait_reply()


def texts(message) -> str:
    """Everything written on a message, in every version: content, embeds, buttons, alt texts."""
    found = []
    for version in [*message.history, message]:
        found.append(version.content)
        found.append(json.dumps(version.embeds, ensure_ascii=False))
        found.append(json.dumps(version.components, ensure_ascii=False))
        found += [attachment.description or "" for attachment in version.attachments]
    return "\n".join(found)


async def public_views(store: Store, game_id: int) -> tuple[list[PublicView], tuple]:
    """The game's public view after each logged action (the deal first), replayed here
    straight from the store, and its seats' names as the board picture writes them."""
    record, log = await store.get_game(game_id), await store.game_log(game_id)
    game = Game.new(
        list(record.starting_players),
        record.rules,
        seed=record.seed,
        start_player=record.start_player,
    )
    views = [game.public_view()]
    for entry in log:
        game.apply(entry.action)
        views.append(game.public_view())
    return views, tuple(record.names[player] for player in record.starting_players)


def gif_frames(data: bytes) -> list[Image.Image]:
    """Every frame of a GIF as it shows, in RGB."""
    with Image.open(io.BytesIO(data)) as gif:
        assert gif.format == "GIF" and gif.info["loop"] == 0
        return [frame.convert("RGB") for frame in ImageSequence.Iterator(gif)]


def rgb(png: bytes) -> bytes:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB").tobytes()


# --------------------------------------------------------------------- tests


async def test_a_replay_animates_the_games_public_views_and_no_hand(
    fake_discord, make_bot, monkeypatch
):
    bot = make_bot()
    scene = Scene(fake_discord, bot)
    async with fake_discord.connected(bot):
        table = await played_and_lost(scene)
        drawn: list[object] = []
        shown = board_picture.shown

        def spied(view, language, names):
            drawn.append(view)
            return shown(view, language, names)

        def no_hand(self, player):
            raise AssertionError("a replay read a player's view")

        monkeypatch.setattr(board_picture, "shown", spied)
        monkeypatch.setattr(Game, "view_for", no_hand)
        interaction, message = await replayed(scene, table.id)
        monkeypatch.undo()
        views, names = await public_views(bot.store, table.id)
    assert interaction.response_type == 5 and not interaction.ephemeral  # public, deferred
    assert not message.notified  # nobody pinged
    (attachment,) = message.attachments
    assert attachment.filename == f"apophis-replay-{table.id}.gif"
    assert message.embeds[0]["image"]["url"] == f"attachment://{attachment.filename}"
    # Every frame is drawn from a public view, one a move: that view's board picture under
    # its caption (the move), the last the ended board under its banner.
    assert drawn and all(type(view) is PublicView for view in drawn)
    assert len(drawn) == len(views) == table.version + 1
    frames = gif_frames(attachment.content)
    assert len(frames) == len(views)
    for frame, view in zip(frames[:-1], views, strict=False):
        board = frame.crop((0, replay_frames.CAPTION, frame.width, frame.height))
        assert board.tobytes() == rgb(board_picture.draw(view, "en", names))
    assert frames[-1].tobytes() == rgb(board_picture.draw(views[-1], "en", names))
    assert frames[-1].size == frames[0].size
    deal, moved, *others, end = (
        frame.crop((0, 0, frame.width, replay_frames.CAPTION)).tobytes() for frame in frames
    )
    assert len({deal, moved, end}) == 3  # "The deal", "Replay · 9 moves", the ending's banner
    assert all(caption == moved for caption in others)
    text = text_of(message)
    assert f"Game #{table.id}, move by move" in text and f"{table.version} moves" in text
    assert "Lost: damage 0/3, deflection 0/5" in text
    assert f"Game #{table.id} replayed, {table.version} moves" in attachment.description
    assert not CARD.findall(texts(message))
    assert not enabled(message, "prev") and enabled(message, "next")


async def test_stepping_through_a_replay_edits_the_message_one_move_at_a_time(
    fake_discord, make_bot
):
    bot = make_bot()
    scene = Scene(fake_discord, bot)
    async with fake_discord.connected(bot):
        table = await played_and_lost(scene, moves=4)
        steps = table.version
        _, message = await replayed(scene, table.id)
        views, names = await public_views(bot.store, table.id)
        seen = []
        step = await scene.click(message, "next", "bob")  # anyone may step
        for number in range(steps + 1):
            assert step.response_type == 7 and step.message.id == message.id  # edited
            (picture,) = message.attachments
            assert picture.filename.endswith(".png")
            assert rgb(picture.content) == rgb(board_picture.draw(views[number], "en", names))
            seen.append(text_of(message))
            assert enabled(message, "prev") == (number > 0)
            assert enabled(message, "next") == (number < steps)
            if number < steps:
                step = await scene.click(message, "next", "bob")
        with pytest.raises(InvalidInvocation):  # disabled at the end, as at the deal
            await fake_discord.click(message, button_id(message, "next"), user=scene["ann"])
        back = await scene.click(message, "prev", "ann")
        assert back.response_type == 7 and f"move {steps - 1} of {steps}" in text_of(message)
    assert f"Game #{table.id} · the deal" in seen[0] and "plays first" in seen[0]
    assert f"move 1 of {steps}" in seen[1] and "drew 2 cards" in seen[1]
    assert f"move {steps} of {steps}" in seen[-1] and "Time is up. Apophis hits Earth." in seen[-1]
    assert not CARD.findall(texts(message))


async def test_forged_replay_clicks_and_bad_steps_change_nothing(fake_discord, scene):
    first = await played_and_lost(scene, moves=2)
    second = await played_and_lost(scene, moves=2)
    _, message = await replayed(scene, first.id)
    board = scene.board(second)

    async def forged(target, custom_id):
        clicked = await fake_discord.click(target, custom_id, user=scene["bob"], forged=True)
        return (await clicked.wait_response()).response_data["content"]

    before = len(message.history)
    beyond = f"apo:r:{first.id}:{first.version + 1}:next"
    assert "not part of this replay" in await forged(message, beyond)
    wrong = "does not belong to this message"
    assert wrong in await forged(message, f"apo:r:{second.id}:0:next")  # another game's
    assert wrong in await forged(message, "apo:r:999999:0:next")  # no such game
    assert wrong in await forged(board, f"apo:r:{second.id}:0:next")  # not a replay
    assert "no longer work" in await forged(message, f"apo:b:{first.id}:0:draw")  # a board's
    assert len(message.history) == before  # never edited


async def test_bad_game_numbers_are_refused_privately_in_the_readers_language(
    fake_discord, make_bot
):
    bot = make_bot()
    scene = Scene(fake_discord, bot)
    elsewhere = Scene(fake_discord, bot, names=("eve",))
    scene["bob"].user.locale = "fr"
    async with fake_discord.connected(bot):
        await elsewhere.cmd("apophis new", "eve")
        await elsewhere.cmd("apophis start", "eve")
        other_server = elsewhere.live().id
        await scene.cmd("apophis new", "ann")
        await scene.cmd("apophis end", "ann")  # a lobby closed before it started
        closed = (await bot.store.get_game(other_server + 1)).id
        await scene.cmd("apophis new", "ann")
        lobby = scene.live().id
        unseen = ("is not one you can see here", "n’est pas de celles que vous pouvez voir")
        cases = {  # no such game, and another server's, refused alike
            999999: unseen,
            other_server: unseen,
            closed: ("never started", "n’a jamais commencé"),
            lobby: ("never started", "n’a jamais commencé"),
        }
        await scene.cmd("apophis start", "ann")
        cases[lobby] = ("still being played", "encore en cours")
        for number, (english, french) in cases.items():
            for user, words in (("ann", english), ("bob", french)):
                reply = await scene.cmd("apophis replay", user, game=number)
                assert reply.ephemeral and words in reply.response_data["content"], number
    assert [
        m for m in scene.public() if m.attachments and m.attachments[0].filename.endswith(".gif")
    ] == []


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_a_finished_game_is_replayed_after_a_restart(
    fake_discord, request, tmp_path, backend
):
    database = (
        str(tmp_path / "apophis.sqlite3")
        if backend == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    fake_discord.gateway.identify_interval = 0  # restarted at once

    def make() -> ApophisBot:
        return build_bot(make_config(fake_discord, database), guild_ready_timeout=0.05).discord

    first = make()
    scene = Scene(fake_discord, first)
    async with fake_discord.connected(first):
        table = await played_and_lost(scene, moves=6)
    scene.bot = second = make()
    scene["ann"].user.locale = "fr"
    async with fake_discord.connected(second):
        _, message = await replayed(scene, table.id)
        views, names = await public_views(second.store, table.id)
        step = await scene.click(message, "next", "ann")
        step = await scene.click(message, "next", "ann")
    assert step.response_type == 7
    (picture,) = message.attachments
    assert rgb(picture.content) == rgb(board_picture.draw(views[1], "fr", names))
    french = text_of(message)
    assert f"Partie n° {table.id} · coup 1 sur {table.version}" in french
    assert "Suivant" in json.dumps(message.components, ensure_ascii=False)
    posted, deal = [version for version in message.history if version.attachments]
    (animated,) = posted.attachments
    assert animated.filename.endswith(".gif") and len(gif_frames(animated.content)) > 1
    assert posted.embeds[0]["title"] == f"🎞️ Partie n° {table.id}, coup par coup"
    assert f"{table.version} coups" in posted.embeds[0]["description"]
    assert f"La partie n° {table.id} rejouée" in animated.description
    assert deal.embeds[0]["title"] == f"🎞️ Partie n° {table.id} · la donne"
    assert "joue en premier" in deal.embeds[0]["description"]


def test_launch_checks_the_deal_and_the_end_are_held_longer():
    step = ev.LaunchStep("fuel", None, (), 3, 2, False, True)
    frames = replay_frames
    assert frames.hold([], first=False, last=False) == frames.MOVE_MS
    assert frames.hold([step], first=False, last=False) == frames.LAUNCH_MS
    assert frames.hold([], first=True, last=False) == frames.DEAL_MS
    assert frames.hold([step], first=False, last=True) == frames.END_MS
    assert frames.MOVE_MS < frames.DEAL_MS < frames.LAUNCH_MS < frames.END_MS


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_server_draws_one_replay_at_a_time_and_sends_a_kept_one_at_once(
    fake_discord, scene, monkeypatch
):
    bot = scene.bot
    table = await played_and_lost(scene, moves=4)
    cog = bot.get_cog("Apophis")
    drawn, gate = [], asyncio.Event()
    draw = cog.draw

    async def slow_draw(played):  # held until the second asker has been answered
        drawn.append(played.record.id)
        await gate.wait()
        return await draw(played)

    monkeypatch.setattr(cog, "draw", slow_draw)
    first = await fake_discord.invoke(
        "apophis replay", user=scene["ann"], channel=scene.channel, game=table.id
    )
    await first.wait_response()
    await bot_state(lambda: drawn == [table.id])
    busy = await scene.cmd("apophis replay", "bob", game=table.id)
    assert busy.ephemeral and "being drawn" in content(busy)
    gate.set()
    gif = (await first.wait_reply()).attachments[0].content
    # Asked again, the replay is the one kept: sent at once, not drawn again.
    _, again = await replayed(scene, table.id, "bob")
    assert again.attachments[0].content == gif and drawn == [table.id]
