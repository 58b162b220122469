"""Messages with buttons and pickers: the board, the lobby, the launch report.

Every component is persistent: its custom_id carries the game id, the state version
it was drawn for and what it does, so it keeps working after a restart and a click on
an older board is recognised. Clicks are handed to the Play cog (`client.play`).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import discord

from bot import render
from engine import HAND_LIMIT, Colour, Phase, Size, card_label, colour_of

if TYPE_CHECKING:
    from bot.service import Table

#: Custom id prefixes; the rest is "<game id>:<version>:<action>".
BUTTON_TEMPLATE = r"apo:b:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<action>[a-z]+)"
PICKER_TEMPLATE = r"apo:p:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<action>[a-z]+)"


class BoardButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    """A button on the lobby, board or launch report."""

    def __init__(
        self,
        game_id: int,
        version: int,
        action: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                row=row,
                custom_id=f"apo:b:{game_id}:{version}:{action}",
            )
        )
        self.game_id, self.version, self.action = game_id, version, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any
    ) -> BoardButton:
        return cls(int(match["game"]), int(match["version"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.client.play.on_component(  # type: ignore[attr-defined]
            interaction, self.game_id, self.version, self.action, None
        )


class Picker(discord.ui.DynamicItem[discord.ui.Select], template=PICKER_TEMPLATE):
    """A select menu offered privately: what to build, which cards to launch or discard."""

    def __init__(
        self,
        game_id: int,
        version: int,
        action: str,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        min_values: int = 1,
        max_values: int = 1,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"apo:p:{game_id}:{version}:{action}",
                options=options or [],
                placeholder=placeholder,
                min_values=min_values,
                max_values=max_values,
            )
        )
        self.game_id, self.version, self.action = game_id, version, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: Any
    ) -> Picker:
        return cls(int(match["game"]), int(match["version"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.client.play.on_component(  # type: ignore[attr-defined]
            interaction, self.game_id, self.version, self.action, self.item.values
        )


def _view(*items: discord.ui.Item) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def _private_view(*items: discord.ui.Item) -> discord.ui.View:
    """A view for an ephemeral message, which discord.py is told not to keep.

    discord.py keeps the view of every ephemeral reply for 15 minutes, each with a
    timeout task; at a few pickers a second that is tens of thousands of views alive,
    and long garbage-collection pauses. Our items are dynamic (found by their custom id
    pattern), so nothing needs the stored view: a stopped view is sent but not kept.
    """
    view = _view(*items)
    view.stop()
    return view


# ----------------------------------------------------------------- messages


def lobby_message(table: Table) -> dict[str, Any]:
    """The lobby: who has joined, and Join / Leave / Start."""
    items: list[discord.ui.Item] = []
    if table.status == "lobby":
        items = [
            BoardButton(table.id, 0, "join", label="Join", style=discord.ButtonStyle.success),
            BoardButton(table.id, 0, "leave", label="Leave"),
            BoardButton(table.id, 0, "start", label="Start", style=discord.ButtonStyle.primary),
        ]
    return {"embed": render.lobby_embed(table), "view": _view(*items)}


def board_message(table: Table, now: float | None = None) -> dict[str, Any]:
    """The live board and its buttons (for whoever's turn it is)."""
    if table.game is None:
        return lobby_message(table)
    now = time.time() if now is None else now
    view = table.game.public_view()
    embed = render.board_embed(table, view, table.time_left(now))
    if view.phase is Phase.OVER or not table.open:
        return {"embed": embed, "view": _view()}
    gid, version = table.id, table.version

    def button(action: str, label: str, emoji: str, style=discord.ButtonStyle.secondary):
        return BoardButton(gid, version, action, label=label, emoji=emoji, style=style)

    items: list[discord.ui.Item] = []
    if view.phase is Phase.DISCARD:
        items.append(button("discard", "Discard…", "🗑️", discord.ButtonStyle.danger))
    elif view.phase is Phase.REROLL:
        rerolls = view.pending["rerolls"] if view.pending else 0
        items.append(
            button("reroll", f"Reroll ({rerolls} left)", "🛟", discord.ButtonStyle.primary)
        )
        items.append(button("accept", "Accept", "✔️"))
    elif view.phase is Phase.PLAY:
        items += [
            button("draw", "Draw 2", "🃏", discord.ButtonStyle.primary),
            button("build", "Build…", "🏗️"),
            button("launch", "Launch…", "🚀"),
            button("scrap", "Scrap", "♻️"),
        ]
    items.append(button("hand", "My hand", "👁️"))
    return {"embed": embed, "view": _view(*items)}


def launch_report(table: Table, lines: list[str]) -> dict[str, Any]:
    """The launch told step by step; Reroll / Accept while a decision is pending."""
    game = table.game
    pending = game is not None and game.phase is Phase.REROLL and table.open
    items: list[discord.ui.Item] = []
    if pending:
        rerolls = game.public_view().pending["rerolls"]
        items = [
            BoardButton(
                table.id,
                table.version,
                "reroll",
                label=f"Reroll ({rerolls} left)",
                emoji="🛟",
                style=discord.ButtonStyle.primary,
            ),
            BoardButton(table.id, table.version, "accept", label="Accept", emoji="✔️"),
        ]
    return {"embed": render.launch_embed(lines, finished=not pending), "view": _view(*items)}


# ------------------------------------------------------------------ pickers


def build_picker(table: Table, hand: tuple[str, ...]) -> dict[str, Any] | None:
    """The sections this hand can pay for that fit on the rocket (None: nothing fits)."""
    view = table.game.public_view()
    top = view.rocket[-1][1] if view.rocket else Size.LARGE
    counts = {c: sum(1 for card in hand if colour_of(card) is c) for c in Colour}
    options = [
        discord.SelectOption(
            label=f"{size.label.capitalize()} {colour.value} — pay {int(size)} {colour.symbol}",
            value=f"{colour.value}:{int(size)}",
            emoji=render.COLOUR_EMOJI[colour],
            description=colour.role(view.rules),
        )
        for colour, size in view.depot
        if counts[colour] >= size and size <= top
    ]
    if not options or view.sequence:
        return None
    picker = Picker(
        table.id,
        table.version,
        "build",
        options=options[:25],
        placeholder="Choose a section to build",
    )
    return {"content": "What do you build?", "view": _private_view(picker)}


def card_picker(table: Table, hand: tuple[str, ...], action: str) -> dict[str, Any] | None:
    """Cards to choose for the launch sequence or for a discard (None: nothing to choose)."""
    view = table.game.public_view()
    if action == "launch":
        cards = [c for c in hand if colour_of(c) not in view.sequence]
        low, high = 1, min(len({colour_of(c) for c in cards}), 4)
        prompt = "Choose cards for the launch sequence: at most one of each suit."
    else:
        cards = list(hand)
        low = high = max(len(hand) - HAND_LIMIT, 1)
        prompt = f"Choose {low} card{'s' if low > 1 else ''} to discard."
    if not cards:
        return None
    options = [
        discord.SelectOption(label=card_label(c), value=c, emoji=render.COLOUR_EMOJI[colour_of(c)])
        for c in cards
    ]
    picker = Picker(
        table.id,
        table.version,
        action,
        options=options[:25],
        min_values=low,
        max_values=high,
        placeholder=prompt[:150],
    )
    return {"content": prompt, "view": _private_view(picker)}
