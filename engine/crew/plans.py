"""The crew's plan search: the rockets worth aiming at from the pad, and their progress per turn.

Each rocket the pad can grow into (or a new one, after scrapping it) that can score is
worked out once per table (`candidates`, kept in caches) as a plain tuple (`Row`); a
search (`search`) scores them for one hand: expected progress per team turn, with the
turns its builds, its draws, the wait for the next section and its launch sequence take.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Final

from engine.cards import (
    Rules,
    Section,
    Size,
)
from engine.crew.team import Reading
from engine.odds import (
    ADDITIONS,
    BLUE,
    COLOURS,
    GREEN,
    RED,
    YELLOW,
    Points,
    index,
    odds_table,
)
from engine.views import PlayerView

#: Basic rules: a deflection counter counts for this share of its part of the counters
#: still to win. Progress shared between the two ways to win is worth less than its sum,
#: and teammates mostly aim at damage (tuned in the balance lab: all-crew and mixed teams
#: both win more often than at 1).
DEFLECT_WEIGHT = 0.25


#: Team turns a launch sequence takes when this hand does not hold it all: the suits are
#: gathered from several hands, over several rounds (tuned in the balance lab: 1.5 before,
#: which made many quick launches look better than they play).
SHARED_LAUNCH = 5.0


#: Team turns each card a rocket takes costs beyond the draws for those this hand lacks:
#: cards held now are spent, and the next rocket draws them again (tuned in the lab).
CARD_COST = 0.5


@dataclass(frozen=True, slots=True)
class PlannedRocket:
    """A rocket to aim at from the pad as it is (or after scrapping it).

    The plan caches hold each as a plain tuple of these fields (a `Row`), which the
    garbage collector stops tracking once it has seen it: tens of thousands of cached
    rockets as objects made every full collection take a tenth of a second.
    """

    bound: float  # the most progress per turn it can make, whatever the hands hold (its
    # least turns, and its cards drawn again)
    scrap: bool  # reached by scrapping the rocket on the pad first
    adds: tuple[tuple[int, ...], ...]  # sizes still to build, per colour, largest first
    cards: tuple[int, ...]  # cards still to play per colour: sections and launch sequence
    builds: int  # sections still to build
    launching: bool  # whether the launch sequence still needs cards
    next_size: int  # the size of the next section to build (0: none)
    next_colours: tuple[int, ...]  # the colours that can have a section of that size next
    total_cards: int  # sum(cards)
    least_turns: float  # turns it takes if every card it needs is at hand
    value: float  # expected progress of its launch (shares of a win)
    points: Points  # the finished rocket's points
    damage: float  # chance its launch damages Apophis
    deflect: float  # chance its launch adds a deflection counter


#: A `PlannedRocket` as a plain tuple, and the positions in it that the search reads.
Row = tuple[
    float,  # bound
    bool,  # scrap
    tuple[tuple[int, ...], ...],  # adds
    tuple[int, ...],  # cards
    int,  # builds
    bool,  # launching
    int,  # next_size
    tuple[int, ...],  # next_colours
    int,  # total_cards
    float,  # least_turns
    float,  # value
    Points,  # points
    float,  # damage
    float,  # deflect
]


# (Final: mypy reads each as its literal position, so row[VALUE] is a float.)
BOUND: Final = 0


SCRAP: Final = 1


CARDS: Final = 3


BUILDS: Final = 4


LAUNCHING: Final = 5


NEXT_SIZE: Final = 6


NEXT_COLOURS: Final = 7


TOTAL_CARDS: Final = 8


LEAST_TURNS: Final = 9


VALUE: Final = 10


POINTS: Final = 11


#: What the rockets worth aiming at depend on besides the pad: the rules, Apophis's
#: value, and what a damage and a deflection counter are worth (`progress_weights`).
Context = tuple[Rules, int, tuple[float, float]]


@dataclass(frozen=True, slots=True)
class Plan:
    score: float  # expected progress per team turn (a restart's divided by its margin);
    # all but nothing if it would fly too late
    turns: float  # team turns until it launches, by estimate
    row: Row  # the rocket

    @property
    def rocket(self) -> PlannedRocket:
        return PlannedRocket(*self.row)


@dataclass(frozen=True, slots=True)
class Setting:
    """What planning needs from the table, worked out once a decision."""

    keep: tuple[Row, ...]  # rockets the pad can grow into (or launch as it is), best bound first
    restart: tuple[Row, ...]  # rockets reached by scrapping the pad first, best bound first
    welcome: tuple[Row, ...] | None  # those of `keep` the next player meets well (None: all)
    evident: tuple[Row, ...]  # the team's evident plans (`engine.crew.team`), best bound first
    reading: Reading  # what the teammates' record says
    help_each: float  # cards of each colour teammates are counted on for
    solo: bool  # the player is alone at the table
    shared: bool  # the pad holds a section or launch card not known to be this player's
    hold: float  # the factor on launching the pad as it is (below 1: a teammate builds on it)
    context: Context  # the rules, Apophis's value and the weights of progress
    launch: tuple[int, ...]  # cards the launch sequence still needs, per colour


def progress_weights(rules: Rules, damage: int, counters: int) -> tuple[float, float]:
    """What a damage and a deflection counter are worth now, as shares of a win (a
    counter's share of the counters still to win, times `DEFLECT_WEIGHT`)."""
    if rules is Rules.ADVANCED:
        return 1 / (3 - damage), 0.0
    counters_left = 5 - counters
    deflect = DEFLECT_WEIGHT / counters_left
    return min(1.0, 1 / (3 - damage) + deflect), min(1.0, deflect)


def per_colour(cards: Iterable[str]) -> tuple[int, ...]:
    """Cards held per colour, in COLOURS order."""
    counts = [0, 0, 0, 0]
    for card in cards:
        counts[_SUIT_INDEX[card[-1]]] += 1
    return tuple(counts)


_SUIT_INDEX = {colour.suit: i for i, colour in enumerate(COLOURS)}


_FULL = ((3, 2, 1),) * 4


def available_sizes(view: PlayerView) -> tuple[tuple[int, ...], ...]:
    """Per colour, the sizes that can still be added to the pad (none once a launch
    sequence is under way)."""
    table = view.table
    if table.sequence:
        return ((), (), (), ())
    on_pad = {(COLOURS.index(c), int(s)) for c, s in table.rocket}
    top = int(table.rocket[-1][1]) if table.rocket else int(Size.LARGE)
    return tuple(tuple(s for s in (3, 2, 1) if s <= top and (i, s) not in on_pad) for i in range(4))


def search(
    rows: tuple[Row, ...],
    setting: Setting,
    have: tuple[int, ...],
    turns_left: float,
    floor: float,
    share: float,
    hold: float = 1.0,
    factor: float = 1.0,
) -> list[tuple[float, float, Row]]:
    """The plans (score, turns, rocket) among `rows` (best bound first) for a hand
    holding `have` that may score `floor` or more, the floor rising to `share` of the
    best score found (every plan left out scores less); launching the pad as it is
    counts `hold` times, and every score `factor` times (a restart's). A plan's score is
    its expected progress per team turn, all but nothing for a rocket that would not fly
    before time is up."""
    floor /= factor
    help_each, solo = setting.help_each, setting.solo
    held = sum(have) + 4 * help_each
    plans: list[tuple[float, float, Row]] = []
    for row in rows:
        if row[BOUND] < floor:
            break  # sorted by bound: no plan further on can reach the floor
        lacking = row[TOTAL_CARDS] - held  # at least this many cards must be drawn
        least = row[LEAST_TURNS] + CARD_COST * row[TOTAL_CARDS]
        if lacking > 0 and row[VALUE] / (least + lacking * 0.75) < floor:
            continue
        turns = _turns(row, have, help_each, solo)
        spent = turns + CARD_COST * row[TOTAL_CARDS]  # the cards it takes are drawn again
        rate = row[VALUE] / (spent if spent > 1.0 else 1.0)
        if not row[BUILDS]:
            rate *= hold
        score = rate if turns <= turns_left else rate * 0.01
        plans.append((score, turns, row))
        if score * share > floor:
            floor = score * share
    if factor != 1.0:
        plans = [(score * factor, turns, row) for score, turns, row in plans]
    return plans


def sort_rows(rows: tuple[Row, ...]) -> tuple[Row, ...]:
    return tuple(sorted(rows, key=lambda r: (-r[BOUND], r[POINTS])))


@lru_cache(maxsize=1 << 12)
def candidates(
    context: Context, base: Points, available: tuple[tuple[int, ...], ...], launch: tuple[int, ...]
) -> tuple[tuple[Row, ...], tuple[Row, ...]]:
    """The rockets to consider from this pad, and after scrapping it (if there is one),
    each highest bound first."""
    keep = sort_rows(_rockets(context, base, available, launch, False))
    return keep, (_fresh(context) if any(base) else ())


@lru_cache(maxsize=1 << 6)
def _fresh(context: Context) -> tuple[Row, ...]:
    """The rockets reached by scrapping the pad, highest bound first."""
    return sort_rows(_rockets(context, (0, 0, 0, 0), _FULL, (1, 1, 1, 1), True))


def _turns(rocket: Row, have: tuple[int, ...], help_each: float, solo: bool) -> float:
    """Team turns until a rocket launches, by estimate: scrapping first, its builds, the
    draws for the cards it lacks (two a draw, of random suits, so the suit most lacking
    costs more; teammates are counted on for a share of theirs), a wait while this hand
    cannot pay for the next section, and the launch sequence."""
    c0, c1, c2, c3 = rocket[CARDS]  # colour by colour: this is the policy's innermost loop
    h0, h1, h2, h3 = have
    total = biggest = 0.0
    for short in (
        c0 - h0 - help_each,
        c1 - h1 - help_each,
        c2 - h2 - help_each,
        c3 - h3 - help_each,
    ):
        if short > 0:
            total += short
            if short > biggest:
                biggest = short
    size = lacking = rocket[NEXT_SIZE]
    for i in rocket[NEXT_COLOURS]:  # the colours whose largest section to build is that size
        held = have[i]
        if size - held < lacking:
            lacking = size - held if held < size else 0
    # a launch sequence takes one turn from a hand that holds it all, longer when shared
    if rocket[LAUNCHING]:
        at_hand = solo or (c0 <= h0 and c1 <= h1 and c2 <= h2 and c3 <= h3)
        launching = 1.0 if at_hand else SHARED_LAUNCH
    else:
        launching = 0.0
    return rocket[SCRAP] + rocket[BUILDS] + total / 2 + biggest + lacking + launching


@lru_cache(maxsize=1 << 10)
def _rockets(
    context: Context,
    base: Points,
    available: tuple[tuple[int, ...], ...],
    launch: tuple[int, ...],
    scrap: bool,
) -> tuple[Row, ...]:
    """The rockets worth aiming at from `base` by adding available sections: each
    scoring, with the least yellow that fuels it."""
    rules, apophis, _ = context
    opts = [ADDITIONS[a] for a in available]
    blue_cap = max(6 - apophis, base[BLUE])  # more guidance than this cannot help
    blues = [o for o in opts[BLUE] if base[BLUE] + o[0] <= blue_cap]
    if len(blues) < len(opts[BLUE]) and (not blues or base[BLUE] + blues[-1][0] < blue_cap):
        blues.append(opts[BLUE][len(blues)])
    greens = opts[GREEN]
    if rules is Rules.ADVANCED:  # only whole pairs of green points give rerolls
        greens = tuple(o for o in greens if o[0] == 0 or (base[GREEN] + o[0]) % 2 == 0)
    # the fewest yellow sections reaching each fuel level (None: out of reach)
    fuelled = [
        next((o for o in opts[YELLOW] if base[YELLOW] + o[0] >= fuel), None) for fuel in range(7)
    ]
    found: list[Row] = []
    for red, reds in opts[RED]:
        r = base[RED] + red
        for blue, blues_added in blues:
            b = base[BLUE] + blue
            for green, greens_added in greens:
                g = base[GREEN] + green
                fuel = fuelled[min(-(-(g + r + b) // 3), 6)]
                if fuel is None:
                    continue
                row = _row(context, base, (greens_added, reds, blues_added, fuel[1]), launch, scrap)
                if row is not None:
                    found.append(row)
    return tuple(found)


def _row(
    context: Context,
    base: Points,
    adds: tuple[tuple[int, ...], ...],
    launch: tuple[int, ...],
    scrap: bool,
) -> Row | None:
    """The rocket `base` grows into by adding sections of these sizes per colour (largest
    first), with its launch sequence's cards per colour still to play; None if it cannot
    score."""
    rules, apophis, (w_damage, w_deflect) = context
    added = (sum(adds[0]), sum(adds[1]), sum(adds[2]), sum(adds[3]))
    points = (base[0] + added[0], base[1] + added[1], base[2] + added[2], base[3] + added[3])
    if max(points) > 6:
        return None  # beyond the odds tables: more than the depot holds
    damage, deflect = odds_table(rules, apophis)[index(points)]
    value = w_damage * damage + w_deflect * deflect
    if value <= 0:
        return None
    builds = len(adds[0]) + len(adds[1]) + len(adds[2]) + len(adds[3])
    next_size, next_colours = _NEXT[tuple(sizes[0] if sizes else 0 for sizes in adds)]
    launching = any(launch)
    least_turns = scrap + builds + (1.0 if launching else 0.0)
    cards = (
        added[0] + launch[0],
        added[1] + launch[1],
        added[2] + launch[2],
        added[3] + launch[3],
    )
    return (  # a PlannedRocket's fields, in order
        value / max(least_turns + CARD_COST * sum(cards), 1.0),
        scrap,
        adds,
        cards,
        builds,
        launching,
        next_size,
        next_colours,
        sum(cards),
        least_turns,
        value,
        points,
        damage,
        deflect,
    )


@lru_cache(maxsize=1 << 10)
def planned(
    context: Context, base: Points, adds: tuple[tuple[int, ...], ...], launch: tuple[int, ...]
) -> Row | None:
    """A rocket the team evidently aims at, from the pad (None: it cannot score now)."""
    return _row(context, base, adds, launch, False)


def lacking_sizes(
    rocket: tuple[Section, ...], plan: tuple[Section, ...]
) -> tuple[tuple[int, ...], ...]:
    """The sizes per colour (largest first) that `rocket` lacks of `plan`."""
    lacking = [(c, int(s)) for c, s in plan if (c, s) not in rocket]
    return tuple(
        tuple(sorted((s for c, s in lacking if c is colour), reverse=True)) for colour in COLOURS
    )


def _next_sections(firsts: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """From the largest size still to build of each colour (0: none): the size of the
    next section to build and the colours that can have it."""
    size = max(firsts)
    return size, tuple(i for i, first in enumerate(firsts) if size and first == size)


_NEXT = {firsts: _next_sections(firsts) for firsts in product((0, 1, 2, 3), repeat=4)}


def clear_cache() -> None:
    """Forget the plans worked out so far (they are a cache: decisions do not change)."""
    _rockets.cache_clear()
    candidates.cache_clear()
    _fresh.cache_clear()
    planned.cache_clear()
