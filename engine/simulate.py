"""Whole games played by policies, timed by a model of real time, for the balance lab and tests.

A game is played once, with no clock, until it is won or `max_actions` have been
taken; the record says what it took to win (turns, follow-up decisions, reshuffles),
so one game answers for every clock length and pace: at `pace` seconds a turn (a
discard, reroll or accept decision a third of that, each reshuffle its 10 seconds) the
team wins if that time fits on the clock. Every seat may be taken by the same policy
or each by its own (a mixed seating: the crew beside stand-ins for people, or beside the
styles of people in `engine.partners`); the seats the crew plays are known to it as
crewmates, as they are shown at a real table. A style that says its plan
(`<style>_says`, engine.partners.SAYS) tells it after each of its moves, and so does the
crew; the crew hears the signals standing (engine.crew.talk). The record also keeps
every scrap of a rocket holding a section another player built, read from the events,
with when it happened and the reason its player gave (the crew's public notice). The
crew policy plays as if no clock were running. Everything is deterministic for a given seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.crew import decide, says
from engine.events import LaunchEnded, RocketScrapped, SectionBuilt
from engine.game import RESHUFFLE_SECONDS, Game
from engine.greedy import greedy_action
from engine.partners import SAYS, STYLES, Says
from engine.playout import choose_action
from engine.rng import Random
from engine.signals import Said, Signal, refusal, say
from engine.standin import standin_action
from engine.views import Outcome, Phase, PlayerView

#: A policy: (the acting player's view, seconds left or None, a generator) -> their action.
#: It is shown only what that player may see, and ignores the arguments it does not use.
Policy = Callable[[PlayerView, float | None, random.Random], dict[str, Any]]

#: A follow-up decision (discard, reroll or accept) takes this share of a turn.
FOLLOW_UP = 1 / 3


#: A policy that says why it acts and hears the table: (view, seconds left or None, a
#: generator, the players whose seats the crew policy plays: public, as crewmates are at a
#: real table, the signals said at the table) -> (its action, the public reason it gives
#: for it or None, the signal it gives after it or None).
Explained = Callable[
    [PlayerView, float | None, random.Random, frozenset[Any], Iterable[Said]],
    tuple[dict[str, Any], str | None, Signal | None],
]


def crew_explained(
    view: PlayerView,
    time_left: float | None,
    rng: random.Random,
    crewmates: frozenset[Any],
    said: Iterable[Said] = (),
) -> tuple[dict[str, Any], str | None, Signal | None]:
    decision = decide(view, time_left, crewmates=crewmates, said=said)
    assert decision is not None
    return decision.action, decision.notice, says(decision)


def crew_policy(view: PlayerView, time_left: float | None, rng: random.Random) -> dict[str, Any]:
    """The crew's move in a team of crewmates (`record` tells the crew which seats it
    plays, in any seating)."""
    crewmates = frozenset(seat.player for seat in view.table.seats)
    return crew_explained(view, time_left, rng, crewmates)[0]


def random_policy(view: PlayerView, time_left: float | None, rng: random.Random) -> dict[str, Any]:
    return choose_action(view, rng)


def _from_view(action: Callable[[PlayerView], dict[str, Any] | None]) -> Policy:
    """The policy of a player who decides from their view alone (the stand-in, greedy, the
    styles of `engine.partners`)."""

    def policy(view: PlayerView, time_left: float | None, rng: random.Random) -> dict[str, Any]:
        chosen = action(view)
        assert chosen is not None  # policies are asked only when their player is due
        return chosen

    return policy


greedy_policy = _from_view(greedy_action)
standin_policy = _from_view(standin_action)

#: The styles that say their plan (engine.partners.SAYS), each a policy of its own that
#: plays as its silent twin: what it says, by policy.
SAYING: dict[Policy, Says] = {_from_view(STYLES[name]): says for name, says in SAYS.items()}
POLICIES: dict[str, Policy] = {
    "crew": crew_policy,
    "greedy": greedy_policy,
    "random": random_policy,
    "standin": standin_policy,
    # People of other kinds (engine.partners), for the balance lab's cross-play, silent
    # and saying their plan ("builder_says").
    **{name: _from_view(action) for name, action in STYLES.items()},
    **{f"{name}_says": policy for policy, name in zip(SAYING, SAYS, strict=True)},
}
#: The policies that say why they act, by the policy they explain.
EXPLAINED: dict[Policy, Explained] = {crew_policy: crew_explained}


@dataclass(frozen=True, slots=True)
class Scrap:
    """A scrap of a rocket holding a section another player built."""

    seat: int  # who scrapped it (0 for the first seat)
    why: str | None  # the reason its player gave (the crew's notice), None if none
    turns: int  # what the game had taken before it: play actions,
    follow_ups: int  # discard, reroll and accept decisions,
    reshuffles: int  # and reshuffles

    def seconds(self, pace: float) -> float:
        """Game time at which it happened, at `pace` seconds a turn."""
        return (self.turns + self.follow_ups * FOLLOW_UP) * pace + self.reshuffles * (
            RESHUFFLE_SECONDS
        )


@dataclass(frozen=True, slots=True)
class Record:
    """One game as played: how it ended and what it took to get there."""

    outcome: Outcome | None  # DESTROYED or DEFLECTED, or None: not won within the actions
    turns: int  # play actions (draw, build, launch, scrap)
    follow_ups: int  # discard, reroll and accept decisions
    reshuffles: int
    scraps: tuple[Scrap, ...] = ()  # of rockets holding a section another player built

    def seconds(self, pace: float) -> float:
        """Game time taken at `pace` seconds a turn."""
        return (self.turns + self.follow_ups * FOLLOW_UP) * pace + self.reshuffles * (
            RESHUFFLE_SECONDS
        )

    def outcome_within(self, minutes: float, pace: float) -> Outcome:
        """How the game ends on a clock of `minutes` at `pace` seconds a turn."""
        if self.outcome is None or self.seconds(pace) > minutes * 60:
            return Outcome.LOST
        return self.outcome

    def slowest_pace(self, minutes: float) -> float:
        """The most seconds a turn with which it is still won on that clock (0: never)."""
        if self.outcome is None:
            return 0.0
        spare = minutes * 60 - self.reshuffles * RESHUFFLE_SECONDS
        return max(spare, 0.0) / (self.turns + self.follow_ups * FOLLOW_UP)

    def scraps_within(self, minutes: float, pace: float, seats: Sequence[int]) -> list[Scrap]:
        """The scraps of others' sections by those seats before a clock of `minutes` at
        `pace` seconds a turn ran out."""
        return [s for s in self.scraps if s.seat in seats and s.seconds(pace) < minutes * 60]


def record(
    policy: Policy | Sequence[Policy],
    players: int,
    rules: str,
    seed: int,
    max_actions: int,
    game_rng: Random | None = None,
    talk: bool = True,
) -> Record:
    """Play one game from its seed with no clock: every seat taken by `policy`, or seat
    i (player i + 1) by `policy[i % len(policy)]`; the game's randomness `game_rng` (default:
    `Random(seed)`); with `talk=False` nobody's signal is kept (the table is silent)."""
    seating = [policy] if callable(policy) else list(policy)
    game = Game.new(list(range(1, players + 1)), rules, seed=seed, rng=game_rng)
    # the seats the crew plays, shown as crewmates at the table
    crewmates = frozenset(
        player for i, player in enumerate(game.players) if seating[i % len(seating)] is crew_policy
    )
    rng = random.Random(seed)
    said: dict[Any, Said] = {}  # each player's latest signal (engine.signals)
    turns = follow_ups = reshuffles = 0
    builders: list[Any] = []  # who built each section on the pad, from the events
    scraps: list[Scrap] = []
    while not game.is_over and turns + follow_ups < max_actions:
        if game.phase is Phase.RESHUFFLE:
            reshuffles += 1
            game.finish_reshuffle()
            continue
        when = (turns, follow_ups, reshuffles)
        if game.phase in (Phase.DISCARD, Phase.REROLL):
            follow_ups += 1
        else:
            turns += 1
        player = game.active_player
        assert player is not None  # the game is not over
        seat = game.players.index(player)
        chosen = seating[seat % len(seating)]
        explained = EXPLAINED.get(chosen)
        view = game.view_for(player)
        signal: Signal | None = None
        if explained is not None:
            action, why, signal = explained(view, None, rng, crewmates, said.values())
        else:
            action, why = chosen(view, None, rng), None
        events = game.apply(action)
        if talk:
            _tell(game, player, signal if explained is not None else SAYING.get(chosen), said)
        for event in events:
            if isinstance(event, SectionBuilt):
                builders.append(event.player)
            elif isinstance(event, RocketScrapped):
                if any(b != event.player for b in builders):
                    scraps.append(Scrap(seat, why, *when))
                builders.clear()
            elif isinstance(event, LaunchEnded):
                builders.clear()
    return Record(
        game.outcome if game.is_over else None, turns, follow_ups, reshuffles, tuple(scraps)
    )


def _tell(game: Game, player: Any, signal: Signal | Says | None, said: dict[Any, Said]) -> None:
    """What a seat says after its move (a signal, or what a style says from its view
    then), kept as its latest if it is true of its hand."""
    if game.is_over or signal is None or player not in game.players:
        return
    view = game.view_for(player)
    if not isinstance(signal, Signal):
        signal = signal(view)
    if signal is not None and refusal(view, signal) is None:
        said[player] = say(view, signal)
