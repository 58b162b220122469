"""Launch odds of every rocket, and the ways to add points of one colour, computed once.

A rocket's launch depends only on its points per colour, given in `COLOURS` order
(green, red, blue, yellow) as a 4-tuple. `odds(rules, apophis_value, points)` is the
chance that its launch damages Apophis and the chance that it adds a deflection
counter (basic rules), fail-safe rerolls included (advanced rules: a failed die is
always worth rerolling, as rerolls serve nothing else).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from engine.cards import Colour, Rules, Section, Size, fuel_needed

COLOURS: tuple[Colour, ...] = (Colour.GREEN, Colour.RED, Colour.BLUE, Colour.YELLOW)
GREEN, RED, BLUE, YELLOW = range(4)
Points = tuple[int, int, int, int]


def _chance(successes: int) -> float:
    """The chance that one d6 shows one of `successes` faces (clamped to 0..6)."""
    return min(max(successes, 0), 6) / 6


def _with_rerolls(steps: list[float], rerolls: int) -> float:
    """The chance that every step succeeds when a failed die may be rolled again."""
    best = [1.0] * (rerolls + 1)  # best[r]: the remaining steps all succeed, r rerolls left
    for p in reversed(steps):
        best = [
            sum((1 - p) ** j * p * best[r - j] for j in range(r + 1)) for r in range(rerolls + 1)
        ]
    return best[rerolls]


def _launch_odds(rules: Rules, apophis: int, points: Points) -> tuple[float, float]:
    green, red, blue, yellow = points
    total = sum(points)
    if total == 0 or yellow < fuel_needed(total):
        return 0.0, 0.0  # no rocket, or it fails the fuel check
    hit = _chance(apophis + blue)
    if rules is Rules.BASIC:
        return hit * _chance(red), hit * _chance(green)
    if red == 0:
        return 0.0, 0.0
    return _with_rerolls([_chance(7 - yellow), hit, _chance(red)], green // 2), 0.0


def index(points: Points) -> int:
    """The position of a points vector in the odds tables (each colour 0 to 6)."""
    green, red, blue, yellow = points
    return ((green * 7 + red) * 7 + blue) * 7 + yellow


_VECTORS = [(g, r, b, y) for g in range(7) for r in range(7) for b in range(7) for y in range(7)]
_ODDS = {
    (rules, apophis): tuple(_launch_odds(rules, apophis, v) for v in _VECTORS)
    for rules in Rules
    for apophis in (1, 2, 3)
}


def odds_table(rules: Rules, apophis: int) -> tuple[tuple[float, float], ...]:
    """`odds` for every points vector, by `index(points)` (Apophis still standing)."""
    return _ODDS[(rules, apophis)]


def odds(rules: Rules, apophis: int, points: Points) -> tuple[float, float]:
    """(chance to damage Apophis, chance to add a deflection counter) when launched."""
    if apophis <= 0:
        return 0.0, 0.0
    return _ODDS[(rules, apophis)][index(points)]


def points_of(rocket: Iterable[Section]) -> Points:
    """A rocket's points per colour, in `COLOURS` order."""
    points = [0, 0, 0, 0]
    for colour, size in rocket:
        points[COLOURS.index(colour)] += int(size)
    return points[0], points[1], points[2], points[3]


def _additions(available: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """For one colour: each number of points its available sizes can add, with the
    fewest sections that do it (largest first), in increasing points."""
    best: dict[int, tuple[int, ...]] = {}
    for n in range(len(available) + 1):
        for chosen in combinations(sorted(available, reverse=True), n):
            best.setdefault(sum(chosen), chosen)
    return tuple(sorted(best.items()))


#: ADDITIONS[sizes still available for a colour] (a tuple of sizes, largest first).
ADDITIONS = {
    sizes: _additions(sizes)
    for n in range(4)
    for sizes in combinations((int(Size.LARGE), int(Size.MEDIUM), int(Size.SMALL)), n)
}
