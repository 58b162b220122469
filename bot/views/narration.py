"""What happened, in words: events told publicly, launch checks, a player's own hand changes.

Pure functions of the engine's events. Public lines use events as the public sees them
(`GameEvent.seen_by(None)`), so no card of a hand can reach them; a player's own changes
(cards drawn, paid, discarded) are kept as a message key and its cards, and worded
only when shown, in that player's language and the server's card display. A crewmate's
move that comes with a notice (engine.crew's `NOTICES`) is told by the notice instead:
what it did and why, in one line. The board's last actions tell a discard with the draw
that made it due, in one line (`tell_recent`); whoever acts is told privately what their
action did (`private_note`).
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence, Sequence
from typing import Any, TypeAlias, assert_never

from babel.numbers import format_decimal

from bot.i18n.catalogs import Line, has, t
from bot.i18n.said import joined
from bot.table import Change, Notice, is_crewmate
from bot.views.render import (
    COLOUR_EMOJI,
    and_list,
    cards_text,
    count,
    mention,
    percent,
    plan_text,
)
from engine import Colour, Outcome, Size
from engine import events as ev

BEGAN: Change = ("change.began", ())

#: The events each of `narrate_event`'s tellers tells; with TurnStarted, told in no line,
#: every event (mypy checks that none is left out).
_Move: TypeAlias = (
    ev.CardsDrawn
    | ev.ReshuffleStarted
    | ev.ReshuffleFinished
    | ev.DiscardRequired
    | ev.CardsDiscarded
    | ev.SectionBuilt
    | ev.SequenceExtended
    | ev.RocketScrapped
)
_Launch: TypeAlias = (
    ev.LaunchStarted
    | ev.LaunchStep
    | ev.RerollOffered
    | ev.RerollUsed
    | ev.RerollDeclined
    | ev.ApophisDamaged
    | ev.CounterAdded
    | ev.LaunchEnded
)
_Ending: TypeAlias = (
    ev.TurnSkipped | ev.PlayerRemoved | ev.SeatTaken | ev.GameWon | ev.GameLost | ev.GameAbandoned
)


def narrate_event(event: ev.GameEvent, language: str, notice: Notice | None = None) -> str | None:
    """One event told publicly, or None for events not worth a line.

    A crewmate's `notice` tells the event it explains (its scrap, or the cards it played
    toward a risky launch) in place of the usual line.
    """
    if notice is not None and (line := notice_line(event, notice, language)):
        return line
    public = event.seen_by(None)
    if isinstance(public, _Move):
        return _move_line(public, language)
    if isinstance(public, _Launch):
        return _launch_line(public, language)
    if isinstance(public, _Ending):
        return _ending_line(public, language)
    if isinstance(public, ev.TurnStarted):  # the board and the turn's ping say whose turn
        return None
    assert_never(public)


def _move_line(event: _Move, language: str) -> str:
    """A turn's move told (cards drawn or discarded, the deck reshuffled, a rocket built,
    fuelled or scrapped)."""
    match event:
        case ev.CardsDrawn(player=p, count=n):
            return t(language, "event.drew", player=mention(p), count=n)
        case ev.ReshuffleStarted(cards=n, seconds=s):
            return t(language, "event.reshuffle", count=n, seconds=s)
        case ev.ReshuffleFinished(deck_size=n):
            return t(language, "event.reshuffled", count=n)
        case ev.DiscardRequired(player=p, count=n):
            return t(language, "event.must_discard", player=mention(p), count=n)
        case ev.CardsDiscarded(player=p, count=n, forced=forced):
            key = "event.discarded_for" if forced else "event.discarded"
            return t(language, key, player=mention(p), count=n)
        case ev.SectionBuilt(player=p, colour=c, size=s):
            square = COLOUR_EMOJI[Colour(c)]
            return t(
                language,
                "event.built",
                player=mention(p),
                section=_section(c, s, language),
                square=square,
            )
        case ev.SequenceExtended(player=p, added=added, colours=colours):
            played = " ".join(COLOUR_EMOJI[Colour(c)] for c in added)
            return t(
                language, "event.sequence", player=mention(p), played=played, length=len(colours)
            )
        case ev.RocketScrapped(player=p, sections=s, cards=n):
            words = {"player": mention(p), "sections": count(language, "count.sections", s)}
            if n:
                cards = count(language, "count.cards", n)
                return t(language, "event.scrapped_sequence", cards=cards, **words)
            return t(language, "event.scrapped", **words)
        case _:
            assert_never(event)


def _launch_line(event: _Launch, language: str) -> str:
    """A launch's moment told (its start, a check, a reroll offered, used or declined, the
    damage or deflection it did, its end)."""
    match event:
        case ev.LaunchStarted(total=total, rerolls=r):
            line = t(language, "event.launch", count=total)
            return joined(" ", [line, t(language, "event.launch_rerolls", count=r)]) if r else line
        case ev.LaunchStep() as step:
            return step_text(step, language)
        case ev.RerollOffered(player=p, step=step, rerolls=r):
            return t(
                language,
                "event.reroll_offered",
                player=mention(p),
                step=_step(step, language),
                left=r,
            )
        case ev.RerollUsed(player=p, step=step):
            return t(language, "event.reroll_used", player=mention(p), step=_step(step, language))
        case ev.RerollDeclined(player=p, step=step):
            return t(
                language, "event.reroll_declined", player=mention(p), step=_step(step, language)
            )
        case ev.ApophisDamaged(damage=d, value=v):
            if v == 0:
                return t(language, "event.broken")
            return t(language, "event.damaged", damage=d, value=v)
        case ev.CounterAdded(counters=n):
            return t(language, "event.counter", counters=n)
        case ev.LaunchEnded(hit=hit):
            return t(language, "event.launch_over" if hit else "event.launch_failed")
        case _:
            assert_never(event)


def _ending_line(event: _Ending, language: str) -> str:
    """A seat's or the game's end told (a turn skipped, a player gone, the game won, lost
    or abandoned)."""
    match event:
        case ev.TurnSkipped(player=p):
            return t(language, "event.skipped", player=mention(p))
        case ev.PlayerRemoved(player=p, cards=n):
            return t(language, "event.left", player=mention(p), count=n)
        case ev.SeatTaken() as taken:
            return _seat_line(taken, language)
        case ev.GameWon(reason=reason):
            return t(
                language, "event.destroyed" if reason == Outcome.DESTROYED else "event.deflected"
            )
        case ev.GameLost():
            return t(language, "event.lost")
        case ev.GameAbandoned(reason=reason):
            key = "abandoned." + str(reason).lower().replace(" ", "_")
            return t(language, key) if has(key) else t(language, "abandoned.other")
        case _:
            assert_never(event)


def _seat_line(event: ev.SeatTaken, language: str) -> str:
    """A seat that changed hands mid-game, told in public (never its cards, only how many):
    a crewmate plays on for who left, or someone took a crewmate's seat, or a free one."""
    player, seat_of = mention(event.player), event.seat_of
    if seat_of is None:
        return t(language, "event.seat_free", player=player)
    if is_crewmate(event.player):
        return t(
            language, "event.seat_crewed", player=player, left=mention(seat_of), count=event.cards
        )
    return t(language, "event.seat_taken", player=player, seat=mention(seat_of), count=event.cards)


