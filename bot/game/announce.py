"""What players are told once an action is committed: its public lines, the launch report,
hands, panels and turn pings, and the board; and, when the game ended, its close.

Nothing here reaches the store: the action is saved before any of it is told.
"""

from __future__ import annotations

from bot.game import changes
from bot.game.actions import ActionResult
from bot.game.clocks import Clocks
from bot.game.tables import Tables
from bot.i18n.catalogs import Line, said
from bot.table import Change, Notice, Report, Table
from bot.views import narration, render
from engine import Phase
from engine import events as ev

#: Launch events told in the launch report but left off the board's short history.
_LAUNCH_DETAIL = (
    ev.LaunchStep,
    ev.LaunchStarted,
    ev.RerollOffered,
    ev.RerollUsed,
    ev.RerollDeclined,
)


class Announcer:
    """Publishes what a committed action changed (see the module docstring)."""

    def __init__(self, stream: changes.Stream, tables: Tables, clocks: Clocks) -> None:
        self.stream = stream
        self.tables = tables
        self.clocks = clocks

    def committed(
        self,
        table: Table,
        events: list[ev.GameEvent],
        now: float,
        actor: int | None,
        notice: Notice | None = None,
    ) -> ActionResult:
        """The action's events told (`notice`, a crewmate's, in place of its usual line)."""
        game = table.started_game
        language = table.language
        lines: list[str] = [line for _, line in tell_recent(table, events, notice)]
        table.seats = list(game.players)
        self._tell_report(table, events, actor)
        for player, changed in _hand_changes(events, actor):
            self.stream.publish(changes.HandChanged(table, player, changed))
            if player != actor or player not in game.players:  # (who left: it closes)
                self.stream.publish(changes.PanelChanged(table, player))
        if any(isinstance(e, ev.ReshuffleStarted) for e in events):
            self.clocks.arm_reshuffle(table)
        elif game.phase is not Phase.RESHUFFLE:
            table.runtime.reshuffle_ends = None
        turns = [e.player for e in events if isinstance(e, ev.TurnStarted)]
        skipped = [e.player for e in events if isinstance(e, ev.TurnSkipped)]
        for player in skipped:
            self.stream.publish(changes.PanelChanged(table, player))
        # A turn that comes back to whoever just played is not news; one a skip hands to
        # the skipper is (their panel still names the player they skipped).
        if turns and (turns[-1] != actor or any(p != actor for p in skipped)):
            self.stream.publish(changes.TurnPassed(table, turns[-1]))
            self.stream.publish(changes.PanelChanged(table, turns[-1]))
        outcome = game.outcome
        if outcome is not None:  # the game is over
            table.remaining = remaining = table.time_left(now)
            table.deadline = None
            table.status = "abandoned" if outcome.value == "abandoned" else "finished"
            self.tables.forget(table)
            if outcome.won and remaining is not None:  # (a game won had its clock running)
                left = said(language, "notice.stopped", left=render.duration(remaining))
                lines.append(left)
                table.recent.append(left)
            self.stream.publish(changes.TurnPassed(table, None))
            for player in game.players:
                self.stream.publish(changes.HandChanged(table, player, []))
                self.stream.publish(changes.PanelChanged(table, player))
        self.stream.publish(changes.BoardChanged(table))
        return ActionResult(table, events, lines)

    def _tell_report(self, table: Table, events: list[ev.GameEvent], actor: int | None) -> None:
        if tell_report(table, events, actor):
            self.stream.publish(changes.ReportChanged(table))


def _hand_changes(events: list[ev.GameEvent], actor: int | None) -> list[tuple[int, list[Change]]]:
    players: dict[int, None] = {}
    for event in events:
        if isinstance(
            event,
            ev.CardsDrawn
            | ev.CardsDiscarded
            | ev.SectionBuilt
            | ev.SequenceExtended
            | ev.PlayerRemoved,
        ):
            players.setdefault(event.player)
        elif isinstance(event, ev.SeatTaken):  # the hand is its new player's; who left is told
            players.setdefault(event.player)
            if event.seat_of is not None:
                players.setdefault(event.seat_of)
    return [(p, narration.hand_changes(events, p, actor)) for p in players]


def tell_recent(
    table: Table, events: list[ev.GameEvent], notice: Notice | None = None
) -> list[tuple[ev.GameEvent, Line]]:
    """The lines told of an action's events (`notice`, a crewmate's, in place of its usual
    line), the board's last actions told them too."""
    language = table.language
    told = [(e, line) for e in events if (line := narration.told(e, language, notice))]
    recent = [(e, line) for e, line in told if not isinstance(e, _LAUNCH_DETAIL)]
    narration.tell_recent(table.recent, recent, language)
    return told


def tell_report(table: Table, events: list[ev.GameEvent], actor: int | None) -> bool:
    """A launch starts a report; what follows while it is open continues the same one;
    the first move after it (a player's, not a timer's) folds it to one line. Whether the
    report changed."""
    game = table.started_game
    report = table.report
    starts = next((i for i, e in enumerate(events) if isinstance(e, ev.LaunchStarted)), None)
    if starts is not None:
        language = table.language
        launch: list[str] = [line for e in events[starts:] if (line := narration.told(e, language))]
        public = [e.seen_by(None) for e in events[starts:]]
        table.report = report = Report(launch, language, public)
    elif report is not None and report.open:
        report.lines += [line for e in events if (line := narration.told(e, report.language))]
        report.events += [e.seen_by(None) for e in events]
        report.changes += 1
    elif report is not None and not report.folded and actor is not None:
        report.folded = True
        report.changes += 1
    else:
        return False
    report.open = game.phase is Phase.REROLL and not game.is_over
    return True
