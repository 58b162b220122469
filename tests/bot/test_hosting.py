"""Hosting: when the host leaves, the next person seated hosts, never a crewmate; with only
crewmates left, nobody does (and the game ends)."""

from __future__ import annotations

import discord
import pytest

from bot.game.crewmates import PAUSE
from tests.bot.helpers import (
    Scene,
    content,
    text_of,
)
from tests.bot.test_crewmates import open_lobby_with_crewmates

pytestmark = pytest.mark.e2e


@pytest.mark.scene(names=("ann", "bob"))
async def test_hosting_passes_to_the_next_person_never_to_a_crewmate(scene):
    bot = scene.bot
    lobby = await open_lobby_with_crewmates(scene, 1, difficulty="beginner")
    await scene.click(lobby, "join", "bob")
    table = scene.live()
    assert table.seats == [scene.id("ann"), -1, scene.id("bob")]
    await scene.cmd("apophis start", "ann", first=scene["ann"])
    left = await scene.leave_game("ann")
    assert "Robot 1 is the host" not in text_of(left.message)
    assert f"<@{scene.id('bob')}> is the host now" in text_of(left.message)
    assert table.host_id == scene.id("bob")
    assert (await bot.store.get_game(table.id)).host_id == scene.id("bob")
    assert not (await scene.cmd("apophis skip", "bob")).ephemeral


@pytest.mark.scene(names=("ann",), timer=True)
async def test_with_only_crewmates_left_nobody_is_made_host(scene, timer):
    bot = scene.bot
    await open_lobby_with_crewmates(scene, 1, difficulty="beginner")
    await scene.cmd("apophis start", "ann", first=scene["ann"])
    table = scene.live()
    left = await scene.leave_game("ann")
    assert "is the host now" not in text_of(left.message)
    await timer.advance(PAUSE[1])
    assert table.status == "abandoned"
    assert not [line for line in table.recent if "is the host now" in line]
    assert table.host_id == scene.id("ann")  # no crewmate was made host
    assert (await bot.store.get_game(table.id)).host_id == scene.id("ann")


async def test_host_powers_pass_to_the_next_seated_player(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob", "cid"))
    mods = fake_discord.add_role(
        scene.guild, "mods", permissions=discord.Permissions(manage_messages=True).value
    )
    scene.members["mod"] = fake_discord.add_member(scene.guild, "mod", roles=[mods])
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob", "cid")
        left = await scene.leave_game("ann")  # the host leaves the game in play
        assert f"<@{scene.id('bob')}> is the host now" in content(left)
        for command in ("apophis skip", "apophis end"):
            refused = await scene.cmd(command, "ann")
            assert refused.ephemeral and "host or a moderator" in content(refused)
        kicked = await scene.cmd("apophis kick", "mod", player=scene["bob"])  # kicked, too
        assert f"<@{scene.id('cid')}> is the host now" in content(kicked)
        refused = await scene.cmd("apophis kick", "bob", player=scene["cid"])
        assert refused.ephemeral and "host or a moderator" in content(refused)
        assert (await bot.store.get_game(table.id)).host_id == scene.id("cid")
        await bot.outbox.drain()
        details = text_of((await scene.click(scene.board(), "details", "cid")).message)
        assert " · host" in details.split(f"<@{scene.id('cid')}> — ")[1]  # in the board's Details
        assert not (await scene.cmd("apophis skip", "cid")).ephemeral
