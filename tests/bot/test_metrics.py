"""Metrics, health and JSON logs (bot.metrics, bot.app, bot.logs) against the real bot and the fake
Discord: values move as games are played, readiness falls with the database."""

from __future__ import annotations

import asyncio
import io
import logging
import time

import aiohttp
import orjson
import pytest
from prometheus_client.exposition import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from bot.app import App
from bot.app import build as build_bot
from bot.config import Config, ConfigError
from bot.logs import JsonLines, quiet_libraries
from bot.metrics import ABOUT, route_class
from bot.serve_metrics import Metrics, Sources
from devtools.livetable import free_port
from tests.bot.conftest import make_config
from tests.bot.helpers import CARD, Scene
from tests.web.helpers import Socket

pytestmark = pytest.mark.e2e

PLAYED = ("apophis_actions_total", (("result", "applied"),))
REFUSED = ("apophis_actions_total", (("result", "refused"),))
ACTIVE = ("apophis_games", (("state", "active"),))


async def scrape(port: int, path: str = "/metrics") -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text()


async def metrics(port: int) -> dict[tuple[str, tuple], float]:
    """Every sample of /metrics, by name and labels."""
    status, text = await scrape(port)
    assert status == 200
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def discord_requests(samples: dict, name: str = "apophis_discord_requests_total") -> float:
    return sum(value for (sample, _), value in samples.items() if sample == name)


async def play_a_few_moves(scene: Scene) -> None:
    await scene.new_game("ann", "bob")
    for _ in range(2):
        game = scene.live().game
        assert game is not None
        active = game.active_player
        await scene.cmd("draw", "ann" if active == scene.id("ann") else "bob")
    await scene.bot.outbox.drain()


def metered_bot(fake, database, names: tuple[str, ...]) -> tuple[Scene, Metrics]:
    """The bot with its metrics on a server of their own (started as bot.app's run does)."""
    app = build_bot(
        make_config(fake, database, APOPHIS_METRICS_PORT=str(free_port())),
        guild_ready_timeout=0.05,
    )
    assert app.discord is not None and app.metrics is not None
    return Scene(fake, app.discord, names=names), app.metrics


async def test_metrics_move_as_a_game_is_played_on_a_server_of_their_own(fake_discord, database):
    scene, metered = metered_bot(fake_discord, database, ("ann", "bob"))
    await metered.start()
    async with fake_discord.connected(scene.bot):
        await _played_on_their_own_server(fake_discord, scene, metered)


async def _played_on_their_own_server(fake_discord, scene: Scene, metered: Metrics) -> None:
    port = metered.port
    assert port is not None
    try:
        before = await metrics(port)
        sent = len(fake_discord.requests)
        assert before[ACTIVE] == 0
        # a hand's DM is edited as its player draws: Discord asks once to wait
        fake_discord.rate_limit_next("PATCH /channels/{channel_id}/messages/{message_id}")
        await play_a_few_moves(scene)
        after = await metrics(port)
    finally:
        await metered.stop()
    assert after[PLAYED] - before[PLAYED] >= 1
    assert after[PLAYED] + after[REFUSED] - before[PLAYED] - before[REFUSED] >= 2
    assert after[ACTIVE] == 1
    timed = ("apophis_action_seconds_count", ())
    assert after[timed] - before[timed] >= 2
    counted = discord_requests(after) - discord_requests(before)
    assert counted == len(fake_discord.requests) - sent > 0
    limited = ("apophis_discord_429_total", (("route_class", "message"),))
    assert after[limited] - before.get(limited, 0) == 1
    db = ("apophis_db_seconds_count", (("kind", "write"),))
    assert after[db] > before.get(db, 0)
    assert after[("apophis_outbox_jobs", ())] == 0
    assert after[("apophis_outbox_oldest_seconds", ())] == 0
    assert ("apophis_event_loop_lag_seconds", ()) in after


async def test_readiness_falls_when_the_database_is_gone(fake_discord, database):
    scene, metered = metered_bot(fake_discord, database, ("ann",))
    await metered.start()
    async with fake_discord.connected(scene.bot):
        await _readiness_falls(scene, metered)


