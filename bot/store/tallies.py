"""The records a server keeps of its people and games: each game's result and each
person's tallies (added in the transaction that ends a game), statistics, profiles and
leaderboards, as transactions (bot.store.transactions) for both backends."""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Iterable, Sequence
from typing import Any

import orjson

from bot.lobby_settings import DIFFICULTIES, RULES
from bot.store import firsts
from bot.store.records import (
    FASTEST_PER_DIFFICULTY,
    RANKED_MIN_GAMES,
    RANKED_PLAYERS,
    WINS,
    Leaderboard,
    PlayerTally,
    Profile,
    Ranked,
    Stats,
    Tally,
    TeamWin,
    Win,
)
from bot.store.transactions import Transaction, count, rows
from engine import DIFFICULTY_MINUTES, Outcome
from engine.events import ApophisDamaged, LaunchEnded, LaunchStarted


def stats(guild_id: int) -> Transaction[Stats]:
    query = (
        f"SELECT rules, difficulty, COUNT(*), COUNT(*) FILTER (WHERE outcome IN {WINS}), "
        "COUNT(*) FILTER (WHERE outcome = 'lost'), COUNT(*) FILTER (WHERE outcome = 'abandoned'), "
        "crewmates > 0 AS crew FROM results WHERE guild_id = ? "
        "GROUP BY rules, difficulty, crew ORDER BY rules, difficulty, crew"
    )
    tallies = tuple(
        Tally(rules, difficulty, games, wins, losses, abandoned, bool(crew))
        for rules, difficulty, games, wins, losses, abandoned, crew in (yield rows(query, guild_id))
    )
    query = (  # the fastest wins are all-human teams'
        "SELECT game_id, rules, difficulty, players, outcome, duration_seconds, ended_at "
        f"FROM results WHERE guild_id = ? AND outcome IN {WINS} AND crewmates = 0 "
        "ORDER BY duration_seconds, ended_at, game_id LIMIT 5"
    )
    wins = tuple(Win(*row) for row in (yield rows(query, guild_id)))
    return Stats(tallies, wins)


# ----------------------------------------------------- profiles and leaderboards

#: The logged events that make a person's launch figures.
_LAUNCHED, _ENDED, _DAMAGED = LaunchStarted.kind, LaunchEnded.kind, ApophisDamaged.kind
#: Where a person's totals on a server are kept: all-human games', and games with crewmates'.
_TOTALS = ("player_totals", "crew_totals")
#: The normal quantile of a two-sided 95% interval.
_Z95 = 1.96


def launch_figures(logged: Iterable[Sequence[dict[str, Any]]]) -> dict[Any, tuple[int, ...]]:
    """(launches, hits, damage) by player, from a game's logged events, oldest first.

    A launch's checks and damage belong to the launch started last, and so to whoever
    started it, whichever action (a reroll, a skip) finished it; 0009_records.sql reads
    the games stored before it the same way.
    """
    figures: dict[Any, list[int]] = {}
    launch: list[int] | None = None
    for events in logged:
        for event in events:
            kind = event["kind"]
            if kind == _LAUNCHED:
                launch = figures.setdefault(event["player"], [0, 0, 0])
                launch[0] += 1
            elif launch is not None and kind == _ENDED:
                launch[1] += bool(event["hit"])
            elif launch is not None and kind == _DAMAGED:
                launch[2] += 1
    return {player: tuple(counts) for player, counts in figures.items()}


def record_result(game_id: int) -> Transaction[None]:
    """A game that has just ended, kept as its server's result (in the transaction that ends
    it), and added to each person's tallies (`record_players`)."""
    query = (
        "INSERT INTO results (game_id, guild_id, channel_id, rules, difficulty, "
        "length_seconds, players, outcome, duration_seconds, time_left_seconds, ended_at, "
        "crewmates) "
        "SELECT id, guild_id, channel_id, rules, difficulty, length_seconds, "
        "(SELECT COUNT(*) FROM players WHERE game_id = games.id AND dealt = 1), outcome, "
        "{greatest}(length_seconds - clock_remaining, 0), clock_remaining, ended_at, "
        # the seats an AI played: crewmates', and people's the autopilot took over
        "(SELECT COUNT(*) FROM players WHERE game_id = games.id "
        "AND (user_id < 0 OR autopiloted = 1)) "
        "FROM games WHERE id = ?"
    )
    yield count(query, game_id)
    yield from record_players(game_id)


