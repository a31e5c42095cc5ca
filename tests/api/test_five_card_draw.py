"""Five-Card Draw through HTTP: a cash table with chosen buy-ins, a player leaving with a cash-out,
the owner ending the table and its payouts reviewed (FD-2, FD-12, FD-13); a tournament to its
winner (FD-13); the refusals a client meets (FD-6, FD-13, FD-18); and the games endpoint."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Event, Table
from ledger import keys
from ledger.models import Payout
from ledger.selectors import balance_of
from tests.api.draw import choose, passive, repeat_deals
from tests.api.play import check_finished_table, fund, person

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("repeatable")]

FCD = "five-card-draw"
CASH_STAKE = {"currency": "MXN", "chip_value": "0.50"}  # 50 centavos a chip


@pytest.fixture
def repeatable(monkeypatch):
    """The same deals and bot choices every run."""
    repeat_deals(monkeypatch, "fcd http")


def url(table_id: str, tail: str = "") -> str:
    return f"/api/v1/tables/{table_id}/{tail}"


def wallet(client: APIClient, currency: str = "MXN") -> int:
    """The client's wallet in minor units, as the wallets endpoint answers."""
    rows = client.get("/api/v1/wallets/me/").json()["wallets"]
    return next((row["balance_minor"] for row in rows if row["currency"] == currency), 0)


# --- playing through HTTP ------------------------------------------------------------------------


def act(client: APIClient, table_id: str, action: dict[str, Any], version: int):
    return client.post(url(table_id, "actions/"), {"action": action, "expected_version": version}, format="json")


def drive(
    table_id: str,
    clients: dict[int, APIClient | None],
    task_queue,
    rng: random.Random,
    *,
    until: Callable[[dict[str, Any]], bool],
    players: dict[int, Callable[[dict[str, Any], random.Random], dict[str, Any]]] | None = None,
    limit: int = 5_000,
) -> dict[str, Any]:
    """Bots act through the task queue, people through HTTP with ``expected_version``, until
    ``until(view)`` holds for the view of the first person (or the table finishes). Returns that view."""
    players = players or {}
    watcher = next(client for client in clients.values() if client is not None)
    for _ in range(limit):
        task_queue.run_until_idle()
        view = watcher.get(url(table_id)).json()
        if view["status"] == "finished" or until(view):
            return view
        people = [seat for seat in view["to_act"] if clients.get(seat) is not None]
        assert people, f"nobody to act and no task queued: {view['to_act']}"
        seat = people[0]
        mine = clients[seat].get(url(table_id)).json()
        action = players.get(seat, choose)(mine, rng)
        response = act(clients[seat], table_id, action, mine["version"])
        assert response.status_code == 200, (action, response.json())
    pytest.fail("the table did not get there")


def events_of(table_id: str, type_name: str) -> list[Event]:
    return list(Event.objects.filter(table_id=table_id, type=type_name).order_by("seq"))


def verify_every_hand(client: APIClient, table_id: str) -> int:
    """Every finished hand's verify endpoint answers ok; returns how many hands there were."""
    hands = client.get(url(table_id, "hands/?limit=100")).json()
    assert hands["has_more"] is False
    for summary in hands["results"]:
        verified = client.get(summary["verify"]).json()
        assert verified["ok"] is True, verified
    return len(hands["results"])


# --- the cash table ---------------------------------------------------------------------------------


