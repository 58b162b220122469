"""A first game that can be won: a new server's lobby, or a new host's, offers the first
games' difficulty and says why in one line; a newcomer's panel suggests a first move, and
a newcomer is shown the picture of a rocket that can launch once, privately."""

from __future__ import annotations

import pytest

from bot.views.balance import FIRST_GAMES
from bot.views.hints import advice, first_move_line
from engine import Game
from tests.bot.helpers import Scene, text_of
from tests.bot.test_languages import french_scene
from tests.bot.test_lobby_settings import chosen, pick
from tests.store.test_records_store import Games

REASON_EN = "This server's first games: **Beginner**"
REASON_FR = "Premières parties sur ce serveur\u202f: **Débutant**"
HOST_EN = "No win for the host yet: **Beginner**"

pytestmark = [pytest.mark.e2e, pytest.mark.first_games]


async def won_here(scene: Scene, *names: str) -> None:
    """A game won on the scene's server by these people (they have won, and the server)."""
    await Games(scene.bot.store).win([scene.id(n) for n in names], guild=scene.guild.id)


async def finished_elsewhere(scene: Scene, name: str) -> None:
    """A game lost on another server by `name` (they have finished a game)."""
    await Games(scene.bot.store).lose([scene.id(name)], guild=scene.guild.id + 1)


def test_the_first_games_are_the_easiest_difficulty():
    assert FIRST_GAMES == "beginner"


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_new_servers_lobby_offers_beginner_and_says_why(scene):
    opened = await scene.cmd("apophis new", "ann")
    table = scene.live()
    assert (table.difficulty, table.length_seconds) == ("beginner", 900)
    assert chosen(opened.message, "difficulty") == ["beginner"]
    assert chosen(opened.message, "minutes") == ["15"]
    assert REASON_EN in text_of(opened.message)
    assert "wins about half" in text_of(opened.message)
    stored = await scene.bot.store.get_game(table.id)
    assert (stored.difficulty, stored.length_seconds) == ("beginner", 900)


async def test_a_new_french_servers_lobby_says_why_in_french(fake_discord, make_bot):
    bot = make_bot()
    scene = french_scene(fake_discord, bot, ("ann",))
    async with fake_discord.connected(bot):
        opened = await scene.cmd("apophis new", "ann")
        text = text_of(opened.message)
        assert REASON_FR in text and "une fois sur deux" in text
        assert "first" not in text.lower()


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_team_that_has_won_gets_the_usual_default_and_no_reason(scene):
    await won_here(scene, "ann")
    opened = await scene.cmd("apophis new", "ann")
    table = scene.live()
    assert (table.difficulty, table.length_seconds, table.offer) == ("medium", 600, None)
    assert chosen(opened.message, "difficulty") == ["medium"]
    text = text_of(opened.message)
    assert "Beginner" not in text and "half" not in text


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_host_who_never_won_is_offered_it_on_a_server_that_has_won(scene):
    await won_here(scene, "ann")
    opened = await scene.cmd("apophis new", "bob")
    assert scene.live().difficulty == "beginner"
    assert HOST_EN in text_of(opened.message)


@pytest.mark.scene(names=("ann", "bob"))
async def test_asked_for_a_difficulty_or_countdown_the_host_gets_it_and_no_reason(scene):
    opened = await scene.cmd("apophis new", "ann", difficulty="hard")
    assert scene.live().difficulty == "hard"
    assert "half" not in text_of(opened.message)


@pytest.mark.scene(names=("ann", "bob"))
async def test_the_hosts_change_sticks(scene):
    lobby = (await scene.cmd("apophis new", "ann")).message
    table = scene.live()
    # Rules chosen alone keep the difficulty offered (not advanced rules' medium).
    reply = await pick(scene, lobby, "rules", "advanced", "ann")
    assert (table.rules, table.difficulty) == ("advanced", "beginner")
    assert "half" in text_of(reply.message)
    reply = await pick(scene, lobby, "difficulty", "easy", "ann")
    assert (table.difficulty, table.length_seconds, table.offer) == ("easy", 720, None)
    assert "half" not in text_of(reply.message)
    joined = await scene.click(reply.message, "join", "bob")
    assert table.difficulty == "easy" and "half" not in text_of(joined.message)
    assert (await scene.bot.store.get_game(table.id)).difficulty == "easy"


