"""Clicks found wrong by probing (issue 28): older boards after a restart, forged clicks.

An older board (the one from before a restart included) turns into the one-line link to
the live board whatever is clicked on it; a custom id is taken only from the kind of
message that carries it (a hand panel's only from its owner's panel, a board's only from
a board), and anything else is refused privately, with no message edited.
"""

from __future__ import annotations

import logging

import pytest

from tests.bot.helpers import Scene, button_id, content, text_of

pytestmark = pytest.mark.e2e


def versions(*messages) -> list[int]:
    """How many times each message was edited (the fake keeps every earlier version)."""
    return [len(message.history) for message in messages]


async def restarted_game(fake, make_bot):
    """A two-player game whose bot was restarted: the scene, the old board, the new bot."""
    fake.gateway.identify_interval = 0  # restarted at once (tests/bot/test_shards.py paces)
    first = make_bot()
    scene = Scene(fake, first, names=("ann", "bob", "eve"))
    async with fake.connected(first):
        await scene.new_game("ann", "bob", difficulty="beginner")
        await scene.cmd("draw", "ann")
        if scene.live().game.phase.value == "discard":
            await scene.cmd("discard", "ann", cards=scene.live().game.hands[0][-1])
        await first.outbox.drain()
        old_board = scene.board()
    second = make_bot()
    scene.bot = second
    return scene, old_board, second


# ------------------------------------------------- 6. the board from before a restart


async def test_my_hand_on_the_board_from_before_a_restart_opens_the_panel_and_links_it(
    fake_discord, make_bot
):
    scene, old_board, bot = await restarted_game(fake_discord, make_bot)
    async with fake_discord.connected(bot):
        table = scene.live()
        version, hand = table.version, list(table.game.hands[1])
        (fresh,) = await fake_discord.wait_for(
            lambda: [m for m in scene.public() if "back after a restart" in m.content]
        )
        assert "Apophis arrives" in text_of(old_board) and old_board.components  # stale
        hand_id = button_id(old_board, "hand")
        opened = await (
            await fake_discord.click(old_board, hand_id, user=scene["bob"])
        ).wait_response()
        # Bob asked for his hand: he gets his panel, told where the live board is...
        assert opened.ephemeral and opened.message.visible_to == scene.id("bob")
        assert f"Your hand ({len(hand)} cards)" in text_of(opened.message)
        assert f"/{fresh.id})" in text_of(opened.message)
        # ...and the old board becomes the one-line link to the live one, for everyone.
        await fake_discord.wait_for(lambda: "moved down" in old_board.content)
        assert f"/{fresh.id})" in old_board.content
        assert not old_board.components and not old_board.embeds
        assert scene.board().id == fresh.id and fresh.components  # the live board is untouched
        # Nothing was done; his panel plays, once.
        assert table.version == version and table.game.hands[1] == hand
        drew = await scene.press(opened.message, "draw", "bob")
        assert drew.response_type == 7 and table.version == version + 1
        assert len(table.game.hands[1]) == len(hand) + 2


async def test_a_bystanders_my_hand_on_the_board_from_before_a_restart_links_it(
    fake_discord, make_bot
):
    scene, old_board, bot = await restarted_game(fake_discord, make_bot)
    async with fake_discord.connected(bot):
        table = scene.live()
        version = table.version
        (fresh,) = await fake_discord.wait_for(
            lambda: [m for m in scene.public() if "back after a restart" in m.content]
        )
        # Eve, who does not play, asks for a hand: told so, and the old board is linked.
        hand_id = button_id(old_board, "hand")
        asked = await (
            await fake_discord.click(old_board, hand_id, user=scene["eve"])
        ).wait_response()
        assert asked.ephemeral and "You are not playing in this game" in content(asked)
        await fake_discord.wait_for(lambda: "moved down" in old_board.content)
        assert not old_board.components
        assert table.version == version and fresh.components


# ---------------------------------------------------------- 11. forged clicks


async def test_a_panels_custom_id_is_refused_on_the_board(fake_discord, make_bot, caplog):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        panel = await scene.panel("ann")
        await bot.outbox.drain()
        board = scene.board()
        before = versions(board, panel)
        for action in ("refresh", "hint", "draw"):
            custom_id = button_id(panel, action)
            sent = await fake_discord.click(board, custom_id, user=scene["ann"], forged=True)
            reply = await sent.wait_response()
            assert reply.ephemeral and "does not belong" in content(reply), action
            assert "Your hand" not in text_of(board)  # her hand never shown in public
        card = table.game.hands[0][0]
        picked = f"apo:p:{table.id}:0:launch"  # the panel's select, as if on the board
        sent = await fake_discord.select(board, picked, [card], user=scene["ann"], forged=True)
        reply = await sent.wait_response()
        assert reply.ephemeral and "does not belong" in content(reply)
        await bot.outbox.drain()
        assert versions(board, panel) == before and table.version == 0
        scene.assert_no_cards_in_public()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_click_on_another_players_panel_is_refused(fake_discord, make_bot, caplog):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")  # ann's turn
        ann = await scene.panel("ann")
        bob = await scene.panel("bob")
        await bot.outbox.drain()
        shown = text_of(ann)
        before = versions(ann, bob, scene.board())
        for action in ("refresh", "hint", "draw"):
            custom_id = button_id(ann, action)
            sent = await fake_discord.click(ann, custom_id, user=scene["bob"], forged=True)
            reply = await sent.wait_response()
            assert reply.ephemeral and "another player's" in content(reply), action
            assert reply.message.visible_to == scene.id("bob")
        await bot.outbox.drain()
        assert text_of(ann) == shown and versions(ann, bob, scene.board()) == before
        assert table.version == 0
        # Her own clicks still work.
        drew = await scene.press(ann, "draw", "ann")
        assert drew.response_type == 7 and table.version == 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_boards_custom_id_is_refused_on_a_panel_and_a_report(
    fake_discord, make_bot, caplog
):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob", rules="advanced")
        scene.arrange(
            hands=[["2C", "2H", "2D", "2S"], ["9H"]],
            rocket=[("red", 3), ("green", 2), ("yellow", 2)],
            damage=2,
            dice=[2, 1, 6, 4],  # launch roll 4; accuracy 1+1 misses: a reroll to decide
        )
        await scene.cmd("launch", "ann", cards="2C 2H 2D 2S")
        (report,) = await fake_discord.wait_for(
            lambda: [m for m in scene.public() if "Launch report" in text_of(m)]
        )
        panel = await scene.panel("ann")
        await bot.outbox.drain()
        board, version = scene.board(), table.version
        before = versions(board, panel, report)
        gid = table.id
        for message, custom_id in [
            (panel, f"apo:b:{gid}:{version}:reroll"),  # a board's button on her panel
            (panel, f"apo:b:{gid}:{version}:hand"),
            (report, f"apo:b:{gid}:{version}:hand"),  # the report has Reroll and Accept only
            (report, f"apo:b:{gid}:{version}:scrap"),
            (report, f"apo:h:{gid}:{version}:refresh"),  # a panel's button on the report
        ]:
            sent = await fake_discord.click(message, custom_id, user=scene["ann"], forged=True)
            reply = await sent.wait_response()
            assert reply.ephemeral and "does not belong" in content(reply), custom_id
        await bot.outbox.drain()
        assert versions(board, panel, report) == before and table.version == version
        # The report's own button still works.
        await scene.click(report, "reroll", "ann")
        assert table.version == version + 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
