"""The REST API's front door: each request matched to its route, put through the faults a
test injected, authorized, its body read and checked against Discord's OpenAPI
description, handed to its handler, and recorded.

A handler's `DiscordError` becomes Discord's JSON error; any other exception is a bug in
the fake, recorded as a violation with its traceback and answered 400 (a 500 would be
retried by discord.py for seconds).
"""

from __future__ import annotations

import json
import re
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import orjson
from aiohttp import BodyPartReader, hdrs, web

from .faults import Faults
from .oauth import TOKEN_PATH, OAuth2
from .routes import ROUTES_BY_KEY, Route
from .schema import RequestValidator
from .state import ChangeNotifier, ViolationKind
from .violations import Violations
from .wire import BODY, FILES, DiscordError, Uploads, json_response

API_PREFIX = "/api/v10"

_FILE_FIELD = re.compile(r"files\[(\d+)\]")
_API_TOKEN_PATH = API_PREFIX + TOKEN_PATH

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class RequestRecord:
    """One request the bot made: when (fake time), to which route, with what outcome."""

    method: str
    route: str
    path: str
    at: float
    status: int
    counts_global: bool
    #: Files uploaded with it (multipart ``files[n]``).
    uploads: int = 0


class Front:
    """The middleware every API request goes through, and the record of those requests."""

    def __init__(
        self,
        *,
        bot_token: str,
        oauth: OAuth2,
        validator: RequestValidator,
        faults: Faults,
        violations: Violations,
        now: Callable[[], float],
        notifier: ChangeNotifier,
    ) -> None:
        self._bot_token = bot_token
        self._oauth = oauth
        self._validator = validator
        self._faults = faults
        self._violations = violations
        self._now = now
        self._notifier = notifier
        #: Every REST request the bot made, in order.
        self.requests: list[RequestRecord] = []

    @property
    def global_requests(self) -> int:
        """How many requests counted against Discord's global limit (50/s per bot)."""
        return sum(record.counts_global for record in self.requests)

    def requests_to(self, pattern: str) -> list[RequestRecord]:
        """The requests to a route, named as in `devtools.fakediscord.faults`."""
        return [r for r in self.requests if pattern in (r.route, r.route.partition(" ")[2])]

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """The aiohttp middleware: API requests answered as above, the rest passed on."""
        # The token exchange is form-encoded and outside the OpenAPI description.
        if not request.path.startswith(API_PREFIX + "/") or request.path == _API_TOKEN_PATH:
            return await handler(request)
        route = _route_of(request)
        if route is None:
            self._violations.record(
                ViolationKind.UNIMPLEMENTED_ROUTE, "the fake does not implement this route", request
            )
            return json_response({"code": 0, "message": "404: Not Found"}, status=404)
        response = await self._answer(request, route, handler)
        self.requests.append(
            RequestRecord(
                request.method,
                route.key,
                request.path,
                self._now(),
                response.status,
                route.counts_global and not _is_bearer(request),
                len(request.get(FILES) or {}),
            )
        )
        self._notifier.bump()
        return response

    def _authorized(self, request: web.Request, route: Route) -> bool:
        """The bot's token, or a live OAuth2 access token on a route that takes one."""
        if request.headers.get(hdrs.AUTHORIZATION) == f"Bot {self._bot_token}":
            return True
        return route.bearer and self._oauth.bearer_user(request) is not None

    async def _answer(
        self, request: web.Request, route: Route, handler: Handler
    ) -> web.StreamResponse:
        fault = await self._faults.answer(route, request.path.removeprefix(API_PREFIX))
        if fault is not None:
            return fault
        if route.counts_global and not self._authorized(request, route):
            return json_response({"code": 0, "message": "401: Unauthorized"}, status=401)
        try:
            request[BODY], request[FILES] = await _read_body(request)
        except ValueError as error:
            self._violations.record(ViolationKind.SCHEMA, f"unreadable body: {error}", request)
            return json_response(
                {"code": 50109, "message": "The request body contains invalid JSON."}, status=400
            )
        if request[BODY] is not None:
            problem = self._validator.validate(request.method, route.template, request[BODY])
            if problem is not None:
                self._violations.record(ViolationKind.SCHEMA, str(problem), request)
                body = {
                    "code": 50035,
                    "message": "Invalid Form Body",
                    "errors": problem.discord_errors(),
                }
                return json_response(body, status=400)
        try:
            return await handler(request)
        except DiscordError as error:
            return error.response()
        except Exception:
            # A bug in the fake: fail the test with the traceback, and answer 400
            # rather than 500, which discord.py would retry for seconds.
            self._violations.record(ViolationKind.FAKE_ERROR, traceback.format_exc(), request)
            return json_response({"code": 0, "message": "fake Discord error"}, status=400)


def _route_of(request: web.Request) -> Route | None:
    if request.match_info.http_exception is not None:
        return None
    resource = request.match_info.route.resource
    if resource is None:
        return None
    template = resource.canonical.removeprefix(API_PREFIX)
    return ROUTES_BY_KEY[f"{request.method} {template}"]


def _is_bearer(request: web.Request) -> bool:
    """Whether a user's OAuth2 token made the request (it does not count against the bot's
    global limit)."""
    return request.headers.get(hdrs.AUTHORIZATION, "").startswith("Bearer ")


async def _read_body(request: web.Request) -> tuple[Any, Uploads]:
    """The JSON body (or multipart ``payload_json``) and the uploads by ``files[n]`` index."""
    if request.content_type != "multipart/form-data":
        raw = await request.read()
        return (orjson.loads(raw) if raw else None), {}
    body: Any = None
    files: Uploads = {}
    reader = await request.multipart()
    while (part := await reader.next()) is not None:
        if not isinstance(part, BodyPartReader):  # a nested multipart: Discord takes none
            raise ValueError("a multipart part holds another multipart body")
        if part.name == "payload_json":
            body = json.loads(await part.text())
        elif (match := _FILE_FIELD.fullmatch(part.name or "")) is not None:
            content = bytes(await part.read())
            files[int(match[1])] = (
                part.filename or "",
                part.headers.get(hdrs.CONTENT_TYPE),
                content,
            )
    return body, files
