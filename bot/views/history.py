"""What players read of ended games: a place's last games, and any of them replayed move by move.

A replay is the game played again by the engine from its seed, its start player and its
action log (`Game.apply`, as logged actions are replayed), keeping after each move only
what the public saw: the table's `public_view()` and the events `seen_by(None)`. No hand
is ever read, so no card of one can reach a replay's pictures or words. Playing it again
(`play_again`) reads and writes nothing but its own game, so it may run in a thread; what
it makes is the same in every language (`told` puts it in one).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from bot.errors import UserError
from bot.i18n import said
from bot.i18n.catalogs import t
from bot.pictures import replay_frames
from bot.store.records import GameRecord, LoggedAction
from bot.table import Table
from bot.views import attachments, embeds, render
from bot.views.components import Components, button, rows
from bot.views.message import Embed, Message
from bot.views.narration import narrate_event
from engine import Game, IllegalMove, PublicView
from engine import events as ev

log = logging.getLogger(__name__)

#: How many games /apophis history lists.
GAMES = 10
#: Discord's longest embed description.
DESCRIPTION_LIMIT = 4096
ALT_LIMIT = 1024
#: A history's title, and what it says when it lists no game, by the place whose games it
#: lists (bot.game.ledger's SERVER, CONVERSATION).
HISTORY_KEYS = {
    "server": ("history.title", "history.none"),
    "conversation": ("history.title_conversation", "history.none_conversation"),
}


@dataclass(frozen=True, slots=True)
class Move:
    """The table after one move (the first: after the deal), and what the move caused, as
    the public saw them."""

    view: PublicView
    events: tuple[ev.GameEvent, ...]


@dataclass(frozen=True, slots=True)
class Replay:
    """An ended game played again: `moves[0]` is the deal, `moves[n]` the table after the
    n-th logged action. `table` names the seats and says the language it is told in."""

    record: GameRecord
    table: Table
    moves: tuple[Move, ...]

    @property
    def steps(self) -> int:
        """How many moves the game had (the last step's number)."""
        return len(self.moves) - 1


# ------------------------------------------------------------------- history


def history_embed(records: Sequence[GameRecord], place: str, language: str) -> Embed:
    """The last games of a place (bot.game.ledger's SERVER or CONVERSATION: its title says
    which), the latest first: each with its number, result, rules, difficulty, team and
    when it ended."""
    title, none = HISTORY_KEYS[place]
    embed = Embed(title=t(language, title), colour=embeds.EMBED_COLOUR)
    if not records:
        embed.description = t(language, none)
        return embed
    lines = [
        t(
            language,
            "history.line",
            id=record.id,
            result=result_text(record, language),
            kind=kind_text(record, language),
            team=team_text(record),
            ended=said.moment(int(record.ended_at or 0)),
        )
        for record in records
    ]
    embed.description = "\n".join(lines)[:DESCRIPTION_LIMIT]
    embed.set_footer(text=t(language, "history.footer"))
    return embed


def result_text(record: GameRecord, language: str) -> str:
    """How an ended game went: won with the time left (and whose launch won it), or how far
    short of winning it fell (Apophis's damage, and the deflection counters under basic
    rules)."""
    assert record.state is not None  # a game that started has one
    view = Game.restore(record.state).public_view()  # the table as the game ended
    key = f"history.result.{record.outcome}"
    if record.outcome in ("lost", "abandoned"):
        key += f".{record.rules}"
    player = winner(view)
    if player is not None:
        key += "_by"
    left = render.duration(record.clock_remaining or 0)
    named = render.mention(player) if player is not None else ""
    return t(language, key, left=left, damage=view.damage, counters=view.counters, player=named)


def winner(view: PublicView) -> int | None:
    """Who launched the rocket that won a won game: the last rocket launched, whose last
    launch-sequence card started its launch (None: lost, or not recalled)."""
    if view.outcome is None or not view.outcome.won or not view.past_rockets:
        return None
    last = view.past_rockets[-1]
    return last.sequence_players[-1] if last.launched and last.sequence_players else None


def kind_text(record: GameRecord, language: str) -> str:
    """The game's rules and difficulty in words."""
    return t(
        language,
        "history.kind",
        rules=t(language, f"rules.{record.rules}"),
        difficulty=t(language, f"difficulty.{record.difficulty}").lower(),
    )


def team_text(record: GameRecord) -> str:
    """Everyone who took a seat, as the channel shows them (a crewmate as "🤖 Robot 1")."""
    return ", ".join(render.mention(player) for player in record.starting_players)


# ------------------------------------------------------------------- replays


def check_replayable(record: GameRecord) -> None:
    """UserError unless the game started and has ended."""
    if record.status == "active":
        raise UserError("replay.error.in_play", id=record.id)
    if record.started_at is None:
        raise UserError("replay.error.never_started", id=record.id)


def replay(record: GameRecord, actions: Sequence[LoggedAction], language: str) -> Replay:
    """The ended game of `record` played again from its log, told in `language`.

    UserError when the log no longer plays out to the stored result (rules changed since).
    """
    moves = play_again(record, actions)
    if moves is None:
        raise UserError("replay.error.unreplayable", id=record.id)
    return told(record, moves, language)


def ended(record: GameRecord) -> bool:
    """Whether the game of `record` started and has ended: one with a replay."""
    return record.status != "active" and record.started_at is not None


def play_again(record: GameRecord, actions: Sequence[LoggedAction]) -> tuple[Move, ...] | None:
    """The moves of the ended game of `record`, played again from its log: the deal, then
    the table after each logged action, as the public saw them. Touches nothing shared.

    None when the log no longer plays out to the stored result (rules changed since).
    """
    moves = []
    assert record.seed is not None  # a game that started has one
    try:
        game = Game.new(
            list(record.starting_players),
            record.rules,
            seed=record.seed,
            start_player=record.start_player,
        )
        moves.append(Move(game.public_view(), ()))
        for entry in actions:
            events = game.apply(entry.action)
            moves.append(Move(game.public_view(), tuple(e.seen_by(None) for e in events)))
    except IllegalMove as exc:
        log.warning("game %s cannot be replayed: %s", record.id, exc.code)
        return None
    if game.outcome is None or game.outcome.value != record.outcome:
        log.warning("game %s replays to %s, not %s", record.id, game.outcome, record.outcome)
        return None
    return tuple(moves)


def told(record: GameRecord, moves: tuple[Move, ...], language: str) -> Replay:
    """The game of `record`, whose `moves` were played again, told in `language`."""
    table = Table.from_record(record)
    table.language = language
    return Replay(record, table, moves)


def frames(played: Replay, shown: int | None = None) -> Iterator[tuple[bytes, int]]:
    """The animation's pictures (PNG) and how long each shows (bot.pictures.replay_frames):
    every move's, or at most `shown` moves' (`replay_frames.plan`): the first ones and
    the last, the first after the gap saying which were left out."""
    table = played.table
    names = functools.partial(attachments.seat_names, table)
    return replay_frames.frames(played.moves, table.language, names, shown or played.steps + 1)


def animation_message(played: Replay, gif: bytes) -> Message:
    """The replay as first posted: the whole game animated, and ▶ to step through it."""
    record, language = played.record, played.table.language
    moves = t(language, "replay.moves", count=played.steps)
    result = result_text(record, language)
    embed = Embed(
        title=t(language, "replay.title", id=record.id),
        description=t(
            language,
            "replay.description",
            result=result,
            kind=kind_text(record, language),
            team=team_text(record),
            moves=moves,
        ),
        colour=embeds.EMBED_COLOUR,
    )
    alt = t(language, "replay.alt", id=record.id, moves=moves, result=result)
    picture = attachments.Picture(f"apophis-replay-{record.id}.gif", gif, alt[:ALT_LIMIT])
    embed.set_image(url=f"attachment://{picture.filename}")
    buttons = step_buttons(played, None)
    return Message(embed=embed, components=buttons, picture=picture, whole=True)


def step_message(played: Replay, step: int) -> Message:
    """One step of the replay: the board picture after that move, and the move in words."""
    table, move = played.table, played.moves[step]
    language = table.language
    if step == 0:
        title = t(language, "replay.step.deal_title", id=table.id)
        lines = [t(language, "replay.step.deal", player=render.whose_turn(move.view))]
    else:
        title = t(language, "replay.step.title", id=table.id, step=step, steps=played.steps)
        lines = [line for event in move.events if (line := narrate_event(event, language))]
    embed = Embed(
        title=title,
        description="\n".join(lines)[:DESCRIPTION_LIMIT] or None,
        colour=embeds.EMBED_COLOUR,
    )
    picture = attachments.picture_of(table, move.view)
    embed.set_image(url=f"attachment://{picture.filename}")
    buttons = step_buttons(played, step)
    return Message(embed=embed, components=buttons, picture=picture, whole=True)


def step_buttons(played: Replay, step: int | None) -> Components:
    """◀ and ▶, each carrying the step it shows (`step` None: the animation, before the
    deal); ◀ is disabled at the deal, ▶ at the end."""
    language, game_id = played.table.language, played.record.id
    at_start, at_end = step is None or step == 0, step == played.steps
    before = 0 if step is None or step == 0 else step - 1
    after = 0 if step is None else min(step + 1, played.steps)
    previous = t(language, "replay.button.previous")
    following = t(language, "replay.button.next")
    return rows(
        button(game_id, before, "prev", previous, emoji="◀️", kind="r", disabled=at_start),
        button(game_id, after, "next", following, emoji="▶️", kind="r", disabled=at_end),
    )
