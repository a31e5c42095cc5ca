"""One way of saying each thing (issue 14): actors by username, money as decimal strings with the
minor units beside them, RFC 3339 UTC times ending in Z, one cursor page with ``has_more`` on every
list, an events page whose version is never behind its events, and a stale version answering 409
whatever else is wrong."""

from __future__ import annotations

import pytest

from games import selectors
from games.models import Table
from tests.api.play import person
from tests.api.test_tables import act, new_table, started_pair, table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def alice(counter_game):
    return person("alice")


@pytest.fixture
def bob(counter_game):
    return person("bob")


def test_a_stale_version_answers_409_before_the_actions_fields_are_checked(alice, bob):
    table_id = started_pair(alice, bob)
    view = table(alice, table_id)
    client = {0: alice, 1: bob}[view["to_act"][0]]
    mine = table(client, table_id)
    action = {**mine["legal_actions"][0], "no_such_field": 1}
    fresh = act(client, table_id, action, mine["version"])
    assert fresh.status_code == 400 and "action" in fresh.json()["fields"], fresh.json()
    stale = act(client, table_id, action, mine["version"] - 1)
    assert stale.status_code == 409, stale.json()
    assert stale.json()["current_version"] == mine["version"]


def test_the_events_page_says_whether_more_follow_and_is_never_behind(alice, bob):
    table_id = started_pair(alice, bob)
    events = f"/api/v1/tables/{table_id}/events/"
    everything = alice.get(f"{events}?after=0").json()
    assert everything["has_more"] is False and everything["next_cursor"] is None
    assert everything["version"] >= everything["results"][-1]["seq"]
    first = alice.get(f"{events}?after=0&limit=1").json()
    assert [e["seq"] for e in first["results"]] == [1]
    assert first["has_more"] is True and first["next_cursor"] == "1"
    assert first["version"] == everything["version"]
    rest = alice.get(f"{events}?cursor={first['next_cursor']}&limit=500").json()
    assert [e["seq"] for e in rest["results"]] == [e["seq"] for e in everything["results"][1:]]
    for limit in ("0", "501", "x"):
        assert alice.get(f"{events}?limit={limit}").status_code == 400


def test_events_name_people_by_username_with_the_kind_and_seat(alice, bob):
    table_id = started_pair(alice, bob)
    served = alice.get(f"/api/v1/tables/{table_id}/events/").json()["results"]
    by_alice = [e for e in served if e["actor_kind"] == "user"]
    assert by_alice and {e["actor"] for e in by_alice} == {"alice"}
    assert {e["actor_seat"] for e in by_alice} == {table(alice, table_id)["your_seat"]}
    for event in served:
        assert set(event) >= {"actor", "actor_kind", "actor_seat"}
        assert not str(event["actor"]).startswith(("user:", "bot:"))
        if event["actor_kind"] == "system":
            assert event["actor"] is None and event["actor_seat"] is None


def test_times_are_rfc3339_utc_with_z(alice, bob):
    table_id = started_pair(alice, bob)
    view = table(alice, table_id)
    assert view["created_at"].endswith("Z")
    assert all(e["created_at"].endswith("Z") for e in alice.get(f"/api/v1/tables/{table_id}/events/").json()["results"])
    listed = alice.get("/api/v1/tables/").json()["results"]
    assert listed and all(line["created_at"].endswith("Z") for line in listed)


def test_the_tables_list_is_paged_with_a_cursor(alice):
    made = [new_table(alice) for _ in range(3)]
    first = alice.get("/api/v1/tables/?limit=2").json()
    assert set(first) == {"results", "next_cursor", "has_more"}
    assert [t["id"] for t in first["results"]] == made[::-1][:2] and first["has_more"] is True
    rest = alice.get(f"/api/v1/tables/?limit=2&cursor={first['next_cursor']}").json()
    assert [t["id"] for t in rest["results"]] == made[:1]
    assert rest["has_more"] is False and rest["next_cursor"] is None
    assert alice.get("/api/v1/tables/?limit=101").status_code == 400


def test_money_in_the_config_is_a_decimal_string_with_minor_units_beside_it(alice):
    table_id = new_table(
        alice, options={"start_chips": 30, "target": 10}, stake={"currency": "MXN", "chip_value": "1.00"}
    )
    config = table(alice, table_id)["config"]
    assert config["chip_value"] == "1.00" and config["chip_value_minor"] == 100


def test_the_events_version_is_read_after_the_events_so_never_behind_them(alice, bob):
    """A table row read before another command committed used to give the page a version behind
    the events it carried (5 polls in 98); the page reads the version after the events."""
    table_id = started_pair(alice, bob)
    read_first = Table.objects.get(pk=table_id)
    view = table(alice, table_id)
    client = {0: alice, 1: bob}[view["to_act"][0]]
    mine = table(client, table_id)
    assert act(client, table_id, mine["legal_actions"][0], mine["version"]).status_code == 200
    page = selectors.events_page(read_first, None, after=0, limit=500)
    assert page["results"][-1]["seq"] > read_first.version
    assert page["version"] == page["results"][-1]["seq"] == Table.objects.get(pk=table_id).version
