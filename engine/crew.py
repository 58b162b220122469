"""The crew policy: a strong player of Apophis and a teammate first, deciding from one view.

`decide(view, time_left, absent=False, crewmates=())` is given a PlayerView (its own
hand and the table), the game time left and the seats AI crewmates play (public at the
table), nothing else, so it cannot peek at other hands or the deck. It plans
the rocket whose expected progress per team turn is best (fuel check passed, accuracy,
damage and deflection odds, fail-safe rerolls, the cards its own hand holds and those
its teammates probably hold, the turns left on the clock), then takes that plan's next
step: build, start or extend the launch sequence (completing teammates' sequences),
draw for what is missing, or scrap. It is deterministic: the same view and time give
the same decision.

The table is shared. The policy plans from the rocket the team has: while that rocket
holds a section a teammate built, or a launch card a teammate played (or one whose
player is not known), it never scraps it unless the rocket cannot fly: no sections
left in the depot can make it pass the fuel check (`scrap_no_fuel`), none can give it a
warhead that scores with fuel enough (`scrap_no_warhead`), its launch sequence is under
way on a rocket that cannot score (`scrap_sequence_dead`), or it cannot be finished
before the clock runs out while a new one can (`scrap_too_late`). A rocket of its own
it scraps only for a new one clearly better: expected progress per turn at least
`RESTART_MARGIN` times that of the best plan on the pad (`scrap_restart`). It adds to
any launch sequence under way on a rocket that can fly, and while a teammate builds on
the rocket (the top section is theirs) it starts the launch sequence only if launching
now is `LAUNCH_MARGIN` times better than the best plan that builds on.

It reads its teammates from the public record (`engine.crew_team`): before the turn of a
teammate who launches what they find (or one building the rocket whom nothing shows yet
to build on others' sections) it leaves only a rocket that can score or is on their way,
drawing otherwise (`draw_keep_launchable`), and lets a launcher choose when to launch;
among sections of one size it first takes one after which the rocket can score; on a
rocket whose top section a teammate built it follows the rockets teammates launched
(the team's evident plan) while that is at least `FOLLOW` times as good as its own
(beside people in basic rules, its sections whatever its own is worth:
`FOLLOW_PEOPLE_BASIC`); a rocket that cannot score and that a teammate has just added
to is left to them (`draw_leave_scrap`: one round after a section, `LEAVE_SEQUENCE`
after a launch card).
While the record shows the people at the table (not the seats of AI crewmates,
`crewmates`) build large sections first where one fits, or shows nothing of them yet, it
draws for its best plan's large section rather than settle for a nearly as good plan
that builds a smaller one; beside a person who builds only large ones, the rockets
people finished and launched are the evident plan on any pad, and before a person's
turn it adds no smaller section after which the rocket can score, unless that is its
plan's last or the rocket launched as it is would be worth `_NEAR_BEST` of the plan
(`draw_keep_big`): a big builder launches a rocket not theirs once it can score.
With `absent=True` it plays the seat of an absent player (the autopilot): their
sections and launch cards are kept as a teammate's, and their own rockets of the game
are the evident plan it carries on.

Each decision explains itself: a stable reason code (`reason`, one of `REASONS`) with
its parameters (`params`, for translations) and one English line (`text`, for hints):

- `build`: {"colour", "size" (1-3), "plan": the rocket in English, "damage"}.
- `launch_start`, `launch_extend`, `launch_complete`: {"cards", "damage", "deflect"}.
- `draw_for_plan`: {"short": cards lacking per colour, "plan"}; `draw_for_sequence`:
  {"suits": the colours the launch sequence still needs}; `draw_nothing`: {};
  `draw_keep_launchable`, `draw_leave_scrap` and `draw_keep_big`: {"plan"}.
- `scrap_dead` (the rocket cannot fly: notices `scrap_no_fuel`, `scrap_no_warhead`,
  `scrap_sequence_dead`) and `scrap_restart` (`scrap_too_late`, `scrap_restart`):
  {"plan": the rocket aimed for after it}.
- `discard`: {"cards"}; `reroll`: {"step", "rerolls"}.
- Any of them: "turns_left" when fewer than 20 turns remain.

A move a teammate might not expect (every scrap, and a launch whose odds are poor)
also carries a public notice: `notice` (one of `NOTICES`), `notice_params` and one
English line `notice_text`, for the board. The notices and their parameters (chances
are shares of 1, rounded to 3 places; colours by name):

- `scrap_no_fuel`: {"fuel": booster points the rocket could reach at most, "points":
  its points then, "needed": the booster points the check would need}.
- `scrap_no_warhead`: {"warheads": the colours that score under these rules}: no
  warhead fits on it with fuel enough.
- `scrap_sequence_dead`: {"cause": "fuel" or "warhead", "fuel": its booster points,
  "needed": those the check needs}: a launch sequence is under way on a rocket that
  would fail the fuel check, or has no warhead; no section can be added any more.
- `scrap_too_late`: {"turns_left", "turns_needed"}: by estimate the rocket cannot be
  finished and launched in the turns left; a new one can.
- `scrap_restart`: {"gain": how many times better the new plan's progress per turn
  is}: the rocket is the crewmate's own, and starting over is clearly quicker.
- `launch_risky`: {"success": the chance the launch damages Apophis or adds a counter,
  "damage", "deflect", "hit": the accuracy check's chance, "explode": the chance the
  launch roll explodes the rocket (advanced rules; 0 in basic), "rerolls": fail-safe
  rerolls}: a launch this move starts, extends or completes succeeds less often than
  `RISKY`.

The plan a decision aims for is data too (`plan`, a `Target`, or None when there is
none): the target rocket's sections bottom to top, which the team already has and who
built them, and what this move adds to it (a section, cards to the launch sequence, or
the cards still lacking, which a draw is for).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations_with_replacement, product
from typing import Any, Final, cast

from engine.cards import (
    Colour,
    Rules,
    Section,
    Size,
    card_label,
    colour_of,
    fuel_needed,
    section_label,
)
from engine.crew_team import Reading, can_score, fits, read
from engine.events import PlayerId
from engine.game import HAND_LIMIT, Phase, PlayerView
from engine.moves import legal_moves, one_per_suit
from engine.odds import (
    ADDITIONS,
    BLUE,
    COLOURS,
    GREEN,
    RED,
    YELLOW,
    Points,
    index,
    odds,
    odds_table,
    points_of,
)

#: Below this many turns left, decisions say how many remain.
_HURRY = 20
#: Every reason code a decision may give (translations key on these).
REASONS = (
    "build",
    "launch_start",
    "launch_extend",
    "launch_complete",
    "draw_for_plan",
    "draw_for_sequence",
    "draw_nothing",
    "draw_keep_launchable",
    "draw_leave_scrap",
    "draw_keep_big",
    "scrap_restart",
    "scrap_dead",
    "discard",
    "reroll",
)
#: Every public notice a decision may carry (see the module's docstring for their params).
NOTICES = (
    "scrap_no_fuel",
    "scrap_no_warhead",
    "scrap_sequence_dead",
    "scrap_too_late",
    "scrap_restart",
    "launch_risky",
)
#: Seconds a team takes for one turn, when the caller does not say.
DEFAULT_PACE = 6.0
#: Share of teammates' cards expected to be of use to a plan.
_TEAM_HELP = 0.3
#: Plans kept per search: the best, then the quickest of the others.
_KEEP = 8
_QUICK = 4
#: A plan within this share of the best one is preferred if its next step is possible now.
_NEAR_BEST = 0.8
#: A rocket of the crewmate's own is scrapped only for a plan whose expected progress per
#: turn is at least this many times the best plan's on it (tuned in the balance lab).
RESTART_MARGIN = 2.0
#: A teammate who just built on the pad means to go on: launching it as it is must be this
#: many times better than the best plan that builds on (tuned in the balance lab).
LAUNCH_MARGIN = 1.5
#: Basic rules: a deflection counter counts for this share of its part of the counters
#: still to win. Progress shared between the two ways to win is worth less than its sum,
#: and teammates mostly aim at damage (tuned in the balance lab: all-crew and mixed teams
#: both win more often than at 1).
DEFLECT_WEIGHT = 0.25
#: A launch that damages Apophis or adds a counter less often than this is announced.
RISKY = 0.25
#: A launch sequence that cannot score, last added to by a teammate, is left to them this
#: many rounds (they launch it themselves, or take it down; tuned in the balance lab's
#: cross-play: scrapping it at once cost as many games).
LEAVE_SEQUENCE = 3
#: Team turns a launch sequence takes when this hand does not hold it all: the suits are
#: gathered from several hands, over several rounds (tuned in the balance lab: 1.5 before,
#: which made many quick launches look better than they play).
SHARED_LAUNCH = 5.0
#: Team turns each card a rocket takes costs beyond the draws for those this hand lacks:
#: cards held now are spent, and the next rocket draws them again (tuned in the lab).
CARD_COST = 0.5
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
class Target:
    """The rocket a decision aims for, and this move's part in it, as plain data.

    Colours are names ("red"), sizes 1 to 3 (small, medium, large).
    """

    pieces: tuple[tuple[str, int], ...]  # its sections (colour, size), bottom to top
    built: tuple[bool, ...]  # for each piece: already on the rocket
    builders: tuple[PlayerId | None, ...]  # for each piece: who built it (None: not yet/known)
    scrap_first: bool  # reached by scrapping the rocket on the pad first
    section: tuple[str, int] | None  # the piece this move builds
    cards: tuple[str, ...]  # the cards this move plays into the launch sequence
    sequence_needs: tuple[str, ...]  # colours the launch sequence still needs after this move
    short: dict[str, int]  # cards per colour this hand still lacks for the rest of it
    damage: float  # the chance its launch damages Apophis
    deflect: float  # the chance its launch adds a deflection counter (basic rules)


@dataclass(frozen=True, slots=True)
class Decision:
    """What to do now (`action`, data for `Game.apply`) and why (`reason`, `params`, `text`).

    `notice`, `notice_params` and `notice_text` tell teammates, in public, why a move they
    might not expect is made (None: nothing to tell); `plan` is the rocket aimed for.
    """

    action: dict[str, Any]
    reason: str
    params: dict[str, Any] = field(default_factory=dict)
    text: str = ""
    notice: str | None = None
    notice_params: dict[str, Any] = field(default_factory=dict)
    notice_text: str = ""
    plan: Target | None = None


def decide(
    view: PlayerView,
    time_left: float | None = None,
    pace: float = DEFAULT_PACE,
    absent: bool = False,
    crewmates: Collection[PlayerId] = (),
) -> Decision | None:
    """The crew policy's move for the viewing player, or None when it has none to make.

    `time_left` is the game clock's remaining seconds (None: no clock); `pace` the
    seconds a team turn is expected to take, which together say how many turns remain.
    `absent`: the player is away and the crew plays their seat (the autopilot): it
    carries on their plan, their sections and launch cards as a teammate's.
    `crewmates`: the seats AI crewmates play (public at the table: the lobby and the
    board show them), whose way of building is not read as a person's (`crew_team`).
    """
    if not advises(view):
        return None
    table = view.table
    if table.phase is Phase.REROLL:
        step = (table.pending or {}).get("step")
        rerolls = (table.pending or {}).get("rerolls")
        return Decision(
            {"type": "reroll", "player": view.player},
            "reroll",
            {"step": step, "rerolls": rerolls},
            f"Reroll the failed {step} die: a fail-safe is left, and it serves nothing else.",
        )
    turns_left = math.inf if time_left is None else max(time_left, 0.0) / max(pace, 0.1)
    reading = read(view, absent, crewmates)
    setting = _setting(view, reading, absent)
    if table.phase is Phase.DISCARD:
        return _discard(view, setting, turns_left)
    return _play(view, setting, _choose(view, setting, turns_left), turns_left)


def advises(view: PlayerView) -> bool:
    """Whether `decide` has a move for the viewing player now (their turn, a discard or a
    reroll decision; nothing during a reshuffle or once the game is over)."""
    return bool(legal_moves(view))


# ------------------------------------------------------------------ planning


@dataclass(frozen=True, slots=True)
class _Rocket:
    """A rocket to aim at from the pad as it is (or after scrapping it).

    The plan caches hold each as a plain tuple of these fields (a `_Row`), which the
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


