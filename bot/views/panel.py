"""The hand panel: one player's private message to see their hand and play in one click.

Pure, like bot.views.render: built from `game.view_for(player)` and the table's public facts
(game id, state version, clock), nothing else. On Discord, the panel of the player to act
offers the moves open now: Draw 2 and Launch as buttons (a Launch short of fuel grey,
never the green main move), the others in one select (each section to build, saying the
rocket it makes; each smaller part of the launch; Scrap), and says why when nothing can
be built; a discard is one button a card, pressed to choose it or not, the last one
needed discarding them all. Table talk's Say menu is on the panels of those who wait:
the board and the panel of the player to act stand on a phone's screen together
(tests/bot/test_phone.py). The live table gets every move as a button (disabled unless
legal), a select for a chosen part of the launch and one of the cards to discard. Its
Hint button is enabled whenever the crew policy has a move to advise. Its custom ids are
"apo:h:<game>:<version>:<action>[:<arg>]" for buttons (a card's: "pick" and the cards
chosen once it is pressed, or "discard" and the cards it discards) and the pickers'
"apo:p:<game>:<version>:<action>" for selects; the Play cog answers every click by
updating the panel itself.

The panel is a Components V2 layout (Discord's IS_COMPONENTS_V2 message): the note of the
last click in a TextDisplay at the top, then one TextDisplay of the hand on one line
(on the player's turn, headed "Your turn"), a status naming whose turn it is otherwise,
the rocket in small print on the player's own turn (the game's footer on the others'),
then the rows of moves. It is the JSON discord.py's
`ui.LayoutView` sends for that layout (tests/bot/test_panel_v2 builds the LayoutView and
compares), written directly for the reason bot.views.components gives; discord.py
writes some of Discord's defaults out (``disabled: false``...), which these leave out.
"""

from __future__ import annotations

import functools
import itertools
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
    hand = hand_line(table, view, language, head=own_turn(table, view, language))
    body = f"{hand}\n{status(table, view, now, language, footer)}".strip()
    top = [text_display(note[: render.CONTENT_LIMIT])] if note else []
    return Message(components=Layout([*top, text_display(body), *offered]))


def stub(language: str, key: str) -> Message:
    """A closed panel (`key` "panel.left": the panel of a player who left the game): one
    line saying so, in place of the hand and its buttons. A layout too: Discord never lets
    a V2 message go back to content."""
    return Message(components=Layout([text_display(t(language, key))]))


def own_turn(table: Table, view: PlayerView, language: str) -> str:
    """What the player is to do now, as their hand's title ("Your turn", "Your turn:
    discard 2"); "" when it is not their turn (their status line says whose it is)."""
    public = view.table
    if not table.open or public.active_player != view.player:
        return ""
    if public.phase is Phase.PLAY:
        return t(language, "panel.turn_title")
    if public.phase is Phase.DISCARD:
        return t(language, "panel.discard_title", count=legal_moves(view).discard)
    return ""


def hand_line(table: Table, view: PlayerView, language: str, *, head: str = "") -> str:
    """The hand on one line, grouped by suit: "**🂠 Your hand (3 cards)** 🟥 2♥ 7♥ · 🟦 9♦"
    (in colours, each card names its colour: "2 green · 3 red, 4 red"); on the player's
    turn, what they are to do (`head`: "**Your turn**") in place of its title, sparing
    the status line."""
    count = render.count(language, "count.cards", len(view.hand))
    title = head or t(language, "panel.title", cards=count)
    groups = [
        render.cards_text(cards, language, table.cards)
        if table.cards == "colours"
        else f"{render.COLOUR_EMOJI[colour]} {render.cards_text(cards, language, table.cards)}"
        for colour, cards in render.by_suit(view.hand).items()
        if cards
    ]
    joiner = " · " if table.cards == "colours" else " "  # (a suit's square parts them)
    if not groups:  # (an empty hand: its words, after what the player is to do)
        return f"**{head}** {t(language, 'hand.empty')}" if head else t(language, "hand.empty")
    return f"**{title}** " + joiner.join(groups)


def status(table: Table, view: PlayerView, now: float, language: str, footer: str) -> str:
    """Whose turn it is and the countdown on one line, but on the player's own turn (their
    hand's title says it; the board, the clock); a first-timer's suggested move; then in
    small print, on their own turn, a launch's chances (left out beside that suggestion)
    and what stops a build, or in a launch sequence the suits it needs (and no build
    meanwhile), on the others' turns the game's `footer`."""
    public = view.table
    plain = bool(own_turn(table, view, language))  # (the hand's title says it: no head)
    acting = table.open and public.active_player == view.player  # (the board's clock above)
    head = "" if plain else situation(table, view, now, language)
    clock = render.clock_text(table, table.time_left(now), language, bare=True)
    if clock and table.open and public.phase is not Phase.OVER and not acting:
        head = f"{head} {clock}"  # (after a sentence, a space)
    first = first_move_line(table, view, now, language)
    plain = plain and public.phase is Phase.PLAY  # (a turn's: the rocket, what stops a build)
    # (the board's strip shows the rocket's points and fuel: here, a launch's chances, but
    # beside a first-timer's suggestion or while a launch sequence is under way)
    odds = plain and not first and public.rocket and not public.sequence
    small = [render.launch_odds(public, language, short=True)] if odds else []
    if plain and public.sequence:  # (what stops a build, and what the sequence needs)
        needs = render.suit_marks(render.needed_suits(public), table.cards)
        small.append(t(language, "panel.sequence_needs", suits=needs))
    elif plain and view.hand and not legal_moves(view).builds:  # (in a phone's few words)
        small.append(cannot_build(view, language, short=True))
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


