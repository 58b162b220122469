"""Discord's global budget: boards, posts and pings ride on interaction tokens.

The interaction that last drew the board (a click on it, or the command that posted
it) may edit it for 15 minutes, and any recent interaction may post follow-ups,
outside the global limit of 50 requests a second. Only hand DMs, and edits or posts
with no usable token, spend it.
"""

from __future__ import annotations

import asyncio
import copy
import time

import pytest

from bot.discord.outbox import LANES
from bot.discord.tokens import TOKEN_USE_SECONDS
from bot.views.narration import BEGAN
from tests.bot.helpers import Scene, bot_state, button_id

pytestmark = pytest.mark.e2e

CHANNEL_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
CHANNEL_POST = "POST /channels/{channel_id}/messages"
TOKEN_EDIT = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"
FOLLOW_UP = "POST /webhooks/{webhook_id}/{webhook_token}"


def requests_since(fake, start: int) -> list[str]:
    return [r.route for r in fake.requests[start:] if 200 <= r.status < 300]


@pytest.mark.scene(names=("ann", "bob"))
async def test_panel_clicks_spend_no_global_request_but_a_dm_saying_where_the_hand_is(
    fake_discord, scene
):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    scene.arrange(hands=[["2C", "3C", "4H"], ["5D", "6S"]], deck=["7C", "8C", "9C"])
    await bot.outbox.drain()
    refused = await scene.click(scene.board(), "draw", "bob")  # not his turn
    assert refused.ephemeral  # ...and his click does not become the board's owner
    panel = await scene.panel("ann")
    start = len(fake_discord.requests)
    version = table.version
    built = await scene.press(panel, "build:green.1", "ann")
    assert built.response_type == 7  # the panel itself shows what happened
    await bot.outbox.drain()
    assert table.version == version + 1
    assert button_versions(scene.board()) == {table.version}
    sent = requests_since(fake_discord, start)
    assert TOKEN_EDIT in sent  # the board, through the token of the command that posted it
    # The one global request is Ann's hand DM, edited in place once to say that her hand
    # (she paid a card) is in her panel; her next moves from the panel spend none.
    global_requests = [r for r in fake_discord.requests[start:] if r.counts_global]
    assert [r.route for r in global_requests] == [CHANNEL_EDIT]
    assert len(fake_discord.dms(scene["ann"])) == 1 and "in your panel" in scene.dm("ann").content
    bobs = await scene.panel("bob")
    await scene.press(bobs, "draw", "bob")
    await bot.outbox.drain()
    start = len(fake_discord.requests)
    drew = await scene.press(built.message, "draw", "ann")
    assert drew.response_type == 7
    await bot.outbox.drain()
    assert not [r for r in fake_discord.requests[start:] if r.counts_global]
    fake_discord.assert_no_violations()


