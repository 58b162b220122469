"""Profiles and leaderboards on 100,000 stored games: each query's time and plan, on SQLite
and on PostgreSQL.

Run ``.venv/bin/python benchmarks/records_bench.py`` (a few minutes; ``--database sqlite``
for one backend, ``--games N`` for another size). Not a test: it prints figures.

The games are written in bulk (seats, results, tallies and totals; no action logs, which
these reads never touch), shaped like a busy bot: one server holds half the games, twenty
servers a fifth between them, three thousand servers the rest (ten games each, of 100,000);
people are drawn by Zipf's law, so a few play thousands of games; a game in five has a
crewmate (ranked apart). Then the store's own calls are timed (median and slowest of 50,
after a warm-up), and each of their statements is shown with its plan: EXPLAIN QUERY PLAN on
SQLite (which the bot runs without statistics, as here), EXPLAIN ANALYZE on PostgreSQL
(after VACUUM ANALYZE, as autovacuum leaves a live database). Then what ending a game costs
on that database (its log read, each person's tallies added to), and how long migration 0009
takes to fill the tallies of games stored before it from their logs, and migration 0016 their
streaks and firsts (games played by the engine's playout policy, the clock running out after
150 actions).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from contextlib import closing
from pathlib import Path
from typing import Any

import asyncpg
import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import migrations  # noqa: E402
from benchmarks.store_bench import machine  # noqa: E402
from bot.lobby_settings import LobbySettings  # noqa: E402
from bot.store import firsts as first_kinds  # noqa: E402
from bot.store import postgres, transactions  # noqa: E402
from bot.store import sqlite as sqlite_backend  # noqa: E402
from bot.store import tallies as tally_queries  # noqa: E402
from bot.store.records import WINS  # noqa: E402
from bot.store.store import Store  # noqa: E402
from devtools.pgserver import PostgresServer, unavailable_reason  # noqa: E402
from engine import DIFFICULTY_MINUTES, Game  # noqa: E402
from engine.playout import choose_action  # noqa: E402

GUILD, USER = 10**17, 2 * 10**17
#: (servers, share of all games, people who play there)
TIERS = ((1, 0.5, 5_000), (20, 0.2, 300), (3_000, 0.3, 8))
DIFFICULTY_WEIGHTS = {"beginner": 15, "easy": 25, "medium": 35, "hard": 20, "custom": 5}
TIMED_RUNS = 50
#: Actions before the clock runs out, in games played by the playout policy.
CLOCK = 150
#: The columns written, by table, in an order that keeps foreign keys satisfied.
COLUMNS = {
    "games": "id guild_id channel_id host_id rules difficulty length_seconds status seed "
    "start_player version created_at updated_at started_at ended_at clock_remaining outcome",
    "players": "game_id seat user_id joined_at left_at",
    "actions": "game_id version at actor action events",
    "results": "game_id guild_id channel_id rules difficulty length_seconds players outcome "
    "duration_seconds time_left_seconds ended_at crewmates",
    "player_tallies": "guild_id user_id rules difficulty with_crewmates games wins abandoned "
    "launches hits damage fastest_game_id fastest_seconds",
    "player_totals": "guild_id user_id games wins streak best_streak",
    "crew_totals": "guild_id user_id games wins streak best_streak",
    "player_firsts": "guild_id user_id kind game_id",
}
Rows = dict[str, list[tuple[Any, ...]]]


def add_game(rows: Rows, game_id: int, guild: int, seated: list[int], *kind: Any, **ended: Any):
    """A game's row, its seats' and its result's. `kind`: rules, difficulty, length;
    `ended`: outcome, duration, left (who left before the end), version."""
    outcome, duration, left = ended["outcome"], ended["duration"], ended.get("left", ())
    status = "abandoned" if outcome == "abandoned" else "finished"
    started, host, remaining = 1.7e9 + 30 * game_id, seated[0], kind[2] - duration
    times = (started, started + duration, started, started + duration, remaining, outcome)
    game = (game_id, guild, game_id, host, *kind, status, game_id, host, ended.get("version", 0))
    rows["games"].append(game + times)
    for seat, user in enumerate(seated):
        rows["players"].append((game_id, seat, user, started, times[1] if user in left else None))
    crewmates = sum(1 for user in seated if user < 0)
    result = (outcome, duration, remaining, started + duration, crewmates)
    rows["results"].append((game_id, guild, game_id, *kind, len(seated), *result))


def stored_games(total: int, rng: random.Random) -> tuple[Rows, dict[str, int]]:
    """Ended games as rows of every table the reads use, and who and where to read."""
    rows: Rows = {table: [] for table in COLUMNS if table != "actions"}
    plan = []  # each game's server, and how often each of its people plays (cumulated)
    for tier, (servers, share, cohort) in enumerate(TIERS):
        zipf = list(itertools.accumulate(1 / (k + 1) for k in range(cohort)))
        plan += [(GUILD + tier * 10_000 + n % servers, zipf) for n in range(round(total * share))]
    rng.shuffle(plan)
    #: Games by (server, person); finished ones with no crewmate, and those won (key + "won").
    games: Counter[tuple[int, int]] = Counter()
    totals: Counter[tuple[int, ...] | tuple[int, int, str]] = Counter()
    crew: Counter[tuple[int, ...] | tuple[int, int, str]] = Counter()  # with crewmates
    tallies: dict[tuple[int, int, str, str, int], list[Any]] = {}
    difficulties, weights = zip(*DIFFICULTY_WEIGHTS.items(), strict=True)
    for game_id, (guild, zipf) in enumerate(plan[:total], 1):
        people: list[int] = []
        for _ in range(rng.choice((1, 2, 2, 3, 3, 3, 4))):
            k = rng.choices(range(len(zipf)), cum_weights=zipf)[0]
            person = USER + (guild - GUILD) * 10_000 + k
            people += [person] if person not in people else []
        crewmates = [-1] if len(people) < 4 and rng.random() < 0.2 else []
        difficulty = rng.choices(difficulties, weights)[0]
        length = 60 * (DIFFICULTY_MINUTES.get(difficulty) or rng.randint(5, 20))
        roll = rng.random()
        outcome = "abandoned" if roll < 0.1 else rng.choice(WINS) if roll < 0.55 else "lost"
        duration = float(length if outcome == "lost" else round(rng.uniform(0.3, 1) * length))
        left = {person for person in people if rng.random() < 0.05}
        rules = "basic" if rng.random() < 0.7 else "advanced"
        ended = {"outcome": outcome, "duration": duration, "left": left}
        add_game(rows, game_id, guild, people + crewmates, rules, difficulty, length, **ended)
        played = outcome != "abandoned"
        for person in people:
            launches = rng.choice((0, 0, 1, 1, 2, 3))
            hits = rng.randint(0, launches)
            won = person not in left and outcome in WINS
            key = (guild, person, rules, difficulty, len(crewmates))
            tally = tallies.setdefault(key, [0, 0, 0, 0, 0, 0, None, None])
            for i, n in enumerate((played, won, not played, launches, hits, rng.randint(0, hits))):
                tally[i] += n
            if won and (tally[6] is None or duration < tally[7]):
                tally[6:] = game_id, duration
            games[guild, person] += 1
            if played:
                side = crew if crewmates else totals
                side[guild, person] += 1
                side[guild, person, "won"] += won
    rows["player_tallies"] = sorted((*key, *tally) for key, tally in tallies.items())
    people_totals = [(key, n) for key, n in totals.items() if len(key) == 2]
    rows["player_totals"] = sorted((*key, n, totals[(*key, "won")]) for key, n in people_totals)
    crew_totals = [(key, n) for key, n in crew.items() if len(key) == 2]
    rows["crew_totals"] = sorted((*key, n, crew[(*key, "won")]) for key, n in crew_totals)
    per_server = Counter(guild for guild, _ in plan[:total]).most_common()
    (big, big_games), (small, small_games) = per_server[0], per_server[-1]
    regulars = sorted((n, person) for (guild, person), n in games.items() if guild == big)
    facts = {"big": big, "big_games": big_games, "small": small, "small_games": small_games}
    facts["ranked"] = sum(1 for key, n in people_totals if key[0] == big and n >= 5)
    facts["ranked_crew"] = sum(1 for key, n in crew_totals if key[0] == big and n >= 5)
    facts["heaviest_games"], facts["heaviest"] = regulars[-1]
    facts["typical_games"], facts["typical"] = regulars[len(regulars) // 2]
    return streaks_and_firsts(rows), facts


def streaks_and_firsts(rows: Rows) -> Rows:
    """`rows` with each person's streaks (added to their totals' rows) and firsts, from the
    games' rows in the order they ended; a game in three is won with every launch on target."""
    seated: dict[int, list[tuple[int, bool]]] = {}
    for game_id, _, user, _, left_at in rows["players"]:
        seated.setdefault(game_id, []).append((user, left_at is None))
    streaks: dict[tuple[int, int, bool], tuple[int, int]] = {}
    firsts: dict[tuple[int, int, str], int] = {}
    for (
        game_id,
        guild,
        _,
        rules,
        difficulty,
        length,
        _,
        outcome,
        duration,
        _,
        _,
        crewmates,
    ) in sorted(rows["results"], key=lambda result: (result[10], result[0])):
        for user, stayed in seated[game_id] if outcome != "abandoned" else ():
            won = stayed and user > 0 and outcome in WINS
            now, best = streaks.get((guild, user, crewmates > 0), (0, 0))
            streaks[guild, user, crewmates > 0] = (
                (now + 1, max(best, now + 1)) if won else (0, best)
            )
            kinds = first_kinds.earned(
                rules, difficulty, crewmates, duration, length, game_id % 3 == 0
            )
            for kind in kinds if won else ():
                firsts.setdefault((guild, user, kind), game_id)
    for table, crew in (("player_totals", False), ("crew_totals", True)):
        rows[table] = [(*row, *streaks[row[0], row[1], crew]) for row in rows[table]]
    rows["player_firsts"] = sorted((*key, game_id) for key, game_id in firsts.items())
    return rows


