"""What was found when the bot was tried as a new user would (issue 12, point 5)."""

from __future__ import annotations

import pytest

from bot.discord import jobs
from engine import RESHUFFLE_SECONDS
from tests.bot.helpers import Scene, answer_text, enabled, text_of

pytestmark = pytest.mark.e2e


@pytest.mark.scene(names=("ann", "bob"))
async def test_during_a_launch_sequence_build_is_disabled_and_the_real_reason_given(scene):
    bot = scene.bot
    await scene.new_game("ann", "bob")
    scene.arrange(hands=[["2C"], ["5D", "6D"]], rocket=[("red", 3)], sequence=["9S"])
    await scene.cmd("draw", "ann")
    await bot.outbox.drain()
    board = scene.board()
    assert not enabled(board, "build") and enabled(board, "launch")
    assert "add ♣ ♥ ♦ to the launch sequence (or draw, or scrap)" in text_of(board)
    panel = await scene.panel("bob")
    assert "Nothing to build: a launch sequence is under way" in text_of(panel)
    assert not [c for c in panel.iter_components() if ":build:" in c.get("custom_id", "")]
    typed = await scene.cmd("build", "bob", colour="blue", size="small")
    assert "A launch sequence has started" in answer_text(typed)


@pytest.mark.scene(names=("ann", "bob"))
async def test_launch_needs_a_rocket_and_is_disabled_without_one(scene):
    bot = scene.bot
    await scene.new_game("ann", "bob")
    await bot.outbox.drain()
    board = scene.board()
    assert not enabled(board, "launch") and not enabled(board, "scrap")
    assert "draw or build" in text_of(board)
    panel = await scene.panel("ann")
    assert not enabled(panel, "launch") and not enabled(panel, "scrap")


async def test_the_board_shows_the_new_deck_as_soon_as_it_is_dealt(
    fake_discord, make_bot, monkeypatch, timer
):
    # Jobs that wait for an interaction's answer wait this long; a reshuffle has no
    # interaction, so its board must not wait at all (it showed "Shuffling…" 0.5 s late).
    monkeypatch.setattr(jobs, "HOLD_SECONDS", 60.0)
    bot = make_bot(timer=timer)
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        scene.arrange(hands=[["2C"], ["3C"]], deck=["4C"])
        await scene.cmd("draw", "ann")
        await timer.advance(RESHUFFLE_SECONDS)
        await fake_discord.wait_for(lambda: "new deck is ready" in text_of(scene.board(table)))
        assert "Shuffling" not in text_of(scene.board(table))


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_refused_panel_move_leaves_no_picker_behind(scene):
    table = await scene.new_game("ann", "bob")
    scene.arrange(hands=[["2C", "3C"], ["5D"]], rocket=[("red", 1)])
    panel = await scene.panel("ann")
    before = len(scene.private_to("ann"))
    table.game.hands[0].remove("2C")  # the hand changed since the panel was drawn
    refused = await scene.press(panel, "launch", "ann")
    assert refused.response_type == 7 and "⚠️" in answer_text(refused)
    assert len(scene.private_to("ann")) == before and table.version == 0
