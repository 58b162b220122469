"""Web clients for tests: a socket that signs in, says hello and keeps what it received,
each message checked against the server's types (bot.views.table_state) as it comes."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import aiohttp
import orjson

from bot.views import table_state
from bot.web import limits, sockets
from bot.web.sessions import User
from tests.web.protocol import Python, mismatches

#: What the server may send, read once (tests.web.protocol), and the types it names.
SERVER = Python()
MESSAGE = SERVER.read(table_state.ServerMessage)


class Socket:
    """One web client's WebSocket, as the browser's would be; every message it received
    is kept in order (`received`), the states among them in `states`. With `instance`,
    the Activity's: its hello names that instance (and `channel`, which the server ignores
    there: 0 names none). A message unlike its type fails the test when the socket closes."""

    def __init__(
        self,
        bot,
        channel: int,
        user=None,
        *,
        origin: str | None = None,
        locale: str = "en-US",
        instance: str | None = None,
    ) -> None:
        self.bot, self.channel, self.instance = bot, channel, instance
        web = bot.web
        self.url = f"http://127.0.0.1:{web.port}"
        self.origin = origin if origin is not None else web.public_url
        account = getattr(user, "user", user)  # a member, or a user with no server
        self.session = (
            web.sessions.open(User(account.id, account.name, locale)) if user is not None else None
        )
        self.user = user
        self.received: list[dict[str, Any]] = []
        self.raw: list[str] = []
        #: Where the messages received were unlike the server's types (tests.web.protocol).
        self.unlike: list[str] = []
        self._http: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self._reader: asyncio.Task | None = None
        self._changed = asyncio.Event()
        self._moves = 0

    async def __aenter__(self) -> Socket:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def connect(self, hello: dict[str, Any] | None = None) -> None:
        self._http = aiohttp.ClientSession()
        self.ws = await self._http.ws_connect(f"{self.url}/ws", headers={"Origin": self.origin})
        if hello is None:
            hello = {"type": "hello", "channel": str(self.channel), "session": self.session}
            if self.instance is not None:
                hello["instance"] = self.instance
        await self.ws.send_str(orjson.dumps(hello).decode())
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type is aiohttp.WSMsgType.TEXT:
                self.raw.append(message.data)
                received = orjson.loads(message.data)
                self.unlike += mismatches(received, MESSAGE, SERVER.named)
                self.received.append(received)
                self._changed.set()

    @property
    def states(self) -> list[dict[str, Any]]:
        return [m for m in self.received if m["type"] == "state"]

    @property
    def state(self) -> dict[str, Any]:
        return self.states[-1]

    async def wait_for(self, predicate, timeout: float = 5.0) -> Any:
        """The first truthy `predicate(self)` as messages arrive."""
        async with asyncio.timeout(timeout):
            while True:
                found = predicate(self)
                if found:
                    return found
                self._changed.clear()
                if self.ws.closed and self._reader.done():
                    raise AssertionError(f"socket closed ({self.ws.close_code})")
                await self._changed.wait()

    async def wait_state(self, predicate, timeout: float = 5.0) -> dict[str, Any]:
        return await self.wait_for(
            lambda s: next((x for x in reversed(s.states) if predicate(x)), None), timeout
        )

    async def move(self, custom_id: str, values: list[str] | None = None, **extra: Any):
        """Send a move and wait for its result."""
        self._moves += 1
        number = self._moves
        message = {
            "type": "move",
            "id": number,
            "version": self.state.get("version"),
            "custom_id": custom_id,
            **extra,
        }
        if values is not None:
            message["values"] = values
        await self.send(message)
        return await self.wait_for(
            lambda s: next(
                (m for m in s.received if m["type"] == "result" and m["id"] == number), None
            )
        )

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send_str(orjson.dumps(message).decode())

    async def closed(self, timeout: float = 5.0) -> int | None:
        async with asyncio.timeout(timeout):
            await self._reader
        return self.ws.close_code

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
        if self._http is not None:
            await self._http.close()
        unlike = "\n".join(dict.fromkeys(self.unlike))
        assert not unlike, f"messages unlike the server's types:\n{unlike}"


def move_id(state: dict[str, Any], action: str, *, lobby: bool = False) -> str:
    """The custom id of the move `action` ("draw", "build:red.3"...) a state offers."""
    moves = state["lobby_moves"] if lobby else state["you"]["moves"]
    for move in moves:
        custom_id = move["custom_id"]
        head = custom_id.split(":")
        if ":".join(head[4:]) == action or (head[4] == action and len(head) == 5):
            return custom_id
    raise AssertionError(f"no {action!r} among {[m['custom_id'] for m in moves]}")


class Paced:
    """The sockets' rates on a clock the test moves (`passes(seconds)`) instead of waiting:
    people's buckets, and each socket's own (and what it forgives of a flood)."""

    def __init__(self, bot, monkeypatch) -> None:
        self.now = time.monotonic()
        bot.web.sockets.rates.clock = self.clock
        monkeypatch.setattr(
            sockets, "Bucket", lambda rate, burst: limits.Bucket(rate, burst, self.clock)
        )
        self.bot = bot

    def clock(self) -> float:
        return self.now

    def passes(self, seconds: float) -> None:
        self.now += seconds

    def dropped(self, channel: int) -> float:
        """How many messages the sockets watching `channel` had dropped (read in order: once
        it is all those sent, the server has read them all)."""
        return sum(client.dropped for client in self.bot.web.feed.viewers.get(channel, ()))
