"""What the bot tells its host: Prometheus metrics, `/healthz` and `/readyz`, served.

The instruments on hot paths are bot.metrics' (the bottom layer, no server); everything
else (games by state, the outbox's backlog, the table's sockets) is read at scrape time
from `Sources`, which bot.app fills in from the core and its doors. A `Metrics` has a
registry of its own (never prometheus_client's global one) with the process's own metrics
(memory, CPU, open files), and measures the event loop's lag while it runs. Its routes are
served by the live table's server when it runs, else by a small server of its own; see
docs/hosting.md, "Metrics and health".
"""

from __future__ import annotations

import asyncio
from collections import Counter as Tally
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass
from ipaddress import ip_address
from typing import Any

import aiohttp
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, ProcessCollector
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import generate_latest

from bot.metrics import DISCORD_429, DISCORD_REQUESTS, INSTRUMENTS, route_class

#: The states a game is counted in even when none is in it (a gauge that vanishes alerts
#: nobody).
STATES = ("lobby", "active")
#: How often the event loop's lag is measured, in seconds.
LAG_EVERY = 0.25
#: The gauge of the lag is its longest over this many seconds, whoever scrapes and how often.
LAG_WINDOW = 60.0
#: How long /readyz waits for the database's answer.
READY_SECONDS = 2.0
#: Headers a reverse proxy adds: a request that carries one came from elsewhere.
FORWARDED = ("Forwarded", "X-Forwarded-For", "X-Real-IP")


def discord_trace() -> aiohttp.TraceConfig:
    """Counts every request discord.py's session sends, and Discord's 429s, including those
    discord.py waits out and retries itself (the interaction tokens' requests go on
    connections of their own and are counted there: bot.discord.tokens)."""
    trace = aiohttp.TraceConfig()

    async def ended(session: Any, context: Any, params: aiohttp.TraceRequestEndParams) -> None:
        kind = route_class(params.url.path)
        DISCORD_REQUESTS.labels(kind).inc()
        if params.response.status == 429:
            DISCORD_429.labels(kind).inc()

    trace.on_request_end.append(ended)
    return trace


# -------------------------------------------------------------- read at scrape time


@dataclass(frozen=True, slots=True)
class Sources:
    """Where the gauges and the readiness are read, when asked (bot.app fills them in)."""

    #: The state ("lobby", "active") of each game in memory.
    games: Callable[[], Iterable[str]]
    #: The outbox's jobs waiting, and the age in seconds of the oldest of them.
    outbox: Callable[[], tuple[int, float]]
    #: The live table's open sockets (those watching a game).
    sockets: Callable[[], int]
    #: Why the bot is not connected to Discord's gateway, or None when it is.
    gateway: Callable[[], str | None]
    #: A trivial query; raises when the database does not answer.
    database: Callable[[], Awaitable[object]]


class _Gauges:
    """The gauges read at scrape time (a prometheus_client collector)."""

    def __init__(self, sources: Sources, lag: Callable[[], float]) -> None:
        self.sources, self.lag = sources, lag

    def collect(self) -> Iterator[Metric]:
        games = GaugeMetricFamily("apophis_games", "Games in memory, by state.", labels=["state"])
        counted = Tally(self.sources.games())
        for state in dict.fromkeys((*STATES, *counted)):
            games.add_metric([state], counted[state])
        yield games
        jobs, oldest = self.sources.outbox()
        yield GaugeMetricFamily(
            "apophis_outbox_jobs", "Outbox jobs waiting to be sent to Discord.", value=jobs
        )
        yield GaugeMetricFamily(
            "apophis_outbox_oldest_seconds",
            "How long the oldest job waiting in the outbox has waited.",
            value=oldest,
        )
        yield GaugeMetricFamily(
            "apophis_table_sockets",
            "The live table's open sockets watching a game.",
            value=self.sources.sockets(),
        )
        yield GaugeMetricFamily(
            "apophis_event_loop_lag_seconds",
            f"The event loop's longest lag over the last {LAG_WINDOW:g} s (measured every "
            f"{LAG_EVERY:g} s).",
            value=self.lag(),
        )


