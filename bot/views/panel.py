"""The hand panel: one player's private message to see their hand and play in one click.

Pure, like bot.views.render: built from `game.view_for(player)` and the table's public facts
(game id, state version, clock), nothing else. The panel offers exactly the moves that
are legal now, each as one button, the builds as one select (each option saying the
rocket it makes; the live table gets a button each) and a select for a chosen subset of
the launch sequence, and says why when a move cannot be made (a Launch short of fuel is
grey, never the green main move); a discard is one button a card, pressed to choose it
or not, the last one needed discarding them (the live table gets a select of them
instead). On Discord's panel only the moves open now are buttons, and table talk's Say
menu waits for the others' turns: the board and the panel of the player to act stand on
a phone's screen together (tests/bot/test_phone.py). Its Hint button is enabled whenever the crew policy has a
move to advise. Its custom ids are "apo:h:<game>:<version>:<action>[:<arg>]" for buttons
(a card's: "pick" and the cards chosen once it is pressed) and the pickers'
"apo:p:<game>:<version>:<action>" for selects; the Play cog answers every click by
updating the panel itself.

The panel is a Components V2 layout (Discord's IS_COMPONENTS_V2 message), kept short
enough to stand below the board on a phone (tests/bot/test_phone.py): the note of the
last click in a TextDisplay at the top, then one TextDisplay of the hand on one line and
a status naming whose turn it is (on the player's own turn, the rocket, and the game's
footer in small print), then the rows of moves. It is the JSON discord.py's
`ui.LayoutView` sends for that layout (tests/bot/test_panel_v2 builds the LayoutView and
compares), written directly for the reason bot.views.components gives; discord.py
writes some of Discord's defaults out (``disabled: false``...), which these leave out.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from bot.i18n.catalogs import t
from bot.i18n.notation import card_text
from bot.i18n.said import joined
from bot.views import render, say_menu
from bot.views.components import (
    DANGER,
    PRIMARY,
    SECONDARY,
    SUCCESS,
    Components,
    button,
    option,
    picker,
    rows,
)
from bot.views.hints import first_move_line
from bot.views.message import Message
from engine import (
    Colour,
    LegalMoves,
    Phase,
    PlayerView,
    Size,
    colour_of,
    fuel_needed,
    legal_moves,
)

if TYPE_CHECKING:
    from bot.table import Table

#: Sections a panel offers at most (a hand of 5 can pay for at most 5 of them).
MAX_BUILD_BUTTONS = 10
#: Components V2 types (Discord's numbers) the panel is made of, with its ActionRows.
TEXT_DISPLAY = 10
#: Discord's limit on a TextDisplay's characters. (Of the 40 components a V2 message may
#: hold, nested ones counted, a panel has far fewer: its rows of buttons, two selects and
#: the Say menu.)
TEXT_LIMIT = 4000


class Layout(Components):
    """A Components V2 layout as Discord's JSON, given to discord.py in place of a
    `ui.LayoutView`: discord.py sets IS_COMPONENTS_V2 on what it sends with it, and
    bot.views.message.Message does on the JSON bodies it makes."""

    __slots__ = ()

    def has_components_v2(self) -> bool:
        return True


def text_display(content: str) -> dict[str, Any]:
    """A TextDisplay: markdown, within Discord's 4000 characters."""
    return {"type": TEXT_DISPLAY, "content": content[:TEXT_LIMIT]}


def panel_message(
    table: Table,
    player: int,
    language: str,
    note: str | None = None,
    now: float | None = None,
    chosen: tuple[str, ...] = (),
) -> Message:
    """The player's panel: their hand, what the game waits for, and their legal moves.

    In the player's `language`, cards as the server shows them. `note` is a private
    line at the top (what the last click did, or why it was refused); `chosen`, the cards
    picked so far for a discard.
    """
    now = table.runtime.now() if now is None else now
    game = table.game
    if game is None or player not in game.players:
        raise ValueError("a panel is only drawn for a seated player of a started game")
    view = game.view_for(player)
    offered = rows(*moves(table, view, language, chosen)).to_components()
    footer = t(language, "board.footer", id=table.id, version=table.version)
    hand = hand_line(table, view, language, yours=yours(table, view))
    body = f"{hand}\n{status(table, view, now, language, footer)}".strip()
    top = [text_display(note[: render.CONTENT_LIMIT])] if note else []
    return Message(components=Layout([*top, text_display(body), *offered]))


def stub(language: str, key: str) -> Message:
    """A closed panel (`key` "panel.left": the panel of a player who left the game): one
    line saying so, in place of the hand and its buttons. A layout too: Discord never lets
    a V2 message go back to content."""
    return Message(components=Layout([text_display(t(language, key))]))


