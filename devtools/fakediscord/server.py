"""The fake Discord server: its parts put together, started and stopped, and the test-facing
API that names what each part does.

Each job is a part of its own: building the world (`builder`), what people do (`players`
for interactions, `people` and `threads` otherwise), Activities (`activities`), reading
what the bot did (`reading`), the REST API's front door (`front`) before its handlers
(`rest`), faults on demand (`faults`), the gateway (`gateway`), OAuth2 (`oauth`), time
(`timing`) and rule breaches (`violations`). `FakeDiscord` holds one of each and offers
their methods under its own names (``fake.invoke`` is ``fake.players.invoke``).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import web

from .activities import Activities
from .builder import Builder
from .commands import InvalidInvocation
from .faults import Faults
from .front import API_PREFIX, Front, RequestRecord
from .gateway import Gateway
from .oauth import OAuth2
from .people import People
from .players import Players
from .reading import Reader
from .rest import RestApi
from .routes import ROUTES
from .schema import DEFAULT_OPENAPI_PATH, RequestValidator
from .state import ChangeNotifier, Violation, World
from .threads import ThreadControls
from .timing import Timing
from .violations import ErrorLogRecorder, Violations

GATEWAY_PATH = "/gateway"

Part = TypeVar("Part")
Params = ParamSpec("Params")
Result = TypeVar("Result")


class _Forward(Generic[Part, Params, Result]):
    """A method of `FakeDiscord` that one of its parts serves: ``fake.invoke`` is
    ``fake.players.invoke`` (same signature, same docstring)."""

    def __init__(self, part: str, method: Callable[Concatenate[Part, Params], Result]) -> None:
        self._part, self._name = part, method.__name__
        self.__doc__ = method.__doc__

    @overload
    def __get__(self, fake: None, owner: type) -> _Forward[Part, Params, Result]: ...

    @overload
    def __get__(self, fake: object, owner: type | None = None) -> Callable[Params, Result]: ...

    def __get__(
        self, fake: object, owner: type | None = None
    ) -> _Forward[Part, Params, Result] | Callable[Params, Result]:
        if fake is None:  # read on the class (help(), a test double): the forward itself
            return self
        method: Callable[Params, Result] = getattr(getattr(fake, self._part), self._name)
        return method


class FakeDiscord:
    """A fake Discord (REST + gateway) on 127.0.0.1 for the real discord.py client.

    Build the world (guilds, channels, members) before the bot connects, then
    drive the bot like players would (:meth:`invoke`, :meth:`click`,
    :meth:`select`) and read what it did (:meth:`messages`, :meth:`dms`, the
    returned :class:`~.state.Interaction` records). Breaches of Discord's rules
    are collected in :attr:`violations`; :meth:`assert_no_violations` fails on them.
    """

    def __init__(
        self,
        *,
        openapi_path: Path = DEFAULT_OPENAPI_PATH,
        clock: Callable[[], float] = time.monotonic,
        interaction_deadline: float = 3.0,
        token_lifetime: float = 15 * 60.0,
        keep_history: bool = True,
        upload_limit: int = 1024**2,
    ) -> None:
        """Configure the fake; ``clock`` is its notion of time in seconds (see :meth:`now`).

        ``keep_history``: whether an edited message keeps its earlier versions
        (``Message.history``; the load benchmark turns it off, tests read it).
        ``upload_limit``: the largest request body served, in bytes (aiohttp's default).
        """
        self.notifier = ChangeNotifier()
        self.world = World(self.notifier)
        self.validator = RequestValidator.load(openapi_path)
        self.timing = Timing(
            clock, interaction_deadline=interaction_deadline, token_lifetime=token_lifetime
        )
        #: The token the bot must log in with.
        self.bot_token = "fake." + secrets.token_urlsafe(24)
        #: The application's OAuth2: client id and secret, codes, the browser's user.
        self.oauth = OAuth2(self.world, self.timing.now)
        #: The rule breaches the fake saw (:attr:`violations`: those not yet claimed).
        self.breaches = Violations(self.notifier)
        #: The gateway, with its identify/resume/reconnect counters.
        self.gateway = Gateway(
            self.world, self.bot_token, lambda: self.gateway_url, violation=self.breaches.record
        )
        self.faults = Faults()
        self.front = Front(
            bot_token=self.bot_token,
            oauth=self.oauth,
            validator=self.validator,
            faults=self.faults,
            violations=self.breaches,
            now=self.timing.now,
            notifier=self.notifier,
        )
        self.builder = Builder(self.world)
        self.activities = Activities(self.world)
        self.threads = ThreadControls(self.world, self.gateway)
        self.people = People(self.world, self.gateway, self.threads, url=lambda: self.url)
        self.players = Players(
            self.world, self.gateway, self.activities, now=self.timing.now, url=lambda: self.url
        )
        self.reader = Reader(self.world)
        #: The REST routes' handlers (benchmarks wrap some to watch the bot).
        self.rest = self._rest_api(keep_history)
        self._upload_limit = upload_limit
        self._log_recorder = ErrorLogRecorder(self.breaches)
        self._runner: web.AppRunner | None = None
        self._port: int | None = None

    def _rest_api(self, keep_history: bool) -> RestApi:
        return RestApi(
            self.world,
            gateway=self.gateway,
            oauth=self.oauth,
            violations=self.breaches,
            timing=self.timing,
            activities=self.activities,
            threads=self.threads,
            url=lambda: self.url,
            gateway_url=lambda: self.gateway_url,
            keep_history=keep_history,
        )

    # -- lifecycle ------------------------------------------------------------------------

    async def start(self) -> FakeDiscord:
        """Listen on 127.0.0.1 at a free port and start recording discord.py errors."""
        app = web.Application(
            middlewares=[self.front.middleware], client_max_size=self._upload_limit
        )
        app.router.add_get(GATEWAY_PATH, self.gateway.handle)
        app.router.add_routes(self.oauth.routes(API_PREFIX))
        for route in ROUTES:
            app.router.add_route(
                route.method, API_PREFIX + route.template, self.rest.handler(route)
            )
        # Stopping waits at most a second for requests in flight (aiohttp's default: 60 s).
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = self._runner.addresses[0][1]
        self._log_recorder.attach()
        return self

    async def stop(self) -> None:
        """Close connections, stop listening, stop recording discord.py errors."""
        self._log_recorder.detach()
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    # -- pointing discord.py at the fake --------------------------------------------------

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        if self._port is None:
            raise RuntimeError("the fake Discord is not started")
        return f"http://127.0.0.1:{self._port}"

    @property
    def api_base_url(self) -> str:
        """The value for DISCORD_API_BASE_URL (``discord.http.Route.BASE``)."""
        return self.url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """The value for DISCORD_GATEWAY_URL (``DiscordWebSocket.DEFAULT_GATEWAY``)."""
        return "ws" + self.url.removeprefix("http") + GATEWAY_PATH

    @contextlib.contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Point discord.py (this process) at the fake; restore the old targets after."""
        route_base = discord.http.Route.BASE
        gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base_url
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            discord.http.Route.BASE = route_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway

    @contextlib.asynccontextmanager
    async def connected(
        self, client: discord.Client, *, timeout: float = 5.0
    ) -> AsyncIterator[None]:
        """Log ``client`` in, connect it and wait for on_ready; close it on exit.

        Give the client a small ``guild_ready_timeout`` (e.g. 0.05): discord.py
        waits that long after the last GUILD_CREATE before it is ready.
        """
        with self.patch_discord():
            runner: asyncio.Task[None] | None = None
            try:
                await client.login(self.bot_token)
                runner = asyncio.create_task(client.connect())
                ready = asyncio.create_task(client.wait_until_ready())
                await asyncio.wait({runner, ready}, timeout=timeout, return_when="FIRST_COMPLETED")
                ready.cancel()
                if runner.done():
                    runner.result()
                    raise RuntimeError("the client stopped before it was ready")
                if not ready.done() or ready.cancelled():
                    raise TimeoutError(f"the client was not ready after {timeout} s")
                yield
            finally:
                await client.close()
                if runner is not None:
                    await runner

    # -- waiting for what the fake sees ---------------------------------------------------

    async def wait_for(
        self, predicate: Callable[[], Any], *, timeout: float = 5.0, description: str = ""
    ) -> Any:
        """Wait until ``predicate()`` is truthy and return its value.

        The predicate is checked again whenever the fake records something (a
        request, an interaction, a response, a gateway session change), so it
        should depend on what the fake sees, not on the bot's private state.
        """
        return await self.notifier.wait(predicate, timeout=timeout, description=description)

    async def force_reconnect(self, *, timeout: float = 5.0) -> None:
        """Send op 7 RECONNECT and wait until the client has resumed (or re-identified)."""
        gateway = self.gateway
        before = gateway.resume_count + gateway.identify_count
        await gateway.request_reconnect()
        await self.wait_for(
            lambda: gateway.resume_count + gateway.identify_count > before,
            timeout=timeout,
            description="the client to come back after RECONNECT",
        )

    # -- time and its limits --------------------------------------------------------------

    now = _Forward("timing", Timing.now)
    advance_time = _Forward("timing", Timing.advance)

    @property
    def interaction_deadline(self) -> float:
        """Seconds the bot has for the first response to an interaction (Discord: 3)."""
        return self.timing.interaction_deadline

    @interaction_deadline.setter
    def interaction_deadline(self, seconds: float) -> None:
        self.timing.interaction_deadline = seconds

    @property
    def token_lifetime(self) -> float:
        """Seconds an interaction token works for follow-ups and edits (Discord: 15 min)."""
        return self.timing.token_lifetime

    @token_lifetime.setter
    def token_lifetime(self, seconds: float) -> None:
        self.timing.token_lifetime = seconds

    # -- building the world ----------------------------------------------------------------

    add_guild = _Forward("builder", Builder.add_guild)
    add_role = _Forward("builder", Builder.add_role)
    add_text_channel = _Forward("builder", Builder.add_text_channel)
    add_group_dm = _Forward("builder", Builder.add_group_dm)
    add_user = _Forward("builder", Builder.add_user)
    add_member = _Forward("builder", Builder.add_member)
    install_commands = _Forward("builder", Builder.install_commands)
    install_for_user = _Forward("builder", Builder.install_for_user)
    enable_activities = _Forward("builder", Builder.enable_activities)
    set_dms_open = _Forward("builder", Builder.set_dms_open)

    # -- what people do ----------------------------------------------------------------------

    invoke = _Forward("players", Players.invoke)
    invoke_entry_point = _Forward("players", Players.invoke_entry_point)
    click = _Forward("players", Players.click)
    select = _Forward("players", Players.select)
    set_permissions = _Forward("people", People.set_permissions)
    delete_channel = _Forward("people", People.delete_channel)
    say = _Forward("people", People.say)
    dismiss = _Forward("people", People.dismiss)
    expire_token = _Forward("people", People.expire_token)
    start_thread = _Forward("threads", ThreadControls.start_thread)
    thread_of = _Forward("threads", ThreadControls.thread_of)
    set_thread = _Forward("threads", ThreadControls.set_thread)
    launch_activity = _Forward("activities", Activities.launch_activity)
    open_activity = _Forward("activities", Activities.open_activity)
    join_instance = _Forward("activities", Activities.join_instance)
    leave_instance = _Forward("activities", Activities.leave_instance)
    instance_in = _Forward("activities", Activities.instance_in)
    activity_instance = _Forward("activities", Activities.activity_instance)
    announce = _Forward("gateway", Gateway.announce)
    announce_soon = _Forward("gateway", Gateway.announce_soon)

    # -- reading what the bot did ------------------------------------------------------------

    messages = _Forward("reader", Reader.messages)
    dms = _Forward("reader", Reader.dms)
    notified = _Forward("reader", Reader.notified)
    followups_of = _Forward("reader", Reader.followups_of)
    synced_commands = _Forward("reader", Reader.synced_commands)

    @property
    def requests(self) -> list[RequestRecord]:
        """Every REST request the bot made, in order."""
        return self.front.requests

    @property
    def global_requests(self) -> int:
        """How many requests counted against Discord's global limit (50/s per bot)."""
        return self.front.global_requests

    requests_to = _Forward("front", Front.requests_to)

    # -- Discord's behaviours on demand ------------------------------------------------------

    rate_limit_next = _Forward("faults", Faults.rate_limit_next)
    stall_next = _Forward("faults", Faults.stall_next)
    fail_next = _Forward("faults", Faults.fail_next)

    # -- violations ----------------------------------------------------------------------------

    @property
    def violations(self) -> list[Violation]:
        """Recorded rule breaches not yet claimed by :meth:`expect_violation`."""
        return self.breaches.found

    record_violation = _Forward("breaches", Violations.record)
    expect_violation = _Forward("breaches", Violations.expect)
    assert_no_violations = _Forward("breaches", Violations.assert_none)


__all__ = ["FakeDiscord", "InvalidInvocation", "RequestRecord"]
