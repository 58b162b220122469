"""Starting and stopping the bot: configuration errors, command sync, SIGTERM."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import signal
import socket
import sqlite3
import sys
from contextlib import closing

import discord
import pytest

import migrations
from bot.config import Config, ConfigError
from bot.logs import quiet_libraries
from bot.store.sqlite import _migrate
from bot.store.store import Store
from devtools.fakediscord.gateway import AUTHENTICATION_FAILED
from tests.bot.helpers import (
    Scene,
    start_bot_process,
)

TOKEN = "x" * 24 + "." + "y" * 6 + "." + "z" * 27


async def run_bot(env: dict[str, str], cwd) -> tuple[int, str]:
    """Run `python -m bot` to its end (it must stop by itself); its exit code and stderr."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "APOPHIS_"))}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        env={**clean, **env},
        cwd=cwd,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    _, stderr = await asyncio.wait_for(process.communicate(), 60)
    return process.returncode, stderr.decode()


async def test_a_missing_token_says_how_to_get_one_and_exits_non_zero(tmp_path):
    code, stderr = await run_bot({}, tmp_path)
    assert code == 2
    assert "DISCORD_TOKEN is not set" in stderr
    assert "discord.com/developers/applications" in stderr
    assert "Traceback" not in stderr
    assert list(tmp_path.iterdir()) == []  # the token is checked before any database


async def test_a_token_discord_refuses_is_explained_without_a_traceback(fake_discord, tmp_path):
    code, stderr = await run_bot(
        {
            "DISCORD_TOKEN": TOKEN,  # not the fake's: refused with 401 like a revoked token
            "DISCORD_API_BASE_URL": fake_discord.api_base_url,
            "DISCORD_GATEWAY_URL": fake_discord.gateway_url,
            "APOPHIS_DATABASE": str(tmp_path / "db.sqlite3"),
        },
        tmp_path,
    )
    assert code == 2, stderr
    assert "Discord refused the token" in stderr
    assert "Traceback" not in stderr and TOKEN not in stderr
    # the database it created for nothing is gone again, journal and all
    assert list(tmp_path.iterdir()) == []


async def test_a_refused_token_leaves_an_existing_database_alone(fake_discord, tmp_path):
    database = tmp_path / "db.sqlite3"
    store = await Store.open(database)
    await store.set_dm_channel(7, 8)
    await store.close()
    env = {
        "DISCORD_TOKEN": TOKEN,
        "DISCORD_API_BASE_URL": fake_discord.api_base_url,
        "DISCORD_GATEWAY_URL": fake_discord.gateway_url,
        "APOPHIS_DATABASE": str(database),
    }
    code, stderr = await run_bot(env, tmp_path)
    assert code == 2 and "Discord refused the token" in stderr
    store = await Store.open(database)
    try:
        assert await store.get_dm_channel(7) == 8
    finally:
        await store.close()


@pytest.mark.e2e
async def test_a_token_reset_while_the_bot_runs_stops_it_as_a_refused_token(fake_discord, database):
    process = await start_bot_process(fake_discord, database)
    # The host presses Reset Token: Discord closes the bot's gateway connection with 4004.
    await fake_discord.gateway.close(AUTHENTICATION_FAILED, b"Authentication failed.")
    _, stderr = await asyncio.wait_for(process.communicate(), 20)
    log = stderr.decode()
    assert process.returncode == 2, log  # as at start-up: systemd does not retry it
    assert log.rstrip().splitlines()[-1].startswith("apophis-bot: Discord refused the token")
    assert "Traceback" not in log and fake_discord.bot_token not in log


async def test_with_json_logs_the_line_saying_why_the_bot_stopped_is_json_too(
    fake_discord, tmp_path
):
    json_logs = {"APOPHIS_LOG_FORMAT": "json", "APOPHIS_DATABASE": str(tmp_path / "db.sqlite3")}
    refused = {
        **json_logs,
        "DISCORD_TOKEN": TOKEN,  # refused by the fake, after a few lines of log
        "DISCORD_API_BASE_URL": fake_discord.api_base_url,
        "DISCORD_GATEWAY_URL": fake_discord.gateway_url,
    }
    for env, status, why in (
        (json_logs, 2, "DISCORD_TOKEN is not set"),  # before the settings are all read
        (refused, 2, "Discord refused the token (DISCORD_TOKEN)"),
    ):
        code, stderr = await run_bot(env, tmp_path)
        assert code == status, stderr
        lines = [json.loads(line) for line in stderr.splitlines()]  # every one of them
        assert lines[-1]["level"] == "ERROR" and lines[-1]["logger"] == "bot"
        assert lines[-1]["message"].startswith(why)


