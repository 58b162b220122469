"""What a run records: tables and their actions in flight, a window's samples, a step's results."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from benchmarks.web_clients import WebWindow

#: A first response slower than this is counted in --verbose's account of stalls.
SLOW = 0.05
#: Where the games are played (--place): a server channel the bot is in; a group DM of the
#: four, the first having installed the app to their account; a server without the bot,
#: the app installed to the first player's account. In the last two the bot is no member:
#: only the installer has the slash commands, and everything else is a button.
CHANNEL, GROUP_DM, NO_BOT_SERVER = "channel", "group-dm", "no-bot-server"
PLACES = (CHANNEL, GROUP_DM, NO_BOT_SERVER)


@dataclass
class Pending:
    """An applied action waiting for the messages it causes (board, hands shown: a DM or
    a panel)."""

    t0: float
    version: int
    dms: set[int]
    board_at: float | None = None
    last: float = 0.0


@dataclass(frozen=True, slots=True)
class Recipient:
    """Someone in a group DM, read as a server's member is (`.user`): there is no server."""

    user: Any


@dataclass
class Tab:
    """One place (a server's channel, or a group DM) with 4 people, and the game currently
    played there. `guild` is None in a group DM; `members` have `.user` either way."""

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
    #: From dispatch to each hand it changed shown (in the player's DM or panel).
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


@dataclass
class Reading:
    """The counters at one edge of a measured window."""

    #: CPU seconds so far of the bot's processes, the generator, the PostgreSQL server.
    bot_cpu: float
    gen_cpu: float
    db_cpu: float
    #: Seconds the main threads waited for a CPU while runnable: (bot, generator).
    waits: tuple[float, float]
    #: CPU seconds of the bot's pictures (0 with --pictures off).
    drawing: float
    #: The live table's CPU seconds and calls (Bots.web_cpu), None without --web-clients.
    web: list[float] | None


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
    #: The window's requests by route class (benchmarks/load/routes.py), and the token
    #: routes' error answers by (status, code).
    classes: dict[str, int] = field(default_factory=dict)
    refused: Counter = field(default_factory=Counter)
    #: The most requests against the global limit in any one second of the window.
    worst_second: int = 0