def record_players(game_id: int) -> Transaction[None]:
    """A game that has just ended, added to each person's tallies and, for a game with a
    result, to their totals and streaks on its server, all-human or with crewmates, and
    the firsts its winners earned with it (in the transaction that ends it)."""
    logged = yield rows("SELECT events FROM actions WHERE game_id = ? ORDER BY version", game_id)
    figures = launch_figures(orjson.loads(events) for (events,) in logged)
    on_target = all(launches == hits for launches, hits, _ in figures.values())
    query = (  # in the order of their ids: two games ending at once lock rows alike
        "SELECT r.guild_id, r.rules, r.difficulty, r.crewmates, r.outcome, r.duration_seconds, "
        "r.length_seconds, p.user_id, p.left_at IS NULL FROM results AS r JOIN players AS p "
        "ON p.game_id = r.game_id WHERE r.game_id = ? AND p.user_id > 0 ORDER BY p.user_id"
    )
    won_firsts: list[tuple[int, int, str]] = []
    for guild_id, rules, difficulty, crewmates, outcome, seconds, length, user_id, stayed in (
        yield rows(query, game_id)
    ):
        played, won = _counted(outcome, stayed)
        if won:
            kinds = firsts.earned(rules, difficulty, crewmates, seconds, length, on_target)
            won_firsts += [(guild_id, user_id, kind) for kind in kinds]
        # A win strictly faster than the tally's fastest replaces it (the first of equally
        # fast wins stays, as the fastest-wins tables order them).
        query = (
            "INSERT INTO player_tallies (guild_id, user_id, rules, difficulty, with_crewmates, "
            "games, wins, abandoned, launches, hits, damage, fastest_game_id, fastest_seconds) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, user_id, rules, difficulty, with_crewmates) DO UPDATE SET "
            "games = player_tallies.games + excluded.games, "
            "wins = player_tallies.wins + excluded.wins, "
            "abandoned = player_tallies.abandoned + excluded.abandoned, "
            "launches = player_tallies.launches + excluded.launches, "
            "hits = player_tallies.hits + excluded.hits, "
            "damage = player_tallies.damage + excluded.damage, "
            "fastest_game_id = CASE WHEN excluded.fastest_seconds < COALESCE("
            "player_tallies.fastest_seconds, excluded.fastest_seconds + 1) "
            "THEN excluded.fastest_game_id ELSE player_tallies.fastest_game_id END, "
            "fastest_seconds = CASE WHEN excluded.fastest_seconds < COALESCE("
            "player_tallies.fastest_seconds, excluded.fastest_seconds + 1) "
            "THEN excluded.fastest_seconds ELSE player_tallies.fastest_seconds END"
        )
        launches, hits, damage = figures.get(user_id, (0, 0, 0))
        yield count(
            query,
            *(guild_id, user_id, rules, difficulty, int(crewmates > 0), int(played), int(won)),
            *(int(not played), launches, hits, damage),
            *((game_id, seconds) if won else (None, None)),
        )
        if played:
            yield from firsts.add_to_totals(_TOTALS[crewmates > 0], guild_id, user_id, won)
    yield from firsts.record_firsts(game_id, won_firsts)


def _counted(outcome: str, stayed: Any) -> tuple[bool, bool]:
    """Whether an ended game counts as played by a person (it has a result), and as won by
    them (a win, and they were seated to the end)."""
    return outcome != Outcome.ABANDONED, bool(stayed) and outcome in WINS


def _in_order(tallies: Iterable[PlayerTally]) -> tuple[PlayerTally, ...]:
    """A profile's tallies as it shows them: all-human teams first, by rules and difficulty."""
    return tuple(
        sorted(
            tallies,
            key=lambda t: (
                t.with_crewmates,
                RULES.index(t.rules),
                DIFFICULTIES.index(t.difficulty),
            ),
        )
    )


def profile(guild_id: int, user_id: int) -> Transaction[Profile]:
    query = (
        "SELECT rules, difficulty, with_crewmates, games, wins, abandoned, launches, hits, "
        "damage, fastest_game_id FROM player_tallies WHERE guild_id = ? AND user_id = ?"
    )
    found = yield rows(query, guild_id, user_id)
    tallies = _in_order(
        PlayerTally(rules, difficulty, bool(crew), *figures)
        for rules, difficulty, crew, *figures, _ in found
    )
    fastest: dict[bool, Win] = {}
    candidates = [row[9] for row in found if row[9] is not None]
    if candidates:
        query = (  # the fastest of each tally: the fastest of each kind of team comes first
            "SELECT game_id, rules, difficulty, players, outcome, duration_seconds, ended_at, "
            f"crewmates FROM results WHERE game_id IN ({', '.join('?' for _ in candidates)}) "
            "ORDER BY duration_seconds, ended_at, game_id"
        )
        for *win, crewmates in (yield rows(query, *candidates)):
            fastest.setdefault(crewmates > 0, Win(*win))
    if not found:
        return Profile(user_id, (), None, None)
    extras = yield from firsts.profile_extras(guild_id, user_id)
    return Profile(user_id, tallies, fastest.get(False), fastest.get(True), *extras)


