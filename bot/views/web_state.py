"""The live table as the web client reads it: a channel's table as JSON, for one viewer.

Pure, like the rest of bot.views: built from the table, the engine's views and the
clock, nothing else. The public part (`public`) is the same for every viewer who reads
the same language; a seated player adds their own part (`private`): their hand and
exactly the hand panel's moves (bot.views.panel), as Discord's component JSON, whose
custom ids the web client sends back to play them. No other hand is ever in it: the
public part comes from `Game.public_view()`, a player's from `Game.view_for(player)`.
The protocol is told in bot.web's docstring; the state's shape is bot.views.table_state's
`State` (the components are Discord's JSON, as bot.views.components builds them).

A caller wording one table for several viewers at once (bot.web.feed) may pass what
they share, computed once: the engine's views (`view`) and the board's moves
(`board_moves`). The words are the same either way.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeGuard, cast

from bot.i18n.catalogs import t, told_in
from bot.i18n.notation import card_text
from bot.i18n.said import Markup, written
from bot.table import EMPTY_SEAT, is_crewmate, seat_to_take
from bot.views import components, embeds, first_games, panel, render, table_state, talk
from bot.views.story import story
from engine import Colour, Phase, colour_of, fuel_needed
from engine.events import LaunchStep
from engine.game import COUNTERS_TO_DEFLECT, DAMAGE_TO_DESTROY

if TYPE_CHECKING:
    from bot.lobby_settings import LobbySettings
    from bot.table import Table
    from engine import PlayerView, PublicView

#: The lobby's buttons the web table offers (How to play is the client's own).
LOBBY_ACTIONS = ("join", "leave", "start", "crewadd", "crewdrop")
#: The catalog key of each board button the web offers (bot.views.components words them).
BOARD_LABELS = {
    "join": "button.join",
    "leave": "button.leave",
    "start": "button.start",
    "crewadd": "button.crew_add",
    "crewdrop": "button.crew_drop",
    "again": "again.button",
}
#: The words of the client itself, by key ("web.<key>" in the catalogs). Placeholders
#: (HOLES: {name}, {count}...) are left for the client to fill.
LABELS = (
    "title", "apophis", "damage", "deflection", "rocket", "sequence", "depot", "deck",
    "discard", "your_hand", "no_cards", "watching", "sign_in", "signed_in_as", "signed_out",
    "connecting", "reconnecting", "offline", "time_left", "clock_stopped", "lobby",
    "waiting_for_host", "seat_cards", "crewmate", "autopilot", "host",
    "your_turn", "launch_checks", "moves", "pick_cards", "send", "game_over", "points",
    "no_rocket", "recent", "rules_basic", "rules_advanced", "difficulty_beginner",
    "difficulty_easy", "difficulty_medium", "difficulty_hard", "difficulty_custom", "minutes",
    # the screens: a bad link, no game, the lobby, How to play
    "bad_link", "bad_link_how", "no_game_title", "no_game_how", "skip_to_table", "menu",
    "players", "playing_now", "open_seat", "lobby_title", "lobby_lead", "rules", "difficulty",
    "countdown", "why_sign_in", "why_seated", "why_full", "why_not_seated", "why_host_stays",
    "why_only_host", "why_no_crewmate", "why_cannot_play", "share_link", "copy_link", "copied",
    "copy_by_hand", "how_to_play", "close", "howto_goal", "howto_turn", "howto_build",
    "howto_launch", "howto_more",
    # the launch, the end, your turn, the moves that are off
    "die_shows", "target_below", "target_at_least", "launch_now", "skip", "reroll_open",
    "full_report", "fuel_needs", "build_choices",
    "damage_done", "deflection_done", "story_launches", "story_no_launch",
    "ending_won", "ending_lost", "ending_over", "replay_hint", "options", "option_sound",
    "option_vibrate", "your_turn_now", "watching_count", "offline_short", "why_not_now",
    "why_not_your_turn", "time_at_end", "leave_game", "first_close",
    # the table in words (its description for screen readers), its sequence's slots
    "describe_apophis", "describe_deflection", "describe_rocket", "describe_piles",
    "describe_time", "slot_played", "slot_needed", "slot_unused", "slots_count",
)  # fmt: skip
#: The launch checks, by the engine's names.
STEPS = ("fuel", "launch", "accuracy", "damage", "deflection")
#: The placeholders of the client's words, left as they are for the client to fill.
HOLES = {
    name: "{" + name + "}"
    for name in (
        "name", "count", "target", "value", "damage", "needed", "rocket", "deck", "discard",
        "time", "suit", "game",
    )
}  # fmt: skip
#: The client's words chosen by their {count} (a gettext plural): sent in both forms,
#: "<key>.one" and "<key>.other", for the client to pick by the language's plural rule
#: (labels.ts `counted`); the other labels' numbers need no agreement ("cards: 5").
COUNTED = ("lobby_lead", "build_choices", "watching_count", "slots_count")


class _Hole(int):
    """A count that chooses a message's plural form, and is written as the placeholder
    "{count}", left for the client to fill."""

    def __format__(self, spec: str) -> str:
        return HOLES["count"]

    def __str__(self) -> str:
        return HOLES["count"]


def _no_avatar(player: int) -> str | None:
    return None


@functools.cache
def labels(language: str) -> dict[str, str]:
    """The client's own words in `language` (made once; never changed)."""
    words = {key: t(language, f"web.{key}", **HOLES) for key in LABELS if key not in COUNTED}
    for key in COUNTED:  # each form as a count of 1 and of 2 chooses it (English, French)
        for form, count in (("one", 1), ("other", 2)):
            words[f"{key}.{form}"] = t(language, f"web.{key}", **{**HOLES, "count": _Hole(count)})
    # A launch check is named as everywhere else (the launch report, the board).
    words.update({f"step_{step}": t(language, f"step.{step}") for step in STEPS})
    return words


