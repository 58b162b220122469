"""Web sessions: who a web client is, as a signed token that expires, and how fast each
session may send.

A session token names a Discord user (id, name, locale) and when it expires, signed
with HMAC-SHA256 under a key derived from the application's client secret: the bot
keeps no session store, so a restart keeps every session (a client reconnects and
resumes). Without a client secret (a watch-only table) the key is random per process.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import time
from collections.abc import Callable
from dataclasses import dataclass

import orjson

#: How long a session lasts from sign-in.
SESSION_SECONDS = 12 * 3600
#: Messages a second a session may send on average, and in a burst.
RATE = 8.0
BURST = 16.0


@dataclass(frozen=True, slots=True)
class User:
    """A signed-in Discord user, as the web table knows them."""

    id: int
    name: str
    locale: str
    #: When the session ends (unix time; 0 until a session is opened).
    expires: float = 0.0

    def public(self) -> dict[str, str]:
        return {"id": str(self.id), "name": self.name, "locale": self.locale}


class Expired(Exception):
    """The session was genuine but is over: the client signs in again."""


class Sessions:
    """Opens and reads session tokens (see the module docstring)."""

    def __init__(
        self,
        secret: str | None,
        *,
        lifetime: float = SESSION_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        seed = b"apophis web session\0" + (secret.encode() if secret else os.urandom(32))
        self._key = hashlib.sha256(seed).digest()
        self.lifetime = lifetime
        self.clock = clock

    def open(self, user: User) -> str:
        """A new session token for `user`."""
        body = {"u": user.id, "n": user.name, "l": user.locale, "e": self.clock() + self.lifetime}
        payload = _b64(orjson.dumps(body))
        return f"{payload}.{self._sign(payload)}"

    def read(self, token: object) -> User | None:
        """The user of a genuine token (None: forged or malformed); Expired once it is over."""
        if not isinstance(token, str) or len(token) > 1024 or token.count(".") != 1:
            return None
        payload, signature = token.split(".")
        if not hmac.compare_digest(signature, self._sign(payload)):
            return None
        try:
            body = orjson.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
            user = User(int(body["u"]), str(body["n"]), str(body["l"]), float(body["e"]))
        except (ValueError, KeyError, TypeError):
            return None
        if user.expires <= self.clock():
            raise Expired
        return user

    def _sign(self, payload: str) -> str:
        return _b64(hmac.new(self._key, payload.encode(), hashlib.sha256).digest())


class Bucket:
    """A token bucket: `take()` is False once a sender goes over RATE a second (BURST at once)."""

    __slots__ = ("clock", "level", "stamp")

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.level = BURST
        self.stamp = clock()

    def take(self) -> bool:
        now = self.clock()
        self.level = min(BURST, self.level + (now - self.stamp) * RATE)
        self.stamp = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
