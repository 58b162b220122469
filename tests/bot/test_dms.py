"""Hand DMs: one message per player and game, edited, and never given up for good."""

from __future__ import annotations

import time

import pytest

from bot.discord import dms, jobs
from bot.views import render
from engine import card_label
from tests.bot.helpers import Scene, text_of

pytestmark = pytest.mark.e2e

DM_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


async def play_a_few_turns(scene, table, turns: int) -> None:
    """Draws (and the discards they force) by whoever's turn it is, by slash command."""
    names = {scene.id(n): n for n in scene.members}
    for _ in range(turns):
        player = names[table.game.active_player]
        await scene.cmd("draw", player)
        if table.game.phase.value == "discard":
            seat = table.game.players.index(scene.id(player))
            await scene.cmd("discard", player, cards=" ".join(table.game.hands[seat][5:]))


@pytest.mark.scene(names=("ann", "bob", "cid"))
async def test_each_player_has_one_dm_a_game_edited_as_the_hand_changes(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob", "cid")
    await play_a_few_turns(scene, table, 6)
    await bot.outbox.drain()
    for seat, name in enumerate(("ann", "bob", "cid")):
        (dm,) = fake_discord.dms(scene[name])
        assert dm.history  # edited, not sent again
        assert all(card_label(c) in dm.content for c in table.game.hands[seat])
        assert f"/{table.messages.board_id})" in dm.content  # links to the board
    scene.assert_no_cards_in_public()


async def test_dms_come_back_after_an_outage_with_the_latest_hand(
    fake_discord, make_bot, monkeypatch
):
    monkeypatch.setattr(jobs, "RETRY_DELAYS", (0.05,) * 6)
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann",))
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann")
        await bot.outbox.drain()
        fake_discord.fail_next(DM_EDIT, status=503, times=4)  # the DM route is down a while
        await play_a_few_turns(scene, table, 5)
        await bot.outbox.drain()
        (dm,) = fake_discord.dms(scene["ann"])
        assert all(card_label(c) in dm.content for c in table.game.hands[0])
        assert len(dm.content) <= render.CONTENT_LIMIT
        assert [r.status for r in fake_discord.requests_to(DM_EDIT)].count(503) == 4
        # Refused outright (Discord's "invalid form body") three times: that DM is given
        # up, but the next change is sent again.
        fake_discord.fail_next(DM_EDIT, status=400, code=50035, times=3)
        await play_a_few_turns(scene, table, 1)
        await bot.outbox.drain()
        await play_a_few_turns(scene, table, 1)
        await bot.outbox.drain()
        (dm,) = fake_discord.dms(scene["ann"])
        assert all(card_label(c) in dm.content for c in table.game.hands[0])
        assert fake_discord.requests_to(DM_EDIT)[-1].status == 200


async def test_a_player_who_opens_their_dms_gets_them_again(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    fake_discord.set_dms_open(scene["bob"], False)
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        await play_a_few_turns(scene, table, 4)
        await bot.outbox.drain()
        notices = [m for m in scene.public() if "cannot send you direct messages" in m.content]
        assert len(notices) == 1 and fake_discord.dms(scene["bob"]) == []
        fake_discord.set_dms_open(scene["bob"], True)
        later = time.monotonic() + dms.CLOSED_RETRY[1] + 1
        bot.outbox.clock = lambda: later
        await play_a_few_turns(scene, table, 2)
        await bot.outbox.drain()
        (dm,) = fake_discord.dms(scene["bob"])
        assert all(card_label(c) in dm.content for c in table.game.hands[1])


@pytest.mark.scene(names=("ann", "bob"))
async def test_an_ended_game_is_told_by_dm_and_not_drawn_as_a_loss(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    await scene.cmd("apophis end", "ann")
    await bot.outbox.drain()
    for name in ("ann", "bob"):
        (dm,) = fake_discord.dms(scene[name])
        assert "The game is over: it was ended without a result." in dm.content
    board = scene.board(table)
    assert "This game was ended" in text_of(board)
    assert board.embeds[0]["color"] == render.ENDED_COLOUR != render.LOSS_COLOUR