def test_fd_13_cash_table_buy_ins_a_departure_cashed_out_the_owner_ends_and_payouts_are_reviewed(task_queue):
    """FD-13 and FD-2: two people buy in with different chips (reserved at chip_value), four bots;
    bob leaves mid-hand and is cashed out when the hand is over, through a payout opened at once;
    the owner ends the table, everyone cashes out; FD-12: the books and chips reconcile."""
    alice, bob, carol = person("alice"), person("bob"), person("carol")
    sam = person("sam", staff=True)
    for client in (alice, bob, carol):
        fund(sam, client, "MXN", "1000.00")
    created = alice.post(
        "/api/v1/tables/",
        {
            "game": FCD,
            "seats": 6,
            "options": {"format": "cash", "min_buy_in": 40, "max_buy_in": 200, "forced_bets": "blinds"},
            "stake": CASH_STAKE,
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    table_id = created.json()["id"]

    # Buy-ins out of range are refused, naming the field (FD-13).
    for chips in (39, 201):
        refused = bob.post(url(table_id, "join/"), {"seat": 3, "chips": chips}, format="json")
        assert refused.status_code == 400, refused.json()
        assert "chips" in refused.json()["fields"] and "40 to 200" in refused.json()["detail"]
    assert wallet(bob) == 1000_00

    # Chosen buy-ins are reserved from the wallet at chip_value; without 'chips', the most.
    assert alice.post(url(table_id, "join/"), {"seat": 0, "chips": 150}, format="json").status_code == 200
    assert bob.post(url(table_id, "join/"), {"seat": 3, "chips": 80}, format="json").status_code == 200
    assert carol.post(url(table_id, "join/"), {"seat": 1}, format="json").status_code == 200
    assert (wallet(alice), wallet(bob), wallet(carol)) == (1000_00 - 75_00, 1000_00 - 40_00, 1000_00 - 100_00)
    assert balance_of(key=keys.reserved_key(table_id, bob.user.pk, "MXN")) == 40_00
    assert carol.post(url(table_id, "leave/")).status_code == 200
    assert wallet(carol) == 1000_00
    for seat in (1, 2, 4, 5):
        assert alice.post(url(table_id, "bots/"), {"seat": seat}, format="json").status_code == 201
    started = alice.post(url(table_id, "start/"))
    assert started.status_code == 200, started.json()
    stacks = events_of(table_id, "TableStarted")[0].data["stacks"]
    assert stacks == [150, 200, 200, 80, 200, 200]
    assert (wallet(alice), wallet(bob)) == (1000_00 - 75_00, 1000_00 - 40_00)

    clients: dict[int, APIClient | None] = {0: alice, 1: None, 2: None, 3: bob, 4: None, 5: None}
    rng = random.Random(5)
    # Play some hands, then bob asks to leave in the middle of one he is still in with chips behind.
    view = drive(
        table_id,
        clients,
        task_queue,
        rng,
        until=lambda v: (
            v["state"]["hand_no"] >= 3
            and 3 in v["to_act"]
            and v["state"]["players"][3]["stack"] > 0
            and v["state"]["hand"]["phase"] == "betting"
        ),
    )
    assert view["status"] == "running"
    hand_no = view["state"]["hand_no"]
    left = bob.post(url(table_id, "leave/"))
    assert left.status_code == 200, left.json()
    assert left.json()["state"]["players"][3]["leaving"] is True
    assert events_of(table_id, "LeaveRequested")[0].data == {"seat": 3}
    folded = [e for e in events_of(table_id, "PlayerActed") if e.data["seat"] == 3][-1]
    assert folded.data["action"] == "fold" and folded.seq > events_of(table_id, "LeftTable")[0].seq
    assert not Payout.objects.filter(table_id=table_id).exists()  # not before the hand is over
    again = bob.post(url(table_id, "leave/"))
    assert again.status_code == 422, again.json()

    # Bob's hand is folded at once (CM-20); when the hand is over he is cashed out.
    view = drive(
        table_id,
        clients,
        task_queue,
        rng,
        until=lambda v: v["state"]["hand_no"] > hand_no,
        players={3: passive},
    )
    departed = events_of(table_id, "PlayerLeft")
    assert [(e.data["seat"], e.data["reason"]) for e in departed] == [(3, "left")]
    chips = departed[0].data["chips"]
    assert chips > 0 and departed[0].hand_no == hand_no
    assert view["state"]["players"][3]["present"] is False and 3 not in view["state"]["hand"]["players"]
    payout = Payout.objects.get(table_id=table_id, seat=3)
    assert payout.user == bob.user and payout.amount == chips * 50 and payout.status == Payout.Status.PENDING

    # Staff reviews it while the table plays on; the money reaches bob's wallet.
    pending = sam.get("/api/v1/payouts/?status=pending").json()["results"]
    row = next(r for r in pending if r["id"] == payout.pk)
    assert row["player"] == "bob" and row["table"]["status"] == "running"
    approved = sam.post(f"/api/v1/payouts/{payout.pk}/approve/", {"reason": "left the table"}, format="json")
    assert approved.status_code == 200 and approved.json()["status"] == "approved", approved.json()
    assert wallet(bob) == 1000_00 - 40_00 + chips * 50

    # Bob is no longer at the table: nothing of his is awaited; he may not end it either.
    version = alice.get(url(table_id)).json()["version"]
    refused = act(bob, table_id, {"type": "end_table"}, version)
    assert refused.status_code == 403, refused.json()

    # Two more hands, then the owner ends the table: it ends when the hand under way is over.
    view = drive(table_id, clients, task_queue, rng, until=lambda v: v["state"]["hand_no"] >= hand_no + 2)
    assert view["status"] == "running"
    ended = act(alice, table_id, {"type": "end_table"}, view["version"])
    assert ended.status_code == 200, ended.json()
    assert ended.json()["table"]["state"]["end_requested"] is True
    final = drive(table_id, clients, task_queue, rng, until=lambda v: False)
    assert final["status"] == "finished"
    table_ended = events_of(table_id, "TableEnded")
    assert len(table_ended) == 1 and table_ended[0].data["reason"] == "owner_ended"
    cash_out = table_ended[0].data["cash_out"]
    assert cash_out[3] == 0  # bob was cashed out already

    # A payout for every seat with chips; the bots' are decided by rule, the people's by staff.
    payouts = {p.seat: p for p in Payout.objects.filter(table_id=table_id)}
    with_chips = {seat for seat, chips in enumerate(cash_out) if chips}
    assert set(payouts) == with_chips | {3}
    for seat in with_chips:
        assert payouts[seat].amount == cash_out[seat] * 50
        assert payouts[seat].status == (Payout.Status.APPROVED if clients[seat] is None else Payout.Status.PENDING)
    if 0 in with_chips:
        before = wallet(alice)
        decided = sam.post(f"/api/v1/payouts/{payouts[0].pk}/approve/", {}, format="json")
        assert decided.status_code == 200 and decided.json()["status"] == "approved", decided.json()
        assert wallet(alice) == before + cash_out[0] * 50
    # FD-12: every chip bought was cashed out, the books balance, the escrow is empty.
    assert sum(cash_out) + chips == sum(stacks)
    pending_money = check_finished_table(table_id)
    assert sum(pending_money.values()) == sum(stacks) * 50
    assert verify_every_hand(alice, table_id) >= hand_no + 2


# --- the tournament ---------------------------------------------------------------------------------


def test_fd_13_a_tournament_is_played_to_its_winner_who_takes_every_stake(task_queue):
    """FD-13: everyone pays the stake for the same starting stack; players with no chips are
    eliminated, placed from the last; the last with chips wins every stake through a payout."""
    alice, bob, sam = person("alice"), person("bob"), person("sam", staff=True)
    for client in (alice, bob):
        fund(sam, client, "MXN", "100.00")
    created = alice.post(
        "/api/v1/tables/",
        {
            "game": FCD,
            "seats": 4,
            "options": {"format": "tournament", "starting_stack": 20, "forced_bets": "blinds"},
            "stake": {"currency": "MXN", "amount": "10.00"},
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    table_id = created.json()["id"]
    # A tournament has no buy-in to choose (FD-13).
    chosen = bob.post(url(table_id, "join/"), {"seat": 2, "chips": 20}, format="json")
    assert chosen.status_code == 400 and "chips" in chosen.json()["fields"], chosen.json()
    assert alice.post(url(table_id, "join/"), {"seat": 0}, format="json").status_code == 200
    assert bob.post(url(table_id, "join/"), {"seat": 2}, format="json").status_code == 200
    assert (wallet(alice), wallet(bob)) == (90_00, 90_00)
    for seat in (1, 3):
        assert alice.post(url(table_id, "bots/"), {"seat": seat}, format="json").status_code == 201
    assert alice.post(url(table_id, "start/")).status_code == 200
    assert events_of(table_id, "TableStarted")[0].data["stacks"] == [20, 20, 20, 20]
    clients: dict[int, APIClient | None] = {0: alice, 1: None, 2: bob, 3: None}

    final = drive(table_id, clients, task_queue, random.Random(3), until=lambda v: False)
    assert final["status"] == "finished"
    out = events_of(table_id, "PlayerEliminated")
    assert sorted(e.data["place"] for e in out) == [2, 3, 4]
    ended = events_of(table_id, "TableEnded")[0].data
    (winner,) = ended["winners"]
    assert winner not in {e.data["seat"] for e in out}
    assert ended["reason"] == "one_player_left" and ended["prize"] == 4 * 10_00
    assert final["state"]["winners"] == [winner]
    assert [p["stack"] for p in final["state"]["players"]] == [0, 0, 0, 0]  # the chips went back to the bank
    payouts = list(Payout.objects.filter(table_id=table_id))
    assert [(p.seat, p.amount) for p in payouts] == [(winner, 4 * 10_00)]
    pending = check_finished_table(table_id)
    assert sum(pending.values()) == 4 * 10_00
    if clients[winner] is not None:
        before = wallet(clients[winner])
        approved = sam.post(f"/api/v1/payouts/{payouts[0].pk}/approve/", {}, format="json")
        assert approved.status_code == 200 and approved.json()["status"] == "approved", approved.json()
        assert wallet(clients[winner]) == before + 4 * 10_00
    else:
        assert payouts[0].status == Payout.Status.APPROVED and payouts[0].automatic
    assert verify_every_hand(alice, table_id) == final["state"]["hand_no"]
    # The hand histories are in words and name the players (alice, bob): no field=value lines.
    for hand_no in range(1, final["state"]["hand_no"] + 1):
        history = alice.get(url(table_id, f"hands/{hand_no}/history.txt")).content.decode()
        lines = [line for line in history.splitlines() if line.startswith("#")]
        assert lines and not [line for line in lines if "=" in line or "{'" in line or "[" in line], history
        assert "alice" in history and "bob" in history


# --- refusals ----------------------------------------------------------------------------------------


def new_table(owner: APIClient, seats: int, options: dict[str, Any], stake: dict[str, Any] | None = None):
    return owner.post(
        "/api/v1/tables/", {"game": FCD, "seats": seats, "options": options, "stake": stake}, format="json"
    )


def people_only(seats: int, options: dict[str, Any], stake: dict[str, Any] | None = None):
    """A started table of people only (alice owns it and sits at seat 0); money from sam if staked."""
    sam = person("sam", staff=True)
    clients = {seat: person("alice" if seat == 0 else f"player{seat}") for seat in range(seats)}
    created = new_table(clients[0], seats, options, stake)
    assert created.status_code == 201, created.json()
    table_id = created.json()["id"]
    for seat, client in clients.items():
        if stake:
            fund(sam, client, stake["currency"], "100.00")
        assert client.post(url(table_id, "join/"), {"seat": seat}, format="json").status_code == 200
    assert clients[0].post(url(table_id, "start/")).status_code == 200
    return table_id, clients


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"variant": "triple_draw_27", "high_low": True}, "high-low"),
        ({"opening": "jacks_or_better", "forced_bets": "blinds"}, "Jacks or better"),
        ({"wild": "jokers", "variant": "triple_draw_27"}, "Two jokers"),
        ({"wild": "deuces", "high_low": True}, "High-low"),
        ({"ace_rule": "five_with_ace", "variant": "triple_draw_27"}, "ace rule (Five cards with an ace)"),
        ({"min_buy_in": 100, "max_buy_in": 50}, "maximum buy-in (50)"),
        ({"small_blind": 5, "big_blind": 2, "forced_bets": "blinds"}, "small blind (5)"),
        ({"format": "tournament", "max_buy_in": 50}, "starting chips"),
        ({"starting_stack": 50}, "Starting chips"),
    ],
)
def test_fd_18_refused_combinations_are_refused_at_creation_naming_the_conflict(options, named):
    """FD-18: a combination that makes no sense is a 400 whose sentence names the options in
    words (their codes stay in the request)."""
    refused = new_table(person("alice"), 4, options)
    assert refused.status_code == 400, refused.json()
    assert "options" in refused.json()["fields"] and named in refused.json()["detail"], refused.json()
    assert not Table.objects.exists()