def told(event: ev.GameEvent, language: str, notice: Notice | None = None) -> Line | None:
    """`narrate_event`'s line, kept so that it can be told again in another language."""
    line = narrate_event(event, language, notice)
    if line is None:
        return None
    return Line(language, lambda other: narrate_event(event, other, notice) or "", line)


def notice_line(event: ev.GameEvent, notice: Notice, language: str) -> str | None:
    """A crewmate's move told with its reason, or None if `event` is not the move it explains:
    "♻️ 🤖 Robot 1 scrapped the rocket: it cannot pass the fuel check, …"."""
    params = notice.params
    match event.seen_by(None):
        case ev.RocketScrapped(player=p) if notice.code.startswith("scrap_"):
            key = "crew.scrapped_own" if notice.code == "scrap_restart" else "crew.scrapped"
            why = scrap_reason(notice.code, params, notice.plan, language)
            return t(language, key, player=mention(p), why=why)
        case ev.SequenceExtended(player=p, added=added, colours=colours) if (
            notice.code == "launch_risky"
        ):
            if params.get("explode"):
                key = "crew.launch_risky_explode"
            elif params.get("deflect"):
                key = "crew.launch_risky_deflect"
            else:
                key = "crew.launch_risky"
            return t(
                language,
                key,
                player=mention(p),
                played=" ".join(COLOUR_EMOJI[Colour(c)] for c in added),
                length=len(colours),
                success=percent(params["success"], language),
                explode=percent(params.get("explode", 0.0), language),
            )
    return None


