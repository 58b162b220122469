"""The live table's messages, typed once: what the server sends the web client, and what it reads.

bot.views.web_state builds the state (`State`, a public part and a viewer's own); bot.web's
sockets send the others (`Welcome`, `Result`, `Refused`, `Pong`) and read the client's
(`Hello`, `Move`, `Ping`). The web client's bot/web/client/src/protocol.ts is the same, written in
TypeScript: tests/web/test_protocol.py compares the two field by field, and the tests'
sockets (tests/web/helpers.py) check every message they receive against these types.

A string field that takes one of a few values says which (`OneOf`: protocol.ts writes them
as a union of string literals); the engine's enums give theirs. A field that may be missing
is `NotRequired` (protocol.ts: `name?: type`); one that is there as null, `X | None`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal, NotRequired, TypedDict

from engine import Colour, Outcome, Phase, Rules


@dataclass(frozen=True, slots=True)
class OneOf:
    """The values a string field may take."""

    values: tuple[str, ...]


#: A colour of the cards and the rocket's sections, by the engine's name.
ColourName = Annotated[str, OneOf(tuple(Colour))]
RulesName = Annotated[str, OneOf(tuple(Rules))]
#: A channel's table: none, a lobby, a game in play, or over (with a result, or without).
Status = Annotated[str, OneOf(("none", "lobby", "active", "finished", "abandoned"))]
Language = Annotated[str, OneOf(("en", "fr"))]


class User(TypedDict):
    id: str
    name: str
    locale: NotRequired[str]


# ----------------------------------------------------------- Discord's components


class Emoji(TypedDict):
    name: str


class Button(TypedDict):
    """A Discord message component, as the hand panel builds it (bot.views.components)."""

    type: Literal[2]
    style: Literal[1, 2, 3, 4]
    label: str
    emoji: NotRequired[Emoji]
    custom_id: str
    disabled: NotRequired[bool]


class SelectOption(TypedDict):
    label: str
    value: str
    emoji: NotRequired[Emoji]
    description: NotRequired[str]
    #: The one chosen now (a lobby's setting).
    default: NotRequired[bool]


class Select(TypedDict):
    type: Literal[3]
    custom_id: str
    placeholder: NotRequired[str]
    min_values: NotRequired[int]
    max_values: NotRequired[int]
    options: list[SelectOption]


class ActionRow(TypedDict):
    type: Literal[1]
    components: list[Component]


Component = Button | Select | ActionRow


# ----------------------------------------------------------------- the state


class Seat(TypedDict):
    id: str
    name: str
    cards: int | None
    active: bool
    crewmate: bool
    autopilot: bool
    host: bool
    #: The picture they chose, a path under Discord's CDN (None: their initial is shown).
    avatar: str | None
    #: Their latest signal to the team that still stands, in the page's language
    #: (bot.views.talk; None: none).
    said: str | None


class Piece(TypedDict):
    colour: ColourName
    size: int


class Section(Piece):
    """A section of the rocket, and who built it."""

    builder: str | None


class Slot(TypedDict):
    """A card of the launch sequence, and who played it."""

    colour: ColourName
    player: str | None


class Table(TypedDict):
    rules: RulesName
    phase: Annotated[str, OneOf(tuple(Phase))]
    outcome: Annotated[str, OneOf(tuple(Outcome))] | None
    apophis: int
    damage: int
    damage_to_destroy: int
    counters: int
    counters_to_deflect: int
    rocket: list[Section]
    points: int
    fuel: int
    fuel_needed: int
    sequence: list[Slot]
    depot: list[Piece]
    deck: int
    discard: int


class Check(TypedDict):
    step: str
    die: int | None
    #: Each part of the sum: the engine's name, its value, its name in the page's language.
    parts: list[tuple[str, int, str]]
    total: int
    target: int
    below: bool
    success: bool | None
    #: What came of it, in words.
    verdict: str


class Report(TypedDict):
    lines: list[str]
    open: bool
    checks: list[Check]


class StoryLaunch(TypedDict):
    sections: list[Piece]
    points: int
    result: str
    line: str


class Story(TypedDict):
    """A game's story, once it is over (bot.views.story)."""

    outcome: str | None
    won: bool
    headline: str
    launches: list[StoryLaunch]
    damage: int
    damage_needed: int
    counters: int | None
    counters_needed: int | None
    time_left: int | None
    short: str | None
    #: The firsts its people earned with it, a line for each set and who earned it.
    firsts: list[str]