def test_fd_13_money_follows_the_format():
    """FD-13: a cash table takes a chip_value, a tournament an amount per player."""
    alice = person("alice")
    wrong = new_table(alice, 3, {"format": "tournament"}, CASH_STAKE)
    assert wrong.status_code == 400 and "amount" in wrong.json()["detail"], wrong.json()
    wrong = new_table(alice, 3, {}, {"currency": "MXN", "amount": "10.00"})
    assert wrong.status_code == 400 and "chip_value" in wrong.json()["detail"], wrong.json()


def test_chips_cannot_be_chosen_at_a_game_without_a_choice():
    """Only a game with a buy-in range (FD-13's cash tables) takes 'chips' at join."""
    alice, sam = person("alice"), person("sam", staff=True)
    fund(sam, alice, "MXN", "100.00")
    created = alice.post(
        "/api/v1/tables/",
        {"game": "la-viuda", "seats": 4, "options": {}, "stake": {"currency": "MXN", "chip_value": "5.00"}},
        format="json",
    )
    assert created.status_code == 201, created.json()
    refused = alice.post(url(created.json()["id"], "join/"), {"seat": 0, "chips": 10}, format="json")
    assert refused.status_code == 400 and "chips" in refused.json()["fields"], refused.json()
    assert wallet(alice) == 100_00