async def test_an_unusable_database_is_reported_and_left_alone(tmp_path):
    bad = tmp_path / "garbage.sqlite3"
    bad.write_bytes(b"this is not a database" * 100)
    code, stderr = await run_bot({"DISCORD_TOKEN": TOKEN, "APOPHIS_DATABASE": str(bad)}, tmp_path)
    assert code == 3 and "Traceback" not in stderr and "garbage.sqlite3" in stderr
    assert bad.read_bytes() == b"this is not a database" * 100


def test_no_warning_about_voice_at_start(caplog, monkeypatch):
    """The bot has no voice: discord.py's two warnings that it is not supported would page a
    host alerting on WARNING at every start. Only those two go."""
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    quiet_libraries(logging.INFO)
    with caplog.at_level(logging.INFO):
        discord.Client(intents=discord.Intents.default())
        logging.getLogger("discord.client").warning("another warning")
    warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warned == ["another warning"]


async def test_a_database_url_of_no_known_kind_exits_2_creating_nothing(tmp_path):
    typo = "postgressql://bot:hunter2@db.example/apophis"
    code, stderr = await run_bot({"DISCORD_TOKEN": TOKEN, "APOPHIS_DATABASE": typo}, tmp_path)
    assert code == 2, stderr
    assert stderr.strip().splitlines() == [
        "apophis-bot: APOPHIS_DATABASE must be an SQLite file's path (or "
        "sqlite:///absolute/path, sqlite:relative/path), or a PostgreSQL database as "
        "postgresql://user:password@host/name, not a postgressql: URL "
        "(postgressql://bot:***@db.example/apophis)."
    ]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"APOPHIS_WEB_PORT": "{taken}"}, "APOPHIS_WEB_PORT={taken} is taken"),
        (
            {"APOPHIS_WEB_PORT": "{free}", "APOPHIS_WEB_HOST": "192.0.2.123"},
            "APOPHIS_WEB_HOST=192.0.2.123 is not an address of this machine",
        ),
        ({"APOPHIS_METRICS_PORT": "{taken}"}, "APOPHIS_METRICS_PORT={taken} is taken"),
        (
            {"APOPHIS_METRICS_PORT": "{free}", "APOPHIS_METRICS_HOST": "no-such-host"},
            "APOPHIS_METRICS_HOST=no-such-host is not a name this machine can resolve",
        ),
    ],
)
async def test_a_port_that_cannot_be_listened_on_is_named_before_discord(
    fake_discord, tmp_path, settings, named
):
    with socket.socket() as taken, socket.socket() as free:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        free.bind(("127.0.0.1", 0))
        ports = {"taken": taken.getsockname()[1], "free": free.getsockname()[1]}
        free.close()
        env = {
            "DISCORD_TOKEN": fake_discord.bot_token,
            "DISCORD_API_BASE_URL": fake_discord.api_base_url,
            "DISCORD_GATEWAY_URL": fake_discord.gateway_url,
            "APOPHIS_DATABASE": str(tmp_path / "db.sqlite3"),
            **{name: value.format_map(ports) for name, value in settings.items()},
        }
        code, stderr = await run_bot(env, tmp_path)
    assert code == 2, stderr
    assert "Traceback" not in stderr
    assert stderr.strip().splitlines()[-1].startswith(f"apophis-bot: {named.format_map(ports)}")
    assert fake_discord.requests == []  # bound before logging in to Discord


async def test_a_failed_migration_is_named_and_exits_3(tmp_path):
    # A database at the schema before 0013_reach, with the column 0013 adds already
    # there: 0013 cannot be applied.
    known = migrations.load()
    last = next(migration for migration in known if migration.name == "reach")
    older = known[: last.version - 1]
    path = tmp_path / "db.sqlite3"
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        _migrate(conn, older)
        conn.execute("ALTER TABLE games ADD COLUMN reach TEXT")
    code, stderr = await run_bot({"DISCORD_TOKEN": TOKEN, "APOPHIS_DATABASE": str(path)}, tmp_path)
    assert code == 3, stderr
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) == 1
    assert f"migrations/{last.version:04d}_{last.name}.sql" in stderr and str(path) in stderr
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (len(older),)


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("DISCORD_TOKEN", "short", "does not look like a bot token"),
        ("APOPHIS_DEV_GUILD", "my server", "must be a server id"),
        ("APOPHIS_LOG_LEVEL", "LOUD", "must be DEBUG, INFO, WARNING or ERROR"),
        ("APOPHIS_TIME_SCALE", "0", "must be a positive number"),
        ("DISCORD_API_BASE_URL", "localhost:8080", "must be a full URL"),
    ],
)
def test_each_bad_setting_is_named(name, value, message):
    with pytest.raises(ConfigError, match=message):
        Config.from_env({"DISCORD_TOKEN": TOKEN, name: value})


