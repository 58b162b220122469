"""A crew decision as data: the move, why (`Decision`), and the plan aimed for (`Target`).

Also the plan's pieces in the words the decisions' English lines use.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.cards import (
    Colour,
    Section,
    Size,
    colour_of,
    section_label,
)
from engine.crew.plans import PlannedRocket
from engine.events import PlayerId
from engine.odds import (
    COLOURS,
)
from engine.views import PlayerView

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
    "draw_heed",
    "scrap_restart",
    "scrap_dead",
    "discard",
    "reroll",
)


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


def plan_pieces(view: PlayerView, rocket: PlannedRocket) -> list[Section]:
    """A planned rocket's sections, bottom first: the pad's (unless scrapped), then those
    to add, largest first."""
    pieces = [] if rocket.scrap else list(view.table.rocket)
    adds = [(COLOURS[i], Size(s)) for i, sizes in enumerate(rocket.adds) for s in sizes]
    adds.sort(key=lambda p: -p[1])  # stable: colour order among equal sizes
    return pieces + adds


def rocket_label(view: PlayerView, rocket: PlannedRocket) -> str:
    """A planned rocket as a person reads it, bottom first."""
    return ", ".join(section_label(p) for p in plan_pieces(view, rocket))


def short_label(pieces: list[Section]) -> str:
    """Sections in the short form players use: "red L + yellow M + blue S"."""
    return " + ".join(f"{c.value} {s.name[0]}" for c, s in pieces)


def plan_target(
    view: PlayerView,
    rocket: PlannedRocket,
    section: Section | None = None,
    cards: tuple[str, ...] = (),
) -> Target:
    """The plan as data: its pieces, what the team has of them, and this move's part."""
    table = view.table
    pieces = plan_pieces(view, rocket)
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


def percent(chance: float) -> str:
    return f"{round(chance * 100)}%"
