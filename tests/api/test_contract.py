"""The contract is the truth: whole games of every game played through HTTP, every answer (status,
content type, body) validated against the document ``/api/schema/`` serves; the errors too."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.core.cache import cache

from api import limits
from api.schema import FREE_OBJECTS, OPERATIONS
from games.engine import registry
from games.engine.contract import prefix_of
from tests.api import draw, play
from tests.api.contract import ContractClient, check, document
from tests.api.play import Game, set_up
from tests.schemas import untyped

pytestmark = pytest.mark.django_db

GAMES = {
    "la-viuda": Game("la-viuda", 4, people=(0, 2), stake={"currency": "MXN", "chip_value": "5.00"}),
    "whiskey-poker": Game(
        "whiskey-poker",
        3,
        people=(0, 2),
        options={"scoring": "pot", "chips_per_player": 3},
        stake={"currency": "MXN", "chip_value": "2.00"},
    ),
    "euchre": Game(
        "euchre", 4, people=(0, 1), options={"target_points": 3}, stake={"currency": "MXN", "amount": "10.00"}
    ),
    "guerra": Game(
        "guerra", 3, people=(0, 1), options={"max_rounds": 30}, stake={"currency": "MXN", "amount": "10.00"}
    ),
    "five-card-draw": Game(
        "five-card-draw",
        3,
        people=(0, 2),
        options={"format": "tournament", "starting_stack": 10, "forced_bets": "blinds"},
        stake={"currency": "MXN", "amount": "10.00"},
    ),
}


@pytest.fixture(autouse=True)
def contract_clients(monkeypatch):
    """Every client ``play`` makes checks its answers against the document; no throttling."""
    monkeypatch.setattr(play, "APIClient", ContractClient)
    monkeypatch.setattr(limits.CountingThrottle, "allow_request", lambda self, request, view: True)
    cache.clear()


def _choose(game: str, view: dict, rng: random.Random) -> dict:
    if game == "five-card-draw":
        return draw.choose(view, rng)
    # The game's moves; sitting out, sitting in and leaving (CM-20) are tested on their own.
    return rng.choice(play.game_moves(view))


def _play(spec: Game, table_id: str, clients: dict, task_queue, rng: random.Random) -> dict:
    return play.play_to_the_end(
        table_id, clients, task_queue, rng, choose=lambda view, r: _choose(spec.game, view, r), read_events=True
    )


def test_every_operation_is_named_and_tagged():
    ops = {(path, method) for path, item in document()["paths"].items() for method in item}
    assert ops == set(OPERATIONS)
    assert document()["openapi"].startswith("3.1")


def test_every_game_is_typed():
    schemas = document()["components"]["schemas"]
    for decider in registry.all_games():
        prefix = prefix_of(decider.slug)
        for suffix in ("Event", "LegalAction", "View"):
            assert prefix + suffix in schemas, prefix + suffix


def test_every_object_a_client_reads_names_its_properties():
    # An object without properties becomes Record<string, never> or a free dict in a generated
    # client; only the ones listed free, each with its reason, may stay so.
    found = {where.removesuffix("/additionalProperties") for where in untyped(document())}
    assert found == set(FREE_OBJECTS)


def test_a_table_is_told_apart_by_its_game():
    schemas = document()["components"]["schemas"]
    for union in ("Table", "GameView"):
        mapping = schemas[union]["discriminator"]["mapping"]
        assert schemas[union]["discriminator"]["propertyName"] == "game"
        assert set(mapping) == {decider.slug for decider in registry.all_games() if decider.view_type}
        for slug, ref in mapping.items():
            game = schemas[ref.removeprefix("#/components/schemas/")]["properties"]["game"]
            assert game["enum"] == [slug], (union, slug)


def test_no_request_body_has_a_default():
    # With a default, openapi-typescript's default flags make an optional field required (a
    # register without `device`, a table without every option would not compile).
    schemas = document()["components"]["schemas"]
    with_default = [
        name for name, schema in schemas.items() if name.endswith("Request") and '"default"' in json.dumps(schema)
    ]
    assert with_default == []
    options = schemas["EuchreCreateTableRequest"]["properties"]["options"]["properties"]
    assert "Default: `60`." in options["turn_seconds"]["description"]


def test_every_enum_is_named_for_whose_it_is():
    generic = {"KindEnum", "StateEnum", "TypeEnum", "CategoryEnum", "OutcomeEnum", "MoneyEnum", "DirectionEnum"}
    names = [name for name in document()["components"]["schemas"] if name.endswith("Enum")]
    assert not generic & set(names)
    # A name drf-spectacular had to make up for a clash ends in a hash (``Outcome2f7Enum``).
    assert not [name for name in names if re.search(r"[0-9a-f]{3}Enum$", name)]


def test_every_status_says_when_and_which_headers_it_sends():
    for path, item in document()["paths"].items():
        for method, op in item.items():
            for status, response in op["responses"].items():
                where = f"{method} {path} {status}"
                assert response.get("description"), where
                assert "X-Request-ID" in response.get("headers", {}), where
                if status in ("429", "503"):
                    assert "Retry-After" in response["headers"], where
    get_table = document()["paths"]["/api/v1/tables/{table_id}/"]["get"]["responses"]
    assert "ETag" in get_table["200"]["headers"] and "ETag" in get_table["304"]["headers"]
    post_action = document()["paths"]["/api/v1/tables/{table_id}/actions/"]["post"]["responses"]
    assert "Idempotent-Replayed" in post_action["200"]["headers"]


@pytest.mark.long
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_answers_as_documented(game, task_queue):
    spec = GAMES[game]
    owner, staff = play.person("alice"), play.person("sam", staff=True)
    table_id, clients = set_up(spec, owner, staff)
    final = _play(spec, table_id, clients, task_queue, random.Random(7))
    assert final["status"] == "finished"
    owner.get("/api/v1/tables/")
    owner.get(f"/api/v1/tables/{table_id}/events/")
    hands = owner.get(f"/api/v1/tables/{table_id}/hands/")
    for hand in hands.json()["results"][:2]:
        number = hand["hand_no"]
        owner.get(f"/api/v1/tables/{table_id}/hands/{number}/audit/")
        owner.get(f"/api/v1/tables/{table_id}/hands/{number}/verify/")
        owner.get(f"/api/v1/tables/{table_id}/hands/{number}/history.txt")
        owner.get(f"/api/v1/tables/{table_id}/hands/{number}/history.phh")  # a 404 but at Five-Card Draw
    owner.get(f"/api/v1/tables/{table_id}/replay/")
    owner.get("/api/v1/wallets/me/")
    owner.get("/api/v1/ledger/transactions/")
    payouts = staff.get("/api/v1/payouts/").json()["results"]
    if payouts:
        staff.post(f"/api/v1/payouts/{payouts[0]['id']}/approve/", {}, format="json")


def test_errors_answer_as_documented(task_queue):
    owner, staff = play.person("alice"), play.person("sam", staff=True)
    stranger = ContractClient()
    assert stranger.get("/api/v1/games/").status_code == 200
    # 401: no credentials.
    assert stranger.get("/api/v1/tables/").status_code == 401
    # 404: no such table.
    missing = owner.get("/api/v1/tables/00000000-0000-4000-8000-000000000000/")
    assert missing.status_code == 404
    body = missing.json()
    assert body["code"] == "not_found" and body["status"] == 404 and body["type"].endswith(":not_found")
    # 400 with fields.
    bad = owner.post("/api/v1/tables/", {"game": "euchre", "seats": "many"}, format="json")
    assert bad.status_code == 400 and "seats" in bad.json()["fields"]
    # 409 and 422 at a running table.
    table_id, _ = set_up(GAMES["guerra"], owner, staff)
    view = owner.get(f"/api/v1/tables/{table_id}/").json()
    stale = owner.post(
        f"/api/v1/tables/{table_id}/actions/", {"action": {"type": "throw"}, "expected_version": 0}, format="json"
    )
    assert stale.status_code == 409 and "current_version" in stale.json()
    illegal = owner.post(
        f"/api/v1/tables/{table_id}/actions/",
        {"action": {"type": "knock"}, "expected_version": view["version"]},
        format="json",
    )
    assert illegal.status_code == 422 and "legal_actions" in illegal.json()


def test_a_throttled_answer_is_documented(monkeypatch):
    monkeypatch.undo()
    cache.clear()
    client = ContractClient()
    answers = [client.post("/api/v1/auth/token/", {"username": "x", "password": "y"}, format="json") for _ in range(12)]
    throttled = [a for a in answers if a.status_code == 429]
    assert throttled and "retry_after" in throttled[0].json()
    check("POST", "/api/v1/auth/token/", throttled[0])


def test_a_refusal_by_the_rules_is_titled_as_rfc_9110_says(task_queue):
    owner, staff = play.person("alice"), play.person("sam", staff=True)
    table_id, _ = set_up(GAMES["guerra"], owner, staff)
    view = owner.get(f"/api/v1/tables/{table_id}/").json()
    illegal = owner.post(
        f"/api/v1/tables/{table_id}/actions/",
        {"action": {"type": "knock"}, "expected_version": view["version"]},
        format="json",
    )
    assert illegal.status_code == 422 and illegal.json()["title"] == "Unprocessable Content"


def test_the_document_read_names_the_games_registered_now_and_no_other(counter_game):
    """A test that read the document while the test game was registered leaves no trace of that
    game in the document later tests read (the oracle's copy is per set of games)."""

    def audited() -> set[str]:
        return set(document()["components"]["schemas"]["HandAudit"]["discriminator"]["mapping"])

    assert "counter" in audited()
    registry.unregister(counter_game.slug)
    try:
        assert audited() == {decider.slug for decider in registry.all_games()}
    finally:
        registry.register(counter_game)


def test_a_hand_audit_is_told_apart_by_its_game_and_its_events_by_type():
    schemas = document()["components"]["schemas"]
    mapping = schemas["HandAudit"]["discriminator"]["mapping"]
    assert set(mapping) == {decider.slug for decider in registry.all_games()}
    for decider in registry.all_games():
        prefix = prefix_of(decider.slug)
        audit = schemas[f"{prefix}HandAudit"]["properties"]
        assert audit["game"]["enum"] == [decider.slug]
        events = schemas[f"{prefix}AuditEvent"]
        assert events["discriminator"]["propertyName"] == "type"
        assert set(events["discriminator"]["mapping"]) == {cls.__name__ for cls in decider.event_types}
        for cls in decider.event_types:
            variant = schemas[f"{prefix}{cls.__name__}AuditEvent"]["properties"]
            assert variant["type"]["enum"] == [cls.__name__]
            recorded = schemas[variant["data"]["$ref"].removeprefix("#/components/schemas/")]
            # As recorded: no ``type`` inside, money as stored (an integer, never a decimal string).
            assert "type" not in recorded.get("properties", {}), cls.__name__
            assert all(not name.endswith("_minor") for name in recorded.get("properties", {})), cls.__name__
