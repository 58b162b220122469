"""The crew's next move: the chosen plan's next step (build, launch, draw, scrap) or a discard."""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations_with_replacement
from typing import Any

from engine.cards import (
    Colour,
    Rules,
    Section,
    Size,
    card_label,
    colour_of,
    section_label,
)
from engine.crew.choice import NEAR_BEST, RESTART_MARGIN, Choice
from engine.crew.decisions import (
    Decision,
    Target,
    percent,
    plan_pieces,
    plan_target,
    rocket_label,
    short_label,
)
from engine.crew.notices import launch_notice, scrap_notice_text
from engine.crew.plans import (
    BUILDS,
    NEXT_SIZE,
    Plan,
    PlannedRocket,
    Setting,
    lacking_sizes,
    per_colour,
    planned,
    search,
)
from engine.crew.team import Reading, can_score, fits
from engine.game import HAND_LIMIT
from engine.moves import LegalMoves, one_per_suit
from engine.odds import (
    COLOURS,
    points_of,
)
from engine.views import PlayerView

#: Below this many turns left, decisions say how many remain.
_HURRY = 20


#: A launch sequence that cannot score, last added to by a teammate, is left to them this
#: many rounds (they launch it themselves, or take it down; tuned in the balance lab's
#: cross-play: scrapping it at once cost as many games).
LEAVE_SEQUENCE = 3


def play(
    view: PlayerView, moves: LegalMoves, setting: Setting, choice: Choice, turns_left: float
) -> Decision:
    """The move toward the chosen plans: the first next step this player can take now
    (`moves` are those open to them), else a draw for the best plan (or to wait for a
    teammate), or a scrap."""
    hurry, hurry_text = _hurry(turns_left)
    plans = choice.plans
    if not plans and choice.waiting and choice.keep_best is not None:
        return _wait(view, choice.keep_best.rocket, None, hurry, hurry_text)
    if not plans:
        return Decision(
            {"type": "draw", "player": view.player},
            "draw_nothing",
            dict(hurry),
            "Draw: no rocket can be planned with what is on the table." + hurry_text,
        )
    blocked: list[Section] = []
    cut: list[tuple[Section, PlannedRocket]] = []  # sections a big builder would launch at once
    step = _first_step(view, moves, setting, plans, turns_left, blocked, cut)
    if step is not None:
        action, reason, params, text, target = step
        notice = launch_notice(view) if action["type"] == "launch" else None
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
    best = plans[0].rocket
    if cut:
        return _keep_big(view, *cut[0], hurry, hurry_text)
    if best.scrap and choice.notice != "scrap_too_late" and _theirs(view):
        return Decision(
            {"type": "draw", "player": view.player},
            "draw_leave_scrap",
            {"plan": rocket_label(view, best), **hurry},
            "Draw: this rocket cannot score, and the teammate who added to it last has just "
            "done so: it is theirs to take down or launch." + hurry_text,
            plan=plan_target(view, best),
        )
    if best.scrap:
        return scrap_decision(view, choice, plans[0], hurry, hurry_text)
    if blocked:
        return _wait(view, best, blocked[0], hurry, hurry_text)
    return _draw_for(view, best, hurry, hurry_text)


def _hurry(turns_left: float) -> tuple[dict[str, Any], str]:
    """What a decision adds when time is short: the turns left, as a parameter and in words."""
    if turns_left >= _HURRY:
        return {}, ""
    left = round(turns_left)
    return {"turns_left": left}, f" Time for about {left} more turn{'s' if left != 1 else ''}."


def _first_step(
    view: PlayerView,
    moves: LegalMoves,
    setting: Setting,
    plans: list[Plan],
    turns_left: float,
    blocked: list[Section],
    cut: list[tuple[Section, PlannedRocket]],
) -> _Step | None:
    """The next step of the first plan (best first) this player can take now; sections
    kept from a launcher go to `blocked`, those that would cut a plan short to `cut`."""
    reading = setting.reading
    # Before a teammate who launches what they find, only a section that leaves them a
    # rocket they build on, or the finished one.
    guard = reading if reading.guarded else None
    best = plans[0].rocket
    hand = Counter(colour_of(c) for c in view.hand)
    for candidate in plans:
        if reading.large_first and candidate.row[NEXT_SIZE] < best.next_size:
            continue  # the team builds large sections first: draw for the best plan's
        step = _next_step(view, moves, hand, candidate.rocket, guard, blocked)
        if step is not None and step[0]["type"] == "build":
            section = (Colour(step[0]["colour"]), Size(step[0]["size"]))
            if _cut_short(view, setting, candidate, section, turns_left):
                cut.append((section, candidate.rocket))
                continue
        if step is not None:
            return step
    return None


