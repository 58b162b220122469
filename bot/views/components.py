"""Messages with buttons: the board, the lobby, the launch report (and their parts), and
the one line an older board becomes.

Every component is persistent: its custom_id carries the game id, the state version
it was drawn for and what it does (on the hand panel, also which cards or section),
so it keeps working after a restart and a click on an older board is recognised.
Clicks are routed by their custom id (`CUSTOM_ID`) to the Play cog; discord.py keeps
no view for them.

Components are written as Discord's JSON rather than as discord.ui views: a view and
its items refer to each other, so every board drawn that way (several a second on a
busy bot) left a reference cycle for the garbage collector, whose pauses stop every
game at once. `Components` carries the JSON wherever discord.py accepts a view.

These messages keep Discord's content and embed. Only the hand panel is a Components V2
layout (bot.views.panel, with its own `Layout`): the board keeps its embed because its
picture is an uploaded file shown as the embed's image and kept by attachment id across
edits (V2 shows files only through media components, and Discord's webhook docs list
uploads as failing with V2: the board uploads through interaction tokens); it is edited
through several tokens and the channel's route, all of which would have to carry the
flag; an older board becomes a content-only stub, which a V2 message can never be again;
the flag is one-way, so a bot rolled back could no longer edit a board in play; and the
table's fields lie side by side, which V2 cannot lay out (docs/architecture.md, "Which
messages are Components V2").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.i18n.catalogs import t
from bot.lobby_settings import OPTIONS, LobbySettings
from bot.table import is_crewmate, seat_to_take
from bot.views import embeds, launches, render, story
from bot.views.message import Embed, Message
from bot.views.records import FIELD_LIMIT
from engine import Phase, PublicView

if TYPE_CHECKING:
    from bot.table import Report, Table

#: "apo:<b: board button, h: hand panel button, p: select, r: a replay's step button,
#: l: a launch report's button, s: a lobby's setting, q: a leave's Leave or Stay>:
#: <game id>:<version (a replay's: the step it shows)>:<action>", then ":<arg>" on panel
#: buttons that carry their cards or section ("7H.2D", "red.3").
CUSTOM_ID = re.compile(
    r"apo:(?P<kind>[bhprlsqu]):(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<action>[a-z]+)"
    r"(?::(?P<arg>[0-9A-Za-z.]{1,40}))?"
)

#: Discord's button styles (a link button opens its URL: it has no custom id).
PRIMARY, SECONDARY, SUCCESS, DANGER, LINK = 1, 2, 3, 4, 5
ACTION_ROW, BUTTON, SELECT = 1, 2, 3
BUTTONS_PER_ROW = 5
#: The live table's emoji, on its Table button and its link.
LIVE = "🎮"


class Components:
    """Message components as Discord's JSON, given to discord.py in place of a view.

    discord.py asks a view for `to_components()` when sending and then decides whether
    to keep it for dispatch: these never are (`is_finished`), as our custom ids are
    routed by the Play cog, before and after a restart alike.
    """

    __slots__ = ("rows",)
    __discord_ui_view__ = True  # discord.py's mark of something that can be sent as a view
    timeout = None

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.rows = rows

    def to_components(self) -> list[dict[str, Any]]:
        return self.rows

    def has_components_v2(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False


def button(
    game_id: int,
    version: int,
    action: str,
    label: str,
    *,
    emoji: str | None = None,
    style: int = SECONDARY,
    kind: str = "b",
    arg: str = "",
    disabled: bool = False,
) -> dict[str, Any]:
    """A button; its custom id says which game, which state and what it does (an empty
    `label`: its emoji alone)."""
    item: dict[str, Any] = {
        "type": BUTTON,
        "style": style,
        **({"label": label[:80]} if label else {}),
        "custom_id": f"apo:{kind}:{game_id}:{version}:{action}" + (f":{arg}" if arg else ""),
    }
    if emoji:
        item["emoji"] = {"name": emoji}
    if disabled:
        item["disabled"] = True
    return item


def link_button(label: str, url: str, *, emoji: str | None = None) -> dict[str, Any]:
    """A button that opens `url` in the reader's browser; Discord sends us no click."""
    item: dict[str, Any] = {"type": BUTTON, "style": LINK, "label": label[:80], "url": url}
    if emoji:
        item["emoji"] = {"name": emoji}
    return item


