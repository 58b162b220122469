"""One game of Apophis: its state, the actions that change it, and what players may see."""

from __future__ import annotations

import functools
import inspect
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from engine.cards import (
    ALL_SECTIONS,
    Colour,
    Rules,
    Section,
    Size,
    colour_of,
    fuel_needed,
    full_deck,
    is_card,
    section_label,
)
from engine.events import (
    ApophisDamaged,
    CardsDiscarded,
    CardsDrawn,
    CounterAdded,
    DiscardRequired,
    GameAbandoned,
    GameEvent,
    GameLost,
    GameWon,
    LaunchEnded,
    LaunchStarted,
    LaunchStep,
    PlayerId,
    PlayerRemoved,
    RerollDeclined,
    RerollOffered,
    RerollUsed,
    ReshuffleFinished,
    ReshuffleStarted,
    RocketScrapped,
    SeatTaken,
    SectionBuilt,
    SequenceExtended,
    TurnSkipped,
    TurnStarted,
)
from engine.rng import Random
from engine.views import Outcome, PastRocket, Phase, PlayerView, PublicView, SeatView

SAVE_FORMAT = 1
HAND_LIMIT = 5
MAX_PLAYERS = 4
#: Minutes on the countdown for each difficulty, easiest first.
DIFFICULTY_MINUTES = {"beginner": 15, "easy": 12, "medium": 10, "hard": 8}
RESHUFFLE_SECONDS = 10
#: The rockets of a game that views and saves keep, the latest (see `PastRocket`).
PAST_ROCKETS_KEPT = 32
DAMAGE_TO_DESTROY = 3
COUNTERS_TO_DEFLECT = 5
HIT_TARGET = 7
EXPLODE_AT = 8
#: Launch steps whose failure ends the launch (the rocket did not hit).
_GATES = ("fuel", "launch", "accuracy")


class IllegalMove(Exception):
    """A move the rules do not allow. The message says why in plain words; `code` is stable.

    `code` and `params` (plain values: numbers, colour and size names) say the same as
    the English message, so a translation can be built from them alone.
    """

    def __init__(self, code: str, message: str, **params: str | int) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params


_Known = TypeVar("_Known")
_Action = TypeVar("_Action", bound=Callable[..., list[GameEvent]])

_COLOUR_ORDER = {colour: i for i, colour in enumerate(Colour)}


def _sort_key(section: Section) -> tuple[int, int]:
    colour, size = section
    return (_COLOUR_ORDER[colour], size)


def _owners(owners: Sequence[_Known | None], length: int) -> tuple[_Known | None, ...]:
    """Who owns each of `length` pieces (or when each was built): `owners` cut or padded
    with None (not known)."""
    owners = tuple(owners[:length])
    return owners + (None,) * (length - len(owners))


def rocket_points(rocket: Sequence[Section]) -> dict[Colour, int]:
    """Points per colour of a rocket (large 3, medium 2, small 1)."""
    points = dict.fromkeys(Colour, 0)
    for colour, size in rocket:
        points[colour] += int(size)
    return points


def _acting(method: _Action) -> _Action:
    """An action's method: the public view made before it is dropped (even if the action
    is refused: it changes nothing then, but the view is made again all the same)."""

    @functools.wraps(method)
    def acting(self: Game, *args: Any, **kwargs: Any) -> list[GameEvent]:
        self._public = None
        return method(self, *args, **kwargs)

    return acting  # type: ignore[return-value]


