"""Everything players read: the board, narration of events, hands and help texts.

Pure functions of the engine's views and events (and a table's metadata); nothing
here talks to Discord or the database. Public texts are built from public views and
from events as the public sees them (`Event.seen_by(None)`), so no card of any hand
can reach them.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import discord

from bot.balance import STEADY_TEAM_WINS
from bot.crew import is_crewmate
from bot.i18n import t
from engine import RANKS, Colour, Outcome, Phase, PublicView, Rules, Size, card_label, colour_of
from engine import events as ev

if TYPE_CHECKING:
    from bot.service import Table
    from bot.store import Stats

COLOUR_EMOJI = {Colour.GREEN: "🟩", Colour.RED: "🟥", Colour.BLUE: "🟦", Colour.YELLOW: "🟨"}
EMBED_COLOUR = 0x8E44AD
WIN_COLOUR = 0x2ECC71
LOSS_COLOUR = 0xE74C3C
#: A game ended without a result (host's end, moderator's reset).
ENDED_COLOUR = 0x95A5A6
#: The board's colour in the last minute.
URGENT_COLOUR = 0xE67E22
URGENT_SECONDS = 60
#: Discord's limit on a message's content.
CONTENT_LIMIT = 2000
#: Changes of a hand told in its DM: the latest ones only.
DM_CHANGES = 6
DIFFICULTY_MINUTES = {"beginner": 15, "easy": 12, "medium": 10, "hard": 8}
RECENT_LINES = 6
STEP_NAMES = {
    "fuel": "Fuel check",
    "launch": "Launch roll",
    "accuracy": "Accuracy",
    "damage": "Damage",
    "deflection": "Deflection",
}


def mention(user_id: int | str) -> str:
    """A player as the channel shows them: a Discord mention, or an AI crewmate's name."""
    if isinstance(user_id, int) and is_crewmate(user_id):
        return f"🤖 Crewmate {-user_id}"
    return f"<@{user_id}>"


def duration(seconds: float) -> str:
    """A duration as "4:05" (minutes:seconds)."""
    seconds = max(round(seconds), 0)
    return f"{seconds // 60}:{seconds % 60:02d}"


def cards_text(cards: Iterable[str]) -> str:
    """Cards as a person reads them: "7♥ 10♣ K♠"."""
    return " ".join(card_label(c) for c in cards) or "no cards"


def section_text(colour: Colour | str, size: Size | int) -> str:
    colour, size = Colour(colour), Size(size)
    return f"{COLOUR_EMOJI[colour]} {size.label} {colour.value}"


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# -------------------------------------------------------------------- hands


def hand_text(hand: Sequence[str]) -> str:
    """A hand grouped by suit, for its owner only."""
    if not hand:
        return "Your hand is empty."
    lines = []
    for colour in Colour:
        cards = sorted((c for c in hand if colour_of(c) is colour), key=rank_order)
        if cards:
            lines.append(f"{COLOUR_EMOJI[colour]} {colour.suit_name}: {cards_text(cards)}")
    return "\n".join(lines)


def rank_order(card: str) -> int:
    return RANKS.index(card[:-1])


def card_order(card: str) -> tuple[int, int]:
    """Cards by suit (as hands are grouped), then rank."""
    return (list(Colour).index(colour_of(card)), rank_order(card))


def hand_changes(events: Iterable[ev.Event], player: int) -> list[str]:
    """What happened to one player's hand, in their own words ("you drew 7♥ and K♠")."""
    changes = []
    for event in events:
        if getattr(event, "player", None) != player:
            continue
        if isinstance(event, ev.CardsDrawn):
            changes.append(f"you drew {_and([card_label(c) for c in event.cards])}")
        elif isinstance(event, ev.CardsDiscarded):
            verb = "were discarded for you" if event.forced else "you discarded"
            cards = _and([card_label(c) for c in event.cards])
            changes.append(f"{cards} {verb}" if event.forced else f"{verb} {cards}")
        elif isinstance(event, ev.SectionBuilt):
            changes.append(f"you paid {_and([card_label(c) for c in event.cards])} to build")
        elif isinstance(event, ev.SequenceExtended):
            cards = _and([card_label(c) for c in event.cards])
            changes.append(f"you put {cards} in the launch sequence")
        elif isinstance(event, ev.PlayerRemoved):
            changes.append("you left the game; your cards went to the discard pile")
    return changes


