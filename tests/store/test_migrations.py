"""The numbered SQL migrations: found, applied in order with data present, shipped in the wheel."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import migrations
from bot.store.records import MigrationFailed
from bot.store.sqlite import _migrate, _statements
from bot.store.store import Store

ROOT = Path(__file__).resolve().parents[2]
MIGRATIONS = migrations.load()

# Rows to put in the database at each schema version before the next migration runs:
# a lobby, a started game with an action, its seats; then settings; then a result;
# then a game won with a crewmate.
# Every migration needs an entry here (test_every_migration_has_seed_data).
SEED = {
    1: """
        INSERT INTO games (id, guild_id, channel_id, host_id, rules, difficulty, length_seconds,
                           created_at, updated_at)
            VALUES (1, 10, 100, 7, 'basic', 'easy', 600, 1.0, 1.0);
        INSERT INTO players (game_id, seat, user_id, joined_at) VALUES (1, 0, 7, 1.0);
        INSERT INTO games (id, guild_id, channel_id, host_id, rules, difficulty, length_seconds,
                           status, seed, start_player, state, version, clock_deadline,
                           created_at, updated_at, started_at)
            VALUES (2, 10, 200, 8, 'advanced', 'hard', 900, 'active', 5, 9, '{"format": 1}', 1,
                    1901.0, 1.0, 2.0, 1.0);
        INSERT INTO players (game_id, seat, user_id, joined_at)
            VALUES (2, 0, 8, 1.0), (2, 1, 9, 1.0);
        INSERT INTO actions (game_id, version, at, actor, action, events)
            VALUES (2, 1, 2.0, 9, '{"type": "draw", "player": 9}', '[]');
        INSERT INTO meta (key, value) VALUES ('last_alive', 3.0);
    """,
    2: """
        INSERT INTO guild_settings (guild_id, moderator_role_id, language) VALUES (10, 55, 'de');
        INSERT INTO users (user_id, dm_channel_id) VALUES (8, 800);
    """,
    3: """
        INSERT INTO results (game_id, guild_id, channel_id, rules, difficulty, length_seconds,
                             players, outcome, duration_seconds, time_left_seconds, ended_at)
            VALUES (2, 10, 200, 'advanced', 'hard', 900, 2, 'destroyed', 300.0, 600.0, 301.0);
    """,
    4: """
        UPDATE guild_settings SET turn_pings = 0 WHERE guild_id = 10;
        INSERT INTO hand_dms (game_id, user_id, message_id) VALUES (2, 9, 900);
    """,
    5: """
        UPDATE guild_settings SET pictures = 0 WHERE guild_id = 10;
        INSERT INTO guild_settings (guild_id, pictures) VALUES (11, 1);
    """,
    6: """
        INSERT INTO games (id, guild_id, channel_id, host_id, rules, difficulty, length_seconds,
                           status, created_at, updated_at)
            VALUES (3, 10, 300, 7, 'basic', 'easy', 720, 'finished', 1.0, 1.0);
        INSERT INTO players (game_id, seat, user_id, joined_at)
            VALUES (3, 0, 7, 1.0), (3, 1, -1, 1.0);
        INSERT INTO results (game_id, guild_id, channel_id, rules, difficulty, length_seconds,
                             players, outcome, duration_seconds, time_left_seconds, ended_at,
                             crewmates)
            VALUES (3, 10, 300, 'basic', 'easy', 720, 2, 'destroyed', 100.0, 620.0, 101.0, 1);
    """,
    7: """
        UPDATE guild_settings SET cards = 'colours', discord_locale = 'fr' WHERE guild_id = 10;
        INSERT INTO user_locales (user_id, locale) VALUES (9, 'fr');
    """,
    8: """
        UPDATE players SET name = 'Chloé' WHERE game_id = 2 AND user_id = 9;
    """,
    9: """
        INSERT INTO games (id, guild_id, channel_id, host_id, rules, difficulty, length_seconds,
                           status, created_at, updated_at)
            VALUES (4, 11, 400, 7, 'basic', 'hard', 480, 'finished', 1.0, 1.0);
        INSERT INTO players (game_id, seat, user_id, joined_at)
            VALUES (4, 0, 7, 1.0), (4, 1, 9, 1.0);
        INSERT INTO results (game_id, guild_id, channel_id, rules, difficulty, length_seconds,
                             players, outcome, duration_seconds, time_left_seconds, ended_at,
                             crewmates)
            VALUES (4, 11, 400, 'basic', 'hard', 480, 2, 'deflected', 200.0, 280.0, 201.0, 0);
        INSERT INTO player_tallies (guild_id, user_id, rules, difficulty, with_crewmates, games,
                                    wins, abandoned, launches, hits, damage, fastest_game_id,
                                    fastest_seconds)
            VALUES (11, 7, 'basic', 'hard', 0, 1, 1, 0, 3, 2, 1, 4, 200.0),
                   (11, 9, 'basic', 'hard', 0, 1, 1, 0, 1, 1, 0, 4, 200.0);
        INSERT INTO player_totals (guild_id, user_id, games, wins)
            VALUES (11, 7, 1, 1), (11, 9, 1, 1);
    """,
    10: """
        UPDATE games SET parent_channel_id = 100 WHERE id = 2;
        UPDATE guild_settings SET threads = 1 WHERE guild_id = 10;
    """,
    11: """
        INSERT INTO invitations (game_id, user_id, seat) VALUES (1, 9, 1), (1, 8, 2);
        UPDATE guild_settings SET autopilot_seconds = 60 WHERE guild_id = 10;
    """,
    12: """
        UPDATE players SET autopiloted = 1 WHERE game_id = 1 AND user_id = 9;
    """,
    13: """
        INSERT INTO games (id, guild_id, channel_id, host_id, rules, difficulty, length_seconds,
                           created_at, updated_at, reach)
            VALUES (9, 0, 900, 7, 'basic', 'easy', 600, 1.0, 1.0, 'interactions');
    """,
    14: """
        INSERT INTO guild_settings (guild_id) VALUES (12);
    """,
    15: """
        INSERT INTO crew_totals (guild_id, user_id, games, wins) VALUES (11, 7, 2, 1);
    """,
    16: """
        INSERT INTO players (game_id, seat, user_id, joined_at, dealt) VALUES (3, 2, 12, 3.0, 0);
    """,
    17: """
        INSERT INTO ended_sessions (signature, expires, ended_at) VALUES ('abc', 9.0e9, 1.0);
    """,
    18: """
        INSERT INTO player_totals (guild_id, user_id, games, wins) VALUES (12, 7, 1, 0);
    """,
    19: """
        UPDATE crew_totals SET streak = 1, best_streak = 2 WHERE guild_id = 11 AND user_id = 7;
        INSERT INTO player_firsts (guild_id, user_id, kind, game_id) VALUES (12, 7, 'win', 3);
    """,
    20: """
        INSERT INTO signals (game_id, player, signal, until_turn, said_at)
            VALUES (1, 9, 'build.red', 3, 2.0), (1, -1, 'need.blue', 4, 2.5);
    """,
}


def table_rows(conn: sqlite3.Connection) -> dict[str, list[tuple]]:
    """Every row of every table, for before/after comparisons."""
    query = "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"
    tables = [name for (name,) in conn.execute(query)]
    return {
        table: conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall() for table in tables
    }


def test_migrations_are_numbered_and_explain_themselves() -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))
    for migration in MIGRATIONS:
        header = migration.sql.lstrip().splitlines()[:4]
        assert header[0].startswith(f"-- {migration.version:04d}:"), migration.name
        assert any(line.startswith("-- Why:") for line in header), migration.name


def test_every_migration_has_seed_data() -> None:
    assert sorted(SEED) == [m.version for m in MIGRATIONS]


async def test_an_empty_database_gets_the_whole_schema(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    store = await Store.open(path)
    await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS),)
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_schema")}
        assert {"games", "players", "actions", "meta", "guild_settings", "users", "results"} <= (
            tables
        )
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)


@pytest.mark.parametrize("migration", MIGRATIONS, ids=lambda m: f"{m.version:04d}_{m.name}")
def test_each_migration_applies_on_the_previous_schema_with_data(
    tmp_path: Path, migration: migrations.Migration
) -> None:
    conn = sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)
    try:
        earlier = MIGRATIONS[: migration.version - 1]
        _migrate(conn, earlier)
        for version in range(1, migration.version):
            conn.executescript(SEED[version])
        before = table_rows(conn)

        _migrate(conn, MIGRATIONS[: migration.version])
        assert conn.execute("PRAGMA user_version").fetchone() == (migration.version,)
        after = table_rows(conn)
        # Rows keep their values (a migration may add columns after the old ones).
        kept = {
            t: [row[: len(before[t][0])] for row in after[t]] if before[t] else after[t]
            for t in before
        }
        assert kept == before
        conn.executescript(SEED[migration.version])
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        conn.close()


async def test_the_store_reads_data_written_under_every_schema(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    with sqlite3.connect(path, isolation_level=None) as conn:
        for migration in MIGRATIONS:
            _migrate(conn, MIGRATIONS[: migration.version])
            conn.executescript(SEED[migration.version])
    conn.close()
    store = await Store.open(path)
    try:
        lobby, active, elsewhere = await store.load_active_games()
        assert (lobby.id, lobby.status, lobby.players) == (1, "lobby", (7,))
        # A lobby where the bot is reached through interactions alone; the others by channel.
        assert (elsewhere.id, elsewhere.reach, lobby.reach, active.reach) == (
            9,
            "interactions",
            "channel",
            "channel",
        )
        assert (active.id, active.players, active.version, active.state) == (
            2,
            (8, 9),
            1,
            {"format": 1},
        )
        assert [entry.action for entry in await store.game_log(2)] == [
            {"type": "draw", "player": 9}
        ]
        crewed = await store.get_game(3)  # dealt to 7 and a crewmate; 12 sat down later
        assert (crewed.starting_players, crewed.players) == ((7, -1), (7, -1, 12))
        settings = await store.get_guild_settings(10)
        assert (settings.moderator_role_id, settings.turn_pings) == (55, False)
        assert await store.get_hand_dm(2, 9) == 900
        assert await store.guilds_without_pictures() == {10}
        assert await store.get_dm_channel(8) == 800
        assert (settings.cards, settings.discord_locale, settings.language_chosen) == (
            "colours",
            "fr",
            False,
        )
        assert await store.get_user_locale(9) == "fr"
        assert lobby.invited == (9, 8)  # Play again's invitations, in seat order
        assert settings.autopilot_seconds == 60
        # The game plays in a thread of the lobby's channel; the server plays in threads.
        assert (active.parent_channel_id, lobby.parent_channel_id, settings.threads) == (
            100,
            None,
            True,
        )
        # 11's row predates the autopilot on by default: 0 there is "off", and stays so;
        # 12's is made after it, and 13 has none yet: both have the default, 90 s.
        assert await store.autopilot_delays() == {10: 60, 11: 0, 12: 90}
        assert (await store.get_guild_settings(13)).autopilot_seconds == 90
        stats = await store.stats(10)
        assert [win.game_id for win in stats.fastest_wins] == [2]  # all-human teams only
        assert [(t.rules, t.games, t.with_crewmates) for t in stats.tallies] == [
            ("advanced", 1, False),
            ("basic", 1, True),
        ]
    finally:
        await store.close()


def test_a_failing_migration_changes_nothing(tmp_path: Path) -> None:
    broken = migrations.Migration(
        len(MIGRATIONS) + 1,
        "broken",
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n",
    )
    conn = sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)
    try:
        _migrate(conn, MIGRATIONS)
        named = rf"migrations/{len(MIGRATIONS) + 1:04d}_broken\.sql .*no_such_table"
        with pytest.raises(MigrationFailed, match=named):
            _migrate(conn, [*MIGRATIONS, broken])
        assert conn.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS),)
        query = "SELECT name FROM sqlite_schema WHERE name = 'half_done'"
        assert conn.execute(query).fetchone() is None
    finally:
        conn.close()


def test_a_migration_breaking_a_foreign_key_is_refused(tmp_path: Path) -> None:
    orphan = migrations.Migration(
        len(MIGRATIONS) + 1,
        "orphan",
        "INSERT INTO players (game_id, seat, user_id, joined_at) VALUES (999, 0, 1, 0);",
    )
    conn = sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)
    try:
        with pytest.raises(MigrationFailed, match=r"_orphan\.sql .*foreign key"):
            _migrate(conn, [*MIGRATIONS, orphan])
        assert conn.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS),)
        assert conn.execute("SELECT COUNT(*) FROM players").fetchone() == (0,)
    finally:
        conn.close()


def test_scripts_split_into_whole_statements() -> None:
    script = """
        -- a comment; with a semicolon
        CREATE TABLE t (x TEXT DEFAULT ';');
        CREATE TRIGGER t_guard BEFORE DELETE ON t
        BEGIN
            SELECT RAISE(ABORT, 'no; never');
        END;
        -- trailing comment
    """
    statements = list(_statements(script))
    assert len(statements) == 2
    assert statements[1].rstrip().endswith("END;")
    with pytest.raises(ValueError, match="incomplete"):
        list(_statements("CREATE TABLE t (x);\nCREATE TABLE u (y)"))


@pytest.mark.slow
def test_the_wheel_ships_the_migrations_and_the_bots_data(tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    shutil.copy(ROOT / "pyproject.toml", source)
    # pyproject names the README; its text does not matter to this test.
    readme = ROOT / "README.md"
    if readme.exists():
        shutil.copy(readme, source)
    else:
        (source / "README.md").write_text("Apophis Bot\n")
    for package in ("engine", "bot", "migrations"):
        shutil.copytree(
            ROOT / package, source / package, ignore=shutil.ignore_patterns("__py*", "node_modules")
        )
    wheels = tmp_path / "wheels"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(wheels),
            str(source),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = wheels.glob("apophis_bot-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {f"migrations/{path.name}" for path in (ROOT / "migrations").glob("*.sql")}
    assert {f"migrations/{m.version:04d}_{m.name}.sql" for m in MIGRATIONS} < expected
    assert expected <= names

    # Installed from the wheel alone (no site-packages, no checkout), they are still found.
    target = tmp_path / "installed"
    zipfile.ZipFile(wheel).extractall(target)
    found = subprocess.run(
        [sys.executable, "-S", "-c", "import migrations; print(len(migrations.load()))"],
        cwd=tmp_path,
        env={"PYTHONPATH": str(target)},
        check=True,
        capture_output=True,
        text=True,
    )
    assert found.stdout.strip() == str(len(MIGRATIONS))

    # The bot's data files too: the catalogs, and the pictures' font with its licence,
    # found by the installed bot (ahead of the editable install on the path).
    assert {"bot/pictures/fonts/DejaVuSansCondensed.ttf", "bot/pictures/fonts/LICENSE"} <= names
    assert "bot/i18n/locales/fr/LC_MESSAGES/apophis.po" in names
    # ...and no development tool nor test.
    assert not {name for name in names if name.startswith(("devtools/", "tests/"))}
    font = subprocess.run(
        [sys.executable, "-c", "from bot.pictures import sprites; print(sprites.font(12).path)"],
        cwd=tmp_path,
        env={"PYTHONPATH": str(target)},
        check=True,
        capture_output=True,
        text=True,
    )
    shipped = target / "bot" / "pictures" / "fonts" / "DejaVuSansCondensed.ttf"
    assert font.stdout.strip() == str(shipped)


def test_the_installed_project_finds_the_migrations(tmp_path: Path) -> None:
    # Run outside the checkout, so the import goes through the installed project.
    found = subprocess.run(
        [sys.executable, "-c", "import migrations; print(len(migrations.load()))"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        text=True,
    )
    assert found.stdout.strip() == str(len(MIGRATIONS))
