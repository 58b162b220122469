"""The breaches of Discord's rules the fake saw: recorded, claimed by tests, or failing them.

Besides what the REST routes and the gateway record, every ERROR that discord.py's loggers
write while the fake runs is a violation (`ErrorLogRecorder`).
"""

from __future__ import annotations

import logging

from aiohttp import web

from .state import ChangeNotifier, Violation, ViolationKind


class Violations:
    """The unclaimed breaches, in the order they were seen."""

    def __init__(self, notifier: ChangeNotifier) -> None:
        self._notifier = notifier
        #: Recorded rule breaches not yet claimed by :meth:`expect`.
        self.found: list[Violation] = []

    def record(self, kind: ViolationKind, message: str, request: web.Request | None = None) -> None:
        """Note a breach of Discord's rules; it fails the test unless expected."""
        where = f"{request.method} {request.rel_url}" if request is not None else ""
        self.found.append(Violation(kind, message, where))
        self._notifier.bump()

    async def expect(self, kind: ViolationKind, *, timeout: float = 5.0) -> Violation:
        """Wait for a violation of this kind and claim it, so that it does not fail the test."""

        def first() -> Violation | None:
            return next((v for v in self.found if v.kind == kind), None)

        violation: Violation = await self._notifier.wait(
            first, timeout=timeout, description=f"a {kind} violation"
        )
        self.found.remove(violation)
        return violation

    def assert_none(self) -> None:
        """Fail (AssertionError) listing every unclaimed violation."""
        if self.found:
            listing = "\n".join(f"  - {violation}" for violation in self.found)
            raise AssertionError(f"the bot broke Discord's rules:\n{listing}")


class ErrorLogRecorder(logging.Handler):
    """Turns ERROR records from discord.py's loggers into violations, while attached
    (:meth:`attach`, :meth:`detach`)."""

    def __init__(self, violations: Violations) -> None:
        super().__init__(level=logging.ERROR)
        self._violations = violations
        self.setFormatter(logging.Formatter("%(name)s: %(message)s"))

    def attach(self) -> None:
        """Start hearing discord.py's loggers."""
        logging.getLogger("discord").addHandler(self)

    def detach(self) -> None:
        """Stop hearing them."""
        logging.getLogger("discord").removeHandler(self)

    def emit(self, record: logging.LogRecord) -> None:
        self._violations.record(ViolationKind.ERROR_LOG, self.format(record))
