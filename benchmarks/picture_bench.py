"""How long a board picture takes to draw, and how much it weighs.

Run: .venv/bin/python benchmarks/picture_bench.py [--games N]
Tables come from random complete games (engine.playout, both rule sets, 1 to 4
players): every distinct table they pass through is drawn once with the picture
cache emptied (the first draw of a table: the cost that counts; the board's parts stay
cached, as in the running bot, and "cold" empties those too), and the launch reports
of those games too. Prints p50, p99 and max milliseconds and the largest PNG.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot import launch_picture, picture
from engine import Game, Rules
from engine import events as ev
from engine.playout import choose_action


def tables_and_launches(count: int):
    """The public views and launch-event lists of `count` random games."""
    views, launches = {}, []
    for seed in range(count):
        rules = Rules.BASIC if seed % 2 else Rules.ADVANCED
        game, rng = Game.new(list(range(seed % 4 + 1)), rules, seed=seed), random.Random(seed)
        while not game.is_over and len(views) < 100_000:
            events = game.apply(choose_action(game, rng))
            view = game.public_view()
            views.setdefault(picture.shown(view, "en"), view)
            if any(isinstance(e, ev.LaunchStep) for e in events):
                launches.append(events)
    return list(views.values()), launches


def timed(draw, items, cold: bool = False) -> tuple[list[float], int]:
    times, largest = [], 0
    for item in items:
        picture._board.cache_clear()
        launch_picture._launch.cache_clear()
        if cold:
            picture._parts.clear()
        start = time.perf_counter()
        png = draw(item)
        times.append((time.perf_counter() - start) * 1000)
        largest = max(largest, len(png))
    return times, largest


def report(name: str, times: list[float], largest: int) -> None:
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(
        f"{name:<7} {len(times):>6} pictures   p50 {statistics.median(times):5.2f} ms   "
        f"p99 {p99:5.2f} ms   max {times[-1]:6.2f} ms   largest {largest / 1024:5.1f} KB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    views, launches = tables_and_launches(args.games)
    picture.draw(views[0], "en")  # sprites, glyphs and the palette are made once per process
    def board(view):
        return picture.draw(view, "en")

    report("boards", *timed(board, views))
    report("cold", *timed(board, views, cold=True))
    report("launch", *timed(launch_picture.draw_launch, launches))


if __name__ == "__main__":
    main()
