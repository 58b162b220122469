"""Table talk: the closed set of quick signals a player gives the team, checked against their view.

The rules make talk part of the game: players discuss their decisions and may say what
they hold, but never show a card. A signal is one of `KINDS`, with a colour (its suit)
for those that name one, and a count for "hold":

- `build` ("I'll build ♥"): the speaker means to build a section of that colour;
- `need` ("I need ♠"): their plan lacks cards of that suit;
- `can_launch` ("I can launch ♦"): they hold a card of a suit the launch sequence lacks;
- `launch_next` ("Launch next turn"): they mean to launch the rocket on their next turn;
- `dont_scrap` ("Don't scrap"): they ask the team to keep the rocket on the pad;
- `hold` ("I hold 2 ♦"): how many cards of one suit they hold.

A signal names no card, so it can carry no rank: what it says of a hand is a suit and a
count, of the speaker's own hand, which is what the rules let a player say. The two that
state a fact about the hand (`hold`, `can_launch`) must be true when said (`refusal`
checks them against the speaker's view alone; `offered` lists only true ones): the bot
writes a signal on the board as the speaker's plain statement, and the team, crewmates
included, acts on it. A player who wants to say something else may type it in the chat.

A signal said now (`Said`) stands until the end of its speaker's next turn (`until`:
the game's turn number then), or until they say another: a plan for "next turn" is
over once that turn is. Teammates read the signals standing (`standing`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.cards import Colour, colour_of
from engine.events import PlayerId
from engine.views import Phase, PlayerView, PublicView

#: Every kind of signal, in the order a menu offers them.
KINDS = ("build", "need", "can_launch", "launch_next", "dont_scrap", "hold")
#: The kinds that name a suit (the others name nothing).
SUITED = frozenset(("build", "need", "can_launch", "hold"))
#: The largest count "hold" may say: a hand of 5 that has just drawn 2, before it discards.
MOST_HELD = 7
#: Why a signal is refused (the bot words each for the speaker, privately).
REFUSALS = ("over", "not_seated", "hold_untrue", "cannot_launch")
_COLOURS = tuple(Colour)


@dataclass(frozen=True, slots=True)
class Signal:
    """One signal of the closed set (see the module docstring)."""

    kind: str
    colour: Colour | None = None
    count: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"no signal {self.kind!r}")
        if (self.colour is None) == (self.kind in SUITED):
            raise ValueError(f"signal {self.kind!r}: a suit where one is said, and only there")
        if (self.count is None) == (self.kind == "hold"):
            raise ValueError(f"signal {self.kind!r}: a count only with hold")
        if self.count is not None and not 0 <= self.count <= MOST_HELD:
            raise ValueError(f"signal hold: {self.count} cards")

    @property
    def code(self) -> str:
        """The signal as one short string ("build.red", "hold.blue.2", "dont_scrap"): a
        menu's value, a stored row."""
        parts = [self.kind]
        if self.colour is not None:
            parts.append(self.colour.value)
        if self.count is not None:
            parts.append(str(self.count))
        return ".".join(parts)

    @classmethod
    def read(cls, code: object) -> Signal:
        """The signal a code stands for; ValueError for anything else."""
        if not isinstance(code, str) or len(code) > 40:
            raise ValueError("not a signal")
        kind, *rest = code.split(".")
        colour = Colour(rest.pop(0)) if rest and kind in SUITED else None
        count = int(rest.pop(0)) if rest and kind == "hold" and rest[0].isdigit() else None
        if rest:
            raise ValueError(f"not a signal: {code!r}")
        return cls(kind, colour, count)


@dataclass(frozen=True, slots=True)
class Said:
    """A signal as said at the table: who said it, and the last turn it stands."""

    player: PlayerId
    signal: Signal
    until: int

    def stands(self, table: PublicView) -> bool:
        """Whether it still holds: the game is on, its speaker is seated, and their next
        turn after they said it is not over."""
        seated = any(seat.player == self.player for seat in table.seats)
        return seated and table.phase is not Phase.OVER and table.turn <= self.until

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "signal": self.signal.code, "until": self.until}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Said:
        return cls(data["player"], Signal.read(data["signal"]), int(data["until"]))


def say(view: PlayerView, signal: Signal) -> Said:
    """`signal` said now by the viewing player (check it with `refusal` first): it stands
    until the end of their next turn."""
    table = view.table
    seats = [seat.player for seat in table.seats]
    active = table.active_player
    ahead = len(seats)
    if active in seats and view.player in seats:
        ahead = (seats.index(view.player) - seats.index(active)) % len(seats) or len(seats)
    return Said(view.player, signal, table.turn + ahead)


def refusal(view: PlayerView, signal: Signal) -> str | None:
    """Why the viewing player may not give `signal` now (one of `REFUSALS`), or None.

    Read from their own view only: their hand, and the table everyone sees."""
    return _refused(_Facts.of(view), signal)


class _Facts(NamedTuple):
    """What of a player's view a signal's check reads (`_refused`): whether the game is
    over, whether they are seated, how many cards of each suit they hold (in `Colour`'s
    order), the suits in the launch sequence."""

    over: bool
    seated: bool
    held: tuple[int, ...]
    sequence: frozenset[Colour]

    @classmethod
    def of(cls, view: PlayerView) -> _Facts:
        table = view.table
        suits = [colour_of(card) for card in view.hand]
        return cls(
            table.phase is Phase.OVER,
            any(seat.player == view.player for seat in table.seats),
            tuple(suits.count(c) for c in Colour),
            frozenset(table.sequence),
        )


def _refused(facts: _Facts, signal: Signal) -> str | None:
    """`refusal`, from the facts it reads."""
    if facts.over:
        return "over"
    if not facts.seated:
        return "not_seated"
    held = 0 if signal.colour is None else facts.held[_COLOURS.index(signal.colour)]
    if signal.kind == "hold" and held != signal.count:
        return "hold_untrue"
    if signal.kind == "can_launch" and (not held or signal.colour in facts.sequence):
        return "cannot_launch"
    return None


def offered(view: PlayerView) -> tuple[Signal, ...]:
    """Every signal the viewing player may give now, in menu order: a "hold" for each suit
    with its true count, a "can_launch" for each suit they hold that the sequence lacks.
    (Worked out once for each set of the facts it reads: every panel offers them.)"""
    return _offered(_Facts.of(view))


@functools.lru_cache(maxsize=4096)
def _offered(facts: _Facts) -> tuple[Signal, ...]:
    held = dict(zip(_COLOURS, facts.held, strict=True))
    signals = [Signal("build", c) for c in Colour]
    signals += [Signal("need", c) for c in Colour]
    signals += [Signal("can_launch", c) for c in Colour if held[c] and c not in facts.sequence]
    signals += [Signal("launch_next"), Signal("dont_scrap")]
    signals += [Signal("hold", c, min(held[c], MOST_HELD)) for c in Colour]
    return tuple(s for s in signals if _refused(facts, s) is None)


def standing(said: Iterable[Said], table: PublicView) -> dict[PlayerId, Said]:
    """The signals that still hold, the newest of each player (later ones replace earlier)."""
    latest: dict[PlayerId, Said] = {}
    for one in said:
        latest[one.player] = one
    return {player: one for player, one in latest.items() if one.stands(table)}
