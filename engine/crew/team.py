"""The crew reading its teammates from the public record: whose way to follow, and what that way is.

Everything here comes from one player's view: the rocket on the pad (who built each
section and in which turn, who played each launch card and in which turn) and the
rockets of the game so far (`PublicView.past_rockets`). Nothing is remembered between
decisions, so a reading is deterministic and the same for every copy of the view.

Most teammates adapt: they build on what they find and launch it when it is worth it,
and the crew plays its own best plan beside them. Some follow a way of their own and do
harm off it: a teammate seen starting a launch sequence on a rocket that could not score
(it failed the fuel check or had no warhead) is a launcher, who launches what they find
when it is not on their way. Before a launcher's turn the crew leaves them only a rocket
they meet well (`Reading.welcome`): one that can score, or one on their way, read from
what teammates did (`steps`: the section each built on each rocket; `sent`: the rockets
able to score that launchers finished and launched, what they aim at). It takes the same
care while the rocket's top section is the next player's and nothing shows yet that
they build on others' sections (`untried`), and it lets launchers choose when to launch
(see `engine.crew`).

How its people build: the seats played by AI crewmates are public (the lobby and the
board show them as such: `crewmates`), and the crew reads the way of building of the
others only, the people at the table (an absent player's seat on autopilot is a
person's). For each person, the sections they built where a large one fitted (on an
empty pad, or on a large among the first three sections), and whether each was large.
While the table has people and none of them has built a large one there less than
`LARGE_SHARE` of the times (two or more seen), the team builds large sections first
(`large_first`): the crew then draws for its best plan's large section rather than
start, or go on with, a smaller one that would take the pad off theirs. A person who
built only large ones there (two or more) is a big builder (`big`): the rockets people
finished (built the top section) and started launching are then the team's evident plan
on any pad (`finished`); and a big builder launches a rocket off their list as soon as
it can score and is worth their while, so before a person's turn (`next_person`) the
crew adds no smaller section that would leave them such a rocket, worth less launched
as it is than its plan (see `engine.crew`). A team of crewmates alone reads none of
this: it plays as the crew always has.

The team's evident plans: `aims`, the rockets able to score whose launch a teammate
started this game, that the pad can still grow into (latest first); and `plans`, for the
autopilot: when the crew plays the seat of an absent player, the rockets launched or
scrapped earlier that could score and hold a section a player built, theirs first,
latest first, each kept only if the pad can still grow into it: what they were building
is the plan it carries on.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass

from engine.cards import ALL_SECTIONS, Rules, Section, Size, fuel_needed
from engine.events import PlayerId
from engine.odds import points_of
from engine.views import PlayerView

#: A teammate who built a large section fewer than this share of the times a large one
#: fitted (two or more seen) builds smaller ones first (see `Reading.large_first`).
LARGE_SHARE = 0.75
#: A rocket as the set of its sections (each section exists once: the order is its sizes').
Pad = frozenset[Section]
Rocket = tuple[Section, ...]


@dataclass(frozen=True, slots=True)
class Reading:
    """What the crew reads of its teammates in one view (see the module docstring)."""

    next_player: PlayerId | None  # who plays after the viewing player (None: nobody else)
    launchers: frozenset[PlayerId]  # teammates who launch what they find off their way
    untried: bool  # the rocket's top section is the next player's, whom nothing shows yet
    # to build on what others built
    steps: frozenset[tuple[Pad, Section]]  # the sections teammates built, and on what
    sent: tuple[Rocket, ...]  # rockets able to score that launchers finished and launched
    plans: tuple[Rocket, ...]  # the team's evident plans that the pad fits (the autopilot's)
    aims: tuple[Rocket, ...]  # rockets teammates started launching, that the pad fits
    built_on: frozenset[Pad]  # the rockets teammates added a section to (as in `steps`)
    finished: tuple[Rocket, ...]  # rockets able to score a person (not a crewmate) finished
    # (built its top section) and started launching, that the pad fits, latest first
    large_first: bool  # people build large sections where a large fits (`LARGE_SHARE`)
    big: bool  # a person builds only large sections where a large fits (two or more seen)
    next_person: bool  # the next player is a person (not a crewmate, nor the viewing player)
    people: bool  # a person (not a crewmate) plays at the table beside the viewing player

    @property
    def guarded(self) -> bool:
        """Whether the rocket left to the next player must be one they meet well
        (`welcome`): they launch what they find off their way, or they are building it
        and nothing shows yet whether they would build on another's section."""
        return self.next_player in self.launchers or self.untried

    def welcome(self, rules: Rules, rocket: Rocket, section: Section) -> bool:
        """Whether the next player meets `rocket` with `section` on it well: nothing is
        feared of them (not `guarded`), or it can score, or it is on their way (a teammate
        built that section on that rocket, or such a rocket, or it can still grow into a
        rocket a launcher finished and launched)."""
        after = (*rocket, section)
        if not self.guarded or can_score(rules, after):
            return True
        pad = frozenset(after)
        if (frozenset(rocket), section) in self.steps or pad in self.built_on:
            return True
        depot = frozenset(ALL_SECTIONS) - pad
        return any(fits(sent, after, depot) for sent in self.sent)

    def known(self, rocket: Rocket) -> frozenset[Section]:
        """The sections teammates have built on this rocket."""
        pad = frozenset(rocket)
        return frozenset(section for on, section in self.steps if on == pad)

    def launched(self, rocket: Rocket) -> bool:
        """Whether launchers finished and launched this rocket (it is one they aim at)."""
        pad = frozenset(rocket)
        return any(frozenset(sent) == pad for sent in self.sent)


