"""The crew policy: a good player of Apophis that decides from one player's view alone.

`decide(view, time_left)` is given a PlayerView (its own hand and the table) and the
game time left, nothing else, so it cannot peek at other hands or the deck. It plans
the rocket whose expected progress per team turn is best (fuel check passed, accuracy,
damage and deflection odds, fail-safe rerolls, the cards its own hand holds and those
its teammates probably hold, the turns left on the clock), then takes that plan's next
step: build, start or extend the launch sequence (completing teammates' sequences),
draw for what is missing, or scrap a rocket that starting over beats. It is
deterministic: the same view and time give the same decision.

Each decision explains itself: a stable reason code with its parameters (for
translations) and one English line (for hints).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations_with_replacement, product
from typing import Any

from engine.cards import Colour, Rules, Size, card_label, colour_of, section_label
from engine.game import HAND_LIMIT, Phase, PlayerView
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
    "scrap_restart",
    "scrap_dead",
    "discard",
    "reroll",
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


@dataclass(frozen=True, slots=True)
class Decision:
    """What to do now (`action`, data for `Game.apply`) and why (`reason`, `params`, `text`)."""

    action: dict[str, Any]
    reason: str
    params: dict[str, Any] = field(default_factory=dict)
    text: str = ""


def decide(
    view: PlayerView, time_left: float | None = None, pace: float = DEFAULT_PACE
) -> Decision | None:
    """The crew policy's move for the viewing player, or None when it has none to make.

    `time_left` is the game clock's remaining seconds (None: no clock); `pace` the
    seconds a team turn is expected to take, which together say how many turns remain.
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
    if table.phase is Phase.DISCARD:
        return _discard(view, turns_left)
    return _play(view, _plans(view, turns_left), turns_left)


def advises(view: PlayerView) -> bool:
    """Whether `decide` has a move for the viewing player now (their turn, a discard or a
    reroll decision; nothing during a reshuffle or once the game is over)."""
    table = view.table
    return table.phase not in (Phase.OVER, Phase.RESHUFFLE) and table.active_player == view.player


# ------------------------------------------------------------------ planning


@dataclass(frozen=True, slots=True)
class _Rocket:
    """A rocket to aim at from the pad as it is (or after scrapping it).

    The plan caches hold each as a plain tuple of these fields (a `_Row`), which the
    garbage collector stops tracking once it has seen it: tens of thousands of cached
    rockets as objects made every full collection take a tenth of a second.
    """

    bound: float  # the most progress per turn it can make, whatever the hands hold
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
_Row = tuple
_BOUND, _SCRAP, _CARDS, _BUILDS, _LAUNCHING, _NEXT_SIZE, _NEXT_COLOURS = 0, 1, 3, 4, 5, 6, 7
_TOTAL_CARDS, _LEAST_TURNS, _VALUE, _POINTS = 8, 9, 10, 11


@dataclass(frozen=True, slots=True)
class _Plan:
    score: float  # expected progress per team turn; all but nothing if it would fly too late
    turns: float  # team turns until it launches, by estimate
    row: _Row  # the rocket

    @property
    def rocket(self) -> _Rocket:
        return _Rocket(*self.row)


def _weights(rules: Rules, damage: int, counters: int) -> tuple[float, float]:
    """What a damage and a deflection counter are worth now, as shares of a win."""
    if rules is Rules.ADVANCED:
        return 1 / (3 - damage), 0.0
    counters_left = 5 - counters
    return min(1.0, 1 / (3 - damage) + 1 / counters_left), min(1.0, 1 / counters_left)


def _have(cards) -> tuple[int, ...]:
    """Cards held per colour, in COLOURS order."""
    counts = [0, 0, 0, 0]
    for card in cards:
        counts[_SUIT_INDEX[card[-1]]] += 1
    return tuple(counts)


_SUIT_INDEX = {colour.suit: i for i, colour in enumerate(COLOURS)}
_FULL = ((3, 2, 1),) * 4


def _setting(view: PlayerView) -> tuple[tuple[_Row, ...], float, bool]:
    """What planning needs from the table, worked out once a decision: the rockets to
    consider with their bounds (`_candidates`), the share of each colour teammates are
    counted on for, and whether the player is alone."""
    table = view.table
    on_pad = {(COLOURS.index(c), int(s)) for c, s in table.rocket}
    top = int(table.rocket[-1][1]) if table.rocket else int(Size.LARGE)
    available = tuple(
        () if table.sequence else tuple(s for s in (3, 2, 1) if s <= top and (i, s) not in on_pad)
        for i in range(4)
    )
    in_sequence = set(table.sequence)
    context = (
        table.rules,
        table.apophis_value,
        _weights(table.rules, table.damage, table.counters),
    )
    launch = tuple(0 if c in in_sequence else 1 for c in COLOURS)
    rockets = _candidates(context, points_of(table.rocket), available, launch)
    others = sum(seat.hand_size for seat in table.seats if seat.player != view.player)
    return rockets, others * _TEAM_HELP / 4, len(table.seats) == 1


