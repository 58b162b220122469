"""What happened, in words: events told publicly, launch checks, a player's own hand changes.

Pure functions of the engine's events. Public lines use events as the public sees them
(`Event.seen_by(None)`), so no card of a hand can reach them; a player's own changes
(cards drawn, paid, discarded) are kept as a message key and its cards, and worded
only when shown, in that player's language and the server's card display.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.i18n.catalogs import has, t
from bot.table import Change
from bot.views.render import COLOUR_EMOJI, and_list, cards_text, mention, section_text
from engine import Colour, Outcome
from engine import events as ev

BEGAN: Change = ("change.began", ())


def narrate_event(event: ev.Event, language: str) -> str | None:
    """One event told publicly, or None for events not worth a line."""
    match event.seen_by(None):
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
            return t(
                language, "event.built", player=mention(p), section=section_text(c, s, language)
            )
        case ev.SequenceExtended(player=p, added=added, colours=colours):
            played = " ".join(COLOUR_EMOJI[Colour(c)] for c in added)
            return t(
                language, "event.sequence", player=mention(p), played=played, length=len(colours)
            )
        case ev.RocketScrapped(player=p, sections=s, cards=n):
            return t(language, "event.scrapped", player=mention(p), sections=s, cards=n)
        case ev.LaunchStarted(total=total, rerolls=r):
            if r:
                return t(language, "event.launch_rerolls", total=total, count=r)
            return t(language, "event.launch", total=total)
        case ev.LaunchStep():
            return step_text(event, language)
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
        case ev.TurnSkipped(player=p):
            return t(language, "event.skipped", player=mention(p))
        case ev.PlayerRemoved(player=p, cards=n):
            return t(language, "event.left", player=mention(p), count=n)
        case ev.GameWon(reason=reason):
            return t(
                language, "event.destroyed" if reason == Outcome.DESTROYED else "event.deflected"
            )
        case ev.GameLost():
            return t(language, "event.lost")
        case ev.GameAbandoned(reason=reason):
            key = "abandoned." + str(reason).lower().replace(" ", "_")
            return t(language, key) if has(key) else t(language, "abandoned.other")
    return None


def _step(step: str, language: str) -> str:
    """A launch check's name inside a sentence ("the accuracy roll")."""
    return t(language, f"step.{step}.inline")


def step_text(step: ev.LaunchStep, language: str) -> str:
    """One launch check, with its numbers: "Accuracy: 🎲 2 + Apophis 3 + guidance 1 = 6 ..."."""
    name = t(language, f"step.{step.step}")
    if step.success is None:
        return t(language, "step.skipped", name=name)
    if step.die is None:  # the fuel check has no die
        parts = dict(step.parts)
        return t(
            language,
            "step.fuel_enough" if step.success else "step.fuel_short",
            name=name,
            fuel=parts["booster fuel"],
            points=parts["rocket points"],
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


def hand_changes(events: Iterable[ev.Event], player: int) -> list[Change]:
    """What happened to one player's hand, to be worded for them (`change_text`)."""
    changes: list[Change] = []
    for event in events:
        if getattr(event, "player", None) != player:
            continue
        if isinstance(event, ev.CardsDrawn):
            changes.append(("change.drew", tuple(event.cards)))
        elif isinstance(event, ev.CardsDiscarded):
            key = "change.discarded_for_you" if event.forced else "change.discarded"
            changes.append((key, tuple(event.cards)))
        elif isinstance(event, ev.SectionBuilt):
            changes.append(("change.built", tuple(event.cards)))
        elif isinstance(event, ev.SequenceExtended):
            changes.append(("change.sequence", tuple(event.cards)))
        elif isinstance(event, ev.PlayerRemoved):
            changes.append(("change.left", ()))
    return changes


def change_text(change: Change, language: str, style: str) -> str:
    """One change of a hand in its owner's words ("you drew 7♥ and K♠")."""
    key, cards = change
    if not cards:
        return t(language, key)
    return t(
        language, key, cards=and_list([cards_text((c,), language, style) for c in cards], language)
    )


def private_note(events: Sequence[ev.Event], player: int, language: str, style: str) -> str:
    """What an action did, told to the player who made it ("You drew 7♥ and K♠.")."""
    said = [change_text(c, language, style) for c in hand_changes(events, player)]
    note = "; ".join(said)
    note = t(language, "note.sentence", text=note[:1].upper() + note[1:]) if note else ""
    if any(isinstance(e, ev.LaunchStarted) for e in events):
        note += " " + t(language, "note.launch")
    elif any(isinstance(e, ev.RocketScrapped) for e in events):
        note += " " + t(language, "note.scrapped")
    return note.strip() or t(language, "note.done")
