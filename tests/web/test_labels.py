"""The live table's words: the client names only labels the server sends (bot.views.web_state
LABELS, from the catalogs), and the server sends only labels the client names; in French
none of them is left in English."""

from __future__ import annotations

import re
from pathlib import Path

from bot.views.web_state import LABELS, STEPS, labels

SOURCES = Path(__file__).resolve().parents[2] / "bot" / "web" / "client" / "src"
#: Labels the client names by a prefix and a value from a state (rules_basic, slot_played...).
BY_PREFIX = ("rules_", "difficulty_", "step_", "slot_")


def client_sources() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(SOURCES.glob("*.ts")))


def test_the_client_and_the_server_name_the_same_labels():
    source = client_sources()
    named = set(re.findall(r'label\("(\w+)"', source))
    sent = set(labels("en"))
    assert named <= sent, f"the client names labels the server never sends: {named - sent}"
    unused = [k for k in LABELS if f'"{k}"' not in source and not k.startswith(BY_PREFIX)]
    assert not unused, f"labels the client never shows: {unused}"
    assert {f"step_{step}" for step in STEPS} <= sent


def test_every_label_has_its_french_words():
    english, french = labels("en"), labels("fr")
    assert english.keys() == french.keys()
    same = {k for k in english if english[k] == french[k]}
    assert same == {"apophis", "points", "minutes"}, same  # "Apophis", "pts", "{count} min"
    holes = re.compile(r"\{\w+\}")
    for key in english:  # the same placeholders, for the client to fill
        assert sorted(holes.findall(english[key])) == sorted(holes.findall(french[key])), key