class Game:
    """The state of one game and the actions that change it.

    Every action checks everything first and either raises IllegalMove with the
    game untouched, or applies fully and returns the events it caused.
    """

    def __init__(self) -> None:
        # Filled by `new` or `restore`; a bare Game is not playable.
        self.rules = Rules.BASIC
        self.players: list[PlayerId] = []
        #: How many seats the game was dealt with: a seat someone left may be taken again.
        self.seats = 0
        self.hands: list[list[str]] = []
        self.deck: list[str] = []
        self.discard_pile: list[str] = []
        self.depot: set[Section] = set()
        self.rocket: list[Section] = []
        self.sequence: list[str] = []
        # Who built each section and who played each sequence card, beside `rocket` and
        # `sequence` (None: not known; a list shorter than its pile reads as unknown).
        self.builders: list[PlayerId | None] = []
        self.sequence_players: list[PlayerId | None] = []
        self.built_turns: list[int | None] = []  # the turn each section was built in
        self.sequence_turns: list[int | None] = []  # and each sequence card played in
        # The rockets of the game launched or scrapped so far, the latest PAST_ROCKETS_KEPT.
        self.past_rockets: list[PastRocket] = []
        self.damage = 0
        self.counters = 0
        self.active = 0
        self.turn = 0
        self.phase = Phase.PLAY
        self.pending: dict[str, Any] | None = None
        self.outcome: Outcome | None = None
        self.rng = Random(0)
        #: The public view as last made, until an action changes the game (`_acting`).
        self._public: PublicView | None = None

    # ------------------------------------------------------------------ setup

    @classmethod
    def new(
        cls,
        players: Sequence[PlayerId],
        rules: Rules | str = Rules.BASIC,
        seed: int = 0,
        start_player: PlayerId | None = None,
        rng: Random | None = None,
    ) -> Game:
        """Shuffle, deal (3 cards each, 4 with one or two players) and choose who starts."""
        players = list(players)
        if not 1 <= len(players) <= MAX_PLAYERS:
            raise IllegalMove("player_count", f"A game needs 1 to {MAX_PLAYERS} players.")
        if len(set(players)) != len(players):
            raise IllegalMove("duplicate_player", "A player cannot take two seats.")
        if start_player is not None and start_player not in players:
            raise IllegalMove("not_seated", "The start player must be one of the players.")
        game = cls()
        game.rules = Rules(rules)
        game.players = players
        game.seats = len(players)
        game.rng = rng if rng is not None else Random(seed)
        game.deck = full_deck()
        game.rng.shuffle(game.deck)
        per_player = 4 if len(players) <= 2 else 3
        game.hands = [[] for _ in players]
        for _ in range(per_player):
            for hand in game.hands:
                hand.append(game.deck.pop())
        game.depot = set(ALL_SECTIONS)
        # The draw happens even when the host chose: a game replayed from its seed with
        # the start player it actually had then continues exactly as the original.
        drawn = game.rng.below(len(players))
        game.active = drawn if start_player is None else players.index(start_player)
        game.turn = 1
        return game

    def arrange(self, **attributes: Any) -> Game:
        """Set the game up by hand (tests, puzzles): `attributes` set as they are, the
        views made afresh. Set any other way, a game shows the view made before until
        its next action."""
        for name, value in attributes.items():
            if not hasattr(self, name) or name.startswith("_"):
                raise AttributeError(f"a game has no {name!r} to arrange")
            setattr(self, name, value)
        self._public = None
        return self

    # ------------------------------------------------------------- properties

    @property
    def active_player(self) -> PlayerId | None:
        """Whose turn it is (None once the game is over)."""
        return None if self.phase is Phase.OVER else self.players[self.active]

    @property
    def apophis_value(self) -> int:
        """The size of Apophis's largest pyramid still showing (0 once destroyed)."""
        return max(DAMAGE_TO_DESTROY - self.damage, 0)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    # ---------------------------------------------------------------- actions

    @_acting
    def draw(self, player: PlayerId) -> list[GameEvent]:
        """Draw 2 cards, one at a time; may start a reshuffle or require a discard."""
        self._check_turn(player)
        events: list[GameEvent] = []
        self._draw(events, 2)
        return events

    @_acting
    def build(
        self,
        player: PlayerId,
        colour: Colour | str,
        size: Size | int | str,
        cards: Sequence[str] | None = None,
    ) -> list[GameEvent]:
        """Discard 1-3 cards of one suit to put that colour's section on top of the rocket.

        `cards` names the cards to pay with; when omitted, the player's first cards of
        that suit are used (every card is worth 1, so which ones is only flavour).
        """
        self._check_turn(player)
        section = (_parse_colour(colour), _parse_size(size))
        self._check_fits(section)
        hand = self.hands[self.active]
        paid = _payment(hand, section, cards)
        for card in paid:
            hand.remove(card)
        self.discard_pile.extend(paid)
        self.depot.remove(section)
        self._align_owners()
        self.rocket.append(section)
        self.builders.append(player)
        self.built_turns.append(self.turn)
        events: list[GameEvent] = [
            SectionBuilt(player, section[0].value, int(section[1]), tuple(paid))
        ]
        self._end_turn(events)
        return events

    @_acting
    def launch(self, player: PlayerId, cards: Sequence[str]) -> list[GameEvent]:
        """Add cards to the launch sequence, at most one per suit; the fourth suit launches."""
        self._check_turn(player)
        if not self.rocket:
            raise IllegalMove("no_rocket", "There is no rocket to launch: build a section first.")
        if not cards:
            raise IllegalMove("no_cards", "Choose at least one card to add to the launch sequence.")
        hand = self.hands[self.active]
        played = _own_cards(hand, cards)
        colours = [colour_of(c) for c in played]
        if len(set(colours)) != len(colours):
            raise IllegalMove(
                "same_suit_twice",
                "A launch sequence takes at most one card of each suit.",
            )
        in_sequence = {colour_of(c) for c in self.sequence}
        for colour in colours:
            if colour in in_sequence:
                raise IllegalMove(
                    "suit_in_sequence",
                    f"The launch sequence already has a {colour.suit_name[:-1]} ({colour.symbol}).",
                    colour=colour.value,
                )
        for card in played:
            hand.remove(card)
        self._align_owners()
        self.sequence.extend(played)
        self.sequence_players.extend([player] * len(played))
        self.sequence_turns.extend([self.turn] * len(played))
        events: list[GameEvent] = [
            SequenceExtended(
                player,
                tuple(c.value for c in colours),
                tuple(colour_of(c).value for c in self.sequence),
                tuple(played),
            )
        ]
        if len(self.sequence) == len(Colour):
            self._start_launch(events)
        else:
            self._end_turn(events)
        return events

    @_acting
    def scrap(self, player: PlayerId) -> list[GameEvent]:
        """Return every section to the depot and discard the launch sequence."""
        self._check_turn(player)
        if not self.rocket and not self.sequence:
            raise IllegalMove("nothing_to_scrap", "There is no rocket or launch sequence to scrap.")
        events: list[GameEvent] = [RocketScrapped(player, len(self.rocket), len(self.sequence))]
        self._clear_pad(scrapped_by=player)
        self._end_turn(events)
        return events

    @_acting
    def discard(self, player: PlayerId, cards: Sequence[str]) -> list[GameEvent]:
        """Discard down to the hand limit after a draw; the turn then ends."""
        self._check_player(player)
        if self.phase is not Phase.DISCARD or self.players[self.active] != player:
            raise IllegalMove("no_discard_due", "You have no cards to discard right now.")
        hand = self.hands[self.active]
        excess = len(hand) - HAND_LIMIT
        chosen = _own_cards(hand, cards)
        if len(chosen) != excess:
            raise IllegalMove(
                "wrong_discard_count",
                f"Discard exactly {excess} card{'s' if excess > 1 else ''}: you hold "
                f"{len(hand)} and the limit is {HAND_LIMIT}.",
                count=excess,
                held=len(hand),
                limit=HAND_LIMIT,
            )
        for card in chosen:
            hand.remove(card)
        self.discard_pile.extend(chosen)
        events: list[GameEvent] = [CardsDiscarded(player, len(chosen), tuple(chosen))]
        self.phase, self.pending = Phase.PLAY, None
        self._end_turn(events)
        return events

    @_acting
    def reroll(self, player: PlayerId) -> list[GameEvent]:
        """Spend a fail-safe to roll the failed die again."""
        self._check_reroll_decision(player)
        assert self.pending is not None
        step, index, rerolls = self.pending["step"], self.pending["index"], self.pending["rerolls"]
        self.phase, self.pending = Phase.PLAY, None
        events: list[GameEvent] = [RerollUsed(player, step, rerolls - 1)]
        self._continue_launch(events, index, rerolls - 1)
        return events

    @_acting
    def accept(self, player: PlayerId) -> list[GameEvent]:
        """Keep the failed die; the launch goes on from there."""
        self._check_reroll_decision(player)
        assert self.pending is not None
        events: list[GameEvent] = [RerollDeclined(player, self.pending["step"])]
        self._accept_failure(events)
        return events

    @_acting
    def finish_reshuffle(self) -> list[GameEvent]:
        """The 10 seconds of shuffling are over: the discards become the deck, drawing resumes."""
        if self.phase is not Phase.RESHUFFLE:
            raise IllegalMove("no_reshuffle", "No reshuffle is under way.")
        assert self.pending is not None
        drawer, draws_left = self.pending["player"], self.pending["draws_left"]
        self.deck, self.discard_pile = self.discard_pile, []
        self.rng.shuffle(self.deck)
        self.phase, self.pending = Phase.PLAY, None
        events: list[GameEvent] = [ReshuffleFinished(len(self.deck))]
        if drawer is not None:
            self._draw(events, draws_left)
        return events

    @_acting
    def clock_expired(self) -> list[GameEvent]:
        """Time is up: Apophis hits Earth, whatever was in progress."""
        self._check_not_over()
        self._finish(Outcome.LOST)
        return [GameLost("clock")]

    @_acting
    def end(self, reason: str) -> list[GameEvent]:
        """End the game without a result (host's end, moderator's reset)."""
        self._check_not_over()
        self._finish(Outcome.ABANDONED)
        return [GameAbandoned(reason)]

    @_acting
    def skip_turn(self) -> list[GameEvent]:
        """End the active player's turn without an action (for a player who went away).

        A pending discard takes the most recently drawn cards; a pending reroll
        decision is taken as accepted; a pending draw is abandoned (the reshuffle
        itself still completes).
        """
        self._check_not_over()
        events: list[GameEvent] = [TurnSkipped(self.players[self.active])]
        self._abandon_turn(events)
        return events

    @_acting
    def remove_player(self, player: PlayerId) -> list[GameEvent]:
        """Take a player out of the game; their cards go to the discard pile."""
        self._check_not_over()
        seat = self._seat(player)
        hand = self.hands[seat]
        events: list[GameEvent] = [PlayerRemoved(player, len(hand))]
        self.discard_pile.extend(hand)
        hand.clear()
        if len(self.players) == 1:
            del self.players[seat], self.hands[seat]
            self.active = 0
            self._finish(Outcome.ABANDONED)
            events.append(GameAbandoned("no players left"))
            return events
        if seat == self.active:
            self._abandon_turn(events)
        del self.players[seat], self.hands[seat]
        if self.active > seat:
            self.active -= 1
        self.active %= len(self.players)
        return events

    @_acting
    def take_seat(self, player: PlayerId, seat_of: PlayerId | None = None) -> list[GameEvent]:
        """`player`, not seated, sits down mid-game: in the seat of `seat_of`, with its hand
        and its place in the turns (a turn, discard or reroll under way is theirs to
        finish), or, with no `seat_of`, in a seat someone left, with no cards, just before
        the player whose turn it is (they play once everyone else has). No card moves."""
        self._check_not_over()
        if player in self.players:
            raise IllegalMove("already_seated", "You already have a seat in this game.")
        if seat_of is not None:
            seat = self._seat(seat_of)
            self.players[seat] = player
            if self.pending is not None and self.pending.get("player") == seat_of:
                self.pending["player"] = player  # the reshuffle's drawer
            return [SeatTaken(player, seat_of, len(self.hands[seat]))]
        if len(self.players) >= self.seats:
            raise IllegalMove("no_free_seat", "No seat of this game is free.")
        self.players.insert(self.active, player)
        self.hands.insert(self.active, [])
        self.active += 1
        return [SeatTaken(player, None, 0)]

    def apply(self, action: dict[str, Any]) -> list[GameEvent]:
        """Apply an action given as data, e.g. {"type": "build", "player": 7, ...}.

        This is how logged actions are replayed; the keys are the keyword
        arguments of the method of that name.
        """
        kind: Any = action.get("type")  # any value, until it names a method
        method = _ACTION_METHODS.get(kind)
        if method is None:
            raise IllegalMove("unknown_action", f"Unknown action: {kind!r}.", action=str(kind))
        problem = malformed(action)
        if problem is not None:
            raise IllegalMove("bad_action", f"Malformed {kind} action: {problem}.", action=kind)
        return method(self, **{k: v for k, v in action.items() if k != "type"})

    # ------------------------------------------------------------------ views

    def public_view(self) -> PublicView:
        """The table as everyone sees it: no card of any hand (made once between actions:
        the board and each panel ask for it)."""
        if self._public is None:
            self._public = self._seen_by_all()
        return self._public

    def _seen_by_all(self) -> PublicView:
        pending = None
        if self.pending is not None:
            pending = {k: v for k, v in self.pending.items() if k != "index"}
            pending.setdefault("player", self.players[self.active] if self.players else None)
        return PublicView(
            rules=self.rules,
            phase=self.phase,
            outcome=self.outcome,
            turn=self.turn,
            active_player=self.active_player,
            seats=tuple(SeatView(p, len(h)) for p, h in zip(self.players, self.hands, strict=True)),
            apophis_value=self.apophis_value,
            damage=self.damage,
            counters=self.counters,
            rocket=tuple(self.rocket),
            points=rocket_points(self.rocket),
            sequence=tuple(colour_of(c) for c in self.sequence),
            depot=tuple(sorted(self.depot, key=_sort_key)),
            deck_size=len(self.deck),
            discard_size=len(self.discard_pile),
            pending=pending,
            builders=_owners(self.builders, len(self.rocket)),
            sequence_players=_owners(self.sequence_players, len(self.sequence)),
            built_turns=_owners(self.built_turns, len(self.rocket)),
            sequence_turns=_owners(self.sequence_turns, len(self.sequence)),
            past_rockets=tuple(self.past_rockets),
        )

    def view_for(self, player: PlayerId) -> PlayerView:
        """What one player may see: the table and their own hand."""
        return PlayerView(player, tuple(self.hands[self._seat(player)]), self.public_view())

    # ------------------------------------------------------------ save/restore

    def save(self) -> dict[str, Any]:
        """The whole game as JSON-compatible data (restore(save()) is this game)."""
        return {
            "format": SAVE_FORMAT,
            "rules": self.rules.value,
            "players": list(self.players),
            "seats": self.seats,
            "hands": [list(h) for h in self.hands],
            "deck": list(self.deck),
            "discard": list(self.discard_pile),
            "depot": [[c.value, int(s)] for c, s in sorted(self.depot, key=_sort_key)],
            "rocket": [[c.value, int(s)] for c, s in self.rocket],
            "sequence": list(self.sequence),
            "builders": list(_owners(self.builders, len(self.rocket))),
            "sequence_players": list(_owners(self.sequence_players, len(self.sequence))),
            "built_turns": list(_owners(self.built_turns, len(self.rocket))),
            "sequence_turns": list(_owners(self.sequence_turns, len(self.sequence))),
            "past_rockets": [
                {
                    "rocket": [[c.value, int(s)] for c, s in past.rocket],
                    "builders": list(past.builders),
                    "sequence_players": list(past.sequence_players),
                    "scrapped_by": past.scrapped_by,
                }
                for past in self.past_rockets
            ],
            "damage": self.damage,
            "counters": self.counters,
            "active": self.active,
            "turn": self.turn,
            "phase": self.phase.value,
            "pending": dict(self.pending) if self.pending is not None else None,
            "outcome": self.outcome.value if self.outcome is not None else None,
            "rng": self.rng.state,
        }

    @classmethod
    def restore(cls, data: dict[str, Any]) -> Game:
        """Rebuild a game from `save()` data; it continues exactly as the original would."""
        if data.get("format") != SAVE_FORMAT:
            raise ValueError(f"unsupported save format: {data.get('format')!r}")
        game = cls()
        game.rules = Rules(data["rules"])
        game.players = list(data["players"])
        # Saved before seats could be taken again: none is free.
        game.seats = data.get("seats", len(game.players))
        game.hands = [list(h) for h in data["hands"]]
        game.deck = list(data["deck"])
        game.discard_pile = list(data["discard"])
        game.depot = {(Colour(c), Size(s)) for c, s in data["depot"]}
        game.rocket = [(Colour(c), Size(s)) for c, s in data["rocket"]]
        game.sequence = list(data["sequence"])
        # Saved before the engine kept who built and played what: not known.
        game.builders = list(_owners(data.get("builders", ()), len(game.rocket)))
        game.sequence_players = list(_owners(data.get("sequence_players", ()), len(game.sequence)))
        game.built_turns = list(_owners(data.get("built_turns", ()), len(game.rocket)))
        game.sequence_turns = list(_owners(data.get("sequence_turns", ()), len(game.sequence)))
        # Saved before the engine kept the rockets of the game: none known.
        game.past_rockets = [
            PastRocket(
                tuple((Colour(c), Size(s)) for c, s in past["rocket"]),
                tuple(past["builders"]),
                tuple(past["sequence_players"]),
                past["scrapped_by"],
            )
            for past in data.get("past_rockets", ())
        ]
        game.damage = data["damage"]
        game.counters = data["counters"]
        game.active = data["active"]
        game.turn = data["turn"]
        game.phase = Phase(data["phase"])
        game.pending = dict(data["pending"]) if data["pending"] is not None else None
        game.outcome = Outcome(data["outcome"]) if data["outcome"] is not None else None
        game.rng = Random(data["rng"])
        return game

    # --------------------------------------------------------------- checking

    def _seat(self, player: PlayerId) -> int:
        try:
            return self.players.index(player)
        except ValueError:
            raise IllegalMove("not_seated", "You are not playing in this game.") from None

    def _check_not_over(self) -> None:
        if self.phase is Phase.OVER:
            raise IllegalMove("game_over", "This game is over.")

    def _check_player(self, player: PlayerId) -> None:
        self._check_not_over()
        self._seat(player)

    def _check_turn(self, player: PlayerId) -> None:
        """The player may take one of the four actions now."""
        self._check_player(player)
        if self.phase is Phase.RESHUFFLE:
            raise IllegalMove(
                "reshuffling",
                "The discard pile is being shuffled into a new deck; wait until it is done.",
            )
        if self.players[self.active] != player:
            raise IllegalMove("not_your_turn", "It is not your turn.")
        if self.phase is Phase.DISCARD:
            raise IllegalMove(
                "must_discard",
                f"First discard down to {HAND_LIMIT} cards; that ends your turn.",
                limit=HAND_LIMIT,
            )
        if self.phase is Phase.REROLL:
            raise IllegalMove(
                "reroll_pending", "First decide whether to reroll the failed die or accept it."
            )

    def _check_reroll_decision(self, player: PlayerId) -> None:
        self._check_player(player)
        if self.phase is not Phase.REROLL:
            raise IllegalMove("no_reroll", "There is no die to reroll right now.")
        if self.players[self.active] != player:
            raise IllegalMove(
                "not_the_launcher", "Only the player who launched decides on rerolls."
            )

    def _check_fits(self, section: Section) -> None:
        """The section may go on top of the rocket now: no launch sequence under way, the
        section in the depot, and no larger than the top one."""
        colour, size = section
        if self.sequence:
            raise IllegalMove(
                "sequence_under_way",
                "A launch sequence has started: no section can be added to this rocket. "
                "Complete the launch or scrap the rocket.",
            )
        if section not in self.depot:
            raise IllegalMove(
                "not_in_depot",
                f"The {section_label(section)} section is not in the depot "
                "(it is already on the rocket).",
                colour=colour.value,
                size=size.label,
            )
        if self.rocket and self.rocket[-1][1] < size:
            raise IllegalMove(
                "too_large",
                f"A {size.label} section cannot sit on the {section_label(self.rocket[-1])} "
                "at the top: a section must sit on one at least as large.",
                size=size.label,
                top_colour=self.rocket[-1][0].value,
                top_size=self.rocket[-1][1].label,
            )

    # ---------------------------------------------------------- turn mechanics

    def _end_turn(self, events: list[GameEvent]) -> None:
        """Pass the turn to the next seated player (unless the game just ended)."""
        if self.phase is Phase.OVER:
            return
        self.phase, self.pending = Phase.PLAY, None
        self._pass_turn(events)

    def _pass_turn(self, events: list[GameEvent]) -> None:
        self.active = (self.active + 1) % len(self.players)
        self.turn += 1
        events.append(TurnStarted(self.players[self.active], self.turn))

    def _draw(self, events: list[GameEvent], count: int) -> None:
        """The active player draws `count` cards, stopping for a reshuffle if needed."""
        player = self.players[self.active]
        hand = self.hands[self.active]
        drawn: list[str] = []
        for i in range(count):
            if not self.deck:
                if drawn:
                    events.append(CardsDrawn(player, len(drawn), tuple(drawn)))
                self.phase = Phase.RESHUFFLE
                self.pending = {"player": player, "draws_left": count - i}
                events.append(ReshuffleStarted(player, len(self.discard_pile), RESHUFFLE_SECONDS))
                return
            card = self.deck.pop()
            hand.append(card)
            drawn.append(card)
        events.append(CardsDrawn(player, len(drawn), tuple(drawn)))
        if len(hand) > HAND_LIMIT:
            self.phase = Phase.DISCARD
            self.pending = {"count": len(hand) - HAND_LIMIT}
            events.append(DiscardRequired(player, len(hand) - HAND_LIMIT))
        else:
            self._end_turn(events)

    def _abandon_turn(self, events: list[GameEvent]) -> None:
        """End the active player's turn now, settling whatever they were in the middle of."""
        if self.phase is Phase.REROLL:
            assert self.pending is not None
            self.pending["rerolls"] = 0
            self._accept_failure(events)
            return  # the launch ends the turn itself
        hand = self.hands[self.active]
        excess = len(hand) - HAND_LIMIT
        if excess > 0:  # drop the cards just drawn, so no hand passes the turn over the limit
            dropped = hand[-excess:]
            del hand[-excess:]
            self.discard_pile.extend(dropped)
            events.append(
                CardsDiscarded(self.players[self.active], excess, tuple(dropped), forced=True)
            )
        if self.phase is Phase.RESHUFFLE:
            assert self.pending is not None
            self.pending["player"] = None
            self._pass_turn(events)  # still shuffling: the next player waits for the new deck
        else:
            self._end_turn(events)

    def _finish(self, outcome: Outcome) -> None:
        self.phase, self.pending, self.outcome = Phase.OVER, None, outcome

    def _clear_pad(self, scrapped_by: PlayerId | None = None) -> None:
        """Sections back to the depot, launch-sequence cards to the discard pile; the
        rocket joins the past ones (launched, or scrapped by `scrapped_by`)."""
        self.past_rockets.append(
            PastRocket(
                tuple(self.rocket),
                _owners(self.builders, len(self.rocket)),
                _owners(self.sequence_players, len(self.sequence)),
                scrapped_by,
            )
        )
        del self.past_rockets[:-PAST_ROCKETS_KEPT]
        self.depot.update(self.rocket)
        self.rocket.clear()
        self.builders.clear()
        self.built_turns.clear()
        self.discard_pile.extend(self.sequence)
        self.sequence.clear()
        self.sequence_players.clear()
        self.sequence_turns.clear()

    def _align_owners(self) -> None:
        """Pad who-built and who-played to their piles' lengths (unknown: None), so that
        the next entry lands beside its section or card."""
        self.builders = list(_owners(self.builders, len(self.rocket)))
        self.built_turns = list(_owners(self.built_turns, len(self.rocket)))
        self.sequence_turns = list(_owners(self.sequence_turns, len(self.sequence)))
        self.sequence_players = list(_owners(self.sequence_players, len(self.sequence)))

    # ----------------------------------------------------------------- launch

    def _launch_steps(self) -> tuple[str, ...]:
        if self.rules is Rules.BASIC:
            return ("fuel", "accuracy", "damage", "deflection")
        return ("fuel", "launch", "accuracy", "damage")

    def _start_launch(self, events: list[GameEvent]) -> None:
        points = rocket_points(self.rocket)
        rerolls = points[Colour.GREEN] // 2 if self.rules is Rules.ADVANCED else 0
        events.append(
            LaunchStarted(
                self.players[self.active],
                {c.value: p for c, p in points.items()},
                sum(points.values()),
                rerolls,
            )
        )
        self._continue_launch(events, 0, rerolls)

    def _continue_launch(self, events: list[GameEvent], index: int, rerolls: int) -> None:
        """Run the launch checks from step `index`; stops at a reroll decision or the end."""
        steps = self._launch_steps()
        points = rocket_points(self.rocket)
        while index < len(steps):
            step = steps[index]
            check = self._check_step(step, points)
            events.append(check)
            if check.success is False and check.die is not None and rerolls > 0:
                self.phase = Phase.REROLL
                self.pending = {"step": step, "index": index, "rerolls": rerolls, "die": check.die}
                events.append(RerollOffered(self.players[self.active], step, rerolls))
                return
            if not self._settle_step(events, step, check.success):
                self._end_launch(events, hit=step not in _GATES)
                return
            index += 1
        self._end_launch(events, hit=True)

    def _accept_failure(self, events: list[GameEvent]) -> None:
        """The pending failed die stands; the launch goes on after that step."""
        assert self.pending is not None
        step, index, rerolls = self.pending["step"], self.pending["index"], self.pending["rerolls"]
        self.phase, self.pending = Phase.PLAY, None
        if self._settle_step(events, step, False):
            self._continue_launch(events, index + 1, rerolls)
        else:
            self._end_launch(events, hit=False)

    def _check_step(self, step: str, points: dict[Colour, int]) -> LaunchStep:
        """Roll (where the step has a die) and judge one launch check."""
        total_points = sum(points.values())
        if step == "fuel":
            fuel = points[Colour.YELLOW]
            needed = fuel_needed(total_points)
            return LaunchStep(
                step,
                None,
                (("booster fuel", fuel), ("rocket points", total_points)),
                fuel,
                needed,
                False,
                fuel >= needed,
            )
        parts: tuple[tuple[str, int], ...]
        if step == "launch":
            parts = (("booster fuel", points[Colour.YELLOW]),)
            target, below = EXPLODE_AT, True
        elif step == "accuracy":
            parts = (("Apophis", self.apophis_value), ("guidance", points[Colour.BLUE]))
            target, below = HIT_TARGET, False
        else:
            colour = Colour.RED if step == "damage" else Colour.GREEN
            if points[colour] == 0:
                return LaunchStep(step, None, (), 0, HIT_TARGET, False, None)
            parts = (("warheads", points[colour]),)
            target, below = HIT_TARGET, False
        die = self.rng.d6()
        total = die + sum(value for _, value in parts)
        success = total < target if below else total >= target
        return LaunchStep(step, die, (("die", die), *parts), total, target, below, success)

    def _settle_step(self, events: list[GameEvent], step: str, success: bool | None) -> bool:
        """Apply a judged step; False when the launch stops here (failed gate or a win)."""
        if step in _GATES:
            return bool(success)
        if not success:
            return True
        if step == "damage":
            self.damage += 1
            events.append(ApophisDamaged(self.damage, self.apophis_value))
            if self.damage >= DAMAGE_TO_DESTROY:
                self._finish(Outcome.DESTROYED)
                events.append(GameWon(Outcome.DESTROYED.value))
                return False
            if self.rules is Rules.BASIC:
                return self._add_counter(events)
            return True
        return self._add_counter(events)

    def _add_counter(self, events: list[GameEvent]) -> bool:
        self.counters += 1
        events.append(CounterAdded(self.counters))
        if self.counters >= COUNTERS_TO_DEFLECT:
            self._finish(Outcome.DEFLECTED)
            events.append(GameWon(Outcome.DEFLECTED.value))
            return False
        return True

    def _end_launch(self, events: list[GameEvent], hit: bool) -> None:
        events.append(LaunchEnded(hit, len(self.rocket), len(self.sequence)))
        self._clear_pad()
        self._end_turn(events)


