"""A door: a way into the games (Discord's messages, the live table), as the core sees it.

bot.app builds the core and the doors the configuration names, subscribes each door's
`heard` to the core's stream before the core starts (so that a door hears every change,
those of the recovery included, even before it opens), starts the core, then each door
with it (`start(core)`), and at shutdown stops them in reverse. A door runs its players'
commands through the core (`core.run(caller, command)`, bot.game.commands) for a caller
whose standing it supplies (bot.game.access), and renders their outcomes itself. Doors
never import each other; whatever they share is in the game layer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from bot.game.changes import TableChange
    from bot.game.core import GameCore


class Door(Protocol):
    """A way into the games, started with the core and stopped before it."""

    def heard(self, change: TableChange) -> None:
        """A change on the core's stream (synchronous: what takes time is queued)."""

    async def start(self, core: GameCore) -> None:
        """Open, once the core is started: its games are back, its service runs commands."""

    async def stop(self) -> None:
        """Close: nothing more comes in through this door, what it still owes is sent."""
