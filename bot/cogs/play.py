"""Turns: /draw, /build, /launch, /scrap, /discard, /hand, /board, and the board's buttons."""

from __future__ import annotations

import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import components, inputs, render
from bot.inputs import parse_cards
from bot.service import ActionResult, StaleBoard, Table, UserError
from engine import Colour, Phase, Size

if TYPE_CHECKING:
    from bot.client import ApophisBot

log = logging.getLogger(__name__)

COLOUR_CHOICES = [app_commands.Choice(name=c.value, value=c.value) for c in Colour]
SIZE_CHOICES = [
    app_commands.Choice(name=f"{s.label} ({int(s)} card{'s' if s > 1 else ''})", value=s.label)
    for s in Size
]
#: Seconds before `/board` may post the same game's board again.
BOARD_REPOST_SECONDS = 10.0
#: The longest `cards` a player may type (far more than a hand: 7 cards fit in 30).
CARDS_LENGTH = 100


def release(interaction: discord.Interaction) -> None:
    """Let an answered interaction be freed at once, without the garbage collector.

    discord.py's Interaction and its InteractionResponse refer to each other, so each
    interaction, with the message, member and components parsed from it (about thirty
    objects), would otherwise be left to the cyclic collector, whose pauses at a few
    hundred interactions a second stop every game at once. Called when we are done
    with it; should anything ask for `interaction.response` later, discord.py makes a
    new one.
    """
    with contextlib.suppress(AttributeError):
        del interaction._cs_response


def clicked_board(interaction: discord.Interaction, table: Table) -> bool:
    """Whether the clicked button is on the game's current board message."""
    message = interaction.message
    return message is not None and message.id == table.board_message_id


def board_link(table: Table) -> str:
    """A link to the live board, in parentheses after a space; "" while it has no message."""
    if table.board_message_id is None:
        return ""
    return (
        f" (https://discord.com/channels/{table.guild_id}/{table.channel_id}/"
        f"{table.board_message_id})"
    )


