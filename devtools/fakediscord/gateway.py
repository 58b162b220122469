"""The fake gateway: HELLO, heartbeats, IDENTIFY/READY, GUILD_CREATE, RESUME, RECONNECT, shards.

Frames are sent as plain JSON text (the client only inflates binary frames, so
``compress=zlib-stream`` in the query string can be ignored). Every dispatch
is kept per session so that a client resuming after a reconnect receives the
events it missed, as with Discord.

Shards as on Discord: a session identifies as ``shard: [shard_id, shard_count]``
(none means ``[0, 1]``) and gets the guilds of that shard only, those whose
``(guild_id >> 22) % shard_count`` is its id; each guild's events and interactions go
to one session of its shard: the first connected of those that identified for it (a
second session on a taken shard gets nothing until the first disconnects; with none
connected, the latest one buffers them for its RESUME). A guild without the bot is in no
shard's list and gets no GUILD_CREATE (its interactions still come, routed by its id). A
session that would
hold more than `MAX_GUILDS_PER_SHARD` guilds is closed with 4011 (sharding
required). IDENTIFYs are paced like a bot with ``max_concurrency`` 1: one per
`identify_interval` seconds across every connection; one sooner is a violation and
is answered with op 9 INVALID_SESSION, as Discord does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

import orjson
from aiohttp import WSMsgType, web

from .state import Channel, ViolationKind, World

log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL_MS = 41_250
#: Close code Discord uses for a bad token.
AUTHENTICATION_FAILED = 4004
#: Close code Discord uses for a bot that must shard and does not (or not enough).
SHARDING_REQUIRED = 4011
#: Close code for a shard id outside its shard count.
INVALID_SHARD = 4010
#: Discord's limit of guilds on one shard.
MAX_GUILDS_PER_SHARD = 2_500
#: Guilds a shard for each shard /gateway/bot recommends (Discord's own rule of thumb).
GUILDS_PER_RECOMMENDED_SHARD = 1_000
#: Seconds between two IDENTIFYs of a bot whose max_concurrency is 1 (Discord: 5).
IDENTIFY_INTERVAL = 5.0


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord routes a guild's events to (the fake's own, as Discord is not the
    bot: the bot's is `bot.store.records.shard_of`)."""
    return (guild_id >> 22) % shard_count


class Op(IntEnum):
    """Gateway opcodes."""

    DISPATCH = 0
    HEARTBEAT = 1
    IDENTIFY = 2
    PRESENCE_UPDATE = 3
    VOICE_STATE_UPDATE = 4
    RESUME = 6
    RECONNECT = 7
    REQUEST_GUILD_MEMBERS = 8
    INVALID_SESSION = 9
    HELLO = 10
    HEARTBEAT_ACK = 11


@dataclass
class Session:
    """One gateway session; it outlives a connection when the client resumes.

    ``intents`` are those the client identified with; ``sent`` holds every
    dispatch, for replay on RESUME.
    """

    id: str
    intents: int
    #: (shard_id, shard_count) the session identified with.
    shard: tuple[int, int] = (0, 1)
    seq: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, frame: dict[str, Any]) -> None:
        """Send a frame if connected; dispatches are kept for resuming either way."""
        if self.ws is None or self.ws.closed:
            return
        # A connection the client is closing (after RECONNECT) may refuse the write;
        # the frame is then delivered by the replay when the client resumes.
        with contextlib.suppress(ConnectionResetError):
            await self.ws.send_str(orjson.dumps(frame).decode())

    async def dispatch(self, event: str, data: Any) -> None:
        """Send an event with the next sequence number."""
        async with self.lock:
            self.seq += 1
            frame = {"op": Op.DISPATCH, "t": event, "s": self.seq, "d": data}
            self.sent.append(frame)
            await self.send(frame)


