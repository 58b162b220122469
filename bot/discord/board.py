"""Writing a game's board message: edited in place, or posted again below, with its picture.

The board is edited through the token of the interaction that posted it or last updated
it, else through the channel route; when its token has expired (and a newer one of the
game can post), or when more than `REPOST_AFTER` messages were posted below it, it is
posted again below, the old one becoming a one-line stub. A game reached through
interactions alone has no channel route: its board waits for the next interaction, whose
token posts it below (every click on the board itself updates it in its answer). The
board picture goes as a multipart upload, none when it did not change: a picture this
outbox already uploaded to the board message is kept by its attachment's id.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.access import ChannelUnusable, Closed, Unreachable
from bot.discord.tokens import Owned, Tokens
from bot.game.access import INTERACTIONS
from bot.views import attachments, components

if TYPE_CHECKING:
    from bot.discord.channel import GameChannel
    from bot.discord.jobs import Job, Key
    from bot.discord.threads import Threads
    from bot.store.store import Store
    from bot.table import Table
    from bot.views.message import Upload

#: Discord's error for editing a message that is over an hour old too often.
TOO_OLD_TO_EDIT = 30046
#: Messages posted below the board after which its next update posts it again below.
REPOST_AFTER = 10


class Boards:
    """The board message of every game, and what this outbox knows it shows."""

    def __init__(
        self,
        channel: GameChannel,
        tokens: Tokens,
        store: Store,
        threads: Threads,
        *,
        submit: Callable[[Key, Job], None],
        sweep_later: Callable[[Table, Owned], None],
        learn_files: Callable[[Table], None],
    ) -> None:
        """`submit(key, job)` queues a job; `sweep_later(table, owned)` has a message deleted
        when the game ends; `learn_files(table)` checks Attach Files before a board is drawn."""
        self.channel, self.tokens, self.store, self.threads = channel, tokens, store, threads
        self.submit, self.sweep_later, self.learn_files = submit, sweep_later, learn_files
        #: game id -> the latest version of a started game the board shows.
        self.written: dict[int, int] = {}
        #: game id -> how many times its board was made outdated: a write under way when it
        #: was drew what is now outdated, and does not count as showing its version.
        self._redraws: dict[int, int] = {}
        #: game id -> (the picture's file name, Discord's answer to the write that uploaded
        #: it, the board message's id then), when this outbox uploaded the picture the board
        #: shows (`_uploaded` reads which attachment it is).
        self._pictures: dict[int, tuple[str, Mapping[str, Any], int | None]] = {}
        #: game id -> the board message and the token that may edit it.
        self._owners: dict[int, Owned] = {}
        #: Games whose board is being written, and those of them whose board an
        #: interaction's response showed meanwhile (the write may land after it).
        self._writing: set[int] = set()
        self._raced: set[int] = set()
        #: game id -> set once its board's write under way has landed (`landed`).
        self._landed: dict[int, asyncio.Event] = {}

    def forget(self, game_id: int) -> None:
        for records in (self.written, self._pictures, self._owners, self._redraws):
            records.pop(game_id, None)
        self._raced.discard(game_id)

    def moved(self, game_id: int) -> Owned | None:
        """The game moved to its own thread: its lobby message (and its token), forgotten."""
        lobby = self._owners.pop(game_id, None)
        self.forget(game_id)
        return lobby

    def outdated(self, game_id: int) -> None:
        """Drawn again at the next update although its state did not change."""
        self.written.pop(game_id, None)
        self._redraws[game_id] = self._redraws.get(game_id, 0) + 1

    def fresh(self, game_id: int) -> None:
        """Posted anew at the next update (after a restart)."""
        self.written.pop(game_id, None)
        self._owners.pop(game_id, None)

    def shown(self, table: Table, shown: Owned, version: int) -> bool:
        """An interaction's response is the message `shown`, showing the board at `version`
        with its picture; whether that is the board message. If the board was posted again
        below while the response was under way, that message is an older board: it becomes
        a stub (through the response's token), and the new board keeps its own token."""
        if shown.message_id != table.messages.board_id:
            self.reposted(table, shown.message_id, shown)
            return False
        self._owners[table.id] = shown
        self._pictures.pop(table.id, None)  # the response drew its own picture
        self.mark_written(table, version)
        if table.id in self._writing:
            self._raced.add(table.id)
        return True

    def mark_written(self, table: Table, version: int) -> None:
        """A response already showed the board at `version` (`components.drawn_version`)."""
        if self.written.get(table.id, -1) < version:
            self.written[table.id] = version

    def owner(self, table: Table) -> Owned | None:
        """The board message and its token, while that token is usable."""
        owner = self._owners.get(table.id)
        if owner is None or owner.message_id != table.messages.board_id:
            return None
        return owner if self.tokens.usable(owner.token) else None

    def reposted(self, table: Table, old_message_id: int | None, old: Owned | None) -> None:
        """The board was posted again below: the old one becomes a stub."""
        if old_message_id is not None and old_message_id != table.messages.board_id:
            owner = old if old is not None and old.message_id == old_message_id else None
            self.submit(("stub", old_message_id), lambda: self.stub(table, old_message_id, owner))

    async def landed(self, game_id: int, timeout: float) -> bool:
        """Whether no write of the game's board is under way (what it drew could land after
        a newer drawing), waiting up to `timeout` seconds for the one under way."""
        while game_id in self._writing:
            try:
                await asyncio.wait_for(self._landed[game_id].wait(), timeout)
            except TimeoutError:
                return False
        return True

    def adopt(self, table: Table, owned: Owned) -> None:
        """`owned`, the board message, may be edited with its token from now on (a click on
        it answered without redrawing it: the next write draws it)."""
        if owned.message_id == table.messages.board_id:
            self._owners[table.id] = owned

    def old_owner(self, game_id: int) -> Owned | None:
        return self._owners.get(game_id)

    async def show(self, table: Table) -> None:
        """The board shows the table now; once a game in a thread of its own is over and
        its final board shown, the thread closes (bot.discord.threads). A game over whose
        thread a moderator locked closes without it: its result still goes to the channel."""
        if table.game is None and not table.open and table.messages.board_id is None:
            return  # a lobby closed before its message could be posted: nobody saw it
        try:
            await self._write_once(table)
        except Closed:
            if table.open or table.parent_id is None:
                raise  # waits for the thread to open again
            await self.threads.close(table)
            return
        final = self.written.get(table.id, -1) >= components.drawn_version(table)
        if not table.open and final and table.parent_id is not None:
            await self.threads.close(table)

    async def _write_once(self, table: Table) -> None:
        """`write`, and again while an interaction's response showed the board during the
        write: what it drew may have reached Discord after that newer board."""
        while True:
            self._writing.add(table.id)
            landed = self._landed[table.id] = asyncio.Event()
            try:
                await self.write(table)
            finally:
                self._writing.discard(table.id)
                landed.set()
            if table.id not in self._raced:
                return
            self._raced.discard(table.id)
            self.outdated(table.id)

    async def write(self, table: Table, notice: Callable[[], str] | None = None) -> None:
        """The board shows the table now: edited, or posted below (with `notice()` as its
        content, always posted below: a fresh board after a restart)."""
        version = components.drawn_version(table)
        drawn = (version, self._redraws.get(table.id, 0))
        buried = table.messages.below > REPOST_AFTER
        shown = 0 <= version <= self.written.get(table.id, -1)
        if notice is None and shown and not buried:
            return  # an interaction response already showed this state
        self.learn_files(table)
        message = attachments.board(table)
        if notice is not None:
            message = replace(message, content=notice())
        pictured = message.picture
        payload = message.json(attachments=False)  # named by _attach or _post
        if table.messages.board_id is not None and not buried and notice is None:
            owner = self.owner(table)
            if owner is not None and owner.token is not None:  # (a usable token: `owner`)
                try:
                    sent = await self.tokens.edit(
                        owner.token,
                        None if owner.original else owner.message_id,
                        payload,
                        self._attach(table, payload, pictured),
                    )
                    return self._done(table, drawn, pictured, sent)
                except discord.HTTPException:
                    pass
            if self.channel.fresh_token(table) is None:  # nothing to post it again with
                if table.reach == INTERACTIONS:  # the next interaction posts it below
                    raise Unreachable(table)
                try:
                    upload = self._attach(table, payload, pictured)
                    sent = await self.channel.request(
                        "PATCH", table, payload, table.messages.board_id, upload
                    )
                    return self._done(table, drawn, pictured, sent)
                except discord.NotFound:
                    pass
                except discord.HTTPException as exc:
                    if exc.code != TOO_OLD_TO_EDIT:
                        raise
        await self._post(table, payload, pictured, fresh=notice is not None)
        self._done(table, drawn)

    def _done(
        self,
        table: Table,
        drawn: tuple[int, int],
        shown: Upload | None = None,
        sent: Mapping[str, Any] | None = None,
    ) -> None:
        """A write landed: it shows `drawn`'s version unless its board was made outdated
        while it was under way (what it drew is outdated: the next write draws it again)."""
        version, redraws = drawn
        if self._redraws.get(table.id, 0) == redraws:
            self.mark_written(table, version)
        named = sent is not None and any(
            attachment.get("filename") == getattr(shown, "filename", None)
            for attachment in sent.get("attachments", [])
        )
        if shown is not None and sent is not None and named:  # remember its picture, to keep
            # it (the answer is read only if the next board shows the same picture; one that
            # does not name it, the older answer that does stays)
            self._pictures[table.id] = (shown.filename, sent, table.messages.board_id)

    def _attach(self, table: Table, payload: dict[str, Any], shown: Upload | None) -> Upload | None:
        """Name the board's attachments in `payload`; the picture to upload, if any.

        A picture this outbox already uploaded to the board message is kept by its id,
        not sent again: an unchanged table uploads nothing new.
        """
        if shown is None:
            payload["attachments"] = []  # a lobby, or pictures turned off: none
            return None
        known = self._pictures.get(table.id)
        if known is not None and known[0] == shown.filename:
            kept = _uploaded(*known, board_id=table.messages.board_id)
            if kept is not None:
                payload["attachments"] = [{"id": kept}]
                return None
        payload["attachments"] = [shown.attachment()]
        return shown

    async def _post(
        self, table: Table, payload: dict[str, Any], shown: Upload | None, *, fresh: bool = False
    ) -> None:
        """The board posted below (a follow-up when a token can carry it); the old one stubbed
        (after a restart, `fresh`, only through a token: an hour-old message is left be)."""
        old_id, old_owner = table.messages.board_id, self._owners.pop(table.id, None)
        if shown is not None:
            payload["attachments"] = [shown.attachment()]
        try:
            sent = await self.channel.follow_up(table, payload, shown)
        except ChannelUnusable:
            if old_owner is not None:
                self._owners[table.id] = old_owner
            raise
        if isinstance(sent, Owned):
            table.messages.board_id = sent.message_id
            self._owners[table.id] = sent
        else:
            table.messages.board_id = sent
        table.messages.below = 0
        await self.store.set_board_message(table.id, table.messages.board_id)
        owner = old_owner if old_owner is not None and old_owner.message_id == old_id else None
        if old_id is not None and (owner is not None or not fresh):
            self.submit(("stub", old_id), lambda: self.stub(table, old_id, owner))
        elif old_id is not None:  # left be until the game ends
            self.sweep_later(table, Owned(old_id, None))

    async def stub(self, table: Table, message_id: int, owner: Owned | None) -> None:
        """An older board becomes the link to the live one (deleted when the game ends: then
        at once, with no edit first, which a closed thread would refuse)."""
        with contextlib.suppress(discord.NotFound):  # deleted meanwhile: nothing to stub
            if table.open:
                stub = components.board_stub(table).json()
                await self.channel.edit(table, owner, message_id, stub)
            self.sweep_later(table, owner or Owned(message_id, None))


def _uploaded(
    filename: str, sent: Mapping[str, Any], written: int | None, *, board_id: int | None
) -> int | None:
    """The id of the attachment `filename` on the board message `board_id`, by Discord's
    answer `sent` to the write that uploaded it (to the message `written` if it does not
    say): none if that was another message (/board may have posted another one since)."""
    message_id = sent.get("id", written)
    if message_id is None or int(message_id) != board_id:
        return None
    for attachment in sent.get("attachments", []):
        if attachment["filename"] == filename:
            return int(attachment["id"])
    return None