def _plans(view: PlayerView, turns_left: float) -> list[_Plan]:
    """The rockets worth aiming at from here, best first, down to the share of the best
    worth considering."""
    found = _search(_setting(view), _have(view.hand), turns_left, 0.0, _NEAR_BEST)
    floor = max((score * _NEAR_BEST for score, _, _ in found), default=0.0)
    plans = [_Plan(*plan) for plan in found if plan[0] >= floor]
    plans.sort(key=lambda p: (-p.score, p.row[_SCRAP], p.row[_POINTS]))
    return plans


def _search(
    setting: tuple[tuple[_Row, ...], float, bool],
    have: tuple[int, ...],
    turns_left: float,
    floor: float,
    share: float,
) -> list[tuple[float, float, _Row]]:
    """The plans (score, turns, rocket) for a hand holding `have` that may score `floor`
    or more, the floor rising to `share` of the best score found (every plan left out
    scores less). A plan's score is its expected progress per team turn, all but nothing
    for a rocket that would not fly before time is up."""
    rockets, help_each, solo = setting
    held = sum(have) + 4 * help_each
    plans: list[tuple[float, float, _Row]] = []
    for row in rockets:
        if row[_BOUND] < floor:
            break  # sorted by bound: no plan further on can reach the floor
        lacking = row[_TOTAL_CARDS] - held  # at least this many cards must be drawn
        if lacking > 0 and row[_VALUE] / (row[_LEAST_TURNS] + lacking * 0.75) < floor:
            continue
        turns = _turns(row, have, help_each, solo)
        rate = row[_VALUE] / (turns if turns > 1.0 else 1.0)
        score = rate if turns <= turns_left else rate * 0.01
        plans.append((score, turns, row))
        if score * share > floor:
            floor = score * share
    return plans


@lru_cache(maxsize=1 << 12)
def _candidates(
    context: tuple, base: Points, available: tuple[tuple[int, ...], ...], launch: tuple[int, ...]
) -> tuple[_Row, ...]:
    """The rockets to consider from this pad (scrapping it too, if there is one), highest
    bound first."""
    rockets = _rockets(context, base, available, launch, False)
    if any(base):
        rockets += _rockets(context, (0, 0, 0, 0), _FULL, (1, 1, 1, 1), True)
    return tuple(sorted(rockets, key=lambda r: (-r[_BOUND], r[_SCRAP], r[_POINTS])))


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
        launching = 1.0 if at_hand else 1.5
    else:
        launching = 0.0
    return rocket[_SCRAP] + rocket[_BUILDS] + total / 2 + biggest + lacking + launching


