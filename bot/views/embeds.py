"""The boxed parts of the game's messages (Discord calls them embeds), as plain data: the
lobby, the live board, the launch report and a server's record.

Built from the engine's views, a table's metadata and the words of bot.views.render; the
Discord door makes discord.py's objects of them (bot.discord.embeds). Public embeds are
built from public views, so no card of any hand can reach them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.i18n.catalogs import t
from bot.views import talk
from bot.views.message import Embed
from bot.views.render import (
    COLOUR_EMOJI,
    and_list,
    clock_text,
    count,
    duration,
    mention,
    needed_suits,
    next_step,
    report_title,
    rocket_line,
    suit_marks,
)
from engine import Outcome, Phase, PublicView, Rules, Size

if TYPE_CHECKING:
    from bot.store.records import Stats
    from bot.table import Table

EMBED_COLOUR = 0x8E44AD
WIN_COLOUR = 0x2ECC71
LOSS_COLOUR = 0xE74C3C
#: A game ended without a result (host's end, moderator's reset).
ENDED_COLOUR = 0x95A5A6
#: The board's colour in the last minute.
URGENT_COLOUR = 0xE67E22
URGENT_SECONDS = 60


def lobby_embed(table: Table) -> Embed:
    """The lobby: why it offers its difficulty (a first game), its settings on one line,
    its players and host on one (short enough to stand on a phone with the answer to a
    join: tests/bot/test_phone.py; what the game is, its How to play says)."""
    language = table.language
    lines = []
    if table.offer is not None and table.status == "lobby":  # bot.game.newcomers
        lines.append(first_games_line(table))
    length = t(
        language,
        "lobby.length",
        difficulty=t(language, f"difficulty.{table.difficulty}"),
        length=duration(table.length_seconds),
    )
    rules = t(language, f"rules.{table.rules}")
    lines.append(t(language, "lobby.summary", rules=rules, length=length))
    host = t(language, "lobby.host_mark")
    seated = [f"{mention(p)}{host if p == table.host_id else ''}" for p in table.seats]
    seats = ", ".join(seated) or t(language, "board.nobody")
    players = t(language, "lobby.players", seated=len(table.seats))
    lines.append(f"👥 **{players}** {seats}")
    embed = Embed(
        title=t(language, "lobby.title"), description="\n".join(lines), colour=EMBED_COLOUR
    )
    invited = [mention(p) for p in table.invited if p not in table.seats]
    if invited and table.status == "lobby":
        embed.add_field(
            name=t(language, "again.invited"),
            value=t(language, "again.invited_list", players=and_list(invited, language)),
            inline=False,
        )
    if table.status != "lobby":
        embed.set_footer(text=t(language, "lobby.closed"))
    return embed


def first_games_line(table: Table, language: str | None = None) -> str:
    """Why the lobby offers its difficulty: the server's first games, or a new host's; in
    `language` (the live table's reader's), else the channel's."""
    language = table.language if language is None else language
    difficulty = t(language, f"difficulty.{table.difficulty}")
    return t(language, str(table.offer), difficulty=difficulty)


