"""A stand-in for a person at the table: it picks one sensible rocket and follows it, never scraps.

Written apart from the crew policy, to measure how the crew plays beside people who
have plans of their own (the balance lab's mixed seatings). From one player's view it
chooses, among a few rockets a person would pick ("red L + yellow M + blue M"), the one
that fits the rocket on the pad and needs the fewest cards its hand lacks; when none
fits what teammates built, it finishes that rocket with the fewest sections that fuel it
and give it a warhead. It builds that rocket's next section when it can pay for it and
draws when it cannot; once the rocket is finished it plays every suit it holds into the
launch sequence, and it adds what it can to a sequence a teammate started. It never
scraps, rerolls every failed die it may, and discards what its rocket needs least. It
plans nothing else (no odds beyond its list, no clock), and is deterministic.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.cards import Colour, Rules, Section, Size, colour_of
from engine.moves import LegalMoves, legal_moves, one_per_suit
from engine.odds import odds, points_of
from engine.views import PlayerView

R, Y, B, G = Colour.RED, Colour.YELLOW, Colour.BLUE, Colour.GREEN
L, M, S = Size.LARGE, Size.MEDIUM, Size.SMALL

#: The rockets a stand-in aims at (bottom first), in its order of preference: each
#: passes the fuel check and carries a warhead.
TARGETS = {
    Rules.BASIC: (
        ((R, L), (Y, L), (B, M), (G, M)),
        ((R, L), (Y, M), (B, M)),
        ((G, L), (Y, L), (B, M), (R, M)),
    ),
    Rules.ADVANCED: (
        ((R, L), (Y, L), (B, M), (G, M)),
        ((R, L), (Y, M), (B, M)),
    ),
}
#: When no target fits the pad: finish it with sections whose launch damages Apophis (or
#: deflects it) this often, if such sections exist.
GOOD_ENOUGH = 0.25


def standin_action(view: PlayerView) -> dict[str, Any] | None:
    """The stand-in's action for the viewing player, or None when none is due."""
    table = view.table
    me = view.player
    moves = legal_moves(view)
    if not moves:
        return None
    if moves.reroll:
        return {"type": "reroll", "player": me}
    hand = Counter(colour_of(c) for c in view.hand)
    target = _target(view, hand)
    if moves.discard:
        return _discard(view, hand, target)
    playable = one_per_suit(sorted(moves.launch))
    if table.sequence:
        if playable:
            return {"type": "launch", "player": me, "cards": playable}
        return {"type": "draw", "player": me}
    rocket = list(table.rocket)
    if target is None:
        return {"type": "draw", "player": me}  # nothing fits: wait for the team (never scrap)
    left = [piece for piece in target if piece not in rocket]
    if not left:  # the rocket is finished: launch it
        if playable:
            return {"type": "launch", "player": me, "cards": playable}
        return {"type": "draw", "player": me}
    return build_next(moves, left) or {"type": "draw", "player": me}


def build_next(moves: LegalMoves, left: list[Section]) -> dict[str, Any] | None:
    """Build one of the largest sections of `left` (a rocket's missing ones), the first
    this player can build now."""
    size = int(max(s for _, s in left))
    for colour, piece_size in left:
        if piece_size == size and (colour, piece_size) in moves.builds:
            return {"type": "build", "player": moves.player, "colour": colour.value, "size": size}
    return None


def _fits(target: tuple[Section, ...], rocket: list[Section], depot: set[Section]) -> bool:
    """Whether the pad can grow into `target`: it holds only target sections, and the
    rest are in the depot and no larger than its top."""
    if any(piece not in target for piece in rocket):
        return False
    top = rocket[-1][1] if rocket else L
    return all(p in depot and p[1] <= top for p in target if p not in rocket)


def _target(view: PlayerView, hand: Counter[Colour]) -> tuple[Section, ...] | None:
    """The rocket to aim at: the fitting target needing the fewest cards this hand lacks
    (the earliest in the list on a tie), else the pad finished as cheaply as can be."""
    table = view.table
    rocket = list(table.rocket)
    depot = set(table.depot)
    best: tuple[int, int] | None = None
    chosen = None
    for rank, target in enumerate(TARGETS[table.rules]):
        if not _fits(target, rocket, depot):
            continue
        lacking = sum(
            max(0, sum(s for c, s in target if c is colour and (c, s) not in rocket) - hand[colour])
            for colour in Colour
        )
        if best is None or (lacking, rank) < best:
            best, chosen = (lacking, rank), target
    if chosen is not None:
        return chosen
    if not rocket:
        return None
    return _finish(table.rules, table.apophis_value, rocket, depot)


def _finish(
    rules: Rules, apophis: int, rocket: list[Section], depot: set[Section]
) -> tuple[Section, ...] | None:
    """The pad with the fewest added sections (two at most) that make its launch damage
    Apophis or deflect it `GOOD_ENOUGH` often, if possible; the best odds among those,
    damage first."""
    top = rocket[-1][1]
    fitting = sorted((p for p in depot if p[1] <= top), key=lambda p: (-p[1], p[0].value))
    options: list[tuple[Section, ...]] = [()]
    options += [(p,) for p in fitting]
    options += [(p, q) for i, p in enumerate(fitting) for q in fitting[i + 1 :]]
    scored = []
    for added in options:
        rocket_then = rocket + list(added)
        damage, deflect = odds(rules, apophis, points_of(rocket_then))
        if damage or deflect:  # damage counts twice: it adds a counter too (basic rules)
            good = max(damage, deflect) >= GOOD_ENOUGH
            scored.append((good, -len(added), damage + deflect / 2, tuple(rocket_then)))
    if not scored:
        return None
    return max(scored, key=lambda s: s[:3])[3]


def _discard(
    view: PlayerView, hand: Counter[Colour], target: tuple[Section, ...] | None
) -> dict[str, Any]:
    """Drop the cards the target needs least: first those no section still to build nor
    the launch sequence (one card of each suit) takes, then the launch cards, then those
    of the last section to build."""
    count = legal_moves(view).discard
    rocket = list(view.table.rocket)
    needs: list[Colour] = []  # one colour per card wanted, most wanted first
    for colour, size in sorted((p for p in target or () if p not in rocket), key=lambda p: -p[1]):
        needs += [colour] * int(size)
    needs += list(Colour)
    left = Counter(hand)
    kept: list[Colour] = []
    for colour in needs:
        if left[colour]:
            left[colour] -= 1
            kept.append(colour)
    spare = [c for c in sorted(view.hand, key=lambda c: (colour_of(c).value, c))]
    order: list[str] = []  # cards in the order they go
    taken = Counter(kept)
    for card in spare:  # those beyond every need
        if taken[colour_of(card)]:
            taken[colour_of(card)] -= 1
        else:
            order.append(card)
    for colour in reversed(kept):  # then the least wanted of the rest
        order.append(next(c for c in spare if colour_of(c) is colour and c not in order))
    return {"type": "discard", "player": view.player, "cards": order[:count]}