def yours(table: Table, view: PlayerView) -> bool:
    """Whether the player is to play a turn now (to draw, build, launch or scrap)."""
    public = view.table
    return table.open and public.phase is Phase.PLAY and public.active_player == view.player


def hand_line(table: Table, view: PlayerView, language: str, *, yours: bool = False) -> str:
    """The hand on one line, grouped by suit: "**🂠 Your hand (3 cards)** 🟥 2♥ 7♥ · 🟦 9♦"
    (in colours, each card names its colour: "2 green · 3 red, 4 red"); on the player's
    turn, "**🂠 Your turn**" in place of its title (the status line it spares)."""
    count = render.count(language, "count.cards", len(view.hand))
    title = t(language, "panel.turn_title" if yours else "panel.title", cards=count)
    groups = [
        render.cards_text(cards, language, table.cards)
        if table.cards == "colours"
        else f"{render.COLOUR_EMOJI[colour]} {render.cards_text(cards, language, table.cards)}"
        for colour, cards in render.by_suit(view.hand).items()
        if cards
    ]
    return f"**{title}** " + " · ".join(groups) if groups else t(language, "hand.empty")


def status(table: Table, view: PlayerView, now: float, language: str, footer: str) -> str:
    """Whose turn it is and the countdown on one line; a first-timer's suggested move;
    then in small print, on the player's own turn, the rocket (left out beside that
    suggestion) and what stops a build, and always the game's `footer`."""
    public = view.table
    plain = yours(table, view)  # (the hand line says so: no head)
    acting = table.open and public.active_player == view.player  # (the board's clock above)
    head = "" if plain else situation(table, view, now, language)
    clock = render.clock_text(table, table.time_left(now), language, bare=True)
    if clock and table.open and public.phase is not Phase.OVER and not acting:
        head = f"{head} {clock}"  # (after a sentence, a space)
    first = first_move_line(table, view, now, language)
    small = [render.rocket_line(public, language)] if plain and not first else []
    if plain and not legal_moves(view).builds:
        small.append(t(language, "panel.no_build", reason=cannot_build(view, language)))
    if plain and public.sequence:
        needs = render.suit_marks(render.needed_suits(public), table.cards)
        small.append(t(language, "panel.needs", suits=needs))
    small = [line for line in [*small, "" if acting else footer] if line]  # (Details has it)
    tail = f"-# {' · '.join(small)}" if small else ""
    return "\n".join(line for line in [head, first, tail] if line)


def situation(table: Table, view: PlayerView, now: float, language: str) -> str:
    """Whose turn it is and what is pending, from this player's side."""
    public = view.table
    active = public.active_player
    if active is None or not table.open:  # (no one is active once the game is over)
        return t(language, "panel.over")
    if public.phase is Phase.RESHUFFLE:
        left = render.reshuffle_left(table, now)
        if left is None:
            return t(language, "panel.reshuffle")
        return t(language, "panel.reshuffle_seconds", seconds=left)
    if active != view.player:
        return t(language, "panel.their_turn", player=render.mention(active))
    legal = legal_moves(view)
    if legal.discard:
        return t(language, "panel.discard", count=legal.discard, held=len(view.hand))
    if legal.reroll:
        left = (public.pending or {}).get("rerolls", 0)
        return t(language, "panel.reroll", count=left)
    moves = render.or_list(your_moves(legal, language), language)
    lines = [t(language, "panel.your_turn", moves=moves), render.rocket_line(public, language)]
    if not legal.builds:
        lines.append(t(language, "panel.no_build", reason=cannot_build(view, language)))
    if public.sequence:
        needs = render.suit_marks(render.needed_suits(public), table.cards)
        lines.append(t(language, "panel.needs", suits=needs))
    return joined("\n", [line for line in lines if line])


def your_moves(legal: LegalMoves, language: str) -> list[str]:
    """The moves open to the active player now, in words ("draw", "build", ...)."""
    possible = {
        "draw": legal.draw,
        "build": bool(legal.builds),
        "launch": bool(legal.launch),
        "scrap": legal.scrap,
    }
    return [t(language, f"panel.move.{move}") for move, can in possible.items() if can]


def after_build(view: PlayerView, colour: Colour, size: Size) -> tuple[int, int, int]:
    """The rocket's points, fuel and the fuel it needs once this section is built."""
    points = dict(view.table.points)
    points[colour] = points.get(colour, 0) + int(size)
    total = sum(points.values())
    return total, points.get(Colour.YELLOW, 0), fuel_needed(total)


def fuel_short(view: PlayerView) -> bool:
    """Whether the rocket, as it stands, fails the fuel check when launched."""
    points = view.table.points
    return points.get(Colour.YELLOW, 0) < fuel_needed(sum(points.values()))


