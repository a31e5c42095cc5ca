"""Each event's sentence for players, said by the server when asked (``?sentences=true``): on the
events endpoint and on the table's stream, in the request's language, made from the event as the
caller is served it. Without the parameter nothing changes."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test import AsyncClient

from games.engine.words import T
from games.words import say
from tests.api.play import Game, person, play_to_the_end, set_up
from tests.api.test_live import open_stream, run
from tests.catalogues import compiled

pytestmark = pytest.mark.django_db(transaction=True)

CARD = re.compile(r"^(?:[2-9TJQKA][cdhs]|(?:[1-9]|1[0-2])[oceb]|X[12])$")
LANGUAGES = ("en", "es-mx", "fa")


@pytest.fixture(autouse=True, scope="module")
def _catalogues():
    compiled()


def codes_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(set(), *(codes_in(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(set(), *(codes_in(item) for item in value))
    return set()


@pytest.fixture
def played(task_queue):
    """A La Viuda table with money, a person at seat 0 and bots in the rest, played to its end."""
    owner, staff = person("ana"), person("staff", staff=True)
    spec = Game(
        "la-viuda", 4, people=(0,), options={"chips_per_player": 1}, stake={"currency": "MXN", "chip_value": "5.00"}
    )
    table_id, clients = set_up(spec, owner, staff)
    play_to_the_end(table_id, clients, task_queue, random.Random(5))
    return table_id, owner


def events(client, table_id: str, language: str = "en", **query: str):
    return client.get(f"/api/v1/tables/{table_id}/events/", query, HTTP_ACCEPT_LANGUAGE=language)


def test_without_the_parameter_nothing_changes_and_with_it_each_event_gets_its_sentence_only(played):
    table_id, ana = played
    plain = events(ana, table_id)
    refused = events(ana, table_id, sentences="false")
    assert plain.status_code == refused.status_code == 200
    assert plain.content == refused.content
    assert all("sentence" not in event for event in plain.json()["results"])
    said = events(ana, table_id, sentences="true").json()
    page = plain.json()
    assert {key: value for key, value in said.items() if key != "results"} == {
        key: value for key, value in page.items() if key != "results"
    }
    assert len(said["results"]) == len(page["results"]) > 20
    for with_it, without in zip(said["results"], page["results"], strict=True):
        assert list(with_it) == [*without, "sentence"]
        assert {key: value for key, value in with_it.items() if key != "sentence"} == without


def test_the_sentences_come_in_the_language_asked_for_and_the_machine_fields_do_not_change(played):
    table_id, ana = played
    answers = {language: events(ana, table_id, language, sentences="true") for language in LANGUAGES}
    for language, answer in answers.items():
        assert answer.status_code == 200 and answer["Content-Language"] == language
    pages = {language: answer.json() for language, answer in answers.items()}
    machine = {
        language: [
            {key: value for key, value in event.items() if key not in ("sentence", "data")} for event in page["results"]
        ]
        for language, page in pages.items()
    }
    assert machine["en"] == machine["es-mx"] == machine["fa"]
    types = {event["type"] for event in pages["en"]["results"]}
    assert {"GameStarted", "HandStarted", "ShowdownHeld", "GameEnded"} <= types
    for language, page in pages.items():
        for event in page["results"]:
            sentence = event["sentence"]
            where = (language, event["type"], sentence)
            assert set(sentence) == {"text", "parts"}, where
            assert sentence["text"].strip() and "{" not in sentence["text"], where
            assert event["type"] not in sentence["text"], where
            for part in sentence["parts"]:
                assert list(part) in (["text"], ["cards"]), where
            # The text is the parts in order, each row of cards as its codes.
            assert sentence["text"] == "".join(
                part["text"] if "text" in part else " ".join(part["cards"]) for part in sentence["parts"]
            ), where
            shown = {code for part in sentence["parts"] for code in part.get("cards", [])}
            assert shown <= codes_in(event["data"]), where
    # The players are named as the table's, in the reader's language: a bot by its seat.
    english = {event["seq"]: event["sentence"]["text"] for event in pages["en"]["results"]}
    assert any(text.startswith("ana ") for text in english.values()), english
    for language in LANGUAGES:
        bot = str(say(T("bot (seat {seat})", seat=1), language))
        texts = [event["sentence"]["text"] for event in pages[language]["results"]]
        assert any(bot in text for text in texts), (language, bot)
    assert str(say(T("bot (seat {seat})", seat=1), "es-mx")) != "bot (seat 1)"
    # English says what events.js said: money with its currency, cards by their codes.
    offers = [event for event in pages["en"]["results"] if event["type"] == "WidowOffered"]
    for offer in offers:
        assert offer["sentence"]["text"].endswith(f" may buy the widow for {offer['data']['price']} MXN")
    started = next(event for event in pages["en"]["results"] if event["type"] == "GameStarted")
    assert started["sentence"] == {
        "text": "The game begins with 1 chip each",
        "parts": [{"text": "The game begins with 1 chip each"}],
    }
    drawn = next(event for event in pages["en"]["results"] if event["type"] == "FirstDealerDrawn")
    dealt = drawn["sentence"]["parts"]
    assert dealt[0]["text"].endswith(" deals first (cards drawn: ")
    assert dealt[1:] == [{"cards": [draw[1] for draw in drawn["data"]["draws"]]}, {"text": ")"}]


def test_a_bad_sentences_parameter_is_refused(played):
    table_id, ana = played
    answer = events(ana, table_id, sentences="perhaps")
    assert answer.status_code == 400
    assert "sentences" in answer.json()["fields"]


def test_the_stream_carries_the_sentences_when_asked_and_not_otherwise(played):
    table_id, ana = played
    expected = events(ana, table_id, "es-mx", sentences="true").json()["results"]
    plain = events(ana, table_id, "es-mx").json()["results"]

    async def read(query: str) -> list[dict[str, Any]]:
        stream = await open_stream(ana, f"/api/v1/tables/{table_id}/stream/{query}", **{"Accept-Language": "es-mx"})
        try:
            return [frame["data"] for frame in await stream.frames_until(expected[-1]["seq"])]
        finally:
            await stream.close()

    assert run(read("?sentences=true&after=0")) == expected
    assert run(read("?after=0")) == plain


def test_the_stream_refuses_a_bad_sentences_parameter(played):
    """Refused, the stream's start gives back the connection it read the token with: the thread
    it ran on is shared by every stream's start (config/asgi.py). Fails on the code before, where
    only a stream that opened gave its connection back."""
    table_id, ana = played

    async def status() -> tuple[int, bool]:
        response = await AsyncClient().get(
            f"/api/v1/tables/{table_id}/stream/?sentences=perhaps",
            headers={"Authorization": ana._credentials["HTTP_AUTHORIZATION"]},
        )
        held = await sync_to_async(lambda: connection.connection is not None, thread_sensitive=True)()
        return response.status_code, held

    assert asyncio.run(status()) == (400, False)
