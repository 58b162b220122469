"""The crew at table talk: the people's signals heeded in its moves, its own plan said as one.

Heeded (`heed`), while a signal stands (`engine.signals`) and only a person's (the seats
of AI crewmates, public at the table, plan alike and need no telling):

- "I'll build ♥": the crew builds no section of that colour, and counts it as coming
  (`coming`, `unclaimed`): it builds another section of its plan, or of a rocket that has
  the claimed section to come, or draws;
- "Launch next turn": their launch stays possible: no scrap, and on a rocket that can
  score no section after which it could not (the crew may add to a launch sequence, or
  start it);
- "Don't scrap": no scrap.

Where its move would go against a signal, the crew takes the next step of the same plan
that does not (another of its sections, a launch), or draws for that plan (`draw_heed`):
building toward another rocket instead would take the pad off the one the team is on.

"I need ♠", "I can launch ♦" and "I hold 2 ♦" tell the crew nothing its plans act on:
there is no giving of cards in Apophis, and a launch sequence under way is completed
by whoever holds its suits anyway.

Said (`says`), after a crewmate's move: the colour of the largest section its plan
still lacks ("I'll build ♥"), when it builds toward that plan or draws for it; the suits
a launch sequence lacks that it holds none of ("I need ♠").
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import replace

from engine.cards import Colour, Size
from engine.crew.decisions import Decision
from engine.crew.plans import BUILDS, NEXT_COLOURS, Row, Setting
from engine.crew.team import can_score
from engine.events import PlayerId
from engine.moves import LegalMoves
from engine.odds import COLOURS
from engine.signals import Said, Signal, standing
from engine.views import PlayerView

#: The decisions after which a crewmate says the next section of its plan.
_PLANNING = frozenset(("build", "draw_for_plan", "draw_keep_big", "draw_keep_launchable"))


def heard(view: PlayerView, said: Iterable[Said], crewmates: Collection[PlayerId]) -> list[Said]:
    """The signals standing that the viewing player heeds: the people's at the table."""
    return [
        one
        for player, one in standing(said, view.table).items()
        if player != view.player and player not in crewmates
    ]


def claims(heard: Iterable[Said]) -> set[Colour]:
    """The colours people said they will build ("I'll build ♥")."""
    return {one.signal.colour for one in heard if one.signal.kind == "build" and one.signal.colour}


def heed(moves: LegalMoves, view: PlayerView, heard: Iterable[Said]) -> LegalMoves:
    """`moves` less what the people's signals ask the crew not to do."""
    kinds = {one.signal.kind for one in heard}
    claimed = claims(heard)
    builds = tuple(p for p in moves.builds if p[0] not in claimed)
    table = view.table
    if "launch_next" in kinds and can_score(table.rules, table.rocket):
        # their launch stays possible: only a section after which the rocket still scores
        builds = tuple(p for p in builds if can_score(table.rules, (*table.rocket, p)))
    scrap = moves.scrap and not kinds & {"launch_next", "dont_scrap"}
    if builds == moves.builds and scrap == moves.scrap:
        return moves
    return replace(moves, builds=builds, scrap=scrap)


def allows(moves: LegalMoves, decision: Decision) -> bool:
    """Whether `decision` is among `moves` (as far as heeding goes: its build, its scrap)."""
    action = decision.action
    if action["type"] == "scrap":
        return moves.scrap
    if action["type"] == "build":
        return (Colour(action["colour"]), Size(action["size"])) in moves.builds
    return True


#: Cards of a claimed colour counted on from the teammate who claimed it: a large section.
CLAIMED_CARDS = 3


def later(view: PlayerView, heard: Iterable[Said]) -> list[Said]:
    """The signals of those who do not play next, whose claims the crew plans around
    (`coming`, `unclaimed`): the next player builds theirs at once, and replanning
    around it lost games beside one teammate in the balance lab."""
    seats = [seat.player for seat in view.table.seats]
    after = seats[(seats.index(view.player) + 1) % len(seats)]
    return [one for one in heard if one.player != after]


def coming(heard: Iterable[Said]) -> tuple[int, ...]:
    """Cards per colour (COLOURS order) the crew counts on from the people's claims ("I'll
    build ♥"): the claimed section comes in its plans, paid from the claimer's hand."""
    claimed = claims(heard)
    return tuple(CLAIMED_CARDS if colour in claimed else 0 for colour in COLOURS)


def unclaimed(setting: Setting, heard: Iterable[Said]) -> Setting:
    """`setting` less the rockets whose next section is only of colours people claimed:
    the crew plans what it can do now beside the claimed sections to come."""
    claimed = {COLOURS.index(colour) for colour in claims(heard)}

    def open_(rows: tuple[Row, ...]) -> tuple[Row, ...]:
        return tuple(r for r in rows if not r[BUILDS] or set(r[NEXT_COLOURS]) - claimed)

    welcome = None if setting.welcome is None else open_(setting.welcome)
    return replace(
        setting, keep=open_(setting.keep), welcome=welcome, evident=open_(setting.evident)
    )


def kept(first: Decision, again: Decision, moves: LegalMoves, heard: Iterable[Said]) -> Decision:
    """The move heeding the people, `again` (decided among the heeded `moves`) where it
    keeps to `first`'s plan (another section of it, a launch, a draw for it) or builds
    toward a rocket that has a claimed section to come; a draw for that plan
    (`draw_heed`) where it would build another rocket, or still scrap."""
    if allows(moves, again) and (
        again.action["type"] != "build" or _same_plan(first, again) or _awaits(again, heard)
    ):
        return again
    asked = next(iter(heard))
    return Decision(
        {"type": "draw", "player": first.action["player"]},
        "draw_heed",
        {"player": asked.player, "signal": asked.signal.code},
        "Draw: a teammate said what they will do, and this plan's move would go against it.",
        plan=first.plan,
    )


def _same_plan(first: Decision, again: Decision) -> bool:
    """Whether two decisions aim at the same rocket."""
    return (
        first.plan is not None and again.plan is not None and first.plan.pieces == again.plan.pieces
    )


def _awaits(decision: Decision, heard: Iterable[Said]) -> bool:
    """Whether `decision`'s plan awaits a section of a colour a person claimed: the rest
    of the rocket they said they will build on."""
    plan = decision.plan
    claimed = claims(heard)
    return plan is not None and any(
        not built and Colour(colour) in claimed
        for (colour, _), built in zip(plan.pieces, plan.built, strict=True)
    )


def says(decision: Decision) -> Signal | None:
    """What a crewmate tells the team of its plan after `decision` (None: nothing new)."""
    plan = decision.plan
    if plan is None:
        return None
    if decision.reason == "draw_for_sequence" and plan.sequence_needs:
        return Signal("need", Colour(plan.sequence_needs[0]))
    if decision.reason not in _PLANNING or plan.scrap_first:
        return None
    left = [
        piece
        for piece, built in zip(plan.pieces, plan.built, strict=True)
        if not built and piece != plan.section
    ]
    if not left:
        return None
    colour, _ = max(left, key=lambda piece: piece[1])  # the first of the largest
    return Signal("build", Colour(colour))
