"""How long the bot takes to word a table: hand panels, the board message, hand DMs, `t`.

Run: taskset -c 0 .venv/bin/python benchmarks/render_bench.py [--games N]
Tables come from games played by the crew policy (engine.simulate's), both rule sets,
2 to 4 players, at most 300 actions each, every state of each game kept with its last
actions told on the board, a running clock and a hand's recent changes. Each is worded
as the bot words an action, in English and in French: the panel of the player who acted
and of the one whose turn comes (`panel_message`, as JSON), the board with its picture's
summary line (`board_message`, as JSON), a hand DM with its changes (`hand_dm`), and
a few catalog lookups of each kind (`t`: plain, with a placeholder, with a count, French
elisions). Each table is worded once, as the bot words a version once, after as many
other games were worded to warm the caches that last across versions (the catalogs').
Prints mean (what the CPU pays), p50 and p99 microseconds of each.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from bot.i18n.catalogs import t
from bot.lobby_settings import LobbySettings
from bot.table import Table
from bot.views import components, narration, panel, render
from engine import Game, Phase, Rules
from engine.simulate import crew_policy

MAX_ACTIONS = 300
#: The clock's deadline, an hour after the bench's "now".
NOW = 1_700_000_000.0


@dataclass(frozen=True)
class Moment:
    """A table as the bot holds it just after an action: who acted, whose turn comes, and
    the acting player's hand changes (already kept as keys and cards)."""

    table: Table
    #: The table's game (``table.game``).
    game: Game
    actor: int
    next_player: int
    changes: tuple


def games(seeds: range, language: str) -> Iterator[Moment]:
    """Every state of the games of `seeds` played by the crew, each a table in `language`."""
    for seed in seeds:
        players = [1000 + seed * 10 + i for i in range(seed % 3 + 2)]
        rules = Rules.BASIC if seed % 2 else Rules.ADVANCED
        game = Game.new(players, rules, seed=seed)
        rng = random.Random(seed)
        recent: list[str] = []
        for version in range(1, MAX_ACTIONS):
            if game.is_over:
                break
            if game.phase is Phase.RESHUFFLE:
                events = game.finish_reshuffle()
                actor = players[game.active]
            else:
                actor = players[game.active]
                events = game.apply(crew_policy(game.view_for(actor), None, rng))
            for event in events:
                line = narration.narrate_event(event, language)
                if line is not None:
                    recent.append(line)
            table = Table(
                id=seed + 1,
                guild_id=1,
                channel_id=2 + seed,
                host_id=players[0],
                settings=LobbySettings(rules.value, "medium", 15),
                status="over" if game.is_over else "active",
                seats=list(players),
                version=version,
                game=(held := Game.restore(game.save())),
                deadline=None if game.is_over else NOW + 600 - version,
                remaining=600 - version if game.is_over else None,
                language=language,
                cards="colours" if seed % 4 == 3 else "suits",
            )
            table.recent.extend(recent[-8:])
            table.messages.board_id = 99
            following = actor if game.is_over else players[game.active]
            changes = tuple(narration.hand_changes(events, actor, actor))
            yield Moment(table, held, actor, following, changes)


def panels(moment: Moment) -> None:
    table = moment.table
    panel.panel_message(table, moment.actor, table.language, "Done.", NOW).json()
    panel.panel_message(table, moment.next_player, table.language, None, NOW).json()


def board(moment: Moment) -> None:
    table = moment.table
    view = moment.game.public_view()
    components.board_message(table, NOW, view, pictured=True).json()


def hand_dm(moment: Moment) -> None:
    table = moment.table
    language = table.language
    said = [narration.change_text(c, language, table.cards) for c in moment.changes]
    game = moment.game
    hand = game.view_for(moment.actor).hand if moment.actor in game.players else None
    render.hand_dm(table, hand, said, language)


def lookups(moment: Moment) -> None:
    language = moment.table.language
    t(language, "button.draw")
    t(language, "panel.their_turn", player="<@123>")
    t(language, "count.cards", count=3)
    t(language, "dm.hand", cards="Ada")


#: What is timed, each on every table.
WORK: dict[str, Callable[[Moment], None]] = {
    "panels": panels,
    "board": board,
    "hand_dm": hand_dm,
    "t x4": lookups,
}


def timed(work: Callable[[Moment], None], moments: list[Moment]) -> list[float]:
    """CPU microseconds each table took, worded once (the CPU: other processes share the
    core)."""
    took = []
    for moment in moments:
        start = time.thread_time()
        work(moment)
        took.append((time.thread_time() - start) * 1e6)
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()
    print(f"{'work':<10} {'lang':<4} {'tables':>6} {'mean':>8} {'p50':>8} {'p99':>8}  (µs)")
    for language in ("en", "fr"):
        warm = list(games(range(args.games, 2 * args.games), language))
        moments = list(games(range(args.games), language))
        for name, work in WORK.items():
            timed(work, warm)
            took = sorted(timed(work, moments))
            p99 = took[min(len(took) - 1, round(len(took) * 0.99))]
            print(
                f"{name:<10} {language:<4} {len(took):>6} {statistics.fmean(took):>8.1f}"
                f" {took[len(took) // 2]:>8.1f} {p99:>8.1f}"
            )


if __name__ == "__main__":
    main()
