"""discord.py's rate-limit records: swept now and then, not on every new DM channel."""

from __future__ import annotations

import asyncio

import discord

from bot.discord.client import RATE_LIMIT_SWEEP_SECONDS, sweep_now_and_then

IDLE = 301.0  # discord.py forgets a record idle for five minutes


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def count_looks(monkeypatch) -> list[int]:
    looks = [0]
    is_inactive = discord.http.Ratelimit.is_inactive

    def counted(self) -> bool:
        looks[0] += 1
        return is_inactive(self)

    monkeypatch.setattr(discord.http.Ratelimit, "is_inactive", counted)
    return looks


async def test_a_new_record_does_not_scan_all_the_others(monkeypatch):
    looks = count_looks(monkeypatch)
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    sweep_now_and_then(http, clock=Clock())
    for channel in range(3000):  # one record per DM channel, as hand DMs make them
        http.get_ratelimit(f"POST /channels/{{channel_id}}/messages:{channel}")
    assert len(http._buckets) == 3000
    assert looks[0] == 0  # unthrottled: ~4 million looks, one scan per new record


async def test_idle_records_are_still_forgotten_once_the_sweep_is_due(monkeypatch):
    looks = count_looks(monkeypatch)
    clock = Clock()
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    sweep_now_and_then(http, clock=clock)
    for channel in range(300):
        http.get_ratelimit(f"old:{channel}")._last_request -= IDLE
    http.get_ratelimit("busy")
    clock.now += RATE_LIMIT_SWEEP_SECONDS
    http.get_ratelimit("new")  # the sweep is due: the idle records go
    assert set(http._buckets) == {"busy", "new"}
    assert looks[0] == 302
    http.get_ratelimit("newer")  # and the next sweep waits another minute
    assert looks[0] == 302


async def test_the_bot_sweeps_now_and_then(fake_discord, make_bot, monkeypatch):
    looks = count_looks(monkeypatch)
    bot = make_bot()
    for channel in range(300):  # past discord.py's 256, where it would scan on each
        bot.http.get_ratelimit(f"POST /channels/{{channel_id}}/messages:{channel}")
    assert looks[0] == 0