def cannot_build(view: PlayerView, language: str) -> str:
    """The real reason nothing can be built."""
    public = view.table
    if public.sequence:
        return t(language, "panel.no_build.sequence")
    suits = render.by_suit(view.hand)
    payable = [(c, s) for c, s in public.depot if len(suits[c]) >= s]
    if not payable:
        return t(language, "panel.no_build.cards")
    top = public.rocket[-1]
    return t(language, "panel.no_build.fit", section=render.section_text(*top, language))


def launch_cards(legal: LegalMoves) -> list[str]:
    """One card (the lowest) of every suit the player may add to the launch sequence."""
    return [cards[0] for cards in render.by_suit(legal.launch).values() if cards]


@functools.lru_cache(maxsize=1024)
def build_label(
    language: str, style: str, colour: Colour, size: Size, total: int, fuel: int, needed: int
) -> str:
    """A build button's words: the section, its price and the rocket it makes ("Build
    large green (3♣) → 3 points, fuel 0 (1 needed) ✗"); kept, as the same few recur."""
    return t(
        language,
        "button.build",
        section=t(language, f"build.{colour.value}.{size.label}"),
        cost=card_text(f"{int(size)}{colour.suit}", language, style),
        points=render.count(language, "board.points", total),
        fuel=fuel,
        needed=needed,
        mark="✓" if fuel >= needed else "✗",
    )


def moves(
    table: Table, view: PlayerView, language: str, chosen: tuple[str, ...] | None = None
) -> list[dict[str, Any] | None]:
    """The panel's components: legal moves enabled; the others shown disabled or left out.

    A discard: one button a card, `chosen` those picked so far (the Discord panel's); with
    `chosen` None, one select of the cards (the live table's picker)."""
    if view.table.phase is Phase.OVER or not table.open:
        return []
    legal = legal_moves(view)
    gid, version = table.id, table.version
    refresh = button(gid, version, "refresh", "", emoji="🔄", kind="h")  # (an emoji says it)
    hint = button(
        gid,
        version,
        "hint",
        t(language, "button.hint") if chosen is None else "",  # (💡 alone on Discord's)
        emoji="💡",
        kind="h",
        disabled=view.table.phase is Phase.RESHUFFLE,  # out of turn: for when it comes
    )
    # Table talk while others play: on one's own turn, the moves take its row (a phone
    # shows the board and this panel together), save on the live table.
    mine = view.table.active_player == view.player and view.table.phase is not Phase.RESHUFFLE
    say = None if mine and chosen is not None else say_menu.say_picker(table, view, language)
    if legal.discard and chosen is None:
        return [discard_picker(table, view, legal.discard, language), hint, refresh, say]
    if legal.discard:
        chosen_buttons = discard_buttons(table, view, legal.discard, chosen or (), language)
        return [*chosen_buttons, hint, say]  # (a card pressed redraws it: no 🔄 here)
    if legal.reroll:
        return [*reroll_buttons(table, view, language), hint, refresh, say]
    launch = launch_cards(legal)
    offered = turn_buttons(table, view, legal, launch, language)
    if chosen is not None:  # Discord's panel: only the moves open now (rows a phone spares)
        offered = [item for item in offered if not item.get("disabled")] or offered[:1]
    items: list[dict[str, Any] | None] = [*offered, hint, refresh]
    if legal.draw and chosen is None:
        items.append(None)  # sections on rows of their own
        items += build_buttons(table, view, legal, language)
    elif legal.builds:  # the Discord panel's: one select of them
        items.append(build_picker(table, view, legal, language))
    if len(launch) > 1:  # a chosen subset: one select, at most one card of each suit
        items.append(launch_picker(table, launch, language))
    return [*items, say]


def discard_picker(table: Table, view: PlayerView, count: int, language: str) -> dict[str, Any]:
    """The select of the `count` cards to discard, among the whole hand."""
    style = table.cards
    options = [
        option(card_text(c, language, style), c, render.COLOUR_EMOJI[colour])
        for colour, cards in render.by_suit(view.hand).items()
        for c in cards
    ]
    prompt = t(language, "panel.choose_discard", count=count)
    return picker(
        table.id,
        table.version,
        "discard",
        options,
        placeholder=prompt,
        min_values=count,
        max_values=count,
    )


#: A discard's card buttons a row (four stand on a phone's line; Discord allows five).
CARDS_PER_ROW = 4


