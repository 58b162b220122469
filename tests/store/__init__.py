"""Tests of the persistence layer (bot.store, migrations)."""
