"""FD-13's top-up through HTTP (with FD-2): a cash player short of the forced bet reads why in their
view and is offered the top-up (its range narrowed to what the wallet pays for) and leaving; a
top-up beyond max_buy_in or the wallet is refused with 422 and a code; one that is taken moves
money wallet -> escrow at chip_value and chips bank -> seat, and the books reconcile. Antes and
blinds; a tournament has no top-up."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from ledger import keys
from ledger import services as ledger
from ledger.selectors import balance_of
from tests.api.play import check_finished_table, fund, person
from tests.api.test_five_card_draw import (
    act,
    drive,
    events_of,
    people_only,
    repeatable,
    url,
    verify_every_hand,
    wallet,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("repeatable")]
__all__ = ["repeatable"]

FCD = "five-card-draw"
STAKE = {"currency": "MXN", "chip_value": "0.50"}  # 50 centavos a chip
WALLET_LEFT = 3  # chips bob's wallet pays for once he has bought in


def caller(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Calls or checks, stands pat: keeps every hand going to the showdown."""
    kinds = {option["type"] for option in view["legal_actions"]}
    if "draw" in kinds:
        return {"type": "draw", "discard": []}
    return {"type": next(kind for kind in ("check", "call", "fold") if kind in kinds)}


def folder(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Folds at every turn (stands pat in a draw): loses what the forced bets put in."""
    kinds = {option["type"] for option in view["legal_actions"]}
    return {"type": "draw", "discard": []} if "draw" in kinds else {"type": "fold"}


def short_table(options: dict[str, Any], buy: int) -> tuple[str, dict[int, APIClient]]:
    """Alice (owner, seat 0), bob (seat 1, buying ``buy`` chips, his wallet left with WALLET_LEFT
    chips' worth) and carol (seat 2); started."""
    sam = person("sam", staff=True)
    clients = {0: person("alice"), 1: person("bob"), 2: person("carol")}
    fund(sam, clients[0], "MXN", "100.00")
    fund(sam, clients[2], "MXN", "100.00")
    fund(sam, clients[1], "MXN", f"{(buy + WALLET_LEFT) * 0.5:.2f}")
    created = clients[0].post(
        "/api/v1/tables/",
        {"game": FCD, "seats": 3, "options": {"max_buy_in": 100, **options}, "stake": STAKE},
        format="json",
    )
    assert created.status_code == 201, created.json()
    table_id = created.json()["id"]
    for seat, client in clients.items():
        body = {"seat": seat, **({"chips": buy} if seat == 1 else {"chips": 100})}
        assert client.post(url(table_id, "join/"), body, format="json").status_code == 200
    assert clients[0].post(url(table_id, "start/")).status_code == 200
    return table_id, clients


@pytest.mark.parametrize(
    ("options", "buy", "bet"),
    [
        ({"ante_amount": 2, "min_buy_in": 2, "opening": "anything_opens"}, 3, 2),
        ({"forced_bets": "blinds", "small_blind": 1, "big_blind": 2, "min_buy_in": 2}, 4, 2),
    ],
    ids=["antes", "blinds"],
)
def test_fd_13_fd_2_a_short_player_is_told_tops_up_through_the_ledger_and_is_dealt_in_again(
    task_queue, options, buy, bet
):
    table_id, clients = short_table(options, buy)
    alice, bob = clients[0], clients[1]
    rng = random.Random(3)
    players = {0: caller, 1: folder, 2: caller}
    drive(table_id, clients, task_queue, rng, until=lambda v: v["state"]["players"][1]["cannot_post"], players=players)

    # FD-2, FD-13: bob reads why he is not dealt in, and may top up (as far as his wallet pays) or leave.
    view = bob.get(url(table_id)).json()
    stack = view["state"]["players"][1]["stack"]
    assert 0 < stack < bet and 1 not in view["state"]["hand"]["players"]
    assert view["state"]["cannot_post"] is True
    assert f"forced bet of {bet}" in view["state"]["notice"] and "top up" in view["state"]["notice"]
    legal = {option["type"]: option for option in view["legal_actions"]}
    assert legal["top_up"] == {"type": "top_up", "min": 1, "max": WALLET_LEFT} and "leave" in legal
    others = alice.get(url(table_id)).json()
    assert others["state"]["players"][1]["cannot_post"] is True and others["state"]["notice"] is None
    assert "top_up" not in {option["type"] for option in others["legal_actions"]}  # alice holds cards

    escrow, seat = keys.escrow_key(table_id, "MXN"), keys.seat_key(table_id, 1)
    before = {"wallet": wallet(bob), "escrow": balance_of(key=escrow), "seat": balance_of(key=seat)}
    assert before["wallet"] == WALLET_LEFT * 50 and before["seat"] == stack

    # Refused with 422 and a code: above max_buy_in, beyond the wallet; nothing moves.
    for chips, code in ((100, "above_max_buy_in"), (WALLET_LEFT + 1, "insufficient_funds"), (0, "no_top_up")):
        refused = act(bob, table_id, {"type": "top_up", "chips": chips}, view["version"])
        assert refused.status_code == 422, refused.json()
        assert refused.json()["code"] == code, refused.json()
        assert {o["type"] for o in refused.json()["legal_actions"]} >= {"top_up", "leave"}
    assert {"wallet": wallet(bob), "escrow": balance_of(key=escrow), "seat": balance_of(key=seat)} == before

    topped = act(bob, table_id, {"type": "top_up", "chips": WALLET_LEFT}, view["version"])
    assert topped.status_code == 200, topped.json()
    assert [event["type"] for event in topped.json()["events"]] == ["ChipsToppedUp"]
    assert topped.json()["events"][0]["data"] == {"type": "ChipsToppedUp", "seat": 1, "chips": WALLET_LEFT, **_value()}
    after = {"wallet": wallet(bob), "escrow": balance_of(key=escrow), "seat": balance_of(key=seat)}
    assert after == {
        "wallet": 0,
        "escrow": before["escrow"] + WALLET_LEFT * 50,
        "seat": stack + WALLET_LEFT,
    }
    state = topped.json()["table"]["state"]
    assert state["players"][1]["stack"] == stack + WALLET_LEFT and not state["cannot_post"] and state["notice"] is None
    assert "top_up" not in {option["type"] for option in topped.json()["table"]["legal_actions"]}  # the wallet is empty
    report = ledger.reconcile()
    assert report.ok, report.lines()

    # The next hand deals bob in again.
    hand_no = state["hand_no"]
    drive(
        table_id,
        clients,
        task_queue,
        rng,
        until=lambda v: v["state"]["hand_no"] > hand_no,
        players={0: caller, 1: caller, 2: caller},
    )
    assert 1 in events_of(table_id, "HandStarted")[-1].data["players"]

    # The owner ends the table: the top-up comes back out with the rest, and the books close.
    assert (
        alice.post(
            url(table_id, "actions/"),
            {"action": {"type": "end_table"}, "expected_version": _version(alice, table_id)},
            format="json",
        ).status_code
        == 200
    )
    drive(
        table_id,
        clients,
        task_queue,
        rng,
        until=lambda v: v["status"] == "finished",
        players={0: caller, 1: caller, 2: caller},
    )
    check_finished_table(table_id)
    # The hand the top-up was made in verifies too: its ledger check reads the top-up's postings.
    assert verify_every_hand(alice, table_id) > hand_no


def _value() -> dict[str, Any]:
    return {"chip_value": "0.50", "chip_value_minor": 50}


def _version(client: APIClient, table_id: str) -> int:
    return client.get(url(table_id)).json()["version"]


def test_fd_13_a_tournament_has_no_top_up(task_queue):
    table_id, clients = people_only(
        2, {"format": "tournament", "starting_stack": 30}, {"currency": "MXN", "amount": "10.00"}
    )
    for client in clients.values():
        view = client.get(url(table_id)).json()
        assert "top_up" not in {option["type"] for option in view["legal_actions"]}
        assert view["state"]["cannot_post"] is False and view["state"]["notice"] is None
        refused = act(client, table_id, {"type": "top_up", "chips": 5}, view["version"])
        assert refused.status_code == 422, refused.json()
        assert refused.json()["code"] in ("no_top_up", "illegal_action")
    assert not events_of(table_id, "ChipsToppedUp")


def test_fd_13_a_top_up_the_empty_wallet_cannot_pay_for_says_so(task_queue):
    """FD-13: once bob's wallet pays for no chip, the top-up is no longer offered, and one sent
    anyway is refused with the wallet's words and ``insufficient_funds``, not as an action not offered."""
    table_id, clients = short_table({"ante_amount": 2, "min_buy_in": 2, "opening": "anything_opens"}, 3)
    bob = clients[1]
    players = {0: caller, 1: folder, 2: caller}
    drive(
        table_id,
        clients,
        task_queue,
        random.Random(3),
        until=lambda v: v["state"]["players"][1]["cannot_post"],
        players=players,
    )
    view = bob.get(url(table_id)).json()
    topped = act(bob, table_id, {"type": "top_up", "chips": WALLET_LEFT}, view["version"])
    assert topped.status_code == 200, topped.json()
    assert "top_up" not in {option["type"] for option in topped.json()["table"]["legal_actions"]}
    refused = act(bob, table_id, {"type": "top_up", "chips": 1}, topped.json()["table"]["version"])
    assert refused.status_code == 422, refused.json()
    assert refused.json()["code"] == "insufficient_funds", refused.json()
    assert "pays for 0 chips at most, not 1" in refused.json()["detail"], refused.json()
