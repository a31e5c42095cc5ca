"""The admin as staff use it (issue 26, item 5): a payout's own page shows its seats and money as
people read them and decides it through the same service as the API, so four eyes and a reviewer
who played are refused there too; tables are found and read (never changed) in their own admin
page; a dispute's compensation is shown in currency units; large deposits are listed and decided
by a second member of staff as the API decides them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games.disputes.models import Dispute
from games.models import Table
from ledger import keys
from ledger import services as ledger
from ledger.models import FollowUp, Payout, PayoutDecision, Transaction
from ledger.selectors import balance_of
from ledger.units import format_amount
from tests.api.play import person
from tests.api.test_payouts import finished_table

pytestmark = pytest.mark.django_db(transaction=True)


def admin_client(api_client) -> Client:
    client = Client()
    client.force_login(api_client.user)
    return client


@pytest.fixture
def desk(counter_game, task_queue):
    """A finished counter money table of alice (seat 0) and bob (seat 1), funded by sam; tina and
    uma are other staff, signed in to the admin."""
    alice, sam = person("alice"), person("sam", staff=True)
    table_id = finished_table(task_queue, alice, sam)
    return {
        "table_id": table_id,
        "sam": admin_client(sam),
        "tina": admin_client(person("tina", staff=True)),
        "uma": admin_client(person("uma", staff=True)),
        "payouts": {p.seat: p for p in Payout.objects.filter(table_id=table_id)},
    }


def page(client: Client, payout: Payout) -> str:
    response = client.get(f"/admin/ledger/payout/{payout.pk}/change/")
    assert response.status_code == 200
    return response.content.decode()


def messages_of(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


# --- the payout's page ----------------------------------------------------------------------------


def test_the_payout_page_renders_its_seats_and_says_money_in_currency_units(desk):
    payout = desk["payouts"][0]
    html = page(desk["tina"], payout)
    assert "&lt;br" not in html and "&lt;a" not in html  # no markup shown as text
    bob = desk["payouts"][1].user.username
    assert "seat 0: alice, chips" in html and f"seat 1: {bob}, chips" in html
    money = f"{format_amount(payout.amount, 'MXN')} MXN"
    assert f"{money} pending" in html  # the title, as the amount below it says it
    assert f": {payout.amount} MXN pending" not in html
    assert f"/admin/games/table/{desk['table_id']}/change/" in html
    assert "Approve" in html and 'name="reason"' in html


def test_approve_and_reject_on_the_payout_page_go_through_the_service(desk):
    first, second = desk["payouts"][0], desk["payouts"][1]
    approved = desk["tina"].post(f"/admin/ledger/payout/{first.pk}/approve/", follow=True)
    assert "approval recorded; now approved" in messages_of(approved)
    first.refresh_from_db()
    assert first.status == Payout.Status.APPROVED and first.decisions.get().by.username == "tina"
    assert "Decide this payout" not in page(desk["tina"], first)  # a decided payout offers nothing

    blank = desk["tina"].post(f"/admin/ledger/payout/{second.pk}/reject/", {"reason": ""}, follow=True)
    assert "a reason is required" in messages_of(blank)
    second.refresh_from_db()
    assert second.status == Payout.Status.PENDING
    desk["tina"].post(f"/admin/ledger/payout/{second.pk}/reject/", {"reason": "chip dumping"}, follow=True)
    second.refresh_from_db()
    assert second.status == Payout.Status.REJECTED
    assert FollowUp.objects.get(payout=second).reason == "chip dumping"
    assert desk["tina"].get(f"/admin/ledger/payout/{second.pk}/approve/").status_code == 405
    assert ledger.reconcile().ok, ledger.reconcile().lines()


def test_the_payout_page_refuses_one_person_giving_both_approvals(desk, settings):
    # As if opened above the limit, with the limit to match (reconcile checks the two agree).
    settings.PAYOUT_TWO_PERSON_LIMIT = 1000
    Payout.objects.filter(table_id=desk["table_id"]).update(approvals_needed=2)
    payout = desk["payouts"][0]
    desk["tina"].post(f"/admin/ledger/payout/{payout.pk}/approve/")
    twice = desk["tina"].post(f"/admin/ledger/payout/{payout.pk}/approve/", follow=True)
    assert "a second, different staff member must approve it" in messages_of(twice)
    payout.refresh_from_db()
    assert payout.status == Payout.Status.PENDING and payout.decisions.count() == 1
    assert "1/2" in page(desk["uma"], payout)
    desk["uma"].post(f"/admin/ledger/payout/{payout.pk}/approve/")
    payout.refresh_from_db()
    assert payout.status == Payout.Status.APPROVED
    assert list(PayoutDecision.objects.filter(payout=payout).values_list("by__username", flat=True)) == ["tina", "uma"]
    assert ledger.reconcile().ok, ledger.reconcile().lines()


def test_the_payout_page_refuses_a_reviewer_who_played_at_the_table(counter_game, task_queue):
    sam = person("sam", staff=True)  # plays seat 0, funded by vera
    table_id = finished_table(task_queue, sam, person("vera", staff=True))
    payout = Payout.objects.get(table_id=table_id, seat=1)
    for action, body in (("approve", {}), ("reject", {"reason": "suspicious"})):
        refused = admin_client(sam).post(f"/admin/ledger/payout/{payout.pk}/{action}/", body, follow=True)
        assert "played at this table" in messages_of(refused)
    payout.refresh_from_db()
    assert payout.status == Payout.Status.PENDING and not payout.decisions.exists()


# --- tables ---------------------------------------------------------------------------------------


def test_staff_find_a_table_by_id_player_or_game_and_read_it(desk):
    tina, table_id = desk["tina"], desk["table_id"]
    for term in (table_id, "alice", "counter"):
        found = tina.get("/admin/games/table/", {"q": term})
        assert found.status_code == 200 and table_id in found.content.decode(), term
    assert table_id not in tina.get("/admin/games/table/", {"q": "nobody-played"}).content.decode()
    detail = tina.get(f"/admin/games/table/{table_id}/change/")
    assert detail.status_code == 200
    html = detail.content.decode()
    assert "&lt;" not in html.split('id="content-main"')[1].split("</form>")[0]
    assert "seat 0: alice" in html and "Finished" in html
    assert f'href="/api/v1/tables/{table_id}/hands/1/audit/"' in html
    assert f"table:{table_id}:escrow:MXN: 0.00 MXN" in html
    assert f"/admin/ledger/payout/{desk['payouts'][0].pk}/change/" in html
    assert "0.50 MXN a chip" in html


def test_the_table_admin_changes_nothing_and_names_stalled_tables(desk):
    tina, table_id = desk["tina"], desk["table_id"]
    assert tina.get("/admin/games/table/add/").status_code == 403
    assert tina.post(f"/admin/games/table/{table_id}/delete/", {"post": "yes"}).status_code == 403
    assert table_id not in tina.get("/admin/games/table/", {"stalled": "yes"}).content.decode()
    # A running table whose deadline passed long ago and that nothing played is stalled.
    Table.objects.filter(pk=table_id).update(
        status=Table.Status.RUNNING, deadline_at=timezone.now() - timedelta(minutes=5)
    )
    stalled = tina.get("/admin/games/table/", {"stalled": "yes"}).content.decode()
    assert table_id in stalled and 'alt="True"' in stalled  # the list's stalled column says so too
    assert table_id not in tina.get("/admin/games/table/", {"stalled": "no"}).content.decode()


# --- disputes -------------------------------------------------------------------------------------


def test_the_dispute_admin_shows_compensation_in_currency_units(desk):
    table = Table.objects.get(pk=desk["table_id"])
    payout = desk["payouts"][0]
    dispute = Dispute.objects.create(
        table=table,
        hand_no=1,
        user=payout.user,
        seat=0,
        category="money",
        words="Short paid.",
        state=Dispute.State.UPHELD,
        outcome=Dispute.Outcome.UPHELD,
        compensation=150,
        currency="MXN",
    )
    html = desk["tina"].get(f"/admin/disputes/dispute/{dispute.pk}/change/").content.decode()
    assert "1.50 MXN" in html
    listing = desk["tina"].get("/admin/disputes/dispute/").content.decode()
    assert "1.50 MXN" in listing and f"/admin/games/table/{table.pk}/change/" in listing


# --- large deposits -------------------------------------------------------------------------------


@pytest.fixture
def deposits(settings):
    """Two deposits for alice above the limit, recorded by sam; tina is the second member of staff."""
    settings.DEPOSIT_TWO_PERSON_LIMIT = 100_00
    alice, sam = get_user_model().objects.create_user("alice"), person("sam", staff=True)
    opened = []
    for amount in ("150.00", "300.00"):
        answer = sam.post("/api/v1/wallets/alice/deposits/", {"currency": "MXN", "amount": amount}, format="json")
        assert answer.status_code == 202, answer.json()
        opened.append(Transaction.objects.get(reference=f"deposit:{answer.json()['pending_deposit']}"))
    return {
        "alice": alice,
        "sam": admin_client(sam),
        "tina": admin_client(person("tina", staff=True)),
        "opened": opened,
    }


def test_the_admin_lists_large_deposits_and_decides_them_on_their_page(deposits):
    tina, sam, (first, second) = deposits["tina"], deposits["sam"], deposits["opened"]
    wallet = keys.wallet_key(deposits["alice"].pk, "MXN")
    listing = tina.get("/admin/ledger/pendingdeposit/", {"state": "pending"}).content.decode()
    assert "150.00 MXN" in listing and "300.00 MXN" in listing
    html = tina.get(f"/admin/ledger/pendingdeposit/{first.pk}/change/").content.decode()
    assert "Decide this deposit" in html and "alice" in html and "&lt;" not in html.split("</h1>")[-1]

    own = sam.post(f"/admin/ledger/pendingdeposit/{first.pk}/approve/", follow=True)
    assert "neither the one who recorded it" in messages_of(own)
    assert balance_of(key=wallet) == 0
    blank = tina.post(f"/admin/ledger/pendingdeposit/{first.pk}/reject/", {"reason": " "}, follow=True)
    assert "a reason is required" in messages_of(blank)
    rejected = tina.post(f"/admin/ledger/pendingdeposit/{first.pk}/reject/", {"reason": "bounced"}, follow=True)
    assert "rejected" in messages_of(rejected)
    assert Transaction.objects.get(kind="deposit_rejected").memo == "bounced"
    assert "Decide this deposit" not in tina.get(f"/admin/ledger/pendingdeposit/{first.pk}/change/").content.decode()

    tina.post("/admin/ledger/pendingdeposit/", {"action": "approve_selected", "_selected_action": [second.pk]})
    assert balance_of(key=wallet) == 300_00
    still = tina.get("/admin/ledger/pendingdeposit/", {"state": "pending"}).content.decode()
    assert "150.00 MXN" not in still and "300.00 MXN" not in still
    late = tina.post(f"/admin/ledger/pendingdeposit/{first.pk}/approve/", follow=True)
    assert "already rejected" in messages_of(late) and balance_of(key=wallet) == 300_00
    assert ledger.reconcile().ok, ledger.reconcile().lines()
