"""How often a steady team wins each difficulty, as the balance lab measured it."""

from __future__ import annotations

#: Win rates (%) of teams playing the crew policy (every seat) at 5 s a turn, the mean over
#: 1 to 4 players, from `.venv/bin/python benchmarks/balance_lab.py --games 1000 --policies
#: crew` (per rule set and player count; its table is in docs/crew.md). Rerun the lab after
#: changing the rules or the crew policy, and copy its figures here.
STEADY_TEAM_WINS = {
    "basic": {"beginner": 80, "easy": 63, "medium": 46, "hard": 28},
    "advanced": {"beginner": 80, "easy": 64, "medium": 49, "hard": 32},
}

#: The difficulty a new team's lobby is offered (bot.game.newcomers): the easiest, the
#: only one at which a team new to the game wins about half the time (docs/crew.md, "A
#: first game that can be won").
FIRST_GAMES = "beginner"