def scrap_reason(
    code: str, params: dict[str, Any], plan: Sequence[tuple[str, int]], language: str
) -> str:
    """Why a rocket is scrapped (a scrap notice of engine.crew and its parameters; `plan`
    the rocket aimed for after it), as a clause: "it cannot pass the fuel check, …"."""
    if code == "scrap_no_fuel":
        return t(
            language,
            "crew.why.no_fuel",
            count=params["points"],
            fuel=params["fuel"],
            needed=params["needed"],
        )
    if code == "scrap_no_warhead":
        warheads = " ".join(COLOUR_EMOJI[Colour(c)] for c in params["warheads"])
        return t(language, "crew.why.no_warhead", warheads=warheads)
    if code == "scrap_sequence_dead":
        return t(
            language,
            f"crew.why.sequence_dead.{params['cause']}",
            fuel=params["fuel"],
            needed=params["needed"],
        )
    if code == "scrap_too_late":
        return t(
            language,
            "crew.why.too_late",
            count=params["turns_needed"],
            left=params["turns_left"],
            plan=plan_text(plan, language),
        )
    gain = format_decimal(round(params["gain"], 1), locale=language)
    return t(language, "crew.why.restart", gain=gain, plan=plan_text(plan, language))


def _section(colour: str, size: int, language: str) -> str:
    """A section in words: "medium red section"."""
    return t(language, f"section.{colour}.{Size(size).label}")


def _step(step: str, language: str) -> str:
    """A launch check's name inside a sentence ("the accuracy roll")."""
    return t(language, f"step.{step}.inline")


def step_text(step: ev.LaunchStep, language: str) -> str:
    """One launch check, with its numbers: "Accuracy: 🎲 2 + Apophis's value 3 + guidance 1 =
    6 (needs 7) — miss."."""
    name = t(language, f"step.{step.step}")
    if step.success is None:  # no section of the step's colour: damage or deflection
        return t(language, f"step.skipped.{step.step}", name=name)
    if step.die is None:  # the fuel check has no die
        parts = dict(step.parts)
        return t(
            language,
            "step.fuel_enough" if step.success else "step.fuel_short",
            name=name,
            fuel=parts["booster fuel"],
            count=parts["rocket points"],
            target=step.target,
        )
    sum_text = " + ".join(
        f"🎲 {value}"
        if label == "die"
        else f"{t(language, 'part.' + label.lower().replace(' ', '_'))} {value}"
        for label, value in step.parts
    )
    if step.below:
        key = "step.flies" if step.success else "step.explodes"
    else:
        key = f"step.{step.step}.{'yes' if step.success else 'no'}"
    kind = t(language, "step.below" if step.below else "step.needs", target=step.target)
    verdict = t(language, key)
    return t(
        language, "step.line", name=name, sum=sum_text, total=step.total, kind=kind, verdict=verdict
    )


# ------------------------------------------------------------- a player's own


def hand_changes(events: Iterable[ev.GameEvent], player: int, actor: int | None) -> list[Change]:
    """What happened to one player's hand, to be worded for them (`change_text`); `actor`
    made the move (a player removed by someone else is told so)."""
    changes: list[Change] = []
    for event in events:
        match event:
            case ev.CardsDrawn(player=p, cards=cards) if p == player:
                changes.append(("change.drew", cards))
            case ev.CardsDiscarded(player=p, cards=cards, forced=forced) if p == player:
                key = "change.discarded_for_you" if forced else "change.discarded"
                changes.append((key, cards))
            case ev.SectionBuilt(player=p, cards=cards) if p == player:
                changes.append(("change.built", cards))
            case ev.SequenceExtended(player=p, cards=cards) if p == player:
                changes.append(("change.sequence", cards))
            case ev.PlayerRemoved(player=p) if p == player:
                changes.append(("change.left" if actor == player else "change.removed", ()))
            case ev.SeatTaken(player=p, seat_of=seat_of) if p == player:
                changes.append(("change.took_seat" if seat_of else "change.took_free_seat", ()))
            case ev.SeatTaken(seat_of=p) if p == player:
                changes.append(("change.handed_over", ()))
    return changes


