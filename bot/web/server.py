"""The web table's HTTP server, in the bot's process: the client, sign-in, and `/ws`.

Off unless APOPHIS_WEB_PORT is set. It serves the built client (bot/web/client/dist,
its font among its assets), Discord sign-in (the Activity's code exchange at
`/api/token`, a browser's redirect at `/auth/login` and `/auth/callback`), and one
WebSocket per client (bot.web.sockets). Requests that change something, and sockets,
are taken only from the table's own origins: the public URL, and the Activity's
`https://<client id>.discordsays.com`. Connections are counted and timed
(bot.web.limits); every answer carries the security headers (HEADERS: a Content-Security-
Policy whose frame-ancestors are the table and Discord's Activity origins, nosniff, no
referrer) and names no server version. A browser's session lives in an HttpOnly cookie
that script never reads: its socket is signed in by the cookie its upgrade request
carries. Logging out ends the session on the server, and closes its sockets. When bot.app
gives it the bot's metrics (`metrics`), it serves `/metrics`, `/healthz` and `/readyz` too,
to this machine only (bot.serve_metrics).

It is a door of the game core (bot.game.doors): it hears the core's changes, every table
followed included, for the clients watching them (bot.web.feed), and runs their commands
through the core's service (bot.web.sockets).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypedDict, cast

import orjson
import yarl
from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from bot.config import cannot_listen
from bot.i18n.catalogs import language_of
from bot.store.records import StoreBusy
from bot.views import web_state
from bot.web import limits
from bot.web.feed import Feed
from bot.web.oauth import OAuth, SignInFailed
from bot.web.sessions import Expired, Sessions, User
from bot.web.sockets import Client, Sockets

if TYPE_CHECKING:
    from bot.config import Config
    from bot.game.changes import TableChange
    from bot.game.core import GameCore

log = logging.getLogger(__name__)

CLIENT = Path(__file__).parent / "client" / "dist"
#: The tests' build of the client (`vite build --mode test`): the Embedded App SDK's mock
#: answers `?sdk=mock&code=...` there only. Tests serve it in place of CLIENT.
TEST_CLIENT = CLIENT / "test"
#: Where Discord's proxy takes an Activity's requests for its server.
PROXY = "/.proxy"
COOKIE, STATE_COOKIE = "apophis_session", "apophis_signin"
#: The close code a socket gets as the bot stops: "service restart" (the client reconnects).
RESTARTING = 1012
#: How long a browser has to come back from Discord's authorization page.
SIGN_IN_SECONDS = 600
#: With several processes, how often each asks the database for logouts made on the others
#: (their sockets close then), and how far back it looks (other machines' clocks).
LOGOUT_POLL_SECONDS = 2.0
CLOCK_MARGIN_SECONDS = 5.0
#: A channel's id in a query or a cookie: ASCII digits only ("²".isdigit() is True).
CHANNEL = re.compile(r"[0-9]{1,20}", re.ASCII)
#: Where the page may be framed: the table itself, the Activity's iframe (at
#: https://<client id>.discordsays.com) and every Discord client the Embedded App SDK talks
#: to (discord.com and discordapp.com, their ptb. and canary. hosts, Discord's staging); not
#: the SDK's local development origin, which any page on that machine could take.
FRAME_ANCESTORS = (
    "'self' https://discord.com https://*.discord.com https://discordapp.com "
    "https://*.discordapp.com https://staging.discord.co https://*.discordsays.com"
)
#: On every answer. The client is scripts and styles from the table's own origin (its
#: config is a JSON data block, not a script), its socket and calls to the same origin;
#: the players' pictures come from Discord's CDN.
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; "
        "img-src 'self' data: https://cdn.discordapp.com; font-src 'self'; connect-src 'self'; "
        "object-src 'none'; base-uri 'none'; "
        f"form-action 'self'; frame-ancestors {FRAME_ANCESTORS}"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Server": "apophis",  # not aiohttp's own, which names its version and Python's
}
NOT_BUILT = (
    "The web table's client is not built: `make run` builds it "
    "(cd bot/web/client && npm ci && npm run build)."
)


class HostRoutes(Protocol):
    """Routes for the host, served on this server to this machine only (bot.serve_metrics)."""

    def routes(self) -> list[tuple[str, str, Callable[[web.Request], Awaitable[web.Response]]]]: ...


class _CookieOptions(TypedDict):
    """How the session's cookie is set: never read by scripts, sent on top-level
    navigations, only over HTTPS where the table is served by it."""

    httponly: bool
    samesite: str
    secure: bool
    path: str


class WebTable:
    """The web server: its routes, and its part of the service's notifier (`feed`)."""

    def __init__(self, config: Config, feed: Feed | None = None) -> None:
        self.config = config
        self.feed = feed or Feed()
        self.sessions = Sessions(config.client_secret)
        self.oauth = OAuth(config.client_id, config.client_secret, config.api_base_url)
        self.public_url = (config.public_url or f"http://localhost:{config.web_port}").rstrip("/")
        self.origins = {str(yarl.URL(self.public_url).origin())}
        if config.client_id:
            self.origins.add(f"https://{config.client_id}.discordsays.com")
        self.sockets: Sockets | None = None
        self._follower: asyncio.Task[None] | None = None
        self._runner: web.AppRunner | None = None
        self._server: asyncio.Server | None = None
        #: Every connection, counted and timed (bot.web.limits).
        self.doors: limits.Doors | None = None
        self.port: int | None = None
        #: The bot's metrics and health, served here when bot.app says so.
        self.metrics: HostRoutes | None = None

    def app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024, middlewares=[limits.arrivals])
        app.on_response_prepare.append(_secured)
        routes = [
            ("GET", "/", self.index),
            ("POST", "/api/token", self.token),
            ("GET", "/api/session", self.session),
            ("GET", "/auth/login", self.login),
            ("GET", "/auth/callback", self.callback),
            ("POST", "/auth/logout", self.logout),
            ("GET", "/ws", self.websocket),
        ]
        # Inside Discord the client calls through Discord's proxy, at /.proxy/...: the proxy
        # strips the prefix, and a page tested with the SDK mocked calls it here directly.
        for prefix in ("", PROXY):
            for method, path, handler in routes:
                app.router.add_route(method, prefix + path, handler)
            if (CLIENT / "assets").is_dir():
                app.router.add_static(prefix + "/assets", CLIENT / "assets")
        if self.metrics is not None:  # not through Discord's proxy: this machine only
            for method, path, route in self.metrics.routes():
                app.router.add_route(method, path, route)
        return app

    def heard(self, change: TableChange) -> None:
        """A change on the core's stream, for the clients watching its table."""
        self.feed.heard(change)

    async def bind(self) -> None:
        """Take the configured host and port (0: any free port, then `self.port`), before
        anything else starts; connections wait until `start`. One that cannot be had
        raises ConfigError naming the setting to change (bot.config.cannot_listen)."""
        if self._server is not None:
            return
        host, port = self.config.web_host, self.config.web_port
        assert port is not None, "bot.app serves the live table only where it has a port"
        loop = asyncio.get_running_loop()
        try:  # each connection through the doors, made by `start`
            self._server = await loop.create_server(
                lambda: self._doors(), host, port, start_serving=False
            )
        except OSError as exc:
            raise cannot_listen(exc, host, port, ("APOPHIS_WEB_HOST", "APOPHIS_WEB_PORT")) from exc
        self.port = self._server.sockets[0].getsockname()[1]  # the one bound, for port 0

    async def start(self, core: GameCore) -> None:
        """Serve on the configured host and port (bound now unless `bind` did it already)
        for the core's games; its gatekeeper says who may act where."""
        await self.bind()
        assert self._server is not None
        gatekeeper = core.gatekeeper
        assert gatekeeper is not None, "bot.app gives the core a gatekeeper where the web serves"
        self.sessions.keep_in(core.store)
        self.sockets = Sockets(core.service, self.feed, self.sessions, gatekeeper)
        if self.config.processes > 1:  # logouts made on the others close sockets here
            self._follower = asyncio.create_task(self._follow_logouts())
        self.feed.avatar_of, self.feed.live = gatekeeper.avatar, core.service.by_channel
        mirrors = core.service.mirrors
        if mirrors is not None:  # the other processes' games, as they change
            self.feed.mirrored, mirrors.changed = mirrors.by_channel, self.feed.changed
        presence = core.service.presence
        if presence is not None:  # and who watches there
            self.feed.presence, presence.changed = presence, self.feed.recount
        self._runner = web.AppRunner(self.app(), access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        assert self._runner.server is not None
        # What web.TCPSite does, each connection through the doors (counted, timed).
        connection = functools.partial(
            _Connection,
            self._runner.server,
            loop=asyncio.get_running_loop(),
            keepalive_timeout=limits.KEEPALIVE_SECONDS,
            access_log=None,  # type: ignore[arg-type]  # aiohttp: None, no access log
        )
        self.doors = limits.Doors(connection)
        await self._server.start_serving()
        log.info(
            "the web table is at %s (listening on %s:%s)",
            self.public_url,
            self.config.web_host,
            self.port,
        )

    def _doors(self) -> asyncio.Protocol:
        """A connection's protocol (asked for only once `start` serves)."""
        assert self.doors is not None, "connections are accepted only once started"
        return self.doors()

    async def _follow_logouts(self) -> None:
        """Close the sockets of sessions other processes end, within LOGOUT_POLL_SECONDS."""
        since = self.sessions.clock()
        while True:
            await asyncio.sleep(LOGOUT_POLL_SECONDS)
            asked = self.sessions.clock()
            try:  # a margin for clocks of other machines a little behind this one's
                ended = await self.sessions.ended_since(since - CLOCK_MARGIN_SECONDS)
            except StoreBusy:
                continue
            since = asked
            for signature in ended:
                if self.sockets is not None:
                    self.sockets.session_over(signature)

    async def stop(self) -> None:
        """Close every socket (clients reconnect to the next process) and stop serving."""
        if self._follower is not None:
            self._follower.cancel()
        clients = [cast(Client, c) for watching in self.feed.viewers.values() for c in watching]
        await asyncio.gather(
            *(c.ws.close(code=RESTARTING, message=b"the bot restarts") for c in clients),
            return_exceptions=True,
        )
        if self._server is not None:
            self._server.close()
        if self._runner is not None:
            await self._runner.cleanup()
        if self._server is not None:
            await self._server.wait_closed()
        await self.oauth.close()

    # ------------------------------------------------------------------ pages

    async def index(self, request: web.Request) -> web.StreamResponse:
        page = CLIENT / "index.html"
        if not page.is_file():
            return web.Response(status=503, text=NOT_BUILT)
        # The page's words before its socket says hello (a bad link never does), in the
        # language asked for (?lang=) or the browser's; a session's own comes with welcome.
        asked = request.query.get("lang") or request.headers.get("Accept-Language") or ""
        language = language_of(asked.split(",")[0].split(";")[0].strip() or None)
        settings = {
            "clientId": self.config.client_id,
            "activity": self.config.activity,
            "publicUrl": self.public_url,
            "language": language,
            "labels": web_state.labels(language),
        }
        script = (
            '<script id="apophis-config" type="application/json">'
            + orjson.dumps(settings).decode().replace("<", "\\u003c")
            + "</script>"
        )
        html = page.read_text(encoding="utf-8").replace("</head>", script + "</head>", 1)
        return web.Response(text=html, content_type="text/html", headers=_NO_STORE)

    # ---------------------------------------------------------------- sign-in

    async def token(self, request: web.Request) -> web.StreamResponse:
        """The Activity's sign-in: the code the SDK's `authorize` gave, for a session."""
        self._check_origin(request)
        try:
            async with asyncio.timeout(limits.HEADER_SECONDS):
                body = await request.json(loads=orjson.loads)
        except ValueError:
            body = None
        except TimeoutError:
            return _error(408, "the sign-in's request came too slowly")
        code = body.get("code") if isinstance(body, dict) else None
        if not isinstance(code, str) or not 0 < len(code) <= 512:
            return _error(400, "a sign-in needs the code Discord gave")
        try:
            access, user = await self.oauth.sign_in(code)
        except SignInFailed as exc:
            return _error(401, str(exc))
        session = self.sessions.open(user)
        log.info("user %s signed in to the web table (Activity)", user.id)
        return web.json_response(
            {"access_token": access, "session": session, "user": user.public()},
            dumps=_dumps,
            headers=_NO_STORE,
        )

    async def session(self, request: web.Request) -> web.StreamResponse:
        """Who a browser's session cookie signs in (never the cookie's value: script has no
        use for it, the socket's upgrade request carries it)."""
        user = await self._cookie_user(request)
        if user is None:
            return _error(401, "not signed in")
        return web.json_response({"user": user.public()}, dumps=_dumps, headers=_NO_STORE)

    async def login(self, request: web.Request) -> web.StreamResponse:
        """A browser's "Sign in with Discord": to Discord's authorization page."""
        channel = request.query.get("channel", "")
        if not self.oauth.ready:
            return _error(503, "sign-in is not set up on this bot")
        state = secrets.token_urlsafe(24)
        response = web.HTTPFound(self.oauth.authorize_url(self._redirect_uri, state))
        value = f"{state}:{channel if CHANNEL.fullmatch(channel) else ''}"
        response.set_cookie(STATE_COOKIE, value, max_age=SIGN_IN_SECONDS, **self._cookie)
        raise response

    async def callback(self, request: web.Request) -> web.StreamResponse:
        """Back from Discord with a code: a session cookie, then the table."""
        state, _, channel = request.cookies.get(STATE_COOKIE, "").partition(":")
        code = request.query.get("code", "")
        given = request.query.get("state", "")
        if not state or not secrets.compare_digest(state.encode(), given.encode()):
            return _error(400, "this sign-in was not started here: try again")
        channel = channel if CHANNEL.fullmatch(channel) else ""
        if not code:
            return _error(400, "Discord did not sign you in")
        try:
            _, user = await self.oauth.sign_in(code, self._redirect_uri)
        except SignInFailed as exc:
            return _error(401, str(exc))
        log.info("user %s signed in to the web table (browser)", user.id)
        await self._end(request.cookies.get(COOKIE))  # the browser's previous session, if any
        response = web.HTTPFound(f"/?channel={channel}" if channel else "/")
        response.del_cookie(STATE_COOKIE)
        max_age = round(self.sessions.lifetime)
        response.set_cookie(COOKIE, self.sessions.open(user), max_age=max_age, **self._cookie)
        raise response

    async def logout(self, request: web.Request) -> web.StreamResponse:
        """Ends the browser's session on the server (its cookie no longer signs anyone in,
        its sockets close with 4001), and forgets the cookie."""
        self._check_origin(request)
        user = await self._end(request.cookies.get(COOKIE))
        if user is not None:
            log.info("user %s logged out of the web table", user.id)
        response = web.json_response({"ok": True}, headers=_NO_STORE)
        response.del_cookie(COOKIE, path="/")
        return response

    async def _end(self, token: str | None) -> User | None:
        """End the session of `token` (if it is one) and close its sockets."""
        user = await self.sessions.end(token) if token else None
        if user is not None and self.sockets is not None:
            self.sockets.session_over(user.session)
        return user

    async def _cookie_user(self, request: web.Request) -> User | None:
        token = request.cookies.get(COOKIE)
        try:
            return await self.sessions.user_of(token) if token else None
        except (Expired, StoreBusy):  # over, or not known to be live: watching only
            return None

    @property
    def _redirect_uri(self) -> str:
        return f"{self.public_url}/auth/callback"

    @property
    def _cookie(self) -> _CookieOptions:
        secure = self.public_url.startswith("https://")
        return _CookieOptions(httponly=True, samesite="Lax", secure=secure, path="/")

    # ----------------------------------------------------------------- socket

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        self._check_origin(request)
        assert self.sockets is not None
        address = limits.client_address(request)
        if not self.sockets.admit(address):
            log.debug("refused a socket from %s: too many", address)
            raise web.HTTPTooManyRequests(text="too many sockets from here: try again later")
        try:
            # No per-message compression: states are a few KB, and a deflate context costs
            # ~200 KB of memory a socket and a fifth more CPU an action (benchmarks).
            ws = web.WebSocketResponse(heartbeat=20.0, max_msg_size=4096, compress=False)
            await ws.prepare(request)
            door = limits.door_of(request)
            if door is not None:
                door.upgraded()
            await self.sockets.serve(ws, request.cookies.get(COOKIE))
        finally:
            self.sockets.release(address)
        return ws

    def _check_origin(self, request: web.Request) -> None:
        origin = request.headers.get("Origin")
        if origin not in self.origins:
            log.info("refused a request from origin %r to %s", origin, request.path)
            raise web.HTTPForbidden(text="this origin may not use the table")


_NO_STORE = {"Cache-Control": "no-store"}


class _Connection(web.RequestHandler):
    """aiohttp's protocol for one connection, but for what a client can cause at will: its
    own answer to a request it could not read carries HEADERS, and such a request (too long
    a header, not HTTP) is logged at INFO, a client gone while answered at DEBUG, rather
    than as errors with a traceback (anything else still is one)."""

    __slots__ = ()

    def handle_error(
        self,
        request: web.BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        response = super().handle_error(request, status, exc, message)
        response.headers.update(HEADERS)
        return response

    def log_exception(self, *args: Any, **kwargs: Any) -> None:
        error = kwargs.get("exc_info")
        where = str(args[0]) % args[1:] if len(args) > 1 else str(args[0] if args else "")
        if isinstance(error, HttpProcessingError):
            reason = str(error.message or type(error).__name__)[:160]
            log.info("%s: refused (%s %r)", where, error.code, reason)
        elif isinstance(error, ConnectionError):
            log.debug("%s: the client went away", where)
        else:
            super().log_exception(*args, **kwargs)


async def _secured(request: web.Request, response: web.StreamResponse) -> None:
    """Every answer's security headers (HEADERS)."""
    response.headers.update(HEADERS)


def _dumps(value: object) -> str:
    return orjson.dumps(value).decode()


def _error(status: int, reason: str) -> web.Response:
    return web.json_response({"error": reason}, status=status, dumps=_dumps, headers=_NO_STORE)
