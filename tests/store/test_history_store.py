"""A server's last ended games, and ended games replayed from their stored log, on both
databases."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.errors import UserError
from bot.lobby_settings import LobbySettings
from bot.store.store import Store
from bot.views import history
from engine import Game, PublicView

from .helpers import commit, next_action, start


async def end(store: Store, players: list[int], *, channel: int, guild: int, now: float) -> int:
    """A game started and ended by its host at `now`; its id."""
    record, game = await start(store, players, channel=channel, guild=guild, now=now)
    await commit(store, record.id, 0, game, {"type": "end", "reason": "host"}, now=now)
    return record.id


async def test_recent_games_are_a_servers_last_ended_games_newest_first(store: Store) -> None:
    ended = [await end(store, [7, 8], channel=10, guild=1, now=1_000.0 + i) for i in range(12)]
    await end(store, [9], channel=20, guild=2, now=5_000.0)  # another server's
    lobby = await store.create_lobby(1, 11, 7, LobbySettings("basic", "medium", 10), now=6_000.0)
    await store.cancel_lobby(lobby.id, now=6_001.0)  # never started: not a game
    await start(store, [7], channel=12, guild=1, now=7_000.0)  # still in play
    recent = await store.recent_games(1, 10)
    assert [record.id for record in recent] == ended[:1:-1]
    assert all(record.status == "abandoned" and record.outcome == "abandoned" for record in recent)
    assert all(record.starting_players == (7, 8) for record in recent)
    assert all(record.state is not None and record.clock_remaining == 900 for record in recent)
    assert [record.id for record in await store.recent_games(1, 2)] == ended[:-3:-1]
    assert await store.recent_games(3, 10) == []


async def test_an_ended_game_replays_from_the_store_move_by_move(store: Store) -> None:
    record, game = await start(store, [1, 2, 3], channel=10, guild=1, seed=11)
    rng, version = random.Random(11), 0
    while not game.is_over:
        action = next_action(game, rng, version, limit=60)
        version = await commit(store, record.id, version, game, action, now=1_000.0 + version)
    record = await store.get_game(record.id)
    played = history.replay(record, await store.game_log(record.id), "en")
    assert played.steps == record.version == version
    assert all(type(move.view) is PublicView for move in played.moves)
    assert played.moves[-1].view == Game.restore(record.state).public_view()
    assert played.moves[0].view.turn == 1 and not played.moves[0].events
    with pytest.raises(UserError) as refused:  # a log that no longer ends as stored
        history.replay(dataclasses.replace(record, outcome="destroyed"), [], "en")
    assert refused.value.key == "replay.error.unreplayable"
