"""Requests to Discord's API on kept-alive connections of our own, answers parsed by httptools.

The interaction tokens send three or four requests an action (bot.discord.rest). Through
aiohttp's client each cost about four times the CPU of writing it as one buffer and parsing
its answer with httptools, the parser uvicorn uses (`benchmarks/wire_bench.py`), and at a
hundred actions a second that was a fifth of the bot's time. This client does only what
those requests need: HTTP/1.1 to one origin at a time (`discord.http.Route.BASE`, read at
each request: Discord's API, a REST proxy or the local fake), TLS for https, a body sent
whole, an answer read whole. Connections are opened as needed and kept for the next
request; one the server closed while it sat idle is replaced. A request that finds its
kept connection closed before any of its answer came is sent again on a fresh one, unless
it is a POST (RFC 9112, 9.3.1: only a request whose repetition does no harm; a message
edit twice is the same edit, and an interaction's callback repeated is refused by Discord).
"""

from __future__ import annotations

import asyncio
import ssl
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import httptools
from multidict import CIMultiDict

#: How long one request may take, its connection included (aiohttp's default was five
#: minutes; a request stuck that long would hold its game's queue).
TIMEOUT = 60.0
#: Idle connections kept for each origin (more are closed once answered).
IDLE = 64
#: Requests under way at once, as many connections; more wait. Above what the outbox
#: sends at once (bot.discord.outbox.LANES: 256 board edits and refreshes) with the
#: interactions answered meanwhile: a bound for a runaway, not a pace (discord.py's own
#: session has none).
CONNECTIONS = 512


@dataclass(slots=True)
class Answer:
    """An HTTP answer: what discord.py's exceptions read of a response (status, reason,
    headers) and the body."""

    status: int
    reason: str
    raw_headers: list[tuple[bytes, bytes]]
    body: bytes
    _headers: CIMultiDict[str] | None = field(default=None, repr=False)

    @property
    def headers(self) -> CIMultiDict[str]:
        """The headers, case-insensitive (built when first read: errors only)."""
        if self._headers is None:
            self._headers = CIMultiDict(
                (name.decode("latin-1"), value.decode("latin-1"))
                for name, value in self.raw_headers
            )
        return self._headers


class Unanswered(ConnectionError):
    """The connection closed before any of the answer came."""


