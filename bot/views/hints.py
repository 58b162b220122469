"""Hints: what the crew policy (engine.crew) would do in a player's place, in one private line.

The policy explains a decision by a reason code and its parameters; here they become a
sentence in the player's language, with cards as their server shows them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.i18n.catalogs import t
from bot.views.render import and_list, cards_text
from engine import Colour, Phase, Size
from engine.crew import Decision, decide

if TYPE_CHECKING:
    from bot.table import Table


def hint_line(table: Table, player: int, now: float, language: str) -> str:
    """The hint for `player` (seated in the game) at wall time `now`, shown only to them."""
    game = table.game
    assert game is not None
    if game.is_over:
        return t(language, "hint.over")
    if game.phase is Phase.RESHUFFLE:
        return t(language, "hint.reshuffle")
    if game.active_player != player:
        return t(language, "hint.not_your_turn")
    time_left = table.time_left(now)
    game_time_left = None if time_left is None else time_left * table.time_scale
    decision = decide(game.view_for(player), game_time_left)
    assert decision is not None
    return f"💡 {decision_text(decision, language, table.cards)}"


def decision_text(decision: Decision, language: str, style: str) -> str:
    """A crew decision as one sentence, from its reason code and parameters."""
    params: dict[str, Any] = decision.params
    words: dict[str, Any] = {}
    if "cards" in params:
        words["cards"] = cards_text(params["cards"], language, style)
    if "damage" in params:
        words["odds"] = _odds(params, language)
    if decision.reason == "build":
        colour, size = Colour(params["colour"]), Size(params["size"])
        words["section"] = t(language, f"section.{colour.value}.{size.label}")
    elif decision.reason == "draw_for_sequence":
        words["suits"] = " ".join(Colour(c).symbol for c in params["suits"])
    elif decision.reason == "draw_for_plan":
        short = [f"{n} {Colour(c).symbol}" for c, n in params["short"].items()]
        words["wanted"] = and_list(short, language) or t(language, "hint.more_cards")
    elif decision.reason == "reroll":
        words["step"] = t(language, f"step.{params['step']}.inline")
    text = t(language, f"hint.{decision.reason}", **words)
    if "turns_left" in params:
        text += " " + t(language, "hint.hurry", count=params["turns_left"])
    return text


def _odds(params: dict[str, Any], language: str) -> str:
    damage = round(params["damage"] * 100)
    if params.get("deflect"):
        return t(
            language, "hint.odds_deflect", damage=damage, deflect=round(params["deflect"] * 100)
        )
    return t(language, "hint.odds", damage=damage)