def _keep_big(
    view: PlayerView,
    section: Section,
    rocket: PlannedRocket,
    hurry: dict[str, Any],
    hurry_text: str,
) -> Decision:
    """Draw rather than build `section`, which would leave a big builder a rocket they
    launch at once (`_cut_short`)."""
    return Decision(
        {"type": "draw", "player": view.player},
        "draw_keep_big",
        {"plan": rocket_label(view, rocket), **hurry},
        f"Draw: the {section_label(section)} section would leave the next player a rocket "
        "they would launch as it is, worth less than going on toward "
        f"{short_label(plan_pieces(view, rocket))}." + hurry_text,
        plan=plan_target(view, rocket),
    )


def _draw_for(
    view: PlayerView, best: PlannedRocket, hurry: dict[str, Any], hurry_text: str
) -> Decision:
    """Draw for what the best plan lacks: the launch sequence's suits, or its sections'
    cards."""
    pieces = plan_pieces(view, best)
    target = plan_target(view, best)
    if not any(best.adds):
        missing = [c for c in COLOURS if c not in set(view.table.sequence)]
        suits = " ".join(c.symbol for c in missing)
        return Decision(
            {"type": "draw", "player": view.player},
            "draw_for_sequence",
            {"suits": [c.value for c in missing], **hurry},
            f"Draw: the launch sequence of {short_label(pieces)} still needs {suits} "
            "and you hold none of them." + hurry_text,
            plan=target,
        )
    short = {Colour(c): n for c, n in target.short.items()}
    wanted = " and ".join(f"{n} {c.symbol}" for c, n in short.items()) or "more cards"
    built = len(view.table.rocket)
    has = f"; the team has {short_label(pieces[:built])}" if built else ""
    return Decision(
        {"type": "draw", "player": view.player},
        "draw_for_plan",
        {
            "short": {c.value: n for c, n in short.items()},
            "plan": rocket_label(view, best),
            **hurry,
        },
        f"Draw: the plan ({short_label(pieces)}{has}) still needs {wanted}." + hurry_text,
        plan=target,
    )


def _cut_short(
    view: PlayerView, setting: Setting, plan: Plan, section: Section, turns_left: float
) -> bool:
    """Whether building `section` toward `plan` would cut the plan short: a big builder
    is at the table (`Reading.big`) and a person plays next, the section is not large
    (theirs are) nor the plan's last nor on their way (built on this rocket before, or
    leaving one that can grow into a rocket a person finished and launched), the rocket
    after it can score (a big builder launches a rocket not theirs once it can score and
    is worth their while), and launched as it is that rocket is worth less than
    `NEAR_BEST` times the plan."""
    reading = setting.reading
    if not (reading.big and reading.next_person):
        return False
    table = view.table
    after = (*table.rocket, section)
    if section[1] is Size.LARGE or plan.row[BUILDS] < 2 or not can_score(table.rules, after):
        return False
    if section in reading.known(table.rocket):
        return False  # a teammate built it on this rocket before: it is on their way
    depot = frozenset(table.depot) - {section}
    if any(fits(finished, after, depot) for finished in reading.finished):
        return False  # it can still grow into a rocket a person finished and launched
    base = points_of(table.rocket)
    row = planned(setting.context, base, lacking_sizes(table.rocket, after), setting.launch)
    if row is None:
        return True  # launched as it is, it can do nothing
    launched = search((row,), setting, per_colour(view.hand), turns_left, 0.0, 1.0)
    return max((score for score, _, _ in launched), default=0.0) < NEAR_BEST * plan.score


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
    plan: PlannedRocket,
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
        {"plan": rocket_label(view, plan), **hurry},
        f"Draw: {built} would leave the next player a rocket off their own way that "
        "cannot launch." + hurry_text,
        plan=plan_target(view, plan),
    )