def conversation_profile(channel_id: int, user_id: int) -> Transaction[Profile]:
    """A person's record of the games they played in one DM or group DM (stored with no
    server), counted from those games' results and logs as `record_players` counts them
    into the tallies (which add up every DM and group DM together)."""
    query = (
        "SELECT r.game_id, r.rules, r.difficulty, r.players, r.outcome, r.duration_seconds, "
        "r.ended_at, r.crewmates > 0, p.left_at IS NULL FROM games AS g {join} results AS r "
        "ON r.game_id = g.id JOIN players AS p ON p.game_id = g.id "
        "WHERE g.channel_id = ? AND g.guild_id = 0 AND p.user_id = ? ORDER BY g.id"
    )
    found = yield rows(query, channel_id, user_id)
    figures: dict[int, tuple[int, ...]] = {}
    if found:
        query = (
            "SELECT game_id, events FROM actions WHERE game_id IN "
            f"({', '.join('?' for _ in found)}) ORDER BY game_id, version"
        )
        logged = yield rows(query, *(row[0] for row in found))
        for game_id, actions in itertools.groupby(logged, key=lambda row: row[0]):
            events = (orjson.loads(events) for _, events in actions)
            figures[game_id] = launch_figures(events).get(user_id, (0, 0, 0))
    counts: dict[tuple[str, str, bool], list[int]] = {}
    fastest: dict[bool, Win] = {}
    for game_id, rules, difficulty, players, outcome, seconds, ended_at, crew, stayed in found:
        played, won = _counted(outcome, stayed)
        tally = counts.setdefault((rules, difficulty, bool(crew)), [0] * 6)
        launches, hits, damage = figures.get(game_id, (0, 0, 0))
        for i, added in enumerate((played, won, not played, launches, hits, damage)):
            tally[i] += int(added)
        if won:
            win = Win(game_id, rules, difficulty, players, outcome, seconds, ended_at)
            best = fastest.get(bool(crew))
            if best is None or (seconds, ended_at) < (best.duration_seconds, best.ended_at):
                fastest[bool(crew)] = win
    tallies = _in_order(PlayerTally(*kind, *tally) for kind, tally in counts.items())
    if not found:
        return Profile(user_id, (), None, None)
    counted = ((bool(row[7]), _counted(row[4], row[8])) for row in found)
    streaks = firsts.streaks((crew, won) for crew, (played, won) in counted if played)
    earned = yield from firsts.conversation_firsts(channel_id, user_id)
    return Profile(user_id, tallies, fastest.get(False), fastest.get(True), *streaks, earned)


def leaderboard(guild_id: int) -> Transaction[Leaderboard]:
    """A server's fastest wins and best win records, all-human teams' and, apart, those of
    teams with crewmates."""
    people = yield from _fastest_wins(guild_id, crew=False)
    crews = yield from _fastest_wins(guild_id, crew=True)
    ranked = []
    for table in _TOTALS:
        query = f"SELECT user_id, games, wins FROM {table} WHERE guild_id = ? AND games >= ?"
        ranked.append(_best((yield rows(query, guild_id, RANKED_MIN_GAMES))))
    return Leaderboard(people, ranked[0], crews, ranked[1])


def _fastest_wins(guild_id: int, crew: bool) -> Transaction[tuple[TeamWin, ...]]:
    """A server's fastest wins of each difficulty (custom countdowns are not compared), of
    all-human teams or of teams with crewmates, with those seated to the end."""
    wins: list[Win] = []
    for difficulty in DIFFICULTY_MINUTES:
        query = (  # the index of fastest wins holds exactly these rows, in this order
            "SELECT game_id, rules, difficulty, players, outcome, duration_seconds, ended_at "
            f"FROM results WHERE guild_id = ? AND difficulty = ? AND outcome IN {WINS} "
            f"AND crewmates {'>' if crew else '='} 0 ORDER BY duration_seconds, ended_at LIMIT ?"
        )
        found = yield rows(query, guild_id, difficulty, FASTEST_PER_DIFFICULTY)
        wins += [Win(*row) for row in found]
    teams: dict[int, list[int]] = {win.game_id: [] for win in wins}
    if wins:
        query = (
            "SELECT game_id, user_id FROM players WHERE left_at IS NULL "
            f"AND game_id IN ({', '.join('?' for _ in teams)}) ORDER BY game_id, seat"
        )
        for game_id, user_id in (yield rows(query, *teams)):
            teams[game_id].append(user_id)
    return tuple(TeamWin(w, tuple(teams[w.game_id])) for w in wins)


def _best(found: Iterable[Sequence[Any]]) -> tuple[Ranked, ...]:
    """The best `RANKED_PLAYERS` of (person, games, wins) rows, by their win rates' lower
    bounds."""
    ranked = [
        Ranked(user, games, won, wilson_lower_bound(won, games)) for user, games, won in found
    ]
    return tuple(
        heapq.nlargest(RANKED_PLAYERS, ranked, key=lambda r: (r.score, r.wins, -r.user_id))
    )


def wilson_lower_bound(wins: int, games: int) -> float:
    """The lower end of the 95% Wilson score interval of a win rate: a rate sure to be
    at least this, so 5 wins in 5 games (0.57) rank below 40 in 50 (0.67)."""
    if games == 0:
        return 0.0
    rate, z2 = wins / games, _Z95 * _Z95
    spread = _Z95 * math.sqrt(rate * (1 - rate) / games + z2 / (4 * games * games))
    return (rate + z2 / (2 * games) - spread) / (1 + z2 / games)
