"""The storage layer: the game database (SQLite or PostgreSQL), its records, queries and backups.

`bot.store.store.Store` is its one interface, and `bot.store.database.Database` the one
interface of the backends behind it; imports only engine and itself.
"""
