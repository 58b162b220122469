"""The words of a game: durations, cards and hands, lists and counts, the hand DM, the clock,
what the game waits for, the rules.

Pure functions of the engine's views (and a table's metadata); nothing here talks to
Discord or the database (the embeds made of these words: bot.views.embeds). Every word
comes from the catalogs (bot.i18n.catalogs) in the language asked for: the server's for
what the channel sees, the player's for what only they see.
Public texts are built from public views, so no card of any hand can reach them.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from babel.lists import format_list

from bot.i18n import notation, said
from bot.i18n.catalogs import t
from bot.table import is_crewmate
from engine import (
    RANKS,
    Colour,
    Outcome,
    Phase,
    PublicView,
    Rules,
    Size,
    colour_of,
    fuel_needed,
)
from engine.odds import odds, points_of

if TYPE_CHECKING:
    from bot.table import Table

COLOUR_EMOJI = {Colour.GREEN: "🟩", Colour.RED: "🟥", Colour.BLUE: "🟦", Colour.YELLOW: "🟨"}
#: The suits in the engine's order, and each rank's place (iterating the enum, or
#: RANKS.index, is slow for what every panel does several times).
COLOURS = tuple(Colour)
RANK_ORDER = {rank: i for i, rank in enumerate(RANKS)}
#: Discord's limit on a message's content.
CONTENT_LIMIT = 2000
#: Changes of a hand told in its DM: the latest ones only.
DM_CHANGES = 6


def mention(user_id: int) -> str:
    """A player named in a text: a person (bot.i18n.said.Person, each door writes them), or
    an AI crewmate's name in words.

    A crewmate's name reads the same in every language ("Robot" is English and French).
    """
    if isinstance(user_id, int) and is_crewmate(user_id):
        return f"🤖 Robot {-user_id}"
    return said.person(user_id)


def whose_turn(view: PublicView) -> str:
    """The player whose turn it is, named as `mention` names them (a game in play)."""
    player = view.active_player
    assert player is not None, "a game over has no turn"
    return mention(player)


def duration(seconds: float) -> str:
    """A duration as "4:05" (minutes:seconds)."""
    seconds = max(round(seconds), 0)
    return f"{seconds // 60}:{seconds % 60:02d}"


def cards_text(cards: Sequence[str], language: str, style: str = "suits") -> str:
    """Cards as a person reads them: "7♥ 10♣ K♠" (or "7 red, 10 green" in colours)."""
    return notation.cards_text(tuple(cards), language, style) or t(language, "cards.none")


def section_text(colour: Colour | str, size: Size | int, language: str) -> str:
    """A section with its colour's square: "🟥 small red"."""
    colour, size = Colour(colour), Size(size)
    return f"{COLOUR_EMOJI[colour]} {t(language, f'section.{colour.value}.{size.label}')}"


def plan_text(pieces: Sequence[tuple[str, int]], language: str) -> str:
    """A rocket in pieces, bottom to top, as players say it: "red L + yellow M + blue S"."""
    return " + ".join(
        t(
            language,
            "section.short",
            colour=t(language, f"colour.{colour}"),
            size=t(language, f"size.short.{Size(size).label}"),
        )
        for colour, size in pieces
    )


def suit_name(colour: Colour, language: str, style: str) -> str:
    """A suit as the server's deck names it: "hearts" (suits) or "red" (colours)."""
    return t(language, f"{'colour' if style == 'colours' else 'suit'}.{colour.value}")


def suit_marks(colours: Sequence[Colour], style: str) -> str:
    """Suits named briefly: "♥ ♦" (suits), or their colours' squares "🟥 🟦" (colours)."""
    return " ".join(COLOUR_EMOJI[c] if style == "colours" else c.symbol for c in colours)


def and_list(items: Sequence[str], language: str) -> str:
    """ "a, b and c" in the language's words (names in it kept for each door to write)."""
    if len(items) <= 1:
        return said.joined("", items)
    return t(language, "list.and", items=said.joined(", ", items[:-1]), last=items[-1])


def or_list(items: Sequence[str], language: str) -> str:
    """ "a, b, or c" as the language writes a choice (Babel's list patterns)."""
    return _or_list(tuple(items), language)


