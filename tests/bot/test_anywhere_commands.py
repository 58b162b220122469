"""Played anywhere: the commands declare both installs and every place, the Activity's Entry
Point survives every command sync and launches the Activity, and what needs a server that
has the bot is refused in one line elsewhere, through the fake Discord."""

from __future__ import annotations

import discord
import pytest

from bot.discord.sync import COMMANDS_HASH_KEY, sync_commands
from bot.game.access import INTERACTIONS
from bot.i18n.catalogs import t
from devtools.fakediscord import InvalidInvocation
from devtools.livetable import free_port
from tests.bot.helpers import Scene, answer_text, bot_state, button_id, content

pytestmark = pytest.mark.e2e

COMMANDS = {"apophis", "draw", "build", "launch", "scrap", "discard", "hand", "hint", "board"}
CHAT_INPUT, ENTRY_POINT, LAUNCH_ACTIVITY = 1, 4, 12
PUT_COMMANDS = "PUT /applications/{application_id}/commands"


def activity(fake) -> dict[str, str]:
    """A bot whose live table opens as an Activity (APOPHIS_ACTIVITY=on)."""
    return {
        "APOPHIS_WEB_PORT": str(free_port()),
        "APOPHIS_CLIENT_ID": str(fake.world.application_id),
        "APOPHIS_ACTIVITY": "on",
    }


def entry_points(fake) -> list[dict]:
    return [c for c in fake.synced_commands() if c["type"] == ENTRY_POINT]


async def test_every_command_is_declared_for_both_installs_and_every_place(fake_discord, scene):
    synced = fake_discord.synced_commands()
    assert {c["name"] for c in synced} == COMMANDS
    for command in synced:
        assert command["type"] == CHAT_INPUT
        assert command["integration_types"] == [0, 1], command["name"]  # server, user
        assert command["contexts"] == [0, 1, 2], command["name"]  # server, bot's DM, group DMs
    assert not entry_points(fake_discord)  # Activities off: no Entry Point made


async def test_syncs_keep_the_entry_point_discord_made(fake_discord, make_bot):
    """Discord makes "Launch" when Activities are enabled and refuses a bulk overwrite
    without it: each sync (Activities off in the bot's settings, then on) carries it."""
    fake_discord.gateway.identify_interval = 0  # restarted at once: not about IDENTIFY pacing
    made = fake_discord.enable_activities()
    for settings in ({}, activity(fake_discord)):  # a change of setting: a second sync
        async with fake_discord.connected(make_bot(**settings)):
            pass
    puts = fake_discord.requests_to(PUT_COMMANDS)
    assert len(puts) == 2 and all(put.status == 200 for put in puts)  # none refused (50240)
    (kept,) = entry_points(fake_discord)
    for field in ("id", "name", "handler", "integration_types", "contexts"):
        assert kept[field] == made[field], field  # Discord's own, unchanged: handler 2
    assert {c["name"] for c in fake_discord.synced_commands() if c["type"] == CHAT_INPUT} == (
        COMMANDS
    )


async def test_the_bot_makes_its_entry_point_and_answers_it_by_launching_the_activity(
    fake_discord, make_bot, monkeypatch
):
    """No Entry Point yet: the bot's (handler 1, the bot answers) is made once, and used in
    a server or a group DM it launches the Activity in time, and keeps nothing of it (the
    live table asks Discord where each instance runs); the command tree leaves it alone
    rather than fail on its type."""
    fake_discord.gateway.identify_interval = 0
    bot = make_bot(**activity(fake_discord))
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    fake_discord.install_for_user(scene["ann"])
    group = fake_discord.add_group_dm(scene["ann"].user, scene["bob"].user)
    failures, calls = [], []
    tree_call = bot.tree._call

    async def recorded(interaction):
        try:
            await tree_call(interaction)
        except Exception as error:
            failures.append(error)
            raise
        finally:
            calls.append(interaction.id)

    monkeypatch.setattr(bot.tree, "_call", recorded)
    async with fake_discord.connected(bot):
        (entry,) = entry_points(fake_discord)
        assert entry["name"] == "launch" and entry["handler"] == 1
        assert entry["integration_types"] == [0, 1] and entry["contexts"] == [0, 1, 2]
        assert entry["description_localizations"]["fr"] == t("fr", "entry.description")
        for user, channel in ((scene["bob"], scene.channel), (scene["ann"], group)):
            launched = await fake_discord.invoke_entry_point(user=user, channel=channel)
            await launched.wait_response()
            assert launched.response_type == LAUNCH_ACTIVITY and launched.message is None
            assert launched.activity_instance_id  # within the fake's 3 s (else a violation)
        await bot_state(lambda: len(calls) == 2)
        assert not failures
        # Nothing is kept per channel launched in: the live table asks Discord.
        channels = {scene.channel.id, group.id}
        kept = [v for v in vars(bot).values() if isinstance(v, dict) and channels & v.keys()]
        assert not kept
    async with fake_discord.connected(make_bot(**activity(fake_discord))):
        assert [c["id"] for c in entry_points(fake_discord)] == [entry["id"]]  # not made twice