def plain(text: str, markup: Markup) -> str:
    """A text as the web shows it: its parts written by the live table's `markup`."""
    return written(text, markup).strip()


def no_table(
    channel_id: int,
    now: float,
    watching: int = 0,
    moves: list[table_state.Component] | None = None,
) -> table_state.State:
    """The state of a channel with no open lobby or game: every field a game's state has,
    empty, so that a client reads both alike; `moves`, what its viewer may do there (an
    Activity's participant: `open_move`)."""
    return {
        "type": "state",
        "channel": str(channel_id),
        "game": None,
        "version": 0,
        "status": "none",
        "now": now,
        "deadline": None,
        "remaining": None,
        "time_scale": 1.0,
        "reshuffle_ends": None,
        "host": None,
        "settings": None,
        "seats": [],
        "watching": watching,
        "table": None,
        "texts": {"rocket": None, "next": None, "result": None, "recent": []},
        "report": None,
        "story": None,
        "offer": None,
        "lobby_moves": moves or [],
        "you": None,
    }


def open_move(language: str) -> table_state.Component:
    """The button that opens a lobby where no game is (an Activity's participant's)."""
    label = t(language, "web.open_here")
    return _components([components.button(0, 0, "open", label, style=components.SUCCESS)])[0]


def public(
    table: Table,
    now: float,
    language: str,
    view: PublicView | None = None,
    *,
    markup: Markup,
    avatar_of: Callable[[int], str | None] = _no_avatar,
    watching: int = 0,
) -> table_state.PublicState:
    """What everyone watching `table` sees, in `language` (`view`: the game's public view,
    if the caller has it; `markup`: how the web door writes the parts of the game's texts
    (bot.views.plain); `avatar_of`: the picture each person chose, a path under Discord's
    CDN; `watching`: how many watch without a seat)."""
    game = table.game
    if view is None and game is not None:
        view = game.public_view()
    state: table_state.PublicState = {
        "type": "state",
        "channel": str(table.channel_id),
        "game": table.id,
        "version": table.version,
        "status": table.status,
        "now": now,
        "deadline": table.deadline,
        "remaining": table.remaining,
        "time_scale": table.runtime.time_scale,
        "reshuffle_ends": table.runtime.reshuffle_ends,
        "host": str(table.host_id),
        "settings": _settings(table.settings),
        "seats": _seats(table, view, avatar_of, language),
        "watching": watching,
        "table": None,
        "texts": {
            "rocket": None,
            "next": None,
            "result": None,
            "recent": [plain(told_in(line, language), markup) for line in table.recent],
        },
        "report": _report(table, language, markup),
        "story": None,
        "offer": _offer(table, language, markup),
    }
    if view is None:
        return state
    state["table"] = _table(view)
    texts = state["texts"]
    if view.phase is Phase.OVER or not table.open:
        texts["result"] = render.outcome_text(view.outcome, language)
        told = story(table, language, now).as_json()
        for launch in told["launches"]:  # who launched it, by name
            launch["line"] = plain(launch["line"], markup)
        told["firsts"] = [plain(line, markup) for line in told["firsts"]]
        state["story"] = told
    else:
        texts["rocket"] = _rocket_line(view, language).removeprefix("🚀 ") or None
        texts["next"] = plain(render.next_step(table, view, now, language), markup)
    return state


