"""Load benchmark of the whole bot: concurrent games, latency, CPU, memory, Discord budget.

Run: make bench   (or .venv/bin/python benchmarks/load_bench.py --help for the knobs)

What it does, in this process (the load generator) and one other (the bot):

* starts the fake Discord (devtools/fakediscord) here, with one guild per game table
  (a text channel and 4 members each), and the real bot (`python -m bot`, through
  benchmarks/bot_process.py) as a separate process on a fresh SQLite database, so
  the load generator never shares the bot's event loop. With `--database postgresql`
  the database is a fresh one on a throwaway PostgreSQL server (devtools/pgserver.py),
  and `--processes N` runs the bot as N processes sharing it, process k running
  shard k of N (APOPHIS_SHARD_IDS, APOPHIS_PROCESSES; the guilds spread evenly over
  the shards); bot CPU and memory are then those of all N, and the database server's
  CPU is given in the notes;
* open-loop load in steps of G concurrent 4-player games: every game is its own
  task; whoever must act waits a think time (uniform 0.5-1.5 x --think, default 5 s),
  then acts as a player would: from their hand panel (opened once with the board's My
  hand, then kept current by the bot; one click a move, a select for a chosen launch
  subset or a discard), some slash commands (/draw /build /launch /scrap /discard,
  --command-share), now and then a look at the hand; the team also chats in the
  channel (--chat messages per game a minute), which the bot counts to re-post a
  buried board. Games that end (won, lost on the clock) are reopened with /apophis new,
  join x3, start. Countdowns are a mix of the standard lengths and short games of 1 to
  5 minutes, so the clock warns and expires and games are reopened in every window.
  (Short games of a single length, all opened within the 10 s ramp, would end within
  seconds of each other: a burst of reopenings that steady play never has.)
* players decide with engine.playout.choose_action on the state the bot committed,
  read from the bot's database (SQLite read-only; option (c) of the issue): only the
  acting player's own view is used by the policy, so nobody cheats. Clicks use the
  buttons on the board message as the fake holds it; a player waits (up to 15 s) for
  the board to show the state before clicking, as a person would;
* for each step it measures a window of --duration seconds after a warm-up and
  prints one row: actions a second, latency from dispatch of the interaction to the
  bot's first response reaching the fake, latency to the last message the action
  caused (board edit, hand DMs), interactions past Discord's 3 s deadline (or never
  answered), CPU and resident memory of the bot process (from /proc), memory per
  game, and the requests that count against Discord's global limit (50/s);
* start-up recovery: N stored active games (written through bot.store.store.Store), then
  the time from process start to "resumed N open games" (clocks re-armed, a fresh
  board for every channel queued), and to the gateway IDENTIFY;
* the engine alone: actions a second with a save after each (Game.apply + orjson).

`--web-clients N` (default 0: no web server) also runs the bot's live table (bot.web, on
a free port) and opens N WebSockets per game beside the Discord load, socket k signed in
as the game's k-th player, so it receives that player's hand (benchmarks/web_clients.py).
The players still act through Discord. Each step then adds a row: delivery latency, from
an action's dispatch to each socket of its game receiving a state at least as new as
the one the action made (p50, p99 and max over all (action, socket) pairs), states
received a second, and the bot's CPU per action, to compare with a run of `--web-clients 0`.
The sockets offer permessage-deflate as browsers do (`--web-compression off`: they do not)
and send the web client's ping every 25 s. The notes give the live table's own CPU per
action, timed in the bot (benchmarks/bot_process.py: its feed, and the frames it sends).

Results go to the screen and to benchmarks/results/ (machine and commit recorded).

Knobs that change the meaning of figures: the bot's outbox normally paces itself at
45 requests a second; by default that pacing is lifted here (BENCH_GLOBAL_RATE) so that
the demand on the global limit is measured, not a queue. `--global-rate 45` is Discord's
production pacing: then hand DMs queue behind the budget, and the DM lag is the figure
to read. Each step also reports the share of the updates players wait for (boards,
panels, pings, reports, posts) that went through the global budget rather than an
interaction token. `--pictures off` runs the bot with no board pictures (as servers
that turned them off with /apophis config), to compare with pictures on (the default).
OpenAPI validation of request bodies in the fake is off for speed (`--validate` on).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import gc
import os
import platform
import random
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.web_clients import WebClients, WebWindow, bot_settings  # noqa: E402
from bot.app import on_fast_loop  # noqa: E402
from bot.store.postgres import is_postgresql  # noqa: E402
from bot.store.store import Store  # noqa: E402
from devtools.fakediscord import FakeDiscord, InvalidInvocation  # noqa: E402
from devtools.fakediscord.state import ChannelType  # noqa: E402
from devtools.livetable import free_port  # noqa: E402
from devtools.pgserver import PostgresServer, unavailable_reason  # noqa: E402
from engine import DIFFICULTY_MINUTES, Game, Phase, Size  # noqa: E402
from engine.playout import choose_action  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
NO_OPENAPI = Path("/nonexistent/discord-openapi.json")
HAND_EVENTS = {"cards_drawn", "cards_discarded", "section_built", "sequence_extended"}
HAND_EVENTS.add("player_removed")
DEADLINE = 3.0
#: Lines of the bot's diagnostics (bench-stall: only with BENCH_STALL_STACKS=1).
BOT_DIAGNOSTICS = ("bench-gc", "bench-stall")
#: A generation-2 threshold that the generator never reaches (it collects between steps).
NO_FULL_COLLECTION = 1_000_000_000
#: A first response slower than this is counted in --verbose's account of stalls.
SLOW = 0.05
#: A player waits at most this long for the board to show the state before clicking.
BOARD_PATIENCE = 15.0
#: A player waits at most this long for the bot to bring their panel up to date.
PANEL_PATIENCE = 3.0
#: Interactions unanswered after this long count as failed.
ANSWER_TIMEOUT = 10.0


# ------------------------------------------------------------------ small helpers


def stalls(slow: list[tuple[float, float]], origin: float) -> str:
    """How first responses over SLOW cluster: a few bursts are stalls, a spread is a queue.
    Each of the largest bursts is shown as (count, worst ms, seconds into the window)."""
    if not slow:
        return f"no first response over {SLOW * 1000:.0f} ms"
    slow.sort()
    bursts: list[list[tuple[float, float]]] = [[slow[0]]]
    for at, latency in slow[1:]:
        previous_at, previous_latency = bursts[-1][-1]
        if at <= previous_at + previous_latency:
            bursts[-1].append((at, latency))
        else:
            bursts.append([(at, latency)])
    biggest = sorted(bursts, key=len, reverse=True)[:5]
    return (
        f"{len(slow)} first responses over {SLOW * 1000:.0f} ms in {len(bursts)} bursts; "
        "largest (count, worst ms, at s): "
        + ", ".join(
            f"({len(b)}, {max(x[1] for x in b) * 1000:.0f}, {b[0][0] - origin:.1f})"
            for b in biggest
        )
    )


def median_ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.0f}" if values else "-"


def p99_ms(values: list[float]) -> str:
    return f"{percentile(values, 0.99) * 1000:.0f}" if values else "-"


def seconds_of(values: list[float], q: float) -> str:
    return f"{percentile(values, q):.2f}" if values else "-"


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def runqueue_wait(pid: int) -> float:
    """Seconds the process's main thread has waited for a CPU while runnable."""
    with contextlib.suppress(OSError), open(f"/proc/{pid}/schedstat") as f:
        return int(f.read().split()[1]) / 1e9
    return float("nan")


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def machine() -> str:
    model = platform.processor() or platform.machine()
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    mem = ""
    with contextlib.suppress(OSError), open("/proc/meminfo") as f:
        mem = f", {int(f.readline().split()[1]) / 1024 / 1024:.1f} GiB RAM"
    return f"{model}, {cpus} cpus{mem}, {platform.system()} {platform.release()}"


def commit() -> str:
    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, check=False
        ).stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    return head + (" (with uncommitted changes)" if git("status", "--porcelain", "bot") else "")