def can_score(rules: Rules, rocket: Iterable[Section]) -> bool:
    """Whether a rocket launched as it is can do something: it passes the fuel check and
    carries a warhead that scores under these rules (red; green too in basic rules)."""
    green, red, blue, yellow = points_of(rocket)
    total = green + red + blue + yellow
    if not total or yellow < fuel_needed(total):
        return False
    return bool(red or (green and rules is Rules.BASIC))


def fits(plan: Rocket, rocket: Rocket, depot: frozenset[Section]) -> bool:
    """Whether `rocket` can still grow into `plan`: every section of it is in the plan,
    and the plan's others are in the depot and no larger than its top."""
    if any(piece not in plan for piece in rocket):
        return False
    top = rocket[-1][1] if rocket else Size.LARGE
    return all(p in depot and p[1] <= top for p in plan if p not in rocket)


#: The rockets of the game, the one on the pad last: each as its sections, who built
#: them, and who played its launch cards (None: not known).
Seats = tuple[PlayerId | None, ...]
History = list[tuple[Rocket, Seats, Seats]]


def read(view: PlayerView, absent: bool = False, crewmates: Collection[PlayerId] = ()) -> Reading:
    """The reading of the viewing player's teammates (`absent`: the player is away and the
    crew plays their seat, whose own rockets are the plan to carry on; `crewmates`: the
    seats AI crewmates play, public at the table)."""
    table = view.table
    me = view.player
    seats = [seat.player for seat in table.seats]
    others = frozenset(p for p in seats if p != me)
    people = others.difference(crewmates)
    next_player = None
    if len(seats) > 1 and me in seats:
        next_player = seats[(seats.index(me) + 1) % len(seats)]
    rules = table.rules
    rockets: History = [(p.rocket, p.builders, p.sequence_players) for p in table.past_rockets]
    rockets.append((table.rocket, table.builders, table.sequence_players))
    launchers = frozenset(
        players[0]
        for rocket, _, players in rockets
        if players and players[0] in others and not can_score(rules, rocket)
    )
    steps = frozenset(
        (frozenset(rocket[:i]), rocket[i])
        for rocket, builders, _ in rockets
        for i, builder in enumerate(builders)
        if builder in others
    )
    sent = tuple(
        dict.fromkeys(
            rocket
            for rocket, builders, players in reversed(rockets)
            if players
            and players[0] in launchers
            and builders[-1:] == players[:1]
            and can_score(rules, rocket)
        )
    )
    large_first, big = _large_ones(rockets, people)
    return Reading(
        next_player,
        launchers,
        sent=sent,
        steps=steps,
        untried=_untried(view, rockets, next_player),
        plans=_plans(view, absent),
        aims=_launched(view, rockets, lambda builders, players: players[0] in others),
        built_on=frozenset(on for on, _ in steps),
        # a person's rockets they built the top of and launched themselves
        finished=_launched(
            view,
            rockets,
            lambda builders, players: players[0] in people and builders[-1:] == players[:1],
        ),
        large_first=large_first,
        big=big,
        next_person=next_player in people,
        people=bool(people),
    )


def _untried(view: PlayerView, rockets: History, next_player: PlayerId | None) -> bool:
    """Whether the pad's top section is the next player's, and nothing shows yet that
    they build on others' sections."""
    table = view.table
    return (
        bool(table.builders)
        and table.builders[-1] == next_player != view.player
        and not any(
            builder == next_player and i and builders[i - 1] != next_player
            for _, builders, _ in rockets
            for i, builder in enumerate(builders)
        )
    )


def _launched(
    view: PlayerView, rockets: History, chosen: Callable[[Seats, Seats], bool]
) -> tuple[Rocket, ...]:
    """The rockets launched this game (newest first, each once) that `chosen(builders,
    launchers)` picks, that can score and that the pad (no sequence begun) can grow into."""
    table = view.table
    if table.sequence:
        return ()
    depot = frozenset(table.depot)
    return tuple(
        dict.fromkeys(
            rocket
            for rocket, builders, players in reversed(rockets[:-1])
            if players
            and chosen(builders, players)
            and can_score(table.rules, rocket)
            and fits(rocket, table.rocket, depot)
        )
    )


def _large_ones(rockets: History, people: frozenset[PlayerId]) -> tuple[bool, bool]:
    """How the people build where a large section fits (on an empty pad, or on a large
    among the first three): large ones first (`Reading.large_first`), and only large
    ones, one of them at least (`Reading.big`)."""
    sizes: dict[PlayerId, list[bool]] = {}  # each person's sections there: whether large
    for rocket, builders, _ in rockets:
        for i, builder in enumerate(builders[:3]):
            if builder in people and (not i or rocket[i - 1][1] is Size.LARGE):
                sizes.setdefault(builder, []).append(rocket[i][1] is Size.LARGE)
    large_first = bool(people) and not any(
        len(large) >= 2 and sum(large) < LARGE_SHARE * len(large) for large in sizes.values()
    )
    big = any(len(large) >= 2 and all(large) for large in sizes.values())
    return large_first, big


def _plans(view: PlayerView, absent: bool) -> tuple[Rocket, ...]:
    """The team's evident plans (see the module docstring); none unless `absent`."""
    table = view.table
    me = view.player
    if not absent or table.sequence:
        return ()
    owners = {seat.player for seat in table.seats}
    depot = frozenset(table.depot)
    past = list(reversed(table.past_rockets))
    past.sort(key=lambda p: me not in p.builders)  # the absent player's own rockets first
    plans: list[Rocket] = []
    for rocket in past:
        plan = rocket.rocket
        if (
            plan not in plans
            and any(b in owners for b in rocket.builders)
            and can_score(table.rules, plan)
            and fits(plan, table.rocket, depot)
        ):
            plans.append(plan)
    return tuple(plans)
