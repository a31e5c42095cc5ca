"""Tables over HTTP with the small counter game: seating, starting, acting, events, bad input,
idempotency and money. Whole games are played by a random legal client and a bot."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command

from games import chain, store
from games.models import Event, Table
from ledger import services as ledger
from ledger.selectors import balance_of
from tests.api.play import person

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def alice(counter_game):
    return person("alice")


@pytest.fixture
def bob(counter_game):
    return person("bob")


def new_table(client, **body):
    response = client.post("/api/v1/tables/", {"game": "counter", "seats": 2, **body}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def act(client, table_id, action, version, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(
        f"/api/v1/tables/{table_id}/actions/", {"action": action, "expected_version": version}, format="json", **headers
    )


def table(client, table_id):
    response = client.get(f"/api/v1/tables/{table_id}/")
    assert response.status_code == 200
    return response.json()


def started_pair(alice, bob, **body):
    table_id = new_table(alice, **body)
    assert alice.post(f"/api/v1/tables/{table_id}/join/", {}, format="json").status_code == 200
    assert bob.post(f"/api/v1/tables/{table_id}/join/", {}, format="json").status_code == 200
    started = alice.post(f"/api/v1/tables/{table_id}/start/")
    assert started.status_code == 200, started.json()
    return table_id


def play_randomly(clients_by_seat, table_id, task_queue, rng, *, limit=500):
    """Random legal clients play until the table finishes; queued bot tasks run between moves."""
    for _ in range(limit):
        task_queue.run_until_idle()
        view = table(clients_by_seat[0], table_id)
        if view["status"] == "finished":
            return view
        seat = view["to_act"][0]
        client = clients_by_seat[seat]
        if client is None:  # a bot's turn not yet queued: nothing else can move
            pytest.fail("a bot's turn was not scheduled")
        mine = table(client, table_id)
        response = act(client, table_id, rng.choice(mine["legal_actions"]), mine["version"])
        assert response.status_code == 200, response.json()
    pytest.fail("the game did not finish")


def test_a_whole_game_with_a_person_and_a_bot(alice, task_queue):
    """A person (random legal client) and a bot play to the end over HTTP; the hash chain verifies,
    replay from scratch equals the stored state, and the books reconcile."""
    table_id = new_table(alice, options={"hands": 2, "target": 10})
    assert alice.post(f"/api/v1/tables/{table_id}/join/", {"seat": 0}, format="json").status_code == 200
    assert alice.post(f"/api/v1/tables/{table_id}/bots/", {}, format="json").status_code == 201
    assert alice.post(f"/api/v1/tables/{table_id}/start/").status_code == 200
    final = play_randomly({0: alice, 1: None}, table_id, task_queue, random.Random(7))
    assert final["status"] == "finished"
    events = Event.objects.filter(table_id=table_id)
    assert {e.actor for e in events} >= {"bot:1", f"user:{alice.user.pk}"}
    row = Table.objects.get(pk=table_id)
    assert chain.verify_chain(row) == []
    from games.engine import registry
    from games.engine.codec import encode_state

    game = registry.get("counter")
    from_scratch, version = store.replay_from_scratch(row, game)
    loaded, loaded_version = store.load(table=row, decider=game, cache=False)
    assert version == loaded_version == row.version
    assert encode_state(from_scratch) == encode_state(loaded)
    assert ledger.reconcile().ok
    call_command("check_replay", str(table_id))


def test_seats_start_and_turns_are_enforced(alice, bob):
    table_id = new_table(alice)
    assert alice.post(f"/api/v1/tables/{table_id}/join/", {"seat": 1}, format="json").status_code == 200
    taken = bob.post(f"/api/v1/tables/{table_id}/join/", {"seat": 1}, format="json")
    assert taken.status_code == 409
    assert taken.json()["code"] == "seat_taken"
    not_full = alice.post(f"/api/v1/tables/{table_id}/start/")
    assert not_full.status_code == 409
    assert "1 of 2" in not_full.json()["detail"]
    assert bob.post(f"/api/v1/tables/{table_id}/join/", {}, format="json").json()["your_seat"] == 0
    assert bob.post(f"/api/v1/tables/{table_id}/start/").status_code == 403  # not the owner
    assert alice.post(f"/api/v1/tables/{table_id}/start/").status_code == 200
    twice = alice.post(f"/api/v1/tables/{table_id}/start/")
    assert twice.status_code == 409
    assert twice.json()["code"] == "already_started"
    view = table(alice, table_id)
    waiting = view["to_act"][0]
    idle = alice if waiting == 0 else bob
    out_of_turn = act(idle, table_id, {"type": "add", "amount": 1}, view["version"])
    assert out_of_turn.status_code == 422
    assert out_of_turn.json()["code"] == "illegal_action"
    assert out_of_turn.json()["legal_actions"] == []
    assert Event.objects.filter(table_id=table_id).count() == view["version"]


def test_bad_actions_are_refused_and_write_nothing(alice, bob):
    table_id = started_pair(alice, bob)
    view = table(alice, table_id)
    mover = alice if view["to_act"][0] == 0 else bob
    version = view["version"]
    cases = [
        ({"type": "add", "amount": 99}, 422, "illegal_action"),
        ({"type": "add", "amuont": 1}, 400, "invalid"),
        ({"type": "fold"}, 422, "illegal_action"),
        ({"kind": "add"}, 400, "invalid"),
    ]
    for action, status, code in cases:
        response = act(mover, table_id, action, version)
        assert response.status_code == status, (action, response.json())
        assert response.json()["code"] == code
        assert response.json()["detail"]
    stale = act(mover, table_id, {"type": "add", "amount": 1}, version - 1)
    assert stale.status_code == 409
    assert stale.json()["current_version"] == version
    wrong_type = mover.post(
        f"/api/v1/tables/{table_id}/actions/", {"action": "add", "expected_version": "x"}, format="json"
    )
    assert wrong_type.status_code == 400
    assert set(wrong_type.json()["fields"]) == {"action", "expected_version"}
    extra = mover.post(
        f"/api/v1/tables/{table_id}/actions/",
        {"action": {"type": "add", "amount": 1}, "expected_version": version, "x": 1},
        format="json",
    )
    assert extra.status_code == 400
    stranger = person("mallory")
    assert act(stranger, table_id, {"type": "add", "amount": 1}, version).status_code == 403
    assert Table.objects.get(pk=table_id).version == version
    assert Event.objects.filter(table_id=table_id).count() == version


def test_idempotency_key_acts_once(alice, bob):
    table_id = started_pair(alice, bob)
    view = table(alice, table_id)
    mover = alice if view["to_act"][0] == 0 else bob
    first = act(mover, table_id, {"type": "add", "amount": 2}, view["version"], key="k-1")
    again = act(mover, table_id, {"type": "add", "amount": 2}, view["version"], key="k-1")
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert Table.objects.get(pk=table_id).version == first.json()["version"]
    different = act(mover, table_id, {"type": "add", "amount": 3}, view["version"], key="k-1")
    assert different.status_code == 422
    assert different.json()["code"] == "idempotency_key_reused"
    assert Table.objects.get(pk=table_id).version == first.json()["version"]


def test_views_hide_other_seats_cards(alice, bob):
    """The counter game's dealt card is secret to its seat: neither the table nor the events
    show it to anyone else, or to a spectator, while the hand is on."""
    table_id = started_pair(alice, bob)
    events_alice = alice.get(f"/api/v1/tables/{table_id}/events/?after=0").json()["results"]
    events_bob = bob.get(f"/api/v1/tables/{table_id}/events/?after=0").json()["results"]
    spectator = person("carol")
    events_carol = spectator.get(f"/api/v1/tables/{table_id}/events/?after=0").json()["results"]
    dealt = next(e for e in events_alice if e["type"] == "HandStarted")
    secret = Event.objects.get(table_id=table_id, seq=dealt["seq"]).secret
    alice_card, bob_card = secret["cards"]
    assert dealt["data"]["your_card"] == alice_card
    assert next(e for e in events_bob if e["type"] == "HandStarted")["data"]["your_card"] == bob_card
    assert "your_card" not in next(e for e in events_carol if e["type"] == "HandStarted")["data"]
    for served, hidden in ((events_alice, bob_card), (events_bob, alice_card), (events_carol, alice_card)):
        assert hidden not in strings_in(served)
    assert secret["server_seed"] not in strings_in([events_alice, table(alice, table_id)])


def strings_in(value) -> set[str]:
    """Every string anywhere in a JSON value, so a card code is looked for as a whole value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


