"""Compensations bounded per hand and per person, through HTTP: every compensation upheld for one
player on one hand (on one table, for a claim on a payout) adds up to no more than what the player
lost there, so a hand is compensated once however often it is disputed, and a hand's winner is
compensated nothing; the sum, not each decision, decides whether a second approver is needed, at
the two-person limit of the table's currency; ``reconcile`` flags a sum written around the service;
an auditor who played at a table sees none of its disputes. Every answer is checked against the
document."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import Group

from games.disputes.models import Dispute
from ledger import keys
from ledger import services as ledger
from ledger.models import Payout, Transaction
from ledger.selectors import balance_of
from tests.api.contract import checked
from tests.api.draw import repeat_deals
from tests.api.play import fund, person
from tests.api.test_dispute_bounds import decide, found
from tests.api.test_disputes import disputed_table, file, filed, plain
from tests.api.test_five_card_draw import drive, url

pytestmark = pytest.mark.django_db(transaction=True)


def auditor(name: str):
    """A member of the auditors group who is not staff."""
    client = checked(person(name))
    client.user.groups.add(Group.objects.get_or_create(name="auditors")[0])
    return client


def shove(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """All in when possible, else call or check; stand pat in the draw."""
    kinds = {option["type"] for option in view["legal_actions"]}
    for kind in ("all_in", "call", "check"):
        if kind in kinds:
            return {"type": kind}
    return {"type": "draw", "discard": []}


def all_in_hand(task_queue, monkeypatch, settings, currency: str, chip_value: str) -> dict[str, Any]:
    """A Five-Card Draw cash table where alice and bob each buy 100 chips at ``chip_value`` and go
    all in on hand 1, which ends the table: one of them (``loser``) lost all 100 chips there, the
    other (``winner``) won them and has a pending payout of 200 chips."""
    repeat_deals(monkeypatch, f"all in {currency}")
    settings.DEPOSIT_TWO_PERSON_LIMIT = "*=100000000"  # the players are funded by one member of staff
    alice, bob, sam = person("alice"), person("bob"), person("sam", staff=True)
    for client in (alice, bob):
        fund(sam, client, currency, "10000000")
    options = {"format": "cash", "min_buy_in": 40, "max_buy_in": 100, "forced_bets": "blinds"}
    created = alice.post(
        "/api/v1/tables/",
        {
            "game": "five-card-draw",
            "seats": 2,
            "options": options,
            "stake": {"currency": currency, "chip_value": chip_value},
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    table_id = created.json()["id"]
    for seat, client in enumerate((alice, bob)):
        assert client.post(url(table_id, "join/"), {"seat": seat, "chips": 100}, format="json").status_code == 200
    assert alice.post(url(table_id, "start/")).status_code == 200
    seats = {0: alice, 1: bob}
    final = drive(table_id, seats, task_queue, random.Random(1), until=lambda v: False, players={0: shove, 1: shove})
    assert final["status"] == "finished" and final["state"]["hand_no"] == 1
    payout = Payout.objects.get(table_id=table_id)  # only the winner has chips to cash out
    winner = payout.seat
    return {
        "table_id": table_id,
        "loser": checked(seats[1 - winner]),
        "winner": checked(seats[winner]),
        "payout": payout,
        "auditor": auditor("ada"),
        "sam": checked(sam),
        "tina": checked(person("tina", staff=True)),
    }


def wallet(client, currency: str) -> int:
    return balance_of(key=keys.wallet_key(client.user.pk, currency))


def filed_by(client, table_id: str, **body) -> int:
    response = file(client, table_id, **body)
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def test_an_all_in_hand_disputed_again_and_again_pays_its_loss_once(task_queue, monkeypatch, settings):
    """The reproduction: two players each buy 100 chips at 10.00 EUR and go all in; the loser files,
    an auditor who is not staff and never sat there upholds 1,000.00 EUR, paid on their decision
    alone (at the two-person limit, not above). The player files again ten times: each compensation
    is refused with nothing left (a referral is all that remains), and the player holds no more than
    the loss back."""
    table = all_in_hand(task_queue, monkeypatch, settings, "EUR", "10.00")
    loser, ada = table["loser"], table["auditor"]
    funded = wallet(loser, "EUR") + 1000_00  # what the wallet held before the buy-in
    first = filed_by(loser, table["table_id"])
    paid = decide(ada, first, "1000.00")
    assert paid.status_code == 200, paid.json()
    assert paid.json()["state"] == "upheld" and paid.json()["approvals_needed"] == 1
    assert wallet(loser, "EUR") == funded

    for _round in range(10):
        number = filed_by(loser, table["table_id"])
        limits = plain(ada).get(f"/api/v1/disputes/{number}/review/").json()["compensation_limits"]
        assert (limits["bound"], limits["lost"], limits["compensated"]) == ("0.00", "1000.00", "1000.00")
        for amount in ("1000.00", "0.01"):
            refused = decide(ada, number, amount)
            assert refused.status_code == 422, refused.json()
            body = refused.json()
            assert (body["code"], body["bound"], body["lost"], body["compensated"]) == (
                "compensation_over_bound",
                "0.00",
                "1000.00",
                "1000.00",
            )
            assert "1000.00 EUR" in body["detail"]
        referred = ada.post(
            f"/api/v1/disputes/{number}/decide/",
            {"outcome": "upheld", "reasons": "Compensated already.", "referral": "other"},
            format="json",
        )
        assert referred.status_code == 200 and referred.json()["transaction_id"] is None, referred.json()

    assert wallet(loser, "EUR") == funded  # the 1,000.00 lost, back once
    assert Transaction.objects.filter(kind="dispute_compensation").count() == 1
    report = ledger.reconcile()
    assert report.ok, report.lines()


def test_both_players_of_an_all_in_hand_only_the_loser_is_compensated_at_most_the_loss(
    task_queue, monkeypatch, settings
):
    """The winner lost nothing on the hand, nor at the table (1,000.00 EUR in, 2,000.00 to come):
    not a cent, by either claim. The loser: at most the 1,000.00 lost."""
    table = all_in_hand(task_queue, monkeypatch, settings, "EUR", "10.00")
    ada, winner = table["auditor"], table["winner"]
    claim = filed_by(winner, table["table_id"], payout_id=table["payout"].pk, category="money")
    refused = decide(ada, claim, "0.01")
    assert refused.status_code == 422, refused.json()
    assert (refused.json()["bound"], refused.json()["lost"]) == ("0.00", "0.00")
    assert "lost nothing" in refused.json()["detail"]
    rejected = ada.post(
        f"/api/v1/disputes/{claim}/decide/", {"outcome": "rejected", "reasons": "You won."}, format="json"
    )
    assert rejected.status_code == 200
    won = filed_by(winner, table["table_id"])
    assert decide(ada, won, "0.01").json()["code"] == "compensation_over_bound"

    lost = filed_by(table["loser"], table["table_id"])
    over = decide(ada, lost, "1000.01")
    assert over.status_code == 422 and (over.json()["bound"], over.json()["lost"]) == ("1000.00", "1000.00")
    assert decide(ada, lost, "1000.00").json()["state"] == "upheld"
    assert ledger.reconcile().ok


@pytest.mark.parametrize(
    ("currency", "chip_value", "limit", "above"),
    [
        ("EUR", "20.00", "1000.00", "0.01"),
        ("CLP", "20000", "1000000", "1"),
        ("KWD", "6.000", "300.000", "0.001"),
    ],
)
def test_the_two_person_limit_of_a_sum_is_in_the_currencys_own_units(
    task_queue, monkeypatch, settings, currency, chip_value, limit, above
):
    """The default limits (1000.00 EUR, 1,000,000 CLP, 300.000 KWD): a compensation at the limit of
    its currency is paid on the decision alone; a second one on the same hand, however small, takes
    the sum above it and waits for a second approver."""
    table = all_in_hand(task_queue, monkeypatch, settings, currency, chip_value)
    loser, ada = table["loser"], table["auditor"]
    first = filed_by(loser, table["table_id"])
    alone = decide(ada, first, limit)
    assert alone.status_code == 200 and alone.json()["state"] == "upheld", alone.json()
    assert alone.json()["approvals_needed"] == 1
    second = filed_by(loser, table["table_id"])
    waits = decide(ada, second, above)
    assert waits.status_code == 200, waits.json()
    assert waits.json()["state"] == "awaiting_approval" and waits.json()["approvals_needed"] == 2
    paid = table["sam"].post(f"/api/v1/disputes/{second}/approve/", {}, format="json")
    assert paid.status_code == 200 and paid.json()["state"] == "upheld", paid.json()
    assert ledger.reconcile().ok


@pytest.fixture
def hand(counter_game, task_queue, settings):
    """test_disputes' table: alice lost 3.50 MXN on hand 1 (and at the table); a two-person limit of
    1.00 MXN."""
    return disputed_table(task_queue, settings)


def test_a_sum_over_the_two_person_limit_waits_for_a_second_approver(hand):
    """0.80 MXN is paid on the decision; a second 0.50 on the same hand is under the limit of 1.00
    alone, but the hand's sum, 1.30, is above it: it waits for a second member of staff."""
    ada, sam = hand["ada"], hand["sam"]
    first = filed(hand)["id"]
    assert decide(ada, first, "0.80").json()["state"] == "upheld"
    second = filed(hand)["id"]
    limits = plain(ada).get(f"/api/v1/disputes/{second}/review/").json()["compensation_limits"]
    assert (limits["bound"], limits["lost"], limits["compensated"], limits["two_person_limit"]) == (
        "2.70",
        "3.50",
        "0.80",
        "1.00",
    )
    waits = decide(ada, second, "0.50")
    assert waits.status_code == 200 and waits.json()["state"] == "awaiting_approval", waits.json()
    assert waits.json()["approvals_needed"] == 2
    assert Dispute.objects.get(pk=second).transaction_id is None
    paid = sam.post(f"/api/v1/disputes/{second}/approve/", {}, format="json")
    assert paid.status_code == 200 and paid.json()["state"] == "upheld", paid.json()
    # A claim on her payout counts what her hands' disputes took of the table's loss.
    payout = Payout.objects.get(table_id=hand["table_id"], seat=0)
    claim = file(hand["alice"], hand["table_id"], payout_id=payout.pk, category="money").json()["id"]
    over = decide(ada, claim, "2.21")
    assert over.status_code == 422 and (over.json()["bound"], over.json()["compensated"]) == ("2.20", "1.30")
    assert decide(ada, claim, "2.20").json()["approvals_needed"] == 2
    report = ledger.reconcile()
    assert report.ok, report.lines()


