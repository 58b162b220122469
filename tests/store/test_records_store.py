"""Profiles and leaderboards in the store, on SQLite and PostgreSQL: each person's tallies,
added to as each game ends or filled by migration 0009 from the stored logs, alike."""

from __future__ import annotations

import random
import re
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import asyncpg
import pytest

import migrations
from bot.store.postgres import is_postgresql
from bot.store.records import First, PlayerTally, Profile, Streak
from bot.store.sqlite import _migrate, _statements
from bot.store.store import Store
from bot.store.tallies import wilson_lower_bound
from engine import Game
from engine import events as ev
from tests.engine.helpers import table as position

from .helpers import commit, next_action, start
from .test_migrations import SEED

ALL_SUITS = ["2C", "2H", "2D", "2S"]
#: The firsts of a first win at medium, all-human, basic rules, in under half the time, by
#: a launch that hit (as `Games.win` wins).
FIRST_WIN = ("win", "people", "on_target", "fast")
ANN, BOB, CID, DEE, EVE = 1, 2, 3, 4, 5
MODERATOR = 99
STARTED = 1_000.0


class Games:
    """Games played to their end through the store, each in a channel of its own."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.channel = 0

    async def open(self, players: list[int], **options: Any) -> tuple[int, Game]:
        self.channel += 1
        record, game = await start(self.store, players, channel=self.channel, **options)
        return record.id, game

    async def win(
        self, players: list[int], seconds: float = 300.0, left: int | None = None, **options: Any
    ) -> int:
        """The first player's rocket destroys Apophis `seconds` in (after `left` left)."""
        game_id, _ = await self.open(players, **options)
        game = position(
            players=tuple(players),
            rules=options.get("rules", "basic"),
            hands=[ALL_SUITS, *([] for _ in players[1:])],
            rocket=[("red", 3), ("yellow", 1)],
            damage=2,
            dice=[6, 6, 6],  # (the advanced rules' launch roll first)
        )
        version, began = 0, options.get("now", STARTED)
        if left is not None:
            leave = {"type": "remove_player", "player": left}
            version = await commit(self.store, game_id, version, game, leave, now=began)
        launch = {"type": "launch", "player": players[0], "cards": ALL_SUITS}
        await commit(self.store, game_id, version, game, launch, now=began + seconds)
        return game_id

    async def lose(self, players: list[int], **options: Any) -> int:
        """The clock runs out before anything is played."""
        game_id, game = await self.open(players, **options)
        ran_out = options.get("now", STARTED) + 900
        await commit(self.store, game_id, 0, game, {"type": "clock_expired"}, now=ran_out)
        return game_id


def tally(rules: str = "basic", crew: bool = False, **counts: int) -> PlayerTally:
    numbers = {"games": 0, "wins": 0, "abandoned": 0, "launches": 0, "hits": 0, "damage": 0}
    return PlayerTally(rules, "medium", crew, **{**numbers, **counts})