def played_games(count: int) -> Rows:
    """Games played by the playout policy with their logs (and no records yet), as rows."""
    rows: Rows = {table: [] for table in ("games", "players", "actions", "results")}
    rng = random.Random(9)
    for game_id in range(1, count + 1):
        people = [USER + k for k in range(1 + game_id % 4)]
        rules = ("basic", "advanced")[game_id % 2]
        game = Game.new(people, rules=rules, seed=game_id, start_player=people[0])
        version = 0
        while (player := game.active_player) is not None:
            action = {"type": "clock_expired"}
            if version < CLOCK:
                action = choose_action(game.view_for(player), rng)
            events = orjson.dumps([event.to_dict() for event in game.apply(action)]).decode()
            version += 1
            logged = (float(version), action.get("player"), orjson.dumps(action).decode(), events)
            rows["actions"].append((game_id, version, *logged))
        if game.outcome is None:
            raise RuntimeError(f"game {game_id} did not end")
        ended = {"outcome": game.outcome.value, "duration": float(version), "version": version}
        add_game(rows, game_id, GUILD, people, rules, "medium", 600, **ended)
    return rows


# ------------------------------------------------------------------ writing


async def write(database: str, rows: Rows) -> None:
    """A fresh database of the bot's schema, then `rows` written in bulk.

    The log's check that each row matches its game's version is lifted while the logs
    are copied (their games are written with their final versions).
    """
    await (await Store.open(database)).close()
    tables = [table for table in COLUMNS if rows.get(table)]
    if database.startswith("postgresql://"):
        conn = await asyncpg.connect(database)
        try:
            await conn.execute("ALTER TABLE actions DISABLE TRIGGER actions_match_game_version")
            for table in tables:
                await conn.copy_records_to_table(
                    table, records=rows[table], columns=COLUMNS[table].split()
                )
            await conn.execute("ALTER TABLE actions ENABLE TRIGGER actions_match_game_version")
            await conn.execute(
                "SELECT setval(pg_get_serial_sequence('games', 'id'), max(id)) FROM games"
            )
            await conn.execute("VACUUM ANALYZE")
        finally:
            await conn.close()
        return
    with closing(sqlite3.connect(database, isolation_level=None)) as conn:
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("BEGIN")
        check = "SELECT sql FROM sqlite_schema WHERE name = 'actions_match_game_version'"
        (trigger,) = conn.execute(check).fetchone()
        conn.execute("DROP TRIGGER actions_match_game_version")
        for table in tables:
            columns = COLUMNS[table].split()
            marks = ", ".join("?" for _ in columns)
            insert = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
            conn.executemany(insert, rows[table])
        conn.execute(trigger)
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the load's, not a timed commit's


