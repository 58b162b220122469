"""How often a steady team wins each difficulty, as the balance lab measured it."""

from __future__ import annotations

#: Win rates (%) of teams playing the crew policy at 5 s a turn, the mean over 1 to 4
#: players, from `.venv/bin/python benchmarks/balance_lab.py --games 1000` (per rule set,
#: player count and policy; its table is in README.md). Rerun the lab after changing
#: the rules or the crew policy, and copy its figures here.
STEADY_TEAM_WINS = {
    "basic": {"beginner": 66, "easy": 47, "medium": 32, "hard": 18},
    "advanced": {"beginner": 71, "easy": 54, "medium": 40, "hard": 24},
}
