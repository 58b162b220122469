"""The outbox's job queue (bot.discord.jobs): held jobs, dropped ones, and drain()."""

from __future__ import annotations

import asyncio

from bot.discord.jobs import Jobs


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