@pytest.mark.scene(names=("ann", "bob", "cid"))
async def test_a_first_move_is_suggested_to_a_newcomer_only_and_is_legal(scene):
    await finished_elsewhere(scene, "bob")
    table = await scene.new_game("ann", "bob", "cid")  # ann plays first, then bob, cid
    ann, bob, cid = (scene.id(name) for name in ("ann", "bob", "cid"))
    assert table.newcomers == {ann, cid}

    def line(player: int, language: str = "en") -> str | None:
        return first_move_line(table, table.game.view_for(player), 0.0, language)

    assert line(ann).startswith("🌱 First move, if you like: ")
    assert line(ann, "fr").startswith("🌱 Premier coup")
    action = advice(table, table.game.view_for(ann), 0.0).action
    Game.restore(table.game.save()).apply(action)  # a legal move: applied without a refusal
    if action["type"] == "draw":  # the move in a few words, not the crew's whole plan
        assert "**Draw 2**" in line(ann) and "+" not in line(ann)
    panel = await scene.panel("ann")
    assert line(ann) in text_of(panel)
    assert line(bob) is None and line(cid) is None  # not their turn

    await scene.press(panel, "draw", "ann")  # her first move: bob's first turn
    assert table.game.active_player == bob
    assert line(bob) is None  # he has finished a game before
    assert "🌱" not in text_of(await scene.panel("bob"))
    await scene.cmd("draw", "bob")
    assert table.game.active_player == cid and line(cid).startswith("🌱 First move")
    await scene.cmd("draw", "cid")
    assert table.game.active_player == ann
    assert line(ann) is None  # a first move only
    assert "🌱" not in text_of(await scene.panel("ann"))


@pytest.mark.scene(names=("ann", "bob", "cid"))
async def test_the_rockets_picture_is_shown_once_to_each_newcomer_only(scene):
    await finished_elsewhere(scene, "bob")
    opened = await scene.fake.invoke("apophis new", user=scene["ann"].user, channel=scene.channel)
    (welcome,) = await opened.wait_followups()
    assert welcome.ephemeral and welcome.visible_to == scene.id("ann")
    assert "Your first game" in welcome.content
    (picture,) = welcome.attachments
    assert picture.filename == "first-rocket.png" and picture.content.startswith(b"\x89PNG")
    assert "(2 of the 2 needed for its 7)" in picture.description

    bob = await scene.fake.invoke("apophis join", user=scene["bob"].user, channel=scene.channel)
    await bob.wait_response()
    lobby = scene.board()
    cid = await scene.fake.click(lobby, f"apo:b:{scene.live().id}:0:join", user=scene["cid"].user)
    (shown,) = await cid.wait_followups()
    assert shown.visible_to == scene.id("cid") and shown.attachments
    assert bob.followups == []  # he has finished a game: nothing more than his answer

    await scene.click(scene.board(), "leave", "cid")
    again = await scene.fake.click(
        scene.board(), f"apo:b:{scene.live().id}:0:join", user=scene["cid"].user
    )
    await again.wait_response()
    await scene.bot.outbox.drain()
    assert again.followups == []  # once
    assert scene.live().newcomers == {scene.id("ann"), scene.id("cid")}


async def test_a_french_newcomer_reads_the_welcome_in_french(fake_discord, make_bot):
    bot = make_bot()
    scene = french_scene(fake_discord, bot, ("ann",))
    async with fake_discord.connected(bot):
        opened = await fake_discord.invoke(
            "apophis new", user=scene["ann"].user, channel=scene.channel
        )
        (welcome,) = await opened.wait_followups()
        assert "Votre première partie" in welcome.content
        assert "(2 sur les 2 requis pour ses 7)" in welcome.attachments[0].description
