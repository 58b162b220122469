"""Web sessions: who a web client is, as a signed token that expires or is ended.

A session token names a Discord user (id, name, locale) and when it expires, signed
with HMAC-SHA256 under a key derived from the application's client secret: the bot
keeps no session store, so a restart keeps every session (a client reconnects and
resumes). Without a client secret (a watch-only table) the key is random per process.
A session ends early when its owner logs out or signs in again in the same browser
(`end`): its signature is kept in the database until it would have expired (`keep_in`),
so the end holds on every process sharing it and after a restart; `user_of` asks it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import orjson

if TYPE_CHECKING:
    from bot.store.store import Store

#: How long a session lasts from sign-in.
SESSION_SECONDS = 12 * 3600


@dataclass(frozen=True, slots=True)
class User:
    """A signed-in Discord user, as the web table knows them."""

    id: int
    name: str
    locale: str
    #: When the session ends (unix time; 0 until a session is opened).
    expires: float = 0.0
    #: Which session this is (its token's signature, never shown; "" until one is opened).
    session: str = field(default="", repr=False)

    def public(self) -> dict[str, str]:
        return {"id": str(self.id), "name": self.name, "locale": self.locale}


class Expired(Exception):
    """The session was genuine but is over (expired, or ended): the client signs in again."""


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
        #: The sessions ended before their time: signature → when they would have expired
        #: (those this process ended or heard of; the database has every one).
        self._ended: dict[str, float] = {}
        self._store: Store | None = None

    def keep_in(self, store: Store) -> None:
        """Keep ended sessions in `store` (shared with the other processes) from now on."""
        self._store = store

    def open(self, user: User) -> str:
        """A new session token for `user`."""
        body = {
            "u": user.id,
            "n": user.name,
            "l": user.locale,
            "e": self.clock() + self.lifetime,
            "r": _b64(os.urandom(6)),  # two sessions opened at once are still two
        }
        payload = _b64(orjson.dumps(body))
        return f"{payload}.{self._sign(payload)}"

    def read(self, token: object) -> User | None:
        """The user of a genuine token (None: forged or malformed); Expired once it is over
        or ended."""
        if not isinstance(token, str) or len(token) > 1024 or token.count(".") != 1:
            return None
        if not token.isascii():
            return None
        payload, signature = token.split(".")
        if not hmac.compare_digest(signature.encode(), self._sign(payload).encode()):
            return None
        try:
            body = orjson.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
            user = User(int(body["u"]), str(body["n"]), str(body["l"]), float(body["e"]), signature)
        except (ValueError, KeyError, TypeError):
            return None
        if user.expires <= self.clock() or signature in self._ended:
            raise Expired
        return user

    async def user_of(self, token: object) -> User | None:
        """`read`, and Expired for a session ended on any process (StoreBusy: the database
        could not say)."""
        user = self.read(token)
        store = self._store
        if user is not None and store is not None and await store.session_ended(user.session):
            self._ended[user.session] = user.expires
            raise Expired
        return user

    async def end(self, token: object) -> User | None:
        """End the session of `token` before its time (logging out), here and in the
        database: its user (None: it was not a session, or is over already)."""
        try:
            user = self.read(token)
        except Expired:
            return None
        if user is not None:
            now = self.clock()
            for signature in [s for s, expires in self._ended.items() if expires <= now]:
                del self._ended[signature]
            self._ended[user.session] = user.expires
            if self._store is not None:
                await self._store.end_session(user.session, user.expires, now)
        return user

    async def ended_since(self, since: float) -> list[str]:
        """The sessions ended (by any process) at `since` or later that this process had
        not heard of: now ended here too."""
        if self._store is None:
            return []
        news = [s for s in await self._store.sessions_ended_since(since) if s not in self._ended]
        for signature in news:
            self._ended[signature] = self.clock() + self.lifetime  # forgotten by then at most
        return news

    def _sign(self, payload: str) -> str:
        return _b64(hmac.new(self._key, payload.encode(), hashlib.sha256).digest())


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
