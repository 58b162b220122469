"""The game's time moved on by hand: timers fire in order at their own time, and what they
start runs before `advance` returns."""

from __future__ import annotations

import asyncio
import time

from bot.game.timer import ManualTimer, RealTimer


async def test_advance_fires_what_is_due_in_order_each_at_its_own_time() -> None:
    timer = ManualTimer(start=1000.0)
    fired: list[tuple[str, float]] = []
    timer.call_later(5, lambda: fired.append(("b", timer.now())))
    timer.call_later(2, lambda: fired.append(("a", timer.now())))
    late = timer.call_later(30, lambda: fired.append(("late", timer.now())))
    dropped = timer.call_later(3, lambda: fired.append(("dropped", timer.now())))
    dropped.cancel()

    await timer.advance(10)

    assert fired == [("a", 1002.0), ("b", 1005.0)]
    assert timer.now() == 1010.0 and timer.pending() == [late.when()] == [1030.0]


async def test_the_tasks_a_timer_starts_run_until_they_end_or_sleep_on_it() -> None:
    timer = ManualTimer(start=0.0)
    steps: list[tuple[str, float]] = []

    async def retried() -> None:
        steps.append(("try", timer.now()))
        await asyncio.to_thread(lambda: None)  # work it waits for elsewhere (a database, say)
        steps.append(("failed", timer.now()))
        await timer.sleep(5)
        steps.append(("again", timer.now()))

    timer.call_later(1, lambda: asyncio.create_task(retried()))

    await timer.advance(2)
    assert steps == [("try", 1.0), ("failed", 1.0)]
    await timer.advance(3)
    assert steps == [("try", 1.0), ("failed", 1.0)]
    await timer.advance(1)
    assert steps[-1] == ("again", 6.0)


async def test_timers_set_while_time_moves_on_fire_within_the_same_advance() -> None:
    timer = ManualTimer(start=0.0)
    ticks: list[float] = []

    def tick() -> None:
        ticks.append(timer.now())
        timer.call_later(1, tick)

    timer.call_later(1, tick)
    await timer.advance(3.5)
    assert ticks == [1.0, 2.0, 3.0]


async def test_the_real_timer_is_the_event_loops() -> None:
    timer = RealTimer()
    done = asyncio.Event()
    timer.call_later(0, done.set)
    await asyncio.wait_for(done.wait(), 1)
    await timer.sleep(0)
    assert abs(timer.now() - time.time()) < 1
