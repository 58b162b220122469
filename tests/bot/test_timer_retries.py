"""Faults and hostile input (issue 13): a full disk, a locked database, forged clicks."""

from __future__ import annotations

import asyncio
import logging
import sqlite3

import discord
import pytest

from bot.game import clocks
from devtools.fakediscord import ViolationKind
from engine import RESHUFFLE_SECONDS, Phase
from tests.bot.helpers import (
    DiskFull,
    Scene,
    bot_state,
    content,
    forged,
    text_of,
    write_lock_held,
)

pytestmark = pytest.mark.e2e

HELD_UP = "holds the game up"
EDIT_ORIGINAL = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"


# ------------------------------------------------------------ 1. timers and a full disk


async def retried(timer, disk: DiskFull, attempts: int) -> None:
    """Time moves on through a timer's retries to its `attempts`-th try (the first was
    refused already): each comes after its delay, not before, and is refused."""
    for tried, delay in enumerate(clocks.TIMER_RETRY_DELAYS[: attempts - 1], start=1):
        assert disk.refused == tried
        await timer.advance(delay - 0.01)
        assert disk.refused == tried  # not before its delay
        await timer.advance(0.01)
    assert disk.refused == attempts


async def test_a_reshuffle_that_cannot_be_saved_is_retried_until_it_is(
    fake_discord, make_bot, monkeypatch, timer
):
    bot = make_bot(timer=timer)
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        scene.arrange(hands=[["2C"], ["3C"]], deck=["4C"])
        disk = DiskFull(bot.store, monkeypatch)
        drew = await scene.cmd("draw", "ann")  # the deck runs out: a reshuffle starts
        assert "being shuffled" in text_of(drew.message) and table.game.phase is Phase.RESHUFFLE
        disk.full = True  # ...and its end cannot be saved
        await timer.advance(RESHUFFLE_SECONDS)
        await fake_discord.wait_for(lambda: [m for m in scene.public() if HELD_UP in m.content])
        await retried(timer, disk, 3)
        assert table.game.phase is Phase.RESHUFFLE and table.version == 1
        refused = await scene.cmd("draw", "bob")
        assert refused.ephemeral and "being shuffled" in content(refused)
        disk.full = False  # space came back: the game moves on by itself
        await timer.advance(clocks.TIMER_RETRY_DELAYS[2])
        assert table.version == 2
        assert table.game.phase is Phase.PLAY and table.game.active_player == scene.id("bob")
        stored = await bot.store.get_game(table.id)
        assert (stored.version, stored.state) == (2, table.game.save())
        assert len([m for m in scene.public() if HELD_UP in m.content]) == 1  # told once
        assert "You drew" in text_of((await scene.cmd("draw", "bob")).message)


async def test_a_clock_whose_end_cannot_be_saved_ends_the_game_once_it_can(
    fake_discord, make_bot, monkeypatch, timer
):
    bot = make_bot(timer=timer)
    scene = Scene(fake_discord, bot, names=("ann",))
    async with fake_discord.connected(bot):
        disk = DiskFull(bot.store, monkeypatch)
        table = await scene.new_game("ann", minutes=1)
        disk.full = True
        await timer.advance(60)
        await fake_discord.wait_for(lambda: [m for m in scene.public() if HELD_UP in m.content])
        await retried(timer, disk, 3)
        assert table.status == "active"  # at 0:00, held up, nothing lost
        disk.full = False
        await timer.advance(clocks.TIMER_RETRY_DELAYS[2])
        assert not table.open
        await fake_discord.wait_for(
            lambda: [m for m in scene.public() if "Apophis hits Earth" in m.content]
        )
        stored = await bot.store.get_game(table.id)
        assert (stored.status, stored.outcome) == ("finished", "lost")


# --------------------------------------------------------- 2. shutdown on a full disk


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


# ------------------------------------------------- 3. another process holds the database


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


# ---------------------------------------------------------------- 4. the host leaves


async def test_host_powers_pass_to_the_next_seated_player(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob", "cid"))
    mods = fake_discord.add_role(
        scene.guild, "mods", permissions=discord.Permissions(manage_messages=True).value
    )
    scene.members["mod"] = fake_discord.add_member(scene.guild, "mod", roles=[mods])
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob", "cid")
        left = await scene.cmd("apophis leave", "ann")  # the host leaves the game in play
        assert f"<@{scene.id('bob')}> is the host now" in content(left)
        for command in ("apophis skip", "apophis end"):
            refused = await scene.cmd(command, "ann")
            assert refused.ephemeral and "host or a moderator" in content(refused)
        kicked = await scene.cmd("apophis kick", "mod", player=scene["bob"])  # kicked, too
        assert f"<@{scene.id('cid')}> is the host now" in content(kicked)
        refused = await scene.cmd("apophis kick", "bob", player=scene["cid"])
        assert refused.ephemeral and "host or a moderator" in content(refused)
        assert (await bot.store.get_game(table.id)).host_id == scene.id("cid")
        await bot.outbox.drain()
        assert f"<@{scene.id('cid')}> — " in text_of(scene.board())
        assert " · host" in text_of(scene.board()).split(f"<@{scene.id('cid')}> — ")[1]
        assert not (await scene.cmd("apophis skip", "cid")).ephemeral


# ------------------------------------------------------------- 6. a stale lobby's buttons


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


# ------------------------------------------------- 7. forged and racing (commands in DMs:
# tests/bot/test_anywhere_commands.py and test_group_dm.py, since games play anywhere)


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


@pytest.mark.scene(names=("ann", "eve"))
async def test_board_reposts_are_limited(scene):
    await scene.new_game("ann")
    posted = await scene.cmd("board", "eve")
    assert not posted.ephemeral
    before = len(scene.public())
    for _ in range(5):
        again = await scene.cmd("board", "eve")
        assert again.ephemeral and "posted a moment ago" in content(again)
        assert f"/{posted.message.id})" in content(again)  # a link to it
    assert len(scene.public()) == before


async def test_an_answer_too_late_for_discord_is_a_warning_and_the_move_stands(
    fake_discord, make_bot, caplog
):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        fake_discord.interaction_deadline = 0.0  # every answer now comes too late
        await fake_discord.invoke("draw", user=scene["ann"], channel=scene.channel)
        violation = await fake_discord.expect_violation(ViolationKind.LATE_RESPONSE)
        assert "10062" in violation.message
        await bot_state(lambda: "answered too late" in caplog.text)
        assert table.version == 1  # the draw was saved
        await bot.outbox.drain()
    # No error logged (the fake turns one into a violation), no second answer tried.
    fake_discord.assert_no_violations()
    assert [r.levelno for r in caplog.records if "too late" in r.getMessage()] == [logging.WARNING]


@pytest.mark.scene(names=("ann", "eve"))
async def test_a_board_posted_again_while_an_edit_was_under_way_is_the_one_kept_up(scene):
    """Eve's /board posts the board below while the edit of the one above, with its
    picture, is slow to reach Discord: the edit is followed by the new board drawn again,
    and later moves edit that one, never asking Discord to keep the old one's picture."""
    table = await scene.new_game("ann")
    stall = scene.fake.stall_next(EDIT_ORIGINAL)
    await scene.cmd("draw", "ann")
    await asyncio.wait_for(stall.reached.wait(), 5)
    posted = await scene.cmd("board", "eve")
    stall.release()
    await scene.bot.outbox.drain()
    await scene.cmd("draw", "ann")
    await scene.bot.outbox.drain()
    assert table.messages.board_id == posted.message.id
    assert [r for r in scene.fake.requests if r.status >= 400] == []
    assert scene.board(table) is posted.message