def test_defaults():
    config = Config.from_env({"DISCORD_TOKEN": TOKEN})
    assert config.time_scale == 1.0 and config.dev_guild is None
    assert str(config.database) == "data/apophis.sqlite3"
    assert (config.shard_count, config.shard_ids, config.shards.all) == (None, None, True)
    assert (config.processes, config.global_rate) == (1, 45.0)


POSTGRESQL = {"APOPHIS_DATABASE": "postgresql://bot@db/apophis"}


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"APOPHIS_SHARD_IDS": "0-1"}, "needs APOPHIS_SHARD_COUNT"),
        ({"APOPHIS_SHARD_COUNT": "0"}, "APOPHIS_SHARD_COUNT must be a whole number"),
        ({"APOPHIS_SHARD_COUNT": "4", "APOPHIS_SHARD_IDS": "2-5"}, "shard 5 does not exist"),
        ({"APOPHIS_SHARD_COUNT": "4", "APOPHIS_SHARD_IDS": "3-1"}, "runs backwards"),
        ({"APOPHIS_SHARD_COUNT": "4", "APOPHIS_SHARD_IDS": "0,1,1"}, "names a shard twice"),
        ({"APOPHIS_SHARD_COUNT": "4", "APOPHIS_SHARD_IDS": "one"}, "such as 0-3 or 0,2"),
        ({"APOPHIS_PROCESSES": "two"}, "APOPHIS_PROCESSES must be a whole number"),
        ({"APOPHIS_GLOBAL_RATE": "51"}, "at most 50"),
        ({"APOPHIS_PROCESSES": "2"}, "needs a PostgreSQL database shared by the processes"),
        ({"APOPHIS_PROCESSES": "4", **POSTGRESQL}, "every process would run every shard"),
        (
            {"APOPHIS_PROCESSES": "2", "APOPHIS_SHARD_COUNT": "2", "APOPHIS_SHARD_IDS": "0-1"}
            | POSTGRESQL,
            "the other processes would have none",
        ),
        ({"APOPHIS_SHARD_IDS": "standby", **POSTGRESQL}, "standby needs APOPHIS_SHARD_COUNT"),
        (
            {"APOPHIS_SHARD_IDS": "standby", "APOPHIS_SHARD_COUNT": "4"},
            "standby needs the PostgreSQL database",
        ),
    ],
)
def test_bad_shard_and_process_settings_are_named(settings, message):
    with pytest.raises(ConfigError, match=message):
        Config.from_env({"DISCORD_TOKEN": TOKEN, **settings})


def test_shards_and_processes():
    config = Config.from_env(
        {
            "DISCORD_TOKEN": TOKEN,
            "APOPHIS_SHARD_COUNT": "8",
            "APOPHIS_SHARD_IDS": "0-1, 6",
            "APOPHIS_PROCESSES": "3",
            "APOPHIS_DATABASE": "postgresql://bot@db/apophis",
        }
    )
    assert (config.shard_count, config.shard_ids) == (8, (0, 1, 6))
    assert config.shards.of(6 << 22) == 6 and (6 << 22) in config.shards
    assert (7 << 22) not in config.shards
    assert config.global_rate == 15.0 and config.database == "postgresql://bot@db/apophis"
    all_shards = Config.from_env({"DISCORD_TOKEN": TOKEN, "APOPHIS_SHARD_COUNT": "4"})
    assert all_shards.shards.all and all_shards.shard_ids is None
    proxied = Config.from_env(
        {
            "DISCORD_TOKEN": TOKEN,
            "APOPHIS_PROCESSES": "4",
            "APOPHIS_SHARD_COUNT": "4",
            "APOPHIS_SHARD_IDS": "3",
            "APOPHIS_GLOBAL_RATE": "50",
            **POSTGRESQL,
        }
    )
    assert proxied.global_rate == 50.0
    standby = Config.from_env(
        {
            "DISCORD_TOKEN": TOKEN,
            "APOPHIS_PROCESSES": "2",
            "APOPHIS_SHARD_COUNT": "4",
            "APOPHIS_SHARD_IDS": "Standby",
            **POSTGRESQL,
        }
    )
    assert standby.standby and (standby.shard_count, standby.shard_ids) == (4, None)
    assert not proxied.standby
    # The live table alone among several processes owns no shard: it counts them, and
    # is given none of its own.
    table_only = {"APOPHIS_DISCORD": "off", "APOPHIS_WEB_PORT": "8080", **POSTGRESQL}
    with pytest.raises(ConfigError, match="needs APOPHIS_SHARD_COUNT"):
        Config.from_env({"DISCORD_TOKEN": TOKEN, "APOPHIS_PROCESSES": "3", **table_only})
    counted = {"APOPHIS_PROCESSES": "3", "APOPHIS_SHARD_COUNT": "4", **table_only}
    with pytest.raises(ConfigError, match="leave APOPHIS_SHARD_IDS unset"):
        Config.from_env({"DISCORD_TOKEN": TOKEN, "APOPHIS_SHARD_IDS": "1", **counted})
    alone = Config.from_env({"DISCORD_TOKEN": TOKEN, **counted})
    assert alone.shards.ids == () and not alone.shards.own(0, 1 << 22)


