"""Play again: a finished game's final board opens a lobby like it, everyone who played it
invited back to their seat, through the fake Discord."""

from __future__ import annotations

import discord
import pytest

from bot.game.access import CHANNEL, INTERACTIONS
from bot.table import Table
from tests.bot.helpers import (
    Scene,
    bot_state,
    button_id,
    content,
    enabled,
    errors,
    text_of,
)
from tests.bot.test_threads import finished_in_thread, scene_with_admin

pytestmark = pytest.mark.e2e


async def finished(scene: Scene, *players: str, crewmates: int = 0, **options) -> Table:
    """A game of `players` (the first hosts, then its crewmates, then the others), lost
    when its clock ran out; the table, as it ended."""
    lobby = (await scene.cmd("apophis new", players[0], **options)).message
    for _ in range(crewmates):
        await scene.click(lobby, "crewadd", players[0])
    for name in players[1:]:
        await scene.click(lobby, "join", name)
    await scene.cmd("apophis start", players[0], first=scene[players[0]])
    table = scene.live()
    table.deadline = scene.bot.service.now() - 1  # the clock runs out...
    await scene.cmd("draw", players[0])  # ...as the host plays on: too late
    await scene.bot.outbox.drain()
    assert table.status == "finished" and table.game.outcome.value == "lost"
    return table


