"""The game layer every door shares: typed commands, who may do what, the service, the clocks.

Transport-free: a door (Discord's messages, the live table) runs a command
(bot.game.commands) for a caller whose standing it supplies (bot.game.access); what
changed is published on one stream (bot.game.changes). It knows nothing of Discord.
Imports views, pictures, the shared nouns, store, i18n, engine.
"""
