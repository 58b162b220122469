"""Who may do what in a channel, on Discord: the game layer's one answer (bot.game.access),
from the permissions each interaction carries."""

from __future__ import annotations

import pytest

from tests.bot.helpers import Scene, bot_state, text_of

pytestmark = pytest.mark.e2e

SEND_MESSAGES, MANAGE_GUILD = 1 << 11, 1 << 5


async def test_a_member_who_cannot_post_here_watches_but_cannot_take_a_seat(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob", "mute"))
    await fake_discord.set_permissions(scene.channel, scene["mute"], deny=SEND_MESSAGES)
    async with fake_discord.connected(bot):
        await scene.cmd("apophis new", "ann")
        table = scene.live()
        await bot_state(lambda: table.messages.board_id is not None)  # the lobby posted
        lobby = scene.board(table)
        pressed = await scene.click(lobby, "join", "mute")
        assert pressed.ephemeral and "cannot send messages in this channel" in text_of(
            pressed.message
        )
        assert table.seats == [scene.id("ann")]
        joined = await scene.click(scene.board(table), "join", "bob")  # beside them, a member
        assert not joined.ephemeral or "cannot" not in text_of(joined.message)
        assert table.seats == [scene.id("ann"), scene.id("bob")]


async def test_a_moderator_by_role_runs_a_game_the_host_does_not_need_to(fake_discord, make_bot):
    """The moderator role set with /apophis config counts as Manage Messages does."""
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    role = fake_discord.add_role(scene.guild, "game mods")
    admins = fake_discord.add_role(scene.guild, "admins", permissions=MANAGE_GUILD)
    scene.members["mod"] = fake_discord.add_member(scene.guild, "mod", roles=[role])
    scene.members["boss"] = fake_discord.add_member(scene.guild, "boss", roles=[admins])
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        refused = await scene.cmd("apophis skip", "mod")
        assert "Only the game's host or a moderator" in text_of(refused.message)
        configured = await scene.cmd("apophis config", "boss", moderator_role=role)
        assert configured.ephemeral
        version = table.version
        skipped = await scene.cmd("apophis skip", "mod")
        assert not skipped.ephemeral and table.version > version