# ------------------------------------------------------------- the bot's database

#: The throwaway PostgreSQL server of a run with --database postgresql.
SERVER: PostgresServer | None = None


def new_database(args, workdir: Path) -> str:
    """A fresh database for one run: an SQLite file, or a new database on the server."""
    if SERVER is None:
        return str(workdir / "apophis.sqlite3")
    return SERVER.create_database()


def server_cpu() -> float:
    """CPU seconds of the PostgreSQL server and its backends (0 without one)."""
    if SERVER is None or SERVER.process is None:
        return 0.0
    pid_file = SERVER.data / "postmaster.pid"
    postmaster = int(pid_file.read_text().split()[0])
    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(entry.name) == postmaster or int(fields[1]) == postmaster:
                    total += cpu_seconds(int(entry.name))
    return total


def shard_settings(args, index: int) -> dict[str, str]:
    """The environment of bot process `index` of --processes: its shard of as many."""
    if args.processes == 1:
        return {}
    return {
        "APOPHIS_SHARD_COUNT": str(args.processes),
        "APOPHIS_SHARD_IDS": str(index),
        "APOPHIS_PROCESSES": str(args.processes),
    }


# ------------------------------------------------------------- what messages show


def shown_version(message) -> int:
    """The state version a board or panel message was drawn for (-1: none)."""
    for component in message.iter_components():
        parts = component.get("custom_id", "").split(":")
        if len(parts) >= 5 and parts[0] == "apo":
            return int(parts[3])
    return -1


# ---------------------------------------------------------------- the bot process


class BotProcess:
    """`python -m bot` (via benchmarks/bot_process.py) pointed at the fake."""

    def __init__(
        self,
        fake: FakeDiscord,
        database: str,
        workdir: Path,
        *,
        log_level: str,
        args,
        settings: dict[str, str] | None = None,
    ) -> None:
        self.fake, self.database, self.log_level, self.args = fake, database, log_level, args
        self.workdir = workdir
        #: More environment variables (the shards of one of several processes).
        self.settings = settings or {}
        self.proc: asyncio.subprocess.Process | None = None
        self.started = 0.0
        self.lines: deque[str] = deque(maxlen=200)
        self._watchers: list[tuple[re.Pattern, asyncio.Future]] = []
        self._reader: asyncio.Task | None = None

    async def start(self) -> None:
        env = {
            **os.environ,
            "DISCORD_TOKEN": self.fake.bot_token,
            "APOPHIS_DATABASE": str(self.database),
            "APOPHIS_LOG_LEVEL": self.log_level,
            "DISCORD_API_BASE_URL": self.fake.api_base_url,
            "DISCORD_GATEWAY_URL": self.fake.gateway_url,
            "APOPHIS_TIME_SCALE": str(self.args.time_scale),
            "BENCH_GLOBAL_RATE": str(self.args.global_rate),
            "BENCH_PICTURES": self.args.pictures,
            "PYTHONUNBUFFERED": "1",
            "BENCH_GC_LOG": "1" if self.args.verbose else "",
            "BENCH_STALL_STACKS": os.environ.get("BENCH_STALL_STACKS", ""),
            "BENCH_SLOW_CALLBACKS": os.environ.get("BENCH_SLOW_CALLBACKS", ""),
            **self.settings,
        }
        self.started = time.monotonic()
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(ROOT / "benchmarks" / "bot_process.py"),
            cwd=str(self.workdir),
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        log = open(self.workdir / "bot.log", "a")  # noqa: SIM115
        while line := await self.proc.stderr.readline():
            text = line.decode(errors="replace").rstrip()
            self.lines.append(text)
            log.write(text + "\n")
            for pattern, future in list(self._watchers):
                if not future.done() and (match := pattern.search(text)):
                    future.set_result((time.monotonic(), match))

    def watch(self, pattern: str) -> asyncio.Future:
        future = asyncio.get_running_loop().create_future()
        self._watchers.append((re.compile(pattern), future))
        return future

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def errors(self) -> list[str]:
        return [line for line in self.lines if " ERROR " in line or "Traceback" in line]

    async def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), 30)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._reader, 5)


class Bots:
    """The bot's processes, measured together."""

    def __init__(self, processes: list[BotProcess]) -> None:
        self.processes = processes

    @property
    def lines(self) -> list[str]:
        return [line for p in self.processes for line in p.lines]

    def exited(self) -> bool:
        return any(p.proc is None or p.proc.returncode is not None for p in self.processes)

    def cpu(self) -> float:
        return sum(cpu_seconds(p.pid) for p in self.processes)

    def rss_kb(self) -> int:
        return sum(rss_kb(p.pid) for p in self.processes)

    def runqueue_wait(self) -> float:
        return sum(runqueue_wait(p.pid) or 0.0 for p in self.processes)

    async def picture_cpu(self) -> float:
        """CPU seconds the processes spent on pictures so far (bot_process.count_picture_cpu)."""
        total = 0.0
        for p in self.processes:
            said = p.watch(r"^bench-pictures: (\S+) (\d+)$")
            p.proc.send_signal(signal.SIGUSR2)
            _, match = await asyncio.wait_for(said, 10)
            total += float(match.group(1))
        return total

    async def web_cpu(self) -> list[float]:
        """CPU seconds and calls of the live table so far, summed over the processes
        (bot_process.count_web_cpu: public, private, feed, frames; seconds then calls)."""
        total = [0.0] * 8
        for p in self.processes:
            said = p.watch(r"^bench-web: ([\d. ]+)$")
            p.proc.send_signal(signal.SIGUSR2)
            _, match = await asyncio.wait_for(said, 10)
            total = [a + float(b) for a, b in zip(total, match.group(1).split(), strict=True)]
        return total

    def errors(self) -> list[str]:
        return [line for p in self.processes for line in p.errors()]


# --------------------------------------------------------------------- load model


@dataclass
class Pending:
    """An applied action waiting for the messages it causes (board, hand DMs)."""

    t0: float
    version: int
    dms: set[int]
    board_at: float | None = None
    last: float = 0.0


@dataclass
class Tab:
    """One guild/channel with 4 members, and the game currently played there."""

    index: int
    guild: Any
    channel: Any
    members: list[Any]
    rng: random.Random
    game_id: int | None = None
    started: bool = False
    board_id: int | None = None
    #: Version the board message shows; -1 for a lobby, None once the game is over.
    board_version: int | None = -1
    board_time: float = 0.0
    pending: list[Pending] = field(default_factory=list)
    #: user id -> their hand panel message (kept current by the bot through their token).
    panels: dict[int, Any] = field(default_factory=dict)
    panel_changed: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Sample:
    """What one measurement window saw."""

    first: list[float] = field(default_factory=list)
    last: list[float] = field(default_factory=list)
    #: From dispatch to the board showing the action.
    board: list[float] = field(default_factory=list)
    #: From dispatch to each hand DM showing the action.
    dm_lag: list[float] = field(default_factory=list)
    actions: int = 0
    interactions: int = 0
    failed: int = 0
    refused: int = 0
    stale: int = 0
    unfinished: list[float] = field(default_factory=list)
    #: How late the generator's own event loop woke up (its lag inflates every latency).
    lag: list[float] = field(default_factory=list)
    #: (woke at, lag) of the generator's lags over SLOW.
    lag_spikes: list[tuple[float, float]] = field(default_factory=list)
    #: The generator's garbage collections of 10 ms or more: (generation, seconds).
    gc_pauses: list[tuple[int, float]] = field(default_factory=list)
    kinds: dict[str, int] = field(default_factory=dict)
    #: First-response latencies by kind of interaction (printed with --verbose).
    by_kind: dict[str, list[float]] = field(default_factory=dict)
    #: (dispatched at, latency) of first responses over SLOW, to tell stalls from queues.
    slow: list[tuple[float, float]] = field(default_factory=list)