#: A `_Rocket` as a plain tuple, and the positions in it that the search reads.
_Row = tuple[
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
# (Final: mypy reads each as its literal position, so row[_VALUE] is a float.)
_BOUND: Final = 0
_SCRAP: Final = 1
_CARDS: Final = 3
_BUILDS: Final = 4
_LAUNCHING: Final = 5
_NEXT_SIZE: Final = 6
_NEXT_COLOURS: Final = 7
_TOTAL_CARDS: Final = 8
_LEAST_TURNS: Final = 9
_VALUE: Final = 10
_POINTS: Final = 11

#: What the rockets worth aiming at depend on besides the pad: the rules, Apophis's
#: value, and what a damage and a deflection counter are worth (`_weights`).
_Context = tuple[Rules, int, tuple[float, float]]


@dataclass(frozen=True, slots=True)
class _Plan:
    score: float  # expected progress per team turn (a restart's divided by its margin);
    # all but nothing if it would fly too late
    turns: float  # team turns until it launches, by estimate
    row: _Row  # the rocket

    @property
    def rocket(self) -> _Rocket:
        return _Rocket(*self.row)


@dataclass(frozen=True, slots=True)
class _Setting:
    """What planning needs from the table, worked out once a decision."""

    keep: tuple[_Row, ...]  # rockets the pad can grow into (or launch as it is), best bound first
    restart: tuple[_Row, ...]  # rockets reached by scrapping the pad first, best bound first
    welcome: tuple[_Row, ...] | None  # those of `keep` the next player meets well (None: all)
    evident: tuple[_Row, ...]  # the team's evident plans (`crew_team`), best bound first
    reading: Reading  # what the teammates' record says
    help_each: float  # cards of each colour teammates are counted on for
    solo: bool  # the player is alone at the table
    shared: bool  # the pad holds a section or launch card not known to be this player's
    hold: float  # the factor on launching the pad as it is (below 1: a teammate builds on it)
    context: _Context  # the rules, Apophis's value and the weights of progress
    launch: tuple[int, ...]  # cards the launch sequence still needs, per colour


@dataclass(frozen=True, slots=True)
class _Choice:
    """The plans worth aiming at, and whether and why the pad may be scrapped."""

    plans: list[_Plan]  # best first, down to the share of the best worth considering
    keep_best: _Plan | None  # the best plan on the pad (None: the pad cannot fly)
    notice: str | None  # why scrapping is allowed (a scrap notice), None: only to restart
    notice_params: dict[str, Any]
    followed: bool = False  # the plan is the team's evident one (`crew_team`)
    waiting: bool = False  # no plan leaves the next player a welcome rocket (`keep_best`'s)


def _weights(rules: Rules, damage: int, counters: int) -> tuple[float, float]:
    """What a damage and a deflection counter are worth now, as shares of a win (a
    counter's share of the counters still to win, times `DEFLECT_WEIGHT`)."""
    if rules is Rules.ADVANCED:
        return 1 / (3 - damage), 0.0
    counters_left = 5 - counters
    deflect = DEFLECT_WEIGHT / counters_left
    return min(1.0, 1 / (3 - damage) + deflect), min(1.0, deflect)


def _have(cards: Iterable[str]) -> tuple[int, ...]:
    """Cards held per colour, in COLOURS order."""
    counts = [0, 0, 0, 0]
    for card in cards:
        counts[_SUIT_INDEX[card[-1]]] += 1
    return tuple(counts)


_SUIT_INDEX = {colour.suit: i for i, colour in enumerate(COLOURS)}
_FULL = ((3, 2, 1),) * 4


def _available(view: PlayerView) -> tuple[tuple[int, ...], ...]:
    """Per colour, the sizes that can still be added to the pad (none once a launch
    sequence is under way)."""
    table = view.table
    if table.sequence:
        return ((), (), (), ())
    on_pad = {(COLOURS.index(c), int(s)) for c, s in table.rocket}
    top = int(table.rocket[-1][1]) if table.rocket else int(Size.LARGE)
    return tuple(tuple(s for s in (3, 2, 1) if s <= top and (i, s) not in on_pad) for i in range(4))


def _setting(view: PlayerView, reading: Reading, absent: bool = False) -> _Setting:
    """The table's part of planning (`absent`: the seat's own sections and launch cards
    are its absent player's, kept as a teammate's)."""
    table = view.table
    in_sequence = set(table.sequence)
    context = (
        table.rules,
        table.apophis_value,
        _weights(table.rules, table.damage, table.counters),
    )
    launch = tuple(0 if c in in_sequence else 1 for c in COLOURS)
    base = points_of(table.rocket)
    keep, restart = _candidates(context, base, _available(view), launch)
    welcome = None
    top = table.builders[-1] if table.builders else None
    # the team's evident plan: the absent player's (the autopilot), or, on a rocket whose
    # top section a teammate built, the rockets teammates launched that it can grow into
    if absent:
        evident_plans = reading.plans
    elif reading.big:  # a big builder's finished rockets, whoever built the top section
        evident_plans = reading.finished
    else:
        evident_plans = reading.aims if top is not None and top != view.player else ()
    evident = _sort_rows(
        tuple(
            row
            for plan in evident_plans
            if (row := _planned(context, base, _adds(table.rocket, plan), launch)) is not None
        )
    )
    if reading.next_player in reading.launchers or top in reading.launchers:
        # a teammate of a way of their own plays next, or is building: follow their way,
        # and let them choose when to launch (unless they launched such a rocket before)
        depot = frozenset(table.depot)
        sent = tuple(
            row
            for plan in reading.sent
            if not table.sequence
            and fits(plan, table.rocket, depot)
            and (row := _planned(context, base, _adds(table.rocket, plan), launch)) is not None
        )
        launching = bool(table.sequence) or reading.launched(table.rocket)
        met: dict[Section, bool] = {}  # each next section's welcome, worked out once
        met_rows: list[_Row] = []
        for row in _sort_rows(tuple(dict.fromkeys(keep + sent))):
            met_row = _welcome(view, reading, row, met) if row[_BUILDS] else None
            if met_row is not None or (launching and not row[_BUILDS]):
                met_rows.append(met_row or row)
        welcome = tuple(met_rows)
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
    return _Setting(
        keep, restart, welcome, evident, reading, help_each, solo, shared, hold, context, launch
    )


def _welcome(
    view: PlayerView, reading: Reading, row: _Row, met: dict[Section, bool]
) -> _Row | None:
    """A plan whose next section may leave a rocket the next player meets well
    (`Reading.welcome`), its next colours narrowed to those that do, so that its turns
    count the wait for one of them (None: none does); `met` keeps each section's answer
    for the other plans."""
    table = view.table
    size = Size(row[_NEXT_SIZE])
    colours = []
    for i in row[_NEXT_COLOURS]:
        section = (COLOURS[i], size)
        if section not in met:
            met[section] = reading.welcome(table.rules, table.rocket, section)
        if met[section]:
            colours.append(i)
    if not colours:
        return None
    if len(colours) == len(row[_NEXT_COLOURS]):
        return row
    return cast(_Row, (*row[:_NEXT_COLOURS], tuple(colours), *row[_NEXT_COLOURS + 1 :]))


def _choose(view: PlayerView, setting: _Setting, turns_left: float) -> _Choice:
    """The plans worth aiming at from here: the team's evident plan if it is worth
    following, else those on the pad, and those after scrapping it where scrapping is
    allowed (see the module's docstring)."""
    have = _have(view.hand)
    rows = setting.keep if setting.welcome is None else setting.welcome
    kept = _search(rows, setting, have, turns_left, 0.0, _NEAR_BEST, setting.hold)
    keep_best = max(kept, default=None)
    if keep_best is None and setting.welcome is not None:
        # the pad can fly, but every plan's next section would leave the next player a
        # rocket they do not meet well: wait for them
        full = _search(setting.keep, setting, have, turns_left, 0.0, _NEAR_BEST, setting.hold)
        if full:
            return _Choice([], _Plan(*max(full)), None, {}, waiting=True)
    if keep_best is not None and setting.evident:
        followed = _Plan(
            *max(_search(setting.evident, setting, have, turns_left, 0.0, 1.0, setting.hold))
        )
        basic = setting.context[0] is Rules.BASIC
        builds = followed.row[_BUILDS]  # it adds sections, not launches the pad as it is
        follow = FOLLOW_PEOPLE_BASIC if basic and builds and setting.reading.people else FOLLOW
        if followed.score >= follow * keep_best[0]:
            return _Choice([followed], _Plan(*keep_best), None, {}, followed=True)
    notice: str | None = None
    notice_params: dict[str, Any] = {}
    if not setting.restart:
        factor = 0.0  # nothing on the pad
    elif keep_best is None:
        factor = 1.0
        notice, notice_params = _why_dead(view)
    else:
        factor = 0.0 if setting.shared else 1 / RESTART_MARGIN
        if keep_best[1] > turns_left:  # too late for every plan on the pad: is a new one not?
            fresh = max(_search(setting.restart, setting, have, turns_left, 0.0, 1.0), default=None)
            if fresh is not None and fresh[1] <= turns_left:
                factor = 1.0
                notice = "scrap_too_late"
                notice_params = {
                    "turns_left": round(turns_left),
                    "turns_needed": math.ceil(keep_best[1]),
                }
    floor = keep_best[0] * _NEAR_BEST if keep_best is not None else 0.0
    restarts = (
        _search(setting.restart, setting, have, turns_left, floor, _NEAR_BEST, factor=factor)
        if factor
        else []
    )
    found = kept + restarts
    floor = max((score * _NEAR_BEST for score, _, _ in found), default=0.0)
    plans = [_Plan(*plan) for plan in found if plan[0] >= floor]
    plans.sort(key=lambda p: (-p.score, p.row[_SCRAP], p.row[_POINTS]))
    return _Choice(plans, None if keep_best is None else _Plan(*keep_best), notice, notice_params)


def _why_dead(view: PlayerView) -> tuple[str, dict[str, Any]]:
    """Why the pad cannot fly (no plan on it scores): the notice and its params."""
    table = view.table
    points = points_of(table.rocket)
    total = sum(points)
    if table.sequence:
        fuelled = points[YELLOW] >= fuel_needed(total)
        return "scrap_sequence_dead", {
            "cause": "warhead" if fuelled else "fuel",
            "fuel": points[YELLOW],
            "needed": fuel_needed(total),
        }
    yellow_left = sum(_available(view)[YELLOW])  # all the yellow that fits: the most fuel
    fuel, total = points[YELLOW] + yellow_left, total + yellow_left
    if fuel < fuel_needed(total):
        return "scrap_no_fuel", {"fuel": fuel, "points": total, "needed": fuel_needed(total)}
    warheads = ["red"] if table.rules is Rules.ADVANCED else ["red", "green"]
    return "scrap_no_warhead", {"warheads": warheads}


def _search(
    rows: tuple[_Row, ...],
    setting: _Setting,
    have: tuple[int, ...],
    turns_left: float,
    floor: float,
    share: float,
    hold: float = 1.0,
    factor: float = 1.0,
) -> list[tuple[float, float, _Row]]:
    """The plans (score, turns, rocket) among `rows` (best bound first) for a hand
    holding `have` that may score `floor` or more, the floor rising to `share` of the
    best score found (every plan left out scores less); launching the pad as it is
    counts `hold` times, and every score `factor` times (a restart's). A plan's score is
    its expected progress per team turn, all but nothing for a rocket that would not fly
    before time is up."""
    floor /= factor
    help_each, solo = setting.help_each, setting.solo
    held = sum(have) + 4 * help_each
    plans: list[tuple[float, float, _Row]] = []
    for row in rows:
        if row[_BOUND] < floor:
            break  # sorted by bound: no plan further on can reach the floor
        lacking = row[_TOTAL_CARDS] - held  # at least this many cards must be drawn
        least = row[_LEAST_TURNS] + CARD_COST * row[_TOTAL_CARDS]
        if lacking > 0 and row[_VALUE] / (least + lacking * 0.75) < floor:
            continue
        turns = _turns(row, have, help_each, solo)
        spent = turns + CARD_COST * row[_TOTAL_CARDS]  # the cards it takes are drawn again
        rate = row[_VALUE] / (spent if spent > 1.0 else 1.0)
        if not row[_BUILDS]:
            rate *= hold
        score = rate if turns <= turns_left else rate * 0.01
        plans.append((score, turns, row))
        if score * share > floor:
            floor = score * share
    if factor != 1.0:
        plans = [(score * factor, turns, row) for score, turns, row in plans]
    return plans


def _sort_rows(rows: tuple[_Row, ...]) -> tuple[_Row, ...]:
    return tuple(sorted(rows, key=lambda r: (-r[_BOUND], r[_POINTS])))


@lru_cache(maxsize=1 << 12)
def _candidates(
    context: _Context, base: Points, available: tuple[tuple[int, ...], ...], launch: tuple[int, ...]
) -> tuple[tuple[_Row, ...], tuple[_Row, ...]]:
    """The rockets to consider from this pad, and after scrapping it (if there is one),
    each highest bound first."""
    keep = _sort_rows(_rockets(context, base, available, launch, False))
    return keep, (_fresh(context) if any(base) else ())


@lru_cache(maxsize=1 << 6)
def _fresh(context: _Context) -> tuple[_Row, ...]:
    """The rockets reached by scrapping the pad, highest bound first."""
    return _sort_rows(_rockets(context, (0, 0, 0, 0), _FULL, (1, 1, 1, 1), True))


def _turns(rocket: _Row, have: tuple[int, ...], help_each: float, solo: bool) -> float:
    """Team turns until a rocket launches, by estimate: scrapping first, its builds, the
    draws for the cards it lacks (two a draw, of random suits, so the suit most lacking
    costs more; teammates are counted on for a share of theirs), a wait while this hand
    cannot pay for the next section, and the launch sequence."""
    c0, c1, c2, c3 = rocket[_CARDS]  # colour by colour: this is the policy's innermost loop
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
    size = lacking = rocket[_NEXT_SIZE]
    for i in rocket[_NEXT_COLOURS]:  # the colours whose largest section to build is that size
        held = have[i]
        if size - held < lacking:
            lacking = size - held if held < size else 0
    # a launch sequence takes one turn from a hand that holds it all, longer when shared
    if rocket[_LAUNCHING]:
        at_hand = solo or (c0 <= h0 and c1 <= h1 and c2 <= h2 and c3 <= h3)
        launching = 1.0 if at_hand else SHARED_LAUNCH
    else:
        launching = 0.0
    return rocket[_SCRAP] + rocket[_BUILDS] + total / 2 + biggest + lacking + launching


@lru_cache(maxsize=1 << 10)
def _rockets(
    context: _Context,
    base: Points,
    available: tuple[tuple[int, ...], ...],
    launch: tuple[int, ...],
    scrap: bool,
) -> tuple[_Row, ...]:
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
    found: list[_Row] = []
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
    context: _Context,
    base: Points,
    adds: tuple[tuple[int, ...], ...],
    launch: tuple[int, ...],
    scrap: bool,
) -> _Row | None:
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
    return (  # a _Rocket's fields, in order
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
def _planned(
    context: _Context, base: Points, adds: tuple[tuple[int, ...], ...], launch: tuple[int, ...]
) -> _Row | None:
    """A rocket the team evidently aims at, from the pad (None: it cannot score now)."""
    return _row(context, base, adds, launch, False)


def _adds(rocket: tuple[Section, ...], plan: tuple[Section, ...]) -> tuple[tuple[int, ...], ...]:
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


# ------------------------------------------------------------------ acting


def _pieces(view: PlayerView, rocket: _Rocket) -> list[Section]:
    """A planned rocket's sections, bottom first: the pad's (unless scrapped), then those
    to add, largest first."""
    pieces = [] if rocket.scrap else list(view.table.rocket)
    adds = [(COLOURS[i], Size(s)) for i, sizes in enumerate(rocket.adds) for s in sizes]
    adds.sort(key=lambda p: -p[1])  # stable: colour order among equal sizes
    return pieces + adds


def _rocket_label(view: PlayerView, rocket: _Rocket) -> str:
    """A planned rocket as a person reads it, bottom first."""
    return ", ".join(section_label(p) for p in _pieces(view, rocket))


def _short_label(pieces: list[Section]) -> str:
    """Sections in the short form players use: "red L + yellow M + blue S"."""
    return " + ".join(f"{c.value} {s.name[0]}" for c, s in pieces)


def _target(
    view: PlayerView,
    rocket: _Rocket,
    section: Section | None = None,
    cards: tuple[str, ...] = (),
) -> Target:
    """The plan as data: its pieces, what the team has of them, and this move's part."""
    table = view.table
    pieces = _pieces(view, rocket)
    built = 0 if rocket.scrap else len(table.rocket)
    builders = (() if rocket.scrap else table.builders) + (None,) * (len(pieces) - built)
    hand = Counter(colour_of(c) for c in view.hand)
    for card in cards:
        hand[colour_of(card)] -= 1
    if section is not None:
        hand[section[0]] -= int(section[1])
    still: Counter[Colour] = Counter()
    for colour, size in pieces[built:]:
        if (colour, size) != section:
            still[colour] += int(size)
    short = {c.value: still[c] - hand[c] for c in COLOURS if still[c] > hand[c]}
    in_sequence = set(table.sequence) | {colour_of(c) for c in cards}
    return Target(
        pieces=tuple((c.value, int(s)) for c, s in pieces),
        built=tuple(i < built for i in range(len(pieces))),
        builders=tuple(builders),
        scrap_first=rocket.scrap,
        section=None if section is None else (section[0].value, int(section[1])),
        cards=tuple(cards),
        sequence_needs=tuple(c.value for c in COLOURS if c not in in_sequence),
        short=short,
        damage=round(rocket.damage, 3),
        deflect=round(rocket.deflect, 3),
    )


def _percent(chance: float) -> str:
    return f"{round(chance * 100)}%"


def _play(view: PlayerView, setting: _Setting, choice: _Choice, turns_left: float) -> Decision:
    me = view.player
    reading = setting.reading
    # Before a teammate who launches what they find, only a section that leaves them a
    # rocket they build on, or the finished one.
    guard = reading if reading.guarded else None
    blocked: list[Section] = []
    hurry: dict[str, Any] = {}
    hurry_text = ""
    if turns_left < _HURRY:
        left = round(turns_left)
        hurry = {"turns_left": left}
        hurry_text = f" Time for about {left} more turn{'s' if left != 1 else ''}."
    plans = choice.plans
    if not plans and choice.waiting and choice.keep_best is not None:
        return _wait(view, choice.keep_best.rocket, None, hurry, hurry_text)
    if not plans:
        return Decision(
            {"type": "draw", "player": me},
            "draw_nothing",
            dict(hurry),
            "Draw: no rocket can be planned with what is on the table." + hurry_text,
        )
    best = plans[0].rocket
    hand = Counter(colour_of(c) for c in view.hand)
    cut: list[tuple[Section, _Rocket]] = []  # sections a big builder would launch at once
    for candidate in plans:
        if reading.large_first and candidate.row[_NEXT_SIZE] < best.next_size:
            continue  # the team builds large sections first: draw for the best plan's
        step = _next_step(view, hand, candidate.rocket, guard, blocked)
        if step is not None and step[0]["type"] == "build":
            section = (Colour(step[0]["colour"]), Size(step[0]["size"]))
            if _cut_short(view, setting, candidate, section, turns_left):
                cut.append((section, candidate.rocket))
                continue
        if step is not None:
            action, reason, params, text, target = step
            notice = _launch_notice(view) if action["type"] == "launch" else None
            notice_kind, notice_params, notice_text = notice or (None, {}, "")
            return Decision(
                action,
                reason,
                {**params, **hurry},
                text + hurry_text,
                notice_kind,
                notice_params,
                notice_text,
                plan=target,
            )
    if cut:
        section, rocket = cut[0]
        return Decision(
            {"type": "draw", "player": me},
            "draw_keep_big",
            {"plan": _rocket_label(view, rocket), **hurry},
            f"Draw: the {section_label(section)} section would leave the next player a rocket "
            "they would launch as it is, worth less than going on toward "
            f"{_short_label(_pieces(view, rocket))}." + hurry_text,
            plan=_target(view, rocket),
        )
    if best.scrap and choice.notice != "scrap_too_late" and _theirs(view):
        return Decision(
            {"type": "draw", "player": me},
            "draw_leave_scrap",
            {"plan": _rocket_label(view, best), **hurry},
            "Draw: this rocket cannot score, and the teammate who added to it last has just "
            "done so: it is theirs to take down or launch." + hurry_text,
            plan=_target(view, best),
        )
    if best.scrap:
        return _scrap(view, choice, plans[0], hurry, hurry_text)
    pieces = _pieces(view, best)
    label = _rocket_label(view, best)
    target = _target(view, best)
    if blocked:
        return _wait(view, best, blocked[0], hurry, hurry_text)
    if not any(best.adds):
        missing = [c for c in COLOURS if c not in set(view.table.sequence)]
        suits = " ".join(c.symbol for c in missing)
        return Decision(
            {"type": "draw", "player": me},
            "draw_for_sequence",
            {"suits": [c.value for c in missing], **hurry},
            f"Draw: the launch sequence of {_short_label(pieces)} still needs {suits} "
            "and you hold none of them." + hurry_text,
            plan=target,
        )
    short = {Colour(c): n for c, n in target.short.items()}
    wanted = " and ".join(f"{n} {c.symbol}" for c, n in short.items()) or "more cards"
    built = len(view.table.rocket)
    has = f"; the team has {_short_label(pieces[:built])}" if built else ""
    return Decision(
        {"type": "draw", "player": me},
        "draw_for_plan",
        {"short": {c.value: n for c, n in short.items()}, "plan": label, **hurry},
        f"Draw: the plan ({_short_label(pieces)}{has}) still needs {wanted}." + hurry_text,
        plan=target,
    )


def _cut_short(
    view: PlayerView, setting: _Setting, plan: _Plan, section: Section, turns_left: float
) -> bool:
    """Whether building `section` toward `plan` would cut the plan short: a big builder
    is at the table (`Reading.big`) and a person plays next, the section is not large
    (theirs are) nor the plan's last nor on their way (built on this rocket before, or
    leaving one that can grow into a rocket a person finished and launched), the rocket
    after it can score (a big builder launches a rocket not theirs once it can score and
    is worth their while), and launched as it is that rocket is worth less than
    `_NEAR_BEST` times the plan."""
    reading = setting.reading
    if not (reading.big and reading.next_person):
        return False
    table = view.table
    after = (*table.rocket, section)
    if section[1] is Size.LARGE or plan.row[_BUILDS] < 2 or not can_score(table.rules, after):
        return False
    if section in reading.known(table.rocket):
        return False  # a teammate built it on this rocket before: it is on their way
    depot = frozenset(table.depot) - {section}
    if any(fits(finished, after, depot) for finished in reading.finished):
        return False  # it can still grow into a rocket a person finished and launched
    base = points_of(table.rocket)
    row = _planned(setting.context, base, _adds(table.rocket, after), setting.launch)
    if row is None:
        return True  # launched as it is, it can do nothing
    launched = _search((row,), setting, _have(view.hand), turns_left, 0.0, 1.0)
    return max((score for score, _, _ in launched), default=0.0) < _NEAR_BEST * plan.score


def _theirs(view: PlayerView) -> bool:
    """Whether a rocket that cannot score is a teammate's to deal with: they added its
    last section and have not played since (they may take it down themselves before this
    player's next turn), or its last launch card within `LEAVE_SEQUENCE` rounds (they are
    gathering the suits to launch it themselves)."""
    table = view.table
    pieces = list(zip(table.built_turns, table.builders, strict=False))
    pieces += zip(table.sequence_turns, table.sequence_players, strict=False)
    known = [(turn, player) for turn, player in pieces if turn is not None]
    if not known:
        return False
    turn, player = max(known, key=lambda piece: piece[0])
    rounds = LEAVE_SEQUENCE if table.sequence else 1
    return player not in (view.player, None) and table.turn - turn < rounds * len(table.seats)


def _wait(
    view: PlayerView,
    plan: _Rocket,
    section: Section | None,
    hurry: dict[str, Any],
    hurry_text: str,
) -> Decision:
    """Draw rather than leave the next player (who does harm off their own way) a rocket
    they do not meet well: `section` is the one this hand could build (None: no plan's)."""
    built = f"the {section_label(section)} section" if section else "any section of the plan"
    return Decision(
        {"type": "draw", "player": view.player},
        "draw_keep_launchable",
        {"plan": _rocket_label(view, plan), **hurry},
        f"Draw: {built} would leave the next player a rocket off their own way that "
        "cannot launch." + hurry_text,
        plan=_target(view, plan),
    )


def _next_step(
    view: PlayerView,
    hand: Counter[Colour],
    plan: _Rocket,
    guard: Reading | None = None,
    blocked: list[Section] | None = None,
) -> tuple[dict[str, Any], str, dict[str, Any], str, Target] | None:
    """The plan's next action if this player (holding `hand`, cards per colour) can take
    it now. With a `guard` (the next player is a launcher), a section is built only if it
    leaves them a rocket they meet well (`Reading.welcome`), else it goes to `blocked`."""
    table = view.table
    me = view.player
    if plan.scrap:
        return None  # scrapping is chosen only when no plan on this rocket can move
    moves = legal_moves(view)
    if any(plan.adds):
        size = max(sizes[0] for sizes in plan.adds if sizes)
        options = [
            COLOURS[i]
            for i, sizes in enumerate(plan.adds)
            if sizes and sizes[0] == size and (COLOURS[i], Size(size)) in moves.builds
        ]
        if not options:
            return None
        if guard is not None:
            safe = [c for c in options if guard.welcome(table.rules, table.rocket, (c, Size(size)))]
            if not safe:
                if blocked is not None:
                    blocked.append((options[0], Size(size)))
                return None
            known = guard.known(table.rocket)
            options = [c for c in safe if (c, Size(size)) in known] or safe
        # a teammate plays next, and may launch what they find: one that can score first
        scores = {
            c: len(table.seats) > 1 and can_score(table.rules, (*table.rocket, (c, Size(size))))
            for c in options
        }
        colour = max(options, key=lambda c: (scores[c], hand[c], -COLOURS.index(c)))
        section = (colour, Size(size))
        label = _rocket_label(view, plan)
        pieces = _pieces(view, plan)
        built = len(table.rocket)
        has = f"; the team has {_short_label(pieces[:built])}" if built else ""
        return (
            {"type": "build", "player": me, "colour": colour.value, "size": size},
            "build",
            {"colour": colour.value, "size": size, "plan": label, "damage": round(plan.damage, 3)},
            f"Build the {section_label(section)} section toward {_short_label(pieces)}{has} "
            f"(damage {_percent(plan.damage)} a launch).",
            _target(view, plan, section=section),
        )
    in_sequence = set(table.sequence)
    cards = one_per_suit(sorted(moves.launch))
    if not cards:
        return None
    completes = len(in_sequence) + len(cards) == len(COLOURS)
    odds_text = f"damage {_percent(plan.damage)}"
    if table.rules is Rules.BASIC and plan.deflect:
        odds_text += f", deflection {_percent(plan.deflect)}"
    if completes:
        reason, verb = "launch_complete", "completes the launch sequence: the rocket launches"
    elif in_sequence:
        reason, verb = "launch_extend", "adds to the launch sequence"
    else:
        reason, verb = "launch_start", "starts the launch sequence"
    labels = " ".join(card_label(c) for c in cards)
    return (
        {"type": "launch", "player": me, "cards": cards},
        reason,
        {"cards": cards, "damage": round(plan.damage, 3), "deflect": round(plan.deflect, 3)},
        f"Play {labels}: that {verb} ({odds_text}).",
        _target(view, plan, cards=tuple(cards)),
    )


def _launch_risk(view: PlayerView) -> dict[str, Any]:
    """The pad's launch chances: of success (damage or a counter), and of each step."""
    table = view.table
    green, red, blue, yellow = points_of(table.rocket)
    total = green + red + blue + yellow
    damage, deflect = odds(table.rules, table.apophis_value, (green, red, blue, yellow))
    hit = min(max(table.apophis_value + blue, 0), 6) / 6 if 4 * yellow >= total else 0.0
    advanced = table.rules is Rules.ADVANCED
    success = damage if advanced or not hit else damage + deflect - damage * deflect / hit
    return {
        "success": round(success, 3),
        "damage": round(damage, 3),
        "deflect": round(deflect, 3),
        "hit": round(hit, 3),
        "explode": round(min(max(yellow - 1, 0), 6) / 6, 3) if advanced else 0.0,
        "rerolls": green // 2 if advanced else 0,
    }


def _launch_notice(view: PlayerView) -> tuple[str, dict[str, Any], str] | None:
    """The public notice for a launch whose odds are poor (None: they are not)."""
    risk = _launch_risk(view)
    if risk["success"] >= RISKY:
        return None
    parts = [f"{_percent(risk['success'])} to damage Apophis or deflect it"]
    if risk["explode"]:
        parts.append(f"{_percent(risk['explode'])} that it explodes")
    return (
        "launch_risky",
        risk,
        f"Launching a risky rocket: {', '.join(parts)}.",
    )


def _scrap(
    view: PlayerView, choice: _Choice, plan: _Plan, hurry: dict[str, Any], hurry_text: str
) -> Decision:
    rocket = plan.rocket
    label = _rocket_label(view, rocket)
    notice, notice_params = choice.notice, dict(choice.notice_params)
    if notice is None:  # a rocket of this player's own, and a clearly better one
        keep = choice.keep_best.score if choice.keep_best is not None else 0.0
        gain = plan.score * RESTART_MARGIN / keep if keep else math.inf
        notice, notice_params = "scrap_restart", {"gain": round(min(gain, 99.0), 2)}
    dead = notice in ("scrap_no_fuel", "scrap_no_warhead", "scrap_sequence_dead")
    why = "this rocket cannot score" if dead else f"starting again toward {label} is quicker"
    return Decision(
        {"type": "scrap", "player": view.player},
        "scrap_dead" if dead else "scrap_restart",
        {"plan": label, **hurry},
        f"Scrap: {why}." + hurry_text,
        notice,
        notice_params,
        _notice_text(notice, notice_params, _short_label(_pieces(view, rocket))),
        plan=_target(view, rocket),
    )


def _notice_text(notice: str, params: dict[str, Any], plan: str) -> str:
    """A scrap notice in one English line."""
    if notice == "scrap_no_fuel":
        return (
            f"Scrapping the rocket: even with all the yellow left it would have {params['fuel']} "
            f"booster fuel for {params['points']} points, and the fuel check needs "
            f"{params['needed']}."
        )
    if notice == "scrap_no_warhead":
        return "Scrapping the rocket: no warhead can go on it and still pass the fuel check."
    if notice == "scrap_sequence_dead":
        if params["cause"] == "fuel":
            return (
                "Scrapping the rocket: its launch sequence is under way, but it has "
                f"{params['fuel']} booster fuel and the fuel check needs {params['needed']}."
            )
        return "Scrapping the rocket: its launch sequence is under way, but it has no warhead."
    if notice == "scrap_too_late":
        return (
            f"Scrapping the rocket: it needs about {params['turns_needed']} more turns and "
            f"only about {params['turns_left']} are left; {plan} is quicker."
        )
    return f"Scrapping my own rocket: {plan} is {params['gain']:g} times quicker."


def _discard(view: PlayerView, setting: _Setting, turns_left: float) -> Decision:
    """Keep the cards that serve the best plan best; drop the rest."""
    count = (view.table.pending or {}).get("count", len(view.hand) - HAND_LIMIT)
    have = _have(view.hand)
    options: set[tuple[int, ...]] = set()
    for dropped_colours in combinations_with_replacement(range(4), count):
        left = list(have)
        for i in dropped_colours:
            left[i] -= 1
        if min(left) >= 0:
            options.add(tuple(left))

    # Each hand's worth is the score of its best plan (then the hand itself, to break
    # ties). Plans that cannot reach the best worth found so far are not worked out.
    # Restarts count as in play: not at all on a shared pad that can fly, else with their
    # margin.
    if not setting.restart:
        factor = 0.0
    elif not setting.keep:
        factor = 1.0
    else:
        factor = 0.0 if setting.shared else 1 / RESTART_MARGIN
    best: tuple[float, tuple[int, ...]] | None = None
    for kept in options:
        floor = best[0] if best is not None else 0.0
        rows = setting.keep if setting.welcome is None else setting.welcome
        plans = _search(rows, setting, kept, turns_left, floor, 1.0, setting.hold)
        if factor:
            floor = max(floor, max((score for score, _, _ in plans), default=0.0))
            plans += _search(setting.restart, setting, kept, turns_left, floor, 1.0, factor=factor)
        worth = (max((score for score, _, _ in plans), default=0.0), kept)
        if best is None or worth > best:
            best = worth
    assert best is not None
    kept = best[1]
    dropped: list[str] = []
    for i, colour in enumerate(COLOURS):
        of_colour = [c for c in sorted(view.hand) if colour_of(c) is colour]
        dropped += of_colour[: have[i] - kept[i]]
    labels = " ".join(card_label(c) for c in dropped)
    return Decision(
        {"type": "discard", "player": view.player, "cards": dropped},
        "discard",
        {"cards": dropped},
        f"Discard {labels}: the best plan needs them least.",
    )


def clear_cache() -> None:
    """Forget the plans worked out so far (they are a cache: decisions do not change)."""
    _rockets.cache_clear()
    _candidates.cache_clear()
    _fresh.cache_clear()
    _planned.cache_clear()