async def test_the_entry_point_keeps_its_translations_at_the_next_sync(fake_discord, make_bot):
    """The bot's Entry Point, made with its French description, still has it once the
    commands changed and were sent again: Discord gives translations only to who asks
    `with_localizations`, and the bot sends back what it read."""
    bot = make_bot(**activity(fake_discord))
    async with fake_discord.connected(bot):
        await bot.store.set_meta(COMMANDS_HASH_KEY, "the commands before an upgrade")
        await sync_commands(bot, bot.config, bot.store)
        assert len(fake_discord.requests_to(PUT_COMMANDS)) == 2  # made, then sent again
    (entry,) = entry_points(fake_discord)
    assert entry["description_localizations"]["fr"] == t("fr", "entry.description")


async def test_an_entry_point_discord_refuses_leaves_the_commands_synced(fake_discord, make_bot):
    """Activities not enabled in the portal: Discord refuses the bot's Entry Point, and
    the commands are sent again without it."""
    fake_discord.fail_next(PUT_COMMANDS, status=400, code=50035)
    async with fake_discord.connected(make_bot(**activity(fake_discord))):
        pass
    assert [put.status for put in fake_discord.requests_to(PUT_COMMANDS)] == [400, 200]
    assert {c["name"] for c in fake_discord.synced_commands()} == COMMANDS


async def test_what_needs_the_bot_is_refused_in_one_line_where_it_is_absent(fake_discord, make_bot):
    """A user-installed moderator in a server without the bot, and in a group DM: settings,
    reset, the server's statistics and leaderboard are refused in one line in their
    language (in the group DM, statistics and leaderboard say they are a server's), and
    nothing is attempted; the rules are read anywhere; whoever did not install the app gets
    none."""
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob", "cid"))
    elsewhere = fake_discord.add_guild("No bot here", bot_member=False)
    hall = fake_discord.add_text_channel(elsewhere, "hall")
    admins = fake_discord.add_role(
        elsewhere, "admins", permissions=discord.Permissions(manage_guild=True).value
    )
    ann = fake_discord.add_member(elsewhere, "ann", user_id=scene.id("ann"), roles=[admins])
    bob = scene["bob"].user
    bob.locale = "fr"
    for user in (ann, bob):
        fake_discord.install_for_user(user)
    group = fake_discord.add_group_dm(ann.user, bob, scene["cid"].user)
    async with fake_discord.connected(bot):
        asked = [
            ("apophis config", {"threads": True}),
            ("apophis config", {"pings": False}),
            ("apophis reset", {}),
            ("apophis stats", {}),
            ("apophis leaderboard", {}),
        ]
        for (command, options), channel in [(a, c) for a in asked for c in (hall, group)]:
            reply = await fake_discord.invoke(command, user=ann, channel=channel, **options)
            await reply.wait_response()
            records = channel is group and command in ("apophis stats", "apophis leaderboard")
            refusal = "error.server_records" if records else "error.needs_the_bot"
            assert reply.ephemeral and content(reply) == t("en", refusal), (command, channel)
        french = await fake_discord.invoke("apophis config", user=bob, channel=group)
        assert content(await french.wait_response()) == t("fr", "error.needs_the_bot")
        board = await fake_discord.invoke("apophis leaderboard", user=bob, channel=group)
        assert content(await board.wait_response()) == t("fr", "error.server_records")
        rules = await fake_discord.invoke("apophis rules", user=ann, channel=group)
        assert (await rules.wait_response()).message.embeds  # the rules, anywhere
        with pytest.raises(InvalidInvocation):  # cid never installed the app
            await fake_discord.invoke("apophis config", user=scene["cid"], channel=group)
        settings = await bot.service.audience.settings(elsewhere.id)
    assert settings.threads is False and settings.turn_pings is True  # nothing changed
    assert not fake_discord.requests_to("POST /channels/{channel_id}/messages")
    assert not bot.service.tables


