"""Shared test configuration: the fake Discord's ``fake_discord`` fixture (and pytester,
with which the fake's own tests check that a violation fails a test), and a throwaway
PostgreSQL server for the tests that need one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.pgserver import PostgresServer, unavailable_reason

pytest_plugins = ["pytester", "tests.fakediscord.plugin"]


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
