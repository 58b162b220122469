"""Web clients for the load benchmark: N WebSockets a game at the live table, timing delivery.

Used by benchmarks/load_bench.py (`--web-clients N`). The bot runs its web table
(bot.web) on a free port with a client id and a secret the benchmark chose, so the
generator signs its own session tokens (bot.web.sessions, the same key derivation).
Socket k of a game signs in as the game's k-th player (beyond the fourth: watching,
not signed in) and so receives that player's hand, as a player at the live table
would; the players keep acting through Discord as before. Like a browser, each socket
offers permessage-deflate (so the bot compresses what it sends, per socket), unless
told not to (`compress=False`, the benchmark's `--web-compression off`), and says
`{"type": "ping"}` every 25 s as the web client does (bot/web/client/src: its keep-alive).

For each action the benchmark saw applied (`expect`), every socket of its game owes a
state whose `version` is at least the one the action produced (or any state of a
later game in that channel: the game ended and the next lobby opened). The delay is
from the action's dispatch (the time the bench's first-response latency starts from)
to the arrival of that state. Only `"game"` and `"version"` are read out of each state,
from its first bytes (the public part starts with them); all sockets share one
aiohttp session on the generator's loop.
"""

from __future__ import annotations

import asyncio
import re
import statistics
import time
from collections import deque
from dataclasses import dataclass, field

import aiohttp
import orjson

from bot.web.sessions import Sessions, User

#: The client secret the benchmark gives the bot (APOPHIS_CLIENT_SECRET): sessions are
#: signed under a key derived from it, so the generator can sign its own.
BENCH_SECRET = "apophis-load-bench-client-secret"
#: A state's opening, as bot.web.feed writes it (orjson, the public part's keys in order).
STATE = '{"type":"state"'
HEAD = re.compile(r'"game":(\d+),"version":(\d+)')
#: States a socket remembers, for actions the bench learns of after their state came.
HISTORY = 32
#: Sockets connecting at once.
CONNECTING = 64
#: The web client's keep-alive: a ping message every so many seconds.
PING_SECONDS = 25
PING = '{"type":"ping"}'


def bot_settings(port: int, client_id: int | str) -> dict[str, str]:
    """The bot process's environment for its web table on `port`."""
    return {
        "APOPHIS_WEB_PORT": str(port),
        "APOPHIS_PUBLIC_URL": f"http://localhost:{port}",
        "APOPHIS_CLIENT_ID": str(client_id),
        "APOPHIS_CLIENT_SECRET": BENCH_SECRET,
    }


@dataclass(slots=True)
class _Socket:
    ws: aiohttp.ClientWebSocketResponse
    #: (arrival, game, version) of the latest states.
    seen: deque = field(default_factory=lambda: deque(maxlen=HISTORY))
    #: [dispatched at, game, version] of actions whose state has not arrived yet.
    owed: list = field(default_factory=list)
    states: int = 0


@dataclass
class WebWindow:
    """What the sockets saw of one measurement window."""

    sockets: int
    seconds: float
    #: Dispatch to arrival, one per (action, socket) pair delivered.
    delays: list[float]
    #: States received in the window (all sockets), and their characters (uncompressed).
    states: int
    chars: int
    #: (action, socket) pairs still owed at the end (after the grace period).
    missing: int
    #: Sockets closed by the server so far.
    closed: int
    #: Sockets whose frames are compressed (permessage-deflate agreed).
    deflated: int = 0

    def percentile(self, q: float) -> float:
        if not self.delays:
            return float("nan")
        ordered = sorted(self.delays)
        return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]

    def summary(self) -> str:
        """p50/p99/max ms of delivery, states a second, what went missing."""
        if self.delays:
            p50, p99 = statistics.median(self.delays), self.percentile(0.99)
            spread = f"{p50 * 1000:.1f} / {p99 * 1000:.1f} / {max(self.delays) * 1000:.1f}"
        else:
            spread = "- / - / -"
        return (
            f"{self.sockets:,} sockets; delivery p50/p99/max ms {spread} over "
            f"{len(self.delays):,} (action, socket) pairs; {self.states / self.seconds:,.1f} "
            f"states/s ({self.states / self.seconds / max(self.sockets, 1):.2f} a socket, "
            f"{self.chars / max(self.states, 1) / 1024:.1f} KB each); "
            f"{self.missing} never delivered; {self.closed} sockets closed; "
            f"{self.deflated} compressed"
        )