async def send_reason(interaction: discord.Interaction, message: str) -> None:
    """A short private answer: the first response if none was sent yet, else a follow-up."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id)


class Play(commands.Cog):
    """The four actions, hands and the board."""

    def __init__(self, bot: ApophisBot) -> None:
        self.bot = bot

    @property
    def service(self):
        return self.bot.service

    @property
    def outbox(self):
        return self.bot.outbox

    # ------------------------------------------------------------- commands

    @app_commands.command(description="Draw 2 cards (your turn).")
    @app_commands.guild_only()
    async def draw(self, interaction: discord.Interaction) -> None:
        await self.act_by_command(interaction, {"type": "draw"})

    @app_commands.command(description="Pay cards of one suit to build a rocket section.")
    @app_commands.describe(colour="Which colour (suit) of section", size="How large")
    @app_commands.choices(colour=COLOUR_CHOICES, size=SIZE_CHOICES)
    @app_commands.guild_only()
    async def build(self, interaction: discord.Interaction, colour: str, size: str) -> None:
        await self.act_by_command(interaction, {"type": "build", "colour": colour, "size": size})

    @app_commands.command(description="Add cards to the launch sequence (one per suit).")
    @app_commands.describe(cards="e.g. 7H 2D (or 7♥ 2♦); leave empty to pick from your hand")
    @app_commands.guild_only()
    async def launch(
        self,
        interaction: discord.Interaction,
        cards: app_commands.Range[str, 1, CARDS_LENGTH] | None = None,
    ) -> None:
        await self.play_cards(interaction, "launch", cards)

    @app_commands.command(description="Return the rocket to the depot and discard the sequence.")
    @app_commands.guild_only()
    async def scrap(self, interaction: discord.Interaction) -> None:
        await self.act_by_command(interaction, {"type": "scrap"})

    @app_commands.command(description="Discard down to 5 cards after drawing.")
    @app_commands.describe(cards="e.g. KS 3H; leave empty to pick from your hand")
    @app_commands.guild_only()
    async def discard(
        self,
        interaction: discord.Interaction,
        cards: app_commands.Range[str, 1, CARDS_LENGTH] | None = None,
    ) -> None:
        await self.play_cards(interaction, "discard", cards)

    @app_commands.command(description="Show your hand, privately.")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.show_hand(interaction)

    @app_commands.command(description="Post the game's board again, at the bottom of the channel.")
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction) -> None:
        try:
            table = self.service.table_in(interaction.channel_id)
            if time.monotonic() - table.reposted_at < BOARD_REPOST_SECONDS:
                raise UserError(
                    f"The board was posted a moment ago{board_link(table)}; "
                    "it keeps itself up to date."
                )
        except UserError as exc:
            await send_reason(interaction, str(exc))
            return
        table.reposted_at = time.monotonic()
        version = table.version
        response = await interaction.response.send_message(**components.board_message(table))
        message_id = getattr(response.resource, "id", None)
        if message_id is not None:
            table.board_message_id = message_id
            await self.service.store.set_board_message(table.id, message_id)
            self.outbox.board_written(table, version, interaction)

    # --------------------------------------------------------------- helpers

    async def play_cards(
        self, interaction: discord.Interaction, action: str, cards: str | None
    ) -> None:
        """/launch or /discard: the typed cards, or a picker when none were typed."""
        if cards is None:
            await self.offer_picker(interaction, action)
            return
        try:
            chosen = parse_cards(cards)
        except UserError as exc:
            await send_reason(interaction, str(exc))
            return
        await self.act_by_command(interaction, {"type": action, "cards": chosen})

    async def act_by_command(self, interaction: discord.Interaction, action: dict) -> None:
        """A slash command's action: the reply tells the channel, the board follows."""
        try:
            result = await self.service.act(interaction.channel_id, interaction.user.id, action)
        except UserError as exc:
            await send_reason(interaction, str(exc))
            return
        await interaction.response.send_message(
            **self.public_reply(result), allowed_mentions=discord.AllowedMentions.none()
        )

    def public_reply(self, result: ActionResult) -> dict[str, Any]:
        if result.launched:
            return components.launch_report(result.table, result.lines)
        return {"content": "\n".join(result.lines)[:2000] or "Done."}

    async def show_hand(self, interaction: discord.Interaction) -> None:
        try:
            table = self.service.table_in(interaction.channel_id)
            hand = self.hand_of(table, interaction.user.id)
        except UserError as exc:
            await send_reason(interaction, str(exc))
            return
        await interaction.response.send_message(
            f"**Your hand** ({len(hand)} cards)\n{render.hand_text(hand)}", ephemeral=True
        )

    def hand_of(self, table: Table, user_id: int) -> tuple[str, ...]:
        game = table.game
        if game is None:
            raise UserError("The game has not started yet: no cards have been dealt.")
        if user_id not in game.players:
            raise UserError("You are not playing in this game, so you have no hand.")
        return game.view_for(user_id).hand

    async def offer_picker(self, interaction: discord.Interaction, action: str) -> None:
        """A private select menu for building, launching or discarding."""
        try:
            table = self.service.table_in(interaction.channel_id)
            hand = self.hand_of(table, interaction.user.id)
            game = table.game
            if game.active_player != interaction.user.id:
                raise UserError("It is not your turn.")
            if action == "discard" and game.phase is not Phase.DISCARD:
                raise UserError("You have no cards to discard right now.")
            if action != "discard" and game.phase is not Phase.PLAY:
                raise UserError(_waiting_reason(game.phase))
            if action == "build":
                picker = components.build_picker(table, hand)
                nothing = "Nothing can be built: no section you can pay for fits on the rocket."
            else:
                picker = components.card_picker(table, hand, action)
                nothing = "You have no card that can go into the launch sequence."
            if picker is None:
                raise UserError(nothing)
        except UserError as exc:
            await send_reason(interaction, str(exc))
            return
        await interaction.response.send_message(**picker, ephemeral=True)

    # ------------------------------------------------------------ components

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every click on one of our buttons or pickers, found by its custom id."""
        if interaction.type is not discord.InteractionType.component or not interaction.data:
            return
        try:
            click = inputs.read_click(interaction.data)
        except UserError as exc:
            await send_reason(interaction, str(exc))
        else:
            await self.on_component(
                interaction, click.game, click.version, click.action, click.values
            )
        finally:
            release(interaction)

    async def on_component(
        self,
        interaction: discord.Interaction,
        game_id: int,
        version: int,
        action: str,
        values: list[str] | None,
    ) -> None:
        """Every button (values None) and picker choice arrives here."""
        table = self.service.tables.get(game_id)
        try:
            if table is None:
                raise UserError("This game is over; its buttons no longer work.")
            if table.channel_id != interaction.channel_id:
                raise UserError("That belongs to another channel's game, not to this one.")
            if values is None:
                await self.on_button(interaction, table, version, action)
            else:
                await self.on_pick(interaction, version, action, values)
        except UserError as exc:
            await send_reason(interaction, str(exc))
        except Exception as exc:
            kind = "button" if values is None else "picker"
            await self.bot.apologise(interaction, f"{kind} {action!r} of game {game_id}", exc)

    async def on_button(
        self, interaction: discord.Interaction, table: Table, version: int, action: str
    ) -> None:
        """A click on a lobby, board or launch-report button."""
        if action in ("join", "leave", "start"):
            if table.status != "lobby":
                raise UserError(
                    "The game has started: the lobby's buttons no longer work. "
                    "Play on the board; `/apophis leave` leaves the game."
                )
            await self.bot.get_cog("Apophis").lobby_button(interaction, table, action)
        elif action == "hand":
            await self.show_hand(interaction)
        elif action in ("build", "launch", "discard"):
            if version != table.version:
                await self.refresh_stale(interaction, table)
            else:
                await self.offer_picker(interaction, action)
        else:  # the other actions (inputs.ACTIONS)
            await self.act_by_button(interaction, table, version, {"type": action})

    async def on_pick(
        self, interaction: discord.Interaction, version: int, action: str, values: list[str]
    ) -> None:
        """A choice in a private picker (of this channel's game): build, launch or discard."""
        move = inputs.picked_move(action, values)
        try:
            result = await self.service.act(
                interaction.channel_id, interaction.user.id, move, expected_version=version
            )
        except StaleBoard:
            await interaction.response.edit_message(
                content="The game moved on since this menu was opened; open it again.", view=None
            )
            return
        except UserError as exc:
            await send_reason(interaction, str(exc))
            return
        await interaction.response.edit_message(
            content="\n".join(result.lines)[:2000] or "Done.", view=None
        )
        if result.launched:
            await interaction.followup.send(
                **components.launch_report(result.table, result.lines),
                allowed_mentions=discord.AllowedMentions.none(),
            )

    async def act_by_button(
        self, interaction: discord.Interaction, table: Table, version: int, action: dict
    ) -> None:
        """A board or launch-report button: the clicked message is updated in the reply."""
        on_board = clicked_board(interaction, table)
        try:
            result = await self.service.act(
                interaction.channel_id, interaction.user.id, action, expected_version=version
            )
        except StaleBoard:
            await self.refresh_stale(interaction, table)
            return
        except UserError as exc:
            await send_reason(interaction, str(exc))
            return
        if action["type"] in ("reroll", "accept") and not on_board:
            # The launch report: continue its story.
            before = interaction.message.embeds[0].description if interaction.message else ""
            lines = [*(before or "").split("\n"), *result.lines]
            await interaction.response.edit_message(**components.launch_report(table, lines))
            return
        if on_board:
            shown = table.version
            await interaction.response.edit_message(**components.board_message(table))
            self.outbox.board_written(table, shown, interaction)
        else:  # an older board (before /board or a restart): left as it was
            note = f"(That board was replaced by a newer one{board_link(table)}.)"
            told = "\n".join(result.lines)[: 1990 - len(note)]
            await interaction.response.send_message(f"{told}\n{note}", ephemeral=True)
        if result.launched:
            await interaction.followup.send(
                **components.launch_report(table, result.lines),
                allowed_mentions=discord.AllowedMentions.none(),
            )

    async def refresh_stale(self, interaction: discord.Interaction, table: Table) -> None:
        """An outdated button: show the current board in its place and say why."""
        if clicked_board(interaction, table):
            shown = table.version
            await interaction.response.edit_message(**components.board_message(table))
            self.outbox.board_written(table, shown, interaction)
            await interaction.followup.send(str(StaleBoard(table)), ephemeral=True)
        else:
            await send_reason(
                interaction,
                "That button belongs to an older message: the game has moved on since. "
                "Use the board (or `/board`) for the current state.",
            )


def _waiting_reason(phase: Phase) -> str:
    return {
        Phase.DISCARD: "First discard down to 5 cards.",
        Phase.RESHUFFLE: "The deck is being reshuffled; wait a few seconds.",
        Phase.REROLL: "First decide whether to reroll the failed die or accept it.",
        Phase.OVER: "This game is over.",
    }.get(phase, "You cannot do that now.")


async def setup(bot: ApophisBot) -> None:
    await bot.add_cog(Play(bot))
