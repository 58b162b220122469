"""Every signal of table talk in every language: its own words, its suit, nothing of a card."""

from __future__ import annotations

import re

import pytest

from bot.i18n.catalogs import languages
from bot.i18n.notation import card_text
from bot.views.talk import signal_text
from engine import Colour, full_deck
from engine.signals import KINDS, MOST_HELD, SUITED, Signal

SIGNALS = [
    Signal(kind, colour, count)
    for kind in KINDS
    for colour in (Colour if kind in SUITED else (None,))
    for count in ((0, 1, 2, 5, MOST_HELD) if kind == "hold" else (None,))
]


#: Every card as a player reads it, in each language and card display.
CARDS = {
    language: {card_text(c, language, style) for c in full_deck() for style in ("suits", "colours")}
    for language in languages()
}


@pytest.mark.parametrize("language", sorted(languages()))
def test_every_signal_has_its_own_words_with_its_suit_and_no_rank(language):
    said = {signal: signal_text(signal, language) for signal in SIGNALS}
    assert len(set(said.values())) == len(said)  # no two signals read alike
    for signal, words in said.items():
        assert words and "{" not in words and "talk." not in words
        if signal.colour is not None:
            assert signal.colour.symbol in words
            other = [c.symbol for c in Colour if c is not signal.colour]
            assert not any(symbol in words for symbol in other)
            assert Colour(signal.colour).value not in words  # a suit, not a colour's name
        numbers = re.findall(r"\d+", words)
        assert numbers == ([] if signal.count in (None, 0) else [str(signal.count)])
        assert not any(card in words for card in CARDS[language])  # no card named
    colours = signal_text(Signal("hold", Colour.RED, 2), language, "colours")
    assert "🟥" in colours and "♥" not in colours  # the server's card display


def test_holding_counts_read_right_at_0_1_2_and_5():
    words = {n: signal_text(Signal("hold", Colour.BLUE, n), "en") for n in (0, 1, 2, 5)}
    assert words == {0: "I hold no ♦", 1: "I hold 1 ♦", 2: "I hold 2 ♦", 5: "I hold 5 ♦"}
    french = {n: signal_text(Signal("hold", Colour.BLUE, n), "fr") for n in (0, 1, 2, 5)}
    assert french == {0: "Je n’ai aucun ♦", 1: "J’ai 1 ♦", 2: "J’ai 2 ♦", 5: "J’ai 5 ♦"}
