"""Our buttons and pickers, as any door receives them: a custom id (and the values picked)
read into a `Click`, and the click into the command it stands for (`command_of`: a lobby's
button, a setting, a board's or hand panel's move), the same whichever door it came
through.

A client can be made to send anything: a custom id we never sent, values a picker never
offered. Nothing here trusts it: each function returns the input in our own terms or
raises UserError with a short, polite reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.errors import UserError
from bot.game.commands import (
    AddCrewmate,
    Command,
    Configure,
    Join,
    Leave,
    Move,
    Open,
    PlayAgain,
    RemoveCrewmate,
    Say,
    Start,
)
from bot.game.lobbies import Venue
from bot.lobby_settings import BY_NAME, Option
from bot.views.components import CUSTOM_ID
from bot.views.howto import SECTIONS
from engine import Colour, Rules, Size
from engine.cards import is_card
from engine.signals import Signal

#: Discord's longest custom id.
CUSTOM_ID_LENGTH = 100
#: The largest game number or version a custom id may carry: the largest integer the
#: databases hold (a larger one is no game of ours, and must not reach a query).
LARGEST_NUMBER = 2**63 - 1
#: What each kind of component may ask for ("b": board buttons, the live table's Open
#: where no game is among them; "h": hand panel buttons, "p": the panel's selects, "r": a
#: replay's ◀ ▶, "l": a launch report's buttons, "s": a lobby's settings, a select each;
#: "q": the question a leave mid-game asks; "u": the rules' menu, by the rules it shows).
ACTIONS = {
    "b": frozenset(
        ("join", "leave", "start", "rules", "hand", "draw", "build", "launch", "scrap", "discard")
    )
    | {"reroll", "accept", "crewadd", "crewdrop", "again", "table", "open", "details"},
    "h": frozenset(("draw", "build", "launch", "scrap", "reroll", "accept", "refresh", "hint"))
    | {"pick", "discard"},
    "p": frozenset(("launch", "discard", "say", "build")),
    "r": frozenset(("prev", "next")),
    "l": frozenset(("reroll", "accept")),
    "s": frozenset(BY_NAME) | {"host"},  # an option's select, or all of them ("host")
    "q": frozenset(("leave", "crew", "stay")),
    "u": frozenset(rules.value for rules in Rules),
}
#: The panel buttons that carry an argument (their cards or section); no other may.
WITH_ARG = frozenset(("build", "launch", "pick", "discard"))
#: The panel buttons that only redraw the panel: no move.
REDRAWS = frozenset(("refresh", "hint", "pick"))
#: Discord's most values a select menu returns.
MAX_VALUES = 25
#: The lobby's buttons, as the commands they stand for (a Start's venue is the door's).
LOBBY: dict[str, type[Join | Leave | AddCrewmate | RemoveCrewmate | Start]] = {
    "join": Join,
    "leave": Leave,
    "crewadd": AddCrewmate,
    "crewdrop": RemoveCrewmate,
    "start": Start,
}
#: The commands of the lobby's buttons: only while its game has not started.
LOBBY_COMMANDS = (Join, Leave, AddCrewmate, RemoveCrewmate, Start)
#: A board's buttons that are moves of their own (the launch report's are all moves).
BOARD_MOVES = frozenset(("draw", "scrap", "reroll", "accept"))
#: The kinds of a hand panel's clicks (its buttons, its selects).
PANEL = frozenset(("h", "p"))
COLOURS = frozenset(colour.value for colour in Colour)
SIZES = frozenset(str(int(size)) for size in Size)


@dataclass(frozen=True, slots=True)
class Click:
    """A click on one of our buttons (values None) or a choice in one of our selects.

    `kind` as in the custom id ("b", "h", "p", "s"...); `arg` the cards or section a panel
    button carries ("" for none).
    """

    kind: str
    game: int
    version: int
    action: str
    arg: str
    values: list[str] | None


def read_click(data: Mapping[str, object]) -> Click:
    """A component interaction's data as a Click; UserError for an id we never sent."""
    custom_id = data.get("custom_id")
    match = (
        CUSTOM_ID.fullmatch(custom_id)
        if isinstance(custom_id, str) and len(custom_id) <= CUSTOM_ID_LENGTH
        else None
    )
    if (
        match is None
        or max(int(match["game"]), int(match["version"])) > LARGEST_NUMBER
        or match["action"] not in ACTIONS[match["kind"]]
        or (match["arg"] and (match["kind"] != "h" or match["action"] not in WITH_ARG))
    ):
        raise UserError("error.unknown_button")
    values: list[str] | None = None
    if match["kind"] in ("p", "s", "u"):
        picked = data.get("values")
        if not isinstance(picked, list) or not all(isinstance(v, str) for v in picked):
            raise UserError("error.menu_options")
        values = picked
    if match["kind"] == "p" and not 0 < len(values or ()) <= MAX_VALUES:
        raise UserError("error.menu_options")
    if match["kind"] == "s" and (  # exactly one of the values the lobby's select offers
        values is None or len(values) != 1 or setting_of(match["action"], values[0]) is None
    ):
        raise UserError("error.menu_options")
    if match["kind"] == "u" and (values is None or len(values) != 1 or values[0] not in SECTIONS):
        raise UserError("error.menu_options")  # one of the rules' parts
    return Click(
        match["kind"],
        int(match["game"]),
        int(match["version"]),
        match["action"],
        match["arg"] or "",
        values,
    )


