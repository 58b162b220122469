"""Draw the README's sample board picture (docs/sample_board.png).

Run: .venv/bin/python -m devtools.sample_board
Plays a seeded 4-player game with the engine's automatic players until its table is
worth showing (a rocket of three sections or more, a launch sequence under way and a
first hit on Apophis), then draws that table exactly as the bot would, its seats taken by
`NAMES` (a long one among them, shortened to fit).
"""

from __future__ import annotations

import random
from pathlib import Path

from bot.pictures import board_picture
from engine import Game, PublicView, Rules
from engine.playout import choose_action

OUT = Path(__file__).resolve().parent.parent / "docs" / "sample_board.png"
NAMES = ("Ada", "Grace Hopper-Whitfield", "Robot 1", "Linus")


def interesting(view: PublicView) -> bool:
    return len(view.rocket) >= 3 and 1 <= len(view.sequence) < 4 and view.damage >= 1


def sample_position() -> PublicView:
    """The first interesting table of the first seeded game that reaches one."""
    for seed in range(1000):
        game, rng = Game.new([1, 2, 3, 4], Rules.BASIC, seed=seed), random.Random(seed)
        while (player := game.active_player) is not None:
            game.apply(choose_action(game.view_for(player), rng))
            if interesting(view := game.public_view()):
                return view
    raise SystemExit("no seeded game reached an interesting table")


def main() -> None:
    OUT.write_bytes(board_picture.draw(sample_position(), "en", NAMES))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
