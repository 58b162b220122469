"""devtools.discord_shots, its cheapest scene: the page of a fresh server's lobby, and its
pictures where Chromium is installed."""

from __future__ import annotations

import struct

import pytest

from devtools import discord_shots
from devtools.livetable import NoBrowser, browser

#: A fresh server's first lobby, as the tool plays it (the suite's seasoned servers are not).
pytestmark = pytest.mark.first_games


def test_the_lobby_scene_writes_its_page_in_each_language(tmp_path, capsys):
    discord_shots.main(["--out", str(tmp_path), "--scene", "lobby", "--no-shots"])
    english = (tmp_path / "lobby-en.html").read_text(encoding="utf-8")
    french = (tmp_path / "lobby-fr.html").read_text(encoding="utf-8")
    assert "# apophis" in english and "Message #apophis" in english
    assert "This server&#x27;s first games" in english and "Join" in english
    assert "Premières parties sur ce serveur" in french and "Rejoindre" in french
    assert "first games" not in french
    assert capsys.readouterr().out.split() == [
        str(tmp_path / "lobby-en.html"),
        str(tmp_path / "lobby-joined-en.html"),
        str(tmp_path / "lobby-fr.html"),
        str(tmp_path / "lobby-joined-fr.html"),
    ]


def test_the_lobby_scene_is_shot_at_each_width(tmp_path):
    try:
        browser()
    except NoBrowser as missing:
        pytest.skip(f"the pictures are not drawn: {missing}")
    discord_shots.main(["--out", str(tmp_path), "--scene", "lobby", "--language", "en"])
    for width, height in discord_shots.SIZES:
        png = (tmp_path / f"lobby-{width}-en.png").read_bytes()
        assert struct.unpack(">II", png[16:24]) == (width, height)
        assert len(png) <= discord_shots.SMALL
    assert not list(tmp_path.glob("*.html"))  # the pages stay out of the pictures' folder
