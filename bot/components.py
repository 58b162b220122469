"""Messages with buttons and pickers: the board, the lobby, the launch report.

Every component is persistent: its custom_id carries the game id, the state version
it was drawn for and what it does, so it keeps working after a restart and a click on
an older board is recognised. Clicks are routed by their custom id (`CUSTOM_ID`) to
the Play cog; discord.py keeps no view for them.

Components are written as Discord's JSON rather than as discord.ui views: a view and
its items refer to each other, so every board drawn that way (several a second on a
busy bot) left a reference cycle for the garbage collector, whose pauses stop every
game at once. `Components` carries the JSON wherever discord.py accepts a view.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any

from bot import render
from engine import HAND_LIMIT, Colour, Phase, Size, card_label, colour_of

if TYPE_CHECKING:
    from bot.service import Table

#: "apo:<b: button, p: picker>:<game id>:<version>:<action>".
CUSTOM_ID = re.compile(
    r"apo:(?P<kind>[bp]):(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<action>[a-z]+)"
)

#: Discord's button styles.
PRIMARY, SECONDARY, SUCCESS, DANGER = 1, 2, 3, 4
ACTION_ROW, BUTTON, SELECT = 1, 2, 3
BUTTONS_PER_ROW = 5


class Components:
    """Message components as Discord's JSON, given to discord.py in place of a view.

    discord.py asks a view for `to_components()` when sending and then decides whether
    to keep it for dispatch: these never are (`is_finished`), as our custom ids are
    routed by the Play cog, before and after a restart alike.
    """

    __slots__ = ("rows",)
    __discord_ui_view__ = True  # discord.py's mark of something that can be sent as a view
    timeout = None

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.rows = rows

    def to_components(self) -> list[dict[str, Any]]:
        return self.rows

    def has_components_v2(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False


def button(
    game_id: int,
    version: int,
    action: str,
    label: str,
    *,
    emoji: str | None = None,
    style: int = SECONDARY,
) -> dict[str, Any]:
    """A board button; its custom id says which game, which state and what it does."""
    item: dict[str, Any] = {
        "type": BUTTON,
        "style": style,
        "label": label,
        "custom_id": f"apo:b:{game_id}:{version}:{action}",
    }
    if emoji:
        item["emoji"] = {"name": emoji}
    return item


def picker(
    game_id: int,
    version: int,
    action: str,
    options: list[dict[str, Any]],
    *,
    placeholder: str,
    min_values: int = 1,
    max_values: int = 1,
) -> dict[str, Any]:
    """A select menu offered privately: what to build, which cards to launch or discard."""
    return {
        "type": SELECT,
        "custom_id": f"apo:p:{game_id}:{version}:{action}",
        "options": options[:25],
        "placeholder": placeholder[:150],
        "min_values": min_values,
        "max_values": max_values,
    }


def option(label: str, value: str, emoji: str, description: str | None = None) -> dict[str, Any]:
    item = {"label": label[:100], "value": value, "emoji": {"name": emoji}}
    if description:
        item["description"] = description[:100]
    return item


def rows(*items: dict[str, Any]) -> Components:
    """Items laid out as Discord wants them: up to five buttons a row, a select alone."""
    laid: list[dict[str, Any]] = []
    for item in items:
        last = laid[-1]["components"] if laid else None
        if (
            item["type"] == BUTTON
            and last
            and last[0]["type"] == BUTTON
            and len(last) < BUTTONS_PER_ROW
        ):
            last.append(item)
        else:
            laid.append({"type": ACTION_ROW, "components": [item]})
    return Components(laid)


# ----------------------------------------------------------------- messages


def lobby_message(table: Table) -> dict[str, Any]:
    """The lobby: who has joined, and Join / Leave / Start."""
    items = []
    if table.status == "lobby":
        items = [
            button(table.id, 0, "join", "Join", style=SUCCESS),
            button(table.id, 0, "leave", "Leave"),
            button(table.id, 0, "start", "Start", style=PRIMARY),
        ]
    return {"embed": render.lobby_embed(table), "view": rows(*items)}


def board_message(table: Table, now: float | None = None) -> dict[str, Any]:
    """The live board and its buttons (for whoever's turn it is)."""
    if table.game is None:
        return lobby_message(table)
    now = time.time() if now is None else now
    view = table.game.public_view()
    embed = render.board_embed(table, view, table.time_left(now))
    if view.phase is Phase.OVER or not table.open:
        return {"embed": embed, "view": rows()}
    gid, version = table.id, table.version
    items = []
    if view.phase is Phase.DISCARD:
        items.append(button(gid, version, "discard", "Discard…", emoji="🗑️", style=DANGER))
    elif view.phase is Phase.REROLL:
        rerolls = view.pending["rerolls"] if view.pending else 0
        items += _reroll_buttons(gid, version, rerolls)
    elif view.phase is Phase.PLAY:
        items += [
            button(gid, version, "draw", "Draw 2", emoji="🃏", style=PRIMARY),
            button(gid, version, "build", "Build…", emoji="🏗️"),
            button(gid, version, "launch", "Launch…", emoji="🚀"),
            button(gid, version, "scrap", "Scrap", emoji="♻️"),
        ]
    items.append(button(gid, version, "hand", "My hand", emoji="👁️"))
    return {"embed": embed, "view": rows(*items)}


def _reroll_buttons(game_id: int, version: int, rerolls: int) -> list[dict[str, Any]]:
    return [
        button(game_id, version, "reroll", f"Reroll ({rerolls} left)", emoji="🛟", style=PRIMARY),
        button(game_id, version, "accept", "Accept", emoji="✔️"),
    ]


def launch_report(table: Table, lines: list[str]) -> dict[str, Any]:
    """The launch told step by step; Reroll / Accept while a decision is pending."""
    game = table.game
    pending = game is not None and game.phase is Phase.REROLL and table.open
    items = []
    if pending:
        items = _reroll_buttons(table.id, table.version, game.public_view().pending["rerolls"])
    return {"embed": render.launch_embed(lines, finished=not pending), "view": rows(*items)}


# ------------------------------------------------------------------ pickers


def build_picker(table: Table, hand: tuple[str, ...]) -> dict[str, Any] | None:
    """The sections this hand can pay for that fit on the rocket (None: nothing fits)."""
    view = table.game.public_view()
    top = view.rocket[-1][1] if view.rocket else Size.LARGE
    counts = {c: sum(1 for card in hand if colour_of(card) is c) for c in Colour}
    options = [
        option(
            f"{size.label.capitalize()} {colour.value} — pay {int(size)} {colour.symbol}",
            f"{colour.value}:{int(size)}",
            render.COLOUR_EMOJI[colour],
            colour.role(view.rules),
        )
        for colour, size in view.depot
        if counts[colour] >= size and size <= top
    ]
    if not options or view.sequence:
        return None
    menu = picker(
        table.id, table.version, "build", options, placeholder="Choose a section to build"
    )
    return {"content": "What do you build?", "view": rows(menu)}


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
    options = [option(card_label(c), c, render.COLOUR_EMOJI[colour_of(c)]) for c in cards]
    menu = picker(
        table.id,
        table.version,
        action,
        options,
        placeholder=prompt,
        min_values=low,
        max_values=high,
    )
    return {"content": prompt, "view": rows(menu)}
