"""The crew reading its teammates from the public record: the plans they build toward, who launches.

Everything here comes from one player's view: the rocket on the pad (who built each
section, who played each launch card) and the rockets of the game so far
(`PublicView.past_rockets`). Nothing is remembered between decisions, so a reading is
deterministic and the same for every copy of the view.

- Launchers: the teammates seen starting a launch sequence on a rocket that could not
  score (it failed the fuel check or had no warhead). Such a teammate starts one on
  what they find when it is not on their own way, so before their turn the crew leaves
  only a rocket that can score, or one they have built on before.
- Built on: for each teammate, the rockets (as sets of sections) they have added a
  section to this game: the steps of their own plans.
- The team's evident plans: the rockets launched or scrapped earlier that could score
  and hold a section a teammate built, latest first, each kept only if the pad can still
  grow into it. When the crew plays the seat of an absent player (the autopilot), that
  player's own rockets count first, and their own sections are a teammate's: what they
  were building is the plan it carries on.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.cards import Rules, Section, Size, fuel_needed
from engine.events import PlayerId
from engine.game import PlayerView
from engine.odds import points_of

#: A rocket as the set of its sections (each section exists once: the order is its sizes').
Pad = frozenset[Section]


@dataclass(frozen=True, slots=True)
class Reading:
    """What the crew reads of its teammates in one view (see the module docstring)."""

    plans: tuple[tuple[Section, ...], ...]  # evident plans the pad can grow into, latest first
    launchers: frozenset[PlayerId]  # teammates who launch what they find off their way
    next_player: PlayerId | None  # who plays after the viewing player (None: nobody else)
    built_on: frozenset[Pad]  # the rockets the next player built, or added a section to

    @property
    def guarded(self) -> bool:
        """Whether the next player is a launcher: the rocket left to them must score or
        be one they have built on."""
        return self.next_player in self.launchers

    def welcome(self, rules: Rules, rocket: Iterable[Section]) -> bool:
        """Whether a launcher playing next meets `rocket` well: it is on their own way
        (they have built on it, or built it), or it can score."""
        rocket = tuple(rocket)
        return frozenset(rocket) in self.built_on or can_score(rules, rocket)


def can_score(rules: Rules, rocket: Iterable[Section]) -> bool:
    """Whether a rocket launched as it is can do something: it passes the fuel check and
    carries a warhead that scores under these rules (red; green too in basic rules)."""
    green, red, blue, yellow = points_of(rocket)
    total = green + red + blue + yellow
    if not total or yellow < fuel_needed(total):
        return False
    return bool(red or (green and rules is Rules.BASIC))


def fits(plan: tuple[Section, ...], rocket: tuple[Section, ...], depot: frozenset[Section]) -> bool:
    """Whether `rocket` can still grow into `plan`: every section of it is in the plan,
    and the plan's others are in the depot and no larger than its top."""
    if any(piece not in plan for piece in rocket):
        return False
    top = rocket[-1][1] if rocket else Size.LARGE
    return all(p in depot and p[1] <= top for p in plan if p not in rocket)


def read(view: PlayerView, absent: bool = False) -> Reading:
    """The reading of the viewing player's teammates (`absent`: the player is away and the
    crew plays their seat, whose own rockets are the plan to carry on)."""
    table = view.table
    me = view.player
    seats = [seat.player for seat in table.seats]
    others = frozenset(p for p in seats if p != me)
    next_player = None
    if len(seats) > 1 and me in seats:
        next_player = seats[(seats.index(me) + 1) % len(seats)]
    rules = table.rules
    rockets = [(p.rocket, p.builders, p.sequence_players) for p in table.past_rockets]
    rockets.append((table.rocket, table.builders, table.sequence_players))
    launchers = frozenset(
        players[0]
        for rocket, _, players in rockets
        if players and players[0] in others and not can_score(rules, rocket)
    )
    built_on = frozenset(
        frozenset(rocket[:end])
        for rocket, builders, _ in rockets
        for i, builder in enumerate(builders)
        if builder == next_player != me
        for end in (i, i + 1)
    )
    owners = others | {me} if absent else others
    plans: list[tuple[Section, ...]] = []
    if not table.sequence:
        depot = frozenset(table.depot)
        past = list(reversed(table.past_rockets))
        if absent:  # the absent player's own rockets first: the plan to carry on
            past.sort(key=lambda p: me not in p.builders)
        for rocket in past:
            plan = rocket.rocket
            if (
                plan not in plans
                and any(b in owners for b in rocket.builders)
                and can_score(rules, plan)
                and fits(plan, table.rocket, depot)
            ):
                plans.append(plan)
    return Reading(tuple(plans), launchers, next_player, built_on)
