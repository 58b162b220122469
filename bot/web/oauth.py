"""Sign-in through Discord's OAuth2: an authorization code exchanged for an access token
(client id and secret), then the user it belongs to (`/users/@me`).

Used both by the Activity (the Embedded App SDK's `authorize` gives the code) and by a
browser's "Sign in with Discord" redirect. Neither the secret nor a token is ever logged.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlencode

import aiohttp
import yarl

from bot.web.sessions import User

log = logging.getLogger(__name__)

#: Discord's API, unless the bot is pointed at a proxy or a local fake (DISCORD_API_BASE_URL).
DISCORD_API = "https://discord.com/api/v10"
#: The longest a call to Discord may take while someone waits to sign in.
TIMEOUT = aiohttp.ClientTimeout(total=10)


class SignInFailed(Exception):
    """Discord did not accept the code (or could not be reached); the message says which."""


class OAuth:
    """Discord's OAuth2 for one application (see the module docstring)."""

    def __init__(self, client_id: str | None, secret: str | None, api: str | None) -> None:
        self.client_id = client_id
        self._secret = secret
        self.api = (api or DISCORD_API).rstrip("/")
        self._http: aiohttp.ClientSession | None = None

    @property
    def ready(self) -> bool:
        """Whether people can sign in at all (an application id and its secret)."""
        return bool(self.client_id and self._secret)

    def authorize_url(self, redirect_uri: str, state: str) -> str:
        """Discord's authorization page for a browser sign-in (at the API's host)."""
        origin = yarl.URL(self.api).origin()
        query = {
            "client_id": self.client_id,
            "response_type": "code",
            "redirect_uri": redirect_uri,
            "scope": "identify",
            "state": state,
            "prompt": "none",
        }
        return f"{origin}/oauth2/authorize?{urlencode(query)}"

    async def sign_in(self, code: str, redirect_uri: str | None = None) -> tuple[str, User]:
        """Exchange `code` for an access token, and read its user: (token, user)."""
        if not self.ready:
            raise SignInFailed("sign-in is not set up (APOPHIS_CLIENT_ID, APOPHIS_CLIENT_SECRET)")
        form = {
            "grant_type": "authorization_code",
            "code": code,
            "client_id": self.client_id,
            "client_secret": self._secret,
        }
        if redirect_uri is not None:
            form["redirect_uri"] = redirect_uri
        token = await self._call("POST", "/oauth2/token", data=form)
        access = token.get("access_token")
        if not isinstance(access, str):
            raise SignInFailed("Discord gave no access token")
        me = await self._call("GET", "/users/@me", headers={"Authorization": f"Bearer {access}"})
        try:
            name = me.get("global_name") or me["username"]
            user = User(int(me["id"]), str(name), str(me.get("locale") or "en-US"))
        except (KeyError, TypeError, ValueError):
            raise SignInFailed("Discord's answer named no user") from None
        return access, user

    async def _call(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        if self._http is None:
            self._http = aiohttp.ClientSession(timeout=TIMEOUT)
        try:
            async with self._http.request(method, self.api + path, **kwargs) as response:
                body = await response.json(content_type=None)
                if response.status >= 400 or not isinstance(body, dict):
                    # Discord's reason (invalid_grant...), never the code or the token
                    reason = body.get("error") if isinstance(body, dict) else None
                    log.info("Discord refused %s %s: %s", method, path, response.status)
                    raise SignInFailed(f"Discord refused the sign-in ({reason or response.status})")
                return body
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            raise SignInFailed(f"Discord could not be reached ({type(exc).__name__})") from None

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()
