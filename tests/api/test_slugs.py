"""Five-Card Draw's former slug ``five_card_draw`` is still taken where a slug is sent, and every
answer names the game ``five-card-draw``, a table stored with the old slug included."""

from __future__ import annotations

import pytest

from games.models import Table
from tests.api.play import person

pytestmark = pytest.mark.django_db

TOURNAMENT = {"format": "tournament", "starting_stack": 10}


def _create(client, game: str) -> dict:
    answer = client.post("/api/v1/tables/", {"game": game, "seats": 2, "options": TOURNAMENT}, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()


def test_the_former_slug_creates_a_table_named_by_the_new_one():
    alice = person("alice")
    table = _create(alice, "five_card_draw")
    assert table["game"] == "five-card-draw"
    assert Table.objects.get(pk=table["id"]).game == "five-card-draw"
    assert alice.get(f"/api/v1/tables/{table['id']}/").json()["game"] == "five-card-draw"


def test_the_tables_filter_takes_either_slug():
    alice = person("alice")
    table = _create(alice, "five-card-draw")
    _create(alice, "five-card-draw")
    for slug in ("five-card-draw", "five_card_draw"):
        listed = alice.get(f"/api/v1/tables/?game={slug}").json()["results"]
        assert len(listed) == 2 and table["id"] in [t["id"] for t in listed], slug
        assert {t["game"] for t in listed} == {"five-card-draw"}
    assert alice.get("/api/v1/tables/?game=euchre").json()["results"] == []


def test_a_table_stored_with_the_former_slug_still_plays_and_answers_the_new_one():
    alice = person("alice")
    table = _create(alice, "five-card-draw")
    Table.objects.filter(pk=table["id"]).update(game="five_card_draw")
    seen = alice.get(f"/api/v1/tables/{table['id']}/")
    assert seen.status_code == 200 and seen.json()["game"] == "five-card-draw"
    assert alice.post(f"/api/v1/tables/{table['id']}/join/", {}, format="json").status_code == 200
    assert alice.post(f"/api/v1/tables/{table['id']}/bots/", {}, format="json").status_code == 201
    started = alice.post(f"/api/v1/tables/{table['id']}/start/", {}, format="json")
    assert started.status_code == 200, started.json()
    assert started.json()["game"] == "five-card-draw" and started.json()["state"]["game"] == "five-card-draw"
