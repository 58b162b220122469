"""The storage layer: the game database (SQLite or PostgreSQL), its records, queries and backups.

`bot.store.store.Store` is its one interface; imports only engine and itself.
"""