def command_of(click: Click, venue: Venue | None = None) -> Command | None:
    """The command `click` stands for, whichever door it came through (`venue`: how a
    Start may open its game's thread); None for a click that only shows something to
    whoever clicked (the rules, their hand, a replay's step, the live table, a panel's
    refresh, hint or card chosen for a discard). UserError for a panel move the panel
    never offers."""
    kind, action = click.kind, click.action
    if kind == "s":
        return configure(click)
    if kind == "p" and action == "say":
        return said(click)
    if kind in PANEL:
        return None if action in REDRAWS else Move(panel_move(click), click.version)
    if kind == "q":  # a leave mid-game confirmed (a crewmate playing on, or not), or not
        return None if action == "stay" else Leave(crewmate=action == "crew")
    if kind == "l" or (kind == "b" and action in BOARD_MOVES):
        return Move({"type": action}, click.version)
    if kind != "b":
        return None
    if action == "start":
        return Start(venue=venue)
    if action in LOBBY:
        return LOBBY[action]()
    if action == "again":
        return PlayAgain(click.game)
    return Open() if action == "open" else None


def setting_of(action: str, value: str) -> tuple[Option, str] | None:
    """The lobby option and choice a settings select's `value` stands for: an option's own
    select's (`action` its name), or the host's select of all of them ("option=choice");
    None for anything they never offer."""
    name, _, choice = value.partition("=") if action == "host" else (action, "", value)
    option = BY_NAME.get(name)
    return (option, choice) if option is not None and choice in option.choices else None


def configure(click: Click) -> Configure:
    """The Configure a lobby's setting stands for (an "s" click, read by read_click)."""
    assert click.values is not None
    (value,) = click.values
    found = setting_of(click.action, value)
    assert found is not None  # (read_click refused any other)
    option, choice = found
    return Configure(**{option.name: option.read(choice)})


def said(click: Click) -> Say:
    """The signal a panel's Say menu stands for (one of engine.signals'); UserError for
    anything else."""
    values = click.values or []
    try:
        if len(values) != 1:
            raise ValueError("one signal at a time")
        return Say(Signal.read(values[0]))
    except ValueError:
        raise UserError("error.menu_options") from None


def panel_move(click: Click) -> dict[str, Any]:
    """The move a panel button or select stands for; UserError for anything it never offers."""
    if click.values is not None and click.action == "build":  # the one move chosen
        return picked_move(click.values[0] if len(click.values) == 1 else "")
    if click.values is not None:  # launch or discard: the chosen cards
        if not all(is_card(v) for v in click.values) or len(set(click.values)) != len(click.values):
            raise UserError("error.menu_cards")
        return {"type": click.action, "cards": list(click.values)}
    if click.action == "build":
        return build_move(click.arg)
    if click.action in ("launch", "discard"):
        return {"type": click.action, "cards": list(cards_of(click))}
    return {"type": click.action}


def picked_move(value: str) -> dict[str, Any]:
    """The move a panel's select of moves stands for ("colour.size", "launch:" and its
    cards, "scrap"); UserError for any other."""
    if value == "scrap":
        return {"type": "scrap"}
    if value.startswith("launch:"):
        cards = value.removeprefix("launch:").split(".")
        if not all(is_card(c) for c in cards) or len(set(cards)) != len(cards):
            raise UserError("error.menu_cards")
        return {"type": "launch", "cards": cards}
    return build_move(value)


def build_move(section: str) -> dict[str, Any]:
    """The build a panel's "colour.size" stands for; UserError for any other."""
    colour, _, size = section.partition(".")
    if colour not in COLOURS or size not in SIZES:
        raise UserError("error.unknown_button")
    return {"type": "build", "colour": colour, "size": int(size)}


def cards_of(click: Click) -> tuple[str, ...]:
    """The cards a panel button carries (a launch's, a discard's, or those a discard's
    card button leaves chosen: maybe none); UserError for anything else."""
    cards = click.arg.split(".") if click.arg else []
    if (not cards and click.action != "pick") or len(set(cards)) != len(cards):
        raise UserError("error.unknown_button")
    if not all(is_card(c) for c in cards):
        raise UserError("error.unknown_button")
    return tuple(cards)


def picked(click: Click, hand: Sequence[str]) -> tuple[str, ...]:
    """The cards a discard's card button leaves chosen, all from `hand`; UserError for a
    card the panel never offered."""
    chosen = cards_of(click)
    if not set(chosen) <= set(hand):
        raise UserError("error.unknown_button")
    return chosen
