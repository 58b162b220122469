"""Driving games through the store, and checking stored games against the engine."""

from __future__ import annotations

import random
import sqlite3
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, closing
from typing import Any

import asyncpg

from bot.lobby_settings import LobbySettings
from bot.store.postgres import is_postgresql
from bot.store.records import GameRecord, LoggedAction
from bot.store.store import Store
from engine import Game, full_deck
from engine.cards import ALL_SECTIONS
from engine.playout import choose_action

ALL_CARDS = Counter(full_deck())
ALL_SECTION_PAIRS = Counter((colour.value, int(size)) for colour, size in ALL_SECTIONS)
#: What the database itself raises when it refuses a statement, on either backend.
RAW_ERRORS = (sqlite3.DatabaseError, asyncpg.PostgresError)


@asynccontextmanager
async def holding_the_game(database: str, game_id: int) -> AsyncIterator[None]:
    """Another connection holds what writing the game needs: SQLite's write lock, or
    PostgreSQL's lock on the game's row (reads need neither)."""
    if is_postgresql(database):
        conn = await asyncpg.connect(database)
        try:
            async with conn.transaction():
                await conn.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game_id)
                yield
        finally:
            await conn.close()
        return
    with closing(sqlite3.connect(database, isolation_level=None)) as conn:
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            conn.execute("ROLLBACK")


async def raw_execute(database: str, sql: str) -> None:
    """Run one statement straight on the database, past the store (and commit it)."""
    if is_postgresql(database):
        conn = await asyncpg.connect(database)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()
        return
    with closing(sqlite3.connect(database)) as conn, conn:
        conn.execute(sql)


async def start(
    store: Store,
    players: list[int],
    *,
    channel: int,
    guild: int = 1,
    seed: int = 7,
    rules: str = "basic",
    difficulty: str = "medium",
    length: int = 900,
    now: float = 1_000.0,
) -> tuple[GameRecord, Game]:
    """Open a lobby (first player hosts), seat the others, start; the record and the game."""
    settings = LobbySettings(rules, difficulty, length // 60)
    record = await store.create_lobby(guild, channel, players[0], settings, now=now)
    for player in players[1:]:
        record = await store.add_player(record.id, player, now=now)
    return await start_lobby(store, record, seed=seed, now=now)


async def start_lobby(
    store: Store, lobby: GameRecord, *, seed: int, now: float
) -> tuple[GameRecord, Game]:
    """Start a lobby with its seated players; the record and the game."""
    # The start player is chosen here, not drawn by Game.new: a drawn one takes a number
    # from the game's generator, which a replay given the start player would not take.
    start_player = random.Random(seed).choice(lobby.players)
    game = Game.new(list(lobby.players), rules=lobby.rules, seed=seed, start_player=start_player)
    record = await store.start_game(
        lobby.id,
        seed=seed,
        start_player=start_player,
        state=game.save(),
        deadline=now + lobby.length_seconds,
        now=now,
    )
    return record, game


async def commit(
    store: Store, game_id: int, version: int, game: Game, action: dict[str, Any], *, now: float
) -> int:
    """Apply `action` to `game` and store it as the bot would; the new version."""
    events = game.apply(action)
    return await store.commit_action(
        game_id,
        version,
        state=game.save(),
        actor=action.get("player"),
        action=action,
        events=[event.to_dict() for event in events],
        outcome=game.outcome.value if game.is_over else None,
        removed_player=action["player"] if action["type"] == "remove_player" else None,
        now=now,
    )


def next_action(game: Game, rng: random.Random, version: int, limit: int = 120) -> dict[str, Any]:
    """A playout action, with the clock running out after `limit` actions."""
    if version >= limit:
        return {"type": "clock_expired"}
    return choose_action(game.view_for(game.active_player), rng)


def replay(record: GameRecord, log: list[LoggedAction]) -> Game:
    """Rebuild a started game from its seed, start player and log, checking each event list."""
    game = Game.new(
        list(record.starting_players),
        rules=record.rules,
        seed=record.seed,
        start_player=record.start_player,
    )
    for entry in log:
        events = [event.to_dict() for event in game.apply(entry.action)]
        assert events == entry.events, f"game {record.id} v{entry.version}: events differ"
    return game


def assert_components(state: dict[str, Any]) -> None:
    """All 48 cards and 12 sections are somewhere, each exactly once."""
    cards = state["deck"] + state["discard"] + state["sequence"]
    cards += [card for hand in state["hands"] for card in hand]
    assert Counter(cards) == ALL_CARDS and len(cards) == 48
    sections = [tuple(section) for section in state["depot"] + state["rocket"]]
    assert Counter(sections) == ALL_SECTION_PAIRS and len(sections) == 12


def assert_consistent(record: GameRecord, log: list[LoggedAction]) -> None:
    """The log has versions 1..version and replays to exactly the stored state."""
    assert [entry.version for entry in log] == list(range(1, record.version + 1))
    if record.state is None:
        assert record.status in ("lobby", "abandoned") and not log
        return
    assert_components(record.state)
    assert replay(record, log).save() == record.state