def private_note(events: Iterable[ev.Event], player: int) -> str:
    """What an action did, told to the player who made it ("You drew 7♥ and K♠.")."""
    said = hand_changes(events, player)
    note = "; ".join(said)
    note = (note[:1].upper() + note[1:] + ".") if note else ""
    if any(isinstance(e, ev.LaunchStarted) for e in events):
        note += " 🚀 Launch! The launch report is in the channel."
    elif any(isinstance(e, ev.RocketScrapped) for e in events):
        note += " ♻️ The rocket went back to the depot."
    return note.strip() or "Done."


def message_link(guild_id: int, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


def hand_dm(table: Table, hand: Sequence[str] | None, changes: Sequence[str]) -> str:
    """The one DM that carries a player's hand for a game (`hand` None: no longer playing).

    It tells the latest changes only, and always fits Discord's 2,000 characters.
    """
    where = f"<#{table.channel_id}>"
    if table.board_message_id is not None:
        link = message_link(table.guild_id, table.channel_id, table.board_message_id)
        where += f" ([board]({link}))"
    lines = [f"**Apophis #{table.id} in {where}**"]
    game = table.game
    if game is not None and game.is_over:
        lines.append(f"The game is over: {outcome_text(game.outcome)}")
    elif hand is not None:
        lines.append("Play from the board's **My hand** button or `/hand` in the channel.")
    if hand is not None:
        lines += [
            f"**Your hand** ({len(hand)} card{'s' if len(hand) != 1 else ''})",
            hand_text(hand),
        ]
    recent = [c for c in changes if c][-DM_CHANGES:]
    while True:
        tail = ["Latest: " + "; ".join(recent) + "."] if recent else []
        text = "\n".join(lines + tail)
        if len(text) <= CONTENT_LIMIT or not recent:
            return text[:CONTENT_LIMIT]
        recent = recent[1:]


def outcome_text(outcome: Outcome | None) -> str:
    return {
        Outcome.DESTROYED: "Apophis was destroyed. Earth is safe!",
        Outcome.DEFLECTED: "Apophis was deflected and will miss Earth!",
        Outcome.LOST: "time ran out and Apophis hit Earth.",
    }.get(outcome, "it was ended without a result.")


def board_stub(table: Table) -> str:
    """What an older board says once a newer one is live below it."""
    if table.board_message_id is None:
        return "☄️ This board is no longer live."
    link = message_link(table.guild_id, table.channel_id, table.board_message_id)
    return f"☄️ This board moved down: [the live board of game #{table.id}]({link})."


# ---------------------------------------------------------------- narration


def narrate_event(event: ev.Event) -> str | None:
    """One event told publicly, or None for events not worth a line."""
    match event.seen_by(None):
        case ev.CardsDrawn(player=p, count=n):
            return f"{mention(p)} drew {n} card{'s' if n != 1 else ''}."
        case ev.ReshuffleStarted(cards=n, seconds=s):
            return f"🔀 The deck is empty: shuffling {n} discarded cards into a new deck ({s} s)."
        case ev.ReshuffleFinished(deck_size=n):
            return f"🔀 The new deck is ready ({n} cards)."
        case ev.DiscardRequired(player=p, count=n):
            return f"{mention(p)} holds too many cards and must discard {n}."
        case ev.CardsDiscarded(player=p, count=n, forced=forced):
            if forced:
                return f"{mention(p)}'s {n} newest card{'s' if n != 1 else ''} were discarded."
            return f"{mention(p)} discarded {n} card{'s' if n != 1 else ''}."
        case ev.SectionBuilt(player=p, colour=c, size=s):
            return f"🏗️ {mention(p)} built a {section_text(c, s)} section."
        case ev.SequenceExtended(player=p, added=added, colours=colours):
            played = " ".join(COLOUR_EMOJI[Colour(c)] for c in added)
            return f"🔢 {mention(p)} added {played} to the launch sequence ({len(colours)}/4)."
        case ev.RocketScrapped(player=p, sections=s, cards=n):
            return f"♻️ {mention(p)} scrapped the rocket ({s} sections, {n} sequence cards)."
        case ev.LaunchStarted(total=t, rerolls=r):
            extra = f", {r} fail-safe reroll{'s' if r != 1 else ''}" if r else ""
            return f"🚀 **Launch!** A {t}-point rocket lifts off{extra}."
        case ev.LaunchStep():
            return step_text(event)
        case ev.RerollOffered(player=p, step=step, rerolls=r):
            return (
                f"🛟 {mention(p)} may spend a fail-safe to reroll the "
                f"{STEP_NAMES[step].lower()} ({r} left)."
            )
        case ev.RerollUsed(player=p, step=step):
            return f"🛟 {mention(p)} rerolls the {STEP_NAMES[step].lower()}."
        case ev.RerollDeclined(player=p, step=step):
            return f"{mention(p)} keeps the {STEP_NAMES[step].lower()} result."
        case ev.ApophisDamaged(damage=d, value=v):
            if v == 0:
                return "💥 Apophis takes its third hit and breaks apart!"
            return f"💥 Apophis is hit ({d}/3 damage); its value is now {v}."
        case ev.CounterAdded(counters=n):
            return f"↪️ Apophis is nudged off course: {n}/5 deflection counters."
        case ev.LaunchEnded(hit=hit):
            return (
                "The rocket's sections return to the depot."
                if hit
                else ("The launch failed; the sections return to the depot.")
            )
        case ev.TurnSkipped(player=p):
            return f"⏭️ {mention(p)}'s turn was skipped."
        case ev.PlayerRemoved(player=p, cards=n):
            return f"🚪 {mention(p)} left the game; their {n} cards went to the discard pile."
        case ev.GameWon(reason=reason):
            if reason == Outcome.DESTROYED:
                return "🎉 **Apophis is destroyed. Earth is safe!**"
            return "🎉 **Apophis is deflected and will miss Earth!**"
        case ev.GameLost():
            return "☄️ **Time is up. Apophis hits Earth.**"
        case ev.GameAbandoned(reason=reason):
            return f"The game was ended ({reason})."
    return None


def step_text(step: ev.LaunchStep) -> str:
    """One launch check, with its numbers: "Accuracy: 🎲 2 + Apophis 3 + guidance 1 = 6 ..."."""
    name = STEP_NAMES[step.step]
    if step.success is None:
        return f"{name}: skipped (no warheads of that colour)."
    if step.die is None:  # the fuel check has no die
        parts = dict(step.parts)
        verdict = "enough" if step.success else "not enough: the rocket cannot lift off"
        return (
            f"⛽ {name}: {parts['booster fuel']} fuel of {parts['rocket points']} points, "
            f"needs {step.target} — {verdict}."
        )
    sum_text = " + ".join(
        f"🎲 {value}" if label == "die" else f"{label} {value}" for label, value in step.parts
    )
    if step.below:
        verdict = "the rocket flies" if step.success else "the rocket explodes"
        return f"{name}: {sum_text} = {step.total} (explodes at {step.target}) — {verdict}."
    verdict = {
        "accuracy": ("hit", "miss"),
        "damage": ("damage", "no damage"),
        "deflection": ("deflected", "no deflection"),
    }[step.step][0 if step.success else 1]
    return f"{name}: {sum_text} = {step.total} (needs {step.target}) — {verdict}."


# -------------------------------------------------------------------- board


def lobby_embed(table: Table) -> discord.Embed:
    embed = discord.Embed(
        title="☄️ Apophis — a new game is forming",
        description=(
            "Apophis is heading for Earth. Build rockets together and launch them before "
            "the countdown ends. Press **Join** (up to 4 players); the host may add AI "
            "crewmates, and presses **Start**."
        ),
        colour=EMBED_COLOUR,
    )
    embed.add_field(name="Rules", value=table.rules.capitalize())
    embed.add_field(
        name="Countdown", value=f"{table.difficulty.capitalize()}: {duration(table.length_seconds)}"
    )
    embed.add_field(name="Host", value=mention(table.host_id))
    seats = "\n".join(f"{i + 1}. {mention(p)}" for i, p in enumerate(table.seats)) or "nobody"
    embed.add_field(name=f"Players ({len(table.seats)}/4)", value=seats, inline=False)
    if table.status != "lobby":
        embed.set_footer(text="This lobby is closed.")
    return embed


def board_embed(table: Table, view: PublicView, time_left: float | None) -> discord.Embed:
    """The live board: Apophis, counters, rocket, sequence, depot, players, clock."""
    embed = discord.Embed(
        title=f"☄️ Apophis — {view.rules.value} rules, {table.difficulty}",
        colour=board_colour(table, view, time_left),
    )
    embed.description = _status_line(table, view, time_left)

    pyramids = " ".join("▲" for _ in range(view.apophis_value)) or "destroyed"
    apophis = f"value **{view.apophis_value}** {pyramids}\ndamage {view.damage}/3"
    if view.rules is Rules.BASIC:
        dots = "●" * view.counters + "○" * (5 - view.counters)
        apophis += f"\ndeflection {dots} {view.counters}/5"
    embed.add_field(name="Apophis", value=apophis)

    if view.rocket:
        rocket = "bottom to top:\n" + "\n".join(section_text(c, s) for c, s in view.rocket)
        points = " ".join(f"{COLOUR_EMOJI[c]}{p}" for c, p in view.points.items() if p)
        rocket += f"\npoints: {points} = {sum(view.points.values())}"
    else:
        rocket = "no rocket yet"
    embed.add_field(name="Rocket", value=rocket)

    sequence = " ".join(COLOUR_EMOJI[c] for c in view.sequence) or "not started"
    if view.sequence:
        sequence += "\nneeds " + " ".join(f"{c.symbol}" for c in needed_suits(view))
    embed.add_field(name=f"Launch sequence ({len(view.sequence)}/4)", value=sequence)

    depot = []
    for size in (Size.LARGE, Size.MEDIUM, Size.SMALL):
        here = "".join(COLOUR_EMOJI[c] for c, s in view.depot if s is size)
        depot.append(f"{size.label}: {here or '—'}")
    embed.add_field(name="Depot", value="\n".join(depot))
    embed.add_field(name="Cards", value=f"deck {view.deck_size}\ndiscard pile {view.discard_size}")

    seats = []
    for seat in view.seats:
        marker = "▶️" if seat.player == view.active_player else "▫️"
        plural = "" if seat.hand_size == 1 else "s"
        host = " · host" if seat.player == table.host_id else ""
        seats.append(f"{marker} {mention(seat.player)} — {seat.hand_size} card{plural}{host}")
    embed.add_field(name="Players", value="\n".join(seats) or "nobody", inline=False)
    if table.recent:
        embed.add_field(name="Last actions", value="\n".join(table.recent)[-1024:], inline=False)
    embed.set_footer(text=f"Game #{table.id} · move {table.version}")
    return embed


def board_colour(table: Table, view: PublicView, time_left: float | None) -> int:
    """Win green, loss red, ended grey; urgent orange in the last minute."""
    if view.phase is Phase.OVER or not table.open:
        if view.outcome is not None and view.outcome.won:
            return WIN_COLOUR
        return LOSS_COLOUR if view.outcome is Outcome.LOST else ENDED_COLOUR
    if time_left is not None and time_left <= URGENT_SECONDS:
        return URGENT_COLOUR
    return EMBED_COLOUR


def needed_suits(view: PublicView) -> list[Colour]:
    """The suits the launch sequence still needs."""
    return [c for c in Colour if c not in view.sequence]


def next_step(table: Table, view: PublicView, now: float) -> str:
    """What the game waits for, in a few words ("@cid: add ♠ to the launch sequence...")."""
    player = mention(view.active_player)
    if view.phase is Phase.DISCARD:
        count = (view.pending or {}).get("count", 1)
        return f"{player} must discard {count}."
    if view.phase is Phase.RESHUFFLE:
        left = reshuffle_left(table, now)
        return "🔀 Shuffling a new deck" + (f", {left} s." if left is not None else "…")
    if view.phase is Phase.REROLL:
        return f"{player} decides: reroll the failed die, or accept it."
    if view.sequence:
        suits = " ".join(c.symbol for c in needed_suits(view))
        return f"{player}: add {suits} to the launch sequence (or draw, or scrap)."
    if view.rocket:
        return f"{player}: draw, build, launch or scrap."
    return f"{player}: draw or build."


def reshuffle_left(table: Table, now: float) -> int | None:
    """Whole seconds (game time) until the new deck is ready, if a reshuffle is timed."""
    if table.reshuffle_ends is None:
        return None
    return max(math.ceil((table.reshuffle_ends - now) * table.time_scale), 0)


def clock_text(table: Table, time_left: float | None) -> str:
    if table.deadline is not None and time_left is not None:
        return f"⏱️ **{duration(time_left)}** left · Apophis arrives <t:{int(table.deadline)}:R>"
    if time_left is not None:
        return f"⏱️ {duration(time_left)} left (clock paused)"
    return ""


def _status_line(table: Table, view: PublicView, time_left: float | None) -> str:
    if view.phase is Phase.OVER:
        outcome = view.outcome
        if outcome is Outcome.LOST:
            return "☄️ **Apophis hit Earth.** The team ran out of time."
        if outcome is not None and outcome.won:
            left = f" with {duration(time_left)} to spare" if time_left is not None else ""
            how = "destroyed" if outcome is Outcome.DESTROYED else "deflected"
            return f"🎉 **Victory!** Apophis was {how}{left}."
        return "This game was ended."
    now = time.time()
    return f"{clock_text(table, time_left)}\n{next_step(table, view, now)}".strip()


REPORT_TITLE = "🚀 Launch report"


def launch_embed(lines: Sequence[str], finished: bool) -> discord.Embed:
    """The launch report: each check with its die, total and result."""
    embed = discord.Embed(
        title=REPORT_TITLE, description="\n".join(lines)[-4000:], colour=EMBED_COLOUR
    )
    if not finished:
        embed.set_footer(text="Waiting for the reroll decision…")
    return embed


LOSS_TEXT = "☄️ **Time is up: Apophis hits Earth.** Better luck next time, team."


def stats_embed(stats: Stats) -> discord.Embed:
    """A server's record: games by rule set and difficulty (with crewmates apart), and the
    fastest wins of all-human teams."""
    embed = discord.Embed(title="☄️ Apophis on this server", colour=EMBED_COLOUR)
    if not stats.tallies:
        embed.description = "No game has finished here yet. Open one with `/apophis new`."
        return embed
    lines = [
        f"**{t.rules}, {t.difficulty}{' (with AI crewmates)' if t.with_crewmates else ''}**: "
        f"{t.games} game{'s' if t.games != 1 else ''} — "
        f"{t.wins} won, {t.losses} lost" + (f", {t.abandoned} abandoned" if t.abandoned else "")
        for t in stats.tallies
    ]
    embed.add_field(name="Games", value="\n".join(lines)[:1024], inline=False)
    if stats.fastest_wins:
        wins = [
            f"{i}. {duration(w.duration_seconds)} — {w.rules}, {w.difficulty}, "
            f"{w.players} player{'s' if w.players != 1 else ''} ({w.outcome})"
            for i, w in enumerate(stats.fastest_wins, 1)
        ]
        embed.add_field(name="Fastest wins (all-human teams)", value="\n".join(wins), inline=False)
    return embed


# -------------------------------------------------------------------- rules


def rules_text(language: str, rules: Rules | str = Rules.BASIC) -> str:
    """The rules summary in `language`, for a game of basic or advanced rules, with how
    often a steady team wins each difficulty."""
    rules = Rules(rules).value
    symbols = {c.value: c.symbol for c in Colour}
    return t(
        language,
        "rules.summary",
        **symbols,
        green_role=t(language, f"role.green.{rules}"),
        launch_steps=t(language, f"rules.steps.{rules}"),
        win=t(language, f"rules.win.{rules}"),
        other_rules=t(language, f"rules.other.{rules}"),
    ) + "\n\n" + "\n".join(
        [t(language, "rules.odds")]
        + [
            t(
                language,
                "rules.odds.line",
                difficulty=t(language, f"difficulty.{difficulty}"),
                minutes=DIFFICULTY_MINUTES[difficulty],
                percent=percent,
            )
            for difficulty, percent in STEADY_TEAM_WINS[rules].items()
        ]
    )
