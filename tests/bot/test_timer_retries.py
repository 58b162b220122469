"""A timer's action that cannot be saved (a full disk) is retried until it is, the channel
told once that the game is held up: the reshuffle's end, the clock's, a crewmate's move,
a game left to crewmates ending as abandoned. Time is the game's (`timer`), moved on by
the test through each retry."""

from __future__ import annotations

import pytest

from bot.game import clocks
from bot.game.crewmates import PAUSE
from engine import RESHUFFLE_SECONDS, Phase
from tests.bot.helpers import (
    DiskFull,
    Scene,
    content,
    text_of,
)
from tests.bot.test_crewmates import open_lobby_with_crewmates

pytestmark = pytest.mark.e2e

HELD_UP = "holds the game up"


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
        await scene.leave_game("ann")
        disk.full = True
        await timer.advance(PAUSE[1] + clocks.TIMER_RETRY_DELAYS[0])
        assert disk.refused == 2 and table.status == "active"
        disk.full = False
        await timer.advance(clocks.TIMER_RETRY_DELAYS[1])
        assert table.status == "abandoned"
        stored = await bot.store.get_game(table.id)
        assert stored.status == "abandoned"
