"""Game clocks across planned shutdowns and crashes: they never run while the bot is down."""

from __future__ import annotations

import random

from bot.lobby_settings import LobbySettings
from bot.store.store import Store

from .helpers import commit, next_action, start

# Every game here starts at t=1000 with 900 seconds: its deadline is t=1900.


async def test_planned_shutdown_freezes_and_resume_restarts(store: Store) -> None:
    record, _ = await start(store, [1, 2], channel=1)
    assert await store.freeze_clocks(now=1_100) == 1
    frozen = await store.get_game(record.id)
    assert (frozen.clock_deadline, frozen.clock_remaining) == (None, 800)
    assert frozen.time_left(now=99_999) == 800

    (resumed,) = await store.resume_clocks(now=5_000)
    assert (resumed.clock_deadline, resumed.clock_remaining) == (5_800, None)
    assert resumed.time_left(now=5_300) == 500


async def test_after_a_crash_the_clock_stopped_at_the_last_heartbeat(store: Store) -> None:
    record, _ = await start(store, [1, 2], channel=1)
    await store.touch_alive(now=1_150)
    await store.touch_alive(now=1_200)
    # Crash: no freeze. The bot comes back at t=9000.
    (resumed,) = await store.resume_clocks(now=9_000)
    assert resumed.id == record.id
    assert resumed.clock_deadline == 9_000 + (1_900 - 1_200)


async def test_a_write_after_the_last_heartbeat_counts_as_alive(store: Store) -> None:
    record, game = await start(store, [1, 2], channel=1)
    await store.touch_alive(now=1_200)
    action = next_action(game, random.Random(1), 0)
    await commit(store, record.id, 0, game, action, now=1_500)
    (resumed,) = await store.resume_clocks(now=9_000)
    assert resumed.clock_deadline == 9_000 + 400


async def test_without_any_heartbeat_the_last_write_counts(store: Store) -> None:
    await start(store, [1, 2], channel=1, now=1_000)
    (resumed,) = await store.resume_clocks(now=3_000)
    assert resumed.clock_deadline == 3_000 + 900


async def test_time_that_ran_out_before_the_crash_stays_out(store: Store) -> None:
    await start(store, [1, 2], channel=1)
    await store.touch_alive(now=2_500)
    (resumed,) = await store.resume_clocks(now=3_000)
    assert resumed.clock_deadline == 3_000
    assert resumed.time_left(now=3_000) == 0


async def test_resume_returns_lobbies_and_leaves_them_alone(store: Store) -> None:
    lobby = await store.create_lobby(1, 7, 70, LobbySettings("basic", "easy", 5), now=1_000)
    started, _ = await start(store, [1, 2], channel=1)
    await store.freeze_clocks(now=1_300)
    resumed = await store.resume_clocks(now=2_000)
    assert [game.id for game in resumed] == [lobby.id, started.id]
    assert resumed[0] == await store.get_game(lobby.id)
    assert resumed[0].clock_deadline is None and resumed[0].clock_remaining is None
    assert resumed == await store.load_active_games()


async def test_repeated_restarts_never_charge_downtime(store: Store) -> None:
    record, _ = await start(store, [1, 2], channel=1)
    now = 1_000.0
    # Each session: the bot runs 50 s (heartbeat at the end), then is down 1000 s.
    for restart in range(5):
        now += 50
        await store.touch_alive(now=now)
        if restart % 2:
            await store.freeze_clocks(now=now)
        now += 1_000
        await store.resume_clocks(now=now)
    assert (await store.get_game(record.id)).time_left(now=now) == 900 - 5 * 50


async def test_ending_a_game_stops_its_clock_for_good(store: Store) -> None:
    record, game = await start(store, [1, 2], channel=1)
    await commit(store, record.id, 0, game, {"type": "clock_expired"}, now=1_300)
    ended = await store.get_game(record.id)
    assert (ended.status, ended.outcome, ended.ended_at) == ("finished", "lost", 1_300)
    assert (ended.clock_deadline, ended.clock_remaining) == (None, 600)
    assert await store.resume_clocks(now=5_000) == []
    assert (await store.get_game(record.id)).clock_remaining == 600