class Gateway:
    """Serves the websocket and keeps sessions; counts identifies and resumes."""

    def __init__(
        self,
        world: World,
        token: str,
        resume_url: Callable[[], str],
        *,
        violation: Callable[[ViolationKind, str], None],
        clock: Callable[[], float] = time.monotonic,
        identify_interval: float = IDENTIFY_INTERVAL,
    ) -> None:
        self._world = world
        self._token = token
        self._resume_url = resume_url
        self._violation = violation
        self._clock = clock
        self._sessions: dict[str, Session] = {}
        self._connections: set[web.WebSocketResponse] = set()
        #: The most recently identified session.
        self.session: Session | None = None
        #: shard id -> the sessions that identified for it, oldest first.
        self.shard_sessions: dict[int, list[Session]] = {}
        #: Seconds required between two IDENTIFYs (Discord: 5, for max_concurrency 1).
        self.identify_interval = identify_interval
        self._last_identify: float | None = None
        #: How many times a client sent IDENTIFY / RESUME, and how many RECONNECTs were sent.
        self.identify_count = 0
        self.resume_count = 0
        self.reconnect_count = 0
        self._announcing: set[asyncio.Task[None]] = set()

    @property
    def recommended_shards(self) -> int:
        """What /gateway/bot recommends: a shard per thousand guilds, at least one."""
        return max(1, math.ceil(len(self._world.bot_guilds()) / GUILDS_PER_RECOMMENDED_SHARD))

    @property
    def shards(self) -> dict[int, Session]:
        """shard id -> the session its guilds' events go to now."""
        return {shard: self._route(sessions) for shard, sessions in self.shard_sessions.items()}

    def session_for(self, guild_id: int | None) -> Session | None:
        """The session a guild's events go to (shard 0 for events without a guild)."""
        if self.session is None:
            return None
        count = self.session.shard[1]
        sessions = self.shard_sessions.get(0 if guild_id is None else shard_of(guild_id, count))
        return self._route(sessions) if sessions else None

    @staticmethod
    def _route(sessions: list[Session]) -> Session:
        return next((s for s in sessions if s.ws is not None and not s.ws.closed), sessions[-1])

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """The websocket endpoint."""
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._connections.add(ws)
        try:
            await ws.send_str(
                json.dumps({"op": Op.HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
            )
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    await self._on_frame(ws, json.loads(message.data))
        finally:
            self._connections.discard(ws)
            for session in self._sessions.values():
                if session.ws is ws:
                    session.ws = None
        return ws

    async def dispatch(self, event: str, data: Any, guild_id: int | None = None) -> None:
        """Send an event to the session of the guild's shard (buffered while it reconnects)."""
        session = self.session_for(guild_id)
        if session is None:
            raise RuntimeError(f"no bot has identified with the fake gateway for guild {guild_id}")
        await session.dispatch(event, data)

    async def announce(self, event: str, channel: Channel, **extra: Any) -> None:
        """Dispatch a channel or thread event (its payload, and `extra` fields) to the session
        of its guild's shard, if a bot is there (and the guild has the bot)."""
        if channel.guild_id is None:
            raise ValueError("only a guild's channels are announced")
        guild = self._world.guild(channel.guild_id)
        if self._world.has_bot(guild) and self.session_for(guild.id) is not None:
            await self.dispatch(event, {**channel.payload(), **extra}, guild.id)

    def announce_soon(self, event: str, channel: Channel, **extra: Any) -> None:
        """`announce`, from code that cannot wait for it: the gateway sends it next."""
        task = asyncio.create_task(self.announce(event, channel, **extra))
        self._announcing.add(task)
        task.add_done_callback(self._announcing.discard)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT on the current session's connection."""
        if self.session is None or self.session.ws is None:
            raise RuntimeError("no bot is connected to the fake gateway")
        self.reconnect_count += 1
        await self.session.send({"op": Op.RECONNECT, "d": None})

    async def close(self, code: int = 1000, message: bytes = b"") -> None:
        """Close every open connection, with Discord's close `code` (AUTHENTICATION_FAILED:
        the bot's token was reset while it ran)."""
        for ws in list(self._connections):
            await ws.close(code=code, message=message)

    async def _on_frame(self, ws: web.WebSocketResponse, frame: dict[str, Any]) -> None:
        op = frame.get("op")
        if op == Op.HEARTBEAT:
            await ws.send_str(json.dumps({"op": Op.HEARTBEAT_ACK}))
        elif op == Op.IDENTIFY:
            await self._identify(ws, frame["d"])
        elif op == Op.RESUME:
            await self._resume(ws, frame["d"])
        elif op == Op.REQUEST_GUILD_MEMBERS:
            await self._send_member_chunk(ws, frame["d"])
        elif op not in (Op.PRESENCE_UPDATE, Op.VOICE_STATE_UPDATE):
            log.warning("fake gateway ignored unknown op %s", op)

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        if data.get("token") != self._token:
            await ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return
        now = self._clock()
        shard = data.get("shard") or [0, 1]
        if self._last_identify is not None and now - self._last_identify < self.identify_interval:
            self._violation(
                ViolationKind.IDENTIFY_RATE,
                f"IDENTIFY of shard {shard} {now - self._last_identify:.2f} s after the previous "
                f"one (at most one per {self.identify_interval:g} s)",
            )
            await ws.send_str(json.dumps({"op": Op.INVALID_SESSION, "d": False}))
            return
        self._last_identify = now
        self.identify_count += 1
        shard_id, shard_count = data.get("shard") or (0, 1)
        if not 0 <= shard_id < shard_count:
            await ws.close(code=INVALID_SHARD, message=b"Invalid shard.")
            return
        world = self._world
        guilds = [g for g in world.bot_guilds() if shard_of(g.id, shard_count) == shard_id]
        if len(guilds) > MAX_GUILDS_PER_SHARD:
            await ws.close(code=SHARDING_REQUIRED, message=b"Sharding required.")
            return
        session = Session(
            id=secrets.token_hex(16),
            intents=data.get("intents", 0),
            shard=(shard_id, shard_count),
            ws=ws,
        )
        self._sessions[session.id] = self.session = session
        self.shard_sessions.setdefault(shard_id, []).append(session)
        await session.dispatch(
            "READY",
            {
                "v": 10,
                "user": world.bot.payload(),
                "session_id": session.id,
                "session_type": "normal",
                "resume_gateway_url": self._resume_url(),
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "application": {"id": str(world.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "geo_ordered_rtc_regions": [],
                "shard": [shard_id, shard_count],
            },
        )
        for guild in guilds:
            await session.dispatch("GUILD_CREATE", guild.payload())
        world.notifier.bump()

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        session = self._sessions.get(data.get("session_id", ""))
        if session is None or data.get("token") != self._token:
            await ws.send_str(json.dumps({"op": Op.INVALID_SESSION, "d": False}))
            return
        self.resume_count += 1
        async with session.lock:
            session.ws = ws
            last_seen = data.get("seq") or 0
            for frame in session.sent:
                if frame["s"] > last_seen:
                    await session.send(frame)
        await session.dispatch("RESUMED", {})
        self._world.notifier.bump()

    async def _send_member_chunk(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        session = next((s for s in self._sessions.values() if s.ws is ws), None)
        guild = self._world.guilds.get(int(data["guild_id"]))
        if session is None or guild is None or not self._world.has_bot(guild):
            return
        wanted = {int(user_id) for user_id in data.get("user_ids") or []}
        query = data.get("query") or ""
        members = [
            member.payload()
            for member in guild.members.values()
            if (not wanted or member.user.id in wanted) and member.user.name.startswith(query)
        ]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)