def cannot_build(view: PlayerView, language: str, *, short: bool = False) -> str:
    """The real reason nothing can be built (`short`: the whole line, in a few words, for
    Discord's panel: "Nothing to build that fits on small red.")."""
    public = view.table
    if public.sequence:  # (the panel's short line says what the sequence needs instead)
        return t(language, "panel.no_build.sequence")
    words = "panel.no_build_short" if short else "panel.no_build"
    suits = render.by_suit(view.hand)
    payable = [(c, s) for c, s in public.depot if len(suits[c]) >= s]
    if not payable:
        return t(language, f"{words}.cards")
    colour, size = public.rocket[-1]
    if short:
        return t(
            language, f"{words}.fit", section=t(language, f"build.{colour.value}.{size.label}")
        )
    return t(language, f"{words}.fit", section=render.section_text(colour, size, language))


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

    `chosen` None: the live table's (`_live_turn`; a discard, one select of the cards).
    Otherwise Discord's panel, where `chosen` are the cards picked so far for a discard
    (one button a card), and a turn is `_panel_turn`'s."""
    if view.table.phase is Phase.OVER or not table.open:
        return []
    legal = legal_moves(view)
    live = chosen is None
    gid, version = table.id, table.version
    refresh = button(gid, version, "refresh", "", emoji="🔄", kind="h")  # (an emoji says it)
    hint = button(
        gid,
        version,
        "hint",
        t(language, "button.hint") if live else "",  # (💡 alone on Discord's)
        emoji="💡",
        kind="h",
        disabled=view.table.phase is Phase.RESHUFFLE,  # out of turn: for when it comes
    )
    # Table talk while the others play: on one's own turn on Discord, the moves take its
    # row (a phone shows the board and this panel together).
    mine = view.table.active_player == view.player and view.table.phase is not Phase.RESHUFFLE
    say = say_menu.say_picker(table, view, language) if live or not mine else None
    if legal.discard and live:
        return [discard_picker(table, view, legal.discard, language), hint, refresh, say]
    if legal.discard:
        chosen_buttons = discard_buttons(table, view, legal.discard, chosen or (), language)
        return [*chosen_buttons, hint, say]  # (a card pressed redraws it: no 🔄 here)
    if legal.reroll:
        return [*reroll_buttons(table, view, language), hint, refresh, say]
    if live:
        return [*_live_turn(table, view, legal, language), hint, refresh, say]
    # (🔄 where the row has room for it: beside Launch, a phone's line is full)
    room = not (mine and legal.launch)
    return [*_panel_turn(table, view, legal, language, [hint, refresh] if room else [hint]), say]


def _live_turn(
    table: Table, view: PlayerView, legal: LegalMoves, language: str
) -> list[dict[str, Any] | None]:
    """The live table's turn: Draw, Launch and Scrap (each disabled unless legal), a button
    a section, and a select of a chosen part of the launch."""
    launch = launch_cards(legal)
    items: list[dict[str, Any] | None] = [*turn_buttons(table, view, legal, launch, language)]
    if legal.builds:
        items.append(None)  # sections on rows of their own
        items += build_buttons(table, view, legal, language)
    if len(launch) > 1:  # a chosen subset: one select, at most one card of each suit
        items.append(launch_picker(table, launch, language))
    return items


def _panel_turn(
    table: Table,
    view: PlayerView,
    legal: LegalMoves,
    language: str,
    more: list[dict[str, Any]],
) -> list[dict[str, Any] | None]:
    """Discord's turn, on one row and one select (a phone's screen holds the board above
    it): Draw 2 and Launch when they may be played (a launch short of fuel grey, never the
    green main move) and the buttons `more` (Hint...), then the select of the other moves
    (`move_picker`)."""
    gid, version = table.id, table.version
    launch = launch_cards(legal)
    items: list[dict[str, Any] | None] = []
    if legal.draw:
        draw = t(language, "button.draw")
        items.append(button(gid, version, "draw", draw, style=PRIMARY, kind="h"))
    if launch:
        style = SECONDARY if fuel_short(view) else SUCCESS
        label = t(language, "button.launch")
        arg = ".".join(launch)
        items.append(
            button(gid, version, "launch", label, emoji="🚀", style=style, kind="h", arg=arg)
        )
    items += more
    parts = launch if len(launch) > 1 else []
    if legal.builds or parts or legal.scrap:
        items.append(move_picker(table, view, legal, parts, language))
    return items


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


def move_picker(
    table: Table, view: PlayerView, legal: LegalMoves, launch: list[str], language: str
) -> dict[str, Any]:
    """The select of the turn's other moves: each section the player can build (saying the
    rocket it makes), each part of the launch `launch` offers but the whole (Discord's
    panel: the Launch button plays it), and Scrap. Its values: "colour.size", "launch:"
    and the cards, "scrap"."""
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
    for part in launch_parts(launch):
        suits = render.suit_marks([colour_of(c) for c in part], table.cards)
        label = t(language, "panel.launch_part", suits=suits)
        options.append(option(label, "launch:" + ".".join(part), "🚀"))
    if legal.scrap:
        options.append(option(t(language, "panel.scrap_option"), "scrap", "♻️"))
    key = "panel.choose_move" if launch or legal.scrap else "panel.choose_build"
    key = key if legal.builds else "panel.choose_other"
    return picker(table.id, table.version, "build", options, placeholder=t(language, key))


def launch_parts(launch: list[str]) -> list[tuple[str, ...]]:
    """The parts of `launch` (one card of each suit) one may play instead of the whole:
    every smaller set of its cards, the largest first."""
    sizes = range(len(launch) - 1, 0, -1)
    return [part for size in sizes for part in itertools.combinations(launch, size)]


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
