"""A population of teammates written apart from the crew: four styles a person might play with.

The balance lab seats the crew beside each of them (`--crossplay`), so that the crew is
measured beside people it was not built with, not only beside copies of itself. Each
style was written from a sentence a player might say about how they play, then made
into rules that a person could follow at the table; none was run against the crew, nor
tuned afterwards to make it look good or bad. Like the stand-in (`engine.standin`), each
plays from one player's view (their hand and the table) and nothing else, never looks
at the clock, and is deterministic. Every style adds what it can to a launch sequence a
teammate started (the hoarder only when it can complete it), rerolls every failed die
it may (rerolls serve nothing else), and never scraps unless said below.

- `impatient`, "Once it can fly, send it!": aims at a quick rocket, a warhead and just
  enough fuel (red L + yellow M, red M + yellow S, the other way up, or in basic rules
  with a green warhead), builds it largest piece first, and starts the launch sequence
  with every suit it holds as soon as the rocket on the pad passes the fuel check and
  carries a warhead, whoever built it and whatever its guidance. When the pad fits none
  of its quick rockets (a teammate built something else) it stops building and launches
  what is there at once.
- `builder`, "Go big or go home": aims at a big rocket of large sections (red L + yellow
  L + blue L + green M; or green L + yellow L + blue L + red M in basic rules, red L +
  green L + yellow L + blue M in advanced rules), builds
  its largest missing section first (waiting, drawing, until it can pay for a large),
  and starts the launch sequence only when that rocket is finished. On a rocket that
  fits neither, it adds the largest section it can pay for after which the rocket
  passes the fuel check (a warhead, then guidance, before the rest; it draws when it
  can pay for none), and launches once the rocket passes the fuel check with a warhead
  and is worth `BIG_ENOUGH` points, or no section left would keep it fuelled; a rocket
  that cannot fly and that no section left would fuel, it scraps.
- `hoarder`, "Keep one of each for the launch": plans its rocket as the stand-in does,
  but holds its launch cards back: it starts a launch sequence only when it holds all
  four suits, so that the rocket launches in one go, adds to a teammate's sequence only
  when it can complete it (it draws otherwise), and when it must discard it keeps one
  card of each suit before the cards its rocket still needs.
- `planner`, the outside partner of issue 37: plays from a short list of rockets of its
  own (yellow L + red L + blue M, red L + blue L + yellow L, red M + yellow M + blue S),
  the one that fits the pad and that its hand is closest to, builds it largest piece
  first, and launches it with every suit it holds once it is finished. It never adapts:
  when the rocket on the pad fits none of its plans, it starts the launch sequence on
  whatever is there.

Each may also say its plan to the team (`SAYS`, `engine.signals`) after its move, as a
person playing that way would: the colour of the next section its rocket lacks ("I'll
build ♥"), "Launch next turn" once the pad is the rocket it launches (the hoarder, holding
every suit; else "I need" the suit it lacks). The balance lab seats each style silent and
saying its plan (`<style>_says`, engine.simulate), to measure the crew heeding it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from engine.cards import Colour, Rules, Section, Size, colour_of, fuel_needed
from engine.moves import legal_moves, one_per_suit
from engine.odds import YELLOW, odds, points_of
from engine.signals import Signal
from engine.standin import _discard, _fits, _target, build_next
from engine.views import PlayerView

R, Y, B, G = Colour.RED, Colour.YELLOW, Colour.BLUE, Colour.GREEN
L, M, S = Size.LARGE, Size.MEDIUM, Size.SMALL

Action = dict[str, Any]
Rocket = tuple[Section, ...]
Rockets = dict[Rules, tuple[Rocket, ...]]

#: The impatient launcher's quick rockets: a warhead and just enough fuel, either way up.
QUICK: Rockets = {
    Rules.BASIC: (
        ((R, L), (Y, M)),
        ((R, M), (Y, S)),
        ((Y, L), (R, L)),
        ((Y, M), (R, M)),
        ((G, L), (Y, M)),
        ((Y, M), (G, M)),
    ),
    Rules.ADVANCED: (
        ((R, L), (Y, M)),
        ((R, M), (Y, S)),
        ((Y, L), (R, L)),
        ((Y, M), (R, M)),
    ),
}
#: The big builder's rockets: large sections, launched when whole.
BIG: Rockets = {
    Rules.BASIC: (
        ((R, L), (Y, L), (B, L), (G, M)),
        ((G, L), (Y, L), (B, L), (R, M)),
    ),
    Rules.ADVANCED: (
        ((R, L), (Y, L), (B, L), (G, M)),
        ((R, L), (G, L), (Y, L), (B, M)),
    ),
}
#: A rocket off its list that the big builder launches: worth at least this many points.
BIG_ENOUGH = 8
#: The outside partner's own plans, the same in both rule sets.
PLANS: tuple[Rocket, ...] = (
    ((Y, L), (R, L), (B, M)),
    ((R, L), (B, L), (Y, L)),
    ((R, M), (Y, M), (B, S)),
)


def impatient_action(view: PlayerView) -> Action | None:
    """The impatient launcher's action for the viewing player, or None when none is due."""
    return _turn(view, _impatient_play, _discard_for(lambda v, h: _closest(v, h, QUICK)))


