"""Turns: /draw, /build, /launch, /scrap, /discard, /hand, /hint, /board, and buttons."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import embeds, inputs
from bot.discord.access import UNKNOWN_INTERACTION
from bot.discord.answers import (
    anywhere,
    caller_of,
    clicked_board,
    release,
    send_reason,
    speaks,
)
from bot.discord.boundary import answer_error
from bot.discord.clicked import clicked_message
from bot.discord.cogs.apophis import Apophis
from bot.discord.inputs import parse_cards
from bot.errors import StaleBoard, UserError
from bot.game import announce, plays
from bot.game.clicks import LOBBY_COMMANDS, Click, command_of, configure, picked, read_click
from bot.game.commands import Command, Join, Move, Outcome
from bot.game.replies import reply
from bot.i18n.catalogs import t
from bot.table import Table
from bot.views import attachments, components, hints, panel, render
from engine import Colour, Size

if TYPE_CHECKING:
    from bot.discord.client import ApophisBot
    from bot.discord.outbox import Outbox
    from bot.game.service import GameService

log = logging.getLogger(__name__)

COLOUR_CHOICES = [
    app_commands.Choice(name=t("en", f"choice.{c.value}"), value=c.value) for c in Colour
]
SIZE_CHOICES = [app_commands.Choice(name=t("en", f"choice.{s.label}"), value=s.label) for s in Size]
#: The board buttons that open the clicker's hand panel (My hand, Build…, Launch…, Discard…).
PANEL_OPENERS = frozenset(("hand", "build", "launch", "discard"))
#: Seconds before `/board` may post the same game's board again.
BOARD_REPOST_SECONDS = 10.0
#: The longest `cards` a player may type (far more than a hand: 7 cards fit in 30).
CARDS_LENGTH = 100


def board_link(table: Table) -> str:
    """A link to the live board, in parentheses after a space; "" while it has no message."""
    if table.messages.board_id is None:
        return ""
    return f" ({render.message_link(table.guild_id, table.channel_id, table.messages.board_id)})"


class Play(commands.Cog):
    """The four actions, hands and the board; every click, routed by its custom id (the
    lobby's, its settings', a replay's, the live table's and Play again answered by the
    /apophis group's cog, `apophis`)."""

    def __init__(self, bot: ApophisBot, apophis: Apophis) -> None:
        self.bot = bot
        self.apophis = apophis

    @property
    def service(self) -> GameService:
        return self.bot.service

    @property
    def outbox(self) -> Outbox:
        return self.bot.outbox

    # ------------------------------------------------------------- commands

    @app_commands.command(description="Draw 2 cards (your turn).")
    @anywhere
    async def draw(self, interaction: discord.Interaction[ApophisBot]) -> None:
        await self.act_by_command(interaction, {"type": "draw"})

    @app_commands.command(description="Pay cards of one suit to build a rocket section.")
    @app_commands.describe(colour="Which colour (suit) of section", size="How large")
    @app_commands.choices(colour=COLOUR_CHOICES, size=SIZE_CHOICES)
    @anywhere
    async def build(
        self, interaction: discord.Interaction[ApophisBot], colour: str, size: str
    ) -> None:
        await self.act_by_command(interaction, {"type": "build", "colour": colour, "size": size})

    @app_commands.command(description="Add cards to the launch sequence (one per suit).")
    @app_commands.describe(cards="e.g. 7H 2D (or 7♥ 2♦); leave empty to pick from your hand")
    @anywhere
    async def launch(
        self,
        interaction: discord.Interaction[ApophisBot],
        cards: app_commands.Range[str, 1, CARDS_LENGTH] | None = None,
    ) -> None:
        await self.play_cards(interaction, "launch", cards)

    @app_commands.command(description="Return the rocket to the depot and discard the sequence.")
    @anywhere
    async def scrap(self, interaction: discord.Interaction[ApophisBot]) -> None:
        await self.act_by_command(interaction, {"type": "scrap"})

    @app_commands.command(description="Discard down to 5 cards after drawing.")
    @app_commands.describe(cards="e.g. KS 3H; leave empty to pick from your hand")
    @anywhere
    async def discard(
        self,
        interaction: discord.Interaction[ApophisBot],
        cards: app_commands.Range[str, 1, CARDS_LENGTH] | None = None,
    ) -> None:
        await self.play_cards(interaction, "discard", cards)

    @app_commands.command(description="Show your hand, privately.")
    @anywhere
    async def hand(self, interaction: discord.Interaction[ApophisBot]) -> None:
        await self.show_hand(interaction)

    @app_commands.command(description="What an AI crewmate would do now in your place, privately.")
    @anywhere
    async def hint(self, interaction: discord.Interaction[ApophisBot]) -> None:
        table = self.service.table_in(channel_of(interaction))
        plays.check_player(table, interaction.user.id)
        line = hints.hint_line(table, interaction.user.id, table.runtime.now(), speaks(interaction))
        await interaction.response.send_message(line, ephemeral=True)

    @app_commands.command(description="Post the game's board again, at the bottom of the channel.")
    @anywhere
    async def board(self, interaction: discord.Interaction[ApophisBot]) -> None:
        table = self.service.table_in(channel_of(interaction))
        if time.monotonic() - table.messages.reposted_at < BOARD_REPOST_SECONDS:
            raise UserError("error.board_just_posted", link=board_link(table))
        table.messages.reposted_at = time.monotonic()
        version, old = components.drawn_version(table), table.messages.board_id
        response = await interaction.response.send_message(
            **embeds.kwargs(attachments.board(table), new=True)
        )
        message_id = getattr(response.resource, "id", None)
        if message_id is not None:
            shown = (message_id, version)
            moved = partial(self.outbox.board_moved, table, old, interaction, shown)
            await self.service.board_posted(table, message_id, then=moved)

    # --------------------------------------------------------------- helpers

    async def play_cards(
        self, interaction: discord.Interaction[ApophisBot], action: str, cards: str | None
    ) -> None:
        """/launch or /discard: the typed cards, or the panel to choose them when none were."""
        if cards is None:
            await self.show_hand(interaction)
            return
        await self.act_by_command(interaction, {"type": action, "cards": parse_cards(cards)})

    async def act_by_command(
        self, interaction: discord.Interaction[ApophisBot], action: dict[str, Any]
    ) -> None:
        """A slash command's action: answered privately with the panel; the board follows."""
        outcome = await self.service.run(caller_of(interaction), Move(action))
        table = outcome.table
        note = self.note_of(interaction, outcome)
        await self.report_move(
            interaction, table, note, lambda: self.answer_with_panel(interaction, table, note)
        )

    @staticmethod
    def note_of(interaction: discord.Interaction[ApophisBot], outcome: Outcome) -> str:
        """What the move just made did, told to its player."""
        return reply(outcome, interaction.user.id, speaks(interaction))

    async def report_move(
        self,
        interaction: discord.Interaction[ApophisBot],
        table: Table,
        note: str | None,
        answer: Callable[[], Awaitable[None]],
    ) -> None:
        """Answer a move that was just saved with `answer()`; if that fails (the board in a
        thread a moderator locked, say), with the player's panel and the move's `note`.

        A move saved is a move reported as made: what fails now is logged, never answered
        as an error (which would have the player try again, and play a second move). Only
        an answer too late for Discord goes to the boundary, which says so in the log."""
        try:
            await answer()
            return
        except discord.HTTPException as exc:
            if exc.code == UNKNOWN_INTERACTION:
                raise
            log.warning("game %d: the answer to a move failed (%s); told privately", table.id, exc)
        except Exception:
            log.exception("game %d: the answer to a move failed; told privately", table.id)
        if interaction.response.is_done():
            return  # answered already: the board follows the move
        try:
            await self.answer_with_panel(interaction, table, note)
        except discord.HTTPException as exc:
            log.warning("game %d: the move's panel could not be sent either: %s", table.id, exc)

    async def answer_with_panel(
        self,
        interaction: discord.Interaction[ApophisBot],
        table: Table,
        note: str | None = None,
        *,
        update: bool = False,
        chosen: tuple[str, ...] = (),
    ) -> None:
        """Answer with the player's panel: a new private message, or the clicked panel updated
        (`chosen`: the cards picked so far for a discard)."""
        shown = table.version
        language = speaks(interaction)
        message = panel.panel_message(table, interaction.user.id, language, note, chosen=chosen)
        await self.outbox.tokens.respond(interaction, message.json(new=not update), update=update)
        self.outbox.answered(table, interaction, panel_of=(interaction.user.id, shown))

    async def show_hand(
        self, interaction: discord.Interaction[ApophisBot], note: str | None = None
    ) -> None:
        """/hand, My hand, Build…, Launch…, Discard…: the player's panel, privately."""
        table = self.service.table_in(channel_of(interaction))
        plays.check_player(table, interaction.user.id)
        await self.answer_with_panel(interaction, table, note)

    # ------------------------------------------------------------ components

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[ApophisBot]) -> None:
        """Every interaction: its user was there (the autopilot counts from it, and gives
        them their seat back). Every click on one of our buttons or selects, found by its
        custom id."""
        self.service.seen(channel_of(interaction), interaction.user.id)
        if interaction.type is not discord.InteractionType.component or not interaction.data:
            return
        click = None
        try:
            self.bot.audience.seen(interaction)
            self.bot.gatekeeper.seen(interaction)
            click = read_click(interaction.data)
            await self.on_component(interaction, click)
        except Exception as exc:  # the one boundary of every click
            kind = "click" if click is None else "button" if click.values is None else "select"
            what = kind if click is None else f"{kind} {click.action!r} of game {click.game}"
            await answer_error(interaction, what, exc)
        finally:
            release(interaction)

    async def on_component(
        self, interaction: discord.Interaction[ApophisBot], click: Click
    ) -> None:
        """Every button and select arrives here."""
        table = self.service.tables.get(click.game)
        if click.kind == "r":  # a replay's ◀ ▶: an ended game, not a table in play
            await self.apophis.replay_step(interaction, click)
            return
        if click.kind == "u":  # the rules' menu: no game in it
            await self.apophis.rules_part(interaction, click)
            return
        if click.action == "again":  # a final board's: its game has ended, not kept here
            await self.apophis.play_again(interaction, click)
            return
        if click.action == "table":  # the channel's live table, its game in play or not
            await self.apophis.table_button(interaction, click)
            return
        if table is None:
            await self.on_ended(interaction, click)
            return
        if table.channel_id != interaction.channel_id:
            raise UserError("error.other_channel")
        problem = inputs.source_problem(
            click, clicked_message(interaction), interaction.user.id, table.messages.board_id
        )
        if problem is not None:  # a forged click: refused before anything is edited
            raise problem
        if click.kind == "l":  # a launch report's Reroll or Accept
            await self.act_by_button(interaction, table, command_of(click))
        elif click.kind == "b":
            await self.on_button(interaction, table, click)
        elif click.kind == "s":
            await self.on_setting(interaction, table, click)
        elif click.kind == "q":
            await self.apophis.leave_answered(interaction, click)
        else:
            await self.on_panel(interaction, table, click)

    async def on_ended(self, interaction: discord.Interaction[ApophisBot], click: Click) -> None:
        """A click on a game no longer played here: its board, if the click is on it, shows
        how the game ended (where the game is reached through interactions alone, nothing
        else could redraw it: its clock may have run out while nobody clicked); anyone is
        told the buttons are over; its Details answer privately with the whole story."""
        ended = await self.service.ledger.ended_table(click.game)
        message = interaction.message
        if (
            ended is None
            or message is None
            or click.kind != "b"
            or ended.channel_id != interaction.channel_id
            or message.id != ended.messages.board_id
        ):
            raise UserError("error.buttons_over")
        if click.action == "details":  # the final board's: the whole story, privately,
            ended.language, ended.cards = await self.service.audience.table(ended)
            kept = self.service.registry.ended_recent.get(ended.id)
            if kept is None:  # (ended before this process started: told again from its log)
                announce.tell_recent(ended, ended.history)
            else:
                ended.recent.extend(kept)
            details = embeds.kwargs(components.board_details(ended), new=True)
            await interaction.response.send_message(ephemeral=True, **details)
            return
        await interaction.response.edit_message(**embeds.kwargs(attachments.board(ended)))

    async def on_button(
        self, interaction: discord.Interaction[ApophisBot], table: Table, click: Click
    ) -> None:
        """A click on a lobby or board button."""
        action = click.action
        if on_old_board(interaction, table):
            await self.on_old_board(interaction, table, action)
        elif action == "rules":
            await self.apophis.show_rules(interaction)
        elif action == "details":  # the whole table in words, privately
            details = embeds.kwargs(components.board_details(table), new=True)
            await interaction.response.send_message(ephemeral=True, **details)
        elif action in PANEL_OPENERS:
            await self.show_hand(interaction)
        elif isinstance(command := command_of(click), LOBBY_COMMANDS):
            if table.status != "lobby" and not isinstance(command, Join):  # Join: a drop-in
                raise UserError("error.lobby_buttons_over")
            await self.apophis.lobby_button(interaction, table, click)
        else:
            await self.act_by_button(interaction, table, command)

    async def on_setting(
        self, interaction: discord.Interaction[ApophisBot], table: Table, click: Click
    ) -> None:
        """A lobby's rules, difficulty or countdown chosen on its message: the host's choice
        redraws the lobby in the reply; anyone else is told privately that only the host
        may. On a lobby a newer one replaced, nothing changes: it becomes the link."""
        if on_old_board(interaction, table):
            await interaction.response.edit_message(**embeds.kwargs(components.board_stub(table)))
            return
        await self.service.run(caller_of(interaction), configure(click))
        await self.apophis.show_clicked_lobby(interaction, table)

    async def on_old_board(
        self, interaction: discord.Interaction[ApophisBot], table: Table, action: str
    ) -> None:
        """A click on a board a newer one replaced (the one from before a restart, or one
        buried below): that board becomes the one-line link to the live one, whatever was
        clicked. What only shows something privately is still shown (the clicker's panel,
        with that link; the rules); a move is not played: the clicker sees the board turn
        into the link, and plays on the live board."""
        if action in PANEL_OPENERS or action == "rules":
            # the old board becomes the link whatever the answer (a bystander is refused)
            board_id = table.messages.board_id
            # an old board: a newer one is live (`on_old_board`)
            assert interaction.message is not None and board_id is not None
            self.outbox.old_board_clicked(table, interaction.message.id)
            if action == "rules":
                await self.apophis.show_rules(interaction)
            else:
                link = render.message_link(table.guild_id, table.channel_id, board_id)
                await self.show_hand(
                    interaction, t(speaks(interaction), "note.old_board", link=link)
                )
        else:
            await interaction.response.edit_message(**embeds.kwargs(components.board_stub(table)))

    async def on_panel(
        self, interaction: discord.Interaction[ApophisBot], table: Table, click: Click
    ) -> None:
        """A click on a hand panel: the panel itself is updated with what happened."""
        plays.check_player(table, interaction.user.id)
        if click.action == "refresh":
            await self.answer_with_panel(interaction, table, update=True)
            return
        if click.action == "pick":  # a discard's card chosen or not: the panel redrawn
            await self.pick(interaction, table, click)
            return
        caller = caller_of(interaction)
        version = table.version
        note = await plays.play(self.service, caller, table, click, speaks(interaction))
        if table.version == version:  # nothing saved: what fails is an error like any other
            await self.answer_with_panel(interaction, table, note, update=True)
            return
        await self.report_move(
            interaction,
            table,
            note,
            lambda: self.answer_with_panel(interaction, table, note, update=True),
        )

    async def pick(
        self, interaction: discord.Interaction[ApophisBot], table: Table, click: Click
    ) -> None:
        """A card of a discard pressed: the panel redrawn with the cards now chosen (on a
        panel the game moved on from, the panel as it is now, and why)."""
        game = table.started_game
        if click.version != table.version:
            note = t(speaks(interaction), "note.moved_on")
            await self.answer_with_panel(interaction, table, note, update=True)
            return
        chosen = picked(click, game.view_for(interaction.user.id).hand)
        await self.answer_with_panel(interaction, table, update=True, chosen=chosen)

    async def act_by_button(
        self, interaction: discord.Interaction[ApophisBot], table: Table, move: Command | None
    ) -> None:
        """A board or launch-report button's move (`command_of` its click): the clicked
        message is updated in the reply."""
        if not isinstance(move, Move):  # a board button of no move we know (never offered)
            raise UserError("error.unknown_button")
        board = clicked_board(interaction, table)
        try:
            outcome = await self.service.run(caller_of(interaction), move)
        except StaleBoard as stale:
            await self.refresh_stale(interaction, table, stale)
            return
        note = self.note_of(interaction, outcome)
        await self.report_move(
            interaction, table, note, lambda: self.show_move(interaction, table, board, note)
        )

    async def show_move(
        self,
        interaction: discord.Interaction[ApophisBot],
        table: Table,
        board: int | None,
        note: str,
    ) -> None:
        """The clicked board (`board`, its message) or launch report, updated with the move
        the click made; on the board, the presser's panel follows privately, with `note`
        (what the move did) and their hand."""
        if board is not None:
            shown = components.drawn_version(table)
            await interaction.response.edit_message(**embeds.kwargs(attachments.board(table)))
            user = interaction.user.id
            if table.game is None or user not in table.game.players:  # (no longer seated)
                self.outbox.answered(table, interaction, board=(board, shown))
                return
            mine = panel.panel_message(table, user, speaks(interaction), note)
            await self.outbox.follow_with_panel(table, interaction, mine, board=(board, shown))
        elif table.report is not None:  # the launch report: the same report, continued
            report = table.report
            await interaction.response.edit_message(
                **embeds.kwargs(attachments.report(table, report))
            )
            self.outbox.answered(table, interaction, report=report)
        else:
            await interaction.response.defer()
            self.outbox.answered(table, interaction)

    async def refresh_stale(
        self, interaction: discord.Interaction[ApophisBot], table: Table, stale: StaleBoard
    ) -> None:
        """An outdated button: show the current board (or report) in its place and say why
        (`stale`: a double click, a click out of turn, or an older board)."""
        board = clicked_board(interaction, table)
        if board is not None:
            shown = components.drawn_version(table)
            await interaction.response.edit_message(**embeds.kwargs(attachments.board(table)))
            self.outbox.answered(table, interaction, board=(board, shown))
            await interaction.followup.send(stale.text(speaks(interaction)), ephemeral=True)
        else:
            await send_reason(interaction, UserError("error.stale_message"))


def channel_of(interaction: discord.Interaction[ApophisBot]) -> int:
    """The channel (a thread, a DM) an interaction came from; 0 for none, where no game is."""
    return interaction.channel_id or 0


def on_old_board(interaction: discord.Interaction[ApophisBot], table: Table) -> bool:
    """Whether the click is on a board message that a newer board replaced (none is older
    while the live board is being posted again, after a restart)."""
    message = interaction.message
    return message is not None and table.messages.board_id not in (None, message.id)


async def setup(bot: ApophisBot) -> None:
    """Both cogs: Play, then the /apophis group's, to which it hands the clicks it answers."""
    apophis = Apophis(bot)
    await bot.add_cog(Play(bot, apophis))
    await bot.add_cog(apophis)