# ------------------------------------------------------------------ reading


async def timed(store: Store, method: str, *args: Any) -> tuple[float, float]:
    """Median and slowest milliseconds of a store call, after a warm-up."""
    call = getattr(store, method)
    for _ in range(5):
        await call(*args)
    times = []
    for _ in range(TIMED_RUNS):
        started = time.perf_counter()
        await call(*args)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), max(times)


async def plans(database: str, method: str, *args: Any) -> list[str]:
    """Each statement of a store call, with its plan."""
    lines: list[str] = []
    run = transactions.Run(getattr(tally_queries, method), args)
    query = run.next()
    if database.startswith("postgresql://"):
        conn = await asyncpg.connect(database)
        try:
            while query is not None:
                sql = postgres._sql(query.sql)
                lines.append("  " + " ".join(sql.split()))
                plan = await conn.fetch(f"EXPLAIN (ANALYZE, COSTS OFF) {sql}", *query.args)
                lines += [f"      {row[0]}" for row in plan]
                query = run.next(
                    answer(query, [tuple(r) for r in await conn.fetch(sql, *query.args)])
                )
        finally:
            await conn.close()
        return lines
    with closing(sqlite3.connect(database)) as conn:
        while query is not None:
            sql = sqlite_backend._sql(query.sql)
            lines.append("  " + " ".join(sql.split()))
            plan = conn.execute(f"EXPLAIN QUERY PLAN {sql}", query.args).fetchall()
            lines += [f"      {detail}" for *_, detail in plan]
            query = run.next(answer(query, conn.execute(sql, query.args).fetchall()))
    return lines


