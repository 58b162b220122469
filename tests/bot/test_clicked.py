"""Clicks read lightly (bot.discord.clicked): the clicked message's id, flags, who it
answered and custom ids read from Discord's payload, anything else from discord.py's whole
Message; commands still parsed by discord.py."""

from __future__ import annotations

import discord
import pytest

from bot.discord.clicked import ClickedMessage

pytestmark = pytest.mark.e2e


def heard(bot) -> list[discord.Interaction]:
    """The interactions the bot's listeners will be given, as they come."""
    seen: list[discord.Interaction] = []

    async def listener(interaction: discord.Interaction) -> None:
        seen.append(interaction)

    bot.add_listener(listener, "on_interaction")
    return seen


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_panel_click_reads_its_message_for_what_the_bot_asks(scene):
    await scene.new_game("ann", "bob")
    panel = await scene.panel("ann")
    ids = [c["custom_id"] for c in panel.iter_components() if c.get("custom_id")]
    seen = heard(scene.bot)
    await scene.press(panel, "draw", "ann")
    click = seen[-1]
    message = click.message
    assert isinstance(message, ClickedMessage)
    assert message.id == panel.id and message.flags.ephemeral
    assert message.interaction_metadata.user.id == scene.id("ann")  # she opened it
    assert ids and message.custom_ids == ids  # every one, however deep in the layout
    assert any(i.endswith(":draw") for i in message.custom_ids)
    # Anything else is read of discord.py's whole message, built when asked.
    assert message.author.id == scene.bot.user.id
    assert isinstance(message.created_at.year, int)


@pytest.mark.scene(names=("ann",))
async def test_a_board_click_and_a_command_are_read_as_before(scene):
    seen = heard(scene.bot)
    await scene.cmd("apophis new", "ann")
    command = seen[-1]
    assert type(command) is discord.Interaction and command.message is None
    board = await scene.shown()
    await scene.click(board, "rules", "ann")
    message = seen[-1].message
    assert isinstance(message, ClickedMessage)
    assert message.id == board.id and not message.flags.ephemeral
    assert message.interaction_metadata.user.id == scene.id("ann")  # her /apophis new posted it
    assert any(i.endswith(":rules") for i in message.custom_ids)
