"""The routes the fake implements: method, OpenAPI path template, handler, and whether each
counts against Discord's global limit or takes a user's OAuth2 token.

Tests and the fake's faults name routes as here: ``"POST /channels/{channel_id}/messages"``
(`Route.key`), or by template alone.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Route:
    """An implemented route, named by its OpenAPI path template."""

    method: str
    template: str
    handler: str
    counts_global: bool = True
    #: Whether a user's OAuth2 access token (``Authorization: Bearer``) may call it too.
    bearer: bool = False

    @property
    def key(self) -> str:
        """``"METHOD /template"``, the name used in request logs and rate-limit patterns."""
        return f"{self.method} {self.template}"


_WEBHOOK = "/webhooks/{webhook_id}/{webhook_token}"
_ORIGINAL = _WEBHOOK + "/messages/@original"
_WEBHOOK_MESSAGE = _WEBHOOK + "/messages/{message_id}"
_MESSAGE = "/channels/{channel_id}/messages/{message_id}"

#: Every route the fake implements, in matching order (``@original`` before ``{message_id}``).
#: Interaction callbacks and the interaction webhooks do not count against the global limit.
ROUTES = (
    Route("GET", "/users/@me", "get_current_user", bearer=True),
    Route("GET", "/oauth2/applications/@me", "get_application"),
    Route("GET", "/gateway", "get_gateway"),
    Route("GET", "/gateway/bot", "get_gateway"),
    Route("GET", "/applications/{application_id}/commands", "get_commands"),
    Route("PUT", "/applications/{application_id}/commands", "put_commands"),
    Route("GET", "/applications/{application_id}/guilds/{guild_id}/commands", "get_commands"),
    Route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", "put_commands"),
    Route("POST", "/users/@me/channels", "create_dm"),
    Route("GET", "/guilds/{guild_id}", "get_guild"),
    Route("GET", "/guilds/{guild_id}/members/{user_id}", "get_guild_member"),
    Route("GET", "/channels/{channel_id}", "get_channel"),
    Route("PATCH", "/channels/{channel_id}", "edit_channel"),
    Route("POST", "/channels/{channel_id}/messages", "create_message"),
    Route("GET", _MESSAGE, "get_message"),
    Route("PATCH", _MESSAGE, "edit_message"),
    Route("DELETE", _MESSAGE, "delete_message"),
    Route("POST", _MESSAGE + "/threads", "create_thread_from_message"),
    Route(
        "POST",
        "/interactions/{interaction_id}/{interaction_token}/callback",
        "interaction_callback",
        counts_global=False,
    ),
    Route("POST", _WEBHOOK, "create_followup", counts_global=False),
    Route("GET", _ORIGINAL, "get_webhook_message", counts_global=False),
    Route("PATCH", _ORIGINAL, "edit_webhook_message", counts_global=False),
    Route("DELETE", _ORIGINAL, "delete_webhook_message", counts_global=False),
    Route("GET", _WEBHOOK_MESSAGE, "get_webhook_message", counts_global=False),
    Route("PATCH", _WEBHOOK_MESSAGE, "edit_webhook_message", counts_global=False),
    Route("DELETE", _WEBHOOK_MESSAGE, "delete_webhook_message", counts_global=False),
    Route("GET", "/applications/{application_id}/activity-instances/{instance_id}", "get_instance"),
)

#: The route of each key.
ROUTES_BY_KEY = {route.key: route for route in ROUTES}