def builder_action(view: PlayerView) -> Action | None:
    """The big builder's action for the viewing player, or None when none is due."""
    return _turn(view, _builder_play, _discard_for(lambda v, h: _closest(v, h, BIG)))


def hoarder_action(view: PlayerView) -> Action | None:
    """The hoarder's action for the viewing player, or None when none is due."""
    return _turn(view, _hoarder_play, _hoarder_discard)


def planner_action(view: PlayerView) -> Action | None:
    """The outside partner's action for the viewing player, or None when none is due."""
    return _turn(view, _planner_play, _discard_for(lambda v, h: _closest(v, h, PLANS)))


#: The styles by the short name the balance lab and `engine.simulate` know them by.
STYLES: dict[str, Callable[[PlayerView], Action | None]] = {
    "impatient": impatient_action,
    "builder": builder_action,
    "hoarder": hoarder_action,
    "planner": planner_action,
}

# ------------------------------------------------------------------ shared moves

Play = Callable[[PlayerView, Counter[Colour]], Action]


def _turn(view: PlayerView, play: Play, discard: Play) -> Action | None:
    """The phases every style meets alike: nothing when it is not this player's move, a
    reroll of every failed die, and the style's own discard or play otherwise."""
    moves = legal_moves(view)
    if not moves:
        return None
    if moves.reroll:
        return {"type": "reroll", "player": view.player}
    hand = Counter(colour_of(c) for c in view.hand)
    if moves.discard:
        return discard(view, hand)
    return play(view, hand)


def _discard_for(
    aim: Callable[[PlayerView, Counter[Colour]], Rocket | None],
) -> Play:
    """The stand-in's discard (drop what the rocket aimed at needs least), with this
    style's own aim."""
    return lambda view, hand: _discard(view, hand, aim(view, hand))


def _draw(view: PlayerView) -> Action:
    return {"type": "draw", "player": view.player}


def _launch_or_draw(view: PlayerView) -> Action:
    """Every suit in hand the launch sequence lacks into it; a draw when that is none (or
    there is no rocket)."""
    cards = one_per_suit(sorted(legal_moves(view).launch))
    if cards:
        return {"type": "launch", "player": view.player, "cards": cards}
    return _draw(view)


def _closest(
    view: PlayerView, hand: Counter[Colour], rockets: Rockets | tuple[Rocket, ...]
) -> Rocket | None:
    """Among `rockets` (a list, or one by rule set), the one the pad can grow into whose
    missing sections cost the fewest cards this hand lacks (the earliest on a tie); None
    when none fits."""
    table = view.table
    listed = rockets[table.rules] if isinstance(rockets, dict) else rockets
    rocket = list(table.rocket)
    depot = set(table.depot)
    best: tuple[int, int] | None = None
    chosen = None
    for rank, target in enumerate(listed):
        if not _fits(target, rocket, depot):
            continue
        cost = Counter[Colour]()
        for colour, size in target:
            if (colour, size) not in rocket:
                cost[colour] += int(size)
        lacking = sum(max(0, cost[c] - hand[c]) for c in cost)
        if best is None or (lacking, rank) < best:
            best, chosen = (lacking, rank), target
    return chosen


