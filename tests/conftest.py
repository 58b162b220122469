"""Shared test configuration: the fake Discord's ``fake_discord`` fixture (and pytester,
with which the fake's own tests check that a violation fails a test)."""

pytest_plugins = ["pytester", "tests.fakediscord.plugin"]