#: A plan's next step: the action, its reason, parameters and English line, and the plan.
_Step = tuple[dict[str, Any], str, dict[str, Any], str, Target]


def _next_step(
    view: PlayerView,
    moves: LegalMoves,
    hand: Counter[Colour],
    plan: PlannedRocket,
    guard: Reading | None = None,
    blocked: list[Section] | None = None,
) -> _Step | None:
    """The plan's next action if this player (`moves` open to them, holding `hand`, cards
    per colour) can take it now. With a `guard` (the next player is a launcher), a section
    is built only if it leaves them a rocket they meet well (`Reading.welcome`), else it
    goes to `blocked`."""
    if plan.scrap:
        return None  # scrapping is chosen only when no plan on this rocket can move
    if not any(plan.adds):
        return _launch_step(view, moves, plan)
    section = _next_section(view, moves, hand, plan, guard, blocked)
    if section is None:
        return None
    colour, size = section
    table = view.table
    label = rocket_label(view, plan)
    pieces = plan_pieces(view, plan)
    built = len(table.rocket)
    has = f"; the team has {short_label(pieces[:built])}" if built else ""
    return (
        {"type": "build", "player": view.player, "colour": colour.value, "size": int(size)},
        "build",
        {"colour": colour.value, "size": int(size), "plan": label, "damage": round(plan.damage, 3)},
        f"Build the {section_label(section)} section toward {short_label(pieces)}{has} "
        f"(damage {percent(plan.damage)} a launch).",
        plan_target(view, plan, section=section),
    )


def _next_section(
    view: PlayerView,
    moves: LegalMoves,
    hand: Counter[Colour],
    plan: PlannedRocket,
    guard: Reading | None,
    blocked: list[Section] | None,
) -> Section | None:
    """The section of the plan's largest size still to build that this player builds now
    (see `_next_step`), None when they can build none."""
    table = view.table
    size = max(sizes[0] for sizes in plan.adds if sizes)
    options = [
        COLOURS[i]
        for i, sizes in enumerate(plan.adds)
        if sizes and sizes[0] == size and (COLOURS[i], size) in moves.builds
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
    return colour, Size(size)


def _launch_step(view: PlayerView, moves: LegalMoves, plan: PlannedRocket) -> _Step | None:
    """One card of each suit the launch sequence lacks into it, if this player holds any."""
    table = view.table
    in_sequence = set(table.sequence)
    cards = one_per_suit(sorted(moves.launch))
    if not cards:
        return None
    completes = len(in_sequence) + len(cards) == len(COLOURS)
    odds_text = f"damage {percent(plan.damage)}"
    if table.rules is Rules.BASIC and plan.deflect:
        odds_text += f", deflection {percent(plan.deflect)}"
    if completes:
        reason, verb = "launch_complete", "completes the launch sequence: the rocket launches"
    elif in_sequence:
        reason, verb = "launch_extend", "adds to the launch sequence"
    else:
        reason, verb = "launch_start", "starts the launch sequence"
    labels = " ".join(card_label(c) for c in cards)
    return (
        {"type": "launch", "player": view.player, "cards": cards},
        reason,
        {"cards": cards, "damage": round(plan.damage, 3), "deflect": round(plan.deflect, 3)},
        f"Play {labels}: that {verb} ({odds_text}).",
        plan_target(view, plan, cards=tuple(cards)),
    )


def scrap_decision(
    view: PlayerView, choice: Choice, plan: Plan, hurry: dict[str, Any], hurry_text: str
) -> Decision:
    rocket = plan.rocket
    label = rocket_label(view, rocket)
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
        scrap_notice_text(notice, notice_params, short_label(plan_pieces(view, rocket))),
        plan=plan_target(view, rocket),
    )


def discard_decision(view: PlayerView, setting: Setting, turns_left: float) -> Decision:
    """Keep the cards that serve the best plan best; drop the rest."""
    count = (view.table.pending or {}).get("count", len(view.hand) - HAND_LIMIT)
    have = per_colour(view.hand)
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
        plans = search(rows, setting, kept, turns_left, floor, 1.0, setting.hold)
        if factor:
            floor = max(floor, max((score for score, _, _ in plans), default=0.0))
            plans += search(setting.restart, setting, kept, turns_left, floor, 1.0, factor=factor)
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