class Load:
    """The fake Discord, the games on it, and what the bot does to them."""

    def __init__(self, fake: FakeDiscord, args, database: str) -> None:
        self.fake, self.args = fake, args
        self.database = database
        self.db: sqlite3.Connection | None = None
        self.pg: asyncpg.Pool | None = None
        self.tabs: list[Tab] = []
        self.boards: dict[int, Tab] = {}
        #: panel message id -> its tab
        self.panels: dict[int, Tab] = {}
        #: interactions the bot may still use the tokens of (kept when pruning)
        self.latest_by_user: dict[int, deque] = {}
        self.latest_by_channel: dict[int, deque] = {}
        self.user_tab: dict[int, Tab] = {}
        self.channel_tab: dict[int, Tab] = {}
        self.last_dm: dict[int, float] = {}
        self.waiters: dict[int, asyncio.Future] = {}
        self.window: Sample | None = None
        self.window_span = (0.0, 0.0)
        self.tasks: list[asyncio.Task] = []
        self.running = True
        #: How many tables are in play (the first ones).
        self.playing = 0
        self.setup_gate = asyncio.Semaphore(args.setup_concurrency)
        #: The sockets at the bot's live table (--web-clients), None without.
        self.web: WebClients | None = None
        self._recent: deque[tuple[float, int]] = deque()
        self._hook()

    # --------------------------------------------------------- seeing the bot's output

    def _hook(self) -> None:
        """Observe the fake's message records without waking every waiter on each change."""
        fake, world, rest = self.fake, self.fake.world, self.fake._rest
        add_message, edit, attempt = world.add_message, rest._edit, rest._attempt

        def on_add(channel, **fields):
            message = add_message(channel, **fields)
            now = time.monotonic()
            if channel.type is ChannelType.DM:
                self.on_dm(channel.recipient.id, now)
            elif not message.ephemeral and ":hand" in str(message.components):
                tab = self.channel_tab.get(channel.id)
                if tab is not None and tab.board_id != message.id:  # the board, posted again
                    self.boards.pop(tab.board_id, None)
                    tab.board_id = message.id
                    self.boards[message.id] = tab
                    self.on_board(tab, message, now)
            self._recent.append((now, message.id))
            return message

        def on_edit(message, request, body=None, **options):
            edit(message, request, body, **options)
            message.history.clear()
            now = time.monotonic()
            tab = self.boards.get(message.id)
            if tab is not None and message.components:  # (a stub has none: moved down)
                self.on_board(tab, message, now)
            elif message.id in self.panels:
                self.panels[message.id].panel_changed.set()
            elif message.guild_id is None and message.channel_id in world.channels:
                recipient = world.channels[message.channel_id].recipient
                if recipient is not None:
                    self.on_dm(recipient.id, now)

        def on_attempt(interaction, body, status):
            attempt(interaction, body, status)
            waiter = self.waiters.pop(interaction.id, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(None)

        world.add_message, rest._edit, rest._attempt = on_add, on_edit, on_attempt
        fake.notifier.bump = lambda: None  # nobody here waits on the notifier

    def on_board(self, tab: Tab, message, now: float) -> None:
        version: int | None = None
        actions = []
        for component in message.iter_components():
            custom_id = component.get("custom_id", "")
            if custom_id.startswith("apo:b:"):
                _, _, _, v, action = custom_id.split(":")
                version = int(v)
                actions.append(action)
        if "join" in actions or "start" in actions:
            version = -1
        tab.board_version, tab.board_time = version, now
        for p in tab.pending:
            if p.board_at is None and (version is None or version >= p.version):
                p.board_at = now
                p.last = max(p.last, now)
        self._settle(tab)

    def on_dm(self, user_id: int, now: float) -> None:
        self.last_dm[user_id] = now
        tab = self.user_tab.get(user_id)
        if tab is None:
            return
        for p in tab.pending:
            if user_id in p.dms and now >= p.t0:
                p.dms.discard(user_id)
                p.last = max(p.last, now)
                if self.in_window(p.t0):
                    self.window.dm_lag.append(now - p.t0)
        self._settle(tab)

    def _settle(self, tab: Tab) -> None:
        done = [p for p in tab.pending if p.board_at is not None and not p.dms]
        if not done:
            return
        tab.pending = [p for p in tab.pending if p not in done]
        for p in done:
            if self.in_window(p.t0):
                self.window.last.append(p.last - p.t0)
                self.window.board.append(p.board_at - p.t0)

    def in_window(self, t: float) -> bool:
        return self.window is not None and self.window_span[0] <= t < self.window_span[1]

    # ---------------------------------------------------------------- interactions

    def watch_gc(self) -> None:
        """Record the generator's own garbage collections (they delay what it timestamps)."""
        began = [0.0]

        def callback(phase: str, info: dict) -> None:
            now = time.monotonic()
            if phase == "start":
                began[0] = now
            elif self.window is not None and now - began[0] >= 0.01:
                self.window.gc_pauses.append((info["generation"], now - began[0]))

        gc.callbacks.append(callback)

    async def watch_lag(self) -> None:
        while self.running:
            began = time.monotonic()
            await asyncio.sleep(0.01)
            if self.window is not None:
                woke = time.monotonic()
                lag = woke - began - 0.01
                self.window.lag.append(lag)
                if lag > SLOW:
                    self.window.lag_spikes.append((woke, lag))

    async def answered(self, interaction, kind: str) -> bool:
        """Wait for the first response; record its latency. False if refused or late."""
        for latest, key in (
            (self.latest_by_user, interaction.user.id),
            (self.latest_by_channel, interaction.channel.id),
        ):
            latest.setdefault(key, deque(maxlen=3)).append(interaction.id)
        if not interaction.attempts:
            waiter = asyncio.get_running_loop().create_future()
            self.waiters[interaction.id] = waiter
            try:
                await asyncio.wait_for(waiter, ANSWER_TIMEOUT)
            except TimeoutError:
                self.waiters.pop(interaction.id, None)
        sample = self.window if self.in_window(interaction.created_at) else None
        if sample is not None:
            sample.interactions += 1
            sample.kinds[kind] = sample.kinds.get(kind, 0) + 1
        if not interaction.attempts:
            if sample is not None:
                sample.failed += 1
            return False
        attempt = interaction.attempts[0]
        latency = attempt.at - interaction.created_at
        if sample is not None:
            sample.first.append(latency)
            sample.by_kind.setdefault(kind, []).append(latency)
            if latency > SLOW:
                sample.slow.append((interaction.created_at, latency))
            if attempt.status != 200 or latency > DEADLINE:
                sample.failed += 1
        return attempt.status == 200

    async def command(self, tab: Tab, name: str, user, kind: str | None = None, **options):
        interaction = await self.fake.invoke(name, user=user, channel=tab.channel, **options)
        await self.answered(interaction, kind or "/" + name)
        return interaction

    async def click(self, tab: Tab, message, action: str, user, kind: str):
        custom_id = next(
            (
                c["custom_id"]
                for c in message.iter_components()
                if c.get("custom_id", "").count(":") >= 4
                and (tail := c["custom_id"].split(":", 4)[4]) is not None
                and (tail == action or tail.startswith(action + ":"))
                and not c.get("disabled")
            ),
            None,
        )
        if custom_id is None:
            return None
        interaction = await self.fake.click(message, custom_id, user=user)
        await self.answered(interaction, kind)
        return interaction

    # ------------------------------------------------------------------- the world

    def build_world(self, count: int) -> None:
        fake, shards = self.fake, self.args.processes
        for i in range(len(self.tabs), count):
            guild = fake.add_guild(f"Club {i}", shard=(i % shards, shards) if shards > 1 else None)
            channel = fake.add_text_channel(guild, "apophis")
            members = [fake.add_member(guild, f"p{i}-{seat}") for seat in range(4)]
            tab = Tab(i, guild, channel, members, random.Random(i))
            for member in members:
                self.user_tab[member.user.id] = tab
            self.channel_tab[channel.id] = tab
            self.tabs.append(tab)

    async def open_db(self) -> None:
        if is_postgresql(self.database):
            self.pg = await asyncpg.create_pool(self.database, min_size=1, max_size=8)
        else:
            self.db = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True)

    async def close_db(self) -> None:
        if self.pg is not None:
            await self.pg.close()

    async def fetchone(self, query: str, *args: Any) -> tuple | None:
        """One row of the bot's database (queries with $1, $2... as parameters)."""
        if self.pg is not None:
            row = await self.pg.fetchrow(query, *args)
            return None if row is None else tuple(row)
        return self.db.execute(re.sub(r"\$\d+", "?", query), args).fetchone()

    async def row(self, game_id: int) -> tuple[str, str | None, int]:
        return await self.fetchone(
            "SELECT status, state, version FROM games WHERE id = $1", game_id
        )

    # ------------------------------------------------------------------- the games

    async def new_game(self, tab: Tab) -> bool:
        """/apophis new, three joins, start: as a group of friends would."""
        host, *others = tab.members
        rng = tab.rng
        options: dict[str, Any] = {"rules": rng.choice(("basic", "advanced"))}
        if rng.random() < self.args.short_games:
            options["minutes"] = rng.randint(1, 5)
        else:
            options["difficulty"] = rng.choice(tuple(DIFFICULTY_MINUTES))
        async with self.setup_gate:
            reply = await self.command(tab, "apophis new", host, **options)
            lobby = reply.message
            if lobby is None or lobby.ephemeral:
                return False
            tab.board_id, tab.board_version, tab.pending = lobby.id, -1, []
            self.boards[lobby.id] = tab
            tab.game_id = int(
                next(lobby.iter_components())["components"][0]["custom_id"].split(":")[2]
            )
            for member in others:
                await self.command(tab, "apophis join", member)
            start = await self.command(tab, "apophis start", host)
            started = start.responded and "game has started" in str(start.response_data)
            tab.started, tab.panels = started, {}
            if started:
                self.keep_panel(tab, host.user.id, start.message)
            return tab.started

    async def play(self, tab: Tab, first_delay: float) -> None:
        rng = tab.rng
        await asyncio.sleep(first_delay)
        while self.running:
            try:
                if tab.game_id is None and not await self.new_game(tab):
                    await asyncio.sleep(1.0)
                    continue
                await asyncio.sleep(self.args.think * rng.uniform(0.5, 1.5))
                await self.turn(tab)
            except (InvalidInvocation, LookupError) as exc:  # the board moved under us
                if self.window is not None:
                    self.window.refused += 1
                if self.args.verbose:
                    print(f"table {tab.index}: {exc}", file=sys.stderr)
            except Exception as exc:
                print(f"table {tab.index}: {type(exc).__name__}: {exc}", file=sys.stderr)
                await asyncio.sleep(1.0)

    async def turn(self, tab: Tab) -> None:
        status, state, version = await self.row(tab.game_id)
        if status != "active":
            tab.game_id = None
            return
        game = Game.restore(orjson.loads(state))
        if game.phase is Phase.RESHUFFLE:
            return  # the bot finishes it after 10 s (scaled); look again later
        action = choose_action(game.view_for(game.active_player), tab.rng)
        kind = action["type"]
        player = next(m for m in tab.members if m.user.id == action["player"])
        rng = tab.rng
        if rng.random() < self.args.hand_share:  # a new panel, from the board or typed
            if rng.random() < 0.5 and tab.board_id is not None:
                board = self.fake.world.messages[tab.board_id]
                looked = await self.click(tab, board, "hand", player, "button hand")
            else:
                looked = await self.command(tab, "hand", player, "/hand")
            if looked is not None:
                self.keep_panel(tab, player.user.id, looked.message)
        by_command = kind not in ("reroll", "accept") and rng.random() < self.args.command_share
        if by_command:
            interaction = await self.slash(tab, action, player)
            if interaction.message is not None and interaction.message.embeds:
                self.keep_panel(tab, player.user.id, interaction.message)  # answered with it
        else:
            interaction = await self.by_panel(tab, action, player, version)
        if interaction is None:
            return
        await self.applied(tab, interaction, version, player.user.id, kind)

    async def slash(self, tab: Tab, action: dict, player):
        kind = action["type"]
        if kind in ("draw", "scrap"):
            return await self.command(tab, kind, player)
        if kind == "build":
            return await self.command(
                tab, "build", player, colour=action["colour"], size=Size(action["size"]).label
            )
        return await self.command(tab, kind, player, cards=" ".join(action["cards"]))

    def keep_panel(self, tab: Tab, user_id: int, message) -> None:
        """`message` is now the player's panel (the bot keeps it current)."""
        if message is None or not message.ephemeral:
            return
        old = tab.panels.get(user_id)
        if old is not None and old.id != message.id:
            self.panels.pop(old.id, None)
        tab.panels[user_id] = message
        self.panels[message.id] = tab
        tab.panel_changed.set()

    async def panel_of(self, tab: Tab, player, version: int):
        """The player's panel showing `version`: waits for the bot to refresh it (their turn
        came), and opens a new one with My hand when there is none or it stays behind."""
        user_id = player.user.id
        deadline = time.monotonic() + PANEL_PATIENCE
        while (panel := tab.panels.get(user_id)) is not None and shown_version(panel) < version:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            tab.panel_changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(tab.panel_changed.wait(), left)
        if panel is None or shown_version(panel) < version:
            if self.window is not None and panel is not None:
                self.window.kinds["panel behind"] = self.window.kinds.get("panel behind", 0) + 1
            board = self.fake.world.messages.get(tab.board_id)
            opened = await self.click(tab, board, "hand", player, "panel open") if board else None
            if opened is None or opened.message is None:
                return None
            self.keep_panel(tab, user_id, opened.message)
            panel = opened.message
        return panel

    async def by_panel(self, tab: Tab, action: dict, player, version: int):
        """One click (or one select) on the player's panel."""
        kind = action["type"]
        panel = await self.panel_of(tab, player, version)
        if panel is None:
            return None
        if kind == "build":
            target = f"build:{action['colour']}.{action['size']}"
        elif kind == "launch":
            wanted = sorted(c[-1] for c in action["cards"])
            button = next(
                (c for c in panel.iter_components() if ":launch:" in c.get("custom_id", "")),
                None,
            )
            if (
                button is not None
                and sorted(x[-1] for x in button["custom_id"].split(":")[5].split(".")) == wanted
            ):
                target = "launch"
            else:  # a chosen subset: the panel's card of each chosen suit
                select = next((c for c in panel.iter_components() if c.get("type") == 3), None)
                if select is None:  # not the panel's cards (a higher one): typed instead
                    return await self.slash(tab, action, player)
                values = [o["value"] for o in select["options"] if o["value"][-1] in wanted]
                chosen = await self.fake.select(panel, select["custom_id"], values, user=player)
                await self.answered(chosen, "panel launch subset")
                return chosen
        elif kind == "discard":
            select = next((c for c in panel.iter_components() if c.get("type") == 3), None)
            if select is None:  # the panel does not offer it (yet): typed instead
                return await self.slash(tab, action, player)
            chosen = await self.fake.select(
                panel, select["custom_id"], list(action["cards"]), user=player
            )
            await self.answered(chosen, "panel discard")
            return chosen
        else:
            target = kind
        return await self.click(tab, panel, target, player, "panel " + kind)

    async def applied(self, tab: Tab, interaction, before: int, actor: int, kind: str) -> None:
        """If the bot applied the action, wait for what it causes (board, DMs)."""
        row = await self.fetchone(
            "SELECT actor, events FROM actions WHERE game_id = $1 AND version = $2",
            tab.game_id,
            before + 1,
        )
        if row is None or row[0] != actor:
            if self.in_window(interaction.created_at):
                self.window.stale += 1
            return
        t0 = interaction.created_at
        if self.in_window(t0):
            self.window.actions += 1
            if self.web is not None:  # each socket of the game owes a state this new
                self.web.expect(tab.index, t0, tab.game_id, before + 1)
            self.window.kinds["action " + kind] = self.window.kinds.get("action " + kind, 0) + 1
        events = orjson.loads(row[1])
        dms = {e["player"] for e in events if e["kind"] in HAND_EVENTS}
        if self.in_window(t0):  # DMs that came before we looked
            self.window.dm_lag += [
                self.last_dm[u] - t0 for u in dms if self.last_dm.get(u, 0.0) >= t0
            ]
        dms = {u for u in dms if self.last_dm.get(u, 0.0) < t0}
        pending = Pending(t0, before + 1, dms, last=t0)
        if tab.board_version is None or tab.board_version >= pending.version:
            pending.board_at = pending.last = max(tab.board_time, t0)
        for user in list(dms):
            if self.last_dm.get(user, 0.0) >= t0:
                dms.discard(user)
        tab.pending.append(pending)
        self._settle(tab)

    # --------------------------------------------------------------------- upkeep

    async def keep_pruning(self) -> None:
        """Prune every second: a little at a time, as one large prune held the generator's
        loop for up to a quarter of a second (and inflated the latencies it was timing)."""
        while self.running:
            await asyncio.sleep(1.0)
            self.prune()

    def prune(self) -> None:
        """Forget what the fake recorded long ago (a long run would fill memory)."""
        world, cutoff = self.fake.world, time.monotonic() - 120
        while self._recent and self._recent[0][0] < cutoff:
            _, message_id = self._recent.popleft()
            if message_id not in self.boards and message_id not in self.panels:
                world.messages.pop(message_id, None)
        # Tokens the bot may still use: each player's and each channel's latest, the boards'.
        keep = {i for latest in self.latest_by_user.values() for i in latest}
        keep.update(i for latest in self.latest_by_channel.values() for i in latest)
        keep.update(m.interaction_id for m in map(world.messages.get, self.boards) if m is not None)
        old = []
        for key, interaction in world.interactions.items():  # oldest first
            if interaction.created_at >= cutoff:
                break
            if key not in keep:
                old.append(key)
        for key in old:
            interaction = world.interactions.pop(key)
            world.interactions_by_token.pop(interaction.token, None)
        for session in self.fake.gateway.shards.values():
            session.sent.clear()
        for tab in self.tabs:
            if tab.pending and tab.pending[0].t0 < cutoff:
                tab.pending = [p for p in tab.pending if p.t0 >= cutoff]


