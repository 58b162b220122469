"""How long a board picture takes to draw, and how much it weighs.

Run: .venv/bin/python benchmarks/picture_bench.py [--games N] [--sample N] [--policy P]
(on one core: taskset -c 0 .venv/bin/python benchmarks/picture_bench.py)
Tables come from games played by the crew policy (or another of engine.simulate's), both
rule sets, 1 to 4 players, at most 300 actions each (a 15-minute game at 3 s a turn),
each game with its own players' names, as the bot sees them (a crewmate's "Robot 1" is
every game's).
"next" is what the bot pays per action: the games (600 by default, as a busy bot has)
are played again side by side, each table drawn after the one before it in its game,
with the caches warm as in the running bot (only the cache of whole pictures emptied,
as nearly every table is new); it is split into tables where only the bottom band
changed (the cards, the seats and the turn) and the others. The first --sample games
(20) give the other figures: "first" draws each of their tables with the kept bands
emptied too (only the board's parts cached), "cold" with everything emptied, and
"launch" their launch reports. Prints mean (what the CPU pays), p50, p99 and max
milliseconds and the largest PNG.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from itertools import zip_longest

from bot.pictures import board_picture, launch_picture
from bot.pictures.parts import Shown
from engine import Game, Phase, Rules
from engine import events as ev
from engine.simulate import POLICIES

MAX_ACTIONS = 300
#: Each game's players: a long name (shortened to fit), a crewmate (the same in every
#: game), a seat on autopilot; the game's number makes the others its own.
NAMES = ("Ann {}", "Bartholomew the Magnificent {}", "Robot 1", "Chloé {} (autopilot)")


def names(game: int, view) -> tuple[str, ...]:
    """The names on the seats of a table of game number `game`."""
    return tuple(name.format(game) for name in NAMES[: len(view.seats)])


def shown(view, game: int = 0) -> Shown:
    return board_picture.shown(view, "en", names(game, view))


def board(item) -> bytes:
    """The picture of a table, given as (game number, view)."""
    game, view = item
    return board_picture.draw(view, "en", names(game, view))


def games_and_launches(count: int, policy: str):
    """The distinct tables of `count` games, each game's in order, and each game's launches."""
    games, launches = [], []
    play = POLICIES[policy]
    for seed in range(count):
        rules = Rules.BASIC if seed % 2 else Rules.ADVANCED
        players = list(range(1, seed % 4 + 2))
        game, rng = Game.new(players, rules, seed=seed), random.Random(seed)
        tables, last, launched = [], None, []
        for _ in range(MAX_ACTIONS):
            player = game.active_player
            if player is None:  # the game is over
                break
            if game.phase is Phase.RESHUFFLE:  # the 10 seconds' wait ends
                events = game.finish_reshuffle()
            else:
                events = game.apply(play(game.view_for(player), None, rng))
            view = game.public_view()
            if shown(view) != last:
                tables.append(view)
                last = shown(view)
            if any(isinstance(e, ev.LaunchStep) for e in events):
                launched.append(events)
        games.append(tables)
        launches.append(launched)
    return games, launches


def forget(bands: bool = False, parts: bool = False) -> None:
    board_picture.forget(bands=bands, parts=parts)
    launch_picture._launch.cache_clear()


def timed(draw, items, **empty) -> tuple[list[float], int]:
    times, largest = [], 0
    for item in items:
        forget(**empty)
        start = time.perf_counter()
        png = draw(item)
        times.append((time.perf_counter() - start) * 1000)
        largest = max(largest, len(png))
    return times, largest


def next_tables(games) -> dict[str, tuple[list[float], int]]:
    """Each game's tables in turn, the games side by side, as the bot draws them."""
    times: dict[str, list[float]] = {"next": [], "bottom": [], "top": []}
    largest = dict.fromkeys(times, 0)
    previous: dict[int, Shown] = {}
    for step in zip_longest(*games):
        for number, view in enumerate(step):
            if view is None:
                continue
            s = shown(view, number)
            before, previous[number] = previous.get(number), s
            if before is None:
                board((number, view))  # a game's first table: counted in "first"
                continue
            [took], size = timed(board, [(number, view)])
            for name in ("next", "bottom" if _top(before) == _top(s) else "top"):
                times[name].append(took)
                largest[name] = max(largest[name], size)
    return {name: (times[name], largest[name]) for name in times}


def _top(s: Shown) -> tuple:
    return (s.rules, s.damage, s.counters, s.rocket, s.sequence, s.depot, s.outcome)


def report(name: str, times: list[float], largest: int) -> None:
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(
        f"{name:<7} {len(times):>6} pictures   mean {statistics.fmean(times):5.2f} ms   "
        f"p50 {statistics.median(times):5.2f} ms   p99 {p99:5.2f} ms   max {times[-1]:6.2f} ms   "
        f"largest {largest / 1024:5.1f} KB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600, help="games side by side: next")
    parser.add_argument("--sample", type=int, default=20, help="games: first, cold, launch")
    parser.add_argument("--policy", choices=sorted(POLICIES), default="crew")
    args = parser.parse_args()
    games, launches = games_and_launches(max(args.games, args.sample), args.policy)
    sample = [
        (number, view) for number, tables in enumerate(games[: args.sample]) for view in tables
    ]
    board(sample[0])  # sprites, glyphs and the palette are made once per process
    forget(bands=True, parts=True)
    for name, (times, largest) in next_tables(games[: args.games]).items():
        report(name, times, largest)
    report("first", *timed(board, sample, bands=True))
    report("cold", *timed(board, sample, bands=True, parts=True))
    sampled = [events for launched in launches[: args.sample] for events in launched]
    report("launch", *timed(lambda events: launch_picture.draw_launch(events, "en"), sampled))


if __name__ == "__main__":
    main()