def test_a_declined_compensation_no_longer_counts_in_the_hands_sum(hand):
    """3.00 MXN decided (waiting for its second approval) then declined: the dispute is decided
    again with the whole 3.50 left."""
    ada, sam = hand["ada"], hand["sam"]
    waiting = filed(hand)["id"]
    assert decide(ada, waiting, "3.00").json()["state"] == "awaiting_approval"
    declined = sam.post(f"/api/v1/disputes/{waiting}/decline/", {"reason": "Too much."}, format="json")
    assert declined.status_code == 200, declined.json()
    limits = plain(ada).get(f"/api/v1/disputes/{waiting}/review/").json()["compensation_limits"]
    assert (limits["bound"], limits["compensated"]) == ("3.50", "0.00")
    assert decide(ada, waiting, "3.50").json()["state"] == "awaiting_approval"


def _insider_payment(dispute_id: int, user_id: int, amount: int, *, kind: str = "dispute_compensation"):
    return ledger.post(
        key=f"insider:{dispute_id}:{kind}",
        postings=[
            (keys.house_compensation_key("MXN"), "MXN", -amount),
            (keys.wallet_key(user_id, "MXN"), "MXN", amount),
        ],
        kind=kind,
        reference=f"dispute:{dispute_id}",
    )


def test_reconcile_flags_a_second_upheld_dispute_inserted_around_the_service(hand):
    """alice's loss of 3.50 on hand 1 is compensated in full through the service; an insider then
    writes a second upheld dispute on the hand, with its payment. Each row alone is within the
    loss; their sum is not."""
    first = filed(hand)["id"]
    assert decide(hand["ada"], first, "3.50").json()["state"] == "awaiting_approval"
    assert hand["sam"].post(f"/api/v1/disputes/{first}/approve/", {}, format="json").status_code == 200
    assert ledger.reconcile().ok
    original = Dispute.objects.get(pk=first)
    inserted = Dispute.objects.create(
        table_id=original.table_id,
        hand_no=1,
        user=original.user,
        seat=0,
        category="cards",
        words="Again.",
        state="upheld",
        outcome="upheld",
        compensation=350,
        currency="MXN",
        approvals_needed=2,
        decided_at=original.decided_at,
    )
    txn = _insider_payment(inserted.pk, original.user_id, 350)
    Dispute.objects.filter(pk=inserted.pk).update(transaction=txn)
    problems = found(ledger.reconcile())
    assert ("compensation_over_bound", f"dispute:{inserted.pk}") in problems
    assert ("compensation_over_bound", f"dispute:{first}") not in problems  # within the loss on its own


