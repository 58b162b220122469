"""The game layer: the service where games change (per-game lock, clocks), crewmates, languages.

Transport-free: it tells whoever listens (a `bot.table.Notifier`) what changed, and
knows nothing of Discord. Imports views, pictures, the shared nouns, store, i18n, engine.
"""
