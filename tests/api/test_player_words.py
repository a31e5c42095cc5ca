"""The words the server makes for players carry no machine word (issue 25, item 5): the games list's
option labels, help and refused combinations, the refusals of options that cannot be played, the
sentences of a played hand's events and its history lines, and the audit's checks, in Mexican
Spanish and Persian (and English for the codes and rule ids), hold no option code (the options'
config keys and choice codes), no rule id, no deck code, and in Persian no Latin digit."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation

from api.sentences import parts_of
from games.audit.checks import deck_words
from games.engine import registry
from games.engine.cards import DECKS
from games.engine.errors import InvalidOptions
from games.engine.sentences import describe
from games.words import say
from tests.catalogues import compiled
from tests.rules.test_sentences import TABLES, item, playout

LANGUAGES = ("en", "es-mx", "fa")
RULE_ID = re.compile(r"\b[A-Z]{2}-\d+\b")
DECK_CODE = re.compile(r"\b(?:" + "|".join(re.escape(name) for name in DECKS) + r")\b")
LATIN_DIGIT = re.compile(r"[0-9]")
# Spanish words that are also choice codes: "ante" is a word of the language (and the bet's name),
# and the Spanish source documents call the jokers "jokers".
SPANISH_WORDS = {"ante", "joker", "jokers"}
# A seed or a commitment, quoted whole for the reader to copy: hex, not a number to read.
HEX = re.compile(r"\b[0-9a-f]{16,}\b")


@pytest.fixture(autouse=True, scope="module")
def _catalogues():
    compiled()


def option_codes() -> set[str]:
    """Every game's option names and choice codes."""
    codes: set[str] = set()
    for game in registry.all_games():
        for option in game.options:
            codes.add(option.name)
            codes.update(option.choices)
    return codes


CODES = option_codes()


def machine_words(text: str, language: str) -> list[str]:
    """What in ``text`` is a machine word for a reader of ``language``."""
    found = RULE_ID.findall(text) + DECK_CODE.findall(text)
    for code in CODES:
        # In English only the codes no sentence would use (with "_" or a digit); in the other
        # languages every code, as a whole word, is English leaking through.
        if language == "en" and not re.search(r"[_\d]", code):
            continue
        if language == "es-mx" and code in SPANISH_WORDS:
            continue
        if re.search(r"(?<![\w-])" + re.escape(code) + r"(?![\w-])", text):
            found.append(code)
    if language == "fa":
        found += LATIN_DIGIT.findall(HEX.sub("", text))
    return found


def assert_words(texts: list[str], language: str, where: str) -> None:
    assert texts, where
    bad = {text: machine_words(text, language) for text in texts if machine_words(text, language)}
    assert not bad, (where, language, bad)


def listed_words(game: dict[str, Any]) -> list[str]:
    """The words a player reads of a game in ``GET /games/``."""
    texts = [game["name"], *game["refused_combinations"]]
    for option in game["options"]:
        texts += [option["label"], option.get("help", ""), *option.get("choice_labels", {}).values()]
    return [text for text in texts if text]


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_games_list_reads_in_words(language: str) -> None:
    """Labels, help and refused combinations of every game: rule ids only in ``rules``."""
    games = Client().get("/api/v1/games/", HTTP_ACCEPT_LANGUAGE=language).json()
    assert {game["slug"] for game in games} == {game.slug for game in registry.all_games()}
    for game in games:
        assert_words(listed_words(game), language, game["slug"])
    draw = next(game for game in games if game["slug"] == "five-card-draw")
    variant = next(option for option in draw["options"] if option["name"] == "variant")
    assert variant["rules"] == ["FD-14"]


