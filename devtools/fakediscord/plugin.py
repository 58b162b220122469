"""The pytest side: the ``fake_discord`` fixture.

Enabled for the whole suite through devtools.plugin.
"""

from __future__ import annotations

import warnings
from collections.abc import AsyncIterator

import pytest

from .server import FakeDiscord


class SchemaCheckSkipped(UserWarning):
    """Request bodies were not checked: Discord's OpenAPI description is absent."""


def warn_if_schema_check_skipped(fake: FakeDiscord) -> None:
    """Say, as a pytest warning, why request bodies are not being checked."""
    if not fake.validator.available:
        warnings.warn(SchemaCheckSkipped(fake.validator.skip_reason), stacklevel=2)


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started :class:`FakeDiscord`; the test fails at teardown on any unclaimed violation.

    Connect the bot inside the test (or in a fixture that depends on this one,
    so that the bot is closed first): ``async with fake_discord.connected(bot):``.
    """
    fake = FakeDiscord()
    warn_if_schema_check_skipped(fake)
    async with fake:
        yield fake
    fake.assert_no_violations()
