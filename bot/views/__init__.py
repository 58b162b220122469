"""The views layer: what players read, built from the engine's views, as Discord's JSON.

The board, lobby and launch report, the hand panel, events told, hints, and the
pictures attached to messages. Imports pictures, the shared nouns, store records, i18n, engine.
"""
