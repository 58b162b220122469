"""The web table's HTTP server, in the bot's process: the client, sign-in, and `/ws`.

Off unless APOPHIS_WEB_PORT is set. It serves the built client (bot/web/client/dist),
the bot's font for the table's text, Discord sign-in (the Activity's code exchange at
`/api/token`, a browser's redirect at `/auth/login` and `/auth/callback`), and one
WebSocket per client (bot.web.sockets). Requests that change something, and sockets,
are taken only from the table's own origins: the public URL, and the Activity's
`https://<client id>.discordsays.com`.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from pathlib import Path
from typing import TYPE_CHECKING

import orjson
import yarl
from aiohttp import web

from bot.web.feed import Feed
from bot.web.oauth import OAuth, SignInFailed
from bot.web.sessions import Expired, Sessions
from bot.web.sockets import Sockets

if TYPE_CHECKING:
    from bot.config import Config
    from bot.game.access import Gatekeeper
    from bot.game.changes import TableChange
    from bot.game.service import GameService

log = logging.getLogger(__name__)

CLIENT = Path(__file__).parent / "client" / "dist"
FONT = Path(__file__).parent.parent / "pictures" / "fonts" / "DejaVuSansCondensed.ttf"
#: Where Discord's proxy takes an Activity's requests for its server.
PROXY = "/.proxy"
COOKIE, STATE_COOKIE = "apophis_session", "apophis_signin"
#: The close code a socket gets as the bot stops: "service restart" (the client reconnects).
RESTARTING = 1012
#: How long a browser has to come back from Discord's authorization page.
SIGN_IN_SECONDS = 600
NOT_BUILT = (
    "The web table's client is not built: `make run` builds it "
    "(cd bot/web/client && npm ci && npm run build)."
)


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
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    def app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024)
        routes = [
            ("GET", "/", self.index),
            ("GET", "/fonts/DejaVuSansCondensed.ttf", self.font),
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
        return app

    def heard(self, change: TableChange) -> None:
        """A change on the service's stream, for the clients watching its table."""
        self.feed.heard(change)

    async def start(self, service: GameService, gatekeeper: Gatekeeper) -> None:
        """Serve on the configured host and port (0: any free port, then `self.port`) for
        `service`'s games; `gatekeeper` says who may act where."""
        host, port = self.config.web_host, self.config.web_port
        self.sockets = Sockets(service, self.feed, self.sessions, gatekeeper)
        service.registry.watchers.append(self.feed.changed)
        self._runner = web.AppRunner(self.app(), access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.port = self._runner.addresses[0][1]  # the one bound, for port 0
        log.info("the web table is at %s (listening on %s:%s)", self.public_url, host, self.port)

    async def stop(self) -> None:
        """Close every socket (clients reconnect to the next process) and stop serving."""
        clients = [c for watching in self.feed.viewers.values() for c in watching]
        await asyncio.gather(
            *(c.ws.close(code=RESTARTING, message=b"the bot restarts") for c in clients),
            return_exceptions=True,
        )
        if self._runner is not None:
            await self._runner.cleanup()
        await self.oauth.close()

    # ------------------------------------------------------------------ pages

    async def index(self, request: web.Request) -> web.StreamResponse:
        page = CLIENT / "index.html"
        if not page.is_file():
            return web.Response(status=503, text=NOT_BUILT)
        settings = {"clientId": self.config.client_id, "activity": self.config.activity}
        script = (
            '<script id="apophis-config" type="application/json">'
            + orjson.dumps(settings).decode().replace("<", "\\u003c")
            + "</script>"
        )
        html = page.read_text(encoding="utf-8").replace("</head>", script + "</head>", 1)
        return web.Response(text=html, content_type="text/html", headers=_NO_STORE)

    async def font(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(FONT, headers={"Cache-Control": "public, max-age=86400"})

    # ---------------------------------------------------------------- sign-in

    async def token(self, request: web.Request) -> web.StreamResponse:
        """The Activity's sign-in: the code the SDK's `authorize` gave, for a session."""
        self._check_origin(request)
        try:
            body = await request.json(loads=orjson.loads)
        except ValueError:
            body = None
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
        """A browser's session, from its cookie."""
        token = request.cookies.get(COOKIE)
        try:
            user = self.sessions.read(token) if token else None
        except Expired:
            user = None
        if user is None:
            return _error(401, "not signed in")
        body = {"session": token, "user": user.public()}
        return web.json_response(body, dumps=_dumps, headers=_NO_STORE)

    async def login(self, request: web.Request) -> web.StreamResponse:
        """A browser's "Sign in with Discord": to Discord's authorization page."""
        channel = request.query.get("channel", "")
        if not self.oauth.ready:
            return _error(503, "sign-in is not set up on this bot")
        state = secrets.token_urlsafe(24)
        response = web.HTTPFound(self.oauth.authorize_url(self._redirect_uri, state))
        value = f"{state}:{channel if channel.isdigit() else ''}"
        response.set_cookie(STATE_COOKIE, value, max_age=SIGN_IN_SECONDS, **self._cookie)
        raise response

    async def callback(self, request: web.Request) -> web.StreamResponse:
        """Back from Discord with a code: a session cookie, then the table."""
        state, _, channel = request.cookies.get(STATE_COOKIE, "").partition(":")
        code = request.query.get("code", "")
        if not state or not secrets.compare_digest(state, request.query.get("state", "")):
            return _error(400, "this sign-in was not started here: try again")
        if not code:
            return _error(400, "Discord did not sign you in")
        try:
            _, user = await self.oauth.sign_in(code, self._redirect_uri)
        except SignInFailed as exc:
            return _error(401, str(exc))
        log.info("user %s signed in to the web table (browser)", user.id)
        response = web.HTTPFound(f"/?channel={channel}" if channel else "/")
        response.del_cookie(STATE_COOKIE)
        max_age = self.sessions.lifetime
        response.set_cookie(COOKIE, self.sessions.open(user), max_age=max_age, **self._cookie)
        raise response

    async def logout(self, request: web.Request) -> web.StreamResponse:
        self._check_origin(request)
        response = web.json_response({"ok": True})
        response.del_cookie(COOKIE)
        return response

    @property
    def _redirect_uri(self) -> str:
        return f"{self.public_url}/auth/callback"

    @property
    def _cookie(self) -> dict:
        secure = self.public_url.startswith("https://")
        return {"httponly": True, "samesite": "Lax", "secure": secure, "path": "/"}

    # ----------------------------------------------------------------- socket

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        self._check_origin(request)
        # No per-message compression: states are a few KB, and a deflate context costs
        # ~200 KB of memory a socket and a fifth more CPU an action (benchmarks/web_clients).
        ws = web.WebSocketResponse(heartbeat=20.0, max_msg_size=4096, compress=False)
        await ws.prepare(request)
        assert self.sockets is not None
        await self.sockets.serve(ws)
        return ws

    def _check_origin(self, request: web.Request) -> None:
        origin = request.headers.get("Origin")
        if origin not in self.origins:
            log.info("refused a request from origin %r to %s", origin, request.path)
            raise web.HTTPForbidden(text="this origin may not use the table")


_NO_STORE = {"Cache-Control": "no-store"}


def _dumps(value: object) -> str:
    return orjson.dumps(value).decode()


def _error(status: int, reason: str) -> web.Response:
    return web.json_response({"error": reason}, status=status, dumps=_dumps, headers=_NO_STORE)