def test_long_poll_returns_at_once_when_behind_and_waits_otherwise(alice, bob):
    table_id = started_pair(alice, bob)
    version = table(alice, table_id)["version"]
    behind = alice.get(f"/api/v1/tables/{table_id}/events/?after=0&wait=20").json()
    assert [e["seq"] for e in behind["results"]] == list(range(1, version + 1))
    caught_up = alice.get(f"/api/v1/tables/{table_id}/events/?after={version}&wait=0.2").json()
    assert caught_up["results"] == [] and caught_up["has_more"] is False
    assert caught_up["version"] == version
    bad = alice.get(f"/api/v1/tables/{table_id}/events/?after=-1")
    assert bad.status_code == 400


def test_money_table_needs_the_buy_in_and_pays_the_winner_pending(alice, bob, task_queue):
    staff = person("sam", staff=True)
    table_id = new_table(
        alice, options={"start_chips": 30, "target": 10}, stake={"currency": "MXN", "chip_value": "1.00"}
    )
    broke = bob.post(f"/api/v1/tables/{table_id}/join/", {}, format="json")
    assert broke.status_code == 422
    assert broke.json()["code"] == "insufficient_funds"
    assert "30.00" in broke.json()["detail"]
    for client in (alice, bob):
        deposit = staff.post(
            f"/api/v1/wallets/{client.user.username}/deposits/", {"currency": "MXN", "amount": "50.00"}, format="json"
        )
        assert deposit.status_code == 201, deposit.json()
        assert client.post(f"/api/v1/tables/{table_id}/join/", {}, format="json").status_code == 200
    assert alice.post(f"/api/v1/tables/{table_id}/start/").status_code == 200
    assert balance_of(key=f"wallet:{alice.user.pk}:MXN") == 2000
    final = play_randomly({0: alice, 1: bob}, table_id, task_queue, random.Random(3))
    assert final["status"] == "finished"
    escrow = balance_of(key=f"table:{table_id}:escrow:MXN")
    pending = balance_of(key=f"payout:{table_id}.0:MXN") + balance_of(key=f"payout:{table_id}.1:MXN")
    assert escrow == 0
    assert pending == 6000
    assert ledger.reconcile().ok


