"""The crew at table talk: the people's signals heeded where that costs nothing, its own plan said.

Heeded (`heed`), while a signal stands (`engine.signals`) and only a person's (the seats
of AI crewmates, public at the table, plan alike and need no telling):

- "Don't scrap": no scrap (the crew draws for its plan instead, `draw_heed`);
- "Launch next turn": no scrap either; and, as a tie-breaker, no section after which a
  rocket that can score could not;
- "I'll build ♥", as a tie-breaker: no section of that colour.

A tie-breaker decides between moves the crew rates alike, and only those (`settle`):
where the move it would make goes against it, it takes another section of the same
size toward the same rocket, of a colour the rocket does not have yet, that leaves a
rocket able to score if its own move would (the first thing the crew weighs between
sections of one size), if it can, and its own move otherwise. A section a teammate
said they would build on their turn, which the crew would build now, comes sooner from
the crew: the teammate finds it on the pad and builds on. Every stricter reading tried
in the balance lab (`benchmarks/balance_lab.py --talk`: the same deals and dice, talking
and silent) lost games beside the partner styles that say their plan: drawing rather
than build a claimed colour, or planning around the claim (docs/crew.md, "Table talk").

"I need ♠", "I can launch ♦" and "I hold 2 ♦" tell the crew nothing its plans act on:
there is no giving of cards in Apophis, and a launch sequence under way is completed
by whoever holds its suits anyway. No signal ever keeps the crew from a launch.

Said (`says`), after a crewmate's move: the colour of the largest section its plan
still lacks ("I'll build ♥"), when it builds toward that plan or draws for it; the suits
a launch sequence lacks that it holds none of ("I need ♠").
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import replace

from engine.cards import Colour, Section, Size
from engine.crew.decisions import Decision
from engine.crew.team import can_score
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


def claims(heard: Iterable[Said]) -> set[Colour]:
    """The colours people said they will build ("I'll build ♥")."""
    return {one.signal.colour for one in heard if one.signal.kind == "build" and one.signal.colour}


#: The signals that ask the team to keep the rocket on the pad.
_NO_SCRAP = frozenset(("launch_next", "dont_scrap"))


def heed(moves: LegalMoves, view: PlayerView, heard: Iterable[Said]) -> LegalMoves:
    """`moves` less what the people's signals ask the crew not to do (the builds as
    tie-breakers, `settle`)."""
    kinds = {one.signal.kind for one in heard}
    claimed = claims(heard)
    builds = tuple(p for p in moves.builds if p[0] not in claimed)
    table = view.table
    if "launch_next" in kinds and can_score(table.rules, table.rocket):
        # their launch stays possible: only a section after which the rocket still scores
        builds = tuple(p for p in builds if can_score(table.rules, (*table.rocket, p)))
    scrap = moves.scrap and not kinds & _NO_SCRAP
    if builds == moves.builds and scrap == moves.scrap:
        return moves
    return replace(moves, builds=builds, scrap=scrap)


def allows(moves: LegalMoves, decision: Decision) -> bool:
    """Whether `decision` is among `moves` (as far as heeding goes: its build, its scrap)."""
    action = decision.action
    if action["type"] == "scrap":
        return moves.scrap
    if action["type"] == "build":
        return _section(decision) in moves.builds
    return True


def settle(view: PlayerView, first: Decision, again: Decision, heard: Iterable[Said]) -> Decision:
    """The move heeding the people where `first` (the crew's own) goes against them:
    `again` (decided among the heeded `moves`) where the two are a tie the signals break
    (`_tie`); `first` where it builds otherwise (a tie-breaker yields to a better move);
    a draw for `first`'s plan (`draw_heed`) where it would scrap."""
    if first.action["type"] == "build":
        return again if _tie(view, first, again) else first
    asked = next(one for one in heard if one.signal.kind in _NO_SCRAP)
    return Decision(
        {"type": "draw", "player": first.action["player"]},
        "draw_heed",
        {"player": asked.player, "signal": asked.signal.code},
        "Draw: a teammate asked the team to keep the rocket on the pad.",
        plan=first.plan,
    )


def _tie(view: PlayerView, first: Decision, again: Decision) -> bool:
    """Whether two decisions build sections of one size toward the same rocket, the
    second of a colour the rocket does not have yet (a second section of a colour on
    the pad changes the rocket the claimer counts on more than a new colour does), and
    the second leaves a rocket that can score if the first does (as the crew ranks its
    own sections: a teammate may launch what they find)."""
    one, other = first.plan, again.plan
    if not (
        again.action["type"] == "build"
        and one is not None
        and other is not None
        and one.pieces == other.pieces
        and first.action["size"] == again.action["size"]
    ):
        return False
    table, theirs = view.table, _section(again)
    if any(colour is theirs[0] for colour, _ in table.rocket):
        return False
    rules, rocket = table.rules, table.rocket
    return can_score(rules, (*rocket, theirs)) or not can_score(rules, (*rocket, _section(first)))


def _section(decision: Decision) -> Section:
    """The section a build decision builds."""
    action = decision.action
    return Colour(action["colour"]), Size(action["size"])


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
