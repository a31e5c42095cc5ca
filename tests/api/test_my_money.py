"""A person's own money over HTTP: their payouts (`GET /me/payouts/`), their wallet's lines in words
(`GET /wallets/me/transactions/`), what a finished table's view says each seat won or lost, and a
staff decision reaching the person's list and their stream. Every answer is checked against the
document (``tests.api.contract``)."""

from __future__ import annotations

import itertools
import random

import pytest

from games import notify
from ledger import keys
from ledger.models import Payout
from ledger.selectors import balance_of
from tests.api import contract, play
from tests.api.play import Game, check_finished_table, play_to_the_end, set_up
from tests.api.test_live import elsewhere, open_stream, run

pytestmark = pytest.mark.django_db(transaction=True)

STAKE = {"currency": "MXN", "amount": "10.00"}


@pytest.fixture(autouse=True)
def _listener():
    notify.shutdown()
    yield
    notify.shutdown()


def every_page(client, path: str, limit: int) -> list[dict]:
    rows, cursor = [], None
    while True:
        query = {"limit": limit, **({"cursor": cursor} if cursor else {})}
        page = client.get(path, query)
        assert page.status_code == 200, page.json()
        rows += page.json()["results"]
        cursor = page.json()["next_cursor"]
        assert page.json()["has_more"] == (cursor is not None)
        if cursor is None:
            return rows


@pytest.fixture
def guerra(task_queue):
    """A finished Guerra table at 10.00 MXN a player, all three seats people (so a person wins):
    alice (seat 0), bob (seat 1) and a third; sam funded them."""
    alice, sam = contract.person("alice"), contract.person("sam", staff=True)
    spec = Game("guerra", 3, people=(0, 1, 2), options={"max_rounds": 30}, stake=STAKE)
    table_id, clients = set_up(spec, alice, sam)
    clients = {seat: contract.checked(c) if c is not None else None for seat, c in clients.items()}
    final = play_to_the_end(table_id, clients, task_queue, random.Random(3))
    check_finished_table(table_id)
    return {"table_id": table_id, "alice": clients[0], "bob": clients[1], "sam": sam, "final": final}


def test_the_end_of_a_money_game_says_what_each_seat_won_or_lost(guerra):
    view = guerra["alice"].get(f"/api/v1/tables/{guerra['table_id']}/").json()
    assert view["status"] == "finished"
    result = {line["seat"]: line for line in view["result"]}
    assert sorted(result) == [0, 1, 2]
    payouts = {p.seat: p for p in Payout.objects.filter(table_id=guerra["table_id"])}
    for seat in (0, 1, 2):
        line = result[seat]
        won = payouts[seat].amount if seat in payouts else 0
        assert line["paid"] == "10.00" and line["paid_minor"] == 1000
        assert line["won_minor"] == won and line["net_minor"] == won - 1000
        assert line["payout"] == ({"id": payouts[seat].pk, "status": "pending"} if seat in payouts else None)
        assert line["chips"] is None  # Guerra is played for a stake, not chips
        assert not line["bot"] and line["currency"] == "MXN"
    # Every stake went to someone: the prizes add up to the three stakes.
    assert sum(line["won_minor"] for line in result.values()) == 3 * 1000


def test_a_running_tables_view_has_no_result_yet(counter_game):
    from tests.api.test_tables import started_pair

    # The test game has no table of its own in the document: its view is read unchecked.
    alice, bob = play.person("alice"), play.person("bob")
    table_id = started_pair(alice, bob)
    assert alice.get(f"/api/v1/tables/{table_id}/").json()["result"] is None


def test_a_chip_game_result_counts_chips_won_and_lost(task_queue):
    alice, sam = contract.person("alice"), contract.person("sam", staff=True)
    spec = Game(
        "whiskey-poker",
        3,
        people=(0, 2),
        options={"scoring": "pot", "chips_per_player": 3},
        stake={"currency": "MXN", "chip_value": "2.00"},
    )
    table_id, clients = set_up(spec, alice, sam)
    play_to_the_end(table_id, clients, task_queue, random.Random(5))
    result = alice.get(f"/api/v1/tables/{table_id}/").json()["result"]
    # Chips only change hands: what some won, others lost; and each person paid for their 3 chips.
    assert sum(line["chips"] for line in result) == 0 and any(line["chips"] for line in result)
    people = [line for line in result if not line["bot"]]
    assert [line["paid"] for line in people] == ["6.00", "6.00"]
    # A bot plays from the house's bankroll, which the books keep for all bots together.
    (bot,) = [line for line in result if line["bot"]]
    assert bot["player"] is None and bot["paid"] is None and bot["net"] is None and bot["won"] is not None
    for line in people:
        assert line["net_minor"] == line["won_minor"] - line["paid_minor"]


def test_a_person_reads_their_own_payouts_and_nobody_elses(guerra):
    alice, bob, table_id = guerra["alice"], guerra["bob"], guerra["table_id"]
    carol = contract.person("carol")
    payouts = {p.user_id: p for p in Payout.objects.filter(table_id=table_id, user__isnull=False)}
    assert payouts, "someone at the table won"
    for client in (alice, bob):
        rows = every_page(client, "/api/v1/me/payouts/", 1)
        if client.user.pk not in payouts:
            assert rows == []
            continue
        (row,) = rows
        payout = payouts[client.user.pk]
        assert row["id"] == payout.pk and row["table_id"] == table_id and row["game"] == "guerra"
        assert row["game_name"] == "Guerra Chevichona" and row["seat"] == payout.seat
        assert row["amount_minor"] == payout.amount and row["currency"] == "MXN"
        assert row["status"] == "pending" and row["reason"] is None and row["decided_at"] is None
        assert row["status_text"].startswith("Waiting for staff review")
    assert every_page(carol, "/api/v1/me/payouts/", 10) == []
    assert carol.get("/api/v1/wallets/me/transactions/").json()["results"] == []
    # Words in the reader's language, machine fields the same.
    if alice.user.pk in payouts:
        spanish = alice.get("/api/v1/me/payouts/", HTTP_ACCEPT_LANGUAGE="es-mx").json()["results"][0]
        assert spanish["status"] == "pending" and not spanish["status_text"].startswith("Waiting")