def _offer(table: Table, language: str, markup: Markup) -> str | None:
    """Why the lobby offers its difficulty, as its message says it (bot.game.newcomers), in
    `language`; None once it is no lobby or offers nothing."""
    if table.offer is None or table.status != "lobby":
        return None
    return plain(embeds.first_games_line(table, language), markup)


def _table(view: PublicView) -> table_state.Table:
    """The table as everyone sees it: Apophis, the rocket and who built it, the launch
    sequence and who played it, the depot and the piles."""
    total = sum(view.points.values())
    return {
        "rules": view.rules.value,
        "phase": view.phase.value,
        "outcome": view.outcome.value if view.outcome is not None else None,
        "apophis": view.apophis_value,
        "damage": view.damage,
        "damage_to_destroy": DAMAGE_TO_DESTROY,
        "counters": view.counters,
        "counters_to_deflect": COUNTERS_TO_DEFLECT,
        "rocket": [
            {"colour": COLOUR[c], "size": int(s), "builder": _id(b)}
            for (c, s), b in zip(view.rocket, _padded(view.builders, view.rocket), strict=True)
        ],
        "points": total,
        "fuel": view.points.get(Colour.YELLOW, 0),
        "fuel_needed": fuel_needed(total),
        "sequence": [
            {"colour": COLOUR[c], "player": _id(p)}
            for c, p in zip(
                view.sequence, _padded(view.sequence_players, view.sequence), strict=True
            )
        ],
        "depot": [{"colour": COLOUR[c], "size": int(s)} for c, s in view.depot],
        "deck": view.deck_size,
        "discard": view.discard_size,
    }


def _settings(settings: LobbySettings) -> table_state.Settings:
    """A lobby's settings as the state carries them: each option's value by its name
    (bot.lobby_settings's table of options, which table_state's `Settings` names field by
    field; tests/web check every state sent against it)."""
    return cast("table_state.Settings", settings.as_json())


def private(
    table: Table,
    viewer: int | None,
    now: float,
    language: str,
    view: PlayerView | None = None,
    board_moves: list[table_state.Component] | None = None,
    *,
    markup: Markup,
) -> table_state.OwnState:
    """What only `viewer` sees (None: someone not signed in): their hand and moves if
    seated in the game, the lobby's buttons in a lobby, Join while a game in play has a
    seat free and they play in it not (with the seat it is, in words), Play again once it
    is over.
    `view` is `Game.view_for(viewer)` and `board_moves` is `board_moves_of(table, now,
    language)`, if the caller has them; `markup` as for `public`."""
    you: table_state.You | None = None
    moves: list[table_state.Component] = []
    game = table.game
    if viewer is not None:
        you = {"id": str(viewer), "seated": viewer in table.seats}
        if table.open and you["seated"] and first_games.owed(table, viewer):
            you["first"] = first_games.words(language)
        if game is not None and viewer in game.players:
            if view is None:
                view = game.view_for(viewer)
            style = table.cards
            you["hand"] = [
                _card(c, language, style)
                for cards in render.by_suit(view.hand).values()
                for c in cards
            ]
            offered = [m for m in panel.moves(table, view, language) if _live(m)]
            say = _say(offered)
            you["moves"] = _components(_table_order([m for m in offered if m is not say]))
            if say is not None:  # the Say menu, the live table's control of its own
                you["say"] = cast("table_state.Select", say)
            you["situation"] = _situation(table, view, now, language, markup)
            you["your_turn"] = table.open and view.table.active_player == viewer
            if table.status == "active" and table.open:
                you["leave"] = _leaving(table, viewer, language)
        moves = board_moves_of(table, now, language) if board_moves is None else board_moves
        if table.status == "active" and moves:  # Join: a seat is free, theirs if not seated
            if "hand" in you:
                moves = []
            else:
                you["drop_in"] = _drop_in(table, language, markup)
    return {"lobby_moves": moves, "you": you}


