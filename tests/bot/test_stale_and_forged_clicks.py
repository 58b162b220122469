"""Stale and forged clicks: older boards after a restart, buttons of a game that moved on,
options and custom ids no client would send.

An older board (the one from before a restart included) turns into the one-line link to
the live board whatever is clicked on it; a custom id is taken only from the kind of
message that carries it (a hand panel's only from its owner's panel, a board's only from
a board), and anything else is refused privately, with no message edited. A lobby's button
after the game started, or a move that lost a race with a reset, is told so; forged
options, custom ids and values are refused politely.
"""

from __future__ import annotations

import copy
import logging

import pytest

from tests.bot.helpers import (
    Scene,
    bot_state,
    button_id,
    content,
    forged,
    text_of,
)

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
        assert "**Your turn**" in text_of(opened.message)  # (his turn: his hand headed so)
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


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_stale_lobby_button_does_nothing_once_the_game_has_started(fake_discord, scene):
    lobby = (await scene.cmd("apophis new", "ann")).message
    await scene.cmd("apophis join", "bob")
    await scene.cmd("apophis start", "ann", first=scene["ann"])
    table = scene.live()
    hand = list(table.game.hands[1])
    # A client still showing the lobby (its Leave button) clicks it.
    stale = f"apo:b:{table.id}:0:leave"
    click = await fake_discord.click(lobby, stale, user=scene["bob"], forged=True)
    reply = await click.wait_response()
    assert reply.ephemeral and "The game has started" in content(reply)
    assert table.game.players == [scene.id("ann"), scene.id("bob")]
    assert table.game.hands[1] == hand and table.version == 0