def discard_buttons(
    table: Table, view: PlayerView, count: int, chosen: tuple[str, ...], language: str
) -> list[dict[str, Any] | None]:
    """One button a card of the hand, `CARDS_PER_ROW` a row: pressed to choose it or not
    (a chosen card shows 🗑️), the card that makes `count` discarding them all at once (a
    discard of one card: one press). Each card's custom id carries the cards chosen once
    it is pressed ("pick"), or the cards it discards ("discard")."""
    gid, version, style = table.id, table.version, table.cards
    hand = [c for cards in render.by_suit(view.hand).values() for c in cards]
    picked = [c for c in hand if c in chosen]
    items: list[dict[str, Any] | None] = []
    for i, card in enumerate(hand):
        on = card in picked
        after = [c for c in hand if (c in picked) != (c == card)]
        last = not on and len(after) == count
        items += [None] if i and i % CARDS_PER_ROW == 0 else []
        items.append(
            button(
                gid,
                version,
                "discard" if last else "pick",
                card_text(card, language, style),
                emoji="🗑️" if on else None,
                style=DANGER if on else SECONDARY,
                kind="h",
                arg=".".join(after),
            )
        )
    return items


def reroll_buttons(table: Table, view: PlayerView, language: str) -> list[dict[str, Any]]:
    """Reroll the failed die (saying how many fail-safes are left) or accept it."""
    gid, version = table.id, table.version
    left = (view.table.pending or {}).get("rerolls", 0)
    return [
        button(
            gid,
            version,
            "reroll",
            t(language, "button.reroll", left=left),
            emoji="🛟",
            style=PRIMARY,
            kind="h",
        ),
        button(gid, version, "accept", t(language, "button.accept"), emoji="✔️", kind="h"),
    ]


def turn_buttons(
    table: Table, view: PlayerView, legal: LegalMoves, launch: list[str], language: str
) -> list[dict[str, Any]]:
    """Draw, launch (with the cards `launch` plays) and scrap, each disabled unless legal."""
    gid, version = table.id, table.version
    suits = render.suit_marks([colour_of(c) for c in launch], table.cards).replace(" ", "")
    launch_label = (
        t(language, "button.launch_suits", suits=suits) if suits else t(language, "button.launch")
    )
    failing = bool(launch) and fuel_short(view)  # never the green main move, and says why
    if failing:
        launch_label = t(language, "button.launch_will_fail", launch=launch_label)
    return [
        button(
            gid,
            version,
            "draw",
            t(language, "button.draw"),
            emoji="🃏",
            style=PRIMARY,
            kind="h",
            disabled=not legal.draw,
        ),
        button(
            gid,
            version,
            "launch",
            launch_label,
            emoji="🚀",
            style=SECONDARY if failing else SUCCESS,
            kind="h",
            arg=".".join(launch),
            disabled=not launch,
        ),
        button(
            gid,
            version,
            "scrap",
            t(language, "button.scrap"),
            emoji="♻️",
            style=DANGER,
            kind="h",
            disabled=not legal.scrap,
        ),
    ]


def build_buttons(
    table: Table, view: PlayerView, legal: LegalMoves, language: str
) -> list[dict[str, Any] | None]:
    """One button for each section the player can build (at most `MAX_BUILD_BUTTONS`)."""
    items: list[dict[str, Any] | None] = []
    for colour, size in legal.builds[:MAX_BUILD_BUTTONS]:
        label = build_label(language, table.cards, colour, size, *after_build(view, colour, size))
        items.append(
            button(
                table.id,
                table.version,
                "build",
                label,
                emoji=render.COLOUR_EMOJI[colour],
                style=SECONDARY,
                kind="h",
                arg=f"{colour.value}.{int(size)}",
            )
        )
    return items


def build_picker(
    table: Table, view: PlayerView, legal: LegalMoves, language: str
) -> dict[str, Any]:
    """The select of the sections the player can build, each saying the rocket it makes."""
    options = []
    for colour, size in legal.builds[:MAX_BUILD_BUTTONS]:
        total, fuel, needed = after_build(view, colour, size)
        section = t(language, f"build.{colour.value}.{size.label}")
        cost = card_text(f"{int(size)}{colour.suit}", language, table.cards)
        made = t(
            language,
            "panel.build_makes",
            points=render.count(language, "board.points", total),
            fuel=fuel,
            needed=needed,
            mark="✓" if fuel >= needed else "✗",
        )
        label = f"{section} ({cost})"
        options.append(
            option(label, f"{colour.value}.{int(size)}", render.COLOUR_EMOJI[colour], made)
        )
    return picker(
        table.id, table.version, "build", options, placeholder=t(language, "panel.choose_build")
    )


def launch_picker(table: Table, launch: list[str], language: str) -> dict[str, Any]:
    """The select of a chosen subset of `launch` (one card of each suit) to play."""
    style = table.cards
    options = [
        option(card_text(c, language, style), c, render.COLOUR_EMOJI[colour_of(c)]) for c in launch
    ]
    return picker(
        table.id,
        table.version,
        "launch",
        options,
        placeholder=t(language, "panel.choose_launch"),
        min_values=1,
        max_values=len(options),
    )