def change_text(change: Change, language: str, style: str) -> str:
    """One change of a hand in its owner's words ("you drew 7♥ and K♠")."""
    key, cards = change
    if not cards:
        return t(language, key)
    return t(language, key, count=len(cards), cards=_cards(cards, language, style))


def _cards(cards: Sequence[str], language: str, style: str) -> str:
    """Cards named one by one: "7♥ and K♠"."""
    return and_list([cards_text((c,), language, style) for c in cards], language)


def private_note(events: Sequence[ev.GameEvent], player: int, language: str, style: str) -> str:
    """What an action did, told to the player who made it: "You drew 7♥; the deck ran out:
    …", "You built the medium red section with 7♥ and 8♥.", "🛟 You rerolled. Accuracy: …".

    Only they see it, so it names the cards that left or entered their hand."""
    said = []
    for event in events:
        if isinstance(event, ev.SectionBuilt) and event.player == player:
            section = _section(event.colour, event.size, language)
            cards = _cards(event.cards, language, style)
            said.append(t(language, "note.built", section=section, cards=cards))
        elif isinstance(event, ev.ReshuffleStarted) and event.player == player:
            said.append(t(language, "note.reshuffle", seconds=event.seconds))
        else:
            changes = hand_changes([event], player, player)
            said += [change_text(c, language, style) for c in changes]
    text = t(language, "list.semicolon").join(said)
    notes = [t(language, "note.sentence", text=text[:1].upper() + text[1:])] if text else []
    for at, event in enumerate(events):
        if isinstance(event, ev.RerollUsed):  # the rerolled check comes next
            step = next(e for e in events[at:] if isinstance(e, ev.LaunchStep))
            notes.append(t(language, "note.rerolled", line=step_text(step, language)))
        elif isinstance(event, ev.RerollDeclined):
            notes.append(t(language, "note.accepted", step=_step(event.step, language)))
    if any(isinstance(e, ev.LaunchStarted) for e in events):
        notes.append(t(language, "note.launch"))
    elif any(isinstance(e, ev.RocketScrapped) for e in events):
        notes.append(t(language, "note.scrapped"))
    return " ".join(notes)


# ------------------------------------------------------------- the board's last actions


def _drew_discarded(language: str, player: str, drawn: int, discarded: int) -> Line:
    """One line for a draw and the discard it made due."""
    return Line(
        language,
        lambda other: t(
            other,
            "event.drew_discarded",
            player=player,
            drawn=count(other, "count.cards", drawn),
            count=discarded,
        ),
    )


def tell_recent(
    recent: MutableSequence[str], told: Iterable[tuple[ev.GameEvent, str]], language: str
) -> None:
    """Add the lines told of some events to the board's last actions.

    A discard is told with the draw that made it due, in one line ("Ann drew 2 cards and
    discarded 2.") in place of the draw's, and the line asking for it is left out: the
    board itself says who must discard, while it is due. Between the two, only the clock
    can have been told (nobody else plays while a discard is due).
    """
    for event, line in told:
        if isinstance(event, ev.DiscardRequired):
            continue
        if isinstance(event, ev.CardsDiscarded) and not event.forced:
            player = mention(event.player)
            draws = {  # a draw takes two cards, or one on each side of a reshuffle
                t(language, "event.drew", player=player, count=n): n for n in (1, 2)
            }
            at = next((i for i in reversed(range(len(recent))) if recent[i] in draws), None)
            if at is not None:
                line = _drew_discarded(language, player, draws[recent[at]], event.count)
                del recent[at]
        recent.append(line)