async def test_a_profile_counts_games_wins_and_launches_on_this_server_only(
    store: Store, database: str
):
    games = Games(store)
    # Ann's rocket hits but does no damage: a moderator skips her turn while her damage
    # reroll waits, so the launch she started ends in the moderator's action.
    game_id, _ = await games.open([ANN, BOB], rules="advanced")
    game = position(
        players=(ANN, BOB),
        rules="advanced",
        hands=[ALL_SUITS, ["3C"]],
        rocket=[("green", 2), ("red", 3), ("yellow", 2), ("blue", 1)],
        dice=[3, 6, 1],
    )
    launch = {"type": "launch", "player": ANN, "cards": ALL_SUITS}
    version = await commit(store, game_id, 0, game, launch, now=STARTED)
    skipped = game.skip_turn()
    assert any(isinstance(e, ev.LaunchEnded) and e.hit for e in skipped)
    version = await store.commit_action(
        game_id,
        version,
        state=game.save(),
        actor=MODERATOR,
        action={"type": "skip_turn"},
        events=[e.to_dict() for e in skipped],
        now=STARTED + 10,
    )
    await commit(store, game_id, version, game, {"type": "clock_expired"}, now=STARTED + 900)
    # A win Cid left before the end; a faster one with a crewmate; a game ended unplayed
    # (each game begins once the one before has ended).
    fastest = await games.win([ANN, BOB, CID], seconds=200.0, left=CID, now=STARTED + 1e3)
    await games.win([ANN, BOB], seconds=400.0, now=STARTED + 2e3)
    with_crewmate = await games.win([ANN, -1], seconds=100.0, now=STARTED + 3e3)
    ended, game = await games.open([ANN, BOB], now=STARTED + 4e3)
    await commit(store, ended, 0, game, {"type": "end", "reason": "host"}, now=STARTED + 4050)
    await games.win([ANN], guild=2, seconds=50.0, now=STARTED + 5e3)  # another server

    profile = await store.profile(1, ANN)
    assert profile.tallies == (
        tally(games=2, wins=2, abandoned=1, launches=2, hits=2, damage=2),
        tally("advanced", games=1, launches=1, hits=1),
        tally(crew=True, games=1, wins=1, launches=1, hits=1, damage=1),
    )
    assert (profile.fastest_win.game_id, profile.fastest_win.duration_seconds) == (fastest, 200)
    assert profile.fastest_win_with_crewmates.game_id == with_crewmate
    bobs = await store.profile(1, BOB)
    assert bobs.tallies[:2] == (tally(games=2, wins=2, abandoned=1), tally("advanced", games=1))
    assert (bobs.fastest_win.game_id, bobs.fastest_win_with_crewmates) == (fastest, None)
    cids = await store.profile(1, CID)  # left before the win: a game, not a win
    assert (cids.tallies, cids.fastest_win) == ((tally(games=1),), None)
    assert await store.profile(2, BOB) == Profile(BOB, (), None, None)
    assert await store.profile(1, -1) == Profile(-1, (), None, None)  # crewmates have none
    # A loss, then two wins in all-human teams (the abandoned game leaves the streak be);
    # one with a crewmate, apart. Cid left the win: a game that was not his win.
    assert (profile.streak, profile.streak_with_crewmates) == (Streak(2, 2), Streak(1, 1))
    assert (bobs.streak, cids.streak) == (Streak(2, 2), Streak(0, 0))
    assert profile.firsts == tuple(First(kind, fastest) for kind in FIRST_WIN)
    assert bobs.firsts == profile.firsts and cids.firsts == ()
    elsewhere = tally(games=1, wins=1, launches=1, hits=1, damage=1)
    assert (await store.profile(2, ANN)).tallies == (elsewhere,)
    await backfill_again(database)  # the migration reads the logs alike
    assert await store.profile(1, ANN) == profile


async def test_the_leaderboard_ranks_by_the_lower_bound_of_the_win_rate(store: Store):
    games = Games(store)
    for won, lost, player in ((40, 10, ANN), (1, 0, BOB), (5, 0, CID), (3, 1, DEE)):
        for _ in range(won):
            await games.win([player])
        for _ in range(lost):
            await games.lose([player])
    for _ in range(6):
        await games.win([EVE, -1])  # with a crewmate: ranked apart
        await games.win([DEE], guild=2)  # another server's games never count

    board = await store.leaderboard(1)
    assert [(p.user_id, p.games, p.wins) for p in board.players] == [(ANN, 50, 40), (CID, 5, 5)]
    assert board.players[0].score == pytest.approx(wilson_lower_bound(40, 50))
    assert [(p.user_id, p.games, p.wins) for p in board.players_with_crewmates] == [(EVE, 6, 6)]
    other = await store.leaderboard(2)
    assert [(p.user_id, p.games, p.wins) for p in other.players] == [(DEE, 6, 6)]
    assert (await store.leaderboard(3)).players == ()


def test_a_few_lucky_games_rank_below_many_good_ones():
    assert wilson_lower_bound(1, 1) == pytest.approx(0.2065, abs=1e-4)
    assert wilson_lower_bound(5, 5) == pytest.approx(0.5655, abs=1e-4)
    assert wilson_lower_bound(40, 50) == pytest.approx(0.6697, abs=1e-4)
    assert wilson_lower_bound(0, 0) == 0.0
    assert wilson_lower_bound(0, 9) < wilson_lower_bound(1, 9) < wilson_lower_bound(9, 9) < 1


