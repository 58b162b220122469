"""A simple greedy player, the baseline the crew policy is measured against.

From one player's view it builds whatever affordable section makes the rocket's
launch odds best right now (the largest when none helps yet), launches as soon as
those odds reach a fixed bar, adds whatever it can to a launch sequence under way,
rerolls every failed die it may, and otherwise draws. It plans nothing ahead.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.cards import Colour, Size, colour_of
from engine.moves import legal_moves
from engine.odds import COLOURS, Points, odds, points_of
from engine.views import PlayerView

#: Launch once the rocket's chance to damage or deflect reaches this.
LAUNCH_AT = 0.3


def greedy_action(view: PlayerView) -> dict[str, Any] | None:
    """The greedy player's action for the viewing player, or None when none is due."""
    table = view.table
    me = view.player
    moves = legal_moves(view)
    if not moves:
        return None
    if moves.reroll:
        return {"type": "reroll", "player": me}
    hand = Counter(colour_of(c) for c in view.hand)
    if moves.discard:
        dropped: list[str] = []
        for _ in range(moves.discard):  # from the suit held most
            colour = max(Colour, key=lambda c: hand[c])
            dropped.append(
                next(c for c in sorted(view.hand) if colour_of(c) is colour and c not in dropped)
            )
            hand[colour] -= 1
        return {"type": "discard", "player": me, "cards": dropped}
    current = points_of(table.rocket)
    chosen: dict[Colour, str] = {}
    for card in sorted(moves.launch):
        chosen.setdefault(colour_of(card), card)

    def value(points: Points, colour: Colour | None = None, size: int = 0) -> float:
        if colour is not None:
            added = list(points)
            added[COLOURS.index(colour)] += size
            points = added[0], added[1], added[2], added[3]
        return sum(odds(table.rules, table.apophis_value, points))

    now = value(current)
    if table.sequence or (table.rocket and now >= LAUNCH_AT):
        if chosen:
            return {"type": "launch", "player": me, "cards": list(chosen.values())}
        return {"type": "draw", "player": me}
    top = table.rocket[-1][1] if table.rocket else Size.LARGE
    fitting = [(c, int(s)) for (c, s) in table.depot if s <= top]
    builds = [(value(current, c, int(s)), int(s), c) for c, s in moves.builds]
    if builds:
        gain, size, colour = max(builds, key=lambda b: (b[0], b[1], -COLOURS.index(b[2])))
        if gain >= now:
            return {"type": "build", "player": me, "colour": colour.value, "size": size}
    if table.rocket and now > 0 and chosen:
        return {"type": "launch", "player": me, "cards": list(chosen.values())}
    if table.rocket and not now and not any(value(current, c, s) for c, s in fitting):
        return {"type": "scrap", "player": me}
    return {"type": "draw", "player": me}