@functools.lru_cache(maxsize=256)
def _or_list(items: tuple[str, ...], language: str) -> str:
    """`or_list`, kept: a panel words the same few choices of moves again and again."""
    return format_list(list(items), style="or", locale=language)


@functools.lru_cache(maxsize=1024)
def count(language: str, key: str, n: int) -> str:
    """A number with its noun, singular or plural as the language wants ("2 cards"; kept:
    the same few counts are worded again at every action)."""
    return t(language, key, count=n)


# -------------------------------------------------------------------- hands


def hand_text(hand: Sequence[str], language: str, style: str = "suits") -> str:
    """A hand grouped by suit, for its owner only: "🟥 hearts: 3♥ 7♥" (a line a suit), or
    "🟥 3 red, 7 red" in colours, where each card already names its colour."""
    return _hand_text(tuple(hand), language, style)


#: Hands kept worded and grouped: a few thousand are in play at once on a busy bot (at
#: 1024, 500 four-player games missed nearly every time).
HANDS_KEPT = 8192


@functools.lru_cache(maxsize=HANDS_KEPT)
def _hand_text(hand: tuple[str, ...], language: str, style: str) -> str:
    """`hand_text`, kept: a hand unchanged since its last panel or DM reads the same."""
    if not hand:
        return t(language, "hand.empty")
    lines = []
    for colour, cards in by_suit(hand).items():
        if cards:
            shown = cards_text(cards, language, style)
            if style != "colours":
                suit = suit_name(colour, language, style)
                shown = t(language, "hand.suit", suit=suit, cards=shown)
            lines.append(f"{COLOUR_EMOJI[colour]} {shown}")
    return "\n".join(lines)


def by_suit(hand: Sequence[str]) -> dict[Colour, list[str]]:
    """A hand's cards of each suit (every suit, in the engine's order), lowest rank first:
    how every view of a hand groups it."""
    return {
        colour: list(cards) for colour, cards in zip(COLOURS, _grouped(tuple(hand)), strict=True)
    }