def test_wallet_lines_say_each_movement_in_words_with_the_balance_after(guerra):
    alice, table_id = guerra["alice"], guerra["table_id"]
    rows = every_page(alice, "/api/v1/wallets/me/transactions/", 2)
    assert len(rows) >= 4
    assert [row["id"] for row in rows] == sorted((row["id"] for row in rows), reverse=True)
    # Newest first: the newest line's balance is the wallet's; each older one is the newer less its amount.
    assert rows[0]["balance_after_minor"] == balance_of(key=keys.wallet_key(alice.user.pk, "MXN"))
    for newer, older in itertools.pairwise(rows):
        assert older["balance_after_minor"] == newer["balance_after_minor"] - newer["amount_minor"]
    assert rows[-1]["kind"] == "deposit" and rows[-1]["balance_after"] == "1000.00"
    assert rows[-1]["description"] == "Deposit" and rows[-1]["table_id"] is None
    kinds = [row["kind"] for row in rows]
    assert "buy_in_reserved" in kinds and "buy_in_released" in kinds
    stake = next(row for row in rows if row["description"] == "Stake for a game")
    assert stake["amount"] == "-10.00" and stake["table_id"] == table_id and stake["game"] == "guerra"
    persian = alice.get("/api/v1/wallets/me/transactions/", HTTP_ACCEPT_LANGUAGE="fa").json()["results"]
    assert [row["kind"] for row in persian] == kinds[: len(persian)]
    assert all(row["description"] != english["description"] for row, english in zip(persian, rows, strict=False))


def test_staff_decisions_reach_the_persons_payouts_wallet_and_stream(counter_game, task_queue):
    from tests.api.test_payouts import finished_table

    # The test game's tables are played unchecked (the document has no table of theirs); every
    # answer about the person's money is checked.
    player, sam = play.person("alice"), play.person("sam", staff=True)
    table_id = finished_table(task_queue, player, sam)
    alice, tina = contract.checked(player), contract.person("tina", staff=True)
    mine = Payout.objects.get(table_id=table_id, seat=0)
    theirs = Payout.objects.get(table_id=table_id, seat=1)
    bob = contract.ContractClient()
    bob.force_authenticate(theirs.user)

    async def scenario():
        stream = await open_stream(alice, "/api/v1/me/stream/")
        approve = elsewhere(
            lambda: tina.post(f"/api/v1/payouts/{mine.pk}/approve/", {"reason": "clean game"}, format="json")
        )
        assert (await approve()).status_code == 200
        notice = await stream.frame()
        await stream.close()
        return notice

    notice = run(scenario())
    assert notice["event"] == "payout_decided"
    assert notice["data"]["payout"] == mine.pk and notice["data"]["status"] == "approved"

    row = alice.get("/api/v1/me/payouts/").json()["results"][0]
    assert row["id"] == mine.pk and row["status"] == "approved" and row["reason"] == "clean game"
    assert row["decided_at"] and row["transaction_id"] and row["approvals"] == 1
    paid = alice.get("/api/v1/wallets/me/transactions/").json()["results"][0]
    assert paid["kind"] == "payout_paid" and paid["payout_id"] == mine.pk
    assert paid["amount_minor"] == mine.amount and paid["description"] == "Winnings paid out after review"

    rejected = tina.post(f"/api/v1/payouts/{theirs.pk}/reject/", {"reason": "collusion suspected"}, format="json")
    assert rejected.status_code == 200, rejected.json()
    (row,) = bob.get("/api/v1/me/payouts/").json()["results"]
    assert row["status"] == "rejected" and row["reason"] == "collusion suspected"
    assert row["status_text"].startswith("Rejected")
    # Neither sees the other's payout.
    assert [r["id"] for r in alice.get("/api/v1/me/payouts/").json()["results"]] == [mine.pk]


def test_refusals_are_problems_the_document_declares(db):
    alice = contract.person("alice")
    for path in ("/api/v1/me/payouts/", "/api/v1/wallets/me/transactions/"):
        too_many = alice.get(path, {"limit": 101})
        assert too_many.status_code == 400 and too_many.json()["code"] == "invalid"
        assert too_many.json()["type"] == "urn:gameledger:problem:invalid"
        assert alice.get(path, {"cursor": "nonsense"}).status_code == 400
        stranger = contract.ContractClient().get(path)
        assert stranger.status_code == 401 and stranger.json()["code"] == "not_authenticated"


def test_a_payout_decided_changes_the_finished_tables_etag(guerra):
    alice, table_id = guerra["alice"], guerra["table_id"]
    payout = Payout.objects.filter(table_id=table_id, user__isnull=False).first()
    path = f"/api/v1/tables/{table_id}/"
    tag = alice.get(path)["ETag"]
    assert alice.get(path, HTTP_IF_NONE_MATCH=tag).status_code == 304
    decided = guerra["sam"].post(f"/api/v1/payouts/{payout.pk}/approve/", {}, format="json")
    assert decided.status_code == 200, decided.json()
    # Same version, but the result says where the prize is now: the old tag no longer matches.
    again = alice.get(path, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 200 and again["ETag"] != tag
    line = next(line for line in again.json()["result"] if line["seat"] == payout.seat)
    assert line["payout"] == {"id": payout.pk, "status": "approved"}
