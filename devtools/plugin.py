"""The pytest plugin of the development tools: the fake Discord and a throwaway PostgreSQL server.

Enabled for the whole suite by ``pytest_plugins`` in ``tests/conftest.py``:
``fake_discord`` (see devtools.fakediscord.plugin), ``postgres_server`` (one server for
the whole session, skipped with its reason where none is installed) and
``postgres_url`` (a fresh, empty database on it).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from devtools.fakediscord.plugin import fake_discord
from devtools.pgserver import PostgresServer, unavailable_reason

__all__ = ["fake_discord", "postgres_server", "postgres_url"]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One throwaway PostgreSQL server for the whole session (skipped where none is installed)."""
    reason = unavailable_reason()
    if reason is not None:
        pytest.skip(f"PostgreSQL tests skipped: {reason}")
    with PostgresServer() as server:
        yield server


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """A fresh, empty database on the session's server."""
    return postgres_server.create_database()