async def test_the_fastest_wins_are_all_human_this_servers_and_per_difficulty(store: Store):
    games = Games(store)
    medium = [await games.win([ANN, BOB], seconds=s) for s in (300.0, 200.0, 250.0)]
    advanced = await games.win([CID, DEE, BOB], seconds=150.0, left=DEE, rules="advanced")
    await games.win([ANN, BOB], seconds=400.0)  # fourth fastest medium: not shown
    await games.win([ANN, -1], seconds=100.0)  # with a crewmate
    await games.win([ANN], seconds=10.0, difficulty="custom", length=600)  # not comparable
    elsewhere = await games.win([ANN], seconds=5.0, guild=2)  # another server
    await games.lose([ANN, BOB], difficulty="hard", length=480)
    hard = await games.win([EVE], seconds=420.0, difficulty="hard", length=480)

    board = await store.leaderboard(1)
    shown = [(w.win.game_id, w.win.difficulty, w.team) for w in board.fastest_wins]
    assert shown == [
        (advanced, "medium", (CID, BOB)),  # Dee left before the end
        (medium[1], "medium", (ANN, BOB)),
        (medium[2], "medium", (ANN, BOB)),
        (hard, "hard", (EVE,)),
    ]
    assert board.fastest_wins[0].win.rules == "advanced"
    assert [w.win.game_id for w in (await store.leaderboard(2)).fastest_wins] == [elsewhere]


async def test_games_with_crewmates_count_on_the_leaderboard_apart(store: Store):
    games = Games(store)
    people = await games.win([ANN, BOB], seconds=300.0)
    crews = [await games.win([ANN, -1], seconds=s) for s in (200.0, 100.0, 150.0, 250.0)]
    mixed = await games.win([CID, BOB, -2], seconds=120.0, left=BOB, difficulty="hard", length=480)
    for _ in range(4):
        await games.lose([CID, -1])
    await games.win([DEE, -1], seconds=50.0, guild=2)  # another server's

    board = await store.leaderboard(1)
    assert [w.win.game_id for w in board.fastest_wins] == [people]
    shown = [(w.win.game_id, w.win.difficulty, w.team) for w in board.fastest_wins_with_crewmates]
    assert shown == [
        (crews[1], "medium", (ANN, -1)),
        (crews[2], "medium", (ANN, -1)),
        (crews[0], "medium", (ANN, -1)),
        (mixed, "hard", (CID, -2)),  # Bob left before the end
    ]
    ranked = [(p.user_id, p.games, p.wins) for p in board.players_with_crewmates]
    assert ranked == [(CID, 5, 1)]  # Ann's 4 games with a crewmate are too few
    assert board.players == ()
    other = await store.leaderboard(2)
    assert [w.team for w in other.fastest_wins_with_crewmates] == [(DEE, -1)]
    assert other.fastest_wins == other.players_with_crewmates == ()


async def play_random_games(store: Store, count: int) -> None:
    """Whole games by the playout policy, both rule sets, some with a crewmate or a
    player who leaves, on two servers; the clock runs out after 150 actions."""
    rng = random.Random(26)
    games = Games(store)
    for n in range(count):
        crewmates = [-1] if n % 5 == 0 else []
        players = [ANN, BOB, CID, DEE][: 1 + n % (4 - len(crewmates))] + crewmates
        rules = ("basic", "advanced")[n % 2]
        began = STARTED + 1_000 * n  # each game ends before the next begins, as they are kept
        game_id, game = await games.open(players, rules=rules, guild=1 + n % 2, seed=n, now=began)
        version = 0
        while not game.is_over:
            if version == 20 and n % 7 == 3 and len(game.players) > 1:
                action = {"type": "remove_player", "player": game.players[-1]}
            else:
                action = next_action(game, rng, version, limit=150)
            version = await commit(store, game_id, version, game, action, now=began + version)


async def rows_of(database: str, query: str) -> list[tuple]:
    if is_postgresql(database):
        conn = await asyncpg.connect(database)
        try:
            return [tuple(row) for row in await conn.fetch(query)]
        finally:
            await conn.close()
    with closing(sqlite3.connect(database)) as conn:
        return conn.execute(query).fetchall()


async def backfill_again(database: str) -> None:
    """Empty the records' tables and run the statements of migrations 0009, 0015 and 0019
    that fill them (a temporary table of theirs included)."""
    dialect = "postgresql" if is_postgresql(database) else "sqlite"
    names = ("records", "crew_records", "firsts")
    filling = [m for m in migrations.load(dialect) if m.name in names]
    statements = [
        "DELETE FROM player_firsts;",
        "DELETE FROM crew_totals;",
        "DELETE FROM player_totals;",
        "DELETE FROM player_tallies;",
        *(
            s
            for migration in filling
            for s in _statements(migration.sql)
            if not re.search(r"\b(CREATE|ALTER)\b(?!\s+TEMPORARY)", s)
        ),
    ]
    if is_postgresql(database):
        conn = await asyncpg.connect(database)
        try:
            async with conn.transaction():
                for statement in statements:
                    await conn.execute(statement)
        finally:
            await conn.close()
        return
    with closing(sqlite3.connect(database)) as conn, conn:
        for statement in statements:
            conn.execute(statement)