#: Marks the application of a server of our own (its routes answer whoever may reach it).
OWN_SERVER = web.AppKey("apophis_metrics_own_server", bool)


class Metrics:
    """The bot's registry, its routes, the loop's lag, and its own server when it has one."""

    def __init__(self, sources: Sources, *, host: str = "127.0.0.1", port: int | None = None):
        self.sources, self.host, self.port = sources, host, port
        self.registry = CollectorRegistry()
        for instrument in INSTRUMENTS:
            self.registry.register(instrument)
        ProcessCollector(registry=self.registry)  # process_*: memory, CPU, open files
        self.registry.register(_Gauges(sources, self.lag))
        #: When each lag of the last LAG_WINDOW seconds was measured, and how long it was.
        self._lags: deque[tuple[float, float]] = deque()
        self._tick: asyncio.TimerHandle | None = None
        self._runner: web.AppRunner | None = None

    # ------------------------------------------------------------------ routes

    def routes(self) -> list[tuple[str, str, Callable[[web.Request], Awaitable[web.Response]]]]:
        return [
            ("GET", "/metrics", self.metrics),
            ("GET", "/healthz", self.healthz),
            ("GET", "/readyz", self.readyz),
        ]

    async def metrics(self, request: web.Request) -> web.Response:
        _local_only(request)
        body = generate_latest(self.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def healthz(self, request: web.Request) -> web.Response:
        """The process runs its loop (this answer is proof)."""
        _local_only(request)
        return web.Response(text="ok\n")

    async def readyz(self, request: web.Request) -> web.Response:
        """Connected to Discord's gateway and the database answers; else 503 and why."""
        _local_only(request)
        reason = self.sources.gateway()
        if reason is None:
            try:
                async with asyncio.timeout(READY_SECONDS):
                    await self.sources.database()
            except TimeoutError:
                reason = f"the database did not answer within {READY_SECONDS:g} s"
            except Exception as exc:
                reason = f"the database did not answer ({type(exc).__name__}: {exc})"
        if reason is not None:
            return web.Response(status=503, text=f"not ready: {reason}\n")
        return web.Response(text="ready\n")

    # --------------------------------------------------------------- lifetime

    async def start(self) -> None:
        """Measure the loop's lag; serve the routes on a server of our own when `port` is
        set (0: any free port, then `self.port`)."""
        loop = asyncio.get_running_loop()
        self._tick = loop.call_later(LAG_EVERY, self._measure, loop, loop.time() + LAG_EVERY)
        if self.port is None:
            return
        app = web.Application()
        app[OWN_SERVER] = True
        for method, path, handler in self.routes():
            app.router.add_route(method, path, handler)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]  # the one bound, for port 0

    async def stop(self) -> None:
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def _measure(self, loop: asyncio.AbstractEventLoop, due: float) -> None:
        now = loop.time()
        self._lags.append((now, now - due))
        while self._lags[0][0] < now - LAG_WINDOW:
            self._lags.popleft()
        self._tick = loop.call_later(LAG_EVERY, self._measure, loop, now + LAG_EVERY)

    def lag(self) -> float:
        """The event loop's longest lag over the last LAG_WINDOW seconds (reading it changes
        nothing: every scraper sees the same)."""
        return max((lag for _, lag in self._lags), default=0.0)


def _local_only(request: web.Request) -> None:
    """Refuse (404) a request from another machine, or forwarded by a proxy, on the live
    table's server (a server of our own is bound where the host chose)."""
    if request.app.get(OWN_SERVER):
        return
    peer = request.remote or ""
    try:
        local = ip_address(peer).is_loopback
    except ValueError:
        local = False
    if not local or any(name in request.headers for name in FORWARDED):
        raise web.HTTPNotFound()