async def test_in_a_group_dm_the_host_names_players_with_user_options(fake_discord, make_bot):
    """`/apophis start first:` and `/apophis kick player:` take a person, not a server's
    member: a group DM has none."""
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    ann, bob = scene["ann"].user, scene["bob"].user
    fake_discord.install_for_user(ann)
    group = fake_discord.add_group_dm(ann, bob)
    async with fake_discord.connected(bot):
        lobby = await (
            await fake_discord.invoke("apophis new", user=ann, channel=group)
        ).wait_response()
        await (
            await fake_discord.click(lobby.message, button_id(lobby.message, "join"), user=bob)
        ).wait_response()
        start = await fake_discord.invoke("apophis start", user=ann, channel=group, first=bob)
        assert "game has started" in answer_text(await start.wait_response())
        game = scene.live(group).game
        assert game.players[game.active] == bob.id
        kick = await fake_discord.invoke("apophis kick", user=ann, channel=group, player=bob)
        assert "removed" in content(await kick.wait_response())
        assert scene.live(group).game.players == [ann.id]


async def test_a_server_that_installed_the_commands_alone_is_a_server_without_the_bot(
    fake_discord, make_bot
):
    """A server that installed the app's commands without its bot user: its settings are
    refused in one line as where the bot is absent, and a game there reaches its players
    through interactions alone: no channel route tried, no hand sent by DM, nobody told
    that the bot cannot post there."""
    bot = make_bot()
    bare = fake_discord.add_guild("Commands only", bot_member=False)
    fake_discord.install_commands(bare)
    hall = fake_discord.add_text_channel(bare, "hall")
    admins = fake_discord.add_role(
        bare, "admins", permissions=discord.Permissions(manage_guild=True).value
    )
    ann = fake_discord.add_member(bare, "ann", roles=[admins]).user
    bob = fake_discord.add_member(bare, "bob").user
    async with fake_discord.connected(bot):
        config = await fake_discord.invoke("apophis config", user=ann, channel=hall, pings=False)
        assert content(await config.wait_response()) == t("en", "error.needs_the_bot")
        lobby = await (
            await fake_discord.invoke("apophis new", user=ann, channel=hall)
        ).wait_response()
        await (
            await fake_discord.click(lobby.message, button_id(lobby.message, "join"), user=bob)
        ).wait_response()
        start = await (
            await fake_discord.invoke("apophis start", user=ann, channel=hall)
        ).wait_response()
        assert answer_text(start).splitlines()[0] == t("en", "reply.started")
        table = bot.service.by_channel[hall.id]
        assert table.reach == INTERACTIONS
        await bot.outbox.drain()
        said = " ".join(m.content for m in fake_discord.messages(hall))
        settings = await bot.service.audience.settings(bare.id)
    assert settings.turn_pings is True  # nothing changed
    assert not [r for r in fake_discord.requests if f"/channels/{hall.id}" in r.path]
    assert not fake_discord.dms(ann) and not fake_discord.dms(bob)
    assert "cannot post" not in said


async def test_a_start_where_the_bot_is_absent_opens_no_thread(fake_discord, make_bot):
    """A server that turned threads on while it had the bot: a game started there through
    a user install plays where it was opened, with nothing attempted and no word of it."""
    bot = make_bot()
    elsewhere = fake_discord.add_guild("Bot gone", bot_member=False)
    hall = fake_discord.add_text_channel(elsewhere, "hall")
    ann, bob = (fake_discord.add_member(elsewhere, name).user for name in ("ann", "bob"))
    fake_discord.install_for_user(ann)
    async with fake_discord.connected(bot):
        await bot.service.audience.update(elsewhere.id, threads=True)
        lobby = await (
            await fake_discord.invoke("apophis new", user=ann, channel=hall)
        ).wait_response()
        await (
            await fake_discord.click(lobby.message, button_id(lobby.message, "join"), user=bob)
        ).wait_response()
        start = await (
            await fake_discord.invoke("apophis start", user=ann, channel=hall)
        ).wait_response()
        assert answer_text(start).splitlines()[0] == t("en", "reply.started")
        assert "thread" not in answer_text(start)
        assert bot.service.by_channel[hall.id].parent_id is None
    assert not fake_discord.requests_to("POST /channels/{channel_id}/messages/{message_id}/threads")