def _leaving(table: Table, player: int, language: str) -> table_state.Leaving:
    """What leaving the game in play asks `player` first, as `/apophis leave` does
    (bot.views.components.leave_question): its words, and its answers as buttons."""
    question = components.leave_question(table, player, language)
    rows = question.components.to_components() if question.components is not None else []
    answers = [item for row in rows for item in row["components"]]
    return {"question": question.content or "", "moves": _components(answers)}


def _drop_in(table: Table, language: str, markup: Markup) -> str:
    """The seat a member not seated would take with Join, in words (bot.game.seats),
    the crewmate named as the board names it."""
    seat = seat_to_take(table.started_game)
    if seat is not None and seat != EMPTY_SEAT:
        return plain(t(language, "drop_in.crewmate", name=render.mention(seat)), markup)
    return t(language, "drop_in.empty")


def board_moves_of(table: Table, now: float, language: str) -> list[table_state.Component]:
    """The board's moves a signed-in viewer gets (the same for all who read `language`):
    the lobby's buttons and settings in a lobby, the board's Join while a game in play has
    a seat free to take (bot.table.seat_to_take), Play again once it is over; worded in
    `language`, as the viewer's own moves are (the channel's message is in its own)."""
    if table.status == "lobby":
        found = _buttons(components.lobby_message(table), LOBBY_ACTIONS)
    elif not table.open:
        found = _buttons(components.board_message(table, now), ("again",))
    elif seat_to_take(table.started_game) is not None:  # a late friend may sit down
        return _components([components.join_button(table, language)])
    else:
        return []
    moves = [{**item, "label": t(language, BOARD_LABELS[action])} for action, item in found]
    if table.status == "lobby":  # its settings, for the host to change
        moves += components.lobby_settings(table, language)
    return _components(moves)


#: A colour's name in a state, by colour (an enum's `.value` is slow to read).
COLOUR = {c: c.value for c in Colour}
#: A card of a hand as a state shows it, by (card, language, card style): made once, then
#: shared by every state (never changed).
_CARDS: dict[tuple[str, str, str], table_state.Card] = {}


def _card(card: str, language: str, style: str) -> table_state.Card:
    key = (card, language, style)
    shown = _CARDS.get(key)
    if shown is None:
        label = card_text(card, language, style)
        shown = _CARDS[key] = {"card": card, "label": label, "colour": COLOUR[colour_of(card)]}
    return shown


#: render.rocket_line by what it reads of the view (the public part and each player's
#: situation want it, for every state): a few thousand rockets at most, then started afresh.
_ROCKET_LINES: dict[tuple[Any, ...], str] = {}
ROCKET_LINES = 4096


def _rocket_line(view: PublicView, language: str) -> str:
    key = (view.rules, view.apophis_value, view.rocket, language)
    line = _ROCKET_LINES.get(key)
    if line is None:
        if len(_ROCKET_LINES) >= ROCKET_LINES:
            _ROCKET_LINES.clear()
        line = _ROCKET_LINES[key] = render.rocket_line(view, language)
    return line


