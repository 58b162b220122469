"""What the REST handlers share: a request's parsed parts, and answers in Discord's shape.

The server reads each request's body before its handler runs and keeps it under `BODY`
and `FILES`; a handler answers with `json_response`, or raises `DiscordError` for the
error Discord would give (`require` raises Missing Permissions).
"""

from __future__ import annotations

from typing import Any

import orjson
from aiohttp import web

#: Files uploaded with a request, by ``files[n]`` index: (filename, content type, bytes).
Uploads = dict[int, tuple[str, str | None, bytes]]

#: The request's parsed JSON body (or multipart ``payload_json``), None if empty: JSON as
#: the bot sent it, checked against the OpenAPI description before a handler reads it.
BODY: web.RequestKey[Any] = web.RequestKey("body", object)
#: The request's uploads.
FILES: web.RequestKey[Uploads] = web.RequestKey("files", dict)


class DiscordError(Exception):
    """An error answer in Discord's shape: HTTP status, JSON error code, message."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message = status, code, message

    def response(self) -> web.Response:
        """The HTTP response Discord would give."""
        return json_response({"code": self.code, "message": self.message}, status=self.status)


def json_response(
    data: Any, *, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """A JSON reply with ``Content-Type: application/json`` exactly, as discord.py requires."""
    return web.Response(
        body=orjson.dumps(data),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def require(permissions: int, needed: int) -> None:
    """Discord's 403 Missing Permissions unless `permissions` hold every bit of `needed`."""
    if permissions & needed != needed:
        raise DiscordError(403, 50013, "Missing Permissions")
