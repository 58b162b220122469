"""A game's lock for an action (bot.game.actions.held): taken at once when free, waited
for briefly when not, and the player told the game is busy past that."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from bot.errors import UserError
from bot.game import actions
from bot.table import Runtime


async def test_a_free_lock_is_taken_and_given_back():
    table = SimpleNamespace(runtime=Runtime())
    async with actions.held(table):
        assert table.runtime.lock.locked()
    assert not table.runtime.lock.locked()


async def test_a_held_lock_is_waited_for_then_the_game_is_busy(monkeypatch):
    monkeypatch.setattr(actions, "LOCK_WAIT", 0.05)
    table = SimpleNamespace(runtime=Runtime())
    holding, released = asyncio.Event(), asyncio.Event()

    async def first() -> None:
        async with actions.held(table):
            holding.set()
            await released.wait()

    holder = asyncio.create_task(first())
    await holding.wait()
    with pytest.raises(UserError) as refused:
        async with actions.held(table):
            pytest.fail("the lock was held: nothing may run")
    assert refused.value.key == "error.busy"

    async def second() -> bool:
        async with actions.held(table):
            return True

    waiting = asyncio.create_task(second())
    released.set()  # the first action ends within LOCK_WAIT: the second one runs
    assert await waiting and await holder is None
    assert not table.runtime.lock.locked()