async def test_play_again_invites_everyone_back_to_their_seats(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob", "cid"))
    ann, bob, cid = (scene.id(name) for name in ("ann", "bob", "cid"))
    async with fake_discord.connected(bot):
        old = await finished(scene, "ann", "bob", crewmates=1, difficulty="hard", rules="advanced")
        assert old.game.players == [ann, -1, bob]
        final = scene.board(old)
        assert enabled(final, "again") and "Play again" in str(final.components)
        again = await scene.click(final, "again", "bob")
        assert not again.ephemeral  # the new lobby, for the whole channel
        lobby, table = again.message, scene.live()
        assert table.id != old.id
        await bot_state(lambda: table.messages.board_id == lobby.id)  # the lobby's board
        assert (table.rules, table.difficulty, table.length_seconds) == ("advanced", "hard", 480)
        # Bob, who pressed it, hosts from his seat; the crewmate keeps its own; Ann is invited.
        assert (table.host_id, table.seats, table.invited) == (bob, [-1, bob], [ann])
        assert f"Invited back: <@{ann}>: press **Join** to take your seat again." in text_of(lobby)
        # Cid, not invited, sits after every seat; Ann joins in one click, in hers.
        for name in ("cid", "ann"):
            joined = await scene.click(lobby, "join", name)
            assert joined.response_type == 7  # the lobby redrawn
        assert table.seats == [ann, -1, bob, cid]
        assert "Invited back" not in text_of(lobby)  # everyone invited is seated
        await scene.click(lobby, "start", "bob")  # the host starts, as usual
        assert table.status == "active" and table.game.players == [ann, -1, bob, cid]
        assert text_of(final) == text_of(scene.board(old))  # the old final board stays


@pytest.mark.scene(names=("ann", "bob", "eve"))
async def test_a_stale_play_again_says_why_and_does_nothing(scene):
    bot = scene.bot
    old = await finished(scene, "ann", "bob")
    final = scene.board(old)
    refused = await scene.click(final, "again", "eve")  # she did not play it
    assert refused.ephemeral and "Only those who played this game" in content(refused)
    assert scene.channel.id not in bot.service.by_channel
    await scene.click(final, "again", "ann")
    lobby = scene.live()
    busy = await scene.click(final, "again", "bob")  # a lobby is open: nothing more
    assert busy.ephemeral and f"already has a lobby (game #{lobby.id})" in content(busy)
    assert scene.live() is lobby and lobby.seats == [scene.id("ann")]
    await scene.cmd("apophis end", "ann")  # the channel is free, but its latest game...
    stale = await scene.click(final, "again", "bob")  # ...is the closed lobby
    assert stale.ephemeral and "not the channel's latest game" in content(stale)
    assert scene.channel.id not in bot.service.by_channel


async def test_invitations_survive_a_restart(fake_discord, make_bot):
    fake_discord.gateway.identify_interval = 0  # restarted at once
    first = make_bot()
    scene = Scene(fake_discord, first, names=("ann", "bob"))
    ann, bob = scene.id("ann"), scene.id("bob")
    async with fake_discord.connected(first):
        old = await finished(scene, "ann", "bob")
        lobby = (await scene.click(scene.board(old), "again", "bob")).message
    second = make_bot()
    scene.bot = second
    async with fake_discord.connected(second):
        table = scene.live()
        assert (table.host_id, table.seats, table.invited) == (bob, [bob], [ann])
        await scene.click(lobby, "join", "ann")
        assert table.seats == [ann, bob]  # her seat, kept through the restart


async def test_play_again_after_the_bot_joined_the_server_opens_a_lobby_as_new_would(
    fake_discord, make_bot
):
    """A game played through a user install in a server without the bot; the server then
    adds the bot: Play again on the final board opens a lobby the bot reaches through the
    channel (pings, hands by DM), as `/apophis new` there would, not through replies alone."""
    fake_discord.gateway.identify_interval = 0  # restarted at once
    bare = fake_discord.add_guild("The bot comes later", bot_member=False)
    hall = fake_discord.add_text_channel(bare, "hall")
    ann, bob = (fake_discord.add_member(bare, name).user for name in ("ann", "bob"))
    fake_discord.install_for_user(ann)
    first = make_bot()
    async with fake_discord.connected(first):
        await (await fake_discord.invoke("apophis new", user=ann, channel=hall)).wait_response()
        await bot_state(lambda: hall.id in first.service.by_channel)
        old = first.service.by_channel[hall.id]
        await bot_state(lambda: old.messages.board_id is not None)
        lobby = fake_discord.world.messages[old.messages.board_id]
        await (await fake_discord.click(lobby, button_id(lobby, "join"), user=bob)).wait_response()
        await (
            await fake_discord.invoke("apophis start", user=ann, channel=hall, first=ann)
        ).wait_response()
        assert old.reach == INTERACTIONS
        old.deadline = first.service.now() - 1  # the clock runs out as ann plays on
        await (await fake_discord.invoke("draw", user=ann, channel=hall)).wait_response()
        await first.outbox.drain()
        assert old.status == "finished"
        final = fake_discord.world.messages[old.messages.board_id]
    fake_discord.add_member(bare, "bot", user_id=fake_discord.world.bot.id)  # the bot joins
    second = make_bot()
    async with fake_discord.connected(second):
        again = await fake_discord.click(final, button_id(final, "again"), user=bob)
        assert not (await again.wait_response()).ephemeral  # the new lobby, for everyone
        table = second.service.by_channel[hall.id]
        assert table.id != old.id and table.reach == CHANNEL


async def test_play_again_into_a_channel_that_refuses_the_bot_opens_nothing_and_says_why(
    fake_discord, make_bot, caplog
):
    bot = make_bot()
    scene = scene_with_admin(fake_discord, bot)
    parent = scene.channel
    send = discord.Permissions(send_messages=True).value
    async with fake_discord.connected(bot):
        await scene.cmd("apophis config", "boss", threads=True)
        table = await finished_in_thread(scene)
        final = scene.board(table)
        # The bot may post in the thread (Send Messages in Threads) but not in its channel.
        await fake_discord.set_permissions(parent, fake_discord.world.bot, deny=send)
        await bot_state(lambda: bot.outbox.access.lacking_in(scene.guild.id, parent.id))
        refused = await scene.click(final, "again", "bob")
        assert refused.ephemeral and content(refused) == (
            f"🔁 The new lobby would open in <#{parent.id}>, but I am missing **Send "
            "Messages** and **Embed Links** there, so none was opened. Once a moderator grants "
            "me these "
            "permissions in that channel, press **Play again** again."
        )
        assert not refused.followups  # no "something went wrong" after it
        assert parent.id not in bot.service.by_channel
        assert await bot.store.active_game_in_channel(parent.id) is None
        # Nothing was saved: once the bot may post there, Play again works.
        await fake_discord.set_permissions(parent, fake_discord.world.bot)
        await bot_state(lambda: not bot.outbox.access.lacking_in(scene.guild.id, parent.id))
        again = await scene.click(final, "again", "bob")
        new = bot.service.by_channel[parent.id]
        (lobby,) = [m for m in scene.public(parent) if "Invited back" in text_of(m)]
        assert new.messages.board_id == lobby.id  # posted before bob is told where it is
        assert again.ephemeral and content(again) == (
            f"🔁 The new lobby is in <#{parent.id}>: join it there."
        )
        joined = await scene.click(lobby, "join", "ann")
        assert joined.response_type == 7 and new.seats == [scene.id("ann"), scene.id("bob")]
    assert not errors(caplog)