async def test_forged_options_are_refused_politely(fake_discord, make_bot, caplog):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    async with fake_discord.connected(bot):
        for options, reason in [
            ({"minutes": 0}, "`minutes` must be 1 to 60"),
            ({"minutes": -5}, "`minutes` must be 1 to 60"),
            ({"minutes": 10**18}, "`minutes` must be 1 to 60"),
            ({"minutes": "ten"}, "`minutes` must be a whole number"),
            ({"difficulty": "nightmare"}, "`difficulty` must be one of: beginner"),
            ({"rules": "chaos"}, "`rules` must be one of: basic, advanced"),
        ]:
            reply = await forged(fake_discord, "apophis new", scene, "ann", **options)
            assert reply.ephemeral and reason in content(reply), options
        assert scene.channel.id not in bot.service.by_channel
        table = await scene.new_game("ann", "bob")
        reply = await forged(fake_discord, "build", scene, "ann", colour="purple", size="large")
        assert reply.ephemeral and "`colour` must be one of: green" in content(reply)
        reply = await forged(fake_discord, "launch", scene, "ann", cards="7H " * 2000)
        assert reply.ephemeral and "`cards` must be 1 to 100 characters long" in content(reply)
        reply = await scene.cmd("launch", "ann", cards="Q" * 90)  # long, but as declared
        assert reply.ephemeral and "could not read 'QQQQQQQQQQQQQQQQQQQQ…' as a card" in (
            content(reply)
        )
        assert table.version == 0
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_forged_custom_ids_and_values_are_refused_politely(fake_discord, make_bot, caplog):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob", "cid"))
    two = fake_discord.add_text_channel(scene.guild, "two")
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        await scene.cmd("apophis new", "cid", channel=two)
        await scene.cmd("apophis start", "cid", channel=two)
        other = scene.live(two)
        scene.arrange(hands=[["2C", "3D"], ["5S"]])
        await bot.outbox.drain()
        board = scene.board()

        async def choose(message, custom_id, values=None):
            if values is None:
                sent = await fake_discord.click(message, custom_id, user=scene["ann"], forged=True)
            else:
                sent = await fake_discord.select(
                    message, custom_id, values, user=scene["ann"], forged=True
                )
            return await sent.wait_response()

        for custom_id, reason in [
            ("apo:b:" + "9" * 5000 + ":0:draw", "not one I know"),
            ("apo:b:" + "9" * 30 + ":0:hand", "not one I know"),  # within 100 characters
            ("apo:b:" + "9" * 30 + ":0:again", "not one I know"),
            (f"apo:b:{table.id}:" + "9" * 30 + ":draw", "not one I know"),
            (f"apo:b:{table.id}:0:explode", "not one I know"),
            ("something else", "not one I know"),
            (f"apo:b:{table.id + 100}:0:draw", "This game is over"),
        ]:
            reply = await choose(board, custom_id)
            assert reply.ephemeral and reason in content(reply), custom_id
        panel = (await scene.cmd("launch", "ann")).message  # her private hand panel
        for custom_id, values, reason in [
            (f"apo:p:{other.id}:0:launch", ["2C"], "another channel's game"),  # same version
            (f"apo:p:{table.id}:0:launch", ["ZZ"], "Choose cards from the menu"),
            (f"apo:p:{table.id}:0:launch", ["2C", "2C"], "Choose cards from the menu"),
            (f"apo:p:{table.id}:0:launch", [], "Choose from the menu's options"),
            (f"apo:p:{table.id}:0:build", ["red:1"], "not one I know"),  # no such select
            (f"apo:h:{table.id}:0:build:purple.1", None, "not one I know"),
            (f"apo:h:{table.id}:0:build:red.abc", None, "not one I know"),
            (f"apo:h:{table.id}:0:launch:ZZ.2C", None, "not one I know"),
            (f"apo:h:{table.id}:0:launch:2C.2C", None, "not one I know"),
            (f"apo:h:{table.id}:0:hint:2C", None, "not one I know"),  # a hint carries nothing
            (f"apo:h:{other.id}:0:hint", None, "another channel's game"),
        ]:
            reply = await choose(panel, custom_id, values)
            assert reply.ephemeral and reason in content(reply), (custom_id, values)
        assert table.version == 0 and other.version == 0
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_player_who_lost_a_race_with_a_reset_is_told_the_game_is_over(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    async with table.runtime.lock:  # a moderator's reset holds the game...
        draw = await fake_discord.invoke("draw", user=scene["ann"], channel=scene.channel)
        await bot_state(lambda: table.runtime.lock._waiters)  # ...while ann's /draw waits for it
        await bot.service._apply_locked(table, {"type": "end", "reason": "reset"}, actor=None)
    reply = await draw.wait_response()
    assert reply.ephemeral and content(reply) == "This game is over."


async def stale_click(fake, scene, board, seen, kind: str, user: str):
    """`user` clicks `kind` on `board` as it was (`seen`): the reason they are told, privately."""
    board.components = seen  # their client still shows the board they saw
    click = await fake.click(board, button_id(board, kind), user=scene[user])
    stale = await click.wait_response()
    assert stale.response_type == 7  # the board is redrawn in place...
    await stale.wait_followups(1)
    note = stale.followups[0]
    assert note.ephemeral  # ...and the reason is private
    return note.content


@pytest.mark.scene(names=("ann", "bob"))
async def test_a_double_draw_is_already_done_and_draws_once(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    await bot.outbox.drain()
    board = scene.board()
    seen = copy.deepcopy(board.components)
    first = await scene.press(board, "draw", "ann")
    assert first.response_type == 7 and table.version == 1
    await bot.outbox.drain()
    told = await stale_click(fake_discord, scene, board, seen, "draw", "ann")
    assert "Already done" in told and "older board" not in told
    log = await bot.store.game_log(table.id)
    assert [(e.action["type"], e.actor) for e in log] == [("draw", scene.id("ann"))]
    assert table.version == 1


@pytest.mark.scene(names=("ann", "bob", "cid"))
async def test_a_click_out_of_turn_is_told_not_your_turn_yet(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob", "cid")
    scene["cid"].user.locale = "fr"  # each reads the reason in their own language
    await bot.outbox.drain()
    board = scene.board()
    seen = copy.deepcopy(board.components)
    await scene.cmd("draw", "ann")
    await bot.outbox.drain()
    version = table.version
    told = await stale_click(fake_discord, scene, board, seen, "draw", "cid")
    assert told.startswith("Ce n’est pas encore votre tour")
    scene["cid"].user.locale = "en-US"
    told = await stale_click(fake_discord, scene, board, seen, "draw", "cid")
    assert told.startswith("It is not your turn yet") and "older board" not in told
    assert table.version == version and table.game.active_player != scene.id("cid")
