"""Discord's OAuth2 on the fake: authorization codes, the token exchange and bearer tokens.

Codes come from :meth:`OAuth2.issue_code` (a test standing in for the Embedded App SDK's
``authorize``) or from the browser flow, ``GET /oauth2/authorize``, which skips the consent
page and redirects at once to ``redirect_uri?code=...&state=...`` as
:attr:`OAuth2.browser_user`. ``POST /api/v10/oauth2/token`` (and the unversioned
``/api/oauth2/token`` that the OpenAPI description names) exchanges a code for an access
token, form-encoded with the client's credentials in the form or in HTTP Basic auth, and
answers errors as Discord does (``{"error": "invalid_grant", "error_description": ...}``).
The access token reads its user at ``GET /users/@me`` (``Authorization: Bearer ...``).
Codes live 10 minutes and tokens 7 days of the fake's time (``fake.advance_time``); only
the ``authorization_code`` grant is served (a refresh token is given, not redeemable), and
token exchanges are not in ``fake.requests`` (the bot's REST calls).
"""

from __future__ import annotations

import base64
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yarl
from aiohttp import hdrs, web

from .state import Member, User, World
from .wire import json_response

#: Where the token exchange is served, after the API prefix (and after plain ``/api``).
TOKEN_PATH = "/oauth2/token"
#: Where the browser signs in: at the root, like https://discord.com/oauth2/authorize,
#: and after ``/api`` (the description's ``authorizationUrl``).
AUTHORIZE_PATH = "/oauth2/authorize"
#: Seconds a code can be exchanged for (Discord: 10 minutes).
CODE_LIFETIME = 10 * 60.0
#: Seconds an access token works (Discord's ``expires_in``: 7 days).
ACCESS_TOKEN_LIFETIME = 604800
DEFAULT_CLIENT_SECRET = "fake-client-secret"


@dataclass(frozen=True)
class Grant:
    """What a code or an access token stands for: a user, signed in to a client, until when."""

    user_id: int
    client_id: str
    scope: str
    redirect_uri: str | None
    expires_at: float


class OAuthError(Exception):
    """An OAuth2 error answer: ``{"error": ..., "error_description": ...}``."""

    def __init__(self, status: int, error: str, description: str | None = None) -> None:
        super().__init__(f"{status} {error} {description or ''}")
        self.status, self.error, self.description = status, error, description

    def response(self) -> web.Response:
        body = {"error": self.error}
        if self.description is not None:
            body["error_description"] = self.description
        return json_response(body, status=self.status)


