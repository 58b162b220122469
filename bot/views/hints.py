"""Hints: what the crew policy (engine.crew) would do in a player's place, in one private line.

The policy explains a decision by a reason code and its parameters, and names the rocket
it aims for; here they become a sentence in the player's language, with cards as their
server shows them: "Build the medium blue section toward red L + blue M + yellow M (the
team has red L; damage 42% a launch)."
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.i18n.catalogs import t
from bot.table import is_crewmate
from bot.views.narration import scrap_reason
from bot.views.render import and_list, cards_text, percent, plan_text, suit_marks
from engine import Colour, Phase, PlayerView, Size, legal_moves, when_my_turn
from engine.crew import Decision, decide

if TYPE_CHECKING:
    from bot.table import Table


def hint_line(table: Table, player: int, now: float, language: str) -> str:
    """The hint for `player` (seated in the game) at wall time `now`, shown only to them;
    out of turn, what the crew would do when their turn comes, from their own view."""
    game = table.game
    assert game is not None
    if game.is_over:
        return t(language, "hint.over")
    if game.phase is Phase.RESHUFFLE:
        return t(language, "hint.reshuffle")
    view = game.view_for(player)
    later = not legal_moves(view)
    if later:
        view = when_my_turn(view)
    hint = decision_text(advice(table, view, now), language, table.cards)
    return t(language, "hint.when_your_turn", hint=hint) if later else f"💡 {hint}"


def first_move_line(table: Table, view: PlayerView, now: float, language: str) -> str | None:
    """A newcomer's suggested first move (bot.game.newcomers), for their panel while their
    first turn waits for its move; None for anyone else, and at any other moment."""
    public = view.table
    first_turn = public.turn <= len(public.seats) and public.active_player == view.player
    if view.player not in table.newcomers or not first_turn or public.phase is not Phase.PLAY:
        return None
    decision = advice(table, view, now)
    move = decision.action
    if move.get("type") == "draw":  # the move, not the crew's long plan (a phone's line)
        return t(language, "first.move.draw")
    if move.get("type") == "build":  # named as the panel's select names it
        section = t(language, f"build.{move['colour']}.{Size(move['size']).label}")
        return t(language, "first.move.build", section=section)
    return t(language, "first.move", hint=decision_text(decision, language, table.cards))


def advice(table: Table, view: PlayerView, now: float) -> Decision:
    """What the crew policy would do from `view` at wall time `now` (a move of the view's
    turn: the player's own, or the one `when_my_turn` foresees)."""
    time_left = table.time_left(now)
    game_time_left = None if time_left is None else time_left * table.runtime.time_scale
    seats = (seat.player for seat in view.table.seats)
    crewmates = frozenset(filter(is_crewmate, seats))  # shown as such at the table
    decision = decide(view, game_time_left, crewmates=crewmates)
    assert decision is not None
    return decision


def decision_text(decision: Decision, language: str, style: str) -> str:
    """A crew decision as one sentence, from its reason code and parameters; it names the
    rocket it aims for (`Decision.plan`), what the team has of it, and what the move adds."""
    params: dict[str, Any] = decision.params
    plan = decision.plan
    key = f"hint.{decision.reason}"
    words: dict[str, Any] = {}
    if plan is not None:
        words["plan"] = plan_text(plan.pieces, language)
        built = [piece for piece, done in zip(plan.pieces, plan.built, strict=True) if done]
        if built and decision.reason in ("build", "draw_for_plan"):
            words["built"] = plan_text(built, language)
            key += ".on"  # the team has part of it
        words["needs"] = suit_marks([Colour(c) for c in plan.sequence_needs], style)
    if "cards" in params:
        words["cards"] = cards_text(params["cards"], language, style)
        words["count"] = len(params["cards"])
    if "damage" in params:
        words["odds"] = _odds(params, language)
    if decision.reason == "build":
        colour, size = Colour(params["colour"]), Size(params["size"])
        words["section"] = t(language, f"section.{colour.value}.{size.label}")
    elif decision.reason == "draw_for_sequence":
        suits = [Colour(c) for c in params["suits"]]
        words["suits"], words["count"] = suit_marks(suits, style), len(suits)
    elif decision.reason == "draw_for_plan":
        short = [f"{n} {suit_marks([Colour(c)], style)}" for c, n in params["short"].items()]
        words["wanted"] = and_list(short, language) or t(language, "hint.more_cards")
    elif decision.reason == "reroll":
        words["step"] = t(language, f"step.{params['step']}.inline")
    elif decision.notice is not None and decision.reason in ("scrap_dead", "scrap_restart"):
        pieces = plan.pieces if plan is not None else ()
        words["why"] = scrap_reason(decision.notice, decision.notice_params, pieces, language)
        key += ".why"
    text = t(language, key, **words)
    if "turns_left" in params:
        text += " " + t(language, "hint.hurry", count=params["turns_left"])
    return text


def _odds(params: dict[str, Any], language: str) -> str:
    damage = percent(params["damage"], language)
    if params.get("deflect"):
        deflect = percent(params["deflect"], language)
        return t(language, "hint.odds_deflect", damage=damage, deflect=deflect)
    return t(language, "hint.odds", damage=damage)
