"""What one player may do now, read from their own view: the one answer for every panel and player.

`legal_moves(view)` says which of a player's actions the game accepts at this moment: a
draw, which sections they can build (paid for from their hand, fitting on the rocket),
which of their cards may join the launch sequence, a scrap, how many cards they must
discard, or the decision on a failed die (reroll or accept). It reads the view alone (the
player's hand and the table), never the deck or other hands, so an AI player that asks
it cannot peek. `when_my_turn(view)` is the same view as if the viewer's turn came now
(what a hint out of turn plans from). `LegalMoves.allows(action)` says whether one action,
given as data for `Game.apply`, is among them; `LegalMoves.actions()` names one action of
each kind.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.cards import Colour, Section, Size, colour_of
from engine.events import PlayerId
from engine.game import HAND_LIMIT, malformed
from engine.views import Phase, PlayerView

#: The actions a player chooses (the others are the bot's: reshuffles, the clock, leaving).
PLAYER_ACTIONS = ("draw", "build", "launch", "scrap", "discard", "reroll", "accept")


@dataclass(slots=True)
class LegalMoves:
    """The moves open to `player` now; false (no move at all) when nothing is theirs to do.

    A fresh value at every call (not frozen: made for each decision and each panel, it
    is made the quicker way).

    `builds` are the sections their hand pays for that fit on the rocket (depot order);
    `launch` the cards of their hand (in its order) whose suits the launch sequence still
    needs, any of them with at most one card a suit making a launch move; `discard` how
    many cards they must discard, any of their hand (0: no discard is due); `reroll`
    that a failed die waits for them to reroll it or accept it.
    """

    player: PlayerId
    draw: bool = False
    builds: tuple[Section, ...] = ()
    launch: tuple[str, ...] = ()
    scrap: bool = False
    discard: int = 0
    reroll: bool = False
    hand: tuple[str, ...] = ()  # the player's own hand, which discards choose from

    def __bool__(self) -> bool:
        return self.draw or self.discard > 0 or self.reroll

    def actions(self) -> Iterator[dict[str, Any]]:
        """One action of each kind open now, as data for `Game.apply`: each section built
        with the first cards of its suit, one card of each suit launched, the first cards
        of the hand discarded."""
        me = self.player
        if self.draw:
            yield {"type": "draw", "player": me}
        for colour, size in self.builds:
            yield {"type": "build", "player": me, "colour": colour.value, "size": int(size)}
        if self.launch:
            yield {"type": "launch", "player": me, "cards": one_per_suit(self.launch)}
        if self.scrap:
            yield {"type": "scrap", "player": me}
        if self.discard:
            yield {"type": "discard", "player": me, "cards": list(self.hand[: self.discard])}
        if self.reroll:
            yield {"type": "reroll", "player": me}
            yield {"type": "accept", "player": me}

    def allows(self, action: Mapping[str, Any]) -> bool:
        """Whether the game accepts `action` (data for `Game.apply`) from this player now."""
        kind = action.get("type")
        if kind not in PLAYER_ACTIONS or action.get("player") != self.player:
            return False
        if malformed(dict(action)) is not None:
            return False
        if kind == "build":
            return self._pays(action["colour"], action["size"], action.get("cards"))
        if kind == "launch":
            return self._launches(action["cards"])
        if kind == "discard":
            return self.discard > 0 and self._held(action["cards"], self.discard)
        if kind in ("reroll", "accept"):
            return self.reroll
        return self.draw if kind == "draw" else self.scrap

    def _pays(self, colour: Any, size: Any, cards: Sequence[str] | None) -> bool:
        section = _section(colour, size)
        if section is None or section not in self.builds:
            return False
        if cards is None:
            return True
        return self._held(cards, section[1]) and all(colour_of(c) is section[0] for c in cards)

    def _launches(self, cards: Sequence[str]) -> bool:
        if not cards or not self._held(cards, len(cards)):
            return False
        suits = [colour_of(c) for c in cards]
        return len(set(suits)) == len(suits) and set(cards) <= set(self.launch)

    def _held(self, cards: Sequence[str], count: int) -> bool:
        """`count` distinct cards, all of this player's hand."""
        chosen = list(cards)
        if not all(isinstance(c, str) for c in chosen):
            return False
        return len(chosen) == count == len(set(chosen)) and set(chosen) <= set(self.hand)


_NONE_HELD = dict.fromkeys(Colour, 0)


def legal_moves(view: PlayerView) -> LegalMoves:
    """The moves `view`'s player may make now (see `LegalMoves`)."""
    table = view.table
    me = view.player
    if table.phase in (Phase.OVER, Phase.RESHUFFLE) or table.active_player != me:
        return LegalMoves(me, hand=view.hand)
    if table.phase is Phase.REROLL:
        return LegalMoves(me, reroll=True, hand=view.hand)
    if table.phase is Phase.DISCARD:
        return LegalMoves(me, discard=len(view.hand) - HAND_LIMIT, hand=view.hand)
    held = dict(_NONE_HELD)
    for card in view.hand:
        held[colour_of(card)] += 1
    builds: tuple[Section, ...] = ()
    if not table.sequence:
        top = table.rocket[-1][1] if table.rocket else Size.LARGE
        builds = tuple((c, s) for c, s in table.depot if s <= top and held[c] >= s)
    launch: tuple[str, ...] = ()
    if table.rocket:
        launch = tuple(c for c in view.hand if colour_of(c) not in table.sequence)
    scrap = bool(table.rocket or table.sequence)
    return LegalMoves(me, True, builds, launch, scrap, hand=view.hand)


def when_my_turn(view: PlayerView) -> PlayerView:
    """`view` as if its player's turn began now, on the table as it is: their own hand and
    what everyone sees, nothing more (a turn in play elsewhere, and a die waiting for its
    decision, left out)."""
    table = replace(view.table, phase=Phase.PLAY, active_player=view.player, pending=None)
    return replace(view, table=table)


def one_per_suit(cards: Sequence[str]) -> list[str]:
    """The first of `cards` of each suit, in suit order (green, red, blue, yellow)."""
    chosen: dict[Colour, str] = {}
    for card in cards:
        chosen.setdefault(colour_of(card), card)
    return [chosen[c] for c in Colour if c in chosen]


def _section(colour: Any, size: Any) -> Section | None:
    """The section a build names, None when its colour or size is none of the game's."""
    try:
        return Colour(colour), Size[size.upper()] if isinstance(size, str) else Size(size)
    except (KeyError, ValueError, TypeError):
        return None