def _build_next(view: PlayerView, target: Rocket) -> Action | None:
    """Build one of the largest sections `target` still lacks, if this hand pays for it."""
    left = [piece for piece in target if piece not in view.table.rocket]
    return build_next(legal_moves(view), left) if left else None


def _build(view: PlayerView, piece: Section) -> Action:
    colour, size = piece
    return {"type": "build", "player": view.player, "colour": colour.value, "size": int(size)}


def _flies(view: PlayerView, rocket: Rocket | list[Section]) -> bool:
    """Whether a launch of `rocket` can do anything: it passes the fuel check and carries
    a warhead (red; or green, the deflecting warhead of the basic rules)."""
    return bool(rocket) and any(odds(view.table.rules, view.table.apophis_value, points_of(rocket)))


def _fuelled(rocket: Rocket | list[Section]) -> bool:
    """Whether `rocket` passes the fuel check."""
    points = points_of(rocket)
    return points[YELLOW] >= fuel_needed(sum(points))


# ------------------------------------------------------------- the styles' play


def _impatient_play(view: PlayerView, hand: Counter[Colour]) -> Action:
    table = view.table
    if table.sequence or _flies(view, table.rocket):
        return _launch_or_draw(view)
    target = _closest(view, hand, QUICK)
    if target is None:  # its plan cannot go on: send what is there
        return _launch_or_draw(view)
    return _build_next(view, target) or _draw(view)


def _builder_play(view: PlayerView, hand: Counter[Colour]) -> Action:
    table = view.table
    if table.sequence:
        return _launch_or_draw(view)
    target = _closest(view, hand, BIG)
    if target is not None:
        if all(piece in table.rocket for piece in target):
            return _launch_or_draw(view)
        return _build_next(view, target) or _draw(view)
    # A rocket off its list: make it as big as it can, then launch it.
    rocket = list(table.rocket)
    fitting = [p for p in table.depot if p[1] <= rocket[-1][1]]
    fuelled = [p for p in fitting if _fuelled([*rocket, p])]  # what it may add
    if _flies(view, rocket) and (sum(points_of(rocket)) >= BIG_ENOUGH or not fuelled):
        return _launch_or_draw(view)
    if not fuelled:
        return {"type": "scrap", "player": view.player}  # nothing left would fuel it
    colours = {c for c, _ in rocket}
    armed = R in colours or (G in colours and table.rules is Rules.BASIC)
    order = [B, R, G, Y] if armed else [R, B, G, Y]  # a warhead, then guidance, first
    builds = legal_moves(view).builds
    affordable = [p for p in fuelled if p in builds]
    if affordable:
        return _build(view, max(affordable, key=lambda p: (p[1], -order.index(p[0]))))
    return _draw(view)


def _hoarder_play(view: PlayerView, hand: Counter[Colour]) -> Action:
    table = view.table
    if not table.sequence:
        target = _target(view, hand)
        if target is None:
            return _draw(view)  # nothing fits: wait for the team, as the stand-in does
        if not all(piece in table.rocket for piece in target):
            return _build_next(view, target) or _draw(view)
    # A sequence under way, or the rocket finished: every suit the sequence lacks, all at
    # once (the rocket launches this turn), or a draw until it holds them.
    if all(hand[c] for c in Colour if c not in table.sequence):
        return _launch_or_draw(view)
    return _draw(view)


def _planner_play(view: PlayerView, hand: Counter[Colour]) -> Action:
    table = view.table
    if table.sequence:
        return _launch_or_draw(view)
    plan = _closest(view, hand, PLANS)
    if plan is None or all(piece in table.rocket for piece in plan):
        return _launch_or_draw(view)  # its plan is finished, or the pad fits none of them
    return _build_next(view, plan) or _draw(view)