class _Connection(asyncio.Protocol):
    """One connection: a request written, its answer parsed as it comes."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.parser = httptools.HttpResponseParser(self)
        self.waiter: asyncio.Future[Answer] | None = None
        self.reason = b""
        self.headers: list[tuple[bytes, bytes]] = []
        self.body: list[bytes] = []
        self.heard = False  # a byte of the current answer came
        self.lost = False

    # ------------------------------------------------------------ asyncio's side

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        waiter = self.waiter
        if waiter is None or waiter.done():  # nothing was asked: the connection is unsound
            self.close()
            return
        self.heard = True
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as exc:
            waiter.set_exception(ConnectionError(f"Discord's answer could not be read: {exc}"))
            self.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            if self.heard:
                waiter.set_exception(ConnectionError("the connection closed during the answer"))
            else:
                waiter.set_exception(Unanswered("the connection closed before the answer"))

    # ------------------------------------------------------------- httptools' side

    def on_status(self, status: bytes) -> None:
        self.reason += status

    def on_header(self, name: bytes, value: bytes) -> None:
        self.headers.append((name, value))

    def on_body(self, body: bytes) -> None:
        self.body.append(body)

    def on_message_complete(self) -> None:
        waiter = self.waiter
        if waiter is None or waiter.done():
            return
        body = b"".join(self.body)
        for name, value in self.headers:
            if name.lower() == b"content-encoding" and value.lower() in (b"gzip", b"deflate"):
                body = zlib.decompress(body, 47)  # (never asked for: Accept-Encoding is not sent)
        answer = Answer(
            self.parser.get_status_code(), self.reason.decode("latin-1"), self.headers, body
        )
        if not self.parser.should_keep_alive():
            self.close()
        waiter.set_result(answer)

    # -------------------------------------------------------------------- ours

    @property
    def idle(self) -> bool:
        return not self.lost and self.transport is not None and not self.transport.is_closing()

    def send(self, head: bytes, body: bytes | None) -> asyncio.Future[Answer]:
        assert self.transport is not None
        self.waiter = asyncio.get_running_loop().create_future()
        self.reason, self.headers, self.body, self.heard = b"", [], [], False
        if body:
            self.transport.writelines((head, body))
        else:
            self.transport.write(head)
        return self.waiter

    def close(self) -> None:
        self.lost = True
        if self.transport is not None:
            self.transport.close()

    def expire(self, after: float) -> None:
        """No answer came in time: the request fails, the connection is closed."""
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(TimeoutError(f"Discord did not answer in {after:g} s"))
        self.close()


@dataclass(frozen=True, slots=True)
class _Origin:
    scheme: str
    host: str
    port: int
    prefix: str  # the base URL's path, before each request's

    @classmethod
    def of(cls, base: str) -> _Origin:
        url = urlsplit(base)
        if url.scheme not in ("http", "https") or not url.hostname:
            raise ValueError(f"not an HTTP URL: {base!r}")
        port = url.port or (443 if url.scheme == "https" else 80)
        return cls(url.scheme, url.hostname, port, url.path.rstrip("/"))

    @property
    def authority(self) -> str:
        default = 443 if self.scheme == "https" else 80
        return self.host if self.port == default else f"{self.host}:{self.port}"


class Wire:
    """Sends requests to the origin `base()` names, on connections it keeps."""

    def __init__(
        self,
        base: Callable[[], str],
        user_agent: str,
        *,
        ssl_context: ssl.SSLContext | None = None,
        timeout: float = TIMEOUT,
    ) -> None:
        self.base, self.user_agent, self.timeout = base, user_agent, timeout
        self._ssl = ssl_context
        self._origins: dict[str, _Origin] = {}
        self._idle: dict[_Origin, list[_Connection]] = {}
        #: Connections waiting for an answer, and when they time out (loop time).
        self._busy: dict[_Connection, float] = {}
        self._watch: asyncio.TimerHandle | None = None
        self._slots = asyncio.Semaphore(CONNECTIONS)
        #: Connections opened so far (tests: kept alive means few).
        self.opened = 0

    async def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        content_type: str | None = None,
        *,
        again: bool | None = None,
        authorization: str | None = None,
    ) -> Answer:
        """Send `method` on `path` (after the base URL's own path) with `body`; its answer.

        `again`: whether it may be sent twice, when a kept connection turns out closed
        (default: unless it is a POST). `authorization`: the Authorization header, if any.
        Raises TimeoutError after `timeout` seconds, ConnectionError when the connection
        fails or closes before the answer."""
        if again is None:
            again = method != "POST"
        base = self.base()
        origin = self._origins.get(base)
        if origin is None:
            origin = self._origins[base] = _Origin.of(base)
        head = self._head(origin, method, path, body, content_type, authorization)
        async with self._slots:
            while True:
                connection, reused = await self._connection(origin)
                self._busy[connection] = asyncio.get_running_loop().time() + self.timeout
                self._watching()
                try:
                    answer = await connection.send(head, body)
                except Unanswered:
                    if reused and again:  # the server closed it while it was idle
                        continue
                    raise
                except BaseException:
                    connection.close()
                    raise
                finally:
                    del self._busy[connection]
                self._keep(origin, connection)
                return answer

    def _watching(self) -> None:
        """Time out the requests under way (one timer for them all: one each cost more
        than the rest of a request)."""
        if self._watch is None:
            every = min(1.0, self.timeout / 4)
            self._watch = asyncio.get_running_loop().call_later(every, self._sweep)

    def _sweep(self) -> None:
        self._watch = None
        now = asyncio.get_running_loop().time()
        for connection, deadline in list(self._busy.items()):
            if now >= deadline:
                connection.expire(self.timeout)
        if self._busy:
            self._watching()

    def _head(
        self,
        origin: _Origin,
        method: str,
        path: str,
        body: bytes | None,
        content_type: str | None,
        authorization: str | None,
    ) -> bytes:
        lines = [
            f"{method} {origin.prefix}{path} HTTP/1.1",
            f"Host: {origin.authority}",
            f"User-Agent: {self.user_agent}",
        ]
        if authorization is not None:
            lines.append(f"Authorization: {authorization}")
        if content_type is not None:
            lines.append(f"Content-Type: {content_type}")
        if body is not None or method in ("POST", "PUT", "PATCH", "DELETE"):
            lines.append(f"Content-Length: {len(body or b'')}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    async def _connection(self, origin: _Origin) -> tuple[_Connection, bool]:
        """An idle connection to `origin` (True: it served a request before) or a new one."""
        idle = self._idle.get(origin)
        while idle:
            connection = idle.pop()
            if connection.idle:
                return connection, True
        loop = asyncio.get_running_loop()
        secure = origin.scheme == "https"
        if secure and self._ssl is None:
            self._ssl = ssl.create_default_context()
        async with asyncio.timeout(self.timeout):
            _, connection = await loop.create_connection(
                _Connection,
                origin.host,
                origin.port,
                ssl=self._ssl if secure else None,
                server_hostname=origin.host if secure else None,
            )
        self.opened += 1
        return connection, False

    def _keep(self, origin: _Origin, connection: _Connection) -> None:
        idle = self._idle.setdefault(origin, [])
        if connection.idle and len(idle) < IDLE:
            idle.append(connection)
        else:
            connection.close()

    def close(self) -> None:
        """Close every connection (those under way fail their request)."""
        for idle in self._idle.values():
            for connection in idle:
                connection.close()
        self._idle.clear()
        for connection in list(self._busy):
            connection.close()
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
