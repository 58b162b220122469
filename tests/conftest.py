"""Shared test configuration: the development tools' pytest plugin (the fake Discord's
``fake_discord`` fixture and a throwaway PostgreSQL server), and pytester, with which the
fake's own tests check that a violation fails a test."""

pytest_plugins = ["pytester", "devtools.plugin"]
