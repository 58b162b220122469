"""The crew at table talk: the people's signals heeded in its moves, its own plan said as one.

Heeded (`heed`), while a signal stands (`engine.signals`) and only a person's (the seats
of AI crewmates, public at the table, plan alike and need no telling):

- "I'll build ♥": the crew builds no section of that colour; it builds another of its
  plan, or draws (and the cards of that suit go on feeding its plan);
- "Launch next turn": the rocket is left as it is for them: no section and no scrap (the
  crew may still add to a launch sequence under way, or start it);
- "Don't scrap": no scrap; the crew draws instead (`draw_heed`).

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

from engine.cards import Colour
from engine.crew.decisions import Decision
from engine.events import PlayerId
from engine.moves import LegalMoves
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


def heed(moves: LegalMoves, heard: Iterable[Said]) -> LegalMoves:
    """`moves` less what the people's signals ask the crew not to do."""
    kinds = {one.signal.kind for one in heard}
    claimed = {one.signal.colour for one in heard if one.signal.kind == "build"}
    builds = () if "launch_next" in kinds else tuple(p for p in moves.builds if p[0] not in claimed)
    scrap = moves.scrap and not kinds & {"launch_next", "dont_scrap"}
    if builds == moves.builds and scrap == moves.scrap:
        return moves
    return replace(moves, builds=builds, scrap=scrap)


def kept(decision: Decision, heard: Iterable[Said]) -> Decision:
    """A scrap the people asked the crew not to make, as a draw (`draw_heed`)."""
    asked = next((one for one in heard if one.signal.kind in ("dont_scrap", "launch_next")), None)
    if decision.action["type"] != "scrap" or asked is None:
        return decision
    return Decision(
        {"type": "draw", "player": decision.action["player"]},
        "draw_heed",
        {"player": asked.player, "signal": asked.signal.code},
        "Draw: a teammate asked to keep the rocket on the pad.",
        plan=decision.plan,
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
