"""The launches of a game in one line each, for its final board (and a launch report once
folded), from its logged events.

Pure: read from the events the store logged (`Table.history`, read back into the engine's
events), so that a game's whole story is told after a restart as well. A launch's
line names who launched it, its rocket (bottom to top), its points and what came of it:
"1. @Ann: 🟥L 🟨M 🟦S, 10 pts → hit, damage 2/3". Only public facts are read (sections and
checks, never the cards a hand paid).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.i18n.catalogs import t
from bot.views.render import COLOUR_EMOJI, mention
from engine import Colour, GameEvent, Size
from engine import events as ev

#: Discord's longest embed field value.
FIELD_LIMIT = 1024
#: The launch checks whose failure ends a launch, and what came of it then (told by the
#: message "launches.<result>").
FAILED_AT = {
    "fuel": "no_fuel",
    "launch": "exploded",
    "accuracy": "missed",
}


@dataclass(slots=True)
class Launch:
    """One launch: who launched it, its rocket's sections (colour, size) bottom to top, its
    points, and what it did (None while it had not ended, e.g. a game ended during a reroll)."""

    player: int
    rocket: list[tuple[str, int]]
    total: int
    #: What came of it when a check failed (FAILED_AT's; None: it hit, or had not ended).
    failed: str | None = None
    ended: bool = False
    #: Apophis's damage and deflection counters after each hit that did something.
    effects: list[tuple[str, int]] = field(default_factory=list)

    @property
    def result(self) -> str:
        """What came of it: "no_fuel", "exploded", "missed", "hit", or "unfinished"."""
        if self.failed is not None:
            return self.failed
        return "hit" if self.ended else "unfinished"


def launches(events: Iterable[GameEvent]) -> list[Launch]:
    """Every launch of a game, in order, from its logged events (oldest first)."""
    rocket: list[tuple[str, int]] = []
    found: list[Launch] = []
    for event in events:
        current = found[-1] if found and not found[-1].ended else None
        match event:
            case ev.SectionBuilt():
                rocket.append((event.colour, event.size))
            case ev.RocketScrapped():
                rocket = []
            case ev.LaunchStarted():
                found.append(Launch(event.player, list(rocket), event.total))
            case _ if current is None:
                continue
            case ev.LaunchStep() if event.step in FAILED_AT:  # a reroll may save it
                current.failed = FAILED_AT[event.step] if event.success is False else None
            case ev.ApophisDamaged():
                current.effects.append(("launches.damage", event.damage))
            case ev.CounterAdded():
                current.effects.append(("launches.counter", event.counters))
            case ev.LaunchEnded():
                current.ended, rocket = True, []
    return found


def launch_line(number: int, launch: Launch, language: str) -> str:
    """One launch's line in `language`: "1. @Ann: 🟥L 🟨M 🟦S, 10 pts → hit, damage 2/3"
    (a person named as mentioned, a crewmate in words)."""
    rocket = " ".join(
        COLOUR_EMOJI[Colour(colour)] + t(language, f"size.short.{Size(size).label}")
        for colour, size in launch.rocket
    )
    return t(
        language,
        "launches.line",
        number=number,
        player=mention(launch.player),
        rocket=rocket,
        count=launch.total,
        result=result_text(launch, language),
    )


def folded_line(events: Iterable[GameEvent], language: str) -> str | None:
    """A launch report folded to one line once the game moved on, from its events (as the
    public sees them): "🚀 @Ann's launch: 🟥3 🟨2, 5 pts → hit, damage 2/3"; None
    without a launch among them."""
    events = list(events)
    started = next((e for e in events if isinstance(e, ev.LaunchStarted)), None)
    found = launches(events)
    if started is None or not found:
        return None
    points = " ".join(f"{COLOUR_EMOJI[Colour(c)]}{p}" for c, p in started.points.items() if p)
    return t(
        language,
        "report.folded",
        player=mention(started.player),
        points=points,
        count=started.total,
        result=result_text(found[0], language),
    )


def result_text(launch: Launch, language: str) -> str:
    """What came of a launch, in words: "hit, damage 2/3", "not enough fuel"..."""
    if launch.failed is not None:
        return t(language, f"launches.{launch.failed}")
    if launch.effects:
        return ", ".join([t(language, "launches.hit"), *effects_text(launch.effects, language)])
    return t(language, "launches.no_effect" if launch.ended else "launches.unfinished")


def effects_text(effects: list[tuple[str, int]], language: str) -> list[str]:
    """What a launch did to Apophis, each counter named once at its value after the launch
    ("damage 2/3"), or from its value before when the launch added to it more than once
    ("deflection 1/5 → 3/5": a basic launch's damage and deflection both add a counter)."""
    reached: dict[str, list[int]] = {}
    for key, value in effects:
        reached.setdefault(key, []).append(value)
    return [
        t(language, key, count=values[-1])
        if len(values) == 1
        else t(language, f"{key}.rise", before=values[0] - 1, count=values[-1])
        for key, values in reached.items()
    ]


def summary(events: Iterable[GameEvent], language: str) -> str | None:
    """The launches' lines as one embed field's value (the latest ones, when they do not
    all fit); None for a game without a launch."""
    lines = [launch_line(n, launch, language) for n, launch in enumerate(launches(events), 1)]
    if not lines:
        return None
    while len(text := "\n".join(lines)) > FIELD_LIMIT:
        lines = ["…", *lines[2:]]
    return text
