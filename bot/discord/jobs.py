"""The outbox's queue: jobs coalesced by key, in lanes, sent by workers, retried later.

A job reads the latest state when it runs, so one pending job per key is enough
however often it is asked for. Jobs of a group (a game) may be held until the
interaction that caused them is answered, so that its fresh token can carry them, or
for `HOLD_SECONDS` at most. A job that fails because Discord asked us to slow down, or
had a passing fault, is retried later; the rest get three tries.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Hashable

import discord

log = logging.getLogger(__name__)

#: A job: what it returns, if anything, is not read (a panel's refresh says whether it
#: showed the hand).
Job = Callable[[], Awaitable[object]]
#: What a job is about, as ("board", game id): one job a key is pending at a time.
Key = tuple[Hashable, ...]

#: How long held jobs wait for the answer to the interaction that caused them.
HOLD_SECONDS = 0.5
RETRY_DELAYS = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)


class RateLimiter:
    """At most `rate` acquisitions in any one second (a sliding window, so no burst on top:
    what Discord's global limit counts), or one every 1/`rate` seconds below one a second."""

    def __init__(
        self,
        rate: float,
        *,
        now: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        self.rate, self._now, self._sleep = rate, now, sleep
        #: How many acquisitions a window holds, and how long the window is.
        self.count = max(int(rate), 1)
        self.window = self.count / rate if rate < 1 else 1.0
        self._recent: deque[float] = deque()
        self._lock = asyncio.Lock()

    async def acquire(self) -> None:
        async with self._lock:
            while len(self._recent) == self.count:
                wait = self._recent[0] + self.window - self._now()
                if wait <= 0:
                    self._recent.popleft()
                else:
                    await self._sleep(wait)
            self._recent.append(self._now())


class Jobs:
    """Lanes of coalesced jobs, each worked by its own tasks (see the module docstring).

    `lanes` maps each lane to how many jobs it sends at once; `lane_of(key)` names a
    key's lane; `quiet` keys' failures are not retried unless transient (posts must not
    come twice).
    """

    def __init__(
        self,
        lanes: dict[str, int],
        lane_of: Callable[[Key], str],
        *,
        quiet: Callable[[Key], bool] = lambda key: False,
    ) -> None:
        self._lane_of, self._once = lane_of, quiet
        self._jobs: dict[str, OrderedDict[Key, Job]] = {lane: OrderedDict() for lane in lanes}
        self._attempts: dict[Key, int] = {}
        #: key -> when its job was queued (the age of the oldest, for bot.metrics).
        self._queued_at: dict[Key, float] = {}
        self._running: set[Key] = set()
        #: Workers of each lane waiting for a job, each woken alone (not all at once).
        self._waiting: dict[str, deque[asyncio.Future[None]]] = {lane: deque() for lane in lanes}
        self._idle = asyncio.Event()
        self._workers = [
            asyncio.create_task(self._work(lane))
            for lane, workers in lanes.items()
            for _ in range(workers)
        ]
        #: group -> jobs waiting for the answer to the interaction that caused them.
        self._held: dict[int, dict[Key, Job]] = {}
        self._held_count = 0
        self._hold_timers: dict[int, asyncio.TimerHandle] = {}
        #: Failed jobs waiting for their retry (queued again when it is time).
        self._retrying = 0

    def hold(self, group: int, key: Key, job: Job) -> None:
        """Queue a job once the interaction that caused it is answered (or soon anyway)."""
        held = self._held.setdefault(group, {})
        if key not in held:
            held[key] = job
            self._held_count += 1
        if group not in self._hold_timers:
            loop = asyncio.get_running_loop()
            self._hold_timers[group] = loop.call_later(HOLD_SECONDS, self.release, group)

    def drop(self, group: int, key: Key) -> None:
        """Forget a held job: the interaction's answer did it already."""
        held = self._held.get(group)
        if held is not None and held.pop(key, None) is not None:
            self._held_count -= 1
            if not self._pending() and not self._running:
                self._idle.set()  # what drain() waited for was this one

    def release(self, game_id: int) -> None:
        """Queue the group's held jobs now."""
        timer = self._hold_timers.pop(game_id, None)
        if timer is not None:
            timer.cancel()
        held = self._held.pop(game_id, {})
        self._held_count -= len(held)
        for key, job in held.items():
            self.submit(key, job)

    def submit(self, key: Key, job: Job) -> None:
        """Queue a job, unless one with that key is already waiting."""
        lane = self._lane_of(key)
        jobs = self._jobs[lane]
        if key not in jobs:
            jobs[key] = job
            self._queued_at[key] = time.monotonic()
        waiting = self._waiting[lane]
        while waiting:  # one worker is enough for one job
            worker = waiting.popleft()
            if not worker.done():
                worker.set_result(None)
                return

    def backlog(self) -> tuple[int, float]:
        """The jobs waiting (queued or held), and how long the oldest queued one has waited."""
        now = time.monotonic()
        oldest = min(
            (self._queued_at.get(next(iter(jobs)), now) for jobs in self._jobs.values() if jobs),
            default=now,
        )
        return self._pending(), now - oldest

    def _pending(self) -> int:
        return sum(map(len, self._jobs.values())) + self._held_count + self._retrying

    async def _next_job(self, lane: str) -> tuple[Key, Job]:
        jobs = self._jobs[lane]
        while True:
            for key in jobs:
                if key not in self._running:  # one job per key at a time, in order
                    self._running.add(key)
                    self._queued_at.pop(key, None)
                    return key, jobs.pop(key)
            # (A job skipped because its key is running is taken by the worker running
            # it, which comes back here when it is done.)
            woken = asyncio.get_running_loop().create_future()
            self._waiting[lane].append(woken)
            await woken

    async def _work(self, lane: str) -> None:
        while True:
            key, job = await self._next_job(lane)
            try:
                await job()
                self._attempts.pop(key, None)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._retry_later(key, job, exc)
            finally:
                self._running.discard(key)
                if not self._pending() and not self._running:
                    self._idle.set()

    def _retry_later(self, key: Key, job: Job, exc: Exception) -> None:
        attempt = self._attempts.get(key, 0)
        self._attempts[key] = attempt + 1
        transient = isinstance(exc, discord.HTTPException) and (
            exc.status == 429 or exc.status >= 500
        )
        if not transient and (self._once(key) or attempt >= 2):
            log.error("giving up on %s", key[0], exc_info=exc)
            self._attempts.pop(key, None)
            return
        delay = _retry_after(exc) or RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)]
        log.warning("%s failed (%s); retrying in %.1f s", key[0], exc, delay)
        self._retrying += 1
        asyncio.get_running_loop().call_later(delay, self._retry, key, job)

    def _retry(self, key: Key, job: Job) -> None:
        """A failed job's time to be tried again has come."""
        self._retrying -= 1
        self.submit(key, job)
        if not self._pending() and not self._running:  # (a newer one with its key ran)
            self._idle.set()

    async def drain(self) -> None:
        """Wait until nothing is queued, held, waiting for a retry or being sent (tests
        and shutdown)."""
        while self._pending() or self._running:
            self._idle.clear()
            await self._idle.wait()

    async def close(self, timeout: float = 5.0) -> None:
        """Send what is queued (for at most `timeout` seconds), then stop."""
        for group in list(self._held):
            self.release(group)
        try:
            await asyncio.wait_for(self.drain(), timeout)
        except TimeoutError:
            log.warning("shutting down with %d messages unsent", self._pending())
        for worker in self._workers:
            worker.cancel()
        await asyncio.gather(*self._workers, return_exceptions=True)


def _retry_after(exc: Exception) -> float | None:
    """The wait a 429 asks for, when discord.py raised it instead of waiting itself.

    It does so for a 429 without Discord's ``Via`` header: the answer of a REST proxy
    (such as nirn-proxy) limiting the bot for all its processes. That is a request to
    slow down like any other, so the job is retried, after the time it names. (Discord's
    own 429s, which discord.py already waited out several times, wait the usual delays.)
    """
    if not isinstance(exc, discord.HTTPException) or exc.status != 429:
        return None
    headers = getattr(exc.response, "headers", None) or {}
    if "Via" in headers:
        return None
    for name in ("X-RateLimit-Reset-After", "Retry-After"):
        try:
            return max(float(headers[name]), 0.0)
        except (KeyError, ValueError):
            continue
    return None