def answer(query: transactions.Query, found: list[tuple[Any, ...]]) -> Any:
    """What a read gives its transaction: the first row, or all of them."""
    return (found[0] if found else None) if query.want == "one" else found


async def ending_games(store: Store, facts: dict[str, int], count: int = 20) -> str:
    """Commits in play against commits that end a game, on the loaded database."""
    rng, people = random.Random(5), [facts["heaviest"], facts["typical"], USER - 1]
    playing: list[float] = []
    ending: list[float] = []
    read: list[float] = []
    for n in range(count):
        lobby = await store.create_lobby(
            facts["big"], 10**12 + n, people[0], LobbySettings("basic", "medium", 10)
        )
        for person in people[1:]:
            await store.add_player(lobby.id, person)
        game = Game.new(people, rules="basic", seed=n, start_player=people[0])
        await store.start_game(
            lobby.id, seed=n, start_player=people[0], state=game.save(), deadline=time.time() + 600
        )
        version = 0
        while (player := game.active_player) is not None:
            action: dict[str, Any] = (
                choose_action(game.view_for(player), rng)
                if version < CLOCK
                else {"type": "clock_expired"}
            )
            events = [event.to_dict() for event in game.apply(action)]
            started = time.perf_counter()
            version = await store.commit_action(
                lobby.id,
                version,
                state=game.save(),
                actor=action.get("player"),
                action=action,
                events=events,
                outcome=game.outcome.value if game.outcome is not None else None,
            )
            (ending if game.is_over else playing).append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        await store.game_firsts(lobby.id)  # what its final board tells
        read.append((time.perf_counter() - started) * 1000)
    return (
        f"a commit in play {statistics.median(playing):.2f} ms (median of {len(playing):,}); "
        f"one that ends a game {statistics.median(ending):.2f} ms (median of {count}, "
        f"slowest {max(ending):.2f} ms); its firsts read back {statistics.median(read):.2f} ms"
    )


