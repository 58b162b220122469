"""/apophis table and the Table button, through the fake Discord, as each bot is set up:
an Activity (LAUNCH_ACTIVITY), a browser link, or no live table at all."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

from devtools.livetable import free_port
from tests.bot.helpers import Scene, bot_state, button_id, content

pytestmark = pytest.mark.e2e

PUBLIC_URL = "https://apophis.example.com"
LAUNCH_ACTIVITY, LINK = 12, 5


def activity(fake) -> dict[str, str]:
    """A bot whose application has Activities enabled."""
    return {
        "APOPHIS_WEB_PORT": str(free_port()),
        "APOPHIS_CLIENT_ID": str(fake.world.application_id),
        "APOPHIS_ACTIVITY": "on",
    }


def web_only() -> dict[str, str]:
    """A bot that serves the live table to browsers only."""
    return {"APOPHIS_WEB_PORT": str(free_port()), "APOPHIS_PUBLIC_URL": PUBLIC_URL + "/"}


def table_scene(fake, bot) -> Scene:
    """Ann and Bob, and Boss, who may manage the server."""
    scene = Scene(fake, bot, names=("ann", "bob"))
    admins = fake.add_role(
        scene.guild, "admins", permissions=discord.Permissions(manage_guild=True).value
    )
    scene.members["boss"] = fake.add_member(scene.guild, "boss", roles=[admins])
    return scene


def has_table_button(message) -> bool:
    return any(c.get("custom_id", "").endswith(":table") for c in message.iter_components())


def link_of(reply) -> dict:
    """The one link button of a private answer."""
    assert reply.ephemeral and reply.message.ephemeral, reply.response_data
    (link,) = [c for c in reply.message.iter_components() if c.get("style") == LINK]
    return link


def assert_fits_discord(message) -> None:
    """At most 5 rows of at most 5 buttons."""
    assert len(message.components) <= 5
    assert all(len(row["components"]) <= 5 for row in message.components)


async def test_with_activities_the_command_and_both_buttons_launch_the_activity(
    fake_discord, make_bot
):
    bot = make_bot(**activity(fake_discord))
    scene = table_scene(fake_discord, bot)
    async with fake_discord.connected(bot):
        before = len(fake_discord.messages(scene.channel))
        launched = await scene.cmd("apophis table", "ann")  # no game in the channel: fine
        assert launched.response_type == LAUNCH_ACTIVITY and launched.activity_instance_id
        assert launched.message is None and len(fake_discord.messages(scene.channel)) == before
        lobby = (await scene.cmd("apophis new", "ann")).message
        assert has_table_button(lobby)
        assert_fits_discord(lobby)
        from_lobby = await scene.click(lobby, "table", "bob")  # not seated: anyone may watch
        assert from_lobby.response_type == LAUNCH_ACTIVITY
        await scene.click(lobby, "join", "bob")
        await scene.click(lobby, "start", "ann")
        await scene.bot.outbox.drain()
        board = scene.board()
        assert has_table_button(board)
        assert_fits_discord(board)
        from_board = await scene.click(board, "table", "ann")
        assert from_board.response_type == LAUNCH_ACTIVITY
        assert from_board.message is None and from_board.followups == []


async def test_activities_refused_by_discord_fall_back_to_the_link(
    fake_discord, make_bot, monkeypatch
):
    async def refused(response):
        raise discord.HTTPException(
            SimpleNamespace(status=400, reason="Bad Request"),
            {"code": 50035, "message": "Invalid Form Body"},
        )

    monkeypatch.setattr(discord.InteractionResponse, "launch_activity", refused)
    bot = make_bot(**activity(fake_discord))
    scene = table_scene(fake_discord, bot)
    async with fake_discord.connected(bot):
        reply = await scene.cmd("apophis table", "ann")
    port = bot.config.web_port
    assert link_of(reply)["url"] == f"http://localhost:{port}/?channel={scene.channel.id}"


async def test_without_activities_the_table_is_a_private_link_to_this_channel(
    fake_discord, make_bot
):
    bot = make_bot(**web_only())
    scene = table_scene(fake_discord, bot)
    other = fake_discord.add_text_channel(scene.guild, "other")
    scene["bob"].user.locale = "fr"
    here = f"{PUBLIC_URL}/?channel={scene.channel.id}"
    async with fake_discord.connected(bot):
        reply = await scene.cmd("apophis table", "ann")  # no game yet: the link all the same
        link = link_of(reply)
        assert (link["url"], link["label"]) == (here, "Open the live table")
        assert "This channel's table, live in your browser" in content(reply)
        assert reply.message.visible_to == scene.id("ann")
        elsewhere = await scene.cmd("apophis table", "ann", channel=other)
        assert link_of(elsewhere)["url"] == f"{PUBLIC_URL}/?channel={other.id}"
        french = await scene.cmd("apophis table", "bob")
        assert link_of(french)["label"] == "Ouvrir la table en direct"
        assert "La table de ce salon, en direct" in content(french)
        lobby = (await scene.cmd("apophis new", "ann")).message
        assert "Table" in [c.get("label") for c in lobby.iter_components()]
        assert_fits_discord(lobby)
        from_lobby = await scene.click(lobby, "table", "bob")
        assert link_of(from_lobby)["url"] == here
        assert link_of(from_lobby)["label"] == "Ouvrir la table en direct"  # Bob's language
        await scene.click(lobby, "join", "bob")
        await scene.click(lobby, "start", "ann")
        await scene.bot.outbox.drain()
        board = scene.board()
        assert_fits_discord(board)
        assert link_of(await scene.click(board, "table", "ann"))["url"] == here
    assert not [m for m in scene.public() if "?channel=" in str(m.components)]


async def test_a_final_board_keeps_its_table_button_once_the_game_is_over(fake_discord, make_bot):
    bot = make_bot(**web_only())
    scene = table_scene(fake_discord, bot)
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        await scene.cmd("apophis end", "ann")
        await scene.bot.outbox.drain()
        await bot_state(lambda: table.id not in bot.service.tables)
        final = scene.board(table)
        assert has_table_button(final) and "again" in str(final.components)
        reply = await scene.click(final, "table", "bob")
        assert link_of(reply)["url"] == f"{PUBLIC_URL}/?channel={scene.channel.id}"


async def test_a_table_click_from_another_games_message_is_refused(fake_discord, make_bot):
    bot = make_bot(**web_only())
    scene = table_scene(fake_discord, bot)
    async with fake_discord.connected(bot):
        lobby = (await scene.cmd("apophis new", "ann")).message
        forged = button_id(lobby, "table").replace(f":{scene.live().id}:", ":999999:")
        interaction = await fake_discord.click(lobby, forged, user=scene["bob"], forged=True)
        reply = await interaction.wait_response()
        assert reply.ephemeral and reply.message.components == []
        assert content(reply) == "That button does not belong to this message, so nothing was done."


async def test_without_a_live_table_there_is_no_button_and_the_command_says_why(
    fake_discord, make_bot
):
    bot = make_bot()
    scene = table_scene(fake_discord, bot)
    scene["bob"].user.locale = "fr"
    async with fake_discord.connected(bot):
        player = await scene.cmd("apophis table", "ann")
        assert player.ephemeral and player.message.components == []
        assert content(player) == (
            "The live table is not set up on this bot: play here with the board's buttons "
            "and the slash commands, as usual."
        )
        boss = await scene.cmd("apophis table", "boss")  # may ask whoever runs the bot
        assert content(boss).startswith(content(player))
        assert "*docs/live-table.md* in the bot's repository" in content(boss)
        french = await scene.cmd("apophis table", "bob")
        assert "La table en direct n’est pas configurée" in content(french)
        assert "README" not in content(french)
        lobby = (await scene.cmd("apophis new", "ann")).message
        assert not has_table_button(lobby)
        await scene.click(lobby, "join", "bob")
        await scene.click(lobby, "start", "ann")
        await scene.bot.outbox.drain()
        assert not has_table_button(scene.board())


async def test_the_activitys_launch_command_survives_the_command_sync(fake_discord, make_bot):
    """Discord makes a Launch command (an entry point) when Activities are enabled, and
    refuses a bulk overwrite that drops it: the bot syncs its commands beside it."""
    entry = {
        "id": str(fake_discord.world.snowflake()),
        "application_id": str(fake_discord.world.application_id),
        "version": str(fake_discord.world.snowflake()),
        "type": 4,
        "name": "launch",
        "description": "",
        "handler": 2,
    }
    fake_discord.world.global_commands = [entry]
    bot = make_bot(**activity(fake_discord))
    Scene(fake_discord, bot, names=("ann",))
    async with fake_discord.connected(bot):
        names = {c["name"]: c for c in fake_discord.world.global_commands}
        assert names["launch"]["id"] == entry["id"] and names["launch"]["type"] == 4
        assert {"apophis", "draw", "build"} <= set(names)


async def test_without_activities_no_link_where_a_browser_could_only_be_refused(
    fake_discord, make_bot
):
    """A group DM, the bot's DM, a server without the bot: a browser cannot be shown who
    is there, so the command says so in one line, with no link, and the lobby and the
    board carry no Table button (a forged click gets no link either)."""
    bot = make_bot(**web_only())
    scene = Scene(fake_discord, bot, names=("ann", "bob"), group_dm=True)
    scene["bob"].user.locale = "fr"
    fake_discord.install_for_user(scene["bob"].user)
    bare = fake_discord.add_guild(bot_member=False)
    hall = fake_discord.add_text_channel(bare, "hall")
    fake_discord.add_member(bare, "ann", user_id=scene.id("ann"))
    dm = fake_discord.world.dm_channel(scene["ann"].user)
    words = (
        "The live table opens in a browser only for the channels of a server the bot is in: "
        "play this game in Discord, with its buttons and slash commands."
    )
    async with fake_discord.connected(bot):
        for where in (scene.channel, dm, hall):
            reply = await scene.cmd("apophis table", "ann", channel=where)
            assert reply.ephemeral and reply.message.components == [], where
            assert content(reply) == words
        french = await scene.cmd("apophis table", "bob")
        assert content(french).startswith("La table en direct ne s’ouvre dans un navigateur")
        lobby = (await scene.cmd("apophis new", "ann")).message
        assert not has_table_button(lobby)
        forged = button_id(lobby, "join").replace(":join", ":table")
        interaction = await fake_discord.click(lobby, forged, user=scene["bob"].user, forged=True)
        clicked = await interaction.wait_response()
        await scene.click(lobby, "join", "bob")
        await scene.click(lobby, "start", "ann")
        await scene.bot.outbox.drain()
        assert not has_table_button(scene.board())
    assert "?channel=" not in str([r.response_data for r in (reply, french, clicked)])


async def test_with_activities_a_group_dms_lobby_offers_the_table(fake_discord, make_bot):
    """An Activity opens anywhere: there the Table button stays, and launches it."""
    bot = make_bot(**activity(fake_discord))
    scene = Scene(fake_discord, bot, names=("ann", "bob"), group_dm=True)
    async with fake_discord.connected(bot):
        lobby = (await scene.cmd("apophis new", "ann")).message
        assert has_table_button(lobby)
        launched = await scene.click(lobby, "table", "bob")
        assert launched.response_type == LAUNCH_ACTIVITY