async def _readiness_falls(scene: Scene, metered: Metrics) -> None:
    port = metered.port
    assert port is not None
    try:
        assert await scrape(port, "/healthz") == (200, "ok\n")
        assert await scrape(port, "/readyz") == (200, "ready\n")
        await scene.bot.store.close()
        status, reason = await scrape(port, "/readyz")
        assert status == 503 and "the database did not answer" in reason
        assert (await scrape(port, "/healthz"))[0] == 200
    finally:
        await metered.stop()


def web_bot(fake, database, **env: str) -> App:
    """A bot with its live table on a free port (`app.web.port`)."""
    settings = {
        "APOPHIS_WEB_PORT": str(free_port()),
        "APOPHIS_CLIENT_ID": str(fake.world.application_id),
        "APOPHIS_CLIENT_SECRET": "fake-client-secret",
        **env,
    }
    config = make_config(fake, database, time_scale=1.0, **settings)
    return build_bot(config, guild_ready_timeout=0.05)


async def test_readiness_waits_for_discord_and_the_table_serves_the_metrics(fake_discord, database):
    app = web_bot(fake_discord, database, APOPHIS_METRICS="on")
    bot, metered = app.discord, app.metrics
    assert bot is not None and metered is not None
    web_port = bot.config.web_port
    assert web_port is not None
    scene = Scene(fake_discord, bot, names=("ann", "bob"))
    assert metered.sources.gateway() == "not connected to Discord's gateway yet"
    async with fake_discord.connected(bot):
        assert await scrape(web_port, "/readyz") == (200, "ready\n")
        await play_a_few_moves(scene)
        async with Socket(app, scene.channel.id, scene["ann"]) as socket:
            await socket.wait_state(lambda state: state["status"] == "active")
            samples = await metrics(web_port)
            assert samples[("apophis_table_sockets", ())] == 1
        assert samples[ACTIVE] == 1
        # through a proxy, or from elsewhere, the table's server does not tell
        async with (
            aiohttp.ClientSession() as session,
            session.get(
                f"http://127.0.0.1:{web_port}/metrics", headers={"X-Forwarded-For": "203.0.113.9"}
            ) as response,
        ):
            assert response.status == 404
    assert metered.sources.gateway() == "the bot is closed"


async def test_the_metrics_routes_are_off_unless_asked(fake_discord, database):
    app = web_bot(fake_discord, database)
    assert app.metrics is None and app.discord is not None
    port = app.discord.config.web_port
    assert port is not None
    async with fake_discord.connected(app.discord):
        assert (await scrape(port, "/metrics"))[0] == 404


def samples_of(metered: Metrics) -> dict[str, float]:
    """The registry's samples without labels, by name, as a scrape reads them."""
    text = generate_latest(metered.registry).decode()
    return {
        sample.name: sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if not sample.labels
    }


async def _ready() -> None:
    return None


def unserved_metrics() -> Metrics:
    """Metrics read from nothing, served by nobody (a scrape is `samples_of`)."""
    return Metrics(Sources(list, lambda: (0, 0.0), lambda: 0, lambda: None, _ready))


async def test_the_loops_lag_is_the_same_for_every_scraper():
    metered = unserved_metrics()
    await metered.start()
    try:
        await asyncio.sleep(0.3)
        time.sleep(0.6)  # the loop blocked: every game's timers late
        await asyncio.sleep(0.6)
        first, second = samples_of(metered), samples_of(metered)
    finally:
        await metered.stop()
    lag = "apophis_event_loop_lag_seconds"
    assert first[lag] >= 0.3  # blocked past its next tick, due within 0.25 s
    assert second[lag] == first[lag]  # a second scraper (or a curl) takes nothing away


def test_the_process_own_metrics_are_served():
    scraped = samples_of(unserved_metrics())
    for name in ("process_resident_memory_bytes", "process_cpu_seconds_total", "process_open_fds"):
        assert scraped[name] > 0, name