# ---------------------------------------------------------------------- one run


@dataclass
class StepResult:
    games: int
    seconds: float
    sample: Sample
    bot_cpu: float
    gen_cpu: float
    rss_mb: float
    kb_per_game: float
    global_requests: int
    routes: dict[str, int]
    #: Updates players wait for (not DMs): through the global budget, and in all.
    budget_updates: int = 0
    updates: int = 0
    #: What the live table's sockets saw (--web-clients), None without.
    web: WebWindow | None = None


def updates_in(fake: FakeDiscord, records) -> tuple[int, int, int]:
    """(global requests for boards/posts/pings/reports, all such updates, DM requests).

    Updates are what the outbox sends to the game's channel: through an interaction's
    token (edits, follow-ups, deletions: free) or through the channel routes (global).
    """
    budget = tokens = dms = 0
    for r in records:
        if r.counts_global:
            parts = r.path.split("/")
            channel = fake.world.channels.get(int(parts[4])) if "/channels/" in r.path else None
            if r.route.startswith("POST /users/@me/channels") or (
                channel is not None and channel.type is ChannelType.DM
            ):
                dms += 1
            elif channel is not None:
                budget += 1
        elif "/webhooks/" in r.path:
            tokens += 1
    return budget, budget + tokens, dms


async def chatter(load: Load, per_minute: float) -> None:
    """The teams talk in their channels (the bot counts it to re-post buried boards)."""
    rng = random.Random(7)
    while load.running:
        await asyncio.sleep(1.0)
        tabs = load.tabs[: load.playing]
        for _ in range(round(per_minute * len(tabs) / 60 + rng.random() - 0.5)):
            tab = rng.choice(tabs)
            await load.fake.say(tab.channel, rng.choice(tab.members), "nice one")


