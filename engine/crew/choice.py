"""The crew's choice of aim: the table read for planning, and the plans worth aiming at from there.

`read_setting` works out once a decision what planning needs from the table (the
rockets to consider, those the next player meets well, the team's evident plans);
`choose` picks the plans worth aiming at: the team's evident one if it is worth
following, else those on the pad, and those after scrapping it where scrapping is
allowed (see `engine.crew`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, cast

from engine.cards import (
    Rules,
    Section,
    Size,
)
from engine.crew.notices import why_dead
from engine.crew.plans import (
    BUILDS,
    NEXT_COLOURS,
    NEXT_SIZE,
    POINTS,
    SCRAP,
    Context,
    Plan,
    Row,
    Setting,
    available_sizes,
    candidates,
    lacking_sizes,
    per_colour,
    planned,
    progress_weights,
    search,
    sort_rows,
)
from engine.crew.team import Reading, fits
from engine.odds import (
    COLOURS,
    points_of,
)
from engine.views import PlayerView

#: Share of teammates' cards expected to be of use to a plan.
_TEAM_HELP = 0.3


#: A plan within this share of the best one is preferred if its next step is possible now.
NEAR_BEST = 0.8


#: A rocket of the crewmate's own is scrapped only for a plan whose expected progress per
#: turn is at least this many times the best plan's on it (tuned in the balance lab).
RESTART_MARGIN = 2.0


#: A teammate who just built on the pad means to go on: launching it as it is must be this
#: many times better than the best plan that builds on (tuned in the balance lab).
LAUNCH_MARGIN = 1.5


#: The team's evident plan is followed while its expected progress per turn is at least
#: this share of the best plan's (tuned in the balance lab's cross-play).
FOLLOW = 0.5


#: Beside people in basic rules it is followed whatever the crew's own plan is worth,
#: while it has sections to add (launching the pad as it is is weighed as ever): a
#: person whose rocket is taken off their way may launch what they find. In advanced
#: rules the launch roll and the fail-safes make the crew's own rockets launch clearly
#: better, and following more readily lost games there (the balance lab's cross-play,
#: and docs/crew.md).
FOLLOW_PEOPLE_BASIC = 0.0


@dataclass(frozen=True, slots=True)
class Choice:
    """The plans worth aiming at, and whether and why the pad may be scrapped."""

    plans: list[Plan]  # best first, down to the share of the best worth considering
    keep_best: Plan | None  # the best plan on the pad (None: the pad cannot fly)
    notice: str | None  # why scrapping is allowed (a scrap notice), None: only to restart
    notice_params: dict[str, Any]
    followed: bool = False  # the plan is the team's evident one (`engine.crew.team`)
    waiting: bool = False  # no plan leaves the next player a welcome rocket (`keep_best`'s)


def read_setting(view: PlayerView, reading: Reading, absent: bool = False) -> Setting:
    """The table's part of planning (`absent`: the seat's own sections and launch cards
    are its absent player's, kept as a teammate's)."""
    table = view.table
    in_sequence = set(table.sequence)
    context = (
        table.rules,
        table.apophis_value,
        progress_weights(table.rules, table.damage, table.counters),
    )
    launch = tuple(0 if c in in_sequence else 1 for c in COLOURS)
    keep, restart = candidates(context, points_of(table.rocket), available_sizes(view), launch)
    evident = _evident(view, reading, absent, context, launch)
    welcome = _welcomed(view, reading, keep, context, launch)
    others = sum(seat.hand_size for seat in table.seats if seat.player != view.player)
    solo = len(table.seats) == 1
    owners = (*table.builders, *table.sequence_players)
    # an absent player's own pieces are kept as a teammate's would be
    shared = bool(owners) if absent else not solo and any(p != view.player for p in owners)
    building = bool(table.builders) and not table.sequence
    if building and (absent or (table.builders[-1] != view.player and not solo)):
        hold = 1 / LAUNCH_MARGIN  # the top section's builder means to go on
    else:
        hold = 1.0
    help_each = others * _TEAM_HELP / 4
    return Setting(
        keep, restart, welcome, evident, reading, help_each, solo, shared, hold, context, launch
    )


def _evident(
    view: PlayerView, reading: Reading, absent: bool, context: Context, launch: tuple[int, ...]
) -> tuple[Row, ...]:
    """The team's evident plans from the pad, best bound first: the absent player's (the
    autopilot), or, on a rocket whose top section a teammate built, the rockets teammates
    launched that it can grow into (a big builder's finished ones, whoever built it)."""
    table = view.table
    top = table.builders[-1] if table.builders else None
    if absent:
        plans = reading.plans
    elif reading.big:
        plans = reading.finished
    else:
        plans = reading.aims if top is not None and top != view.player else ()
    base = points_of(table.rocket)
    return sort_rows(
        tuple(
            row
            for plan in plans
            if (row := planned(context, base, lacking_sizes(table.rocket, plan), launch))
            is not None
        )
    )


def _welcomed(
    view: PlayerView,
    reading: Reading,
    keep: tuple[Row, ...],
    context: Context,
    launch: tuple[int, ...],
) -> tuple[Row, ...] | None:
    """The plans whose next section the next player meets well, when a teammate of a way
    of their own plays next or is building (None: all are): their way followed (the
    rockets they finished and launched among them), and the launch left to them unless
    they launched such a rocket before."""
    table = view.table
    top = table.builders[-1] if table.builders else None
    if not (reading.next_player in reading.launchers or top in reading.launchers):
        return None
    base = points_of(table.rocket)
    depot = frozenset(table.depot)
    sent = tuple(
        row
        for plan in reading.sent
        if not table.sequence
        and fits(plan, table.rocket, depot)
        and (row := planned(context, base, lacking_sizes(table.rocket, plan), launch)) is not None
    )
    launching = bool(table.sequence) or reading.launched(table.rocket)
    met: dict[Section, bool] = {}  # each next section's welcome, worked out once
    met_rows: list[Row] = []
    for row in sort_rows(tuple(dict.fromkeys(keep + sent))):
        met_row = _welcome(view, reading, row, met) if row[BUILDS] else None
        if met_row is not None or (launching and not row[BUILDS]):
            met_rows.append(met_row or row)
    return tuple(met_rows)


def _welcome(view: PlayerView, reading: Reading, row: Row, met: dict[Section, bool]) -> Row | None:
    """A plan whose next section may leave a rocket the next player meets well
    (`Reading.welcome`), its next colours narrowed to those that do, so that its turns
    count the wait for one of them (None: none does); `met` keeps each section's answer
    for the other plans."""
    table = view.table
    size = Size(row[NEXT_SIZE])
    colours = []
    for i in row[NEXT_COLOURS]:
        section = (COLOURS[i], size)
        if section not in met:
            met[section] = reading.welcome(table.rules, table.rocket, section)
        if met[section]:
            colours.append(i)
    if not colours:
        return None
    if len(colours) == len(row[NEXT_COLOURS]):
        return row
    return cast(Row, (*row[:NEXT_COLOURS], tuple(colours), *row[NEXT_COLOURS + 1 :]))


def choose(view: PlayerView, setting: Setting, turns_left: float) -> Choice:
    """The plans worth aiming at from here: the team's evident plan if it is worth
    following, else those on the pad, and those after scrapping it where scrapping is
    allowed (see the module's docstring)."""
    have = per_colour(view.hand)
    rows = setting.keep if setting.welcome is None else setting.welcome
    kept = search(rows, setting, have, turns_left, 0.0, NEAR_BEST, setting.hold)
    keep_best = max(kept, default=None)
    if keep_best is None and setting.welcome is not None:
        # the pad can fly, but every plan's next section would leave the next player a
        # rocket they do not meet well: wait for them
        full = search(setting.keep, setting, have, turns_left, 0.0, NEAR_BEST, setting.hold)
        if full:
            return Choice([], Plan(*max(full)), None, {}, waiting=True)
    if keep_best is not None and setting.evident:
        followed = Plan(
            *max(search(setting.evident, setting, have, turns_left, 0.0, 1.0, setting.hold))
        )
        basic = setting.context[0] is Rules.BASIC
        builds = followed.row[BUILDS]  # it adds sections, not launches the pad as it is
        follow = FOLLOW_PEOPLE_BASIC if basic and builds and setting.reading.people else FOLLOW
        if followed.score >= follow * keep_best[0]:
            return Choice([followed], Plan(*keep_best), None, {}, followed=True)
    notice: str | None = None
    notice_params: dict[str, Any] = {}
    if not setting.restart:
        factor = 0.0  # nothing on the pad
    elif keep_best is None:
        factor = 1.0
        notice, notice_params = why_dead(view)
    else:
        factor = 0.0 if setting.shared else 1 / RESTART_MARGIN
        if keep_best[1] > turns_left:  # too late for every plan on the pad: is a new one not?
            fresh = max(search(setting.restart, setting, have, turns_left, 0.0, 1.0), default=None)
            if fresh is not None and fresh[1] <= turns_left:
                factor = 1.0
                notice = "scrap_too_late"
                notice_params = {
                    "turns_left": round(turns_left),
                    "turns_needed": math.ceil(keep_best[1]),
                }
    floor = keep_best[0] * NEAR_BEST if keep_best is not None else 0.0
    restarts = (
        search(setting.restart, setting, have, turns_left, floor, NEAR_BEST, factor=factor)
        if factor
        else []
    )
    found = kept + restarts
    floor = max((score * NEAR_BEST for score, _, _ in found), default=0.0)
    plans = [Plan(*plan) for plan in found if plan[0] >= floor]
    plans.sort(key=lambda p: (-p.score, p.row[SCRAP], p.row[POINTS]))
    return Choice(plans, None if keep_best is None else Plan(*keep_best), notice, notice_params)