class OAuth2:
    """The application's OAuth2 side: its client credentials, the codes and tokens issued."""

    def __init__(self, world: World, now: Callable[[], float]) -> None:
        self._world = world
        self._now = now
        #: The application's client id, a string (Discord: the application id).
        self.client_id: str = str(world.application_id)
        #: The application's client secret.
        self.client_secret: str = DEFAULT_CLIENT_SECRET
        #: Who is signed in to Discord in "the browser": ``GET /oauth2/authorize`` issues
        #: codes for this user (a record or an id); None refuses with 400.
        self.browser_user: User | Member | int | None = None
        #: The redirect URIs registered in the developer portal; when not empty, authorize
        #: refuses any other, as Discord does.
        self.redirect_uris: set[str] = set()
        self._codes: dict[str, Grant] = {}
        self._tokens: dict[str, Grant] = {}

    def issue_code(
        self,
        user: User | Member | int,
        *,
        redirect_uri: str | None = None,
        scope: str = "identify",
    ) -> str:
        """A code for ``user`` signed in to this client, as the SDK's ``authorize`` gives one;
        a ``redirect_uri`` given here must be given again to exchange it."""
        user = self._world.user(user)
        code = secrets.token_urlsafe(22)
        self._codes[code] = Grant(
            user.id, self.client_id, scope, redirect_uri, self._now() + CODE_LIFETIME
        )
        return code

    def bearer_user(self, request: web.Request) -> User | None:
        """The user whose live access token (``identify`` scope) the request carries, if any."""
        scheme, _, token = request.headers.get(hdrs.AUTHORIZATION, "").partition(" ")
        grant = self._tokens.get(token) if scheme == "Bearer" else None
        if grant is None or grant.expires_at <= self._now():
            return None
        return self._world.users[grant.user_id] if "identify" in grant.scope.split() else None

    def routes(self, api_prefix: str) -> list[web.RouteDef]:
        """The token exchange (versioned and not) and the authorize page."""
        return [
            web.post(api_prefix + TOKEN_PATH, self.token),
            web.post("/api" + TOKEN_PATH, self.token),
            web.get(AUTHORIZE_PATH, self.authorize),
            web.get("/api" + AUTHORIZE_PATH, self.authorize),
        ]

    # -- the handlers ---------------------------------------------------------------------

    async def token(self, request: web.Request) -> web.Response:
        """POST /oauth2/token: exchange an authorization code for an access token."""
        form: Any = {}
        if request.content_type == "application/x-www-form-urlencoded":
            form = await request.post()
        try:  # in Discord's order: a JSON body gets "Grant type None is not supported"
            if (grant_type := form.get("grant_type")) != "authorization_code":
                raise OAuthError(
                    400, "unsupported_grant_type", f"Grant type {grant_type} is not supported"
                )
            grant = self._redeem(form, self._client_of(request, form))
        except OAuthError as error:
            return error.response()
        access_token, refresh_token = secrets.token_urlsafe(22), secrets.token_urlsafe(22)
        self._tokens[access_token] = Grant(
            grant.user_id, grant.client_id, grant.scope, None, self._now() + ACCESS_TOKEN_LIFETIME
        )
        return json_response(
            {
                "access_token": access_token,
                "token_type": "Bearer",
                "expires_in": ACCESS_TOKEN_LIFETIME,
                "refresh_token": refresh_token,
                "scope": grant.scope,
            }
        )

    async def authorize(self, request: web.Request) -> web.Response:
        """GET /oauth2/authorize: sign :attr:`browser_user` in at once (no consent page)."""
        query, user = request.query, self.browser_user
        problem = self._authorize_problem(query)
        if problem is None and user is None:
            problem = "Nobody is signed in to the fake's browser: set fake.oauth.browser_user."
        if problem is not None or user is None:
            return web.Response(status=400, text=problem)
        code = self.issue_code(user, redirect_uri=query["redirect_uri"], scope=query["scope"])
        extra = {"state": query["state"]} if "state" in query else {}
        target = yarl.URL(query["redirect_uri"]).update_query(code=code, **extra)
        return web.Response(status=302, headers={hdrs.LOCATION: str(target)})

    # -- the checks -----------------------------------------------------------------------

    def _client_of(self, request: web.Request, form: Any) -> str:
        """The client id, once its credentials (Basic auth, else the form's) are right."""
        scheme, _, credentials = request.headers.get(hdrs.AUTHORIZATION, "").partition(" ")
        if scheme == "Basic":
            try:
                decoded = base64.b64decode(credentials, validate=True).decode()
            except ValueError:  # binascii.Error and UnicodeDecodeError are ValueErrors
                raise OAuthError(401, "invalid_client") from None
            client_id, _, secret = decoded.partition(":")
        else:
            client_id, secret = form.get("client_id", ""), form.get("client_secret", "")
        if client_id != self.client_id or not secrets.compare_digest(
            secret.encode(), self.client_secret.encode()
        ):
            raise OAuthError(401, "invalid_client")
        return client_id

    def _redeem(self, form: Any, client_id: str) -> Grant:
        """Use up the form's code, once it is known to be good for this client."""
        code = form.get("code")
        if not code:
            raise OAuthError(400, "invalid_request", 'Missing "code" in request.')
        grant = self._codes.get(code)
        if grant is None or grant.client_id != client_id or grant.expires_at <= self._now():
            raise OAuthError(400, "invalid_grant", 'Invalid "code" in request.')
        if grant.redirect_uri is not None and form.get("redirect_uri") != grant.redirect_uri:
            raise OAuthError(400, "invalid_grant", 'Invalid "redirect_uri" in request.')
        del self._codes[code]
        return grant

    def _authorize_problem(self, query: Any) -> str | None:
        """Why the authorize request is refused, or None."""
        if query.get("client_id") != self.client_id:
            return f"Unknown application: client_id {query.get('client_id')!r}."
        if query.get("response_type") != "code":
            return "Unsupported response_type: only 'code' is served."
        redirect_uri = query.get("redirect_uri")
        if not redirect_uri:
            return "Missing redirect_uri."
        if self.redirect_uris and redirect_uri not in self.redirect_uris:
            return f"Invalid OAuth2 redirect_uri: {redirect_uri!r} is not registered."
        if not query.get("scope"):
            return "Missing scope."
        return None
