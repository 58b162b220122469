"""Players' records as they read them: a person's profile (a server's games, a conversation's,
or their own in DMs) with their streaks and firsts, the firsts a game earned, and a server's
leaderboard."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import astuple
from typing import TYPE_CHECKING

from bot.errors import UserError
from bot.i18n.catalogs import t
from bot.store.records import FIRSTS, RANKED_MIN_GAMES
from bot.views.embeds import EMBED_COLOUR
from bot.views.message import Embed
from bot.views.render import and_list, count, duration, mention
from engine import DIFFICULTY_MINUTES

if TYPE_CHECKING:
    from bot.store.records import Leaderboard, PlayerTally, Profile, Streak, Win

#: Discord's limit on the value of an embed's field.
FIELD_LIMIT = 1024


#: What a profile says it covers, and what it says when it counts no game, by what it covers
#: (bot.game.ledger's SERVER, CONVERSATION, DIRECT: one's own games in DMs and group DMs).
PROFILE_KEYS = {
    "server": ("profile.whose", "profile.none"),
    "conversation": ("profile.whose_conversation", "profile.none_conversation"),
    "direct": ("profile.whose_direct", "profile.none_direct"),
}


def nothing_counted(user_id: int, covered: str, yours: bool) -> UserError:
    """What a profile that counts no game says, over what `covered` says."""
    key = "profile.none_yours" if yours and covered == "server" else PROFILE_KEYS[covered][1]
    return UserError(key, player=mention(user_id))


def profile_embed(profile: Profile, covered: str, language: str) -> Embed:
    """A person's games over what `covered` says (named in its description), all-human
    teams and teams with crewmates apart: wins by rule set and difficulty, launches, hits
    and damage, the fastest win."""
    whose = PROFILE_KEYS[covered][0]
    embed = Embed(
        title=t(language, "profile.title"),
        description=t(language, whose, player=mention(profile.user_id)),
        colour=EMBED_COLOUR,
    )
    teams = (
        (False, profile.fastest_win, profile.streak),
        (True, profile.fastest_win_with_crewmates, profile.streak_with_crewmates),
    )
    for crew, fastest, streak in teams:
        tallies = [tally for tally in profile.tallies if tally.with_crewmates is crew]
        if tallies:
            embed.add_field(
                name=t(language, "profile.crewmates" if crew else "profile.people"),
                value="\n".join(_team_lines(tallies, fastest, streak, language))[:FIELD_LIMIT],
                inline=False,
            )
    lines = [
        t(language, "profile.first", first=t(language, f"first.{first.kind}"), game=first.game_id)
        for first in profile.firsts
    ]
    embed.add_field(
        name=t(language, "profile.firsts", count=len(profile.firsts), total=len(FIRSTS)),
        value="\n".join(lines) or t(language, "profile.firsts_none"),
        inline=False,
    )
    embed.set_footer(text=t(language, "profile.footer"))
    return embed


def _team_lines(
    tallies: Sequence[PlayerTally], fastest: Win | None, streak: Streak, language: str
) -> list[str]:
    """One kind of team's games: how many and won, wins of each rule set by difficulty,
    launches, the win streak (once there was one), the fastest win."""
    played = sum(tally.games for tally in tallies)
    summary = t(
        language,
        "profile.summary",
        games=count(language, "count.games", played),
        wins=count(language, "stats.won", sum(tally.wins for tally in tallies)),
    )
    abandoned = sum(tally.abandoned for tally in tallies)
    if abandoned:
        summary += t(language, "stats.abandoned", count=abandoned)
    lines = [summary]
    for rules, same_rules in itertools.groupby(tallies, key=lambda tally: tally.rules):
        cells = [
            t(
                language,
                "profile.wins",
                difficulty=t(language, f"difficulty.{tally.difficulty}"),
                wins=tally.wins,
                games=tally.games,
            )
            for tally in same_rules
            if tally.games
        ]
        if cells:
            rules_name = t(language, f"profile.rules.{rules}")
            lines.append(
                t(language, "profile.rules_line", rules=rules_name, wins=" · ".join(cells))
            )
    lines.append(
        t(
            language,
            "profile.launches_line",
            launches=count(language, "profile.launches", sum(tally.launches for tally in tallies)),
            hits=count(language, "profile.hits", sum(tally.hits for tally in tallies)),
            damage=count(language, "profile.damage", sum(tally.damage for tally in tallies)),
        )
    )
    lines += _streak_line(streak, language)
    if fastest is not None:
        lines.append(
            t(
                language,
                "profile.fastest",
                time=duration(fastest.duration_seconds),
                rules=t(language, f"rules.{fastest.rules}"),
                difficulty=t(language, f"difficulty.{fastest.difficulty}").lower(),
                players=count(language, "count.players", fastest.players),
            )
        )
    return lines


def _streak_line(streak: Streak, language: str) -> list[str]:
    """A kind of team's win streak, now and at best, once there was one."""
    if not streak.best:
        return []
    current, best = (count(language, "profile.streak.wins", n) for n in astuple(streak))
    return [t(language, "profile.streak", current=current, best=best)]


