"""The hand panel: one player's private message to see their hand and play in one click.

Pure, like bot.render: built from `game.view_for(player)` and the table's public facts
(game id, state version, clock), nothing else. The panel offers exactly the moves that
are legal now, each as one button (a select for a chosen subset of the launch
sequence, or for the cards to discard), and says why when a move cannot be made. Its
custom ids are "apo:h:<game>:<version>:<action>[:<arg>]" for buttons and the pickers'
"apo:p:<game>:<version>:<action>" for selects; the Play cog answers every click by
updating the panel itself.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import discord

from bot import render
from bot.components import (
    DANGER,
    PRIMARY,
    SECONDARY,
    SUCCESS,
    button,
    option,
    picker,
    rows,
)
from engine import HAND_LIMIT, Colour, Phase, PlayerView, Size, card_label, colour_of

if TYPE_CHECKING:
    from bot.service import Table

#: Sections a panel offers at most (a hand of 5 can pay for at most 5 of them).
MAX_BUILD_BUTTONS = 10


def panel_message(
    table: Table, player: int, note: str | None = None, now: float | None = None
) -> dict[str, Any]:
    """The player's panel: their hand, what the game waits for, and their legal moves.

    `note` is a private line at the top (what the last click did, or why it was refused).
    """
    now = time.time() if now is None else now
    game = table.game
    if game is None or player not in game.players:
        raise ValueError("a panel is only drawn for a seated player of a started game")
    view = game.view_for(player)
    embed = discord.Embed(
        title=f"🂠 Your hand ({len(view.hand)} card{'s' if len(view.hand) != 1 else ''})",
        description=render.hand_text(view.hand),
        colour=render.board_colour(table, view.table, table.time_left(now)),
    )
    embed.add_field(name="Now", value=situation(table, view, now), inline=False)
    clock = render.clock_text(table, table.time_left(now))
    embed.set_footer(
        text=f"Game #{table.id} · move {table.version}"
        + (f" · {render.duration(table.time_left(now) or 0)} left" if clock else "")
    )
    return {
        "content": (note or "")[: render.CONTENT_LIMIT],
        "embed": embed,
        "view": rows(*moves(table, view)),
    }


def situation(table: Table, view: PlayerView, now: float) -> str:
    """Whose turn it is and what is pending, from this player's side."""
    public = view.table
    if public.phase is Phase.OVER or not table.open:
        return "The game is over."
    mine = public.active_player == view.player
    if public.phase is Phase.RESHUFFLE:
        left = render.reshuffle_left(table, now)
        wait = f" ({left} s left)" if left is not None else ""
        return f"🔀 The discard pile is being shuffled into a new deck{wait}."
    if not mine:
        return f"It is {render.mention(public.active_player)}'s turn."
    if public.phase is Phase.DISCARD:
        excess = len(view.hand) - HAND_LIMIT
        cards = f"{excess} card{'s' if excess != 1 else ''}"
        return f"**Your turn:** discard {cards} (you hold {len(view.hand)})."
    if public.phase is Phase.REROLL:
        left = (public.pending or {}).get("rerolls", 0)
        return (
            f"**Your turn:** a launch die failed. Reroll it ({left} fail-safe"
            f"{'s' if left != 1 else ''} left) or accept it."
        )
    lines = ["**Your turn:** draw, build, launch or scrap."]
    if not build_options(view):
        lines.append(f"Nothing to build: {cannot_build(view)}")
    if public.sequence:
        needs = " ".join(c.symbol for c in render.needed_suits(public))
        lines.append(f"The launch sequence needs {needs}.")
    return "\n".join(lines)


def by_suit(hand: tuple[str, ...]) -> dict[Colour, list[str]]:
    """The hand's cards of each colour, lowest rank first."""
    suits: dict[Colour, list[str]] = {c: [] for c in Colour}
    for card in sorted(hand, key=render.rank_order):
        suits[colour_of(card)].append(card)
    return suits