async def run_load(args) -> tuple[list[StepResult], list[str]]:
    notes: list[str] = []
    options: dict[str, Any] = {"keep_history": False}  # earlier versions of edited messages
    if not args.validate:
        options["openapi_path"] = NO_OPENAPI
    fake = FakeDiscord(**options)
    await fake.start()
    workdir = Path(tempfile.mkdtemp(prefix="apophis-bench-"))
    database = new_database(args, workdir)
    load = Load(fake, args, database)
    load.build_world(max(args.steps))
    # With --web-clients, each process serves its shard's games' live table on a port.
    ports = [free_port() for _ in range(args.processes)] if args.web_clients else []
    bots = [
        BotProcess(
            fake,
            database,
            workdir,
            log_level="WARNING",
            args=args,
            settings={
                **shard_settings(args, k),
                **(bot_settings(ports[k], fake.world.application_id) if ports else {}),
            },
        )
        for k in range(args.processes)
    ]
    bot = Bots(bots)
    await asyncio.gather(*(b.start() for b in bots))
    results: list[StepResult] = []
    try:
        # Ready when it answers: the probe is retried until the bot has the guilds.
        began = time.monotonic()
        while True:
            if bot.exited():
                raise RuntimeError("a bot process exited:\n" + "\n".join(bot.lines))
            # Every shard connected (a process runs one a thousand guilds, each logging in
            # 5 s after the last), and a table of each process answers.
            connected = all(fake.gateway.session_for(tab.guild.id) for tab in load.tabs)
            if connected and fake.world.global_commands:
                probes = [
                    await fake.invoke("apophis rules", user=tab.members[0], channel=tab.channel)
                    for tab in load.tabs[: args.processes]
                ]
                answered = [await load.answered(probe, "probe") for probe in probes]
                if all(answered):
                    break
            await asyncio.sleep(0.5)
            if time.monotonic() - began > 120:
                raise RuntimeError("the bot did not answer within 120 s")
        await load.open_db()
        if ports:
            load.web = WebClients(args.web_clients, compress=args.web_compression == "on")
        load.tasks.append(asyncio.create_task(load.watch_lag()))
        load.tasks.append(asyncio.create_task(load.keep_pruning()))
        if args.chat:
            load.tasks.append(asyncio.create_task(chatter(load, args.chat)))
        load.watch_gc()
        # The generator's own full collections, over all the fake's state, took hundreds of
        # milliseconds and froze the clock that timestamps the bot's answers (bursts of
        # "slow" answers that the bot had sent in time). So the generator collects fully
        # only between steps, and what is alive then is frozen out of later collections.
        gc.set_threshold(*gc.get_threshold()[:2], NO_FULL_COLLECTION)
        idle_rss = bot.rss_kb()
        notes.append(
            f"bot ready (answering) {time.monotonic() - began:.1f} s after start, "
            f"{len(load.tabs):,} guilds; idle RSS {idle_rss / 1024:.1f} MB"
        )
        running = 0
        for games in args.steps:
            if load.web is not None:  # the new games' sockets, open before they play
                await load.web.connect(
                    [
                        (
                            tab.index,
                            f"http://localhost:{ports[tab.index % args.processes]}",
                            tab.channel.id,
                            [(m.user.id, m.user.name) for m in tab.members],
                        )
                        for tab in load.tabs[running:games]
                    ]
                )
            gc.collect()
            gc.freeze()
            for tab in load.tabs[running:games]:
                delay = random.uniform(0, args.ramp)
                load.tasks.append(asyncio.create_task(load.play(tab, delay)))
            running = load.playing = games
            await asyncio.sleep(args.ramp)
            # Settle: every table has a game and every player has had their hand by DM
            # (the first DMs open DM channels: a one-off burst that is not the steady state).
            settle_until = time.monotonic() + args.ramp + 120
            players = [m.user.id for t in load.tabs[:games] for m in t.members]
            while time.monotonic() < settle_until:
                started = sum(1 for t in load.tabs[:games] if t.started)
                dealt = sum(1 for user in players if user in load.last_dm)
                if started >= games and dealt >= len(players):
                    break
                await asyncio.sleep(0.5)
            fake.requests.clear()
            await asyncio.sleep(args.warmup)
            sample = load.window = Sample()
            start = time.monotonic()
            load.window_span = (start, start + args.duration)
            if load.web is not None:
                load.web.begin(start, start + args.duration)
            if args.verbose:  # e.g. to point a profiler at the bot for the window
                print(f"  G={games:,}: measuring for {args.duration:.0f} s", flush=True)
            pictures = args.pictures == "on"
            drawing0 = await bot.picture_cpu() if pictures else 0.0
            web0 = await bot.web_cpu() if load.web is not None else None
            cpu0, gen0, db0 = bot.cpu(), time.process_time(), server_cpu()
            waits0 = bot.runqueue_wait(), runqueue_wait(os.getpid())
            await asyncio.sleep(args.duration)
            end = time.monotonic()
            cpu1, gen1, db1 = bot.cpu(), time.process_time(), server_cpu()
            waits1 = bot.runqueue_wait(), runqueue_wait(os.getpid())
            drawing1 = await bot.picture_cpu() if pictures else 0.0
            web1 = await bot.web_cpu() if load.web is not None else None
            rss = bot.rss_kb()
            # Let actions of the window finish their messages (board edit, DMs).
            grace = time.monotonic() + args.grace
            while time.monotonic() < grace:
                await asyncio.sleep(0.25)
                if not any(p.t0 < end for t in load.tabs[:games] for p in t.pending):
                    break
            if load.web is not None:  # and the states they make to reach every socket
                while time.monotonic() < grace and load.web.owed():
                    await asyncio.sleep(0.25)
            load.window = None
            for tab in load.tabs[:games]:
                sample.unfinished += [end - p.t0 for p in tab.pending if start <= p.t0 < end]
            window = [r for r in fake.requests if start <= r.at < end]
            inside = [r for r in window if r.counts_global]
            budget_updates, updates, _ = updates_in(fake, window)
            routes: dict[str, int] = {}
            for r in inside:
                routes[r.route] = routes.get(r.route, 0) + 1
            fake.requests.clear()
            seconds = end - start
            result = StepResult(
                games,
                seconds,
                sample,
                (cpu1 - cpu0) / seconds,
                (gen1 - gen0) / seconds,
                rss / 1024,
                (rss - idle_rss) / games,
                len(inside),
                routes,
                budget_updates,
                updates,
                load.web.end() if load.web is not None else None,
            )
            results.append(result)
            print(row(result), flush=True)
            if result.web is not None:
                print(f"  web (G={games:,}): {result.web.summary()}", flush=True)
            bot_wait, gen_wait = ((b - a) / seconds for a, b in zip(waits0, waits1, strict=True))
            notes.append(
                f"G={games:,}: main threads runnable but waiting for a CPU: bot {bot_wait:.0%}, "
                f"generator {gen_wait:.0%} of the window (above a few %, the machine is the limit)"
            )
            if SERVER is not None:
                notes.append(
                    f"G={games:,}: PostgreSQL server CPU {(db1 - db0) / seconds:.0%} "
                    f"({args.processes} bot process{'es' if args.processes > 1 else ''})"
                )
            actions = max(sample.actions, 1)
            notes.append(
                f"G={games:,}: bot CPU per action {(cpu1 - cpu0) / actions * 1000:.2f} ms"
                + (
                    f", of which pictures {(drawing1 - drawing0) / actions * 1000:.3f} ms "
                    f"({(drawing1 - drawing0) / max(cpu1 - cpu0, 1e-9):.1%}): at the "
                    f"{games / args.think:,.0f} actions a second {games:,} games ask for "
                    f"(one every {args.think:g} s), "
                    f"{(drawing1 - drawing0) / actions * games / args.think * 100:.1f} points "
                    "of a core"
                    if pictures
                    else ""
                )
            )
            if web0 is not None and web1 is not None:
                spent = [b - a for a, b in zip(web0, web1, strict=True)]
                public, publics, private, privates, feed, feeds, frames, sent = spent
                notes.append(
                    f"G={games:,}: the live table's CPU per action (timed in the bot): its feed "
                    f"{feed / actions * 1000:.3f} ms ({feeds / actions:.2f} turns), of which "
                    f"public parts {public / actions * 1000:.3f} ms ({publics / actions:.2f}), "
                    f"private parts {private / actions * 1000:.3f} ms ({privates / actions:.2f}); "
                    f"frames compressed and written {frames / actions * 1000:.3f} ms "
                    f"({sent / actions:.2f}); in all {(feed + frames) / max(cpu1 - cpu0, 1e-9):.1%}"
                    " of the bot's CPU"
                )
            every: dict[str, int] = {}
            for r in window:
                every[r.route] = every.get(r.route, 0) + 1
            notes.append(
                f"G={games:,}: requests per action by route (all): "
                + ", ".join(
                    f"{k} {v / max(sample.actions, 1):.2f}"
                    for k, v in sorted(every.items(), key=lambda kv: -kv[1])
                )
            )
            if args.verbose:
                print("   ", sorted(sample.kinds.items()), routes, flush=True)
                print(
                    "    first response p50/p99 ms by kind: "
                    + ", ".join(
                        f"{kind} {statistics.median(v) * 1000:.1f}/{percentile(v, 0.99) * 1000:.0f}"
                        for kind, v in sorted(sample.by_kind.items())
                    ),
                    flush=True,
                )
                print("   ", stalls(sample.slow, load.window_span[0]), flush=True)
                if sample.board:
                    print(
                        f"    board showing the action p50/p99/max ms: "
                        f"{statistics.median(sample.board) * 1000:.0f}/"
                        f"{percentile(sample.board, 0.99) * 1000:.0f}/"
                        f"{max(sample.board) * 1000:.0f}",
                        flush=True,
                    )
                print(
                    f"    generator: lag max {max(sample.lag, default=0) * 1000:.0f} ms; "
                    f"GC pauses >= 10 ms: {len(sample.gc_pauses)} "
                    + ", ".join(f"gen{g} {t * 1000:.0f}" for g, t in sample.gc_pauses[:12])
                    + "; lags over 50 ms (ms, at s): "
                    + ", ".join(
                        f"({lag * 1000:.0f}, {at - load.window_span[0]:.1f})"
                        for at, lag in sample.lag_spikes[:12]
                    ),
                    flush=True,
                )
                pauses = [line for line in bot.lines if line.startswith(BOT_DIAGNOSTICS)]
                print("    bot GC pauses >= 10 ms, stalls (last 200 log lines):", len(pauses))
                print("   ", "\n    ".join(pauses[-30:]), flush=True)
            p99 = percentile(sample.first, 0.99)
            if (p99 > args.stop_p99 or sample.failed) and not args.all_steps:
                notes.append(
                    f"stopped after G={games}: p99 {p99 * 1000:.0f} ms "
                    f"(goal {args.stop_p99 * 1000:.0f} ms), {sample.failed} failed"
                )
                break
    finally:
        load.running = False
        for task in load.tasks:
            task.cancel()
        await asyncio.gather(*load.tasks, return_exceptions=True)
        if load.web is not None:
            await load.web.close()
        errors = bot.errors()
        await asyncio.gather(*(b.stop() for b in bots))
        await load.close_db()
        await fake.stop()
        if errors:
            notes.append(f"bot logged {len(errors)} error lines, e.g. {errors[0][:200]}")
        if fake.violations:
            kinds = sorted({str(v.kind) for v in fake.violations})
            notes.append(
                f"fake recorded {len(fake.violations)} violations: {kinds}; "
                f"first: {str(fake.violations[0])[:300]}"
            )
    return results, notes


