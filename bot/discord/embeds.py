"""A view's message as discord.py's objects: its embed, its picture as a file, the arguments
of an interaction response.

The views build plain data (bot.views.message: a Message and its Embed); what
discord.py sends itself (interaction responses, the channel routes used when no
interaction token can carry a board) takes its own objects, made here.
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import utils

from bot.views.message import Embed, Message, Upload


def embed(shown: Embed) -> discord.Embed:
    """discord.py's embed for `shown`."""
    return discord.Embed.from_dict(shown.json())


def file(picture: Upload) -> discord.File:
    """A fresh discord.py file (one is used up by each request that sends it)."""
    return discord.File(io.BytesIO(picture.png), picture.filename, description=picture.description)


def kwargs(message: Message, *, new: bool = False) -> dict[str, Any]:
    """`message` as discord.py's keyword arguments for an interaction response:
    `send_message` (`new`: its picture as a file) or `edit_message`. discord.py flags a
    layout itself."""
    found: dict[str, Any] = {}
    if message.layout and not new:
        found.update(content=None, embeds=[])
    if message.content is not None:
        found["content"] = message.content
    if message.embed is not None:
        found["embed"] = embed(message.embed)
    elif message.whole:
        found["embeds"] = []
    if message.components is not None or message.whole:
        found["view"] = message.components
    if message.picture is not None or message.whole:
        found["files" if new else "attachments"] = (
            [file(message.picture)] if message.picture is not None else []
        )
    return found


def multipart(picture: Upload, payload: dict[str, Any] | None) -> dict[str, Any]:
    """`payload` with `picture` as Discord's multipart form, as keyword arguments for
    discord.py's own requests (the channel routes, used when no interaction token can
    carry the board)."""
    upload = file(picture)
    form = [
        {"name": "payload_json", "value": utils._to_json(payload)},
        {
            "name": "files[0]",
            "value": upload.fp,
            "filename": upload.filename,
            "content_type": "image/png",
        },
    ]
    return {"form": form, "files": [upload]}