def board_embed(
    table: Table,
    view: PublicView,
    time_left: float | None,
    pictured: bool = False,
    ending: str | None = None,
    firsts: int = 0,
) -> Embed:
    """The live board: Apophis, counters, rocket, sequence, depot, players, clock.

    `pictured` (the board's strip shows Apophis, the rocket and the sequence, in play):
    only what the strip does not say, short enough for a phone (`_pictured_board`); the
    rest is a click away (`details`). A game's end
    (bot.views.story.board_text) takes the place of the clock and what the game waits for;
    pictured, beside who played and how many `firsts` they earned (`_pictured_final`)."""
    if pictured and ending is None:
        return _pictured_board(table, view, time_left)
    if pictured and ending is not None:
        return _pictured_final(table, view, ending, firsts)
    language = table.language
    embed = Embed(
        title=t(
            language,
            "board.title",
            rules=t(language, f"rules.{view.rules.value}"),
            difficulty=t(language, f"difficulty.{table.difficulty}").lower(),
        ),
        colour=board_colour(table, view, time_left),
    )
    embed.description = ending or _status_line(table, view, time_left)
    if not pictured:
        _table_fields(embed, table, view)
    seats = []
    host = t(language, "board.host")
    for seat in view.seats:
        marker = "▶️" if seat.player == view.active_player else "▫️"
        held = count(language, "count.cards", seat.hand_size)
        mark = f" · {host}" if seat.player == table.host_id else ""
        if table.on_autopilot(seat.player):
            mark += f" · {t(language, 'autopilot.mark')}"
        mark += talk.seat_mark(table, view, seat.player)
        seats.append(f"{marker} {mention(seat.player)} — {held}{mark}")
    embed.add_field(
        name=t(language, "board.players"),
        value="\n".join(seats) or t(language, "board.nobody"),
        inline=False,
    )
    if table.recent:
        embed.add_field(
            name=t(language, "board.recent"), value="\n".join(table.recent)[-1024:], inline=False
        )
    embed.set_footer(text=t(language, "board.footer", id=table.id, version=table.version))
    return embed


#: The last actions a pictured board shows (its Details show them all).
PICTURED_RECENT = 1


def _pictured_board(table: Table, view: PublicView, time_left: float | None) -> Embed:
    """The board above its strip (bot.pictures.strip: the table and the seats, the one to
    act lit), in play: no title, the clock, then what the game waits for (a discard, a
    reroll, a reshuffle) or, in a turn like any other, the latest action in small print,
    and the team's standing signals (table talk): a phone shows board and panel together
    (docs/playing.md). The depot, the piles
    and the earlier actions are behind Details."""
    now = table.runtime.now()
    plain = view.phase is Phase.PLAY  # (the strip says whose turn it is, and the sequence)
    status = [
        clock_text(table, time_left, short=True),
        "" if plain else next_step(table, view, now),
    ]
    said = [talk.said_line(table, view, seat.player) for seat in view.seats]
    # The latest action, unless what the game waits for follows from it (a draw's discard).
    recent = [f"-# {line}" for line in list(table.recent)[-PICTURED_RECENT:]] if plain else []
    return Embed(
        description="\n".join(line for line in [*status, *said, *recent] if line)[-4000:],
        colour=board_colour(table, view, time_left),
    )


def _pictured_final(table: Table, view: PublicView, ending: str, firsts: int) -> Embed:
    """The final board above its strip, short enough for a phone beside the closed panel:
    how the game ended, who played, how many firsts they earned. The title, the log, the
    launches one by one and each first are behind Details (bot.views.components)."""
    language = table.language
    lines = [ending, f"👥 {and_list([mention(seat.player) for seat in view.seats], language)}"]
    if firsts:
        lines.append(t(language, "firsts.brief", count=firsts))
    return Embed(description="\n".join(lines), colour=board_colour(table, view, None))


