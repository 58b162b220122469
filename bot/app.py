"""`python -m bot`: read the configuration, compose the doors, run, stop cleanly on SIGTERM.

`build` puts the bot together: the Discord client (bot.discord) and, when configured, the
live table (bot.web) beside it, both on the one game layer (bot.game), and the metrics and
health endpoints (bot.metrics) that read them. They never import each other; this module
is where they meet. Logs are lines of text, or one JSON object a line (`JsonLines`).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
import sys
from collections.abc import Coroutine
from datetime import UTC, datetime
from typing import Any, TypeVar

import aiohttp
import discord
import orjson
import yarl
from dotenv import load_dotenv

try:  # libuv's event loop: the same asyncio, with less of our CPU in the loop itself
    import uvloop
except ImportError:  # not built for Windows: the standard loop
    uvloop = None

from bot.config import TOKEN_HELP, Config, ConfigError
from bot.discord.client import ApophisBot
from bot.metrics import ABOUT, Metrics, Sources, discord_trace
from bot.store.records import DatabaseUnusable, shard_of
from bot.store.store import Store
from bot.web.server import WebTable

log = logging.getLogger("bot")
#: The longest a planned shutdown (SIGTERM, Ctrl-C) takes, whatever Discord is doing.
SHUTDOWN_SECONDS = 4.0
#: Discord's close code for a bot that must shard (or shard more) and does not.
SHARDING_REQUIRED = 4011
T = TypeVar("T")


def point_discord_at(config: Config) -> None:
    """Use a Discord REST or gateway proxy (or a local fake) when configured."""
    if config.api_base_url:
        discord.http.Route.BASE = config.api_base_url.rstrip("/")
    if config.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config.gateway_url)


def configure_logging(level: int, json: bool = False, shard_count: int | None = None) -> None:
    """Log to stderr at `level`: lines of text, or with `json` one JSON object a line."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        JsonLines(shard_count)
        if json
        else logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s")
    )
    logging.basicConfig(level=level, handlers=[handler])
    quiet_libraries(level)


def quiet_libraries(level: int) -> None:
    """Libraries at INFO at least, whatever `level`: at DEBUG discord.py logs every gateway
    event and request (interaction tokens, hands in DMs), aiosqlite every statement with its
    arguments (games' states). Our own DEBUG stays readable, and tells neither."""
    for library in ("discord", "aiosqlite"):
        logging.getLogger(library).setLevel(max(level, logging.INFO))


class JsonLines(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, and the game,
    its server and its shard when the record names them (``extra={"game": ...}``) or was
    logged by a task working on a game (bot.metrics.ABOUT); `exception`, a traceback."""

    def __init__(self, shard_count: int | None = None) -> None:
        super().__init__()
        self.shard_count = shard_count or 1

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        about = ABOUT.get()
        game = getattr(record, "game", None) or (about and about[0])
        guild = getattr(record, "guild", None) or (about and about[1])
        if game:
            line["game"] = game
        if guild:
            line["guild"] = guild
            line["shard"] = shard_of(guild, self.shard_count)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return orjson.dumps(line, default=str).decode()


def build(config: Config, *, store: Store | None = None, **options: Any) -> ApophisBot:
    """The bot for `config`: Discord's messages, the live table where it is served, and
    (`bot.metrics`, when configured) its metrics and health, on the live table's server or,
    once `run` starts it, on a server of their own."""
    web = WebTable(config) if config.web_port is not None else None
    if config.metrics:
        options.setdefault("http_trace", discord_trace())
    bot = ApophisBot(config, store=store, web=web, **options)
    bot.metrics = None
    if config.metrics:
        bot.metrics = watch(bot, web, config)
        if web is not None and config.metrics_port is None:
            web.metrics = bot.metrics
    return bot


def watch(bot: ApophisBot, web: WebTable | None, config: Config) -> Metrics:
    """The bot's metrics, read from its parts when scraped (they exist once it set up)."""

    def games() -> list[str]:
        service = getattr(bot, "service", None)
        return [table.status for table in service.tables.values()] if service else []

    def outbox() -> tuple[int, float]:
        sending = getattr(bot, "outbox", None)
        return sending.jobs.backlog() if sending is not None else (0, 0.0)

    def sockets() -> int:  # those watching a table
        return sum(map(len, web.feed.viewers.values())) if web is not None else 0

    def gateway() -> str | None:
        if bot.is_closed():
            return "the bot is closed"
        if not bot.is_ready():
            return "not connected to Discord's gateway yet"
        down = sorted(shard for shard, info in bot.shards.items() if info.is_closed())
        if down:
            return f"shards {down} are not connected to Discord's gateway"
        return None

    async def database() -> None:
        if bot.store is None:
            raise RuntimeError("the database is not open yet")
        await bot.store.ping()

    sources = Sources(games, outbox, sockets, gateway, database)
    return Metrics(sources, host=config.metrics_host, port=config.metrics_port)


async def run(config: Config) -> None:
    """Run the bot until it is closed; SIGTERM and SIGINT close it cleanly within
    SHUTDOWN_SECONDS, whatever Discord is doing (even while reconnecting after an outage)."""
    # an unusable database stops us before Discord
    store = await Store.open(config.database, config.shards)
    bot = build(config, store=store)
    loop = asyncio.get_running_loop()
    async with bot:
        if bot.metrics is not None:
            await bot.metrics.start()
        tuning = loop.create_task(_tune_runtime(bot))
        connected = loop.create_task(bot.start(config.token))
        stopping: list[asyncio.Task] = []
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, _shutdown, bot, connected, sig, stopping)
        try:
            await connected
        except asyncio.CancelledError:
            if not stopping:  # not ours: run itself was cancelled
                raise
        finally:
            tuning.cancel()
        if stopping:
            await stopping[0]
        if bot.metrics is not None:
            await bot.metrics.stop()