def build_options(view: PlayerView) -> list[tuple[Colour, Size]]:
    """The sections this player can pay for that fit on the rocket now."""
    public = view.table
    if public.sequence:
        return []
    top = public.rocket[-1][1] if public.rocket else Size.LARGE
    suits = by_suit(view.hand)
    return [(c, s) for c, s in public.depot if len(suits[c]) >= s and s <= top]


def cannot_build(view: PlayerView) -> str:
    """The real reason nothing can be built."""
    public = view.table
    if public.sequence:
        return "a launch sequence is under way (complete it, or scrap the rocket)."
    suits = by_suit(view.hand)
    payable = [(c, s) for c, s in public.depot if len(suits[c]) >= s]
    if not payable:
        return "you do not hold enough cards of one suit for any section left in the depot."
    top = public.rocket[-1]
    return (
        f"no section you can pay for fits on the {render.section_text(*top)} at the top "
        "(a section sits on one at least as large)."
    )


def launch_cards(view: PlayerView) -> list[str]:
    """One card (the lowest) of every suit the sequence still needs that the player holds."""
    public = view.table
    if not public.rocket:
        return []
    suits = by_suit(view.hand)
    return [suits[c][0] for c in render.needed_suits(public) if suits[c]]


def moves(table: Table, view: PlayerView) -> list[dict[str, Any] | None]:
    """The panel's components: legal moves enabled; the others shown disabled or left out."""
    public = view.table
    gid, version = table.id, table.version
    refresh = button(gid, version, "refresh", "Refresh", emoji="🔄", kind="h")
    if public.phase is Phase.OVER or not table.open:
        return []
    mine = public.active_player == view.player
    if public.phase is Phase.DISCARD and mine:
        excess = len(view.hand) - HAND_LIMIT
        options = [
            option(card_label(c), c, render.COLOUR_EMOJI[colour_of(c)])
            for c in sorted(view.hand, key=render.card_order)
        ]
        prompt = f"Choose {excess} card{'s' if excess != 1 else ''} to discard"
        menu = picker(
            gid,
            version,
            "discard",
            options,
            placeholder=prompt,
            min_values=excess,
            max_values=excess,
        )
        return [menu, refresh]
    if public.phase is Phase.REROLL and mine:
        left = (public.pending or {}).get("rerolls", 0)
        return [
            button(
                gid, version, "reroll", f"Reroll ({left} left)", emoji="🛟", style=PRIMARY, kind="h"
            ),
            button(gid, version, "accept", "Accept", emoji="✔️", kind="h"),
            refresh,
        ]
    playing = mine and public.phase is Phase.PLAY
    launch = launch_cards(view) if playing else []
    suits = "".join(colour_of(c).symbol for c in launch)
    items = [
        button(
            gid,
            version,
            "draw",
            "Draw 2",
            emoji="🃏",
            style=PRIMARY,
            kind="h",
            disabled=not playing,
        ),
        button(
            gid,
            version,
            "launch",
            f"Launch {suits}" if suits else "Launch",
            emoji="🚀",
            style=SUCCESS,
            kind="h",
            arg=".".join(launch),
            disabled=not launch,
        ),
        button(
            gid,
            version,
            "scrap",
            "Scrap",
            emoji="♻️",
            style=DANGER,
            kind="h",
            disabled=not (playing and (public.rocket or public.sequence)),
        ),
        refresh,
    ]
    if playing:
        items.append(None)  # sections on rows of their own
        for colour, size in build_options(view)[:MAX_BUILD_BUTTONS]:
            label = f"Build {size.label} {colour.value} ({int(size)}{colour.symbol})"
            items.append(
                button(
                    gid,
                    version,
                    "build",
                    label,
                    emoji=render.COLOUR_EMOJI[colour],
                    style=SECONDARY,
                    kind="h",
                    arg=f"{colour.value}.{int(size)}",
                )
            )
    if len(launch) > 1:  # a chosen subset: one select, at most one card of each suit
        options = [
            option(f"{colour_of(c).symbol} {card_label(c)}", c, render.COLOUR_EMOJI[colour_of(c)])
            for c in launch
        ]
        items.append(
            picker(
                gid,
                version,
                "launch",
                options,
                placeholder="Or choose suits to add",
                min_values=1,
                max_values=len(options),
            )
        )
    return items