def button_versions(message) -> set[int]:
    return {
        int(c["custom_id"].split(":")[3])
        for c in message.iter_components()
        if c.get("custom_id", "").startswith("apo:b:")
    }


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_board_whose_token_is_old_is_posted_again_below(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    scene.arrange(hands=[["2C", "3C", "4H"], ["5D", "6S"]], deck=["7C", "8C", "9C"])
    await bot.outbox.drain()
    old_board = scene.board()
    owner = old_board.interaction_id
    # The board's owner (the /apophis new that posted it) is now too old to use.
    bot.outbox.clock = lambda: time.monotonic() + TOKEN_USE_SECONDS + 1
    panel = await scene.panel("ann")
    start = len(fake_discord.requests)
    await scene.press(panel, "build:green.1", "ann")
    await bot.outbox.drain()
    old_token = fake_discord.world.interactions[owner].token
    assert not [r for r in fake_discord.requests[start:] if old_token in r.path]
    new_board = scene.board()
    assert new_board.id != old_board.id and button_versions(new_board) == {table.version}
    assert FOLLOW_UP in requests_since(fake_discord, start)  # posted through a fresh token
    assert "moved down" in old_board.content and not old_board.components
    live = [m for m in scene.public() if m.components]
    assert live == [new_board]  # one live board
    fake_discord.assert_no_violations()


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_late_answer_on_the_board_it_replaced_leaves_the_new_board_live(
    fake_discord, scene, monkeypatch
):
    """Ann's Draw on an old-tokened board is answered late: Bob's My hand meanwhile lets
    the board be posted again below. Her answer redrew the board she clicked, whose token
    cannot edit the new one: the new board follows the game, the one she clicked is a link."""
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    scene.arrange(hands=[["2C"], ["3C"]], deck=["4C", "5C", "6C", "7C"])
    await bot.outbox.drain()
    old_board = scene.board()
    bot.outbox.clock = lambda: time.monotonic() + TOKEN_USE_SECONDS + 1  # its token is old
    play, gate, held = bot.get_cog("Play"), asyncio.Event(), asyncio.Event()
    show_move = play.show_move

    async def late(*args):
        held.set()
        await gate.wait()
        await show_move(*args)

    monkeypatch.setattr(play, "show_move", late)
    draw = await fake_discord.click(old_board, button_id(old_board, "draw"), user=scene["ann"])
    await held.wait()  # her Draw is played, not yet answered...
    await scene.click(old_board, "hand", "bob")  # ...when Bob opens his hand
    await bot_state(lambda: table.messages.board_id != old_board.id)  # posted again below
    gate.set()
    assert (await draw.wait_response()).response_type == 7
    await bot.outbox.drain()
    new_board = scene.board()
    await scene.cmd("draw", "bob")
    await bot.outbox.drain()
    assert button_versions(new_board) == {table.version} == {2}  # the live board follows
    assert "moved down" in old_board.content and not old_board.components
    assert [m for m in scene.public() if m.components] == [new_board]
    fake_discord.assert_no_violations()


@pytest.mark.scene(names=("ann", "bob"))
async def test_channel_posts_are_follow_ups_of_the_latest_interaction(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    await bot.outbox.drain()
    await scene.click(scene.board(), "draw", "ann")
    await bot.outbox.drain()  # her hand DM, bob's turn ping
    start = len(fake_discord.requests)
    bot.outbox.post(table, "⏱️ A warning for everyone.")
    bot.outbox.flush(table)
    await bot.outbox.drain()
    assert requests_since(fake_discord, start) == [FOLLOW_UP]
    post = scene.public()[-1]
    assert post.content == "⏱️ A warning for everyone." and not post.ephemeral
    fake_discord.assert_no_violations()


@pytest.mark.scene(names=("ann", "bob"))
async def test_board_posts_the_board_again_and_the_old_one_becomes_a_stub(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    scene.arrange(hands=[["2C"], ["5D"]], deck=["7C", "8C", "9C", "10C", "JC"])
    await bot.outbox.drain()
    old_board = scene.board()
    seen = copy.deepcopy(old_board.components)
    reposted = (await scene.cmd("board", "bob")).message  # /board: the board moves down
    await fake_discord.wait_for(lambda: "moved down" in old_board.content)
    assert table.messages.board_id == reposted.id != old_board.id
    assert not old_board.components
    assert [m for m in scene.public() if m.components] == [reposted]
    old_board.components = seen  # a client that still shows the old board
    stale = await scene.click(old_board, "draw", "ann")
    assert stale.response_type == 7 and table.version == 0  # made a stub again, no move
    assert not old_board.components
    start = len(fake_discord.requests)
    await scene.cmd("draw", "ann")  # a slash command: the board must follow
    await bot.outbox.drain()
    edits = [r for r in fake_discord.requests[start:] if "PATCH" in r.route]
    assert TOKEN_EDIT in [r.route for r in edits]  # through /board's token...
    assert not [r for r in edits if str(scene.channel.id) in r.path]  # not the channel's
    assert button_versions(scene.board()) == {table.version}
    fake_discord.assert_no_violations()


async def test_a_backlog_of_hand_dms_does_not_hold_the_board_back(fake_discord, make_bot):
    # More players are owed a DM than the outbox has workers, and the global budget is
    # spent: the DMs wait, but the board (through its token) must still follow play.
    bot = make_bot()
    onlookers = [f"onlooker{i}" for i in range(2 * LANES["dms"])]
    scene = Scene(fake_discord, bot, names=("ann", "bob", *onlookers))
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        scene.arrange(hands=[["2C"], ["5D"]], deck=["7C", "8C", "9C", "10C", "JC"])
        await bot.outbox.drain()
        budget, waiting = asyncio.Event(), []

        async def spent() -> None:
            waiting.append(1)
            await budget.wait()

        bot.outbox._spend = spent
        for name in onlookers:  # (a DM to someone not playing shows an empty hand)
            bot.outbox.hand_changed(table, scene[name].user.id, [BEGAN])
        await bot_state(lambda: len(waiting) == LANES["dms"])  # every DM worker is stuck
        start = len(fake_discord.requests)
        await scene.cmd("draw", "ann")  # a slash command: the outbox edits the board
        await fake_discord.wait_for(
            lambda: button_versions(scene.board()) == {table.version}, timeout=5
        )
        sent = requests_since(fake_discord, start)
        assert TOKEN_EDIT in sent and CHANNEL_EDIT not in sent
        assert "in your panel" not in scene.dm("ann").content  # waits for budget
        budget.set()
        await bot.outbox.drain()
        assert scene.hand_seen("ann", table.game.hands[0]) == "panel"
        assert all(len(fake_discord.dms(scene[name])) == 1 for name in onlookers)
        fake_discord.assert_no_violations()
