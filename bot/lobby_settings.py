"""A lobby's settings: one table of options, and the `LobbySettings` value they make up.

Each option a lobby's host chooses is one row of `OPTIONS`: its name (the field of
`LobbySettings` and of the game layer's Open and Configure, the action of its select's
custom id, the name of its slash option), the values its select offers, the slash
option's description, the refusal of a value it does not take, and the store's column
that keeps it. The lobby's selects (bot.views.components) and /apophis new's options
(bot.discord.cogs.apophis) are built from the table, the game layer checks what is asked
against it (bot.game.commands), and a click on a select is read by it (bot.game.clicks).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.store.records import LOBBY_MINUTES, RULES
from engine import DIFFICULTY_MINUTES


@dataclass(frozen=True, slots=True)
class LobbySettings:
    """What a lobby is set to: its rules, difficulty and countdown (minutes; a difficulty's
    own, or a custom one that names no difficulty, "custom")."""

    rules: str
    difficulty: str
    minutes: int

    def get(self, option: Option) -> Any:
        """This lobby's value of `option`."""
        return getattr(self, option.name)

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
        return LobbySettings(rules, difficulty, minutes)

    def as_json(self) -> dict[str, Any]:
        """Each option's value, by its name (the live table's state)."""
        return {option.name: self.get(option) for option in OPTIONS}


@dataclass(frozen=True, slots=True)
class Option:
    """One row of the table of a lobby's options (see the module docstring).

    `choices` are the values as a select offers them (strings), `read` turns one into the
    setting's value; `help` is the slash option's description; `refusal` the catalog key
    (and its words) of a value not taken; `column` the games table's column the store
    keeps it in.
    """

    name: str
    choices: tuple[str, ...]
    column: str
    help: str
    refusal: str
    read: Callable[[str], Any] = str
    refusal_words: Mapping[str, Any] | None = None

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
    ),
)
#: Each option by its name.
BY_NAME = {option.name: option for option in OPTIONS}
#: Each difficulty by its countdown, in minutes.
DIFFICULTY_OF = {minutes: name for name, minutes in DIFFICULTY_MINUTES.items()}


def difficulty_for(rules: str, difficulty: str | None) -> str | None:
    """The difficulty asked for with `rules`: advanced rules are meant for 10 minutes, so
    with none asked they get medium's (None: none asked, basic rules)."""
    return "medium" if rules == "advanced" and difficulty is None else difficulty
