"""Faults found by probing (issue 28): crewmates and saves, hosting, busy games, restarts,
the card reader, configuration, deleted channels, languages and forged clicks."""

from __future__ import annotations

import asyncio
import re
import signal

import discord
import pytest

from bot.game import clocks
from bot.game.crewmates import PAUSE
from bot.store.store import Store
from tests.bot.helpers import (
    DiskFull,
    Scene,
    bot_state,
    button_id,
    content,
    forged,
    start_bot_process,
    text_of,
    write_lock_held,
)
from tests.bot.test_crewmates import open_lobby_with_crewmates

pytestmark = pytest.mark.e2e

HELD_UP = "holds the game up"


# ------------------------------------------------- 1. a crewmate's move that cannot be saved


async def test_a_crewmates_move_that_cannot_be_saved_is_retried_and_told_once(
    fake_discord, make_bot, monkeypatch, caplog, timer
):
    bot = make_bot(timer=timer)
    scene = Scene(fake_discord, bot, names=("ann",))
    async with fake_discord.connected(bot):
        await open_lobby_with_crewmates(scene, 1, difficulty="beginner")
        await scene.cmd("apophis start", "ann", first=scene["ann"])
        table = scene.live()
        scene.arrange(hands=[["2C", "3H"], ["4D", "5S"]])
        disk = DiskFull(bot.store, monkeypatch, lambda kwargs: kwargs["actor"] == -1)
        disk.full = True
        await scene.cmd("draw", "ann")  # the crewmate's turn: its move cannot be saved
        version = table.version
        await timer.advance(bot.service.crew.pending[table.id].when() - timer.now())
        assert disk.refused == 1
        await fake_discord.wait_for(lambda: [m for m in scene.public() if HELD_UP in m.content])
        await timer.advance(sum(clocks.TIMER_RETRY_DELAYS[:2]))
        assert disk.refused == 3
        assert table.version == version and table.game.active_player == -1
        refused = await scene.cmd("draw", "ann")
        assert refused.ephemeral
        disk.full = False  # the database is free again: the crewmate plays on by itself
        await timer.advance(clocks.TIMER_RETRY_DELAYS[2])
        assert table.version > version
        stored = await bot.store.get_game(table.id)
        assert stored.version >= version + 1
        assert len([m for m in scene.public() if HELD_UP in m.content]) == 1  # told once
    assert "never retrieved" not in caplog.text


async def test_a_game_left_to_crewmates_ends_as_abandoned_once_it_can_be_saved(
    fake_discord, make_bot, monkeypatch, timer
):
    bot = make_bot(timer=timer)
    scene = Scene(fake_discord, bot, names=("ann",))
    async with fake_discord.connected(bot):
        await open_lobby_with_crewmates(scene, 1, difficulty="beginner")
        await scene.cmd("apophis start", "ann", first=scene["ann"])
        table = scene.live()
        disk = DiskFull(bot.store, monkeypatch)
        await scene.cmd("apophis leave", "ann")
        disk.full = True
        await timer.advance(PAUSE[1] + clocks.TIMER_RETRY_DELAYS[0])
        assert disk.refused == 2 and table.status == "active"
        disk.full = False
        await timer.advance(clocks.TIMER_RETRY_DELAYS[1])
        assert table.status == "abandoned"
        stored = await bot.store.get_game(table.id)
        assert stored.status == "abandoned"


# ------------------------------------------------------------- 2. hosting and crewmates


@pytest.mark.scene(names=("ann", "bob"))
async def test_hosting_passes_to_the_next_person_never_to_a_crewmate(scene):
    bot = scene.bot
    lobby = await open_lobby_with_crewmates(scene, 1, difficulty="beginner")
    await scene.click(lobby, "join", "bob")
    table = scene.live()
    assert table.seats == [scene.id("ann"), -1, scene.id("bob")]
    await scene.cmd("apophis start", "ann", first=scene["ann"])
    left = await scene.cmd("apophis leave", "ann")
    assert "Robot 1 is the host" not in text_of(left.message)
    assert f"<@{scene.id('bob')}> is the host now" in text_of(left.message)
    assert table.host_id == scene.id("bob")
    assert (await bot.store.get_game(table.id)).host_id == scene.id("bob")
    assert not (await scene.cmd("apophis skip", "bob")).ephemeral


@pytest.mark.scene(names=("ann",), timer=True)
async def test_with_only_crewmates_left_nobody_is_made_host(scene, timer):
    bot = scene.bot
    await open_lobby_with_crewmates(scene, 1, difficulty="beginner")
    await scene.cmd("apophis start", "ann", first=scene["ann"])
    table = scene.live()
    left = await scene.cmd("apophis leave", "ann")
    assert "is the host now" not in text_of(left.message)
    await timer.advance(PAUSE[1])
    assert table.status == "abandoned"
    assert not [line for line in table.recent if "is the host now" in line]
    assert table.host_id == scene.id("ann")  # no crewmate was made host
    assert (await bot.store.get_game(table.id)).host_id == scene.id("ann")


# ------------------------------------------------------- 3. clicks queued behind a busy game


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


# ------------------------------------------------------------------- 7. the card reader