HEADER = (
    f"{'games':>6} {'act/s':>7} {'int/s':>7} | {'first response ms':^20} | "
    f"{'last message ms':^22} | {'>3s':>4} | {'bot CPU':>7} {'RSS MB':>7} {'KB/game':>7} | "
    f"{'global req/s':>12} {'/action':>7} | {'generator':^14}"
)
SUBHEADER = (
    f"{'':>6} {'':>7} {'':>7} | {'p50':>6} {'p99':>6} {'max':>6} | "
    f"{'p50':>6} {'p99':>6} {'max':>8} | {'':>4} | {'':>7} {'':>7} {'':>7} | "
    f"{'':>12} {'':>7} | {'CPU':>6} {'lag p99':>7}"
)


def row(r: StepResult) -> str:
    s = r.sample
    ms = 1000

    def fmt(v: float, width: int = 6) -> str:
        return f"{v * ms:>{width}.1f}" if v == v else f"{'-':>{width}}"

    last_max = max(s.last + s.unfinished) if (s.last or s.unfinished) else float("nan")
    per_action = r.global_requests / s.actions if s.actions else float("nan")
    return (
        f"{r.games:>6,} {s.actions / r.seconds:>7.1f} {s.interactions / r.seconds:>7.1f} | "
        f"{fmt(statistics.median(s.first) if s.first else float('nan'))} "
        f"{fmt(percentile(s.first, 0.99))} {fmt(max(s.first) if s.first else float('nan'))} | "
        f"{fmt(statistics.median(s.last) if s.last else float('nan'))} "
        f"{fmt(percentile(s.last, 0.99))} {fmt(last_max, 8)} | {s.failed:>4} | "
        f"{r.bot_cpu * 100:>6.0f}% {r.rss_mb:>7.1f} {r.kb_per_game:>7.1f} | "
        f"{r.global_requests / r.seconds:>12.1f} {per_action:>7.2f} | "
        f"{r.gen_cpu * 100:>5.0f}% {fmt(percentile(s.lag, 0.99), 7)}"
    )


