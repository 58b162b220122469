"""Deterministic randomness whose whole state is one integer saved with the game.

SplitMix64 is small, fast and statistically sound for shuffles and dice; the game
never needs cryptographic strength, only fairness and exact replay from a saved state.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence
from typing import Any

_MASK = (1 << 64) - 1


class Random:
    """A seeded generator for dice and shuffles; `state` is all there is to save."""

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def _next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self._next64()
            if x < limit:
                return x % n

    def d6(self) -> int:
        """One roll of a fair six-sided die."""
        return self.below(6) + 1

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Shuffle in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


class ScriptedRandom(Random):
    """A generator for tests: scripted dice and shuffle orders come first, then the seed.

    `dice` are returned by `d6` in order; each entry of `shuffles` is the exact order
    the next shuffled list must take (it must be a permutation of that list).
    """

    def __init__(
        self,
        dice: Iterable[int] = (),
        shuffles: Iterable[list[Any]] = (),
        state: int = 0,
    ) -> None:
        super().__init__(state)
        self.dice = list(dice)
        self.shuffles = [list(order) for order in shuffles]

    def d6(self) -> int:
        if self.dice:
            value = self.dice.pop(0)
            if not 1 <= value <= 6:
                raise ValueError(f"scripted die out of range: {value}")
            return value
        return super().d6()

    def shuffle(self, items: MutableSequence[Any]) -> None:
        if self.shuffles:
            order = self.shuffles.pop(0)
            if sorted(order) != sorted(items):
                raise ValueError("scripted shuffle is not a permutation of the items")
            items[:] = order
            return
        super().shuffle(items)