def _table_fields(embed: Embed, table: Table, view: PublicView) -> None:
    """The table in words: Apophis, the rocket, the sequence, the depot, the cards."""
    language = table.language
    pyramids = " ".join("▲" for _ in range(view.apophis_value)) or t(language, "board.destroyed")
    apophis = t(
        language, "board.apophis", value=view.apophis_value, pyramids=pyramids, damage=view.damage
    )
    if view.rules is Rules.BASIC:
        dots = "●" * view.counters + "○" * (5 - view.counters)
        apophis += "\n" + t(language, "board.deflection", dots=dots, counters=view.counters)
    embed.add_field(name="Apophis", value=apophis)

    if view.rocket:
        sections = "\n".join(
            f"{COLOUR_EMOJI[c]} {t(language, f'build.{c.value}.{s.label}')}" for c, s in view.rocket
        )
        points = " ".join(f"{COLOUR_EMOJI[c]}{p}" for c, p in view.points.items() if p)
        rocket = t(
            language,
            "board.rocket",
            sections=sections,
            points=points,
            total=sum(view.points.values()),
        )
    else:
        rocket = t(language, "board.no_rocket")
    embed.add_field(name=t(language, "board.rocket_title"), value=rocket)

    sequence = " ".join(COLOUR_EMOJI[c] for c in view.sequence) or t(language, "board.not_started")
    if view.sequence:
        needs = suit_marks(needed_suits(view), table.cards)
        sequence += "\n" + t(language, "board.needs", suits=needs)
    embed.add_field(
        name=t(language, "board.sequence_title", played=len(view.sequence)), value=sequence
    )

    depot = []
    for size in (Size.LARGE, Size.MEDIUM, Size.SMALL):
        here = "".join(COLOUR_EMOJI[c] for c, s in view.depot if s is size)
        depot.append(
            t(
                language,
                "board.depot_row",
                size=t(language, f"size.{size.label}"),
                pieces=here or "—",
            )
        )
    embed.add_field(name=t(language, "board.depot"), value="\n".join(depot))
    embed.add_field(
        name=t(language, "board.cards_title"),
        value=t(language, "board.cards", deck=view.deck_size, discards=view.discard_size),
    )


def board_colour(table: Table, view: PublicView, time_left: float | None) -> int:
    """Win green, loss red, ended grey; urgent orange in the last minute."""
    if view.phase is Phase.OVER or not table.open:
        if view.outcome is not None and view.outcome.won:
            return WIN_COLOUR
        return LOSS_COLOUR if view.outcome is Outcome.LOST else ENDED_COLOUR
    if time_left is not None and time_left <= URGENT_SECONDS:
        return URGENT_COLOUR
    return EMBED_COLOUR


def _status_line(table: Table, view: PublicView, time_left: float | None) -> str:
    """The clock, the rocket and what the game waits for (a game in play)."""
    language = table.language
    now = table.runtime.now()
    lines = [clock_text(table, time_left), rocket_line(view, language), next_step(table, view, now)]
    return "\n".join(line for line in lines if line)


def launch_embed(language: str, lines: Sequence[str], finished: bool) -> Embed:
    """The launch report: each check with its die, total and result."""
    embed = Embed(
        title=report_title(language),
        description="\n".join(lines)[-4000:],
        colour=EMBED_COLOUR,
    )
    if not finished:
        embed.set_footer(text=t(language, "report.waiting"))
    return embed


def stats_embed(stats: Stats, language: str) -> Embed:
    """A server's record: games by rule set and difficulty (with crewmates apart), and the
    fastest wins of all-human teams."""
    embed = Embed(title=t(language, "stats.title"), colour=EMBED_COLOUR)
    if not stats.tallies:
        embed.description = t(language, "stats.none")
        return embed
    lines = []
    for tally in stats.tallies:
        kind = _kind(tally.rules, tally.difficulty, language)
        if tally.with_crewmates:
            kind = t(language, "stats.with_crewmates", kind=kind)
        line = t(
            language,
            "stats.tally",
            kind=kind,
            games=count(language, "count.games", tally.games),
            wins=count(language, "stats.won", tally.wins),
            losses=count(language, "stats.lost", tally.losses),
        )
        if tally.abandoned:
            line += t(language, "stats.abandoned", count=tally.abandoned)
        lines.append(line)
    embed.add_field(name=t(language, "stats.games"), value="\n".join(lines)[:1024], inline=False)
    if stats.fastest_wins:
        wins = [
            t(
                language,
                "stats.win",
                rank=i,
                time=duration(w.duration_seconds),
                kind=_kind(w.rules, w.difficulty, language),
                players=count(language, "count.players", w.players),
                outcome=t(language, f"stats.outcome.{w.outcome}"),
            )
            for i, w in enumerate(stats.fastest_wins, 1)
        ]
        embed.add_field(name=t(language, "stats.fastest"), value="\n".join(wins), inline=False)
    return embed


def _kind(rules: str, difficulty: str, language: str) -> str:
    return f"{t(language, f'rules.{rules}')}, {t(language, f'difficulty.{difficulty}').lower()}"