WEB_HEADER = (
    f"{'games':>6} {'sockets':>8} | {'delivery to every socket ms':^26} | {'pairs':>8} "
    f"{'missing':>7} | {'states/s':>9} {'/socket':>7} {'KB each':>7} | {'bot CPU':>7} "
    f"{'ms/action':>9}"
)
WEB_SUBHEADER = (
    f"{'':>6} {'':>8} | {'p50':>8} {'p99':>8} {'max':>8} | {'':>8} {'':>7} | {'':>9} {'':>7} "
    f"{'':>7} | {'':>7} {'':>9}"
)


def web_row(r: StepResult) -> str:
    """The live table's figures of a step (--web-clients), and the bot's CPU per action."""
    w = r.web
    assert w is not None

    def ms(v: float) -> str:
        return f"{v * 1000:>8.1f}" if v == v else f"{'-':>8}"

    median = statistics.median(w.delays) if w.delays else float("nan")
    top = max(w.delays) if w.delays else float("nan")
    per_action = r.bot_cpu * r.seconds / r.sample.actions * 1000 if r.sample.actions else 0.0
    return (
        f"{r.games:>6,} {w.sockets:>8,} | {ms(median)} {ms(w.percentile(0.99))} {ms(top)} | "
        f"{len(w.delays):>8,} {w.missing:>7,} | {w.states / w.seconds:>9.1f} "
        f"{w.states / w.seconds / max(w.sockets, 1):>7.2f} "
        f"{w.chars / max(w.states, 1) / 1024:>7.1f} | {r.bot_cpu * 100:>6.0f}% "
        f"{per_action:>9.2f}"
    )


# ------------------------------------------------------------------- recovery


async def stored_games(database: str, channels: list[tuple[int, int]], seed: int = 0) -> None:
    """Active 4-player games written as the bot writes them (Store API)."""
    store = await Store.open(database)
    rng = random.Random(seed)
    now = time.time()
    try:
        for i, (guild_id, channel_id) in enumerate(channels):
            players = [10_000_000 + 4 * i + seat for seat in range(4)]
            rules = rng.choice(("basic", "advanced"))
            record = await store.create_lobby(
                guild_id,
                channel_id,
                players[0],
                rules,
                "medium",
                DIFFICULTY_MINUTES["medium"] * 60,
                now=now,
            )
            for player in players[1:]:
                await store.add_player(record.id, player, now=now)
            game = Game.new(players, rules, seed=i)
            # Some play already happened: a few actions from the automatic player.
            for _ in range(rng.randrange(0, 12)):
                if game.is_over:
                    break
                game.apply(choose_action(game.view_for(game.active_player), rng))
            if game.is_over:
                game = Game.new(players, rules, seed=i)
            await store.start_game(
                record.id,
                seed=i,
                start_player=game.players[0],
                state=game.save(),
                deadline=now + rng.uniform(60, 600),
                now=now,
            )
    finally:
        await store.close()


async def run_recovery(args, count: int) -> dict[str, float]:
    fake = FakeDiscord(openapi_path=NO_OPENAPI)
    await fake.start()
    workdir = Path(tempfile.mkdtemp(prefix="apophis-recovery-"))
    database = new_database(args, workdir)
    channels = []
    per_guild = 100
    for i in range(0, count, per_guild):
        guild = fake.add_guild(f"Recovery {i // per_guild}")
        for _ in range(min(per_guild, count - i)):
            channels.append((guild.id, fake.add_text_channel(guild, "apophis").id))
    began = time.monotonic()
    await stored_games(database, channels)
    prepared = time.monotonic() - began
    bot = BotProcess(fake, database, workdir, log_level="INFO", args=args)
    # Recovery as in production: the outbox paced at 45/s (it only queues here).
    bot.args = argparse.Namespace(**{**vars(args), "global_rate": 45})
    resumed = bot.watch(r"resumed (\d+) open games")
    await bot.start()
    try:
        at, match = await asyncio.wait_for(resumed, 300)
        if int(match[1]) != count:
            raise RuntimeError(f"the bot resumed {match[1]} games, not {count}")
        resumed_s = at - bot.started
        rss = rss_kb(bot.pid)
        while fake.gateway.identify_count == 0 and time.monotonic() - at < 120:
            await asyncio.sleep(0.05)
        identified_s = time.monotonic() - bot.started
    finally:
        errors = bot.errors()
        await bot.stop()
        await fake.stop()
    if errors:
        print(f"recovery of {count}: bot logged errors, e.g. {errors[0][:300]}", file=sys.stderr)
    return {
        "games": count,
        "resumed": resumed_s,
        "identified": identified_s,
        "rss_mb": rss / 1024,
        "prepared": prepared,
    }


# --------------------------------------------------------------------- engine


def run_engine(games: int = 300) -> tuple[int, float]:
    """Actions a second through Game.apply with a save (orjson, as the store does)."""
    logs = []
    for seed in range(games):
        start = Game.new(list(range(4)), "advanced" if seed % 2 else "basic", seed=seed)
        game, rng, log = Game.restore(start.save()), random.Random(seed), []
        while not game.is_over and len(log) < 1000:
            action = choose_action(game.view_for(game.active_player), rng)
            game.apply(action)
            log.append(action)
        logs.append((start.save(), log))
    actions = sum(len(log) for _, log in logs)
    began = time.perf_counter()
    for data, log in logs:
        game = Game.restore(data)
        for action in log:
            game.apply(action)
            orjson.dumps(game.save())
    return actions, actions / (time.perf_counter() - began)


# ----------------------------------------------------------------------- main