@lru_cache(maxsize=1 << 10)
def _rockets(
    context: tuple,
    base: Points,
    available: tuple[tuple[int, ...], ...],
    launch: tuple[int, ...],
    scrap: bool,
) -> tuple[_Row, ...]:
    """The rockets worth aiming at from `base` by adding available sections: each
    scoring, with the least yellow that fuels it."""
    rules, apophis, (w_damage, w_deflect) = context
    table = odds_table(rules, apophis)
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
    base_green, base_red, base_blue, base_yellow = base
    add_green, add_red, add_blue, add_yellow = launch
    launching = any(launch)
    launch_turn = 1.0 if launching else 0.0
    found: list[_Row] = []
    for red, reds in opts[RED]:
        r = base_red + red
        for blue, blues_added in blues:
            b = base_blue + blue
            for green, greens_added in greens:
                g = base_green + green
                fuel = fuelled[min(-(-(g + r + b) // 3), 6)]
                if fuel is None:
                    continue
                yellow, yellows_added = fuel
                points = (g, r, b, base_yellow + yellow)
                damage, deflect = table[index(points)]
                value = w_damage * damage + w_deflect * deflect
                if value <= 0:
                    continue
                builds = len(greens_added) + len(reds) + len(blues_added) + len(yellows_added)
                next_size, next_colours = _NEXT[
                    (
                        greens_added[0] if greens_added else 0,
                        reds[0] if reds else 0,
                        blues_added[0] if blues_added else 0,
                        yellows_added[0] if yellows_added else 0,
                    )
                ]
                least_turns = scrap + builds + launch_turn
                cards = (green + add_green, red + add_red, blue + add_blue, yellow + add_yellow)
                found.append(
                    (  # a _Rocket's fields, in order
                        value / max(least_turns, 1.0),
                        scrap,
                        (greens_added, reds, blues_added, yellows_added),
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
                )
    return tuple(found)


def _next_sections(firsts: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """From the largest size still to build of each colour (0: none): the size of the
    next section to build and the colours that can have it."""
    size = max(firsts)
    return size, tuple(i for i, first in enumerate(firsts) if size and first == size)


_NEXT = {firsts: _next_sections(firsts) for firsts in product((0, 1, 2, 3), repeat=4)}


# ------------------------------------------------------------------ acting


def _rocket_label(view: PlayerView, rocket: _Rocket) -> str:
    """A planned rocket as a person reads it, bottom first."""
    pieces = [] if rocket.scrap else list(view.table.rocket)
    pieces += [(COLOURS[i], Size(s)) for i, sizes in enumerate(rocket.adds) for s in sizes]
    pieces.sort(key=lambda p: -p[1])
    return ", ".join(section_label(p) for p in pieces)


def _percent(chance: float) -> str:
    return f"{round(chance * 100)}%"


def _play(view: PlayerView, plans: list[_Plan], turns_left: float) -> Decision:
    me = view.player
    hurry: dict[str, Any] = {}
    hurry_text = ""
    if turns_left < _HURRY:
        left = round(turns_left)
        hurry = {"turns_left": left}
        hurry_text = f" Time for about {left} more turn{'s' if left != 1 else ''}."
    if not plans:
        return Decision(
            {"type": "draw", "player": me},
            "draw_nothing",
            dict(hurry),
            "Draw: no rocket can be planned with what is on the table." + hurry_text,
        )
    best = plans[0].rocket
    hand = Counter(colour_of(c) for c in view.hand)
    for candidate in plans:
        step = _next_step(view, hand, candidate.rocket)
        if step is not None:
            action, reason, params, text = step
            return Decision(action, reason, {**params, **hurry}, text + hurry_text)
    if best.scrap:
        return _scrap(view, best, hurry, hurry_text)
    label = _rocket_label(view, best)
    if not any(best.adds):
        missing = [c for c in COLOURS if c not in set(view.table.sequence)]
        suits = " ".join(c.symbol for c in missing)
        return Decision(
            {"type": "draw", "player": me},
            "draw_for_sequence",
            {"suits": [c.value for c in missing], **hurry},
            f"Draw: the launch sequence still needs {suits} and you hold none of them."
            + hurry_text,
        )
    short = {
        COLOURS[i]: sum(sizes) - hand[COLOURS[i]]
        for i, sizes in enumerate(best.adds)
        if sum(sizes) > hand[COLOURS[i]]
    }
    wanted = " and ".join(f"{n} {c.symbol}" for c, n in short.items()) or "more cards"
    return Decision(
        {"type": "draw", "player": me},
        "draw_for_plan",
        {"short": {c.value: n for c, n in short.items()}, "plan": label, **hurry},
        f"Draw: the plan ({label}) still needs {wanted}." + hurry_text,
    )


def _next_step(
    view: PlayerView, hand: Counter[Colour], plan: _Rocket
) -> tuple[dict[str, Any], str, dict[str, Any], str] | None:
    """The plan's next action if this player (holding `hand`, cards per colour) can take
    it now."""
    table = view.table
    me = view.player
    if plan.scrap:
        return None  # scrapping is chosen only when no plan on this rocket can move
    if any(plan.adds):
        size = max(sizes[0] for sizes in plan.adds if sizes)
        options = [
            COLOURS[i]
            for i, sizes in enumerate(plan.adds)
            if sizes and sizes[0] == size and hand[COLOURS[i]] >= size
        ]
        if not options:
            return None
        colour = max(options, key=lambda c: (hand[c], -COLOURS.index(c)))
        section = (colour, Size(size))
        label = _rocket_label(view, plan)
        return (
            {"type": "build", "player": me, "colour": colour.value, "size": size},
            "build",
            {"colour": colour.value, "size": size, "plan": label, "damage": round(plan.damage, 3)},
            f"Build the {section_label(section)} section toward {label} "
            f"(damage {_percent(plan.damage)} a launch).",
        )
    in_sequence = set(table.sequence)
    chosen: dict[Colour, str] = {}
    for card in sorted(view.hand):
        if colour_of(card) not in in_sequence:
            chosen.setdefault(colour_of(card), card)
    if not chosen:
        return None
    cards = [chosen[c] for c in COLOURS if c in chosen]
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
    )


def _scrap(view: PlayerView, plan: _Rocket, hurry: dict[str, Any], hurry_text: str) -> Decision:
    table = view.table
    dead = odds(table.rules, table.apophis_value, points_of(table.rocket)) == (0.0, 0.0)
    label = _rocket_label(view, plan)
    why = "this rocket cannot score" if dead else f"starting again toward {label} is quicker"
    return Decision(
        {"type": "scrap", "player": view.player},
        "scrap_dead" if dead else "scrap_restart",
        {"plan": label, **hurry},
        f"Scrap: {why}." + hurry_text,
    )


def _discard(view: PlayerView, turns_left: float) -> Decision:
    """Keep the cards that serve the best plan best; drop the rest."""
    count = (view.table.pending or {}).get("count", len(view.hand) - HAND_LIMIT)
    have = _have(view.hand)
    options = set()
    for dropped_colours in combinations_with_replacement(range(4), count):
        kept = list(have)
        for i in dropped_colours:
            kept[i] -= 1
        if min(kept) >= 0:
            options.add(tuple(kept))

    # Each hand's worth is the score of its best plan (then the hand itself, to break
    # ties). Plans that cannot reach the best worth found so far are not worked out.
    setting = _setting(view)
    best: tuple[float, tuple[int, ...]] | None = None
    for kept in options:
        floor = best[0] if best is not None else 0.0
        plans = _search(setting, kept, turns_left, floor, 1.0)
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