@pytest.mark.e2e
async def test_commands_are_synced_only_when_they_changed(fake_discord, make_bot):
    # The bot is restarted at once: IDENTIFY pacing is not what this test is about
    # (tests/bot/test_shards.py checks it).
    fake_discord.gateway.identify_interval = 0
    for _ in range(2):
        bot = make_bot()
        async with fake_discord.connected(bot):
            pass
    puts = fake_discord.requests_to("PUT /applications/{application_id}/commands")
    assert len(puts) == 1
    names = {c["name"] for c in fake_discord.synced_commands()}
    assert names == {
        "apophis",
        "draw",
        "build",
        "launch",
        "scrap",
        "discard",
        "hand",
        "hint",
        "board",
    }


async def test_the_bot_asks_discord_for_servers_channels_and_message_events(fake_discord, make_bot):
    bot = make_bot()
    async with fake_discord.connected(bot):
        intents = discord.Intents._from_value(fake_discord.gateway.session.intents)
    # Message events only to count what is posted below a board (not their content, a
    # privileged intent); interactions come regardless.
    assert intents == discord.Intents(guilds=True, guild_messages=True)
    assert not intents.message_content


@pytest.mark.e2e
async def test_sigterm_freezes_the_clocks_and_exits_cleanly(fake_discord, database):
    scene = Scene(fake_discord, None, names=("ann",))
    process = await start_bot_process(fake_discord, database)
    await scene.cmd("apophis new", "ann", difficulty="hard")
    await scene.cmd("apophis start", "ann")
    process.send_signal(signal.SIGTERM)
    rest = await asyncio.wait_for(process.stderr.read(), 20)
    assert await process.wait() == 0
    assert b"froze 1 running clocks" in rest and b"Traceback" not in rest
    store = await Store.open(database)
    try:
        (record,) = await store.load_active_games()
    finally:
        await store.close()
    assert record.clock_deadline is None and 8 * 60 - 30 < record.clock_remaining <= 8 * 60


@pytest.mark.slow
async def test_sigterm_while_discord_is_unreachable_exits_within_5_seconds(fake_discord, database):
    scene = Scene(fake_discord, None, names=("ann",))
    process = await start_bot_process(fake_discord, database)
    await scene.cmd("apophis new", "ann", difficulty="hard")
    await scene.cmd("apophis start", "ann")
    await scene.cmd("draw", "ann")
    await fake_discord.stop()  # Discord goes away: the bot backs off, longer and longer
    backoff = re.compile(rb"reconnect .* in ([0-9.]+) ?s")
    while (
        not (found := backoff.search(line := await process.stderr.readline()))
        or float(found[1]) < 6
    ):
        assert line, "the bot process stopped by itself"
    process.send_signal(signal.SIGTERM)  # in the middle of a long wait before reconnecting
    rest = await asyncio.wait_for(process.stderr.read(), 5)  # within 5 s, whatever Discord does
    assert await process.wait() == 0
    assert b"froze 1 running clocks" in rest and b"never retrieved" not in rest
    store = await Store.open(database)
    try:
        (record,) = await store.load_active_games()
    finally:
        await store.close()
    assert record.clock_deadline is None and record.clock_remaining > 7 * 60
