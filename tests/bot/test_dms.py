"""Hand DMs: one message per player and game, edited, and never given up for good."""

from __future__ import annotations

import time

import pytest

from bot.discord import dms, jobs
from bot.views import embeds, render
from tests.bot.helpers import Scene, text_of

pytestmark = pytest.mark.e2e

DM_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
#: A follow-up of an interaction: how a move pressed on the board shows its presser's panel.
FOLLOW_UP = "POST /webhooks/{webhook_id}/{webhook_token}"


async def play_a_few_turns(scene, table, turns: int, *, by_board: frozenset[str] = frozenset()):
    """Draws (and the discards they force) by whoever's turn it is: by slash command (each
    answered with the player's panel), or for the players `by_board`, with the board's Draw
    button (the board is updated, and the player's panel follows privately)."""
    names = {scene.id(n): n for n in scene.members}
    for _ in range(turns):
        player = names[table.game.active_player]
        if player in by_board:
            await scene.bot.outbox.drain()
            await scene.click(scene.board(), "draw", player)
        else:
            await scene.cmd("draw", player)
        if table.game.phase.value == "discard":
            seat = table.game.players.index(scene.id(player))
            await scene.cmd("discard", player, cards=" ".join(table.game.hands[seat][5:]))


def hand_of(table, scene, name: str) -> list[str]:
    return table.game.hands[table.game.players.index(scene.id(name))]


@pytest.mark.scene(names=("ann", "bob", "cid"))
async def test_each_player_has_one_dm_a_game_showing_the_hand_or_where_it_is(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob", "cid")
    scene.arrange(
        hands=[["2C"], ["3C"], ["4C"]], deck=[f"{r}{s}" for s in "HD" for r in "23456789"]
    )
    await bot.outbox.drain()
    start = len(fake_discord.requests_to(DM_EDIT))
    await play_a_few_turns(scene, table, 6, by_board=frozenset({"bob"}))
    await bot.outbox.drain()
    for name in ("ann", "bob", "cid"):
        dm = scene.dm(name)
        assert dm.history  # edited, not sent again
        assert f"/{table.messages.board_id})" in dm.content  # links to the board
    # Bob plays from the board, Ann and Cid from their panels: each sees their hand in
    # their panel (Bob's followed his click on the board), and their DMs say so, once.
    for name in ("ann", "bob", "cid"):
        assert scene.hand_seen(name, hand_of(table, scene, name)) == "panel"
    edits = fake_discord.requests_to(DM_EDIT)[start:]
    assert len(edits) == 3, [(r.path, r.status) for r in edits]  # one pointer each
    scene.assert_no_cards_in_public()


@pytest.mark.scene(names=("ann", "bob"))
async def test_the_dm_shows_the_hand_again_once_the_panel_cannot(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    scene.arrange(hands=[["2C"], ["3C"]], deck=[f"{r}H" for r in "23456789"])
    await play_a_few_turns(scene, table, 2)
    await bot.outbox.drain()
    assert scene.hand_seen("ann", hand_of(table, scene, "ann")) == "panel"
    # Ann's panel is gone (Discord answered that its token is dead), and Discord refuses
    # the panel her next draw from the board would show: the draw reaches her by DM.
    scene.close_panels(table)
    fake_discord.fail_next(FOLLOW_UP, status=500)
    await play_a_few_turns(scene, table, 1, by_board=frozenset({"ann"}))
    await bot.outbox.drain()
    assert scene.hand_seen("ann", hand_of(table, scene, "ann")) == "dm"
    assert "you drew" in scene.dm("ann").content


async def test_dms_come_back_after_an_outage_with_the_latest_hand(
    fake_discord, make_bot, monkeypatch
):
    monkeypatch.setattr(jobs, "RETRY_DELAYS", (0.05,) * 6)
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann",))
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann")
        scene.arrange(hands=[[]], deck=[f"{r}H" for r in "23456789"])
        await bot.outbox.drain()
        scene.close_panels(table)  # Ann plays from the board, where no panel can follow:
        fake_discord.fail_next(FOLLOW_UP, status=500, times=100)  # her hand is in her DM
        fake_discord.fail_next(DM_EDIT, status=503, times=4)  # the DM route is down a while
        await play_a_few_turns(scene, table, 2, by_board=frozenset({"ann"}))
        await bot.outbox.drain()
        await fake_discord.wait_for(  # retried until the route is back
            lambda: scene.hand_seen("ann", table.game.hands[0]) == "dm"
        )
        dm = scene.dm("ann")
        assert len(dm.content) <= render.CONTENT_LIMIT
        assert [r.status for r in fake_discord.requests_to(DM_EDIT)].count(503) == 4
        # Refused outright (Discord's "invalid form body") three times: that DM is given
        # up, but the next change is sent again.
        fake_discord.fail_next(DM_EDIT, status=400, code=50035, times=3)
        await play_a_few_turns(scene, table, 1, by_board=frozenset({"ann"}))
        await bot.outbox.drain()
        # Three tries, then that DM is given up (a later change, such as the discard this
        # draw may force, is a DM of its own and may land meanwhile).
        assert [r.status for r in fake_discord.requests_to(DM_EDIT)].count(400) == 3
        await play_a_few_turns(scene, table, 1, by_board=frozenset({"ann"}))
        await bot.outbox.drain()
        assert scene.hand_seen("ann", table.game.hands[0])  # (its discard opened a panel)
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
        assert scene.hand_seen("bob", hand_of(table, scene, "bob")) == "panel"


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
    assert board.embeds[0]["color"] == embeds.ENDED_COLOUR != embeds.LOSS_COLOUR