async def backfill(database: str, name: str) -> float:
    """Seconds a migration (0009 "records", 0016 "firsts") takes to fill the records of the
    stored games, from their logs."""
    dialect = "postgresql" if database.startswith("postgresql://") else "sqlite"
    (migration,) = [m for m in migrations.load(dialect) if m.name == name]
    fills = [
        s
        for s in sqlite_backend._statements(migration.sql)
        if not re.search(r"\b(CREATE|ALTER)\b", s)
    ]
    started = time.perf_counter()
    if dialect == "postgresql":
        conn = await asyncpg.connect(database)
        try:
            async with conn.transaction():
                for statement in fills:
                    await conn.execute(statement)
        finally:
            await conn.close()
    else:
        with closing(sqlite3.connect(database)) as conn, conn:
            for statement in fills:
                conn.execute(statement)
    return time.perf_counter() - started


# ------------------------------------------------------------------ the run


async def bench(
    name: str, database: str, rows: Rows, facts: dict[str, int], logged: tuple[str, Rows]
) -> None:
    started = time.perf_counter()
    await write(database, rows)
    took = time.perf_counter() - started
    print(f"\n=== {name}: {len(rows['games']):,} games written in {took:.0f} s")
    big, f = facts["big"], facts
    cases = (
        (f"profile, the most active person ({f['heaviest_games']:,} games)", big, f["heaviest"]),
        (f"profile, a person of the median ({f['typical_games']:,} games)", big, f["typical"]),
        (
            f"leaderboard, the busiest server ({f['big_games']:,} games, {f['ranked']:,} + "
            f"{f['ranked_crew']:,} ranked)",
            big,
        ),
        (f"leaderboard, a server of {f['small_games']} games", f["small"]),
    )
    store = await Store.open(database)
    try:
        print(f"{'call':<72}{'median':>10}{'slowest':>10}")
        for label, *args in cases:
            median, slowest = await timed(store, label.split(",")[0], *args)
            print(f"{label:<72}{median:>7.2f} ms{slowest:>7.2f} ms")
        print(f"Ending a game: {await ending_games(store, facts)}")
    finally:
        await store.close()
    for label, *args in cases:
        print(f"\n{label}:")
        print("\n".join(await plans(database, label.split(",")[0], *args)))
    url, games = logged
    await write(url, games)
    for number, name in (("0009", "records"), ("0016", "firsts")):
        seconds = await backfill(url, name)
        print(
            f"\nMigration {number}'s fill: {len(games['games']):,} games, "
            f"{len(games['actions']):,} logged actions in {seconds:.2f} s "
            f"({len(games['games']) / seconds:,.0f} games a second)"
        )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--logged-games", type=int, default=2_000, help="games for the fill")
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    args = parser.parse_args()
    print(f"Machine: {machine()}")
    rows, facts = stored_games(args.games, random.Random(26))
    logged = played_games(args.logged_games)
    gc.freeze()  # millions of rows kept: a full collection in a timed call would be ours
    with tempfile.TemporaryDirectory(prefix="records-bench-") as folder:
        if args.database in ("sqlite", "both"):
            logs = f"{folder}/logged.sqlite3"
            await bench("SQLite", f"{folder}/records.sqlite3", rows, facts, (logs, logged))
        if args.database in ("postgresql", "both"):
            reason = unavailable_reason()
            if reason is not None:
                print(f"\nPostgreSQL skipped: {reason}")
                return
            with PostgresServer() as server:
                url, logs = server.create_database(), server.create_database()
                await bench(f"PostgreSQL ({server.bin})", url, rows, facts, (logs, logged))


if __name__ == "__main__":
    asyncio.run(main())