def picker(
    game_id: int,
    version: int,
    action: str,
    options: list[dict[str, Any]],
    *,
    placeholder: str,
    min_values: int = 1,
    max_values: int = 1,
) -> dict[str, Any]:
    """A select menu offered privately: what to build, which cards to launch or discard."""
    return {
        "type": SELECT,
        "custom_id": f"apo:p:{game_id}:{version}:{action}",
        "options": options[:25],
        "placeholder": placeholder[:150],
        "min_values": min_values,
        "max_values": max_values,
    }


def option(label: str, value: str, emoji: str, description: str | None = None) -> dict[str, Any]:
    item = {"label": label[:100], "value": value, "emoji": {"name": emoji}}
    if description:
        item["description"] = description[:100]
    return item


def rows(*items: dict[str, Any] | None) -> Components:
    """Items laid out as Discord wants them: up to five buttons a row, a select alone.

    None starts a new row.
    """
    laid: list[dict[str, Any]] = []
    new_row = False
    for item in items:
        if item is None:
            new_row = True
            continue
        last = laid[-1]["components"] if laid and not new_row else None
        new_row = False
        if (
            item["type"] == BUTTON
            and last
            and last[0]["type"] == BUTTON
            and len(last) < BUTTONS_PER_ROW
        ):
            last.append(item)
        else:
            laid.append({"type": ACTION_ROW, "components": [item]})
    return Components(laid)


# ----------------------------------------------------------------- messages


def lobby_message(table: Table) -> Message:
    """The lobby: who has joined, Join / Leave / Start, Add / Remove AI crewmate, How to play
    and Table where the live table is served (three rows of buttons, each a phone's line),
    and the host's settings in one select (`host_settings`)."""
    items: list[dict[str, Any] | None] = []
    language = table.language
    if table.status == "lobby":
        items = [
            button(table.id, 0, "join", t(language, "button.join"), style=SUCCESS),
            button(table.id, 0, "leave", t(language, "button.leave")),
            button(table.id, 0, "start", t(language, "button.start"), style=PRIMARY),
            None,
            button(table.id, 0, "crewadd", t(language, "button.crew_add")),
            button(table.id, 0, "crewdrop", t(language, "button.crew_drop")),
            None,
            button(table.id, 0, "rules", t(language, "button.how_to_play"), emoji="📖"),
            *table_buttons(table, 0),
            host_settings(table),
        ]
    return Message(embed=embeds.lobby_embed(table), components=rows(*items))


#: Each lobby option's mark in the host's select (bot.lobby_settings.OPTIONS' names).
SETTING_EMOJI = {"rules": "📜", "difficulty": "🎯", "minutes": "⏱️"}
#: The custom id's option of the select of all the lobby's settings ("apo:s:<game>:0:host").
HOST = "host"


def host_settings(table: Table) -> dict[str, Any]:
    """Every choice of every lobby option (bot.lobby_settings) in one select, for its host:
    each marked by its option, the lobby's own choices said so; its values "option=choice"
    (the live table has a select an option: `lobby_settings`)."""
    language, settings = table.language, table.settings
    options = []
    for option in OPTIONS:
        current = str(settings.get(option))
        for value in option.choices:
            label = SELECTS[option.name].label(language, value)
            emoji = {"name": SETTING_EMOJI.get(option.name, "⚙️")}
            entry: dict[str, Any] = {"label": label[:100], "value": f"{option.name}={value}"}
            entry["emoji"] = emoji
            if value == current:
                entry["description"] = t(language, "settings.current")
            options.append(entry)
    return {
        "type": SELECT,
        "custom_id": f"apo:s:{table.id}:0:{HOST}",
        "options": options,
        "placeholder": t(language, "settings.host")[:150],
        "min_values": 1,
        "max_values": 1,
    }


def lobby_settings(table: Table, language: str | None = None) -> list[dict[str, Any]]:
    """The lobby's options (bot.lobby_settings), a select each for its host (Discord's JSON,
    custom ids "apo:s:<game>:0:<option>"), each with the lobby's choice marked default,
    worded in `language` (the lobby's, unless the web table asks for a reader's). Where no
    choice is the lobby's (a custom difficulty, a countdown /apophis new took outside
    LOBBY_MINUTES), the placeholder says what it is."""
    language = language or table.language
    settings = table.settings
    return [
        _setting(
            table.id,
            option.name,
            [(SELECTS[option.name].label(language, value), value) for value in option.choices],
            str(settings.get(option)),
            SELECTS[option.name].placeholder(language, settings),
        )
        for option in OPTIONS
    ]


@dataclass(frozen=True, slots=True)
class Select:
    """How a lobby option's select is worded: each choice's label, and its placeholder
    (what the lobby is set to, where no choice is)."""

    label: Callable[[str, str], str]
    placeholder: Callable[[str, LobbySettings], str]