# Options each game refuses, alone or together (FD-18, WP-8, the money terms, the seats).
REFUSED: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "five-card-draw": [
        (3, {"variant": "triple_draw_27", "high_low": True}),
        (3, {"forced_bets": "blinds", "opening": "jacks_or_better"}),
        (3, {"variant": "triple_draw_27", "forced_bets": "ante", "opening": "jacks_or_better"}),
        (3, {"variant": "triple_draw_27", "wild": "deuces"}),
        (3, {"high_low": True, "wild": "one_eyed_jacks"}),
        (3, {"variant": "triple_draw_27", "ace_rule": "five_with_ace"}),
        (3, {"min_buy_in": 300, "max_buy_in": 200}),
        (3, {"forced_bets": "blinds", "big_blind": 50, "min_buy_in": 40}),
        (3, {"small_blind": 5, "big_blind": 2, "forced_bets": "blinds"}),
        (3, {"format": "tournament", "chip_value": 2, "currency": "EUR"}),
        (3, {"format": "tournament", "max_buy_in": 100}),
        (3, {"starting_stack": 100}),
        (3, {"chip_value": 2}),
        (9, {}),
    ],
    "whiskey-poker": [
        (8, {"reduced_pack": True}),
        (3, {"reduced_pack": True, "scoring": "pot"}),
        (3, {"scoring": "points", "lives": 3}),
        (3, {"scoring": "loser_pays", "chip_value": 100, "currency": "MXN"}),
        (10, {}),
    ],
    "euchre": [(5, {"cutthroat": True}), (3, {}), (4, {"no_trump": True})],
    "guerra": [(3, {"deck": "english", "ace_high": True}), (9, {})],
    "la-viuda": [(12, {}), (4, {"chip_value": 100})],
}


def refusals(game: Any) -> list[Any]:
    """The refusals of ``game``: its combinations above, and each option given a wrong value."""
    found = []
    wrong = {"int": -1, "bool": "yes", "choice": "no_such_choice", "str": 7}
    tries = [*REFUSED.get(game.slug, []), *((game.min_players, {o.name: wrong[o.type]}) for o in game.options)]
    for seats, options in tries:
        with pytest.raises(InvalidOptions) as refused:
            game.configure(seats, options)
        found.append(refused.value.message)
    return found


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", sorted(REFUSED))
def test_refusals_of_options_name_them_in_words(slug: str, language: str) -> None:
    game = registry.get(slug)
    assert_words([str(say(message, language)) for message in refusals(game)], language, slug)


@pytest.mark.django_db
def test_a_refused_combination_over_http_reads_in_persian(client) -> None:
    """The 400 of a combination Five-Card Draw refuses: the detail in words and Persian digits."""
    user = get_user_model().objects.create_user("words-fa", password="a long enough password")
    client.force_login(user)
    answer = client.post(
        "/api/v1/tables/",
        {"game": "five-card-draw", "seats": 3, "options": {"small_blind": 5, "big_blind": 2, "forced_bets": "blinds"}},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="fa",
    )
    assert answer.status_code == 400 and answer.json()["code"] == "invalid"
    detail = answer.json()["detail"]
    # Persian digits in brackets, by code point: (5) and (2).
    assert detail == "بلایند کوچک (\u06f5) بزرگ‌تر از بلایند بزرگ (\u06f2) است."
    assert answer.json()["fields"] == {"options": [detail]}


def _sentence_texts(slug: str, events: list[Any], language: str) -> list[str]:
    """The words of every event's sentence for the first seat (cards apart: the page draws them)."""
    decider = registry.get(slug)
    currency = TABLES[slug][2]
    texts = []
    with translation.override(language):
        for event in events:
            said = parts_of(describe(decider.sentences, item(slug, event, 0, None), currency), {})
            texts.append("".join(part.get("text", "") for part in said["parts"]))
    return [text for text in texts if text]


def _history_texts(slug: str, config: dict[str, Any], events: list[Any], language: str) -> list[str]:
    decider = registry.get(slug)
    names = [f"player{chr(ord('a') + seat)}" for seat in range(TABLES[slug][0])]
    lines = [decider.audit.history_line(event, "dealer", names, config) for event in events]
    return [str(say(line, language)) for line in lines if line]


@pytest.mark.parametrize("language", ("es-mx", "fa"))
@pytest.mark.parametrize("slug", sorted(TABLES))
def test_a_played_games_sentences_read_in_words(slug: str, language: str) -> None:
    """Every event of a seeded game: its sentence, without the cards the page draws as cards."""
    _config, events = playout(slug, commands=400)
    assert_words(_sentence_texts(slug, events, language), language, f"{slug} sentences")


@pytest.mark.parametrize("language", ("es-mx", "fa"))
@pytest.mark.parametrize("slug", sorted(TABLES))
def test_a_played_games_history_reads_in_words(slug: str, language: str) -> None:
    """Every event of a seeded game as its hand history's line, players named by letters and cards
    by name (a Guerra match's by its deck's)."""
    config, events = playout(slug, commands=400)
    assert_words(_history_texts(slug, config, events, language), language, f"{slug} history")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_audits_deck_is_named_in_words(language: str) -> None:
    for name, cards in DECKS.items():
        said = str(say(deck_words(name, len(cards)), language))
        assert not machine_words(said, language), (name, said)