_ACTION_METHODS: dict[str, Callable[..., list[GameEvent]]] = {
    "draw": Game.draw,
    "build": Game.build,
    "launch": Game.launch,
    "scrap": Game.scrap,
    "discard": Game.discard,
    "reroll": Game.reroll,
    "accept": Game.accept,
    "finish_reshuffle": Game.finish_reshuffle,
    "clock_expired": Game.clock_expired,
    "end": Game.end,
    "skip_turn": Game.skip_turn,
    "remove_player": Game.remove_player,
    "take_seat": Game.take_seat,
}

#: The action names `Game.apply` accepts.
ACTIONS = tuple(_ACTION_METHODS)


def _arguments(method: Callable[..., Any]) -> tuple[frozenset[str], frozenset[str]]:
    """The keyword arguments an action's method takes, and those it needs."""
    parameters = list(inspect.signature(method).parameters.values())[1:]  # (after self)
    return (
        frozenset(p.name for p in parameters),
        frozenset(p.name for p in parameters if p.default is inspect.Parameter.empty),
    )


#: Each action's arguments, read from its method once (binding a signature at every
#: action cost more than the rest of a draw).
_ACTION_ARGUMENTS = {kind: _arguments(method) for kind, method in _ACTION_METHODS.items()}


def malformed(action: dict[str, Any]) -> str | None:
    """What is wrong with the form of an action given as data (its type unknown, an
    argument unexpected or missing), if anything; whether the rules allow it is not asked."""
    kind = action.get("type")
    if kind not in _ACTION_ARGUMENTS:
        return f"unknown action {kind!r}"
    accepted, required = _ACTION_ARGUMENTS[kind]
    given = set(action) - {"type"}
    unknown = sorted(given - accepted)
    if unknown:
        return f"unexpected argument {unknown[0]!r}"
    missing = sorted(required.difference(given))
    if missing:
        return f"missing a required argument: {missing[0]!r}"
    return None