#: Each lobby option's select, by the option's name (bot.lobby_settings.OPTIONS).
SELECTS = {
    "rules": Select(
        lambda language, rules: t(language, f"choice.{rules}"),
        lambda language, _: t(language, "lobby.rules"),
    ),
    "difficulty": Select(
        lambda language, name: t(language, f"choice.difficulty.{name}"),
        lambda language, settings: t(
            language,
            "settings.difficulty",
            difficulty=t(language, f"difficulty.{settings.difficulty}"),
        ),
    ),
    "minutes": Select(
        lambda language, minutes: t(language, "settings.minutes", count=int(minutes)),
        lambda language, settings: t(
            language,
            "settings.countdown",
            length=t(language, "settings.minutes", count=settings.minutes),
        ),
    ),
}


def _setting(
    game_id: int, setting: str, options: list[tuple[str, str]], chosen: str, placeholder: str
) -> dict[str, Any]:
    """One of a lobby's settings as a select of its (label, value) options, `chosen` marked."""
    return {
        "type": SELECT,
        "custom_id": f"apo:s:{game_id}:0:{setting}",
        "options": [
            {"label": label[:100], "value": value, "default": value == chosen}
            for label, value in options
        ],
        "placeholder": placeholder[:150],
        "min_values": 1,
        "max_values": 1,
    }


def table_buttons(table: Table, version: int) -> list[dict[str, Any]]:
    """Table, which opens the channel's live table (bot.web), where it is served (else none)."""
    if not table.web:
        return []
    return [button(table.id, version, "table", t(table.language, "button.table"), emoji=LIVE)]


def table_link(url: str, language: str) -> Message:
    """The live table's link, to open in a browser (answered privately to Table)."""
    label = t(language, "table.link.button")
    return Message(
        content=t(language, "table.link"),
        components=rows(link_button(label, url, emoji=LIVE)),
    )


def drawn_version(table: Table) -> int:
    """The version a board drawn now shows (-1 for a lobby, which has no versions)."""
    return table.version if table.game is not None else -1


def board_message(
    table: Table,
    now: float | None = None,
    view: PublicView | None = None,
    pictured: bool = False,
) -> Message:
    """The live board and its buttons; those that cannot work now are disabled.

    `view` is the game's public view, if already at hand; `pictured`, whether the board's
    picture shows the table (bot.views.embeds.board_embed: the words beside it kept to
    what it does not say). Draw is the one move on the board; My hand opens the player's
    hand panel, where every move is one click (Reroll and Accept are the launcher's: on
    their panel and the launch report), Discard… too while a discard is due; Details
    shows the whole table in words, privately. The final board tells how the game ended
    (bot.views.story), sums up its launches, one line each (bot.views.launches), and
    carries Play again.
    """
    if table.game is None:
        return lobby_message(table)
    now = table.runtime.now() if now is None else now
    view = table.game.public_view() if view is None else view
    over = view.phase is Phase.OVER or not table.open
    told = story.story(table, table.language, now) if over else None
    ending = story.board_text(told) if told is not None else None
    earned = 0 if told is None else len(table.firsts)
    embed = embeds.board_embed(table, view, table.time_left(now), pictured, ending, earned)
    if told is not None:
        if not pictured:  # the whole story on the board: nothing behind Details
            _final_fields(table, embed, told.firsts)
        return _final_board(table, embed, details=pictured)
    gid, version, language = table.id, table.version, table.language
    items = [_move_button(table, view)]
    label = t(language, "button.hand")  # (one row on a phone: My hand in words, ℹ️ alone)
    items.append(button(gid, version, "hand", label, style=SUCCESS))
    items.append(button(gid, version, "details", "", emoji="ℹ️"))
    if seat_to_take(table.started_game) is not None:  # a late friend may sit down
        items.append(join_button(table, language))
    items += table_buttons(table, version)
    return Message(embed=embed, components=rows(*items))


def join_button(table: Table, language: str) -> dict[str, Any]:
    """The board's Join while a game in play has a seat free, worded in `language`."""
    label = t(language, "button.join")
    return button(table.id, table.version, "join", label, emoji="👋")


def board_details(table: Table) -> Message:
    """The board's Details, privately: the whole table in words (the rocket and its
    chances, the sequence, the depot, the cards, every player, the last actions); once the
    game is over, how it ended above them, and its launches and firsts below."""
    view = table.started_game.public_view()
    now = table.runtime.now()
    if view.phase is Phase.OVER or not table.open:
        told = story.story(table, table.language, now)
        embed = embeds.board_embed(table, view, table.time_left(now), ending=story.board_text(told))
        _final_fields(table, embed, told.firsts)
        return Message(embed=embed)
    embed = embeds.board_embed(table, view, table.time_left(now))
    return Message(embed=embed)


