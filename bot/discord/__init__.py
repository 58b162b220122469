"""The Discord layer: the client, slash commands and buttons, checked inputs, the outbox.

Everything that speaks Discord's API lives here; it drives the game layer below it.
"""
