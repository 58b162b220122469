"""Requests to Discord's REST API on the bot's own connections: 429s waited out, failures
raised as discord.py raises them, each counted in the metrics by route class.

Most of what the bot sends goes through here, on bot.discord.wire's kept-alive connections:
the interaction tokens' requests (bot.discord.tokens: three or four an action) and the hand
DMs (bot.discord.dms). Through discord.py's HTTP client each cost several times the CPU
(`benchmarks/wire_bench.py`); the rest of the bot's requests, rare, still go through it.

A request is sent as one prebuilt body (JSON, or the multipart form of a picture and its
message) and its answer read only when the caller wants it, and then only once something
in it is asked (`Sent`: the board keeps its edit's answer, read only if the next board
shows the same picture). A request made as the bot
(`bucket` given) carries its authorization and keeps to the rate limit Discord announces:
when an answer says none is left in the bucket (a DM channel, for the hand DMs), the next
request there waits for the reset, as discord.py's client would. Discord's own 429 (it
carries a Via header) is waited out and the request sent again, up to `TRIES` times; a
REST proxy's is raised, for the outbox to retry (bot.discord.jobs), as discord.py's adapter
does. No rate-limit record is kept for an interaction token (discord.py keeps one per
route and token for five minutes and scans them all whenever it adds one: at hundreds of
tokens a second, a third of the bot's time).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

import discord
import orjson

from bot.discord.wire import Answer, Wire
from bot.metrics import DISCORD_429, DISCORD_REQUESTS, route_class

if TYPE_CHECKING:
    from bot.views.message import Upload

#: Tries of a request Discord answers with 429 (each after the wait it asks for).
TRIES = 5
JSON = "application/json"
#: Who is asking, in the form Discord asks for (as discord.py's own requests say it).
USER_AGENT = f"DiscordBot (https://github.com/Rapptz/discord.py {discord.__version__}) apophis-bot"
#: The route class of every request sent through an interaction's token (bot.metrics).
INTERACTION = "interaction"
#: Buckets remembered while they wait for a reset; past this many, the spent ones go.
BUCKETS = 1024


class Rest:
    """Sends requests to Discord for the bot `client` (see the module docstring)."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self.wire = Wire(lambda: discord.http.Route.BASE, USER_AGENT)
        #: bucket -> the loop time its requests may go again (none left until then).
        self._resets: dict[str, float] = {}

    async def request(
        self,
        method: str,
        path: str,
        payload: dict[str, Any] | None = None,
        upload: Upload | None = None,
        *,
        want: bool = False,
        again: bool | None = None,
        bucket: str | None = None,
    ) -> Any:
        """Send `payload` as JSON, or with `upload` as one multipart body, on `path`
        (after the API's base URL); the answer's JSON when `want`ed.

        Without `bucket`, the path carries its own credentials (an interaction's token);
        with it, the request is made as the bot and kept to that bucket's rate limit.
        `again`: whether it may be sent twice on a kept connection found closed (Wire).
        Raises discord.py's HTTPException (Forbidden, NotFound...) when Discord refuses."""
        body: bytes | None
        content_type: str | None
        if upload is not None:
            content_type, body = upload.form(payload or {})
        else:
            body = None if payload is None else orjson.dumps(payload)
            content_type = JSON if body is not None else None
        requests, too_many = _counters(INTERACTION if bucket is None else route_class(path))
        authorization = None if bucket is None else f"Bot {self.client.http.token}"
        for attempt in range(TRIES):
            if bucket is not None:
                await self._wait(bucket)
            answer = await self.wire.request(
                method, path, body, content_type, again=again, authorization=authorization
            )
            requests.inc()
            if bucket is not None:
                self._note(bucket, answer)
            if 200 <= answer.status < 300:
                return Sent(answer.body) if want else None
            data = _data(answer)
            if answer.status == 429:
                too_many.inc()
                # Discord's own 429 (with its Via header) is waited out here; a proxy's is
                # the outbox's to retry (bot.discord.jobs), as discord.py's adapter does.
                if answer.headers.get("Via") and attempt + 1 < TRIES:
                    await asyncio.sleep(float(data["retry_after"]))
                    continue
            raise _error(answer, data)
        raise AssertionError("unreachable")

    def close(self) -> None:
        """Close the connections the requests went on."""
        self.wire.close()

    async def _wait(self, bucket: str) -> None:
        """Wait for `bucket`'s reset when Discord said none was left in it."""
        reset = self._resets.get(bucket)
        if reset is None:
            return
        delay = reset - asyncio.get_running_loop().time()
        if delay > 0:
            await asyncio.sleep(delay)
        self._resets.pop(bucket, None)

    def _note(self, bucket: str, answer: Answer) -> None:
        """Remember when `bucket` resets if the answer says none is left in it."""
        headers = answer.headers
        if headers.get("X-RateLimit-Remaining") != "0":
            return
        after = headers.get("X-RateLimit-Reset-After")
        if after is None:
            return
        now = asyncio.get_running_loop().time()
        if len(self._resets) >= BUCKETS:
            self._resets = {b: at for b, at in self._resets.items() if at > now}
        self._resets[bucket] = now + float(after)


class Sent(Mapping[str, Any]):
    """Discord's answer (a JSON object), read when something in it is first asked."""

    __slots__ = ("_body", "_data")

    def __init__(self, body: bytes) -> None:
        self._body: bytes = body
        self._data: dict[str, Any] | None = None

    def _read(self) -> dict[str, Any]:
        if self._data is None:
            self._data, self._body = orjson.loads(self._body), b""
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._read()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._read())

    def __len__(self) -> int:
        return len(self._read())


@functools.cache
def _counters(kind: str) -> tuple[Any, Any]:
    """The metrics' counters of requests and of 429s for route class `kind`."""
    return DISCORD_REQUESTS.labels(kind), DISCORD_429.labels(kind)


def _data(answer: Answer) -> Any:
    """A failed answer's JSON (Discord's error), or its text when it is not JSON."""
    if answer.headers.get("Content-Type", "").startswith("application/json"):
        try:
            return orjson.loads(answer.body)
        except orjson.JSONDecodeError:
            pass
    return answer.body.decode("utf-8", "replace")


def _error(response: Any, data: Any) -> discord.HTTPException:
    """The discord.py exception for a failed answer, as its own requests raise them."""
    if response.status == 403:
        return discord.Forbidden(response, data)
    if response.status == 404:
        return discord.NotFound(response, data)
    if response.status >= 500:
        return discord.DiscordServerError(response, data)
    return discord.HTTPException(response, data)