@functools.lru_cache(maxsize=HANDS_KEPT)
def _grouped(hand: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """`by_suit` as tuples, kept: a panel groups the same hand several times."""
    suits: dict[Colour, list[str]] = {c: [] for c in COLOURS}
    for card in sorted(hand, key=lambda card: RANK_ORDER[card[:-1]]):
        suits[colour_of(card)].append(card)
    return tuple(tuple(cards) for cards in suits.values())


def message_link(guild_id: int, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


def hand_dm(table: Table, hand: Sequence[str] | None, changes: Sequence[str], language: str) -> str:
    """The one DM that carries a player's hand for a game (`hand` None: no longer playing).

    `changes` are already worded (bot.views.narration.change_text). It tells the latest ones
    only, and always fits Discord's 2,000 characters.
    """
    where: str = said.channel(table.channel_id)
    if table.messages.board_id is not None:
        link = message_link(table.guild_id, table.channel_id, table.messages.board_id)
        where += f" ([{t(language, 'dm.board')}]({link}))"
    lines = [t(language, "dm.title", id=table.id, where=where)]
    game = table.game
    if game is not None and game.is_over:
        lines.append(t(language, "dm.over", outcome=outcome_text(game.outcome, language)))
    elif hand is not None:
        lines.append(t(language, "dm.play_from"))
    if hand is not None:
        lines += [
            t(language, "dm.hand", cards=count(language, "count.cards", len(hand))),
            hand_text(hand, language, table.cards),
        ]
    recent = [c for c in changes if c][-DM_CHANGES:]
    while True:
        changes = t(language, "list.semicolon").join(recent)
        tail = [t(language, "dm.latest", changes=changes)] if recent else []
        text = "\n".join(lines + tail)
        if len(text) <= CONTENT_LIMIT or not recent:
            return text[:CONTENT_LIMIT]
        recent = recent[1:]


def outcome_text(outcome: Outcome | None, language: str) -> str:
    if outcome is None or outcome is Outcome.ABANDONED:
        return t(language, "outcome.ended")
    return t(language, f"outcome.{outcome.value}")


# -------------------------------------------------------------------- board


def needed_suits(view: PublicView) -> list[Colour]:
    """The suits the launch sequence still needs."""
    return [c for c in COLOURS if c not in view.sequence]


def next_step(table: Table, view: PublicView, now: float, language: str | None = None) -> str:
    """What the game waits for, in a few words ("@cid: add ♠ to the launch sequence..."), in
    `language` (the server's unless given)."""
    language = language or table.language
    player = whose_turn(view)
    if view.phase is Phase.DISCARD:
        n = (view.pending or {}).get("count", 1)
        return t(language, "next.discard", player=player, count=n)
    if view.phase is Phase.RESHUFFLE:
        left = reshuffle_left(table, now)
        if left is None:
            return t(language, "next.reshuffle")
        return t(language, "next.reshuffle_seconds", seconds=left)
    if view.phase is Phase.REROLL:
        return t(language, "next.reroll", player=player)
    if view.sequence:
        suits = suit_marks(needed_suits(view), table.cards)
        return t(language, "next.sequence", player=player, suits=suits)
    if view.rocket:
        return t(language, "next.rocket", player=player)
    return t(language, "next.start", player=player)


def reshuffle_left(table: Table, now: float) -> int | None:
    """Whole seconds (game time) until the new deck is ready, if a reshuffle is timed."""
    if table.runtime.reshuffle_ends is None:
        return None
    return max(math.ceil((table.runtime.reshuffle_ends - now) * table.runtime.time_scale), 0)


def clock_text(
    table: Table,
    time_left: float | None,
    language: str | None = None,
    *,
    short: bool = False,
    bare: bool = False,
) -> str:
    """The countdown as nothing between two edits can make stale: while it runs, Discord's
    own relative time ("in 12 minutes") beside the exact arrival time (`short`: alone, for
    a phone's line; `bare`: alone after ⏱️, beside a turn's words); stopped, what is left.
    In `language` (the server's unless given)."""
    language = language or table.language
    if table.deadline is not None and time_left is not None:
        if short or bare:
            key = "clock.bare" if bare else "clock.short"
            return t(language, key, arrives=said.moment(round(table.deadline), "R"))
        return _arrival(round(table.deadline), language)
    if time_left is not None:
        return t(language, "clock.paused", left=duration(time_left))
    return ""


@functools.lru_cache(maxsize=1024)
def _arrival(at: int, language: str) -> str:
    """When Apophis arrives (`clock_text`), kept: a game's deadline is worded again at
    every action."""
    return t(language, "clock.running", arrives=said.moment(at, "R"), at=said.moment(at, "T"))


def rocket_line(view: PublicView, language: str) -> str:
    """The rocket in one line: its points, the fuel check in words, and the chances of a
    launch now ("🚀 10 points · fuel 2 (3 needed) ✗ · launched now, it fails the fuel
    check"); "" while no section is built (nothing to weigh or launch)."""
    if not view.rocket:
        return ""
    total = sum(view.points.values())
    fuel, needed = view.points.get(Colour.YELLOW, 0), fuel_needed(total)
    fuelled = fuel >= needed
    parts = [
        count(language, "board.points", total),
        t(language, "board.fuel.ok" if fuelled else "board.fuel.short", fuel=fuel, needed=needed),
        launch_odds(view, language),
    ]
    return "🚀 " + " · ".join(parts)


def launch_odds(view: PublicView, language: str, *, short: bool = False) -> str:
    """The chances of a launch now, in words ("launched now: 25% chance to damage, 0% to
    deflect", or that it fails the fuel check; `short`: "🚀 Now: 25% to damage, 0% to
    deflect", a phone's line); the rocket must have a section."""
    words = "panel.odds" if short else "board.odds"
    total = sum(view.points.values())
    if view.points.get(Colour.YELLOW, 0) < fuel_needed(total):
        return t(language, f"{words}.no_fuel")
    damage, deflection = odds(view.rules, view.apophis_value, points_of(view.rocket))
    key = f"{words}.basic" if view.rules is Rules.BASIC else f"{words}.advanced"
    chances = {"damage": percent(damage, language), "deflection": percent(deflection, language)}
    return t(language, key, **chances)


def percent(chance: float, language: str) -> str:
    """A chance in whole percent as the language writes it ("33%", "33 %"); only a sure
    thing reads 100%, only an impossible one 0%."""
    value = round(chance * 100)
    if 0 < chance < 1:
        value = min(max(value, 1), 99)
    return t(language, "number.percent", value=value)


def report_title(language: str) -> str:
    return t(language, "report.title")
