"""Discord's global budget: board edits and channel posts ride on interaction tokens.

The interaction that last drew the board (a click on it, or the command that posted
it) may edit it and post follow-ups for 15 minutes, outside the global limit of 50
requests a second. Only hand DMs, and edits or posts with no usable token, spend it.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.notify import TOKEN_USE_SECONDS, WORKERS
from tests.bot.helpers import Scene, bot_state

pytestmark = pytest.mark.e2e

CHANNEL_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
CHANNEL_POST = "POST /channels/{channel_id}/messages"
TOKEN_EDIT = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"
FOLLOW_UP = "POST /webhooks/{webhook_id}/{webhook_token}"


def requests_since(fake, start: int) -> list[str]:
    return [r.route for r in fake.requests[start:] if 200 <= r.status < 300]


async def test_a_board_edit_after_a_picker_spends_no_global_request(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        scene.arrange(hands=[["2C", "3C", "4H"], ["5D", "6S"]], deck=["7C", "8C", "9C"])
        await bot.outbox.drain()
        refused = await scene.click(scene.board(), "draw", "bob")  # not his turn
        assert refused.ephemeral  # ...and his click does not become the board's owner
        start = len(fake_discord.requests)
        version = table.version
        picker = (await scene.click(scene.board(), "build", "ann")).message
        await scene.pick(picker, ["green:1"], "ann")
        await bot.outbox.drain()
        assert table.version == version + 1
        assert button_versions(scene.board()) == {table.version}
        sent = requests_since(fake_discord, start)
        assert TOKEN_EDIT in sent and CHANNEL_EDIT not in sent
        # The one global request is Ann's hand DM (she paid a card).
        global_requests = [r for r in fake_discord.requests[start:] if r.counts_global]
        assert [r.route for r in global_requests] == [CHANNEL_POST]
        assert len(fake_discord.dms(scene["ann"])) == 2
        fake_discord.assert_no_violations()


def button_versions(message) -> set[int]:
    return {
        int(c["custom_id"].split(":")[3])
        for c in message.iter_components()
        if c.get("custom_id", "").startswith("apo:b:")
    }


async def test_an_old_token_is_not_used_the_channel_route_is(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        scene.arrange(hands=[["2C", "3C", "4H"], ["5D", "6S"]], deck=["7C", "8C", "9C"])
        await bot.outbox.drain()
        picker = (await scene.click(scene.board(), "build", "ann")).message
        # The board's owner (the /apophis new that posted it) is now too old to use.
        bot.outbox.clock = lambda: time.monotonic() + TOKEN_USE_SECONDS + 1
        start = len(fake_discord.requests)
        await scene.pick(picker, ["green:1"], "ann")
        bot.outbox.post(table, "A message for the table.")
        await bot.outbox.drain()
        sent = requests_since(fake_discord, start)
        assert CHANNEL_EDIT in sent and TOKEN_EDIT not in sent and FOLLOW_UP not in sent
        assert button_versions(scene.board()) == {table.version}
        assert scene.public()[-1].content == "A message for the table."
        fake_discord.assert_no_violations()


async def test_channel_posts_are_follow_ups_of_the_board_owner(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        await bot.outbox.drain()
        await scene.click(scene.board(), "draw", "ann")
        await bot.outbox.drain()  # her hand DM
        start = len(fake_discord.requests)
        bot.outbox.post(table, "⏱️ A warning for everyone.")
        await bot.outbox.drain()
        assert requests_since(fake_discord, start) == [FOLLOW_UP]
        post = scene.public()[-1]
        assert post.content == "⏱️ A warning for everyone." and not post.ephemeral
        fake_discord.assert_no_violations()


async def test_a_click_on_an_older_board_does_not_take_the_board_over(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        scene.arrange(hands=[["2C"], ["5D"]], deck=["7C", "8C", "9C", "10C", "JC"])
        await bot.outbox.drain()
        old_board = scene.board()
        reposted = (await scene.cmd("board", "bob")).message  # /board: the board moves down
        await bot_state(lambda: table.board_message_id == reposted.id)
        assert reposted.id != old_board.id
        # Same version: it acts, but answers privately and leaves that message as it was
        # (it does not come back to life); the live board follows through /board's token.
        edits_before = len(old_board.history)
        start = len(fake_discord.requests)
        clicked = await scene.click(old_board, "draw", "ann")
        assert clicked.ephemeral and "replaced by a newer one" in clicked.response_data["content"]
        assert f"/{reposted.id})" in clicked.response_data["content"]  # a link to the live board
        assert table.version == 1 and len(old_board.history) == edits_before
        await bot.outbox.drain()
        edits = [r.route for r in fake_discord.requests[start:] if "PATCH" in r.route]
        assert edits == [TOKEN_EDIT]
        assert button_versions(scene.board()) == {1}
        assert button_versions(fake_discord.world.messages[old_board.id]) == {0}
        fake_discord.assert_no_violations()


async def test_a_backlog_of_hand_dms_does_not_hold_the_board_back(fake_discord, make_bot):
    # More players are owed a DM than the outbox has workers, and the global budget is
    # spent: the DMs wait, but the board (through its token) must still follow play.
    bot = make_bot()
    onlookers = [f"onlooker{i}" for i in range(2 * WORKERS)]
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
            bot.outbox.hand_changed(table, scene[name].user.id, ["a change"])
        await bot_state(lambda: len(waiting) == WORKERS)  # every DM worker is stuck
        start = len(fake_discord.requests)
        await scene.cmd("draw", "ann")  # a slash command: the outbox edits the board
        await fake_discord.wait_for(
            lambda: button_versions(scene.board()) == {table.version}, timeout=5
        )
        sent = requests_since(fake_discord, start)
        assert TOKEN_EDIT in sent and CHANNEL_POST not in sent
        assert not fake_discord.dms(scene["ann"])[1:]  # her new hand waits for the budget
        budget.set()
        await bot.outbox.drain()
        assert len(fake_discord.dms(scene["ann"])) == 2
        assert all(len(fake_discord.dms(scene[name])) == 1 for name in onlookers)
        fake_discord.assert_no_violations()
