"""The bot fixtures of tests/bot, for the language tests that play through the fake Discord."""

from tests.bot.conftest import database, make_bot  # noqa: F401
