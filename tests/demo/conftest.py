"""The bot fixtures of tests/bot, for the recorder's and the demo's tests."""

from tests.bot.conftest import database, make_bot  # noqa: F401
