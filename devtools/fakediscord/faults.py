"""Discord's bad moments on demand: a 429 for the next request to a route, an outage, or a
request held as a slow network would deliver it.

Routes are named as in `devtools.fakediscord.routes`: a route's OpenAPI template,
optionally after its method (``"POST /channels/{channel_id}/messages"``).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from aiohttp import web

from .routes import ROUTES, Route
from .wire import json_response


@dataclass
class _RateLimit:
    """A 429 waiting for the next request that matches ``pattern``."""

    pattern: str
    retry_after: float
    is_global: bool
    via: bool = True
    #: The request's path (below the API prefix) it waits for; None: any of the route's.
    path: str | None = None

    def matches(self, route: Route, path: str | None = None) -> bool:
        on_path = self.path is None or path is None or path == self.path
        return self.pattern in (route.key, route.template) and on_path


class Stall:
    """The next request matching ``pattern``, held as a slow network would deliver it:
    ``reached`` is set when it arrives, and it is handled once ``release()`` is called."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.reached = asyncio.Event()
        self._released = asyncio.Event()

    def matches(self, route: Route) -> bool:
        return self.pattern in (route.key, route.template)

    def release(self) -> None:
        self._released.set()

    async def hold(self) -> None:
        self.reached.set()
        await self._released.wait()


@dataclass
class _Failure:
    """An error answer waiting for the next ``times`` requests that match ``pattern``."""

    pattern: str
    status: int
    code: int
    times: int

    def matches(self, route: Route) -> bool:
        return self.pattern in (route.key, route.template)


class Faults:
    """The faults waiting for requests, each used by the first request it matches."""

    def __init__(self) -> None:
        self._rate_limits: list[_RateLimit] = []
        self._failures: list[_Failure] = []
        self._stalls: list[Stall] = []

    def rate_limit_next(
        self,
        pattern: str,
        *,
        retry_after: float = 0.05,
        is_global: bool = False,
        via: bool = True,
        path: str | None = None,
    ) -> None:
        """Answer the next request to a route with 429 (``retry_after`` s, ``Via`` header);
        with ``path`` (``"/channels/123/messages"``), the next to that path only.

        ``pattern`` is a route's OpenAPI template, optionally after its method:
        ``"POST /channels/{channel_id}/messages"``. ``via=False`` answers as a REST
        proxy does when it limits the bot itself (nirn-proxy, for one): without the
        ``Via`` header that Discord's own 429s carry, which discord.py does not retry.
        """
        limit = _RateLimit(pattern, retry_after, is_global, via, path)
        _check_names_a_route(pattern, limit.matches)
        self._rate_limits.append(limit)

    def stall_next(self, pattern: str) -> Stall:
        """Hold the next request to a route until the returned stall is released (a request
        that reaches Discord after others sent later); ``pattern`` as in
        :meth:`rate_limit_next`."""
        stall = Stall(pattern)
        _check_names_a_route(pattern, stall.matches)
        self._stalls.append(stall)
        return stall

    def fail_next(self, pattern: str, *, status: int = 500, code: int = 0, times: int = 1) -> None:
        """Answer the next ``times`` requests to a route with an error (an outage: 500, or
        any status and JSON code); ``pattern`` as in :meth:`rate_limit_next`."""
        failure = _Failure(pattern, status, code, times)
        _check_names_a_route(pattern, failure.matches)
        self._failures.append(failure)

    async def answer(self, route: Route, path: str) -> web.Response | None:
        """The fault's answer to a request (to `path`, below the API prefix), if one waits
        for it; a stalled request is held first, then answered as usual (None)."""
        stall = next((stall for stall in self._stalls if stall.matches(route)), None)
        if stall is not None:
            self._stalls.remove(stall)
            await stall.hold()
        limit = next((lim for lim in self._rate_limits if lim.matches(route, path)), None)
        if limit is not None:
            self._rate_limits.remove(limit)
            return _rate_limited(route, limit)
        failure = next((f for f in self._failures if f.matches(route)), None)
        if failure is not None:
            failure.times -= 1
            if failure.times <= 0:
                self._failures.remove(failure)
            body = {"code": failure.code, "message": f"{failure.status}: injected failure"}
            return json_response(body, status=failure.status)
        return None


def _check_names_a_route(pattern: str, matches: Callable[[Route], bool]) -> None:
    if not any(matches(route) for route in ROUTES):
        raise ValueError(f"{pattern!r} names no route the fake implements")


def _rate_limited(route: Route, limit: _RateLimit) -> web.Response:
    """A 429 as Discord sends it: body with retry_after, Via and X-RateLimit-* headers."""
    headers = {
        "Retry-After": str(math.ceil(limit.retry_after)),
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{time.time() + limit.retry_after:.3f}",
        "X-RateLimit-Reset-After": f"{limit.retry_after:.3f}",
        "X-RateLimit-Bucket": f"fake-{abs(hash(route.key)):x}",
        "X-RateLimit-Scope": "global" if limit.is_global else "user",
    }
    if limit.via:
        headers["Via"] = "1.1 google"
    if limit.is_global:
        headers["X-RateLimit-Global"] = "true"
    body = {
        "message": "You are being rate limited.",
        "retry_after": limit.retry_after,
        "global": limit.is_global,
    }
    return json_response(body, status=429, headers=headers)
