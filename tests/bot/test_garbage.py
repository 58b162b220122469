"""Answered interactions are freed at once, not left to the cyclic garbage collector.

The collector's pauses stop every game at once; under load they set the bot's
slowest answers (see benchmarks/load_bench.py). So a click, a picker and a slash
command must leave no reference cycle behind.
"""

from __future__ import annotations

import gc

import discord
import pytest

from tests.bot.helpers import bot_state

pytestmark = pytest.mark.e2e


def alive(kind: type) -> int:
    return sum(1 for thing in gc.get_objects() if type(thing) is kind)


@pytest.mark.scene(names=("ann", "bob"))
async def test_interactions_leave_no_cycles(scene):
    bot = scene.bot
    table = await scene.new_game("ann", "bob")
    scene.arrange(hands=[["2C", "3C", "4H"], ["5D", "6S"]], deck=["7C", "8C", "9C", "10C"])
    await bot.outbox.drain()
    gc.collect()
    gc.disable()
    try:
        before = alive(discord.Interaction)
        panel = (await scene.click(scene.board(), "hand", "ann")).message
        await scene.press(panel, "build:green.1", "ann")
        await scene.click(scene.board(), "hand", "bob")
        await scene.cmd("draw", "bob")
        await scene.cmd("hand", "ann")
        await bot.outbox.drain()
        await bot_state(lambda: table.version == 2)
        await bot_state(lambda: alive(discord.Interaction) <= before)
    finally:
        gc.enable()
