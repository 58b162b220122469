"""The fake gateway: HELLO, heartbeats, IDENTIFY/READY, GUILD_CREATE, RESUME, RECONNECT.

Frames are sent as plain JSON text (the client only inflates binary frames, so
``compress=zlib-stream`` in the query string can be ignored). Every dispatch
is kept per session so that a client resuming after a reconnect receives the
events it missed, as with Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

import orjson
from aiohttp import WSMsgType, web

from .state import World

log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL_MS = 41_250
#: Close code Discord uses for a bad token.
AUTHENTICATION_FAILED = 4004


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

    def __init__(self, world: World, token: str, resume_url: Callable[[], str]) -> None:
        self._world = world
        self._token = token
        self._resume_url = resume_url
        self._sessions: dict[str, Session] = {}
        self._connections: set[web.WebSocketResponse] = set()
        #: The most recently identified session: the one events go to.
        self.session: Session | None = None
        #: How many times a client sent IDENTIFY / RESUME, and how many RECONNECTs were sent.
        self.identify_count = 0
        self.resume_count = 0
        self.reconnect_count = 0

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

    async def dispatch(self, event: str, data: Any) -> None:
        """Send an event to the bot's current session (buffered while it reconnects)."""
        if self.session is None:
            raise RuntimeError("no bot has identified with the fake gateway")
        await self.session.dispatch(event, data)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT on the current session's connection."""
        if self.session is None or self.session.ws is None:
            raise RuntimeError("no bot is connected to the fake gateway")
        self.reconnect_count += 1
        await self.session.send({"op": Op.RECONNECT, "d": None})

    async def close(self) -> None:
        """Close every open connection."""
        for ws in list(self._connections):
            await ws.close()

    async def _on_frame(self, ws: web.WebSocketResponse, frame: dict[str, Any]) -> None:
        op, data = frame.get("op"), frame.get("d")
        if op == Op.HEARTBEAT:
            await ws.send_str(json.dumps({"op": Op.HEARTBEAT_ACK}))
        elif op == Op.IDENTIFY:
            await self._identify(ws, data)
        elif op == Op.RESUME:
            await self._resume(ws, data)
        elif op == Op.REQUEST_GUILD_MEMBERS:
            await self._send_member_chunk(ws, data)
        elif op not in (Op.PRESENCE_UPDATE, Op.VOICE_STATE_UPDATE):
            log.warning("fake gateway ignored unknown op %s", op)

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        if data.get("token") != self._token:
            await ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return
        self.identify_count += 1
        session = Session(id=secrets.token_hex(16), intents=data.get("intents", 0), ws=ws)
        self._sessions[session.id] = self.session = session
        world = self._world
        await session.dispatch(
            "READY",
            {
                "v": 10,
                "user": world.bot.payload(),
                "session_id": session.id,
                "session_type": "normal",
                "resume_gateway_url": self._resume_url(),
                "guilds": [{"id": str(g), "unavailable": True} for g in world.guilds],
                "application": {"id": str(world.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "geo_ordered_rtc_regions": [],
            },
        )
        for guild in world.guilds.values():
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
        if session is None or guild is None:
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