def test_fd_13_nobody_ends_a_tournament(task_queue):
    """FD-13: ending is for cash tables; a tournament ends only with its winner. (Leaving one is
    allowed since CM-20: tests/api/test_presence_draw.py.)"""
    table_id, clients = people_only(
        2, {"format": "tournament", "starting_stack": 30}, {"currency": "MXN", "amount": "5.00"}
    )
    version = clients[0].get(url(table_id)).json()["version"]
    ended = act(clients[0], table_id, {"type": "end_table"}, version)
    assert ended.status_code == 422 and "tournament" in ended.json()["detail"], ended.json()
    assert Table.objects.get(pk=table_id).version == version


def test_fd_13_only_the_owner_ends_a_cash_table(task_queue):
    """FD-13: ending a cash table is the owner's command; another player's is refused (403)."""
    table_id, clients = people_only(3, {"format": "cash"}, CASH_STAKE)
    version = clients[0].get(url(table_id)).json()["version"]
    for seat in (1, 2):
        refused = act(clients[seat], table_id, {"type": "end_table"}, version)
        assert refused.status_code == 403 and "owner" in refused.json()["detail"], refused.json()
    assert Table.objects.get(pk=table_id).version == version
    assert not events_of(table_id, "TableEndRequested")


def test_fd_6_a_bet_without_openers_is_refused_with_no_openers(task_queue):
    """FD-6: with jacks or better, the first bet needs openers, which the server checks against the
    opener's hand: a seat without them is offered check and fold only, and a bet it sends anyway is
    refused with the code ``no_openers`` and nothing is written."""
    from games.rules.five_card_draw.cards import has_openers

    table_id, clients = people_only(3, {"opening": "jacks_or_better"})
    rng = random.Random(1)
    for _ in range(500):
        view = clients[0].get(url(table_id)).json()
        seat = view["to_act"][0]
        mine = clients[seat].get(url(table_id)).json()
        hand = mine["state"]["hand"]
        unopened = hand["phase"] == "betting" and hand["street"] == 0 and hand["current_bet"] == 0
        if unopened and not has_openers(hand["your_cards"], "none"):
            kinds = {o["type"] for o in mine["legal_actions"]}
            assert kinds == {"check", "fold", "sit_out", "leave"}, mine["legal_actions"]  # CM-20's too
            for action in ({"type": "bet", "amount": 1}, {"type": "all_in"}):
                refused = act(clients[seat], table_id, action, mine["version"])
                assert refused.status_code == 422, refused.json()
                assert refused.json()["code"] == "no_openers", refused.json()
                assert "jacks or better" in refused.json()["detail"]
            assert Table.objects.get(pk=table_id).version == mine["version"]
            return
        response = act(clients[seat], table_id, choose(mine, rng), mine["version"])
        assert response.status_code == 200, response.json()
    pytest.fail("no seat without openers was ever first to bet")