def _parse_colour(value: Colour | str) -> Colour:
    try:
        return Colour(value)
    except ValueError:
        raise IllegalMove(
            "bad_colour",
            f"Unknown colour {value!r}: choose green, red, blue or yellow.",
            value=str(value),
        ) from None


def _parse_size(value: Size | int | str) -> Size:
    try:
        if isinstance(value, str):
            return Size[value.upper()]
        return Size(value)
    except (KeyError, ValueError):
        raise IllegalMove(
            "bad_size", f"Unknown size {value!r}: choose small, medium or large.", value=str(value)
        ) from None


def _payment(hand: list[str], section: Section, cards: Sequence[str] | None) -> list[str]:
    """The cards of `hand` that pay for `section`: those named (`cards`), checked to be
    exactly its price in its suit, or else the first of that suit."""
    colour, size = section
    if cards is None:
        of_colour = [c for c in hand if colour_of(c) is colour]
        if len(of_colour) < size:
            raise IllegalMove(
                "not_enough_cards",
                f"A {section_label(section)} section costs {int(size)} "
                f"{colour.suit_name} ({colour.symbol}); you have {len(of_colour)}.",
                colour=colour.value,
                size=size.label,
                cost=int(size),
                have=len(of_colour),
            )
        return of_colour[: int(size)]
    paid = _own_cards(hand, cards)
    if len(paid) != size or any(colour_of(c) is not colour for c in paid):
        raise IllegalMove(
            "wrong_payment",
            f"A {section_label(section)} section costs exactly {int(size)} "
            f"{colour.suit_name} ({colour.symbol}).",
            colour=colour.value,
            size=size.label,
            cost=int(size),
        )
    return paid


def _own_cards(hand: list[str], cards: Sequence[str]) -> list[str]:
    """The named cards, checked to be distinct and all in the hand."""
    chosen = list(cards)
    if not all(is_card(c) for c in chosen):
        raise IllegalMove("not_a_card", "That is not a card of this game.")
    if len(set(chosen)) != len(chosen):
        raise IllegalMove("card_twice", "The same card was named twice.")
    if Counter(chosen) - Counter(hand):
        raise IllegalMove("not_in_hand", "You can only play cards from your own hand.")
    return chosen
