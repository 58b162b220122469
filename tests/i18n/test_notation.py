"""Cards as players type them (every form) and as they read them (suits or colours)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.i18n.notation import UnreadableCard, card_text, cards_text, parse_cards
from bot.views.render import hand_text
from engine import full_deck
from engine.cards import is_card
from tests.engine.helpers import examples


@pytest.mark.parametrize(
    ("typed", "cards"),
    [
        ("7H 10C ks", ["7H", "10C", "KS"]),
        ("7♥ 10♣, K♠;2♦", ["7H", "10C", "KS", "2D"]),
        ("7♥️ 2♦️", ["7H", "2D"]),  # with the emoji variation selector phones add
        ("7♡ 2♢ 3♧ 4♤", ["7H", "2D", "3C", "4S"]),
        ("7 red, 2 blue 3green 4-yellow", ["7H", "2D", "3C", "4S"]),
        ("7 rouge 2 bleue 3 vert 4 JAUNE", ["7H", "2D", "3C", "4S"]),
        ("V♠ D♥ R♣ dd", ["JS", "QH", "KC", "QD"]),  # French ranks: valet, dame, roi
        ("10♣︎ 7♥︎", ["10C", "7H"]),  # with the text variation selector
        ("7🟥 2🟦 3 🟩 4🟨", ["7H", "2D", "3C", "4S"]),  # the bot's own colour squares
        ("7ſ", ["7S"]),  # a long s folds to s
        ("🟥 hearts: 3♥ 7♥", ["3H", "7H"]),  # a line copied from a hand
        ("🟩 vert\u202f: 3 vert, 🟥 rouge : 7 rouge", ["3C", "7H"]),
        ("", []),
    ],
)
def test_every_form_of_a_card_is_read(typed, cards):
    assert parse_cards(typed) == cards


@pytest.mark.parametrize(
    ("typed", "bad"), [("7H 1H", "1H"), ("7X", "7X"), ("red", "red"), ("7H ♥7", "♥7")]
)
def test_anything_else_is_refused_by_name(typed, bad):
    with pytest.raises(UnreadableCard) as info:
        parse_cards(typed)
    assert info.value.token == bad


def test_a_very_long_token_is_named_briefly():
    with pytest.raises(UnreadableCard) as info:
        parse_cards("x" * 6000)
    assert len(info.value.token) <= 40


def test_each_card_written_in_every_style_and_language_reads_back():
    for language in ("en", "fr"):
        for style in ("suits", "colours"):
            deck = full_deck()
            assert parse_cards(cards_text(deck, language, style)) == deck


def test_cards_as_players_read_them():
    assert card_text("QH", "en") == "Q♥"
    assert card_text("QH", "fr") == "D♥"
    assert card_text("7D", "en", "colours") == "7 blue"
    assert card_text("KS", "fr", "colours") == "R jaune"


@pytest.mark.slow
@given(st.text())
@settings(max_examples=examples(2000), deadline=None)  # 2,000 in CI
def test_any_text_is_read_or_refused_by_name(text):
    try:
        cards = parse_cards(text)
    except UnreadableCard as exc:
        assert exc.token and len(exc.token) <= 40
    else:
        assert all(is_card(card) for card in cards)


@given(st.lists(st.sampled_from(full_deck()), max_size=12))
def test_a_hand_as_the_bot_shows_it_reads_back(hand):
    for language in ("en", "fr"):
        for style in ("suits", "colours"):
            shown = hand_text(hand, language, style)
            if hand:
                assert sorted(parse_cards(shown)) == sorted(hand)
