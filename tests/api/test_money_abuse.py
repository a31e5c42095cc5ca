"""Money an insider or a player could bend (issue 12, item 6): buy-ins are reserved at join, the
owner can free a seat before the start, no answer shows another person's balance, staff cannot
deposit into their own wallet, and a large deposit needs a second member of staff.

Each failed before: a join moved no money (so the same money could sit at two tables, and one
player could make a table unstartable), there was no way to remove a seat, the refused start
showed the owner the player's wallet and balance, and one member of staff could deposit any
amount anywhere, their own wallet included."""

from __future__ import annotations

import pytest

from ledger import keys
from ledger import services as ledger
from ledger.selectors import balance_of
from tests.api.play import fund, person

pytestmark = pytest.mark.django_db

STAKE = {"currency": "MXN", "chip_value": "1.00"}
OPTIONS = {"start_chips": 30, "target": 10}


def money_table(owner) -> str:
    response = owner.post(
        "/api/v1/tables/", {"game": "counter", "seats": 2, "options": OPTIONS, "stake": STAKE}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"]


@pytest.fixture
def people(counter_game):
    alice, bob, staff = person("alice"), person("bob"), person("sam", staff=True)
    fund(staff, alice, "MXN", "50.00")
    fund(staff, bob, "MXN", "50.00")
    return alice, bob, staff


def wallet(client) -> int:
    return balance_of(key=keys.wallet_key(client.user.pk, "MXN"))


def test_a_join_reserves_the_buy_in_and_leaving_gives_it_back(people):
    alice, bob, _ = people
    table_id = money_table(alice)
    assert bob.post(f"/api/v1/tables/{table_id}/join/", {}, format="json").status_code == 200
    assert wallet(bob) == 2000
    assert balance_of(key=keys.reserved_key(table_id, bob.user.pk, "MXN")) == 3000
    assert bob.post(f"/api/v1/tables/{table_id}/leave/").status_code == 200
    assert wallet(bob) == 5000
    assert balance_of(key=keys.reserved_key(table_id, bob.user.pk, "MXN")) == 0


def test_reserved_money_cannot_sit_at_a_second_table_so_the_first_always_starts(people, task_queue):
    alice, bob, _ = people
    first, second = money_table(alice), money_table(alice)
    assert alice.post(f"/api/v1/tables/{first}/join/", {}, format="json").status_code == 200
    assert bob.post(f"/api/v1/tables/{first}/join/", {}, format="json").status_code == 200
    refused = bob.post(f"/api/v1/tables/{second}/join/", {}, format="json")
    assert refused.status_code == 422
    assert refused.json()["code"] == "insufficient_funds"
    started = alice.post(f"/api/v1/tables/{first}/start/")
    assert started.status_code == 200, started.json()
    assert wallet(bob) == 2000  # the reservation became the buy-in, nothing more
    assert balance_of(key=keys.reserved_key(first, bob.user.pk, "MXN")) == 0
    assert ledger.reconcile().ok, ledger.reconcile().lines()


def test_the_owner_removes_a_seat_before_the_start_and_its_reservation_is_released(people):
    alice, bob, _ = people
    table_id = money_table(alice)
    bob.post(f"/api/v1/tables/{table_id}/join/", {"seat": 1}, format="json")
    assert bob.delete(f"/api/v1/tables/{table_id}/seats/1/").status_code == 403
    removed = alice.delete(f"/api/v1/tables/{table_id}/seats/1/")
    assert removed.status_code == 200, removed.json()
    assert [s["taken"] for s in removed.json()["seats"]] == [False, False]
    assert wallet(bob) == 5000
    missing = alice.delete(f"/api/v1/tables/{table_id}/seats/1/")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


def test_seats_cannot_be_removed_after_the_start(people, task_queue):
    alice, bob, _ = people
    table_id = money_table(alice)
    alice.post(f"/api/v1/tables/{table_id}/join/", {}, format="json")
    bob.post(f"/api/v1/tables/{table_id}/join/", {}, format="json")
    assert alice.post(f"/api/v1/tables/{table_id}/start/").status_code == 200
    refused = alice.delete(f"/api/v1/tables/{table_id}/seats/1/")
    assert refused.status_code == 409 and refused.json()["code"] == "table_not_open"


def test_no_answer_shows_another_persons_wallet_or_balance(people, task_queue):
    """A seat that cannot pay at the start (its reservation gone by other means) refuses the start
    without telling the owner whose wallet or how much it holds."""
    alice, bob, staff = people
    table_id = money_table(alice)
    alice.post(f"/api/v1/tables/{table_id}/join/", {}, format="json")
    bob.post(f"/api/v1/tables/{table_id}/join/", {}, format="json")
    from games import settlement
    from games.models import Table

    settlement.release_buy_in(Table.objects.get(pk=table_id), bob.user.pk)
    ledger.withdraw(user=bob.user, currency="MXN", amount_minor=5000, by=staff.user)
    refused = alice.post(f"/api/v1/tables/{table_id}/start/")
    assert refused.status_code == 422
    body = refused.json()
    assert body["code"] == "insufficient_funds"
    text = str(body)
    assert f"wallet:{bob.user.pk}" not in text and "balance" not in body and "0.00" not in text


# --- deposits ----------------------------------------------------------------------------------


def test_staff_cannot_deposit_into_their_own_wallet(db):
    staff = person("sam", staff=True)
    response = staff.post("/api/v1/wallets/sam/deposits/", {"currency": "MXN", "amount": "10.00"}, format="json")
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"
    assert balance_of(key=keys.wallet_key(staff.user.pk, "MXN")) == 0


def test_a_deposit_above_the_limit_waits_for_a_second_member_of_staff(db, settings):
    settings.DEPOSIT_TWO_PERSON_LIMIT = 100_00
    alice, sam, tina = person("alice"), person("sam", staff=True), person("tina", staff=True)
    small = sam.post("/api/v1/wallets/alice/deposits/", {"currency": "MXN", "amount": "100.00"}, format="json")
    assert small.status_code == 201
    large = sam.post("/api/v1/wallets/alice/deposits/", {"currency": "MXN", "amount": "100.01"}, format="json")
    assert large.status_code == 202, large.json()
    pending = large.json()["pending_deposit"]
    assert wallet(alice) == 100_00
    again = sam.post(f"/api/v1/deposits/{pending}/approve/")
    assert again.status_code == 409 and again.json()["code"] == "second_approver_needed"
    assert alice.post(f"/api/v1/deposits/{pending}/approve/").status_code == 403
    approved = tina.post(f"/api/v1/deposits/{pending}/approve/")
    assert approved.status_code == 201, approved.json()
    assert wallet(alice) == 200_01
    assert tina.post(f"/api/v1/deposits/{pending}/approve/").status_code == 201  # the same, once
    assert wallet(alice) == 200_01
    assert tina.post("/api/v1/deposits/not-a-deposit/approve/").status_code == 404
    assert ledger.reconcile().ok, ledger.reconcile().lines()
