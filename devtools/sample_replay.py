"""Draw the sample replay (docs/replay.gif), and store seeded games as the bot does.

Run: .venv/bin/python -m devtools.sample_replay
Plays a seeded 3-player game with the crew policy, stores it in a new SQLite file as the
bot stores a game (`stored_game`, which benchmarks/replay_bench.py uses too), and makes
its replay exactly as `/apophis replay` does: the game played again from its stored log
through public views only, a board picture under its caption a move (each launch's checks
shown one by one), written as a looping GIF.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path
from typing import Any

from bot.lobby_settings import LobbySettings
from bot.pictures import replay as animation
from bot.store.store import Store
from bot.views import history
from engine import Game, Phase, Rules
from engine.simulate import POLICIES

OUT = Path(__file__).resolve().parent.parent / "docs" / "replay.gif"
NAMES = ("Ann", "Bartholomew the Magnificent", "Chloé", "Dee")


async def stored_game(
    store: Store,
    seed: int,
    actions: int,
    *,
    guild_id: int = 1,
    channel_id: int | None = None,
    policy: str = "crew",
) -> int:
    """A game of at most `actions` actions (its clock runs out then, unless the team won
    first), 2 to 4 players by `seed` playing `policy`, stored as the bot stores it in
    server `guild_id` (channel `channel_id`, else the seed); its id."""
    rules = Rules.BASIC if seed % 2 else Rules.ADVANCED
    players = list(range(1, seed % 3 + 3))
    channel = seed if channel_id is None else channel_id
    lobby = await store.create_lobby(
        guild_id, channel, 1, LobbySettings(rules.value, "medium", 10), host_name=NAMES[0]
    )
    for player in players[1:]:
        await store.add_player(lobby.id, player, name=NAMES[player - 1])
    game, rng = Game.new(players, rules, seed=seed), random.Random(seed)
    await store.start_game(
        lobby.id, seed=seed, start_player=players[game.active], state=game.save(), deadline=1e12
    )
    version = 0
    while not game.is_over:
        action: dict[str, Any]
        if version == actions - 1:
            action = {"type": "clock_expired"}
        elif game.phase is Phase.RESHUFFLE:
            action = {"type": "finish_reshuffle"}
        else:
            action = POLICIES[policy](game.view_for(players[game.active]), None, rng)
        events = [event.to_dict() for event in game.apply(action)]
        outcome = game.outcome.value if game.is_over else None
        version = await store.commit_action(
            lobby.id,
            version,
            state=game.save(),
            actor=action.get("player"),
            action=action,
            events=events,
            outcome=outcome,
        )
    return lobby.id


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(str(Path(folder) / "sample.sqlite3"))
        try:
            game_id = await stored_game(store, seed=1, actions=40)
            record, log = await store.get_game(game_id), await store.game_log(game_id)
        finally:
            await store.close()
    gif = animation.animate(history.frames(history.replay(record, log, "en")))
    OUT.write_bytes(gif)
    print(f"{OUT}: {len(log)} moves, {len(gif) // 1024} KB")


if __name__ == "__main__":
    asyncio.run(main())
