"""A new lobby option touches the table of options, not the path a setting travels: a
made-up one (tests/game/new_option.py), added to bot.lobby_settings alone with its column
and its select's words, reaches the lobby's select, the host's pick, the store, the live
table's state and a Play again lobby; /apophis new refuses to load until it has a
parameter for it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def test_a_made_up_option_travels_from_the_select_to_the_store_and_back(tmp_path):
    ran = subprocess.run(
        [sys.executable, "-m", "tests.game.new_option", str(tmp_path / "paced.sqlite3")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    seen = json.loads(ran.stdout)
    # /apophis new pace:brisk difficulty:hard: the lobby has it, its column keeps it.
    assert seen["opened"] == ["brisk", "hard", "brisk"]
    # The lobby's select offers its choices, the lobby's marked.
    assert seen["select"] == {"values": ["steady", "brisk"], "default": ["brisk"]}
    # The host picks steady: read into Configure(pace="steady"), kept, read back the same.
    assert seen["command"] is True
    assert seen["configured"] == ["steady", "steady"] and seen["read back"] is True
    assert seen["web"] == {"rules": "basic", "difficulty": "hard", "minutes": 8, "pace": "steady"}
    # A value it does not take is refused in its own words.
    assert seen["refused"] == "settings.unknown_pace"
    # Played and ended: Play again opens a lobby with the same pace.
    assert seen["again"] == ["steady", "steady"]
    assert seen["slash"] == "unknown parameter given: pace"
