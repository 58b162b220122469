"""A lobby's settings: one table of options, and the `LobbySettings` value they make up.

Each option a lobby's host chooses is one row of `OPTIONS`: its name (the field of
`LobbySettings`, the keyword of the game layer's Open and Configure, the action of its
select's custom id, the name of its slash option), the values its select offers, the
slash option's description, the refusal of a value it does not take, and the games
table's column that keeps it. The store writes and reads a lobby's settings by the table
(bot.store.lobbies, bot.store.games), the lobby's selects (bot.views.components) and
/apophis new's options (bot.discord.cogs.apophis) are built from it, the game layer checks
what is asked against it (bot.game.commands), and a click on a select is read by it
(bot.game.clicks). It sits below the store, so it imports only the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine import DIFFICULTY_MINUTES, Rules

#: The rule sets, stored as the engine's names for them, and the difficulties a lobby may
#: have (a countdown that is no difficulty's is "custom").
RULES = tuple(rules.value for rules in Rules)
DIFFICULTIES = (*DIFFICULTY_MINUTES, "custom")
#: The countdowns a lobby's host may choose, in minutes: the hardest difficulty's to the
#: easiest's (`/apophis new` takes others, as a custom countdown).
LOBBY_MINUTES = range(min(DIFFICULTY_MINUTES.values()), max(DIFFICULTY_MINUTES.values()) + 1)


@dataclass(frozen=True, slots=True)
class LobbySettings:
    """What a lobby is set to: its rules, difficulty and countdown (minutes; a difficulty's
    own, or a custom one that names no difficulty, "custom"). A field for each of `OPTIONS`."""

    rules: str
    difficulty: str
    minutes: int

    @property
    def seconds(self) -> int:
        """The countdown, in seconds (as the clock runs it and the store keeps it)."""
        return _seconds(self.minutes)

    def get(self, option: Option) -> Any:
        """This lobby's value of `option`."""
        return getattr(self, option.name)

    @classmethod
    def opened(cls, asked: Mapping[str, Any], rules: str, difficulty: str) -> LobbySettings:
        """A new lobby's settings: what its host asked for (`asked`, by option name,
        unchecked), the rest the server's default `rules` and `difficulty` (and each other
        option its own default). A countdown asked for keeps the difficulty asked with it
        only if that is the difficulty's countdown (else custom); advanced rules asked for
        without either get medium's (`difficulty_for`)."""
        rules = asked.get("rules", rules)
        minutes = asked.get("minutes")
        if minutes is None:
            difficulty = difficulty_for(rules, asked.get("difficulty")) or difficulty
            minutes = DIFFICULTY_MINUTES[difficulty]
        elif DIFFICULTY_MINUTES.get(asked.get("difficulty") or "custom") == minutes:
            difficulty = asked["difficulty"]
        else:
            difficulty = "custom"
        return cls(**{**asked, "rules": rules, "difficulty": difficulty, "minutes": minutes})

    def chosen(self, **asked: Any) -> LobbySettings:
        """These settings with what the host chose again (by option name; each checked by
        the caller, what is left out stays): a difficulty sets its countdown, a countdown
        names the difficulty that has it (custom if none does), and advanced rules chosen
        alone get the difficulty they would when opening (`difficulty_for`)."""
        rules = asked.get("rules", self.rules)
        difficulty, minutes = asked.get("difficulty"), asked.get("minutes")
        if "rules" in asked and minutes is None:
            difficulty = difficulty_for(rules, difficulty)
        if minutes is not None:
            difficulty = DIFFICULTY_OF.get(minutes, "custom")
        elif difficulty is not None:
            minutes = DIFFICULTY_MINUTES[difficulty]
        else:
            difficulty, minutes = self.difficulty, self.minutes
        return replace(
            self, **{**asked, "rules": rules, "difficulty": difficulty, "minutes": minutes}
        )

    def as_json(self) -> dict[str, Any]:
        """Each option's value, by its name (the live table's state)."""
        return {option.name: self.get(option) for option in OPTIONS}

    def columns(self) -> dict[str, Any]:
        """Each option's value as the store keeps it, by its column (in `COLUMNS`' order)."""
        return {option.column: option.to_column(self.get(option)) for option in OPTIONS}

    @classmethod
    def from_columns(cls, row: Mapping[str, Any]) -> LobbySettings:
        """The settings a games row keeps (`row`: its values by column, those of other
        columns not read)."""
        return cls(**{option.name: option.from_column(row[option.column]) for option in OPTIONS})


def _same(value: Any) -> Any:
    return value


def _seconds(minutes: int) -> int:
    return minutes * 60


def _minutes(seconds: int) -> int:
    return round(seconds / 60)


class SetUp:
    """What is set up by a lobby's settings (a game's record, a table): its rules,
    difficulty and countdown, read from its `settings`."""

    __slots__ = ()
    settings: LobbySettings

    @property
    def rules(self) -> str:
        return self.settings.rules

    @property
    def difficulty(self) -> str:
        return self.settings.difficulty

    @property
    def length_seconds(self) -> int:
        return self.settings.seconds


@dataclass(frozen=True, slots=True)
class Option:
    """One row of the table of a lobby's options (see the module docstring).

    `choices` are the values as a select offers them (strings), `read` turns one into the
    setting's value; `help` is the slash option's description; `refusal` the catalog key
    (and its words) of a value not taken; `column` the games table's column the store
    keeps it in, `to_column` the value as kept there and `from_column` back.
    """

    name: str
    choices: tuple[str, ...]
    column: str
    help: str
    refusal: str
    read: Callable[[str], Any] = str
    refusal_words: Mapping[str, Any] | None = None
    to_column: Callable[[Any], Any] = _same
    from_column: Callable[[Any], Any] = _same

    def takes(self, value: object) -> bool:
        """Whether a lobby may have `value` (of the setting's own type) for this option."""
        return type(value) is type(self.read(self.choices[0])) and str(value) in self.choices


#: Every option a lobby's host chooses, in the order its selects are shown.
OPTIONS = (
    Option(
        "rules",
        RULES,
        column="rules",
        help="Basic rules, or advanced (fail-safe rerolls, no deflection)",
        refusal="settings.unknown_rules",
    ),
    Option(
        "difficulty",
        tuple(DIFFICULTY_MINUTES),
        column="difficulty",
        help="Countdown: "
        + ", ".join(f"{name} {minutes}" for name, minutes in DIFFICULTY_MINUTES.items())
        + " minutes",
        refusal="settings.unknown_difficulty",
    ),
    Option(
        "minutes",
        tuple(str(minutes) for minutes in LOBBY_MINUTES),
        column="length_seconds",
        help="A custom countdown instead, 1 to 60 minutes",
        refusal="settings.bad_minutes",
        read=int,
        refusal_words={"low": LOBBY_MINUTES[0], "high": LOBBY_MINUTES[-1]},
        to_column=_seconds,
        from_column=_minutes,
    ),
)
#: Each option by its name.
BY_NAME = {option.name: option for option in OPTIONS}
#: The games table's columns that keep a lobby's settings, in the options' order.
COLUMNS = tuple(option.column for option in OPTIONS)
#: Each difficulty by its countdown, in minutes.
DIFFICULTY_OF = {minutes: name for name, minutes in DIFFICULTY_MINUTES.items()}


def difficulty_for(rules: str, difficulty: str | None) -> str | None:
    """The difficulty asked for with `rules`: advanced rules are meant for 10 minutes, so
    with none asked they get medium's (None: none asked, basic rules)."""
    return "medium" if rules == "advanced" and difficulty is None else difficulty
