"""The load benchmark's players (benchmarks/load/players.py) find every move on the hand panel
as the bot draws it now: a draw, a build (in the panel's select of sections), a launch, a
scrap, each as the playout policy chooses them in games played through."""

from __future__ import annotations

import collections
import random

from benchmarks.load.players import panel_move
from benchmarks.render_bench import games
from bot.views import panel
from devtools.fakediscord.layout import walk
from engine import Phase
from engine.playout import choose_action


def test_every_move_the_players_choose_is_found_on_their_panel():
    found: collections.Counter[tuple[str, bool]] = collections.Counter()
    for moment in games(range(4), "en"):
        game = moment.table.game
        if game is None or game.is_over or game.phase is not Phase.PLAY:
            continue
        player = game.active_player
        assert player is not None
        action = choose_action(game.view_for(player), random.Random(player))
        if action["type"] not in ("draw", "build", "launch", "scrap"):
            continue
        components = list(
            walk(panel.panel_message(moment.table, player, "en").json()["components"])
        )
        move = panel_move(components, action)
        found[action["type"], move is not None] += 1
        if move is not None and action["type"] == "build":  # the select, and the section
            custom_id, values = move
            assert custom_id.endswith(":build") and values == [
                f"{action['colour']}.{action['size']}"
            ]
    assert {kind for kind, _ in found} == {"draw", "build", "launch", "scrap"}, found
    assert not [key for key in found if not key[1]], found  # each one on the panel