def test_bad_table_requests(alice):
    cases = [
        ({"game": "nope", "seats": 2}, "Unknown game"),
        ({"game": "counter", "seats": 9}, "2 to 6"),
        ({"game": "counter", "seats": 2, "options": {"target": 99}}, "Target total"),
        ({"game": "counter", "seats": 2, "options": {"colour": "red"}}, "colour"),
        ({"game": "counter", "seats": 2, "stake": {"currency": "XXX", "chip_value": "1"}}, "XXX"),
        ({"game": "counter", "seats": 2, "stake": {"currency": "MXN", "chip_value": "1.001"}}, "1.001"),
        ({"game": "counter", "seats": "two"}, "seats"),
    ]
    for body, words in cases:
        response = alice.post("/api/v1/tables/", body, format="json")
        assert response.status_code == 400, body
        assert words in str(response.json()), (body, response.json())
    assert not Table.objects.exists()


def test_cm_5_every_answer_shows_the_commitment_of_the_next_hand(alice, bob):
    """Before a hand is dealt its commitment is published (CM-5): each action's answer names the
    commitment of the hand after the current one, also across a hand boundary."""
    from games.models import HandSeed

    table_id = started_pair(alice, bob, options={"hands": 3, "target": 5})
    boundaries = 0
    for _ in range(40):
        view = table(alice, table_id)
        if view["status"] == "finished":
            break
        mover = alice if view["to_act"][0] == 0 else bob
        mine = table(mover, table_id)
        answer = act(mover, table_id, mine["legal_actions"][-1], mine["version"]).json()
        hand_no = answer["table"]["state"]["hand_no"]
        boundaries += any(e["type"] == "HandStarted" for e in answer["events"])
        expected = HandSeed.objects.get(table_id=table_id, hand_no=hand_no + 1).commitment
        assert answer["table"]["next_commitment"] == expected
        assert table(alice, table_id)["next_commitment"] == expected
    assert boundaries >= 2
