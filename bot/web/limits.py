"""The web server's limits on what outsiders can hold or send: deadlines and caps on
connections, and rates by person and by address.

Every connection is counted as it is accepted (`Doors`, the protocol factory given to
the event loop): beyond `connection_cap()` (the process's open-files limit less RESERVE,
kept for Discord, the database and the logs) or PER_ADDRESS from one address, it is
refused at once (503). One that has not sent a whole request's headers within
HEADER_SECONDS is closed; a plain HTTP connection lives LIFETIME_SECONDS at most from its
first request (an idle keep-alive one KEEPALIVE_SECONDS, aiohttp's keepalive_timeout);
a WebSocket is exempt from then on (its hello has its own deadline,
bot.web.sockets.HELLO_SECONDS, then its heartbeat). `Rates` are token buckets by key (a
person, an address), kept KEPT_SECONDS after their last use so that coming back does not
refill them. The deadlines and caps are module constants, read as connections come (the
keep-alive and the overall cap as the server starts): tests shrink them.

The address a limit counts is the peer's; a peer on this machine (its reverse proxy, or
its own tools) is limited only by the overall cap, and a request it forwards counts under
the last address of its X-Forwarded-For.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import resource
import time
from collections import Counter
from collections.abc import Callable, Hashable
from typing import cast

from aiohttp import web
from aiohttp.typedefs import Handler

log = logging.getLogger(__name__)

#: Seconds to send a request's headers, and the longest a plain HTTP connection lives.
HEADER_SECONDS = 10.0
LIFETIME_SECONDS = 60.0
#: Seconds an idle keep-alive connection is kept (aiohttp's keepalive_timeout).
KEEPALIVE_SECONDS = 15.0
#: Descriptors always left for the bot's own calls (Discord, the database, the logs).
RESERVE = 256
#: Open connections from one address.
PER_ADDRESS = 128
#: Whether a peer on this machine (a reverse proxy in front of the bot) is limited only by
#: the overall cap (False: counted like any other address; tests).
LOCAL_UNLIMITED = True
#: Seconds a rate is remembered after its last use.
KEPT_SECONDS = 60.0
#: What a connection beyond the caps is told before it is closed.
BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n"
    b"Retry-After: 5\r\nConnection: close\r\n\r\n"
)
#: Seconds between two warnings that connections are being refused.
WARN_EVERY = 60.0


def connection_cap() -> int:
    """The most connections the web server holds at once: the open-files limit less RESERVE
    (a quarter of the limit at least)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft > 1 << 20:
        soft = 1 << 20
    return max(soft - RESERVE, soft // 4)


def is_local(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def peer_address(transport: asyncio.BaseTransport | None) -> str | None:
    peer = transport.get_extra_info("peername") if transport is not None else None
    return str(peer[0]) if isinstance(peer, tuple) and peer else None


def client_address(request: web.BaseRequest) -> str | None:
    """The address a request counts under for the per-address limits (None: none apply)."""
    peer = peer_address(request.transport)
    if peer is None or not (LOCAL_UNLIMITED and is_local(peer)):
        return peer
    forwarded = request.headers.get("X-Forwarded-For", "").rsplit(",", 1)[-1].strip()
    try:
        return str(ipaddress.ip_address(forwarded)) if forwarded else None
    except ValueError:
        return None


class Doors:
    """The web server's protocol factory, each connection counted and timed (see the module
    docstring). `factory` makes the real protocol (aiohttp's `runner.server`)."""

    def __init__(self, factory: Callable[[], asyncio.Protocol], cap: int | None = None) -> None:
        self.factory = factory
        self.cap = cap if cap is not None else connection_cap()
        self.open = 0
        self.by_address: Counter[str] = Counter()
        self.refused = 0
        self._warned = -WARN_EVERY

    def __call__(self) -> Door:
        return Door(self)

    def admit(self, address: str | None) -> bool:
        if address is not None and LOCAL_UNLIMITED and is_local(address):
            address = None  # its connections are not counted
        if self.open >= self.cap or (
            address is not None and self.by_address[address] >= PER_ADDRESS
        ):
            self.refused += 1
            now = time.monotonic()
            if now - self._warned >= WARN_EVERY:
                self._warned = now
                log.warning(
                    "the web table refuses connections: %d open (at most %d, %d an address)",
                    self.open,
                    self.cap,
                    PER_ADDRESS,
                )
            return False
        self.open += 1
        if address is not None:
            self.by_address[address] += 1
        return True

    def release(self, address: str | None) -> None:
        self.open -= 1
        if address is not None and address in self.by_address:
            self.by_address[address] -= 1
            if self.by_address[address] <= 0:
                del self.by_address[address]


class Door(asyncio.Protocol):
    """One connection: admitted or refused, then passed on to aiohttp's protocol, closed
    when it is late (its headers, or its lifetime)."""

    __slots__ = ("_address", "_admitted", "_doors", "_inner", "_phase", "_timer", "transport")

    def __init__(self, doors: Doors) -> None:
        self._doors = doors
        self._inner: asyncio.Protocol | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._address: str | None = None
        self._admitted = False
        self._phase = "headers"
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # a stream transport: asyncio's, or uvloop's (the bot's loop), which is no subclass
        self.transport = cast(asyncio.Transport, transport)
        transport = self.transport
        self._address = peer_address(transport)
        if not self._doors.admit(self._address):
            transport.write(BUSY)
            transport.close()
            return
        self._admitted = True
        self._timer = asyncio.get_running_loop().call_later(HEADER_SECONDS, self._late)
        self._inner = self._doors.factory()
        self._inner.connection_made(transport)

    def arrived(self) -> None:
        """A request's headers came: from now on, the connection's lifetime counts."""
        if self._phase == "headers":
            self._phase = "request"
            self._cancel()
            self._timer = asyncio.get_running_loop().call_later(LIFETIME_SECONDS, self._late)

    def upgraded(self) -> None:
        """The connection is a WebSocket now: its own deadlines hold (hello, heartbeat)."""
        self._phase = "socket"
        self._cancel()

    def _late(self) -> None:
        self._timer = None
        if self.transport is not None and not self.transport.is_closing():
            log.debug("closed a connection from %s: late (%s)", self._address, self._phase)
            self.transport.abort()

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def data_received(self, data: bytes) -> None:
        if self._inner is not None:
            self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received() if self._inner is not None else None

    def pause_writing(self) -> None:
        if self._inner is not None:
            self._inner.pause_writing()

    def resume_writing(self) -> None:
        if self._inner is not None:
            self._inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel()
        if self._admitted:
            self._admitted = False
            self._doors.release(self._address)
        if self._inner is not None:
            inner, self._inner = self._inner, None
            inner.connection_lost(exc)


def door_of(request: web.BaseRequest) -> Door | None:
    transport = request.transport
    door = transport.get_protocol() if transport is not None else None
    return door if isinstance(door, Door) else None


@web.middleware
async def arrivals(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Marks that a connection's request came (its header deadline is over)."""
    door = door_of(request)
    if door is not None:
        door.arrived()
    return await handler(request)


class Bucket:
    """A token bucket: `take()` is False once a sender goes over `rate` a second (`burst`
    at once)."""

    __slots__ = ("burst", "clock", "level", "rate", "stamp", "warned")

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.level = burst
        self.stamp = clock()
        #: Whether the sender was told it went too fast since the bucket was last full.
        self.warned = False

    def take(self) -> bool:
        now = self.clock()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level >= self.burst:
            self.warned = False
        if self.level < 1:
            return False
        self.level -= 1
        return True

    def idle(self, now: float) -> float:
        return now - self.stamp


class Rates:
    """A bucket per key, remembered KEPT_SECONDS after its last use (see the module
    docstring): whoever comes back within that time finds their bucket as they left it."""

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._buckets: dict[Hashable, Bucket] = {}
        self._swept = clock()

    def __len__(self) -> int:
        return len(self._buckets)

    def bucket(self, key: Hashable) -> Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            self._sweep()
            bucket = self._buckets[key] = Bucket(self.rate, self.burst, self.clock)
        return bucket

    def take(self, key: Hashable) -> bool:
        return self.bucket(key).take()

    def _sweep(self) -> None:
        """Forget the buckets unused for KEPT_SECONDS (full again: as good as new)."""
        now = self.clock()
        if now - self._swept < KEPT_SECONDS:
            return
        self._swept = now
        kept = max(KEPT_SECONDS, self.burst / self.rate)
        for key in [k for k, b in self._buckets.items() if b.idle(now) >= kept]:
            del self._buckets[key]