class Card(TypedDict):
    card: str
    label: str
    colour: ColourName


class Settings(TypedDict):
    rules: RulesName
    difficulty: str
    minutes: int


class Texts(TypedDict):
    rocket: str | None
    next: str | None
    result: str | None
    recent: list[str]


class Leaving(TypedDict):
    """What leaving a game in play asks first: its words and its answers (their custom ids
    are the question's, as `/apophis leave` asks it in Discord)."""

    question: str
    moves: list[Component]


class First(TypedDict):
    """A newcomer's welcome, once: its line, and the rocket that can launch in words (the
    client draws the rocket, no card of the viewer's)."""

    line: str
    alt: str


class You(TypedDict):
    """The viewer, signed in; their hand and moves once they play in the game."""

    id: str
    seated: bool
    hand: NotRequired[list[Card]]
    #: The hand panel's moves (bot.views.panel), less its row breaks, Refresh and the Say menu.
    moves: NotRequired[list[Component]]
    #: The Say menu (bot.views.say_menu): the signals they may give the team now.
    say: NotRequired[Select]
    situation: NotRequired[str | None]
    your_turn: NotRequired[bool]
    #: Not seated in a game in play whose seat is free: the seat Join takes, in words.
    drop_in: NotRequired[str]
    #: Seated in a game in play: what leaving it asks first (Leave, a crewmate, Stay).
    leave: NotRequired[Leaving]
    #: A newcomer not yet welcomed: the first-game welcome, until they close it.
    first: NotRequired[First]


class PublicState(TypedDict):
    """What everyone watching a table sees (`web_state.public`)."""

    type: Literal["state"]
    channel: str
    game: int | None
    version: int
    status: Status
    now: float
    deadline: float | None
    remaining: float | None
    time_scale: float
    reshuffle_ends: float | None
    host: str | None
    settings: Settings | None
    seats: list[Seat]
    #: How many watch the table without a seat.
    watching: int
    table: Table | None
    texts: Texts
    report: Report | None
    story: Story | None
    #: Why the lobby offers its difficulty (a first game's), in words; None: it offers none.
    offer: str | None


class OwnState(TypedDict):
    """What only its viewer sees (`web_state.private`)."""

    lobby_moves: list[Component]
    you: You | None


class State(PublicState, OwnState):
    """A channel's table as one viewer sees it: the public part and their own."""


# ------------------------------------------------------------- the other messages


class Welcome(TypedDict):
    type: Literal["welcome"]
    user: User | None
    language: Language
    labels: dict[str, str]


class Result(TypedDict):
    type: Literal["result"]
    id: int
    ok: bool
    note: str


class Refused(TypedDict):
    type: Literal["refused"]
    reason: str
    #: Whether signing in may change the answer (a browser's page not signed in, at a
    #: channel not open to all its server); absent: it would not.
    sign_in: NotRequired[bool]


class Pong(TypedDict):
    type: Literal["pong"]


ServerMessage = Welcome | State | Result | Refused | Pong


class Hello(TypedDict):
    """The client's first message on a socket."""

    type: Literal["hello"]
    #: The channel a browser's page watches (inside Discord, the server asks Discord instead).
    channel: str
    #: Inside Discord, the Activity's instance: the server asks Discord where it runs and
    #: who is in it.
    instance: NotRequired[str]
    session: str | None
    language: Language | None


class Move(TypedDict):
    type: Literal["move"]
    id: int
    version: int
    custom_id: str
    values: NotRequired[list[str]]


class Ping(TypedDict):
    """Sent now and then to keep proxies from closing an idle socket (answered `Pong`)."""

    type: Literal["ping"]


class Welcomed(TypedDict):
    """A newcomer closed the first game's welcome: it is not shown to them again."""

    type: Literal["welcomed"]


ClientMessage = Hello | Move | Ping | Welcomed
