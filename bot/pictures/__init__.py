"""The pictures layer: the board and launch pictures (PNG), drawn from the public view only.

Imports only i18n and engine.
"""