def test_reconcile_flags_a_payment_from_the_compensation_account_naming_a_dispute(hand):
    """After alice's 3.50 is paid, an insider posts another 3.50 from the compensation account to her
    wallet, naming her dispute: it belongs to no upheld dispute, and her hand's sum is 7.00."""
    first = filed(hand)["id"]
    assert decide(hand["ada"], first, "3.50").json()["state"] == "awaiting_approval"
    assert hand["sam"].post(f"/api/v1/disputes/{first}/approve/", {}, format="json").status_code == 200
    txn = _insider_payment(first, hand["alice"].user.pk, 350, kind="adjustment")
    problems = found(ledger.reconcile())
    assert ("compensation_over_bound", f"dispute:{first}") in problems
    assert ("compensation_without_dispute", f"transaction:{txn.pk}") in problems


def test_an_auditor_who_played_at_a_table_sees_none_of_its_disputes(hand):
    """bob, an auditor, sat at the table: alice's dispute is not in his queue, and asking for it
    answers as if it did not exist; ada, who never sat there, sees it. bob's own dispute is his."""
    bob, ada = hand["bob"], hand["ada"]
    number = filed(hand)["id"]
    queue = bob.get("/api/v1/disputes/queue/")
    assert queue.status_code == 200 and queue.json()["results"] == []
    named = bob.get(f"/api/v1/disputes/queue/?table={hand['table_id']}")
    assert named.status_code == 200 and named.json()["results"] == []
    hidden = bob.get(f"/api/v1/disputes/{number}/")
    assert hidden.status_code == 404, hidden.json()
    assert (hidden.json()["code"], hidden.json()["detail"]) == ("not_found", f"There is no dispute {number}.")
    assert bob.get(f"/api/v1/disputes/{number}/review/").json()["code"] == "played_at_table"
    assert [d["id"] for d in ada.get("/api/v1/disputes/queue/").json()["results"]] == [number]
    assert ada.get(f"/api/v1/disputes/{number}/").status_code == 200

    own = file(bob, hand["table_id"]).json()["id"]
    assert bob.get(f"/api/v1/disputes/{own}/").status_code == 200
    assert [d["id"] for d in bob.get("/api/v1/disputes/").json()["results"]] == [own]
    assert bob.get("/api/v1/disputes/queue/").json()["results"] == []
