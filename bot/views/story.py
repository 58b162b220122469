"""What the end of a game tells: how it ended, each launch and what came of it, the damage
done of what was needed, and the time left or how far short the team fell.

Pure: read from the game's public view, its clock (`Table.time_left`), its logged
events (`Table.history`, read as bot.views.launches reads them) and the firsts it earned
(`Table.firsts`), nothing else. `story` gives the facts, worded in one language; the
final board (bot.views.components) shows them in `board_text`, the live table reads them
as `Story.as_json()`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.i18n.catalogs import t
from bot.views import records, render, table_state
from bot.views.launches import Launch, launch_line
from bot.views.launches import launches as launches_of
from engine import Outcome, Rules
from engine.game import COUNTERS_TO_DEFLECT, DAMAGE_TO_DESTROY

if TYPE_CHECKING:
    from bot.table import Table


@dataclass(frozen=True, slots=True)
class Story:
    """A game's end, its words in `language`.

    `outcome` is the engine's ("destroyed", "deflected", "lost", "abandoned"; a game
    stopped without one reads "abandoned"), None while the game is still in play (then
    `headline` is empty). `counters` and `counters_needed` are None under advanced
    rules, which have no deflection. `time_left` (seconds) is what the clock had left
    when the game was won or ended, None for a loss; `short` says how far short a lost
    game fell (None otherwise).
    """

    language: str
    outcome: str | None
    won: bool
    headline: str
    launches: tuple[Launch, ...]
    #: Each launch in one line ("1. 🟥L 🟨M, 5 pts → hit, damage 2/3"), as `launches`.
    lines: tuple[str, ...]
    damage: int
    damage_needed: int
    counters: int | None
    counters_needed: int | None
    time_left: float | None
    short: str | None
    #: The firsts its people earned with it, a line for each set of firsts and those who
    #: earned it (bot.views.records.firsts_earned).
    firsts: tuple[str, ...] = ()

    @property
    def hits(self) -> int:
        return sum(launch.result == "hit" for launch in self.launches)

    def as_json(self) -> table_state.Story:
        """The story as plain JSON for the live table (times in whole seconds)."""
        return {
            "outcome": self.outcome,
            "won": self.won,
            "headline": self.headline,
            "launches": [
                {
                    "sections": [
                        {"colour": colour, "size": size} for colour, size in launch.rocket
                    ],
                    "points": launch.total,
                    "result": launch.result,
                    "line": line,
                }
                for launch, line in zip(self.launches, self.lines, strict=True)
            ],
            "damage": self.damage,
            "damage_needed": self.damage_needed,
            "counters": self.counters,
            "counters_needed": self.counters_needed,
            "time_left": None if self.time_left is None else round(self.time_left),
            "short": self.short,
            "firsts": list(self.firsts),
        }


def story(table: Table, language: str, now: float) -> Story:
    """The story of `table`'s game (it must have one) in `language`, its clock read at
    `now` (unix time)."""
    view = table.started_game.public_view()
    outcome = view.outcome
    if outcome is None and not table.open:  # stopped without a result
        outcome = Outcome.ABANDONED
    basic = view.rules is Rules.BASIC
    counters = view.counters if basic else None
    found = tuple(launches_of(table.history))
    left = table.time_left(now) if outcome is not None and outcome is not Outcome.LOST else None
    return Story(
        language=language,
        outcome=None if outcome is None else outcome.value,
        won=outcome is not None and outcome.won,
        headline="" if outcome is None else _headline(outcome, left, language),
        launches=found,
        lines=tuple(launch_line(n, each, language) for n, each in enumerate(found, 1)),
        damage=view.damage,
        damage_needed=DAMAGE_TO_DESTROY,
        counters=counters,
        counters_needed=COUNTERS_TO_DEFLECT if basic else None,
        time_left=left,
        short=_short(view.damage, counters, language) if outcome is Outcome.LOST else None,
        firsts=tuple(records.firsts_earned(table.firsts, table.seats, language)),
    )


def _headline(outcome: Outcome, left: float | None, language: str) -> str:
    """One line: who won or lost, and with how much time left."""
    if outcome is Outcome.LOST:
        return t(language, "story.headline.lost")
    key = f"story.headline.{outcome.value}" + ("" if left is None else "_spare")
    return t(language, key, left=render.duration(left or 0))


def _short(damage: int, counters: int | None, language: str) -> str:
    """How far short a lost game fell: the damage still needed to destroy Apophis, and
    under basic rules the deflection counters still needed to deflect it."""
    said = [t(language, "story.short.damage", count=DAMAGE_TO_DESTROY - damage)]
    if counters is not None:
        said.append(t(language, "story.short.counters", count=COUNTERS_TO_DEFLECT - counters))
    return " ".join(said)


def board_text(told: Story) -> str:
    """The final board's description: the headline in bold, then the damage (and the
    deflection), the launches and their hits, and how far short a lost game fell."""
    language = told.language
    launched = t(language, "story.launches", count=len(told.launches))
    hits = t(language, "story.hits", count=told.hits)
    basic = told.counters is not None
    tally = t(
        language,
        f"story.tally.{'basic' if basic else 'advanced'}",
        damage=told.damage,
        counters=told.counters,
        launches=launched,
        hits=hits,
    )
    lines = [f"**{told.headline}**" if told.headline else "", tally, told.short or ""]
    return "\n".join(line for line in lines if line)
