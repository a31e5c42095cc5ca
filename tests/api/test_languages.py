"""The reader's language over HTTP (issue 15): chosen from Accept-Language or the person's
preference, said in every error's ``detail``, the hand history and the table stream, with
``Content-Language`` and ``Vary: Accept-Language`` on the answer; ``code`` and ``type`` never change."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from django.test import AsyncClient

from games import notify, selectors
from games.engine.words import T
from tests.api.play import person
from tests.api.test_tables import new_table, play_randomly, started_pair, table
from tests.catalogues import compiled

pytestmark = pytest.mark.django_db

MISSING = "/api/v1/tables/00000000-0000-0000-0000-000000000000/"


@pytest.fixture(autouse=True, scope="module")
def _catalogues():
    compiled()


@pytest.fixture
def alice(counter_game):
    return person("alice")


@pytest.fixture
def bob(counter_game):
    return person("bob")


def test_a_404_comes_in_the_language_asked_for_with_its_code_and_type_unchanged(alice):
    english = alice.get(MISSING)
    spanish = alice.get(MISSING, HTTP_ACCEPT_LANGUAGE="es")
    persian = alice.get(MISSING, HTTP_ACCEPT_LANGUAGE="fa-IR,fa;q=0.9,en;q=0.5")
    assert english["Content-Language"] == "en"
    assert english.json()["detail"] == "There is no table 00000000-0000-0000-0000-000000000000."
    assert spanish["Content-Language"] == "es-mx"
    assert spanish.json()["detail"] == "No existe la mesa 00000000-0000-0000-0000-000000000000."
    assert persian["Content-Language"] == "fa"
    assert persian.json()["detail"] == "میز 00000000-0000-0000-0000-000000000000 وجود ندارد."
    for answer in (english, spanish, persian):
        assert answer.status_code == 404
        assert answer.json()["code"] == "not_found"
        assert answer.json()["type"] == "urn:gameledger:problem:not_found"
        assert "Accept-Language" in answer["Vary"]


def test_es_es_and_es_mx_both_get_mexican_spanish(alice):
    for header in ("es-ES", "es-MX", "es-mx,en;q=0.1"):
        assert alice.get(MISSING, HTTP_ACCEPT_LANGUAGE=header)["Content-Language"] == "es-mx"


def test_a_403_and_a_409_stale_version_are_translated(alice, bob):
    table_id = new_table(alice)
    refused = bob.post(f"/api/v1/tables/{table_id}/start/", HTTP_ACCEPT_LANGUAGE="es")
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    assert refused.json()["detail"] == "Solo el dueño de la mesa puede iniciarla."
    started_id = started_pair(alice, bob)
    view = table(alice, started_id)
    stale = alice.post(
        f"/api/v1/tables/{started_id}/actions/",
        {"action": view["legal_actions"][0] if view["legal_actions"] else {"type": "x"}, "expected_version": 0},
        format="json",
        HTTP_ACCEPT_LANGUAGE="fa",
    )
    assert stale.status_code == 409 and stale.json()["code"] == "version_conflict"
    assert stale.json()["type"] == "urn:gameledger:problem:version_conflict"
    # What happened in words; where the table is stays a machine field.
    assert stale.json()["detail"] == (
        "حرکت دیگری پیش از حرکت شما به میز رسید؛ میز را همان‌طور که اکنون هست ببینید و دوباره انتخاب کنید."
    )
    assert stale.json()["current_version"] == view["version"]
    assert stale["Content-Language"] == "fa"


def test_drf_validation_errors_come_in_the_language_too(alice):
    """Django's and DRF's own Spanish catalogues apply to Mexican Spanish (gettext falls back from
    es_MX to es); our own message in the same answer is ours."""
    response = alice.post("/api/v1/tables/", {"seats": 2, "colour": "red"}, format="json", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert response.json()["fields"]["colour"] == ["Campo desconocido."]
    missing = alice.post("/api/v1/tables/", {"seats": 2}, format="json", HTTP_ACCEPT_LANGUAGE="es")
    assert missing.json()["fields"]["game"] == ["Este campo es requerido."]
    assert missing.json()["code"] == "invalid"
    persian = alice.post("/api/v1/tables/", {"seats": 2}, format="json", HTTP_ACCEPT_LANGUAGE="fa")
    assert persian.json()["fields"]["game"] == ["این مقدار لازم است."]


def test_an_unknown_language_falls_back_to_english(alice):
    answer = alice.get(MISSING, HTTP_ACCEPT_LANGUAGE="xx-YY, tlh;q=0.8")
    assert answer["Content-Language"] == "en"
    assert answer.json()["detail"].startswith("There is no table")


def test_a_persons_preference_beats_the_header_and_an_unknown_one_is_refused(alice):
    assert alice.get("/api/v1/me/language/").json() == {"language": None}
    refused = alice.put("/api/v1/me/language/", {"language": "klingon"}, format="json", HTTP_ACCEPT_LANGUAGE="es")
    assert refused.status_code == 400 and refused.json()["code"] == "unknown_language"
    assert refused.json()["detail"] == "No existe el idioma 'klingon'; elige uno de en, es-mx, fa."
    assert refused.json()["fields"] == {"language": [refused.json()["detail"]]}
    chosen = alice.put("/api/v1/me/language/", {"language": "fa"}, format="json", HTTP_ACCEPT_LANGUAGE="es")
    assert chosen.status_code == 200 and chosen.json() == {"language": "fa"}
    assert chosen["Content-Language"] == "fa"
    answer = alice.get(MISSING, HTTP_ACCEPT_LANGUAGE="es")
    assert answer["Content-Language"] == "fa"
    assert answer.json()["detail"].endswith("وجود ندارد.")
    # Cleared: the header decides again.
    assert alice.put("/api/v1/me/language/", {"language": None}, format="json").json() == {"language": None}
    assert alice.get(MISSING, HTTP_ACCEPT_LANGUAGE="es")["Content-Language"] == "es-mx"


def test_the_table_etag_differs_by_language_and_a_tag_of_one_language_is_not_304_in_another(alice, bob):
    table_id = started_pair(alice, bob)
    english = alice.get(f"/api/v1/tables/{table_id}/")
    persian = alice.get(f"/api/v1/tables/{table_id}/", HTTP_ACCEPT_LANGUAGE="fa")
    assert english["ETag"] != persian["ETag"]
    assert "Accept-Language" in persian["Vary"] and "Authorization" in persian["Vary"]
    same = alice.get(f"/api/v1/tables/{table_id}/", HTTP_IF_NONE_MATCH=persian["ETag"], HTTP_ACCEPT_LANGUAGE="fa")
    assert same.status_code == 304
    other = alice.get(f"/api/v1/tables/{table_id}/", HTTP_IF_NONE_MATCH=persian["ETag"])
    assert other.status_code == 200


def test_the_hand_history_comes_in_the_readers_language(alice, bob, task_queue):
    table_id = started_pair(alice, bob)
    play_randomly({0: alice, 1: bob}, table_id, task_queue, random.Random(15))
    path = f"/api/v1/tables/{table_id}/hands/1/history.txt"
    english = alice.get(path)
    spanish = alice.get(path, HTTP_ACCEPT_LANGUAGE="es")
    persian = alice.get(path, HTTP_ACCEPT_LANGUAGE="fa")
    assert english.status_code == spanish.status_code == persian.status_code == 200
    assert "\nCommitment: " in english.content.decode()
    assert "\nCompromiso: " in spanish.content.decode() and "Commitment" not in spanish.content.decode()
    assert "\nتعهد: " in persian.content.decode()  # noqa: RUF001
    assert " - mesa " in spanish.content.decode().splitlines()[0]
    assert spanish["Content-Language"] == "es-mx" and "Accept-Language" in spanish["Vary"]
    assert len(english.content.decode().splitlines()) == len(persian.content.decode().splitlines())


def test_the_languages_listing_says_persian_runs_right_to_left(client):
    answer = client.get("/api/v1/languages/")
    assert answer.status_code == 200
    assert answer.json() == [
        {"code": "en", "name": "English", "direction": "ltr"},
        {"code": "es-mx", "name": "Español (México)", "direction": "ltr"},
        {"code": "fa", "name": "فارسی", "direction": "rtl"},
    ]


def test_the_games_listing_labels_options_and_choices_in_the_readers_language(client):
    """An option's label and its choices' words are said in the reader's language; its name, its
    choice codes and the keys of ``choice_labels`` stay machine fields in every language."""
    answers = {
        language: {game["slug"]: game for game in client.get("/api/v1/games/", HTTP_ACCEPT_LANGUAGE=language).json()}
        for language in ("en", "es-mx", "fa")
    }
    labels = {
        language: {option["name"]: option for option in games["euchre"]["options"]}
        for language, games in answers.items()
    }
    assert labels["en"]["stick_the_dealer"]["label"] == "Stick the dealer"
    assert labels["es-mx"]["stick_the_dealer"]["label"] == "Repartidor obligado"
    assert labels["fa"]["turn_seconds"]["label"] == "زمان هر نوبت (ثانیه)"
    assert labels["en"]["deal_pattern"]["choice_labels"] == {
        "2-3": "Two cards, then three",
        "3-2": "Three cards, then two",
    }
    assert labels["es-mx"]["deal_pattern"]["choice_labels"]["2-3"] == "Dos cartas y luego tres"
    english = answers["en"]
    for language, games in answers.items():
        assert set(games) == set(english)
        for slug, game in games.items():
            for option, in_english in zip(game["options"], english[slug]["options"], strict=True):
                assert option["name"] == in_english["name"]
                assert option["label"] and option["label"] != option["name"]
                assert option.get("choices") == in_english.get("choices")
                if option["type"] == "choice":
                    assert list(option["choice_labels"]) == option["choices"]
                    if language != "en":
                        assert option["choice_labels"] != in_english["choice_labels"], (slug, option["name"])
                else:
                    assert "choice_labels" not in option


@pytest.mark.django_db(transaction=True)
def test_a_table_streams_messages_in_the_language_of_its_request(alice, bob, monkeypatch):
    """The stream outlives its request: each read is said in the request's language. The counter
    game's events carry no words, so each read here carries one."""
    table_id = started_pair(alice, bob)
    version = table(alice, table_id)["version"]
    real = selectors.events_view

    def with_words(*args, **kwargs):
        return [{**item, "note": T("This table has finished.")} for item in real(*args, **kwargs)]

    monkeypatch.setattr(selectors, "events_view", with_words)
    notify.shutdown()

    async def first_message(language):
        headers = {"Authorization": alice._credentials["HTTP_AUTHORIZATION"], "Accept-Language": language}
        response = await AsyncClient().get(f"/api/v1/tables/{table_id}/stream/?after=0", headers=headers)
        assert response.status_code == 200 and response["Content-Language"] == language
        chunks = aiter(response.streaming_content)
        text = ""
        try:
            while "data: " not in text:
                chunk = await asyncio.wait_for(anext(chunks), 10)
                text += chunk.decode() if isinstance(chunk, bytes) else chunk
        finally:
            await chunks.aclose()
        return json.loads(text.split("data: ", 1)[1].split("\n", 1)[0])

    try:
        persian = asyncio.run(first_message("fa"))
        spanish = asyncio.run(first_message("es-mx"))
    finally:
        notify.shutdown()
    assert version > 0
    assert persian["note"] == "این میز تمام شده است."
    assert spanish["note"] == "Esta mesa ya terminó."
    assert persian["type"] == spanish["type"] == "GameStarted"


def test_lang_in_the_address_beats_the_header_for_a_client_that_cannot_set_one(client):
    """A browser's EventSource sends the browser's Accept-Language: a page read in another
    language asks its stream with ``?lang=``; an unknown one leaves the header's."""
    answer = client.get("/api/v1/languages/?lang=fa", HTTP_ACCEPT_LANGUAGE="en")
    assert answer["Content-Language"] == "fa"
    assert client.get("/api/v1/languages/?lang=xx", HTTP_ACCEPT_LANGUAGE="es-MX")["Content-Language"] == "es-mx"