def test_the_games_endpoint_lists_five_card_draw_with_its_options_and_refusals():
    """FD-18: the games endpoint lists every refused combination, with the options (FD-13's formats)."""
    listed = APIClient().get("/api/v1/games/")
    assert listed.status_code == 200
    game = next(g for g in listed.json() if g["slug"] == FCD)
    assert game["name"] == "Five-Card Draw" and game["players"] == {"min": 2, "max": 8}
    options = {option["name"]: option for option in game["options"]}
    for name in ("format", "min_buy_in", "max_buy_in", "starting_stack", "betting", "forced_bets", "variant", "wild"):
        assert name in options, name
    assert set(options["format"]["choices"]) == {"cash", "tournament"}
    assert len(game["refused_combinations"]) >= 4
    assert any("triple draw" in line and "high-low" in line for line in game["refused_combinations"])
    assert any("Jacks or better" in line and "blinds" in line for line in game["refused_combinations"])


def test_fd_21_the_turn_timer_checks_else_folds_and_stands_pat(task_queue):
    """FD-21: when a player's time is up the server checks for them if it can, else folds; in the
    draw they stand pat. Each is recorded as a timeout."""
    from tests.api.play import _run_due_system_command

    table_id, clients = people_only(2, {"forced_bets": "blinds", "turn_seconds": 5})

    def awaited() -> tuple[int, dict[str, Any]]:
        view = clients[0].get(url(table_id)).json()
        seat = view["to_act"][0]
        return seat, clients[seat].get(url(table_id)).json()

    # The small blind (the button, heads up) calls; from then on every turn times out.
    seat, mine = awaited()
    assert {"fold", "call"} <= {o["type"] for o in mine["legal_actions"]}
    assert act(clients[seat], table_id, {"type": "call"}, mine["version"]).status_code == 200
    hand_no = mine["state"]["hand_no"]
    timed: list[tuple[str, set[str]]] = []
    while True:
        seat, mine = awaited()
        if mine["state"]["hand_no"] != hand_no and timed[-1][0] == "fold":
            break
        kinds = {o["type"] for o in mine["legal_actions"]}
        assert mine["deadline"] is not None
        _run_due_system_command(table_id)
        last = Event.objects.filter(table_id=table_id, type__in=["PlayerActed", "CardsDrawn"]).order_by("-seq")[0]
        assert last.data["seat"] == seat and last.data["timeout"] is True, last.data
        done = "draw" if last.type == "CardsDrawn" else last.data["action"]
        timed.append((done, kinds))
        if last.type == "CardsDrawn":
            assert last.data["count"] == 0  # stood pat
    # The big blind checked; both stood pat; both checked after the draw; the next hand's small
    # blind, facing the big blind, folded.
    assert [done for done, _ in timed] == ["check", "draw", "draw", "check", "check", "fold"]
    assert all(("check" in kinds) == (done == "check") for done, kinds in timed if done != "draw")
    assert len(events_of(table_id, "ShowdownHeld")) == 1