def parse_args(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--steps",
        default="100,500,1000,2500,5000",
        help="concurrent games per step, comma-separated",
    )
    parser.add_argument("--think", type=float, default=5.0, help="mean think time, seconds")
    parser.add_argument("--duration", type=float, default=45.0, help="measured seconds per step")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds to open new games over")
    parser.add_argument(
        "--grace", type=float, default=15.0, help="seconds to wait for a window's last messages"
    )
    parser.add_argument(
        "--time-scale",
        type=float,
        default=1.0,
        help="APOPHIS_TIME_SCALE of the bot (clocks and reshuffles)",
    )
    parser.add_argument(
        "--global-rate",
        type=float,
        default=1e6,
        help="outbox pacing in requests/s (the bot's own is 45)",
    )
    parser.add_argument(
        "--pictures",
        choices=("on", "off"),
        default="on",
        help="board pictures (off: every server as if /apophis config turned them off)",
    )
    parser.add_argument(
        "--command-share",
        type=float,
        default=0.15,
        help="share of actions made by slash command rather than the board",
    )
    parser.add_argument(
        "--hand-share",
        type=float,
        default=0.05,
        help="share of turns that begin by looking at the hand (/hand, My hand)",
    )
    parser.add_argument(
        "--short-games",
        type=float,
        default=0.2,
        help="share of games opened with a short countdown (1 to 5 minutes)",
    )
    parser.add_argument(
        "--database",
        choices=("sqlite", "postgresql"),
        default="sqlite",
        help="the bot's database: an SQLite file, or a throwaway PostgreSQL server",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="bot processes sharing the database, one shard each (needs postgresql for > 1)",
    )
    parser.add_argument(
        "--chat",
        type=float,
        default=2.0,
        help="messages a minute each team posts in its channel (the bot counts them)",
    )
    parser.add_argument("--setup-concurrency", type=int, default=100)
    parser.add_argument(
        "--stop-p99",
        type=float,
        default=0.1,
        help="stop stepping once the p99 first response passes this (s)",
    )
    parser.add_argument("--all-steps", action="store_true", help="do not stop at the goal")
    parser.add_argument("--recovery", default="1000,10000", help="stored games to recover")
    parser.add_argument("--skip-load", action="store_true")
    parser.add_argument(
        "--validate",
        action="store_true",
        help="validate request bodies against the OpenAPI file (slow)",
    )
    parser.add_argument(
        "--web-clients",
        type=int,
        default=0,
        help="WebSockets per game at the bot's live table, socket k signed in as player k "
        "(0: no web server)",
    )
    parser.add_argument(
        "--web-compression",
        choices=("on", "off"),
        default="on",
        help="the web sockets offer permessage-deflate, as browsers do (off: plain frames)",
    )
    parser.add_argument("--output", type=Path, default=None, help="results file")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    args.steps = [int(s) for s in args.steps.split(",") if s]
    args.recovery = [int(s) for s in args.recovery.split(",") if s]
    if args.web_clients < 0:
        parser.error("--web-clients is a number of sockets per game (0: none)")
    if args.processes < 1 or (args.processes > 1 and args.database != "postgresql"):
        parser.error("--processes above 1 needs --database postgresql (SQLite is one process's)")
    return args


def main(argv: list[str] | None = None) -> None:
    global SERVER
    args = parse_args(argv)
    if args.database == "postgresql":
        reason = unavailable_reason()
        if reason is not None:
            sys.exit(f"load_bench: cannot run on PostgreSQL: {reason}")
        SERVER = PostgresServer().start()
    try:
        measure(args)
    finally:
        if SERVER is not None:
            SERVER.stop()


def measure(args) -> None:
    """Every part of the benchmark, printed and written to benchmarks/results/."""
    out: list[str] = []

    def say(line: str = "") -> None:
        print(line, flush=True)
        out.append(line)

    stamp = datetime.datetime.now().astimezone()
    say(f"Apophis bot load benchmark — {stamp:%Y-%m-%d %H:%M %Z}")
    say(f"machine: {machine()}; Python {platform.python_version()}")
    say(f"commit: {commit()}")
    say(
        f"load: 4-player games, think {args.think:g} s (x0.5-1.5), {args.duration:g} s measured "
        f"per step after {args.warmup:g} s warm-up; {args.command_share:.0%} slash commands, "
        f"{args.hand_share:.0%} hand looks, {args.short_games:.0%} 1-5 minute games, "
        f"{args.chat:g} chat messages a team a minute; "
        f"time scale {args.time_scale:g}; board pictures {args.pictures}; outbox pacing "
        + ("45/s (as in production)" if args.global_rate <= 50 else "lifted (demand measured)")
        + (
            f"; live table: {args.web_clients} web sockets a game (signed in as its players, "
            f"compression {args.web_compression})"
            if args.web_clients
            else "; no live table (web server off)"
        )
    )
    say(
        f"bot: {args.processes} process{'es' if args.processes > 1 else ''} on "
        + ("SQLite" if args.database == "sqlite" else "PostgreSQL (a throwaway local server)")
    )
    say()
    if not args.skip_load and args.steps:
        say("Open-loop load (latencies from dispatch by the fake; first response = the bot's")
        say("answer to the interaction; last message = the last board edit or hand DM it caused)")
        say(HEADER)
        say(SUBHEADER)
        results, notes = on_fast_loop(run_load(args))
        out.extend(row(r) for r in results)
        for r in results:
            s = r.sample
            if s.unfinished:
                out.append(
                    f"  G={r.games}: {len(s.unfinished)} actions still missing a message "
                    f"after the grace period (counted in last-message max)"
                )
        say("What players wait for (board: dispatch to the board showing the action; DM: to")
        say("the hand DM showing it; updates: board edits, posts, pings, reports and panel")
        say("refreshes, and how many went through the global budget rather than a token)")
        say(
            f"{'games':>6} | {'board ms p50':>12} {'p99':>7} | {'DM s p50':>8} {'p99':>7} "
            f"{'max':>7} | {'updates':>8} {'via budget':>10} | {'interactions/action':>19}"
        )
        for r in results:
            s = r.sample
            share = r.budget_updates / r.updates if r.updates else float("nan")
            say(
                f"{r.games:>6,} | {median_ms(s.board):>12} {p99_ms(s.board):>7} | "
                f"{seconds_of(s.dm_lag, 0.5):>8} {seconds_of(s.dm_lag, 0.99):>7} "
                f"{seconds_of(s.dm_lag, 1.0):>7} | {r.updates:>8,} {share:>10.2%} | "
                f"{s.interactions / s.actions if s.actions else float('nan'):>19.2f}"
            )
        if any(r.web is not None for r in results):
            say("The live table (--web-clients): from an action's dispatch to each socket of its")
            say("game receiving a state at least that new (every (action, socket) pair), states")
            say("received, and the bot's CPU per action (compare with a run of --web-clients 0)")
            say(WEB_HEADER)
            say(WEB_SUBHEADER)
            for r in results:
                if r.web is not None:
                    say(web_row(r))
        for r in results:
            top = sorted(r.routes.items(), key=lambda kv: -kv[1])
            say(
                f"  G={r.games:,}: {r.sample.actions:,} actions, {r.sample.interactions:,} "
                f"interactions, {r.sample.refused + r.sample.stale} stale/refused; global "
                f"requests by route: " + ", ".join(f"{k} {v}" for k, v in top)
            )
        for note in notes:
            say("  " + note)
        say()
    if args.recovery:
        say("Start-up recovery (stored active 4-player games; outbox paced at 45/s)")
        say(f"{'games':>7} {'to resumed s':>13} {'to IDENTIFY s':>14} {'RSS MB':>8}")
        recovered = []
        for count in args.recovery:
            r = on_fast_loop(run_recovery(args, count))
            recovered.append(r)
            say(
                f"{r['games']:>7,} {r['resumed']:>13.2f} {r['identified']:>14.2f} "
                f"{r['rss_mb']:>8.1f}"
            )
        if len(recovered) >= 2:
            a, b = recovered[0], recovered[-1]
            per = (b["rss_mb"] - a["rss_mb"]) * 1024 / (b["games"] - a["games"])
            say(f"  memory per resumed game (RSS difference): {per:.1f} KB")
        say()
    actions, rate = run_engine()
    say(
        f"Engine alone (one core): {rate:,.0f} actions/s applied with an orjson save "
        f"({actions:,} actions of 300 4-player games)"
    )
    RESULTS.mkdir(exist_ok=True)
    target = args.output or RESULTS / f"load-{stamp:%Y%m%d-%H%M%S}.txt"
    target.write_text("\n".join(out) + "\n")
    print(f"\nwritten to {target}")


if __name__ == "__main__":
    main()