def _table_order(moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A panel's moves in the live table's order: its row of moves with Hint beside them,
    then the builds, then the menus (a phone's panel puts Hint last, under its menu)."""
    hint = [m for m in moves if m.get("custom_id", "").endswith(":hint")]
    buttons = [m for m in moves if m.get("type") == components.BUTTON and m not in hint]
    builds = [m for m in buttons if ":build:" in m.get("custom_id", "")]
    menus = [m for m in moves if m.get("type") != components.BUTTON]
    return [m for m in buttons if m not in builds] + hint + builds + menus


def _components(items: list[dict[str, Any]]) -> list[table_state.Component]:
    """Discord's component JSON, as bot.views.components builds it, read as the state's
    components (table_state's shapes; tests/web check every state sent against them)."""
    return cast("list[table_state.Component]", items)


def _say(moves: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The panel's Say menu among its moves (bot.views.say_menu), if there."""
    return next((m for m in moves if m.get("custom_id", "").endswith(":say")), None)


def _live(move: dict[str, Any] | None) -> TypeGuard[dict[str, Any]]:
    """Whether the web table offers a panel's move: all but Refresh (it is always current)."""
    return move is not None and not move.get("custom_id", "").endswith(":refresh")


def _situation(table: Table, view: Any, now: float, language: str, markup: Markup) -> str:
    """The panel's situation, less the rocket's line (the table shows it above)."""
    rocket = _rocket_line(view.table, language) if view.table.rocket else None
    lines = plain(panel.situation(table, view, now, language), markup).split("\n")
    return "\n".join(line for line in lines if line != rocket).strip()


def _buttons(message: Any, actions: tuple[str, ...]) -> list[tuple[str, dict[str, Any]]]:
    """The buttons of a Discord message whose action is one of `actions`, with it."""
    found = []
    rows = message.components.to_components() if message.components is not None else []
    for row in rows:
        for item in row["components"]:
            match = components.CUSTOM_ID.fullmatch(item.get("custom_id", ""))
            if match is not None and match["action"] in actions:
                found.append((match["action"], item))
    return found


def _seats(
    table: Table, view: Any, avatar_of: Callable[[int], str | None], language: str
) -> list[table_state.Seat]:
    held = {seat.player: seat.hand_size for seat in view.seats} if view is not None else {}
    active = view.active_player if view is not None and view.phase is not Phase.OVER else None
    players = [seat.player for seat in view.seats] if view is not None else table.seats
    return [
        {
            "id": str(p),
            "name": table.name_of(p),
            "cards": held.get(p),
            "active": p == active,
            "crewmate": is_crewmate(p),
            "autopilot": table.on_autopilot(p),
            "host": p == table.host_id,
            "avatar": None if is_crewmate(p) else avatar_of(p),
            "said": None if view is None else talk.seat_signal(table, view, p, language),
        }
        for p in players
    ]


#: The catalog key naming each part of a launch check's sum (the engine's names), and,
#: for warheads, by the check they count for.
PARTS = {
    "die": "web.part.die",
    "booster fuel": "web.part.fuel",
    "rocket points": "web.part.points",
    "Apophis": "web.part.apophis",
    "guidance": "web.part.guidance",
}
WARHEADS = {"damage": "web.part.warheads_red", "deflection": "web.part.warheads_green"}


def _report(table: Table, language: str, markup: Markup) -> table_state.Report | None:
    """The current (or last) launch: its lines, and its checks with their dice, each part
    of a sum named in `language` and each outcome said in words."""
    report = table.report
    if report is None:
        return None
    checks: list[table_state.Check] = [
        {
            "step": e.step,
            "die": e.die,
            "parts": [
                (name, value, t(language, WARHEADS[e.step] if name == "warheads" else PARTS[name]))
                for name, value in e.parts
            ],
            "total": e.total,
            "target": e.target,
            "below": e.below,
            "success": e.success,
            "verdict": t(language, f"web.verdict.{e.step}.{_verdict(e.success)}"),
        }
        for e in report.events
        if isinstance(e, LaunchStep)
    ]
    lines = [plain(told_in(line, language), markup) for line in report.lines]
    return {"lines": lines, "open": report.open, "checks": checks}


def _verdict(success: bool | None) -> str:
    return "skipped" if success is None else "ok" if success else "failed"


def _padded(owners: tuple[Any, ...], items: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(owners) + (None,) * (len(items) - len(owners))


def _id(player: int | None) -> str | None:
    return None if player is None else str(player)
