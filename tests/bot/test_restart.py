"""A restart, planned or not, costs a team nothing: hands, board and time left survive."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from bot.store.store import Store
from engine import Game
from tests.bot.helpers import (
    Scene,
    bot_state,
    button_id,
    held_up,
    killed,
    start_bot_process,
    text_of,
)
from tests.bot.test_threads import scene_with_admin

pytestmark = pytest.mark.e2e


async def test_a_game_survives_a_planned_restart(fake_discord, make_bot):
    # The bot is restarted at once: IDENTIFY pacing is not what this test is about
    # (tests/bot/test_shards.py checks it).
    fake_discord.gateway.identify_interval = 0
    first = make_bot()
    scene = Scene(fake_discord, first, names=("ann", "bob"))
    async with fake_discord.connected(first):
        table = await scene.new_game("ann", "bob", difficulty="beginner")
        await scene.cmd("draw", "ann")
        if table.game.phase.value == "discard":
            await scene.cmd("discard", "ann", cards=table.game.hands[0][-1])
        await first.outbox.drain()
        old_board = scene.board()
        saved, version = table.game.save(), table.version
        left = table.time_left(first.service.now())
    # closed: clocks frozen. Time passing now must not count.
    second = make_bot()
    scene.bot = second
    async with fake_discord.connected(second):
        resumed = scene.live()
        assert resumed.game.save() == saved and resumed.version == version
        assert abs(resumed.time_left(second.service.now()) - left) < 1.0
        notice = await fake_discord.wait_for(
            lambda: [m for m in scene.public() if "back after a restart" in m.content]
        )
        # A fresh board, not an hour-old edit (posted once the server's channels are in).
        await bot_state(lambda: resumed.messages.board_id == notice[0].id)
        assert "Apophis arrives" in text_of(notice[0])
        draw = button_id(old_board, "draw")  # bob's turn, on the board from before the restart
        reply = await (await fake_discord.click(old_board, draw, user=scene["bob"])).wait_response()
        assert reply.response_type == 7 and resumed.version == version  # nothing done...
        assert "moved down" in old_board.content and not old_board.components  # ...a stub now
        panel = await scene.panel("bob")  # My hand opens a working panel after the restart
        drew = await scene.press(panel, "draw", "bob")
        assert drew.response_type == 7 and resumed.version == version + 1
        await second.outbox.drain()
        assert len(fake_discord.dms(scene["bob"])) == 1  # the same DM, edited after the restart
        assert "in your panel" in fake_discord.dms(scene["bob"])[0].content  # Bob plays there
        scene.assert_no_cards_in_public()


async def test_a_game_survives_the_bot_process_being_killed(fake_discord, make_bot, database):
    # The bot is restarted at once: IDENTIFY pacing is not what this test is about
    # (tests/bot/test_shards.py checks it).
    fake_discord.gateway.identify_interval = 0
    scene = Scene(fake_discord, None, names=("ann", "bob"))
    process = await start_bot_process(fake_discord, database)
    try:
        await scene.cmd("apophis new", "ann", difficulty="easy")
        await scene.cmd("apophis join", "bob")
        await scene.cmd("apophis start", "ann", first=scene["ann"])
        drew = await scene.cmd("draw", "ann")
        assert "You drew" in text_of(drew.message)
        boards = await fake_discord.wait_for(
            lambda: [m for m in scene.public() if ":1:hand" in str(m.components)]
        )
    finally:
        process.kill()  # SIGKILL: no clean shutdown, no frozen clocks
        await process.wait()
    store = await Store.open(database)
    try:
        (record,) = await store.load_active_games()
        log = await store.game_log(record.id)
    finally:
        await store.close()
    assert [entry.action["type"] for entry in log][:1] == ["draw"]

    bot = make_bot()
    scene.bot = bot
    async with fake_discord.connected(bot):
        table = scene.live()
        assert table.game.save() == record.state and table.version == record.version
        left = table.time_left(bot.service.now())
        assert 12 * 60 - 30 < left <= 12 * 60  # the time the bot was down was given back
        await fake_discord.wait_for(
            lambda: [m for m in scene.public() if "back after a restart" in m.content]
        )
        old = boards[0]  # the board from before the crash: its buttons still work
        hand = await (
            await fake_discord.click(old, button_id(old, "hand"), user=scene["bob"])
        ).wait_response()
        assert hand.ephemeral
        assert f"Your hand ({len(table.game.hands[1])} cards)" in text_of(hand.message)


async def test_the_stored_action_log_replays_to_the_stored_game(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob", "cid"))
    async with fake_discord.connected(bot):
        await scene.cmd("apophis new", "ann", rules="advanced")
        await scene.cmd("apophis join", "bob")
        await scene.cmd("apophis join", "cid")
        await scene.cmd("apophis start", "ann")  # the start player is drawn at random
        table = scene.live()
        names = {scene.id(n): n for n in ("ann", "bob", "cid")}
        await scene.cmd("draw", names[table.game.active_player])
        await scene.cmd("apophis skip", "ann")
        await scene.cmd("apophis kick", "ann", player=scene["cid"])
        record = await bot.store.get_game(table.id)
        log = await bot.store.game_log(table.id)
    game = Game.new(
        list(record.starting_players),
        record.rules,
        seed=record.seed,
        start_player=record.start_player,
    )
    for entry in log:
        game.apply(entry.action)
    assert len(log) == record.version == 3
    assert game.save() == record.state


async def test_shutdown_completes_when_the_clocks_cannot_be_frozen(
    fake_discord, make_bot, database, monkeypatch, caplog
):
    # The bot is restarted at once: IDENTIFY pacing is not what this test is about
    # (tests/bot/test_shards.py checks it).
    fake_discord.gateway.identify_interval = 0
    first = make_bot()
    scene = Scene(fake_discord, first, names=("ann", "bob"))
    async with fake_discord.connected(first):
        table = await scene.new_game("ann", "bob", difficulty="easy")

        async def disk_full(now=None):
            raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(first.store, "freeze_clocks", disk_full)
        with caplog.at_level(logging.ERROR, logger="bot.discord.client"):
            await first.close()
        assert first.is_closed() and first.store._db._conn._connection is None
        assert "could not freeze the clocks" in caplog.text
    with sqlite3.connect(database) as db:
        (deadline,) = db.execute("SELECT clock_deadline FROM games").fetchone()
    assert deadline is not None  # still running in the database: as after a crash

    second = make_bot()
    scene.bot = second
    async with fake_discord.connected(second):
        resumed = scene.live()
        assert resumed.id == table.id and resumed.status == "active"
        left = resumed.time_left(second.service.now())
        assert 12 * 60 - 30 < left <= 12 * 60  # stopped at the last sign of life
        await fake_discord.wait_for(
            lambda: [m for m in scene.public() if "back after a restart" in m.content]
        )


POST = "POST /channels/{channel_id}/messages"


async def test_a_lobby_saved_as_the_bot_was_killed_is_posted_when_it_is_back(
    fake_discord, make_bot, database
):
    fake_discord.gateway.identify_interval = 0  # restarted at once
    scene = scene_with_admin(fake_discord, None)
    parent = scene.channel
    process = await start_bot_process(fake_discord, database)
    try:
        await scene.cmd("apophis config", "boss", threads=True)
        lobby = (await scene.cmd("apophis new", "ann")).message
        await scene.cmd("apophis join", "bob")
        await scene.cmd("apophis start", "ann", first=scene["ann"])
        thread = fake_discord.thread_of(lobby)
        await scene.cmd("apophis end", "ann", channel=thread)
        await fake_discord.wait_for(
            lambda: [m for m in scene.public(parent) if m.content.startswith("🏁")]
        )
        (final,) = await fake_discord.wait_for(
            lambda: [m for m in scene.public(thread) if ":again" in str(m.components)]
        )
        # Play again pressed in the thread: the lobby is saved, and its post in the
        # channel held up by Discord when the bot is killed.
        parent_posts = f"/channels/{parent.id}/messages"  # no other post may take it
        fake_discord.rate_limit_next(POST, retry_after=60, path=parent_posts)
        await fake_discord.click(final, button_id(final, "again"), user=scene["bob"])
        await held_up(fake_discord, POST, f"/channels/{parent.id}/messages")
    finally:
        await killed(process)
    store = await Store.open(database)
    try:
        record = await store.active_game_in_channel(parent.id)
    finally:
        await store.close()
    assert record.status == "lobby" and record.board_message_id is None

    bot = make_bot()
    scene.bot = bot
    async with fake_discord.connected(bot):
        (posted,) = await fake_discord.wait_for(
            lambda: [m for m in scene.public(parent) if "Invited back" in text_of(m)]
        )
        table = scene.live(parent)
        assert table.id == record.id
        await bot_state(lambda: table.messages.board_id == posted.id)  # the lobby's board
        joined = await scene.click(posted, "join", "ann")
        assert joined.response_type == 7 and table.seats == [scene.id("ann"), scene.id("bob")]