#: Allocations between young collections (CPython's default is 700). Fewer, larger young
#: collections mean full collections (each a pause of every game) come ~70x less often.
GC_YOUNG_THRESHOLD = 50_000
#: How long a thread may hold the GIL while another waits (CPython's default: 5 ms). The
#: database runs on aiosqlite's thread, and each transaction hands the GIL over and back:
#: under load the default added up to tens of milliseconds to every accepted action.
SWITCH_INTERVAL = 0.0005


async def _tune_runtime(bot: ApophisBot) -> None:
    """Once start-up is done, keep what it loaded out of the collector's way.

    Servers, channels and resumed games live as long as the process; frozen, they are
    not scanned by every full collection, whose pauses otherwise stop all games at once.
    """
    await bot.wait_until_ready()
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, old)
    sys.setswitchinterval(SWITCH_INTERVAL)


def _shutdown(
    bot: ApophisBot, connected: asyncio.Task, sig: signal.Signals, stopping: list[asyncio.Task]
) -> None:
    log.info("received %s: shutting down", sig.name)
    if not stopping:
        stopping.append(asyncio.get_running_loop().create_task(_stop(bot, connected)))


async def _stop(bot: ApophisBot, connected: asyncio.Task) -> None:
    """Close the bot (clocks frozen first), then stop connecting to Discord: discord.py
    would otherwise sleep out its reconnect back-off, tens of seconds after an outage."""
    try:
        async with asyncio.timeout(SHUTDOWN_SECONDS):
            await bot.close()
    except TimeoutError:
        log.warning(
            "shutdown took over %g s: stopping without waiting any longer", SHUTDOWN_SECONDS
        )
    connected.cancel()


def on_fast_loop(main: Coroutine[Any, Any, T]) -> T:
    """Run `main` on uvloop where it is built (the load benchmark's generator too)."""
    with asyncio.Runner(loop_factory=uvloop.new_event_loop if uvloop else None) as runner:
        return runner.run(main)


def main() -> int:
    load_dotenv()
    try:
        config = Config.from_env()
    except ConfigError as exc:
        print(f"apophis-bot: {exc}", file=sys.stderr)
        return 2
    configure_logging(config.log_level, config.log_json, config.shard_count)
    point_discord_at(config)
    try:
        on_fast_loop(run(config))
    except discord.LoginFailure:
        print(
            f"apophis-bot: Discord refused the token (DISCORD_TOKEN). {TOKEN_HELP}", file=sys.stderr
        )
        return 2
    except DatabaseUnusable as exc:
        print(f"apophis-bot: {exc}", file=sys.stderr)
        return 3
    except (OSError, aiohttp.ClientError) as exc:
        print(f"apophis-bot: cannot reach Discord ({exc}).", file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print("apophis-bot: Discord refused the requested gateway intents.", file=sys.stderr)
        return 2
    except discord.ConnectionClosed as exc:
        if exc.code != SHARDING_REQUIRED:
            raise
        print(
            "apophis-bot: Discord requires more shards (the bot is in too many servers for "
            "APOPHIS_SHARD_COUNT): raise it, or leave it unset to use Discord's recommendation.",
            file=sys.stderr,
        )
        return 2
    return 0
