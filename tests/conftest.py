"""Shared test configuration: the fake Discord's ``fake_discord`` fixture."""

pytest_plugins = ["tests.fakediscord.plugin"]
