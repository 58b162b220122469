"""/apophis history and /apophis replay: the last games of a server or a conversation (a DM,
a group DM), and any game its caller may see (bot.game.ledger.visible) played again.

`Replays` is a base of the /apophis group's cog (bot.discord.cogs.apophis): discord.py
gathers a cog's commands from all its bases. The replay's ◀ ▶ buttons come through the
Play cog, which routes every click by its custom id, to `Replays.replay_step`.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.discord import embeds, inputs
from bot.discord.answers import caller_of, speaks
from bot.discord.clicked import clicked_message
from bot.discord.cogs import Part
from bot.errors import UserError
from bot.game.ledger import place_of
from bot.pictures import replay as animation
from bot.views import history
from bot.views.history import Replay

if TYPE_CHECKING:
    from bot.discord.client import ApophisBot
    from bot.game.clicks import Click
    from bot.store.records import GameRecord

log = logging.getLogger(__name__)

#: The largest game number Discord lets a client type (its integers are 53-bit).
LARGEST_NUMBER = 2**53 - 1
NO_MENTIONS = discord.AllowedMentions.none()
#: Replays kept once drawn, by game and language: asked again, one is sent at once.
KEPT_REPLAYS = 8
#: Ended games kept played again, for their ◀ ▶ (and their GIF if asked again), by the
#: moves they hold together, the latest used kept: a move is some 1.1 KB (the public view
#: after it and its events), so about 11 MB. A game longer than that is kept alone.
KEPT_MOVES = 10_000


@dataclass
class _Played:
    """An ended game played again (`moves` None: not one that can be: the record says why,
    or its log no longer plays out), and its replay told in each language asked."""

    record: GameRecord
    moves: tuple[history.Move, ...] | None
    told: dict[str, history.Replay] = field(default_factory=dict)

    def replay(self, language: str) -> history.Replay:
        assert self.moves is not None
        found = self.told.get(language)
        if found is None:
            found = self.told[language] = history.told(self.record, self.moves, language)
        return found


@dataclass
class _Desk:
    """Where replays are made: one GIF drawn at a time for each place (a server, a DM or a
    group DM), the latest few kept, and the games played again kept, each played again
    once however many ask at once."""

    drawing: set[int] = field(default_factory=set)
    kept: OrderedDict[tuple[int, str], bytes] = field(default_factory=OrderedDict)
    played: OrderedDict[int, _Played] = field(default_factory=OrderedDict)
    played_moves: int = 0
    playing: dict[int, asyncio.Task[_Played]] = field(default_factory=dict)

    def keep(self, key: tuple[int, str], gif: bytes) -> None:
        self.kept[key] = gif
        while len(self.kept) > KEPT_REPLAYS:
            self.kept.popitem(last=False)

    def keep_played(self, number: int, done: asyncio.Task[_Played]) -> None:
        """Game `number` has been played again (or could not be): kept if it has a replay."""
        del self.playing[number]
        if done.cancelled() or done.exception() is not None or done.result().moves is None:
            return
        played = self.played[number] = done.result()
        self.played_moves += len(played.moves or ())
        while self.played_moves > KEPT_MOVES and len(self.played) > 1:
            _, forgotten = self.played.popitem(last=False)
            self.played_moves -= len(forgotten.moves or ())


class Replays(Part):
    """The /apophis commands about ended games, and the replay's buttons."""

    bot: ApophisBot  # the cog's (bot.discord.cogs.apophis)

    @property
    def desk(self) -> _Desk:
        """This cog's replays being drawn and kept (made when first needed)."""
        return self.__dict__.setdefault("_replay_desk", _Desk())

    @app_commands.command(description="The last 10 games of this server or conversation.")
    async def history(self, interaction: discord.Interaction[ApophisBot]) -> None:
        caller = caller_of(interaction)
        records = await self.bot.service.ledger.recent_games(caller, history.GAMES)
        embed = embeds.embed(history.history_embed(records, place_of(caller), speaks(interaction)))
        await interaction.response.send_message(embed=embed, allowed_mentions=NO_MENTIONS)

    @app_commands.command(description="Watch an ended game again, move by move.")
    @app_commands.describe(game="The game's number, as /apophis history lists it")
    async def replay(
        self,
        interaction: discord.Interaction[ApophisBot],
        game: app_commands.Range[int, 1, LARGEST_NUMBER],
    ) -> None:
        caller = caller_of(interaction)
        await self.bot.service.ledger.seen_game(game, caller)  # refused unless theirs to see
        desk, place = self.desk, caller.guild_id or caller.channel_id
        key = (game, speaks(interaction))
        gif = desk.kept.get(key)  # sent at once, even while another replay is drawn
        drawer = gif is None
        if drawer:
            # One replay drawn at a time for each place: its turn is taken here, with
            # nothing awaited since the kept replays were looked at, so of those asking at
            # the same moment one draws and the others are told it is being drawn.
            if place in desk.drawing:
                raise UserError("replay.error.busy")
            desk.drawing.add(place)
        try:
            played = await self.replayed(interaction, game)
            await interaction.response.defer(thinking=True)
            if gif is None:
                gif = await self.draw(played)
                desk.keep(key, gif)
        finally:
            if drawer:
                desk.drawing.discard(place)
        message = history.animation_message(played, gif)
        await interaction.followup.send(
            **embeds.kwargs(message, new=True), allowed_mentions=NO_MENTIONS
        )

    async def draw(self, played: Replay) -> bytes:
        """The replay's GIF: every move's picture, or for the longest games
        `animation.FRAMES` of them, the first and the last, drawn between the games' other
        work (the board pictures' caches are the event loop's), written aside (a thread:
        touches no shared cache); again with fewer while it weighs more than
        `animation.GIF_LIMIT`."""
        started, tries = time.perf_counter(), 0
        shown: int | None = animation.FRAMES
        while shown is not None:
            frames, tries = [], tries + 1
            for frame in history.frames(played, shown):
                frames.append(frame)
                await asyncio.sleep(0)  # a frame at a time: the games in play go on meanwhile
            gif = await asyncio.to_thread(animation.animate, frames)
            shown = animation.fewer(played.steps + 1, shown, len(gif))
        log.info(
            "game %s replayed: %d moves, %d pictures, %d bytes in %.2f s (%d tries)",
            played.record.id,
            played.steps,
            len(frames),
            len(gif),
            time.perf_counter() - started,
            tries,
        )
        return gif

    async def replay_step(self, interaction: discord.Interaction[ApophisBot], click: Click) -> None:
        """◀ or ▶ on a replay: the message shows the step its custom id carries. Whoever
        sees the message may step through it: it came from a public message carrying that
        game's replay, posted where someone who could see the game asked for it."""
        problem = inputs.source_problem(
            click, clicked_message(interaction), interaction.user.id, None
        )
        if problem is not None:  # a forged click: refused before anything is edited
            raise problem
        played = await self.replayed(interaction, click.game)
        if not 0 <= click.version <= played.steps:
            raise UserError("replay.error.no_step")
        message = history.step_message(played, click.version)
        await interaction.response.edit_message(**embeds.kwargs(message))

    async def replayed(self, interaction: discord.Interaction[ApophisBot], number: int) -> Replay:
        """Game `number` played again, in the reader's language; UserError unless it
        started and has ended (whether they may see it is the caller's to check)."""
        played = await self.played_again(number)
        history.check_replayable(played.record)
        if played.moves is None:
            raise UserError("replay.error.unreplayable", id=number)
        return played.replay(speaks(interaction))

    async def played_again(self, number: int) -> _Played:
        """Game `number` played again, as kept (the latest used are); else read and played
        again once, in a thread, for all who ask meanwhile (a burst of ◀ ▶ after a restart
        plays it once). UserError if there is no such game."""
        desk = self.desk
        played = desk.played.get(number)
        if played is not None:
            desk.played.move_to_end(number)
            return played
        playing = desk.playing.get(number)
        if playing is None:
            playing = desk.playing[number] = asyncio.create_task(self._play_again(number))
            playing.add_done_callback(functools.partial(desk.keep_played, number))
        return await asyncio.shield(playing)  # one asker given up stops it for none

    async def _play_again(self, number: int) -> _Played:
        record, actions = await self.bot.service.ledger.game(number)
        if not history.ended(record):
            return _Played(record, None)
        # The engine on a game of its own, from a record and log read for it alone.
        moves = await asyncio.to_thread(history.play_again, record, actions)
        return _Played(record, moves)
