"""One web client's WebSocket: its hello, then its moves, each checked as a Discord click.

A client says which channel it watches and, signed in, who it is (a session token,
bot.web.sessions). A move names one of the custom ids its state offered (and, for a
picker, the values chosen); it is read by the same parser as a Discord click
(bot.game.clicks) into the same command (bot.game.commands), asked for by a `Caller`
whose standing in the channel the gatekeeper tells (bot.game.access: an account that is
not a member of the server, or cannot see or post in the channel, is refused by name),
and answered with a line saying what happened or why not.
A client that sends too fast is told so and its message dropped; a session that ends
closes the socket (code 4001: sign in again).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import orjson
from aiohttp import WSMsgType, web

from bot.errors import UserError
from bot.game import plays
from bot.game.access import OUTSIDER, Caller, Gatekeeper, watch_refusal
from bot.game.clicks import read_click
from bot.game.commands import AddCrewmate, Command, Join, Leave, PlayAgain, RemoveCrewmate, Start
from bot.i18n.catalogs import language_of, t
from bot.store.records import StoreBusy
from bot.views import web_state
from bot.web.sessions import Bucket, Expired, User

if TYPE_CHECKING:
    from bot.game.service import GameService
    from bot.table import Table
    from bot.web.feed import Feed
    from bot.web.sessions import Sessions

log = logging.getLogger(__name__)

#: Close codes: the session is over (sign in again); refused for good (do not retry).
SESSION_OVER, REFUSED = 4001, 4003
#: The longest message a client may send, and how long it has to say hello.
MAX_MESSAGE = 4096
HELLO_SECONDS = 10.0
#: The lobby's buttons a web client may press, as the commands they stand for.
LOBBY_COMMANDS: dict[str, type[Command]] = {
    "join": Join,
    "leave": Leave,
    "crewadd": AddCrewmate,
    "crewdrop": RemoveCrewmate,
    "start": Start,
}


class Client:
    """One WebSocket: what it watches, who it is, and the latest state it is owed."""

    def __init__(
        self,
        ws: web.WebSocketResponse,
        channel: int,
        user: User | None,
        language: str,
        bucket: Bucket,
    ):
        self.ws = ws
        self.channel = channel
        self.user = user
        self.viewer = user.id if user is not None else None
        self.language = language
        #: How fast it may send: shared by every socket of the same person.
        self.bucket = bucket
        self._pending: str | None = None
        self._sending = False

    def offer(self, state: str) -> None:
        """Send `state`, or, while a send is under way, send it next (only the latest)."""
        self._pending = state
        if not self._sending:
            self._sending = True
            asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        try:
            while self._pending is not None and not self.ws.closed:
                state, self._pending = self._pending, None
                await self.ws.send_str(state)
        except (ConnectionError, RuntimeError):
            pass  # the socket closed meanwhile: its reader ends it
        finally:
            self._sending = False

    async def send(self, message: dict[str, Any]) -> None:
        if not self.ws.closed:
            await self.ws.send_str(orjson.dumps(message).decode())


class Sockets:
    """Serves `/ws` (see the module docstring)."""

    def __init__(
        self, service: GameService, feed: Feed, sessions: Sessions, gatekeeper: Gatekeeper
    ) -> None:
        self.service = service
        self.feed = feed
        self.sessions = sessions
        self.gatekeeper = gatekeeper
        #: Each signed-in person's rate, whichever of their sockets sends, and how many
        #: sockets they have open (the rate is forgotten with the last).
        self._buckets: dict[int, tuple[Bucket, int]] = {}

    async def serve(self, ws: web.WebSocketResponse) -> None:
        """A connected socket, from its hello to its close."""
        client = await self._hello(ws)
        if client is None:
            return
        self.feed.join(client)
        self._held(client, +1)
        expiry = None
        if client.user is not None:
            delay = max(client.user.expires - self.sessions.clock(), 0)
            expiry = asyncio.get_running_loop().call_later(delay, self._expire, client)
        try:
            await client.send(self._welcome(client))
            client.offer(self.feed.state_for(client, self._table(client.channel)))
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    break
                await self._received(client, message.data)
        finally:
            if expiry is not None:
                expiry.cancel()
            self.feed.leave(client)
            self._held(client, -1)

    def _bucket(self, user: User | None) -> Bucket:
        """The rate a new socket of `user` sends at (their own if they have a socket open)."""
        if user is None:
            return Bucket()
        held = self._buckets.get(user.id)
        return held[0] if held is not None else Bucket()

    def _held(self, client: Client, change: int) -> None:
        if client.user is None:
            return
        _, count = self._buckets.get(client.user.id, (client.bucket, 0))
        if count + change <= 0:
            self._buckets.pop(client.user.id, None)
        else:
            self._buckets[client.user.id] = (client.bucket, count + change)

    async def _hello(self, ws: web.WebSocketResponse) -> Client | None:
        try:
            async with asyncio.timeout(HELLO_SECONDS):
                message = await ws.receive()
        except TimeoutError:
            await ws.close(code=REFUSED, message=b"no hello")
            return None
        hello = _json(message.data) if message.type is WSMsgType.TEXT else None
        channel = str(hello.get("channel", "")) if hello else ""
        if not hello or hello.get("type") != "hello" or not channel.isdigit() or len(channel) > 20:
            await ws.close(code=REFUSED, message=b"a hello names a channel")
            return None
        user = None
        if hello.get("session") is not None:
            try:
                user = self.sessions.read(hello["session"])
            except Expired:
                await ws.close(code=SESSION_OVER, message=b"session over")
                return None
            if user is None:
                await ws.close(code=REFUSED, message=b"session refused")
                return None
        asked = hello.get("language")
        language = language_of(user.locale if user else asked if isinstance(asked, str) else None)
        refusal = await self._may_watch(int(channel), user)
        if refusal is not None:  # told why, then closed for good
            await ws.send_str(
                orjson.dumps({"type": "refused", "reason": refusal.text(language)}).decode()
            )
            await ws.close(code=REFUSED, message=b"not yours to watch")
            return None
        return Client(ws, int(channel), user, language, self._bucket(user))

    async def _may_watch(self, channel: int, user: User | None) -> UserError | None:
        """Why this person may not watch the channel's table (None: they may)."""
        table = self._table(channel)
        guild = table.guild_id if table is not None else self.gatekeeper.guild_of(channel)
        public = self.gatekeeper.public(channel)
        standing = None
        if user is not None and guild is not None:
            standing = await self.gatekeeper.standing(user.id, guild, channel)
        elif user is not None:
            standing = OUTSIDER
        return watch_refusal(public, standing)

    def _welcome(self, client: Client) -> dict[str, Any]:
        user = client.user
        return {
            "type": "welcome",
            "user": {"id": str(user.id), "name": user.name} if user else None,
            "language": client.language,
            "labels": web_state.labels(client.language),
        }

    def _expire(self, client: Client) -> None:
        asyncio.get_running_loop().create_task(
            client.ws.close(code=SESSION_OVER, message=b"session over")
        )

    def _table(self, channel: int) -> Table | None:
        return self.feed.table_in(channel, self.service.by_channel)

    async def _received(self, client: Client, data: str) -> None:
        language = client.language
        if not client.bucket.take():
            await client.send({"type": "refused", "reason": t(language, "web.error.too_fast")})
            return
        message = _json(data) if len(data) <= MAX_MESSAGE else None
        kind = message.get("type") if message else None
        if kind == "ping":
            await client.send({"type": "pong"})
            return
        if kind != "move":
            await client.send({"type": "refused", "reason": t(language, "web.error.unreadable")})
            return
        number = message.get("id")
        number = number if isinstance(number, int) and not isinstance(number, bool) else None
        try:
            note = await self._move(client, message)
            ok = True
        except UserError as exc:
            note, ok = f"⚠️ {exc.text(language)}", False
        except StoreBusy:
            log.warning("web move in channel %s: the database was busy", client.channel)
            note, ok = f"⚠️ {t(language, 'error.busy')}", False
        except Exception:  # a bug or an outage on our side: logged, answered politely
            log.exception("web move in channel %s failed", client.channel)
            note, ok = f"⚠️ {t(language, 'error.sorry')}", False
        table = self._table(client.channel)
        note = web_state.plain(note, table) if table is not None else note
        await client.send({"type": "result", "id": number, "ok": ok, "note": note})

    async def _move(self, client: Client, message: dict[str, Any]) -> str:
        """Play one move; what happened, in words (UserError: refused, and why)."""
        if client.user is None:
            raise UserError("web.error.sign_in")
        values = message.get("values")
        click = read_click({"custom_id": message.get("custom_id"), "values": values})
        table = self._table(client.channel)
        if table is None:
            raise UserError("error.no_game")
        self.service.seen(table.channel_id, client.user.id)  # there: not on autopilot
        if click.kind == "b" and click.action == "again":  # its lobby opens in this channel
            caller = await self._caller(client, table.guild_id, client.channel)
            await self.service.run(caller, PlayAgain(click.game))
            return t(client.language, "web.again")
        caller = await self._caller(client, table.guild_id, table.channel_id)
        if click.game != table.id or not table.open:
            raise UserError("error.buttons_over")
        if click.kind == "b" and click.action in LOBBY_COMMANDS:
            if table.status != "lobby":
                raise UserError("error.lobby_buttons_over")
            outcome = await self.service.run(caller, LOBBY_COMMANDS[click.action]())
            key = "reply.started" if click.action == "start" else f"reply.{click.action}"
            return t(client.language, key, seated=len(outcome.table.seats))
        if click.kind not in ("h", "p") or click.action == "refresh":
            raise UserError("error.unknown_button")
        return await plays.play(self.service, caller, table, click, client.language)

    async def _caller(self, client: Client, guild_id: int, channel_id: int) -> Caller:
        """The signed-in person as the game layer sees them, acting in `channel_id` (the
        game's channel, or its thread)."""
        user = client.user
        assert user is not None
        standing = await self.gatekeeper.standing(user.id, guild_id, channel_id)
        return Caller(user.id, user.name, guild_id, channel_id, standing, answers=False)


def _json(data: Any) -> dict[str, Any] | None:
    try:
        value = orjson.loads(data)
    except (orjson.JSONDecodeError, TypeError):
        return None
    return value if isinstance(value, dict) else None
