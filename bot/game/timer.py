"""The game's time: what time it is, and timers on it; real, or moved on by hand in tests.

Every timer of the game layer (the countdown and its warnings, the reshuffle, the
autopilot, idle lobbies, the crewmates' pause, a timer's retries) is set through a
`Timer`, and every door that reads the game's time may read it from one. `RealTimer`
reads the wall clock (unix time: the store keeps deadlines in it) and sets its timers on
the event loop. `ManualTimer` stands still until a test moves it on (`advance`): every
timer due by then fires in order, each at its own time, and the tasks it started run
until they end or wait on this clock again, so that a test sees what those seconds did
without waiting for them.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Any, Protocol


class Timer(Protocol):
    """The game's time and its timers."""

    def now(self) -> float:
        """The time (seconds; unix time for the real one)."""
        ...

    def call_later(
        self, delay: float, callback: Callable[..., object], *args: Any
    ) -> asyncio.TimerHandle:
        """`callback(*args)` in `delay` seconds, unless cancelled first."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait `seconds`."""
        ...


class RealTimer:
    """The wall clock, with its timers on the running event loop."""

    def now(self) -> float:
        return time.time()

    def call_later(
        self, delay: float, callback: Callable[..., object], *args: Any
    ) -> asyncio.TimerHandle:
        return asyncio.get_running_loop().call_later(delay, callback, *args)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class _Due(asyncio.TimerHandle):
    """A timer of a ManualTimer: fired by `advance`, never by the event loop."""

    def __init__(
        self,
        when: float,
        callback: Callable[..., object],
        args: tuple[Any, ...],
        loop: asyncio.AbstractEventLoop,
        sleeper: asyncio.Task[Any] | None = None,
    ) -> None:
        super().__init__(when, callback, args, loop)
        self.fire = lambda: callback(*args)
        #: The task this timer wakes, if it is a `sleep`'s.
        self.sleeper = sleeper


class ManualTimer:
    """Time that moves only when told (`advance`); starts at `start` (the wall clock's now)."""

    def __init__(self, start: float | None = None) -> None:
        self.time = time.time() if start is None else start
        self._due: list[tuple[float, int, _Due]] = []
        self._order = itertools.count()
        #: Tasks waiting in `sleep`, and a flag raised whenever one starts to.
        self._sleeping: set[asyncio.Task[Any]] = set()
        self._slept = asyncio.Event()

    def now(self) -> float:
        return self.time

    def call_later(
        self, delay: float, callback: Callable[..., object], *args: Any
    ) -> asyncio.TimerHandle:
        return self._set(delay, callback, args)

    async def sleep(self, seconds: float) -> None:
        task = asyncio.current_task()
        assert task is not None
        woken = asyncio.get_running_loop().create_future()
        timer = self._set(seconds, _wake, (woken,), sleeper=task)
        self._sleeping.add(task)
        self._slept.set()
        try:
            await woken
        finally:
            timer.cancel()
            self._sleeping.discard(task)

    def pending(self) -> list[float]:
        """When each timer not yet fired nor cancelled is due, soonest first."""
        return sorted(when for when, _, timer in self._due if not timer.cancelled())

    async def advance(self, seconds: float) -> None:
        """Move time on by `seconds`: each timer due by then fires at its own time, in
        order (those its tasks set meanwhile included), and what it started runs until it
        ends or sleeps on this clock."""
        end = self.time + seconds
        while self._due and self._due[0][0] <= end:
            when, _, timer = heapq.heappop(self._due)
            if timer.cancelled():
                continue
            self.time = max(self.time, when)
            await self._settle(self._fire(timer))
        self.time = max(self.time, end)

    def _set(
        self,
        delay: float,
        callback: Callable[..., object],
        args: tuple[Any, ...],
        sleeper: asyncio.Task[Any] | None = None,
    ) -> _Due:
        loop = asyncio.get_running_loop()
        timer = _Due(self.time + max(delay, 0.0), callback, args, loop, sleeper)
        heapq.heappush(self._due, (timer.when(), next(self._order), timer))
        return timer

    def _fire(self, timer: _Due) -> list[asyncio.Future[Any]]:
        """Run a timer's callback; the tasks it woke or created."""
        loop = asyncio.get_running_loop()
        made: list[asyncio.Future[Any]] = []
        if timer.sleeper is not None:
            self._sleeping.discard(timer.sleeper)  # awake from now on
            made.append(timer.sleeper)
        factory = loop.get_task_factory()

        def noted(loop: asyncio.AbstractEventLoop, coro: Any, **options: Any) -> Any:
            task: asyncio.Future[Any]
            if factory is None:
                task = asyncio.Task(coro, loop=loop, **options)
            else:
                task = factory(loop, coro, **options)
            made.append(task)
            return task

        loop.set_task_factory(noted)
        try:
            timer.fire()
        finally:
            loop.set_task_factory(factory)
        return made

    async def _settle(self, tasks: list[asyncio.Future[Any]]) -> None:
        """Wait until each of `tasks` has ended or sleeps on this clock."""
        while True:
            self._slept.clear()
            busy = [task for task in tasks if not task.done() and task not in self._sleeping]
            if not busy:
                return
            slept = asyncio.ensure_future(self._slept.wait())
            try:
                await asyncio.wait([*busy, slept], return_when=asyncio.FIRST_COMPLETED)
            finally:
                slept.cancel()


def _wake(woken: asyncio.Future[None]) -> None:
    if not woken.done():
        woken.set_result(None)
