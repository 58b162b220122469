"""The outbox's job queue (bot.discord.jobs): held jobs, dropped ones, and drain()."""

from __future__ import annotations

import asyncio

import pytest

from bot.config import DISCORD_GLOBAL_LIMIT, Config
from bot.discord.jobs import Jobs, RateLimiter


async def test_drain_returns_once_the_last_held_job_is_dropped():
    """A held job the interaction's answer made needless is dropped: drain() must not
    wait for it (nor for a worker that will never run)."""
    jobs = Jobs({"main": 1}, lambda key: "main")
    ran: list[tuple] = []

    async def job() -> None:
        ran.append(("board", 1))

    jobs.hold(1, ("board", 1), job)
    draining = asyncio.create_task(jobs.drain())
    await asyncio.sleep(0)
    assert not draining.done()  # the held job is pending
    jobs.drop(1, ("board", 1))
    await asyncio.wait_for(draining, 1.0)
    assert ran == []
    await jobs.close()


async def test_drain_waits_for_a_released_job_to_run():
    jobs = Jobs({"main": 1}, lambda key: "main")
    ran: list[str] = []

    async def job() -> None:
        await asyncio.sleep(0)
        ran.append("sent")

    jobs.hold(1, ("board", 1), job)
    jobs.release(1)
    await asyncio.wait_for(jobs.drain(), 1.0)
    assert ran == ["sent"]
    await jobs.close()


async def test_drain_waits_for_a_failed_job_to_be_tried_again(monkeypatch):
    """A job that failed waits for its retry: drain() waits for it too (a test reading
    the requests, or a shutdown sending what is left, would otherwise go on without it)."""
    monkeypatch.setattr("bot.discord.jobs.RETRY_DELAYS", (0.05,))
    jobs = Jobs({"main": 1}, lambda key: "main")
    tries: list[str] = []

    async def job() -> None:
        tries.append("tried")
        if len(tries) < 3:
            raise ConnectionError("Discord did not answer")

    jobs.submit(("dm", 1, 2), job)
    await asyncio.wait_for(jobs.drain(), 2.0)
    assert tries == ["tried"] * 3  # failed twice, sent the third time
    assert jobs.backlog()[0] == 0
    await jobs.close()


class Clock:
    """A clock that moves only when the limiter waits on it."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def time(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds


def worst_second(moments: list[float]) -> int:
    """The most moments in any window of one second."""
    return max(sum(1 for m in moments if start <= m < start + 1.0) for start in moments)


@pytest.mark.parametrize("rate", [45.0, 22.5, 11.25, 0.5])
async def test_the_limiter_never_lets_more_than_its_rate_into_any_second(rate):
    clock = Clock()
    limiter = RateLimiter(rate, now=clock.time, sleep=clock.sleep)
    sent = []
    for _ in range(200):  # a burst after a quiet spell: the worst case of a token bucket
        await limiter.acquire()
        sent.append(clock.now)
    assert worst_second(sent) <= max(rate, 1)
    assert worst_second(sent) == max(int(rate), 1)  # and it uses its whole share
    seconds = sent[-1] - sent[0]
    assert len(sent) / (seconds + limiter.window) == pytest.approx(rate, rel=0.15)


async def test_the_shares_of_four_processes_add_up_to_at_most_discords_limit():
    settings = {
        "DISCORD_TOKEN": "x" * 30,
        "APOPHIS_DATABASE": "postgresql://bot@db/apophis",
        "APOPHIS_PROCESSES": "4",
        "APOPHIS_SHARD_COUNT": "4",
        "APOPHIS_SHARD_IDS": "0",
    }
    share = Config.from_env(settings).global_rate
    limiters = [RateLimiter(share, now=Clock().time) for _ in range(4)]
    assert sum(limiter.count for limiter in limiters) <= DISCORD_GLOBAL_LIMIT