def _final_fields(table: Table, embed: Embed, firsts: Sequence[str]) -> None:
    """A game over's launches summed up under `embed`, and the firsts its people earned."""
    language = table.language
    told = launches.summary(table.history, language)
    if told is not None:
        embed.add_field(name=t(language, "launches.title"), value=told, inline=False)
    if firsts:
        value = "\n".join(firsts)[:FIELD_LIMIT]
        embed.add_field(name=t(language, "firsts.title"), value=value, inline=False)


def _final_board(table: Table, embed: Embed, details: bool) -> Message:
    """The board of a game that is over: `embed`, Play again, and Details (ℹ️) where the
    board is pictured and keeps the rest there."""
    gid, version, language = table.id, table.version, table.language
    again = t(language, "again.button")
    items = [button(gid, version, "again", again, emoji="🔁", style=PRIMARY)]
    if details:
        items.append(button(gid, version, "details", "", emoji="ℹ️"))
    return Message(embed=embed, components=rows(*items, *table_buttons(table, version)))


def _move_button(table: Table, view: PublicView) -> dict[str, Any]:
    """The board's move: Discard… while a discard is due (it opens the hand panel), else
    Draw 2, disabled when it cannot be played now."""
    gid, version, language = table.id, table.version, table.language
    if view.phase is Phase.DISCARD:
        label = t(language, "button.discard_menu")
        return button(gid, version, "discard", label, style=DANGER)
    playing = view.phase is Phase.PLAY
    draw = t(language, "button.draw")  # (its words alone: the board's buttons on one row)
    return button(gid, version, "draw", draw, style=PRIMARY, disabled=not playing)


def board_stub(table: Table) -> Message:
    """An older board once a newer one is live below it: one line linking to that one,
    in place of the embed, the buttons and the picture."""
    language = table.language
    if table.messages.board_id is None:
        text = t(language, "stub.dead")
    else:
        link = render.message_link(table.guild_id, table.channel_id, table.messages.board_id)
        text = t(language, "stub.moved", id=table.id, link=link)
    return Message(content=text, whole=True, mentions=None)


def leave_question(table: Table, player: int, language: str) -> Message:
    """What `/apophis leave` (and the live table's Leave) asks `player` mid-game, privately:
    Leave (their cards go to the discard pile), A crewmate takes my seat (with those cards;
    offered while another person plays on) or Stay."""
    started = table.started_game
    cards = len(started.hands[started.players.index(player)])
    crew = any(not is_crewmate(p) and p != player for p in started.players)
    game, version = table.id, table.version
    leave = t(language, "leave.confirm.leave")
    stay = t(language, "leave.confirm.stay")
    asked = [t(language, "leave.confirm", count=cards)]
    buttons = [button(game, version, "leave", leave, emoji="🚪", style=DANGER, kind="q")]
    if crew:
        asked.append(t(language, "leave.confirm.crew_line"))
        label = t(language, "leave.confirm.crew")
        buttons.append(button(game, version, "crew", label, emoji="🤖", style=PRIMARY, kind="q"))
    buttons.append(button(game, version, "stay", stay, style=SECONDARY, kind="q"))
    return Message(content="\n".join(asked), components=rows(*buttons))


def _reroll_buttons(
    game_id: int, version: int, rerolls: int, language: str
) -> list[dict[str, Any]]:
    reroll = t(language, "button.reroll", left=rerolls)
    return [
        button(game_id, version, "reroll", reroll, emoji="🛟", style=PRIMARY, kind="l"),
        button(game_id, version, "accept", t(language, "button.accept"), emoji="✔️", kind="l"),
    ]


def launch_report(table: Table, report: Report) -> Message:
    """The launch told step by step, in the report's language; Reroll / Accept while a
    decision is pending. Folded, one line saying what came of it (bot.views.launches)."""
    if report.folded:
        line = launches.folded_line(report.events, report.language)
        return Message(content=line or render.report_title(report.language), whole=True)
    game = table.game
    pending = game is not None and game.phase is Phase.REROLL and table.open
    items = []
    if pending and game is not None:
        rerolls = (game.public_view().pending or {})["rerolls"]
        items = _reroll_buttons(table.id, table.version, rerolls, report.language)
    embed = embeds.launch_embed(report.language, report.lines, finished=not pending)
    return Message(embed=embed, components=rows(*items))