class WebClients:
    """N sockets per game, their arrivals, and the delays of each window."""

    def __init__(self, per_game: int, secret: str = BENCH_SECRET, compress: bool = True) -> None:
        self.per_game = per_game
        self.compress = compress
        self.sessions = Sessions(secret)
        self.sockets: dict[int, list[_Socket]] = {}
        self.closed = 0
        self._http: aiohttp.ClientSession | None = None
        self._readers: list[asyncio.Task] = []
        self._pinger: asyncio.Task | None = None
        self._slots: list[list[_Socket]] = [[] for _ in range(PING_SECONDS)]
        self._count = 0
        self._span: tuple[float, float] | None = None
        self._delays: list[float] = []
        self._states = self._chars = 0

    # ------------------------------------------------------------- sockets

    async def connect(
        self, games: list[tuple[int, str, int, list[tuple[int, str]]]], timeout: float = 60.0
    ) -> None:
        """Open the sockets of each game: (key, base URL, channel id, players as (id, name)),
        and wait until each has had its first state."""
        if self._http is None:
            connector = aiohttp.TCPConnector(limit=0)  # one connection a socket, held open
            self._http = aiohttp.ClientSession(connector=connector)
        http = self._http
        gate = asyncio.Semaphore(CONNECTING)

        async def one(key: int, url: str, channel: int, user: tuple[int, str] | None) -> None:
            session = self.sessions.open(User(user[0], user[1], "en-US")) if user else None
            hello = {"type": "hello", "channel": str(channel), "session": session}
            async with gate:
                ws = await http.ws_connect(
                    f"{url.replace('localhost', '127.0.0.1')}/ws",
                    headers={"Origin": url},
                    max_msg_size=0,
                    compress=15 if self.compress else 0,
                )
                await ws.send_str(orjson.dumps(hello).decode())
            sock = _Socket(ws)
            self.sockets.setdefault(key, []).append(sock)
            self._slots[self._count % PING_SECONDS].append(sock)
            self._count += 1
            self._readers.append(asyncio.create_task(self._read(sock)))

        await asyncio.gather(
            *(
                one(key, url, channel, players[k] if k < len(players) else None)
                for key, url, channel, players in games
                for k in range(self.per_game)
            )
        )
        if self._pinger is None:
            self._pinger = asyncio.create_task(self._ping())
        async with asyncio.timeout(timeout):
            for key, *_ in games:
                for sock in self.sockets[key]:
                    while not sock.states:
                        if sock.ws.closed:
                            raise RuntimeError(f"a web socket closed ({sock.ws.close_code})")
                        await asyncio.sleep(0.05)

    async def _ping(self) -> None:
        """Each socket's keep-alive, the sockets spread over the period (a slot a second)."""
        tick = 0
        while True:
            await asyncio.sleep(1.0)
            tick += 1
            for sock in self._slots[tick % PING_SECONDS]:
                if not sock.ws.closed:
                    await sock.ws.send_str(PING)

    async def _read(self, sock: _Socket) -> None:
        ws = sock.ws
        try:
            while True:
                message = await ws.receive()
                if message.type is not aiohttp.WSMsgType.TEXT:
                    if message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.PING):
                        continue
                    break
                self._arrived(sock, message.data, time.monotonic())
        finally:
            self.closed += 1

    def _arrived(self, sock: _Socket, data: str, now: float) -> None:
        if not data.startswith(STATE):
            return  # welcome, pong...
        sock.states += 1
        span = self._span
        if span is not None and span[0] <= now < span[1]:
            self._states += 1
            self._chars += len(data)
        head = HEAD.search(data, 0, 200)
        if head is None:
            return  # a channel with no table
        game, version = int(head[1]), int(head[2])
        sock.seen.append((now, game, version))
        if sock.owed:
            still = []
            for owed in sock.owed:
                if game > owed[1] or (game == owed[1] and version >= owed[2]):
                    self._delays.append(max(now - owed[0], 0.0))
                else:
                    still.append(owed)
            sock.owed = still

    # ---------------------------------------------------------- measurement

    def expect(self, key: int, dispatched: float, game: int, version: int) -> None:
        """An action of game `key` dispatched at `dispatched` made `game` reach `version`:
        each of its sockets owes a state at least that new (see the module docstring)."""
        for sock in self.sockets.get(key, ()):
            for at, seen_game, seen_version in sock.seen:
                if seen_game > game or (seen_game == game and seen_version >= version):
                    self._delays.append(max(at - dispatched, 0.0))
                    break
            else:
                sock.owed.append([dispatched, game, version])

    def owed(self) -> int:
        """(action, socket) pairs still waiting for their state."""
        return sum(len(sock.owed) for socks in self.sockets.values() for sock in socks)

    def begin(self, start: float, end: float) -> None:
        """A measurement window: actions dispatched in it are expected, states counted."""
        self._span = (start, end)
        self._delays, self._states, self._chars = [], 0, 0
        for socks in self.sockets.values():
            for sock in socks:
                sock.owed.clear()

    def end(self) -> WebWindow:
        """The window's figures (once its actions had their grace period)."""
        assert self._span is not None
        start, end = self._span
        missing = 0
        for socks in self.sockets.values():
            for sock in socks:
                missing += len(sock.owed)
                sock.owed.clear()
        window = WebWindow(
            sum(len(s) for s in self.sockets.values()),
            end - start,
            self._delays,
            self._states,
            self._chars,
            missing,
            self.closed,
            sum(1 for socks in self.sockets.values() for sock in socks if sock.ws.compress),
        )
        self._span, self._delays, self._states, self._chars = None, [], 0, 0
        return window

    async def close(self) -> None:
        if self._pinger is not None:
            self._pinger.cancel()
        for socks in self.sockets.values():
            for sock in socks:
                await sock.ws.close()
        for reader in self._readers:
            reader.cancel()
        await asyncio.gather(*self._readers, return_exceptions=True)
        if self._http is not None:
            await self._http.close()
