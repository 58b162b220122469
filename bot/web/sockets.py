"""One web client's WebSocket: its hello, then its moves, each checked as a Discord click.

A client says which channel it watches and, signed in, who it is: the Activity names its
session token in its hello; a browser's socket is signed in by the session cookie sent
with its upgrade request (bot.web.sessions). A move names one of the custom ids its state
offered (and, for a picker, the values chosen); it is read by the same parser as a Discord
click (bot.game.clicks) into the same command (bot.game.commands), asked for by a `Caller`
whose standing in the channel the gatekeeper tells (bot.game.access: an account that is
not a member of the server, or cannot see or post in the channel, is refused by name),
and answered with a line saying what happened or why not.

Inside Discord the hello names the Activity's instance instead, which bot.web.places
checks with Discord (where it runs, who is in it, again at each move and before each
state it is sent: someone who left is told so and their socket closed); where no game is
open there, a participant is offered Open.

Each person sends at RATE messages a second (BURST at once), whichever of their sockets
sends and however often they reconnect (bot.web.limits.Rates); beyond it a message is
dropped, the first of a burst answered "too fast", and a socket that keeps flooding is
closed (1008). Connecting is limited too, per person and per address, and so are the
sockets an address holds. A session that ends (it expires, its owner logs out) closes
its sockets (code 4001: sign in again). A client gone while answered is a goodbye.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import orjson
from aiohttp import WSMsgType, web

from bot.errors import UserError
from bot.game import newcomers, plays
from bot.game.access import Gatekeeper
from bot.game.clicks import LOBBY_COMMANDS, PANEL, command_of, read_click
from bot.game.commands import Configure, Join, Open, PlayAgain
from bot.i18n.catalogs import language_of, t
from bot.i18n.said import joined
from bot.store.records import StoreBusy
from bot.views import web_state
from bot.views.plain import Names
from bot.web.limits import Bucket, Rates
from bot.web.places import Activity, Places, channel_id
from bot.web.sessions import Expired, User

if TYPE_CHECKING:
    from bot.game.service import GameService
    from bot.table import Table
    from bot.web.feed import Feed
    from bot.web.sessions import Sessions

log = logging.getLogger(__name__)

#: Close codes: the session is over (sign in again); refused for good (do not retry);
#: flooding (1008, policy violation); too many connections (1013, try again later).
SESSION_OVER, REFUSED, FLOODING, TRY_LATER = 4001, 4003, 1008, 1013
#: The longest message a client may send, and how long it has to say hello.
MAX_MESSAGE = 4096
HELLO_SECONDS = 10.0
#: Messages a second a person (or a socket not signed in) may send on average, and in a burst.
RATE = 8.0
BURST = 16.0
#: Dropped messages (forgiven at RATE a second) after which a socket is closed as flooding.
FLOOD = 32.0
#: Sockets a person may open a second on average, and at once; the same for an address.
ATTEMPT_RATE, ATTEMPT_BURST = 0.5, 10.0
ADDRESS_ATTEMPT_RATE, ADDRESS_ATTEMPT_BURST = 10.0, 60.0
#: Sockets one address may hold open.
SOCKETS_PER_ADDRESS = 64
#: What a web client is offered besides its hand's moves, Open and Play again: the
#: lobby's buttons and its settings (a board's and a launch report's buttons are Discord's
#: messages', not the table's).
OFFERED = (*LOBBY_COMMANDS, Configure)
#: The one refusal that signing in may lift (a channel not open to all its server).
SIGN_IN_TO_WATCH = "seat.sign_in_to_watch"


class Client:
    """One WebSocket: what it watches, who it is, and the latest state it is owed."""

    def __init__(
        self,
        ws: web.WebSocketResponse,
        channel: int,
        user: User | None,
        language: str,
        bucket: Bucket,
        activity: Activity | None = None,
        admitted: Callable[[Client], Awaitable[bool]] | None = None,
    ):
        self.ws = ws
        self.channel = channel
        self.user = user
        #: Inside Discord, the Activity it runs in (None: a browser's page).
        self.activity = activity
        #: Whether it may still be sent states, asked before each (an Activity's: is its
        #: person still in the instance?); None: always.
        self.admitted = admitted
        self.viewer = user.id if user is not None else None
        self.language = language
        #: How fast it may send, not signed in (a person's rate is kept by Sockets.rates).
        self.bucket = bucket
        #: Messages dropped lately (forgiven at RATE a second), and when last counted.
        self.dropped = 0.0
        self.dropped_at = bucket.clock()
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
                if self.admitted is not None and not await self.admitted(self):
                    self._pending = None  # no longer theirs to see: closed meanwhile
                    break
                state, self._pending = self._pending, None
                await self.ws.send_str(state)
        except (ConnectionError, RuntimeError):
            pass  # the socket closed meanwhile: its reader ends it
        finally:
            self._sending = False

    async def send(self, message: dict[str, Any]) -> None:
        if not self.ws.closed:
            await self.ws.send_str(orjson.dumps(message).decode())

    def drop(self) -> float:
        """One more message dropped: how many lately."""
        now = self.bucket.clock()
        self.dropped = max(0.0, self.dropped - (now - self.dropped_at) * RATE) + 1
        self.dropped_at = now
        return self.dropped


class Sockets:
    """Serves `/ws` (see the module docstring)."""

    def __init__(
        self, service: GameService, feed: Feed, sessions: Sessions, gatekeeper: Gatekeeper
    ) -> None:
        self.service = service
        self.feed = feed
        self.sessions = sessions
        self.places = Places(gatekeeper)
        #: Each signed-in person's rate, whichever of their sockets sends, kept a while
        #: after their last socket closes.
        self.rates = Rates(RATE, BURST)
        #: Sockets opened, by person and by address; sockets open, by address.
        self.attempts = Rates(ATTEMPT_RATE, ATTEMPT_BURST)
        self.address_attempts = Rates(ADDRESS_ATTEMPT_RATE, ADDRESS_ATTEMPT_BURST)
        self.by_address: Counter[str] = Counter()
        #: The open sockets of each session (by its signature), to close as it ends.
        self.by_session: dict[str, set[Client]] = {}
        self._closing: set[asyncio.Task[bool]] = set()

    def admit(self, address: str | None) -> bool:
        """Whether a socket from `address` may open (None: no per-address limit); if so it
        counts until `release(address)`."""
        if address is None:
            return True
        if self.by_address[address] >= SOCKETS_PER_ADDRESS:
            return False
        if not self.address_attempts.take(address):
            return False
        self.by_address[address] += 1
        return True

    def release(self, address: str | None) -> None:
        if address is not None:
            self.by_address[address] -= 1
            if self.by_address[address] <= 0:
                del self.by_address[address]

    async def serve(self, ws: web.WebSocketResponse, cookie: str | None = None) -> None:
        """A connected socket, from its hello to its close; `cookie`, the session cookie its
        upgrade request carried (a browser's)."""
        try:
            client = await self._hello(ws, cookie)
            if client is not None:
                await self._serve(client)
        except ConnectionError:  # the client went away while it was answered: a goodbye
            log.debug("a web client went away while answered")

    async def _serve(self, client: Client) -> None:
        ws = client.ws
        mirrors = self.service.mirrors
        if mirrors is not None and client.channel not in self.feed.live:
            await mirrors.follow(client.channel)  # another process's game, if any: read now
        else:
            mirrors = None
        self.feed.join(client)
        session = client.user.session if client.user is not None else None
        if session:
            self.by_session.setdefault(session, set()).add(client)
        expiry = None
        if client.user is not None:
            delay = max(client.user.expires - self.sessions.clock(), 0)
            expiry = asyncio.get_running_loop().call_later(
                delay, self._close, client, SESSION_OVER, b"session over"
            )
        try:
            await client.send(self._welcome(client))
            client.offer(self._state(client))
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    break
                await self._received(client, message.data)
        finally:
            if expiry is not None:
                expiry.cancel()
            self.feed.leave(client)
            if mirrors is not None:
                mirrors.unfollow(client.channel)
            if session:
                clients = self.by_session.get(session, set())
                clients.discard(client)
                if not clients:
                    self.by_session.pop(session, None)

    def session_over(self, session: str) -> None:
        """The session (by its signature) ended: its sockets close with 4001."""
        for client in list(self.by_session.get(session, ())):
            self._close(client, SESSION_OVER, b"session over")

    def _close(self, client: Client, code: int, message: bytes) -> None:
        task = asyncio.get_running_loop().create_task(client.ws.close(code=code, message=message))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def _hello(self, ws: web.WebSocketResponse, cookie: str | None) -> Client | None:
        try:
            async with asyncio.timeout(HELLO_SECONDS):
                message = await ws.receive()
        except TimeoutError:
            await ws.close(code=REFUSED, message=b"no hello")
            return None
        hello = _json(message.data) if message.type is WSMsgType.TEXT else None
        named = hello.get("channel") if hello else None
        channel = named if isinstance(named, str) else str(named) if type(named) is int else ""
        instance = hello.get("instance") if hello else None
        if not hello or hello.get("type") != "hello" or not (instance or channel_id(channel)):
            await ws.close(code=REFUSED, message=b"a hello names a channel or an instance")
            return None
        user = None
        if hello.get("session") is not None:  # the Activity's
            try:
                user = await self.sessions.user_of(hello["session"])
            except Expired:
                await ws.close(code=SESSION_OVER, message=b"session over")
                return None
            except StoreBusy:
                await ws.close(code=TRY_LATER, message=b"busy: try again later")
                return None
            if user is None:
                await ws.close(code=REFUSED, message=b"session refused")
                return None
        elif cookie is not None:  # a browser's: one over or forged only watches
            try:
                user = await self.sessions.user_of(cookie)
            except (Expired, StoreBusy):
                user = None
        if user is not None and not self.attempts.take(user.id):
            await ws.close(code=TRY_LATER, message=b"connecting too often: try again later")
            return None
        asked = hello.get("language")
        language = language_of(user.locale if user else asked if isinstance(asked, str) else None)
        activity = None
        try:
            if instance is not None:  # inside Discord: the place is the instance's, as Discord says
                found = await self.places.participant(instance, user)
                assert user is not None  # `participant` refuses anyone else
                activity = await self.places.activity(instance, found)
                where = found.channel_id
                refusal = await self.places.may_watch_activity(activity, where, user)
            else:
                where = int(channel)
                refusal = await self.places.may_watch(where, user)
        except UserError as exc:
            refusal = exc
        except OSError:  # Discord could not say who is in the Activity: the client retries
            await ws.close(code=TRY_LATER, message=b"could not check the Activity: try again")
            return None
        if refusal is not None:  # told why, then closed for good
            await ws.send_str(orjson.dumps(_refused(refusal, language)).decode())
            await ws.close(code=REFUSED, message=b"not yours to watch")
            return None
        admitted = self._still_in if activity is not None else None
        return Client(ws, where, user, language, Bucket(RATE, BURST), activity, admitted)

    async def _still_in(self, client: Client) -> bool:
        """Whether an Activity's client is still in its instance, as Discord says now (its
        answer kept briefly); if not, it is told why and closed for good (4003), or, when
        Discord cannot say, closed to come back (1013, its hello checks again)."""
        assert client.activity is not None
        try:
            await self.places.participant(client.activity.instance_id, client.user)
            return True
        except UserError as exc:
            log.info("closed a web socket in channel %s: no longer in the Activity", client.channel)
            await client.send({"type": "refused", "reason": exc.text(client.language)})
            await client.ws.close(code=REFUSED, message=b"no longer in the Activity")
        except OSError:
            await client.ws.close(
                code=TRY_LATER, message=b"could not check the Activity: try again"
            )
        return False

    def _welcome(self, client: Client) -> dict[str, Any]:
        user = client.user
        return {
            "type": "welcome",
            "user": {"id": str(user.id), "name": user.name} if user else None,
            "language": client.language,
            "labels": web_state.labels(client.language),
        }

    def _table(self, channel: int) -> Table | None:
        return self.feed.table_in(channel)

    def _state(self, client: Client) -> str:
        """The whole state a client sees on arrival: where no game is, a participant in
        the Activity is offered to open one."""
        table = self._table(client.channel)
        if table is not None or client.activity is None or client.user is None:
            return self.feed.state_for(client, table)
        watching = len(self.feed.viewers.get(client.channel, ()))
        moves = [web_state.open_move(client.language)]
        state = web_state.no_table(client.channel, self.feed.clock(), watching, moves)
        return orjson.dumps(state).decode()

    async def _received(self, client: Client, data: str) -> None:
        language = client.language
        bucket = client.bucket if client.user is None else self.rates.bucket(client.user.id)
        if not bucket.take():  # dropped; the first of a burst told, a flood closed
            if client.drop() > FLOOD:
                who = client.user.id if client.user is not None else "a watcher"
                log.info("closed the web socket of %s in channel %s: flooding", who, client.channel)
                await client.ws.close(code=FLOODING, message=b"too fast")
            elif not bucket.warned:
                bucket.warned = True
                await client.send({"type": "refused", "reason": t(language, "web.error.too_fast")})
            return
        message = _json(data) if len(data) <= MAX_MESSAGE else None
        kind = message.get("type") if message else None
        if kind == "ping":
            await client.send({"type": "pong"})
            return
        if kind == "welcomed":  # a newcomer closed the first game's welcome: not shown again
            table = self._table(client.channel)
            if table is not None and client.user is not None:
                newcomers.to_welcome(table, client.user.id)
            return
        if kind != "move" or message is None:
            await client.send({"type": "refused", "reason": t(language, "web.error.unreadable")})
            return
        number = message.get("id")
        number = number if isinstance(number, int) and not isinstance(number, bool) else None
        try:
            note = await self._move(client, message)
            ok = True
        except UserError as exc:
            note, ok = joined("", ["⚠️ ", exc.text(language)]), False
        except StoreBusy:
            log.warning("web move in channel %s: the database was busy", client.channel)
            note, ok = f"⚠️ {t(language, 'error.busy')}", False
        except Exception:  # a bug or an outage on our side: logged, answered politely
            log.exception("web move in channel %s failed", client.channel)
            note, ok = f"⚠️ {t(language, 'error.sorry')}", False
        table = self._table(client.channel)
        note = web_state.plain(note, Names(table)) if table is not None else note
        await client.send({"type": "result", "id": number, "ok": ok, "note": note})

    async def _move(self, client: Client, message: dict[str, Any]) -> str:
        """Play one move; what happened, in words (UserError: refused, and why)."""
        user = client.user
        if user is None:
            raise UserError("web.error.sign_in")
        activity = client.activity
        if activity is not None:  # still in the Activity? (Discord's word, kept briefly)
            try:
                await self.places.participant(activity.instance_id, user)
            except OSError:
                raise UserError("web.error.activity_unchecked") from None
        values = message.get("values")
        click = read_click({"custom_id": message.get("custom_id"), "values": values})
        command = None if click.kind in PANEL else command_of(click)
        if isinstance(command, Open):  # offered inside Discord only
            if activity is None:
                raise UserError("error.unknown_button")
            caller = await self.places.caller(user, activity, activity.guild_id, client.channel)
            return await self.service.answer(caller, command, client.language)
        table = self._table(client.channel)
        if table is None:
            raise UserError("error.no_game")
        self.service.seen(table.channel_id, user.id)  # there: not on autopilot
        if isinstance(command, PlayAgain):  # its lobby opens in this channel
            caller = await self.places.caller(user, activity, table.guild_id, client.channel)
            return await self.service.answer(caller, command, client.language)
        caller = await self.places.caller(user, activity, table.guild_id, table.channel_id)
        if click.game != table.id or not table.open:
            raise UserError("error.buttons_over")
        if click.kind in PANEL and click.action != "refresh":
            return await plays.play(self.service, caller, table, click, client.language)
        leaving = click.kind == "q"  # the leave question's answer, a game in play's
        if leaving and table.status != "active":
            raise UserError("error.buttons_over")
        if leaving and command is None:  # Stay
            return t(client.language, "leave.stayed")
        if not isinstance(command, OFFERED):
            raise UserError("error.unknown_button")
        dropping_in = isinstance(command, Join)  # a free seat of a game in play (bot.game.seats)
        in_play = dropping_in or leaving
        if isinstance(command, LOBBY_COMMANDS) and table.status != "lobby" and not in_play:
            raise UserError("error.lobby_buttons_over")
        return await self.service.answer(caller, command, client.language)


def _refused(refusal: UserError, language: str) -> dict[str, Any]:
    """A hello's refusal, saying whether signing in may lift it."""
    said: dict[str, Any] = {"type": "refused", "reason": refusal.text(language)}
    if refusal.key == SIGN_IN_TO_WATCH:
        said["sign_in"] = True
    return said


def _json(data: Any) -> dict[str, Any] | None:
    try:
        value = orjson.loads(data)
    except (orjson.JSONDecodeError, TypeError):
        return None
    return value if isinstance(value, dict) else None
