"""`python -m bot`: read the configuration, compose the core and its doors, run, stop on SIGTERM.

`build` puts the process together (`App`): the game core (bot.game.core: the store, the
games, recovery, the heartbeat, shutdown) and the doors the configuration names, each
plugged into the core's stream (bot.game.doors): Discord's messages (bot.discord, unless
APOPHIS_DISCORD=off) and the live table (bot.web, where APOPHIS_WEB_PORT is set). A process
with the live table alone logs in to Discord's REST API only (no gateway), for its
gatekeeper. The metrics and health endpoints (bot.serve_metrics) read the core and the
doors (bot.watch). The doors never import each other; this module is where they meet. Logs are lines
of text, or one JSON object a line (bot.logs).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
import discord
import yarl
from dotenv import load_dotenv

try:  # libuv's event loop: the same asyncio, with less of our CPU in the loop itself
    import uvloop
except ImportError:  # not built for Windows: the standard loop
    uvloop = None  # type: ignore[assignment]

from bot.config import TOKEN_HELP, Config, ConfigError, logs_as_json
from bot.discord.client import ApophisBot
from bot.discord.door import DiscordDoor, DiscordRest
from bot.discord.gatekeeper import Gatekeeper
from bot.game.core import GameCore, Settings
from bot.game.doors import Door
from bot.game.timer import Timer
from bot.holding import hold, keep
from bot.logs import configure_logging, say_why_it_stopped
from bot.serve_metrics import Metrics, discord_trace
from bot.store.database import Leases
from bot.store.location import new_file, remove_new_file
from bot.store.records import DatabaseNotUp, DatabaseUnusable, LeaseLost, ShardsHeld
from bot.store.store import Store
from bot.watch import watch
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


class App:
    """The process's parts: the game core and its doors, started and stopped together.

    `start` starts the core (the games come back), then each door with it, in the order
    plugged; `stop` stops the core's clocks first (frozen where they are, so that nothing
    moves while the doors send their last words), then the doors it started in reverse,
    then closes the store. Each runs once, whoever asks first: discord.py's own login and
    close (a test's fake Discord drives the client itself) ask too
    (bot.discord.client.Composition).
    """

    def __init__(self, core: GameCore) -> None:
        self.core = core
        self.doors: list[Door] = []
        #: The Discord client (None with APOPHIS_DISCORD=off), the live table (None without
        #: APOPHIS_WEB_PORT), and the metrics (None unless APOPHIS_METRICS).
        self.discord: ApophisBot | None = None
        self.web: WebTable | None = None
        self.metrics: Metrics | None = None
        #: Discord's messages as a door: its connection to the gateway ends the process.
        self.gateway: DiscordDoor | None = None
        #: The doors `start` started (or began to), in order.
        self._starting: list[Door] = []
        self._started = self._stopped = False

    def plug(self, door: Door) -> None:
        """A door hears every change from now on (the recovery's included), and is started
        after those plugged before it."""
        self.core.stream.subscribe(door.heard)
        self.doors.append(door)

    async def start(self) -> None:
        if self._started:
            return
        self._started = True
        await self.core.start()
        for door in self.doors:
            self._starting.append(door)  # stopped even if its start fails half-way
            await door.start(self.core)

    async def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        try:
            await self.core.stop()
            for door in reversed(self._starting):  # never a door that was not started
                try:
                    await door.stop()
                except Exception:
                    log.exception("a door did not stop cleanly")
        finally:
            await self.core.close()


def build(
    config: Config, *, store: Store | None = None, timer: Timer | None = None, **options: Any
) -> App:
    """The process for `config`: its core on `store` (opened at start when None), Discord's
    messages unless APOPHIS_DISCORD=off (`options` are the client's), the live table where
    it is served, and (bot.serve_metrics, when configured) its metrics and health, on the
    live table's server or, once `run` starts them, on a server of their own. `timer`: the
    game's time (bot.game.timer), the event loop's unless given."""
    if config.metrics:
        options.setdefault("http_trace", discord_trace())
    settings = Settings(
        database=config.database,
        shards=config.shards,
        time_scale=config.time_scale,
        seed=config.seed,
        web=config.web,
        activity=config.activity,
        shared=config.processes > 1 or config.standby or not config.shards.all,
    )
    core = GameCore(settings, store=store, timer=timer)
    app = App(core)
    if config.discord:
        app.discord = ApophisBot(config, app, **options)
        core.gatekeeper = app.discord.gatekeeper
    else:  # who may watch and play, from Discord's REST API: no gateway, no cache
        rest = DiscordRest(config.token, **options)
        core.gatekeeper = Gatekeeper(rest.client, cached=False)
        app.plug(rest)
    if config.web_port is not None:
        app.web = WebTable(config)
        app.plug(app.web)
    if app.discord is not None:
        app.gateway = DiscordDoor(app.discord, config.token)
        app.plug(app.gateway)
    if config.metrics:
        app.metrics = watch(core, app.discord, app.web, config)
        if app.web is not None and config.metrics_port is None:
            app.web.metrics = app.metrics
    return app


async def run(config: Config) -> None:
    """Run the process until SIGTERM or SIGINT, which stop it cleanly within SHUTDOWN_SECONDS
    whatever Discord is doing (even while reconnecting after an outage), or until its
    connection to Discord's gateway ends (why it could not connect is raised). On
    PostgreSQL it first holds its shards' leases (a standby waits for shards to take
    over: bot.holding), and stops if it loses them."""
    # an unusable database stops us before Discord; one created here goes again if Discord
    # refuses the token at log-in
    created = new_file(config.database)
    store = await Store.open(config.database, config.shards)
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, _shutdown, sig, stopping)
    leases: Leases | None = None
    app: App | None = None
    try:
        leases = await store.leases()
        if leases is not None:
            held = await _unless_stopped(hold(config, leases), stopping)
            if held is None:  # stopped while standing by: nothing was started
                return
            config, store.shards = held, held.shards
        app = build(config, store=store)
        await _serve(app, stopping, leases, created)
    finally:
        if app is None:  # nothing started: the store is all there is to close
            await store.close()
        if leases is not None:  # released last: the clocks are frozen by then
            await leases.close()


async def _unless_stopped(waiting: Coroutine[Any, Any, T], stopping: asyncio.Event) -> T | None:
    """What `waiting` returns, or None if the process is told to stop first."""
    task = asyncio.ensure_future(waiting)
    stopped = asyncio.ensure_future(stopping.wait())
    await asyncio.wait((task, stopped), return_when=asyncio.FIRST_COMPLETED)
    stopped.cancel()
    if task.done():
        return task.result()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    return None


async def _serve(
    app: App, stopping: asyncio.Event, leases: Leases | None, created: Path | None
) -> None:
    """Start `app` and run it until `stopping`, its gateway's end or its leases' loss; then
    stop it. The database file `created` at start-up goes again if Discord refuses the
    token at log-in."""
    loop = asyncio.get_running_loop()
    tuning: asyncio.Task[None] | None = None
    refused = False
    try:
        # The ports before Discord: one that cannot be listened on stops us, naming its setting.
        if app.metrics is not None:
            await app.metrics.start()
        if app.web is not None:
            await app.web.bind()
        try:
            await app.start()
        except discord.LoginFailure:
            refused = True
            raise
        tuning = loop.create_task(_tune_runtime(app))
        ends: set[asyncio.Future[Any]] = {loop.create_task(stopping.wait())}
        if app.gateway is not None and app.gateway.connection is not None:
            ends.add(app.gateway.connection)
        if leases is not None:
            ends.add(loop.create_task(keep(leases)))
        done, waiting = await asyncio.wait(ends, return_when=asyncio.FIRST_COMPLETED)
        for other in waiting:
            other.cancel()
        for ended in done:
            ended.result()  # why the gateway's connection ended, if it failed
    finally:
        if tuning is not None:
            tuning.cancel()
        try:
            async with asyncio.timeout(SHUTDOWN_SECONDS):
                await app.stop()
        except TimeoutError:
            log.warning(
                "shutdown took over %g s: stopping without waiting any longer", SHUTDOWN_SECONDS
            )
        if app.metrics is not None:
            await app.metrics.stop()
        if refused and created is not None:
            remove_new_file(created)


#: Allocations between young collections (CPython's default is 700). Fewer, larger young
#: collections mean full collections (each a pause of every game) come ~70x less often.
GC_YOUNG_THRESHOLD = 50_000
#: How long a thread may hold the GIL while another waits (CPython's default: 5 ms). The
#: database runs on aiosqlite's thread, and each transaction hands the GIL over and back:
#: under load the default added up to tens of milliseconds to every accepted action.
SWITCH_INTERVAL = 0.0005


async def _tune_runtime(app: App) -> None:
    """Once start-up is done, keep what it loaded out of the collector's way.

    Servers, channels and resumed games live as long as the process; frozen, they are
    not scanned by every full collection, whose pauses otherwise stop all games at once.
    """
    if app.discord is not None:
        await app.discord.wait_until_ready()
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, old)
    sys.setswitchinterval(SWITCH_INTERVAL)


def _shutdown(sig: signal.Signals, stopping: asyncio.Event) -> None:
    log.info("received %s: shutting down", sig.name)
    stopping.set()


def on_fast_loop(main: Coroutine[Any, Any, T]) -> T:
    """Run `main` on uvloop where it is built (the load benchmark's generator too)."""
    with asyncio.Runner(loop_factory=uvloop.new_event_loop if uvloop else None) as runner:
        return runner.run(main)


def main() -> int:
    """Run the bot; the exit status. Why it stopped, when it did not stop cleanly, is its
    last line (bot.logs.say_why_it_stopped): 2 a setting or the token to fix, 3 the
    database to fix, 1 anything else (Discord or the database out of reach, after start-up's
    patience; a fault, with its traceback)."""
    load_dotenv()
    try:
        config = Config.from_env()
    except ConfigError as exc:
        say_why_it_stopped(str(exc), logs_as_json())
        return 2
    configure_logging(config.log_level, config.log_json, config.shard_count)
    point_discord_at(config)
    try:
        on_fast_loop(run(config))
    except Exception as exc:
        known = why_it_stopped(exc)
        if known is None and not config.log_json:
            raise
        if known is None:  # a fault: its traceback in the JSON line, as every other
            log.critical("the bot stopped on a fault", exc_info=exc)
            return 1
        why, status = known
        say_why_it_stopped(why, config.log_json)
        return status
    return 0


def why_it_stopped(exc: Exception) -> tuple[str, int] | None:
    """What the host is told for a known reason the bot could not run, and the exit status;
    None for a fault."""
    if isinstance(exc, discord.LoginFailure):  # at login, or a token reset while running
        return f"Discord refused the token (DISCORD_TOKEN). {TOKEN_HELP}", 2
    if isinstance(exc, ConfigError):  # a port or an address that cannot be listened on
        return str(exc), 2
    if isinstance(exc, ShardsHeld):  # another process runs them: a setting to fix
        return str(exc), 2
    if isinstance(exc, LeaseLost):  # another process runs them now: nothing to fix here
        return str(exc), 1
    if isinstance(exc, DatabaseNotUp):  # it may be up later: the service tries again
        return str(exc), 1
    if isinstance(exc, DatabaseUnusable):
        return str(exc), 3
    if isinstance(exc, OSError | aiohttp.ClientError):
        return f"cannot reach Discord ({exc}).", 1
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return "Discord refused the requested gateway intents.", 2
    if isinstance(exc, discord.ConnectionClosed) and exc.code == SHARDING_REQUIRED:
        return (
            "Discord requires more shards (the bot is in too many servers for "
            "APOPHIS_SHARD_COUNT): raise it, or leave it unset to use Discord's recommendation.",
            2,
        )
    return None
