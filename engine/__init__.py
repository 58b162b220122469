"""The rules of Apophis as plain, deterministic Python (standard library only).

Nothing here knows about Discord, asyncio, databases or the wall clock: real time
belongs to the bot, which tells the engine when a reshuffle's 10 seconds are over
and when the game clock has run out. How long that clock runs at each difficulty is
``DIFFICULTY_MINUTES`` (minutes by difficulty name, easiest first).

Create a game (1 to ``MAX_PLAYERS``, that is 4, players)::

    game = Game.new([alice, bob], rules="advanced", seed=1234, start_player=None)

Act (each call either applies fully and returns the events it caused, or raises
IllegalMove, whose message says why in plain words, leaving the game unchanged)::

    game.draw(player)                       # draw 2; may start a reshuffle or a discard
    game.build(player, "red", "large")      # pay 3 hearts for the large red section
    game.launch(player, ["7H", "2D"])       # add to the launch sequence; 4 suits launch
    game.scrap(player)                      # sections to the depot, sequence discarded
    game.discard(player, ["KS"])            # down to the hand limit of 5
    game.reroll(player) / game.accept(player)   # advanced fail-safes
    game.finish_reshuffle()                 # the bot, 10 seconds after ReshuffleStarted
    game.clock_expired()                    # the bot, when time runs out
    game.skip_turn() / game.remove_player(player) / game.end(reason)

or, for replaying a log, ``game.apply({"type": "build", "player": ..., ...})``.

Ask what a player may do now, from their view alone (see engine.moves)::

    moves = legal_moves(game.view_for(player))   # LegalMoves: draw, builds, launch, ...
    moves.allows({"type": "scrap", "player": player})
    list(moves.actions())                   # one action of each kind open now

See only what you may::

    game.view_for(player)   # PlayerView: own hand plus the table
    game.public_view()      # PublicView: the table, hand sizes only; who built each
                            # section (builders) and played each sequence card
    event.seen_by(viewer)   # an event with other players' cards removed

Every event an action returns is a ``GameEvent``, the closed union of the event classes
of engine.events (TurnStarted, CardsDrawn, ..., GameAbandoned): a ``match`` over one that
ends in ``assert_never`` is checked exhaustive by mypy.

Save and restore (JSON-compatible, versioned; the random generator's state is
inside, so a restored game continues exactly as the original would)::

    data = game.save();  game = Game.restore(data)
    data = event.to_dict();  event = events.from_dict(data)   # an event, as logs keep it

Cards are codes such as "7H" (rank and suit letter C/H/D/S); each is worth 1 of its
suit's colour: clubs green, hearts red, diamonds blue, spades yellow.
"""

from engine.cards import (
    RANKS,
    Colour,
    Rules,
    Section,
    Size,
    card_label,
    colour_of,
    fuel_needed,
    full_deck,
    section_label,
)
from engine.events import Event, GameEvent, PlayerId
from engine.game import (
    ACTIONS,
    DIFFICULTY_MINUTES,
    HAND_LIMIT,
    MAX_PLAYERS,
    RESHUFFLE_SECONDS,
    SAVE_FORMAT,
    Game,
    IllegalMove,
    rocket_points,
)
from engine.moves import LegalMoves, legal_moves, when_my_turn
from engine.rng import Random, ScriptedRandom
from engine.views import Outcome, Phase, PlayerView, PublicView, SeatView

__all__ = [
    "ACTIONS",
    "DIFFICULTY_MINUTES",
    "HAND_LIMIT",
    "MAX_PLAYERS",
    "RANKS",
    "RESHUFFLE_SECONDS",
    "SAVE_FORMAT",
    "Colour",
    "Event",
    "Game",
    "GameEvent",
    "IllegalMove",
    "LegalMoves",
    "Outcome",
    "Phase",
    "PlayerId",
    "PlayerView",
    "PublicView",
    "Random",
    "Rules",
    "ScriptedRandom",
    "SeatView",
    "Section",
    "Size",
    "card_label",
    "colour_of",
    "fuel_needed",
    "full_deck",
    "legal_moves",
    "rocket_points",
    "section_label",
    "when_my_turn",
]
