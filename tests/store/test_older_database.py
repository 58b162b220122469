"""A database written by the bot before the game night (schema 7, tests/store/data) upgrades
in place with nothing lost, and its games count in profiles, history and replays."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import migrations
from bot.store.store import Store
from bot.views import history
from engine import Game

#: Written by the bot at commit 5b87eb3 (tests/store/data/README.md says how): three games
#: played to their end in server 77 (one with an AI crewmate), a lobby, the server's
#: settings and a player's locale.
OLDER = Path(__file__).parent / "data" / "schema7.sqlite3"


def rows(path: Path, query: str) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        return conn.execute(query).fetchall()


async def test_a_schema_7_database_upgrades_in_place_with_nothing_lost(tmp_path: Path) -> None:
    path = tmp_path / "apophis.sqlite3"
    shutil.copy(OLDER, path)
    before = {
        table: rows(path, f"SELECT * FROM {table} ORDER BY 1, 2")
        for table in ("games", "players", "actions", "results", "guild_settings")
    }
    assert rows(path, "PRAGMA user_version") == [(7,)]
    store = await Store.open(str(path))
    try:
        (lobby,) = await store.load_active_games()
        assert (lobby.id, lobby.status, lobby.players) == (4, "lobby", (11, 12))
        settings = await store.get_guild_settings(77)
        assert (settings.default_difficulty, settings.turn_pings, settings.language) == (
            "hard",
            False,
            "fr",
        )
        assert await store.get_user_locale(11) == "fr"
        # The older games are in the history, each replays to its stored result through
        # the engine, and their launches count in the profiles (backfilled from the logs).
        ended = await store.recent_games(77, 10)
        assert [game.id for game in ended] == [3, 2, 1]
        for game in ended:
            played = history.replay(game, await store.game_log(game.id), "en")
            assert len(played.moves) == len(await store.game_log(game.id)) + 1
        launches = 0  # those people started (a crewmate's count for nobody)
        for game in ended:
            for entry in await store.game_log(game.id):
                launches += sum(
                    e["kind"] == "launch_started" and e["player"] > 0 for e in entry.events
                )
        profiles = [await store.profile(77, user) for user in (11, 12, 13, 14, 15, 16)]
        assert sum(t.games for p in profiles for t in p.tallies) == 3 + 1 + 4  # people a game
        assert launches and sum(t.launches for p in profiles for t in p.tallies) == launches
        crewed = [t for t in profiles[0].tallies if t.with_crewmates]
        assert [(t.rules, t.games) for t in crewed] == [("advanced", 1)]
    finally:
        await store.close()
    assert rows(path, "PRAGMA user_version") == [(len(migrations.load()),)]
    # Every row is kept, with its values (new columns come after the old ones).
    for table, old in before.items():
        new = rows(path, f"SELECT * FROM {table} ORDER BY 1, 2")
        assert [row[: len(old[0])] for row in new] == old, table
    states = rows(path, "SELECT state FROM games WHERE state IS NOT NULL")
    assert all(Game.restore(json.loads(state)).is_over for (state,) in states)
