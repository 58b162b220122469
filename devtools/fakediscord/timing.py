"""The fake's time, and Discord's time limits read in it (interaction deadline, token life)."""

from __future__ import annotations

import time
from collections.abc import Callable


class Timing:
    """The fake's clock, moved on by tests, and the limits Discord sets in seconds of it.

    Tests may change a limit at any time (``fake.interaction_deadline = 0.0``): the REST
    routes read it at each request.
    """

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        *,
        interaction_deadline: float = 3.0,
        token_lifetime: float = 15 * 60.0,
    ) -> None:
        self._clock = clock
        self._offset = 0.0
        #: Seconds the bot has for the first response to an interaction (Discord: 3).
        self.interaction_deadline = interaction_deadline
        #: Seconds an interaction token works for follow-ups and edits (Discord: 15 min).
        self.token_lifetime = token_lifetime

    def now(self) -> float:
        """The fake's time in seconds: its clock plus every :meth:`advance`."""
        return self._clock() + self._offset

    def advance(self, seconds: float) -> None:
        """Move the fake's time forward (interaction deadlines, token life)."""
        self._offset += seconds