def _hoarder_discard(view: PlayerView, hand: Counter[Colour]) -> Action:
    """Keep the cards of the next section to build (the largest its rocket lacks that this
    hand is closest to paying for), then one card of each suit (the launch), then the
    cards of the other sections still needed, largest first; drop the rest, then the
    least wanted of those kept."""
    count = legal_moves(view).discard
    rocket = view.table.rocket
    left = sorted((p for p in _target(view, hand) or () if p not in rocket), key=lambda p: -p[1])
    if left:
        largest = [p for p in left if p[1] == left[0][1]]
        following = max(largest, key=lambda p: hand[p[0]])  # the first on a tie
        left.remove(following)
        left.insert(0, following)
    wanted: list[Colour] = [c for c, size in left[:1] for _ in range(size)] + list(Colour)
    for colour, size in left[1:]:
        wanted += [colour] * int(size)
    cards = sorted(view.hand, key=lambda c: (colour_of(c).value, c))
    kept: list[str] = []
    for colour in wanted:
        card = next((c for c in cards if colour_of(c) is colour and c not in kept), None)
        if card is not None:
            kept.append(card)
    order = [c for c in cards if c not in kept] + kept[::-1]
    return {"type": "discard", "player": view.player, "cards": order[:count]}


# ------------------------------------------------------------- what they say

Says = Callable[[PlayerView], Signal | None]


def _plan_said(view: PlayerView, target: Rocket | None) -> Signal | None:
    """A style's plan as a signal: "I'll build ♥" for the largest section it still lacks
    when its hand pays for it (it builds it next turn), else "I need" that section's suit;
    once the pad is that rocket, "Launch next turn" (None: no plan)."""
    if target is None:
        return None
    left = [piece for piece in target if piece not in view.table.rocket]
    if not left:
        return Signal("launch_next")
    colour, size = max(left, key=lambda piece: piece[1])
    paid = sum(1 for card in view.hand if colour_of(card) is colour) >= size
    return Signal("build" if paid else "need", colour)


def impatient_says(view: PlayerView) -> Signal | None:
    """The impatient launcher: "Launch next turn" once the pad can fly, else its quick
    rocket's next section."""
    if view.table.sequence:
        return None
    if _flies(view, view.table.rocket):
        return Signal("launch_next")
    return _plan_said(view, _closest(view, _hand(view), QUICK))


def builder_says(view: PlayerView) -> Signal | None:
    """The big builder: its big rocket's next large section, or its launch once whole."""
    if view.table.sequence:
        return None
    return _plan_said(view, _closest(view, _hand(view), BIG))


def hoarder_says(view: PlayerView) -> Signal | None:
    """The hoarder: its rocket's next section; once it is finished, "Launch next turn"
    if it holds every suit, else the first suit it lacks ("I need ♠")."""
    if view.table.sequence:
        return None
    hand = _hand(view)
    said = _plan_said(view, _target(view, hand))
    if said is None or said.kind != "launch_next":
        return said
    lacking = [c for c in Colour if not hand[c]]
    return Signal("need", lacking[0]) if lacking else said


def planner_says(view: PlayerView) -> Signal | None:
    """The outside partner: its plan's next section, or its launch once finished (or on a
    pad that fits none of its plans, which it launches as it is)."""
    table = view.table
    if table.sequence or not (table.rocket or _closest(view, _hand(view), PLANS)):
        return None
    return _plan_said(view, _closest(view, _hand(view), PLANS)) or Signal("launch_next")


def _hand(view: PlayerView) -> Counter[Colour]:
    return Counter(colour_of(c) for c in view.hand)


#: What each style says of its plan after its move, by its name in `STYLES` (a person
#: playing that way and telling the team, `engine.signals`).
SAYS: dict[str, Says] = {
    "impatient": impatient_says,
    "builder": builder_says,
    "hoarder": hoarder_says,
    "planner": planner_says,
}