@pytest.mark.parametrize("typed", ["7ſ", "ſ", "7K"])
async def test_letters_that_fold_to_suit_words_are_read_or_refused_politely(
    fake_discord, make_bot, typed, caplog
):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob")
        scene.arrange(hands=[["7S", "2H", "3D"], ["4C"]])
        for command in ("launch", "discard"):
            reply = await scene.cmd(command, "ann", cards=typed)
            assert reply.ephemeral
            assert "something went wrong" not in text_of(reply.message)
        assert table.version == 0
    assert "KeyError" not in caplog.text


@pytest.mark.scene(names=("ann", "bob"))
async def test_the_bots_own_notation_is_read(scene):
    table = await scene.new_game("ann", "bob")
    scene.arrange(hands=[["10C", "2H", "3D"], ["4C"]], rocket=[("green", 1)])
    reply = await scene.cmd("launch", "ann", cards="🟩 clubs: 10♣︎")  # as a hand shows it
    assert "could not read" not in text_of(reply.message)
    await bot_state(lambda: table.version == 1)
    assert [c.value for c in table.game.public_view().sequence] == ["green"]


# -------------------------------------------------- 4. SIGTERM while Discord is unreachable


@pytest.mark.slow
async def test_sigterm_while_discord_is_unreachable_exits_within_5_seconds(fake_discord, database):
    scene = Scene(fake_discord, None, names=("ann",))
    process = await start_bot_process(fake_discord, database)
    await scene.cmd("apophis new", "ann", difficulty="hard")
    await scene.cmd("apophis start", "ann")
    await scene.cmd("draw", "ann")
    await fake_discord.stop()  # Discord goes away: the bot backs off, longer and longer
    backoff = re.compile(rb"reconnect .* in ([0-9.]+) ?s")
    while (
        not (found := backoff.search(line := await process.stderr.readline()))
        or float(found[1]) < 6
    ):
        assert line, "the bot process stopped by itself"
    process.send_signal(signal.SIGTERM)  # in the middle of a long wait before reconnecting
    rest = await asyncio.wait_for(process.stderr.read(), 5)  # within 5 s, whatever Discord does
    assert await process.wait() == 0
    assert b"froze 1 running clocks" in rest and b"never retrieved" not in rest
    store = await Store.open(database)
    try:
        (record,) = await store.load_active_games()
    finally:
        await store.close()
    assert record.clock_deadline is None and record.clock_remaining > 7 * 60


# ------------------------------------------------------- 8. a moderator role of this server


async def test_only_a_role_of_this_server_can_be_the_moderator_role(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann",))
    manage_guild = discord.Permissions(manage_guild=True).value
    admins = fake_discord.add_role(scene.guild, "admins", permissions=manage_guild)
    helpers = fake_discord.add_role(scene.guild, "game helpers")
    scene.members["boss"] = fake_discord.add_member(scene.guild, "boss", roles=[admins])
    elsewhere = fake_discord.add_guild("elsewhere")
    foreign = fake_discord.add_role(elsewhere, "their mods")
    async with fake_discord.connected(bot):
        for role in (foreign, 123):  # another server's role, an id nobody has
            reply = await forged(fake_discord, "apophis config", scene, "boss", moderator_role=role)
            assert reply.ephemeral and "role of this server" in content(reply)
            assert "<@&" not in content(reply)
            assert (await bot.store.get_guild_settings(scene.guild.id)).moderator_role_id is None
        done = await scene.cmd("apophis config", "boss", moderator_role=helpers)
        assert f"<@&{helpers.id}>" in content(done)
        assert (await bot.store.get_guild_settings(scene.guild.id)).moderator_role_id == helpers.id


# ------------------------------------------------------ 10. a language chosen mid-launch


async def test_a_language_chosen_mid_launch_speaks_from_the_next_message(fake_discord, make_bot):
    bot = make_bot()
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    manage_guild = discord.Permissions(manage_guild=True).value
    admins = fake_discord.add_role(scene.guild, "admins", permissions=manage_guild)
    scene.members["boss"] = fake_discord.add_member(scene.guild, "boss", roles=[admins])
    async with fake_discord.connected(bot):
        table = await scene.new_game("ann", "bob", rules="advanced")
        scene.arrange(
            hands=[["2C", "2H", "2D", "2S"], ["9H"]],
            rocket=[("red", 3), ("green", 2), ("yellow", 2)],
            damage=2,
            dice=[2, 1, 6, 4],  # launch roll 4; accuracy 1+1 misses; reroll 6 hits
        )
        await scene.cmd("launch", "ann", cards="2C 2H 2D 2S")
        (report,) = await fake_discord.wait_for(
            lambda: [m for m in scene.public() if "Launch report" in text_of(m)]
        )
        told = list(table.recent)
        await scene.cmd("apophis config", "boss", language="fr")  # mid-launch
        await scene.click(report, "reroll", "ann")
        await bot.outbox.drain()
        text = text_of(report)  # the open report goes on in the language it started in
        assert "Accuracy: 🎲 6 + Apophis's value 1 + guidance 0 = 7 (needs 7) — hit" in text
        assert "Précision" not in text and "Launch report" in text
        assert list(table.recent)[: len(told)] == told  # what was told is kept as told
        board = text_of(scene.board(table))  # the board speaks the new language
        assert "Dernières actions" in board and "Last actions" not in board