@pytest.mark.slow
async def test_the_migration_fills_what_the_games_recorded_as_they_ended(
    store: Store, database: str
):
    await play_random_games(store, 40)
    games = Games(store)  # and wins: faster, slower, as fast but later, with a crewmate
    for n, seconds in enumerate((300.0, 200.0, 200.0, 400.0)):
        await games.win([ANN, BOB], seconds=seconds, now=STARTED + 100_000 + 1_000 * n)
    later = STARTED + 200_000
    await games.win([ANN, -1], seconds=100.0, now=later)
    await games.win([BOB, CID, DEE], seconds=250.0, left=DEE, rules="advanced", now=later + 1e3)
    await games.win([CID], seconds=50.0, guild=2, now=later + 2e3)
    tallies = "SELECT * FROM player_tallies ORDER BY guild_id, user_id, rules, difficulty, 5"
    totals = "SELECT * FROM player_totals ORDER BY guild_id, user_id"
    crews = "SELECT * FROM crew_totals ORDER BY guild_id, user_id"
    firsts = "SELECT * FROM player_firsts ORDER BY guild_id, user_id, kind"
    queries = (tallies, totals, crews, firsts)
    live = tuple([await rows_of(database, query) for query in queries])
    games, wins, abandoned, launches, hits, damage = (
        sum(r[i] for r in live[0]) for i in range(5, 11)
    )
    (seats,) = await rows_of(database, "SELECT COUNT(*) FROM players WHERE user_id > 0")
    assert games + abandoned == seats[0]  # each person's part in every game, once
    assert launches > hits > damage > 0 and wins > 0
    assert sum(1 for row in live[0] if row[11] is not None) > 1  # fastest wins

    assert live[2]  # games with a crewmate, totalled apart
    assert {row[2] for row in live[3]} == {"win", "people", "advanced", "on_target", "fast"}
    assert any(row[4] > 1 for row in live[1])  # best streaks of several wins
    await backfill_again(database)
    again = tuple([await rows_of(database, query) for query in queries])
    assert again == live


async def test_games_stored_under_every_earlier_schema_have_profiles(tmp_path: Path):
    path = tmp_path / "db.sqlite3"
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        known = migrations.load()
        for migration in known:
            _migrate(conn, known[: migration.version])
            conn.executescript(SEED[migration.version])
    store = await Store.open(path)
    try:
        profile = await store.profile(10, 8)  # game 2, won before 0009
        assert profile.tallies == (PlayerTally("advanced", "hard", False, 1, 1, 0, 0, 0, 0),)
        assert profile.fastest_win.game_id == 2
        (crewed,) = (await store.profile(10, 7)).tallies  # game 3, with a crewmate
        assert (crewed.with_crewmates, crewed.wins) == (True, 1)
        assert [p.user_id for p in (await store.leaderboard(10)).players] == []
        board = await store.leaderboard(10)
        assert [w.win.game_id for w in board.fastest_wins] == [2]
        assert [w.win.game_id for w in board.fastest_wins_with_crewmates] == [3]
        crews = "SELECT guild_id, user_id, games, wins FROM crew_totals ORDER BY guild_id"
        with closing(sqlite3.connect(path)) as conn:  # 0015 filled them from the tallies
            assert conn.execute(crews).fetchall() == [(10, 7, 1, 1), (11, 7, 2, 1)]
        assert (await store.profile(11, 7)).tallies[0].launches == 3  # written under 0009
        # 0019 found game 4's firsts (hard, in 200 s of 480, no launch short) and streaks.
        kept = await store.profile(11, 9)
        assert kept.firsts == tuple(
            First(kind, 4) for kind in ("win", "hard", "people", "on_target", "fast")
        )
        assert (kept.streak, (await store.profile(10, 8)).streak) == (Streak(1, 1), Streak(1, 1))
    finally:
        await store.close()
