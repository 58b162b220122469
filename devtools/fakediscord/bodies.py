"""A message's body as Discord reads it from a create or an edit, on every route: its content
(2,000 characters at most), uploads turned into attachments (an embed's ``attachment://``
image naming one of them), Components V2's rules (devtools.fakediscord.layout), embeds left
out without Embed Links, an empty message refused; and the edit itself, earlier versions
kept in ``Message.history`` unless the fake was told not to.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiohttp import web

from . import layout
from .state import (
    CONTENT_LIMIT,
    EMBED_LINKS,
    LOADING,
    Attachment,
    Message,
    ViolationKind,
    World,
    utcnow,
)
from .threads import check_editable
from .violations import Violations
from .wire import BODY, FILES, DiscordError, Uploads

#: Message fields a bot sets in a create or edit request.
CONTENT_FIELDS = ("content", "embeds", "components")


class Bodies:
    """Reads message bodies into message fields, and edits messages with them."""

    def __init__(
        self,
        world: World,
        violations: Violations,
        *,
        url: Callable[[], str],
        keep_history: bool = True,
    ) -> None:
        self._world = world
        self._violations = violations
        self._url = url
        #: Whether an edited message keeps its earlier versions (``Message.history``).
        self._keep_history = keep_history

    def payload(self, message: Message) -> dict[str, Any]:
        """A message as the routes answer with it (its attachments served by the fake)."""
        return message.payload(self._url())

    def edit(
        self,
        message: Message,
        request: web.Request,
        body: dict[str, Any] | None = None,
        *,
        permissions: int = ~0,
    ) -> None:
        """Edit a message; through a channel route, as the bot's `permissions` there allow.

        A deferred response being filled takes a new message's body."""
        check_editable(self._world, message)
        body = (request[BODY] if body is None else body) or {}
        if message.loading:
            self.check_layout(request, layout.new_problem(body))
        else:
            self.check_layout(request, layout.edit_problem(message.flags, body))
        fields = self.fields(request, existing=message.attachments, body=body)
        if fields.get("embeds") and not permissions & EMBED_LINKS:
            without_embeds_unless(permissions, {**_current(message), **fields})
            fields["embeds"] = []
        fields.pop("flags", None)
        if self._keep_history:
            message.history.append(message.snapshot())
        for name, value in fields.items():
            setattr(message, name, value)
        message.flags = layout.flags_after_edit(message.flags, body) & ~LOADING
        message.edited_at = utcnow()
        self._world.notifier.bump()

    def check_layout(self, request: web.Request, problem: str | None) -> None:
        """Refuse a body that breaks Components V2's rules (`problem`), as Discord does."""
        if problem is not None:
            self._violations.record(ViolationKind.COMPONENTS_V2, problem, request)
            raise DiscordError(400, 50035, f"Invalid Form Body: {problem}")

    def delete(self, message: Message) -> None:
        message.deleted = True
        message.deleted_at = utcnow()
        self._world.notifier.bump()

    def fields(
        self,
        request: web.Request,
        *,
        existing: list[Attachment],
        body: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The message fields a create/edit body sets, with uploads turned into attachments.

        ``body`` defaults to the request's JSON (or multipart ``payload_json``). In the
        body's ``attachments``, an id naming an existing attachment keeps it and an
        index ``n`` names the upload ``files[n]``; without ``attachments``, existing
        ones are kept and every upload is added.
        """
        body = request[BODY] if body is None else body
        body = body or {}
        content = body.get("content") or ""
        if len(content) > CONTENT_LIMIT:
            self._violations.record(
                ViolationKind.CONTENT_TOO_LONG,
                f"message content of {len(content)} characters (Discord's limit: {CONTENT_LIMIT})",
                request,
            )
            raise DiscordError(400, 50035, "Invalid Form Body: content too long")
        fields = {name: body[name] or _empty(name) for name in CONTENT_FIELDS if name in body}
        if "flags" in body:
            fields["flags"] = body["flags"] or 0
        uploads: Uploads = request[FILES]
        if "attachments" not in body and not uploads:
            self._check_attachment_links(request, fields, existing)
            return fields
        kept = {attachment.id: attachment for attachment in existing}
        listed = body.get("attachments")
        if listed is None:
            listed = [{"id": index} for index in uploads]
            attachments = list(existing)
        else:
            attachments = []
        for entry in listed:
            ref = int(entry["id"])
            if ref in kept:
                attachments.append(kept[ref])
            elif ref in uploads:
                filename, content_type, content = uploads[ref]
                attachments.append(
                    Attachment(
                        id=self._world.snowflake(),
                        filename=entry.get("filename") or filename,
                        content=content,
                        content_type=content_type,
                        description=entry.get("description"),
                    )
                )
            else:
                raise DiscordError(400, 50035, f"Invalid Form Body: unknown attachment {ref}")
        fields["attachments"] = attachments
        self._check_attachment_links(request, fields, attachments)
        return fields

    def _check_attachment_links(
        self, request: web.Request, fields: dict[str, Any], attachments: list[Attachment]
    ) -> None:
        """An embed image naming ``attachment://file`` needs that file on the message.

        Discord does not refuse such a message: it shows the embed without the image,
        which for the bot is a picture lost, so the fake records it as a violation.
        """
        names = {attachment.filename for attachment in attachments}
        for embed in fields.get("embeds") or []:
            for part in ("image", "thumbnail"):
                url = (embed.get(part) or {}).get("url", "")
                if url.startswith("attachment://") and url[len("attachment://") :] not in names:
                    self._violations.record(
                        ViolationKind.SCHEMA,
                        f"embed {part} {url} names no attachment of the message "
                        f"(it has {sorted(names)})",
                        request,
                    )


def without_embeds_unless(permissions: int, fields: dict[str, Any]) -> dict[str, Any]:
    """A new message's fields, its embeds left out without Embed Links (as Discord hides
    them); Missing Permissions when nothing else would be left of it."""
    if not fields.get("embeds") or permissions & EMBED_LINKS:
        return fields
    kept = {**fields, "embeds": []}
    if not any(kept.get(name) for name in (*CONTENT_FIELDS, "attachments")):
        raise DiscordError(403, 50013, "Missing Permissions")
    return kept


def _current(message: Message) -> dict[str, Any]:
    """A message's fields as an edit starts from them."""
    return {
        "content": message.content,
        "components": message.components,
        "attachments": message.attachments,
    }


def refuse_empty(fields: dict[str, Any]) -> dict[str, Any]:
    """``fields`` if they make a message Discord accepts, else Discord's 50006 error."""
    if not any(fields.get(name) for name in (*CONTENT_FIELDS, "attachments")):
        raise DiscordError(400, 50006, "Cannot send an empty message")
    return fields


def _empty(name: str) -> Any:
    return "" if name == "content" else []
