"""Simultaneous clicks, outdated buttons, and games side by side."""

from __future__ import annotations

import asyncio
import copy

import pytest

from tests.bot.helpers import (
    Scene,
    button_id,
    content,
    text_of,
    write_lock_held,
)

pytestmark = pytest.mark.e2e


@pytest.mark.scene(names=("ann", "bob"))
async def test_two_players_pressing_draw_at_the_same_moment(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    await bot.outbox.drain()
    board = scene.board()
    draw = button_id(board, "draw")
    clicks = await asyncio.gather(
        fake_discord.click(board, draw, user=scene["ann"]),
        fake_discord.click(board, draw, user=scene["bob"]),
        fake_discord.click(board, draw, user=scene["ann"]),
        return_exceptions=True,  # a click after the board changed finds no such button
    )
    replies = [await c.wait_response() for c in clicks if not isinstance(c, Exception)]

    def refusals() -> list[str]:
        told = [r.response_data["content"] for r in replies if r.ephemeral]
        return told + [f.content for r in replies for f in r.followups if f.content]

    told = await fake_discord.wait_for(lambda: len(refusals()) == len(replies) - 1 and refusals())
    reasons = ("not your turn", "older board", "Already done")
    assert all(any(reason in t for reason in reasons) for t in told), told
    # The one draw made: its presser's panel follows, privately (a layout, no content).
    (panel,) = await fake_discord.wait_for(
        lambda: [f for r in replies for f in r.followups if not f.content]
    )
    assert panel.ephemeral and panel.visible_to == scene.id("ann")
    log = await bot.store.game_log(table.id)
    assert [(e.action["type"], e.actor) for e in log] == [("draw", scene.id("ann"))]
    assert table.version == 1 and len(table.game.hands[0]) == 6


@pytest.mark.scene(names=("ann", "bob"))
async def test_an_outdated_button_is_refused_and_the_board_refreshed(fake_discord, scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    await bot.outbox.drain()
    board = scene.board()
    old_scrap, seen = button_id(board, "draw"), copy.deepcopy(board.components)
    await scene.cmd("draw", "ann")
    if table.game.phase.value == "discard":
        await scene.cmd("discard", "ann", cards=table.game.hands[0][0])
    await bot.outbox.drain()
    board.components = seen  # bob's client still shows the board he saw
    stale = await (await fake_discord.click(board, old_scrap, user=scene["bob"])).wait_response()
    assert stale.response_type == 7  # the board is redrawn in place...
    await stale.wait_followups(1)
    note = stale.followups[0]
    assert note.ephemeral and "older board" in note.content  # ...and the reason is private
    assert f":{table.version}:" in button_id(board, "draw")
    assert table.game.active_player == scene.id("bob")


async def test_games_in_two_channels_do_not_interfere(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob", "cid", "dee"))
    other = fake_discord.add_text_channel(scene.guild, "second-table")
    async with fake_discord.connected(bot):
        first = await scene.new_game("ann", "bob")
        await scene.cmd("apophis new", "cid", channel=other, rules="advanced")
        await scene.cmd("apophis join", "dee", channel=other)
        await scene.cmd("apophis start", "cid", channel=other, first=scene["cid"])
        second = scene.live(other)
        assert first is not second and second.rules == "advanced"
        moves = await asyncio.gather(
            scene.cmd("draw", "ann"),
            scene.cmd("draw", "cid", channel=other),
            scene.cmd("draw", "bob"),  # not bob's turn in the first channel
        )
        assert "You drew" in text_of(moves[0].message) and "You drew" in text_of(moves[1].message)
        assert "not your turn" in moves[2].response_data["content"]
        assert first.version == 1 and second.version == 1
        refused = await scene.cmd("draw", "cid")  # cid plays in the other channel only
        assert refused.ephemeral and "not playing" in refused.response_data["content"]
        await scene.cmd("apophis end", "ann")
        assert not first.open and second.open
        await bot.outbox.drain()
        assert "ended" in text_of(scene.board(first))
        assert button_id(scene.board(second), "hand") == f"apo:b:{second.id}:1:hand"


async def test_a_locked_database_gets_every_player_a_busy_answer_in_time(
    fake_discord, make_bot, database
):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob", "cid"))
    two = fake_discord.add_text_channel(scene.guild, "two")
    three = fake_discord.add_text_channel(scene.guild, "three")
    async with fake_discord.connected(bot):
        first = await scene.new_game("ann")
        await scene.cmd("apophis new", "bob", channel=two)
        await scene.cmd("apophis start", "bob", channel=two, first=scene["bob"])
        second = scene.live(two)
        await bot.outbox.drain()
        with write_lock_held(database):
            sent = [
                await fake_discord.invoke("draw", user=scene["ann"], channel=scene.channel),
                await fake_discord.invoke("draw", user=scene["bob"], channel=two),
                await fake_discord.invoke("apophis new", user=scene["cid"], channel=three),
            ]
            # The fake fails the test if any answer comes after Discord's 3 seconds.
            for interaction in sent:
                reply = await interaction.wait_response()
                assert reply.ephemeral and "busy" in content(reply)
        for table in (first, second):  # nothing was done, in memory or stored
            assert table.version == 0
            assert (await bot.store.get_game(table.id)).version == 0
        assert three.id not in bot.service.by_channel
        assert await bot.store.active_game_in_channel(three.id) is None
        assert "You drew" in text_of((await scene.cmd("draw", "ann")).message)  # free again


@pytest.mark.scene(names=("ann", "bob"))
async def test_clicks_on_a_busy_game_are_all_answered_in_time_and_nothing_is_done_twice(
    fake_discord, scene, database
):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    scene.arrange(hands=[["2C"], ["3C"]])
    await bot.outbox.drain()
    board = scene.board()
    draw = button_id(board, "draw")
    with write_lock_held(database):  # another process holds the database...
        sent = []
        for _ in range(4):  # ...while four Draw clicks arrive, one after the other
            sent.append(await fake_discord.click(board, draw, user=scene["ann"]))
        sent.append(
            await fake_discord.invoke("apophis skip", user=scene["ann"], channel=scene.channel)
        )
        # The fake fails the test if any answer comes after Discord's 3 seconds.
        replies = [await interaction.wait_response() for interaction in sent]
    assert all(reply.ephemeral and "busy" in text_of(reply.message) for reply in replies)
    assert table.version == 0 and (await bot.store.get_game(table.id)).version == 0
    assert "You drew" in text_of((await scene.cmd("draw", "ann")).message)  # free again
    assert (await bot.store.get_game(table.id)).version == 1  # once
