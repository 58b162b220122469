"""What a game posts in its channel besides its board (launch reports, notices), swept at its end.

A launch report is posted once, below the board, and edited as the launch goes on, then
folded to one line by the next move (bot.views.attachments.report). When a
game ends, what it posted in the channel while it ran (launch reports, notices, older
boards' stubs) is deleted: its final board, which sums up the launches, and what was
posted after the end (the result) stay. (Of what was posted before a restart, which is
kept in memory only, only the board from before it is known, and deleted.)
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from bot.discord.access import Closed, Refused
from bot.discord.tokens import Owned
from bot.views import attachments
from bot.views.message import Message

if TYPE_CHECKING:
    from bot.discord.channel import GameChannel
    from bot.discord.jobs import Job, Key
    from bot.table import Report, Table

log = logging.getLogger(__name__)


class Posts:
    """Every game's launch report and the messages to delete when it ends."""

    def __init__(
        self,
        channel: GameChannel,
        *,
        submit: Callable[[Key, Job], None],
        park: Callable[[Table, Key, Job], None],
        swept: Callable[[Table], None],
    ) -> None:
        """`submit(key, job)` queues a job; `park(table, key, job)` keeps one until the channel
        lets the bot in; `swept(table)` is told once the game's messages are deleted."""
        self.channel, self.submit, self.park, self.swept = channel, submit, park, swept
        #: game id -> (report, its message) of the current launch.
        self._reports: dict[int, tuple[Report, Owned | None]] = {}
        #: game id -> message id -> what the game posted that goes when it ends.
        self._litter: dict[int, dict[int, Owned]] = {}

    def forget(self, game_id: int) -> None:
        self._reports.pop(game_id, None)
        self._litter.pop(game_id, None)

    def report_shown(self, table: Table, report: Report, owned: Owned) -> None:
        """An interaction's response is the launch report, showing its latest lines."""
        self._reports[table.id] = (report, owned)
        self.sweep_later(table, owned)
        report.shown = report.changes

    async def write_report(self, table: Table) -> None:
        report = table.report
        if report is None or not table.open:
            return  # once the game is over, its final board tells every launch
        current, owned = self._reports.get(table.id, (None, None))
        if current is report and report.shown >= report.changes:
            return
        changes = report.changes
        message = attachments.report(table, report)
        pictured = message.picture
        # The new picture replaces the old; without one, the attachments are left alone,
        # but by a folded report (its one line takes the picture away).
        payload = message.json(attachments=pictured is not None or report.folded)
        if current is report and owned is not None:
            await self.channel.edit(table, owned, owned.message_id, payload, pictured)
        else:
            sent = await self.channel.follow_up(table, payload, pictured)
            if not isinstance(sent, Owned):
                sent = Owned(sent, None)
            self._reports[table.id] = (report, sent)
            self.sweep_later(table, sent)
            table.messages.below += 1
        report.shown = max(report.shown, changes)

    async def send(self, table: Table, content: str, during: bool) -> None:
        """A post; one made `during` the game goes when it ends. One for a game over whose
        thread a moderator locked is dropped (its result goes to the channel)."""
        try:
            sent = await self.channel.follow_up(table, Message(content=content).json())
        except Closed:
            if table.open:
                raise  # waits for the thread to open again
            log.info("game %d: not posted in its locked thread: %s", table.id, content[:80])
            return
        if during:
            self.sweep_later(table, sent if isinstance(sent, Owned) else Owned(sent, None))
        table.messages.below += 1

    def sweep_later(self, table: Table, owned: Owned) -> None:
        """A message of the game to delete when it ends (now, if it has ended)."""
        self._litter.setdefault(table.id, {})[owned.message_id] = owned
        if not table.open:
            self.submit(("sweep", table.id), lambda: self.sweep(table))

    async def sweep(self, table: Table) -> None:
        """The game is over: what it posted while it ran is deleted, one by one (what
        the channel refuses waits for it)."""
        litter = self._litter.get(table.id, {})
        while litter:
            message_id, owned = next(iter(litter.items()))
            try:
                await self.channel.delete(table, owned)
            except Refused:
                unpost = ("unpost", message_id)
                self.park(table, unpost, partial(self.channel.delete, table, owned))
            litter.pop(message_id, None)
        self.swept(table)