def leaderboard_embed(board: Leaderboard, language: str) -> Embed:
    """A server's fastest wins by difficulty and its best win records: all-human teams',
    then, apart, those of teams with AI crewmates."""
    embed = Embed(title=t(language, "leaderboard.title"), colour=EMBED_COLOUR)
    enough = count(language, "count.games", RANKED_MIN_GAMES)
    crews = board.fastest_wins_with_crewmates, board.players_with_crewmates
    if not (board.fastest_wins or board.players or any(crews)):
        embed.description = t(language, "leaderboard.none", games=enough)
        return embed
    sections = [("", board.fastest_wins, board.players)]
    if any(crews):
        sections.append(("_crewmates", *crews))
    for kind, fastest_wins, players in sections:
        for difficulty, wins in itertools.groupby(fastest_wins, key=lambda w: w.win.difficulty):
            lines = [
                t(
                    language,
                    "leaderboard.win",
                    rank=rank,
                    time=duration(fast.win.duration_seconds),
                    team=and_list([mention(player) for player in fast.team], language),
                    rules=t(language, f"rules.{fast.win.rules}"),
                )
                for rank, fast in enumerate(wins, 1)
            ]
            name = t(
                language,
                f"leaderboard.fastest{kind}",
                difficulty=t(language, f"difficulty.{difficulty}"),
                minutes=DIFFICULTY_MINUTES[difficulty],
            )
            embed.add_field(name=name, value="\n".join(lines)[:FIELD_LIMIT], inline=False)
        lines = [
            t(
                language,
                "leaderboard.player",
                rank=rank,
                player=mention(ranked.user_id),
                wins=count(language, "leaderboard.wins", ranked.wins),
                games=count(language, "count.games", ranked.games),
            )
            for rank, ranked in enumerate(players, 1)
        ] or [t(language, f"leaderboard.unranked{kind}", games=enough)]
        name = t(language, f"leaderboard.players{kind}", games=enough)
        embed.add_field(name=name, value="\n".join(lines)[:FIELD_LIMIT], inline=False)
    embed.set_footer(text=t(language, "leaderboard.footer"))
    return embed


def firsts_earned(
    firsts: Sequence[tuple[int, str]], seats: Sequence[int], language: str
) -> list[str]:
    """The firsts a game earned, as its end tells them: a line for each set of firsts, naming
    who earned it, in seat order ("🏅 @Ada and @Bob: first win and first win at hard")."""
    earned: dict[int, list[str]] = {}
    for person, kind in firsts:
        earned.setdefault(person, []).append(t(language, f"first.{kind}"))
    alike: dict[tuple[str, ...], list[str]] = {}
    for person in sorted(earned, key=lambda p: seats.index(p) if p in seats else len(seats)):
        alike.setdefault(tuple(earned[person]), []).append(mention(person))
    return [
        t(
            language,
            "firsts.earned",
            player=and_list(people, language),
            firsts=and_list(kinds, language),
        )
        for kinds, people in alike.items()
    ]
