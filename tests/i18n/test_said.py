"""What the game says keeps its parts (people, channels, moments, stressed words), and each
door writes them its own way: Discord's markup as the views' messages carry it, names and
plain words on the live table."""

from __future__ import annotations

import random

from bot.i18n import said
from bot.i18n.catalogs import said as line
from bot.i18n.catalogs import t
from bot.i18n.said import Channel, Moment, Person, Said, joined, written
from bot.lobby_settings import LobbySettings
from bot.table import Table
from bot.views import narration, render, web_state
from bot.views.plain import Names
from engine import Game
from engine.playout import choose_action


class Brackets:
    """A door that writes every part visibly, to see where each one is."""

    def person(self, person: Person) -> str:
        return f"[person {person.id}]"

    def channel(self, channel: Channel) -> str:
        return f"[channel {channel.id}]"

    def moment(self, moment: Moment) -> str:
        return f"[{moment.style} {moment.at}]"

    def stressed(self, text: str) -> str:
        return f"[stressed {text}]"


def table() -> Table:
    found = Table(1, 10, 100, 7, LobbySettings("basic", "easy", 10), "lobby", [7])
    found.names = {7: "Ada"}
    return found


def test_a_message_naming_someone_reads_as_a_mention_and_keeps_the_person():
    text = t("en", "next.start", player=render.mention(7))
    assert text == "<@7> to play: draw or build."  # what Discord is sent, as before
    assert isinstance(text, Said)
    assert written(text, Brackets()) == "[person 7] to play: draw or build."
    assert web_state.plain(text, Names(table())) == "Ada to play: draw or build."


def test_stressed_words_are_the_catalog_s_and_each_door_writes_them():
    text = t("en", "panel.your_turn", moves="draw")
    assert text == "**Your turn:** you can draw."
    assert written(text, Brackets()) == "[stressed Your turn:] you can draw."
    assert web_state.plain(text, Names(table())) == "Your turn: you can draw."
    # French typography and elision are set before the parts are kept.
    assert written(t("fr", "event.launch", count=3), Brackets()).startswith(
        "🚀 [stressed Lancement\u202f!]"
    )


def test_a_moment_the_web_cannot_keep_current_is_left_out_with_its_space():
    text = t("en", "clock.running", arrives=said.moment(100, "R"), at=said.moment(100, "T"))
    assert text == "⏱️ Apophis arrives <t:100:R>, at <t:100:T>"
    assert written(text, Brackets()) == "⏱️ Apophis arrives [R 100], at [T 100]"
    assert web_state.plain(text, Names(table())) == "⏱️ Apophis arrives, at"


def test_a_crewmate_is_named_in_words_by_every_door():
    text = t("en", "next.start", player=render.mention(-2))
    assert text == "🤖 Robot 2 to play: draw or build." == web_state.plain(text, Names(table()))


def test_joined_texts_and_lines_told_again_keep_their_parts():
    both = joined("\n", [t("en", "next.start", player=render.mention(7)), "plain", said.channel(5)])
    assert both == "<@7> to play: draw or build.\nplain\n<#5>"
    assert written(both, Brackets()) == "[person 7] to play: draw or build.\nplain\n[channel 5]"
    assert joined(", ", ["a", "b"]) == "a, b" and not isinstance(joined(", ", ["a"]), Said)
    told = line("en", "notice.new_host", player=render.mention(7))
    assert written(told.told_in("en"), Brackets()) == "👑 [person 7] is the host now."
    assert written(told.told_in("fr"), Brackets()) == "👑 [person 7] est maintenant l’hôte."


def test_a_text_without_parts_stays_a_plain_string():
    text = t("en", "next.reshuffle_seconds", seconds=3)
    assert type(text) is str and written(text, Brackets()) == text


def test_the_web_texts_of_played_games_carry_no_discord_markup():
    """Every text the web state words over whole games (the last actions, what the game
    waits for, each player's situation, the launch report), in both languages, is written
    from its parts: no mention, channel, timestamp or bold is left for the client."""
    seen = 0
    for seed in (1, 2, 3):
        players = [101, 102, -1]
        game = Game.new(players, "basic" if seed % 2 else "advanced", seed=seed)
        playing = Table(
            seed, 10, 100, 101, LobbySettings("basic", "easy", 10), "active", players, game=game
        )
        playing.deadline, playing.names = 2000.0, {101: "Ada", 102: "Élodie"}
        rng = random.Random(seed)
        while not game.is_over:
            events = game.apply(choose_action(game.view_for(game.active_player), rng))
            told_now = [(e, line) for e in events if (line := narration.told(e, "fr"))]
            narration.tell_recent(playing.recent, told_now, "fr")
            for language in ("en", "fr"):
                names = Names(playing)
                state = web_state.public(playing, 1000.0, language, markup=names)
                texts = [*state["texts"]["recent"], state["texts"]["next"] or ""]
                texts += (state["report"] or {}).get("lines", [])
                for player in (101, 102):
                    you = web_state.private(playing, player, 1000.0, language, markup=names)
                    texts.append(you["you"]["situation"])
                found = [text for text in texts if any(m in text for m in DISCORD_MARKUP)]
                assert not found, found
                seen += len(texts)
    assert seen > 1000


DISCORD_MARKUP = ("<@", "<#", "<t:", "**")