def test_route_classes_are_few():
    assert route_class("/api/v10/channels/1/messages/2") == "message"
    assert route_class("/api/v10/channels/1/messages") == "message"
    assert route_class("/api/v10/channels/1/threads") == "channel"
    assert route_class("/api/v10/interactions/1/tok/callback") == "interaction"
    assert route_class("/api/v10/webhooks/1/tok/messages/@original") == "interaction"
    assert route_class("/api/v10/users/@me/channels") == "user"
    assert route_class("/api/v10/applications/1/commands") == "command"
    assert route_class("/somewhere/else") == "other"


@pytest.mark.scene(names=("ann", "bob"))
async def test_json_logs_name_the_game_and_never_a_token_or_a_hand(fake_discord, scene):
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonLines())
    root = logging.getLogger()
    levels = {name: logging.getLogger(name).level for name in ("", "discord", "aiosqlite")}
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)  # APOPHIS_LOG_LEVEL=DEBUG, as bot.app sets it up
    quiet_libraries(logging.DEBUG)
    try:
        await play_a_few_moves(scene)
        table = scene.live()
        logging.getLogger("bot.test").info("in game", extra={"game": 7, "guild": 1 << 22})
        await scene.cmd("apophis end", "ann")
        await scene.bot.outbox.drain()
    finally:
        root.removeHandler(handler)
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)
    lines = [orjson.loads(line) for line in stream.getvalue().splitlines()]
    assert lines and all({"time", "level", "logger", "message"} <= line.keys() for line in lines)
    named = [line for line in lines if line.get("game") == table.id]
    assert named and all(line["guild"] == scene.guild.id for line in named)
    assert {"game": 7, "guild": 1 << 22, "shard": 0}.items() <= next(
        line for line in lines if line["message"] == "in game"
    ).items()
    text = stream.getvalue()
    assert fake_discord.bot_token not in text
    assert not [line for line in lines if CARD.search(line["message"])]


def test_a_line_outside_a_game_names_none():
    token = ABOUT.set(None)
    try:
        record = logging.LogRecord("bot", logging.WARNING, __file__, 1, "x %s", ("y",), None)
        line = orjson.loads(JsonLines(4).format(record))
    finally:
        ABOUT.reset(token)
    assert line["message"] == "x y" and line["level"] == "WARNING" and "game" not in line


TOKEN = "x" * 60


@pytest.mark.parametrize(
    ("env", "metrics", "port", "host"),
    [
        ({}, False, None, "127.0.0.1"),
        ({"APOPHIS_METRICS_PORT": "9464"}, True, 9464, "127.0.0.1"),
        (
            {"APOPHIS_METRICS_PORT": "9464", "APOPHIS_METRICS_HOST": "0.0.0.0"},
            True,
            9464,
            "0.0.0.0",
        ),
        ({"APOPHIS_METRICS_PORT": "9464", "APOPHIS_METRICS": "off"}, False, None, "127.0.0.1"),
        ({"APOPHIS_METRICS": "on", "APOPHIS_WEB_PORT": "8080"}, True, None, "127.0.0.1"),
    ],
)
def test_metrics_settings(env, metrics, port, host):
    config = Config.from_env({"DISCORD_TOKEN": TOKEN, **env})
    assert (config.metrics, config.metrics_port, config.metrics_host) == (metrics, port, host)


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"APOPHIS_METRICS": "on"}, "APOPHIS_METRICS=on needs a port"),
        ({"APOPHIS_METRICS": "maybe"}, "APOPHIS_METRICS must be on or off"),
        ({"APOPHIS_METRICS_PORT": "99999"}, "APOPHIS_METRICS_PORT must be a port"),
        ({"APOPHIS_METRICS_PORT": "8080", "APOPHIS_WEB_PORT": "8080"}, "the live table's port"),
        ({"APOPHIS_METRICS_HOST": "0.0.0.0"}, "APOPHIS_METRICS_PORT is not"),
        ({"APOPHIS_LOG_FORMAT": "xml"}, "APOPHIS_LOG_FORMAT must be text or json"),
    ],
)
def test_wrong_metrics_settings_say_what_to_fix(env, named):
    with pytest.raises(ConfigError, match=named):
        Config.from_env({"DISCORD_TOKEN": TOKEN, **env})
    assert Config.from_env({"DISCORD_TOKEN": TOKEN, "APOPHIS_LOG_FORMAT": "JSON"}).log_json
