"""Each person's win streaks and firsts on a server: kept in the transaction that ends a
game (bot.store.tallies), read back for profiles and for the final board of the game that
earned them, as transactions (bot.store.transactions) for both backends.

A streak counts a person's games with a result on one server (every DM and group DM
together, as their profile) in the order they ended, all-human teams' and teams with
crewmates' apart, as the leaderboards rank them: a win adds one; any other result (a
loss, or a win they left before the end) ends it; an abandoned game leaves it as it was.
Each first (`FIRSTS`) is earned once by a person on a server, with the first game they
won that earns it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot.store.records import FIRSTS, First, Streak
from bot.store.transactions import Transaction, count, rows


def add_to_totals(table: str, guild_id: int, user_id: int, won: bool) -> Transaction[None]:
    """A game with a result added to a person's totals on its server (`table`: all-human
    games' or those with crewmates'): their games, wins and streak."""
    after = f"CASE WHEN excluded.wins = 1 THEN {table}.streak + 1 ELSE 0 END"
    query = (
        f"INSERT INTO {table} (guild_id, user_id, games, wins, streak, best_streak) "
        "VALUES (?, ?, 1, ?, ?, ?) "
        f"ON CONFLICT (guild_id, user_id) DO UPDATE SET games = {table}.games + 1, "
        f"wins = {table}.wins + excluded.wins, streak = {after}, "
        f"best_streak = {{greatest}}({table}.best_streak, {after})"
    )
    yield count(query, guild_id, user_id, *(int(won),) * 3)


def earned(
    rules: str, difficulty: str, crewmates: int, seconds: float, length: float, on_target: bool
) -> tuple[str, ...]:
    """The firsts a won game earns (each of its winners keeps those they had not yet):
    `on_target` when every launch of the game hit Apophis (`FIRSTS`)."""
    met = {
        "win": True,
        "hard": difficulty == "hard",
        "people": crewmates == 0,
        "advanced": rules == "advanced",
        "on_target": on_target,
        "fast": seconds < length / 2,
    }
    return tuple(kind for kind in FIRSTS if met[kind])


def record_firsts(game_id: int, firsts: Sequence[tuple[int, int, str]]) -> Transaction[None]:
    """The firsts earned with a game that has just ended, (server, person, first) each,
    kept for those who had not earned them before (in the transaction that ends it)."""
    if not firsts:
        return
    values = ", ".join("(?, ?, ?, ?)" for _ in firsts)
    query = (
        f"INSERT INTO player_firsts (guild_id, user_id, kind, game_id) VALUES {values} "
        "ON CONFLICT (guild_id, user_id, kind) DO NOTHING"
    )
    yield count(query, *(value for first in firsts for value in (*first, game_id)))


def game_firsts(game_id: int) -> Transaction[list[tuple[int, str]]]:
    """The firsts earned with a game: (person, first) each, by person, then in the order
    of `FIRSTS`."""
    found = yield rows("SELECT user_id, kind FROM player_firsts WHERE game_id = ?", game_id)
    return sorted([(user, kind) for user, kind in found], key=lambda f: (f[0], FIRSTS.index(f[1])))


def profile_extras(
    guild_id: int, user_id: int
) -> Transaction[tuple[Streak, Streak, tuple[First, ...]]]:
    """A person's streaks on a server (all-human teams', with crewmates') and their firsts."""
    query = (
        "SELECT 0, streak, best_streak FROM player_totals WHERE guild_id = ? AND user_id = ? "
        "UNION ALL "
        "SELECT 1, streak, best_streak FROM crew_totals WHERE guild_id = ? AND user_id = ?"
    )
    found = yield rows(query, guild_id, user_id, guild_id, user_id)
    streaks = {bool(crew): Streak(current, best) for crew, current, best in found}
    query = "SELECT kind, game_id FROM player_firsts WHERE guild_id = ? AND user_id = ?"
    firsts = in_order((yield rows(query, guild_id, user_id)))
    return streaks.get(False, Streak()), streaks.get(True, Streak()), firsts


def conversation_firsts(channel_id: int, user_id: int) -> Transaction[tuple[First, ...]]:
    """The firsts a person earned (among every DM's and group DM's) in one of them."""
    query = (
        "SELECT f.kind, f.game_id FROM player_firsts AS f {join} games AS g ON g.id = f.game_id "
        "WHERE f.guild_id = 0 AND f.user_id = ? AND g.channel_id = ?"
    )
    return in_order((yield rows(query, user_id, channel_id)))


def in_order(found: Iterable[Sequence[Any]]) -> tuple[First, ...]:
    """(first, game) rows as a profile lists them, in the order of `FIRSTS`."""
    return tuple(sorted((First(kind, game) for kind, game in found), key=_place))


def _place(first: First) -> int:
    return FIRSTS.index(first.kind)


def streaks(played: Iterable[tuple[bool, bool]]) -> tuple[Streak, Streak]:
    """The streaks (all-human teams', with crewmates') of a person's games with a result,
    oldest first: (with crewmates, won) each."""
    runs = {False: Streak(), True: Streak()}
    for crew, won in played:
        current = runs[crew].current + 1 if won else 0
        runs[crew] = Streak(current, max(runs[crew].best, current))
    return runs[False], runs[True]
