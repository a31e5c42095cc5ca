"""Hand audits over HTTP after whole games (counter with several hands and money, Guerra with bots):
players open their audits, every verification check passes, a standard-library recomputation of the
deck (CM-5..CM-9) agrees, tampering is named, and access is refused where it must be."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command

from games.models import Event, Table
from tests.api import draw
from tests.api.play import Game, check_finished_table, person, play_to_the_end, set_up
from tests.games.tamper import tamper_event

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
CHECKS = ["commitment", "client_seed", "deck", "deal", "replay", "outcome", "hash_chain", "ledger"]

# --- an independent recomputation, standard library only (CM-3, CM-5..CM-9) ---------------------


def canonical_52() -> list[str]:
    return [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]


def recompute_deck(cards: list[str], seed_hex: str, table_id: str, hand_no: int, client_seed: str) -> list[str]:
    """CM-7 stream, CM-8 uniform ints, CM-9 Fisher-Yates, written from the rules' words."""
    key = bytes.fromhex(seed_hex)
    words: list[int] = []
    counter = 0

    def next_word() -> int:
        nonlocal counter
        if not words:
            block = hmac.new(
                key, f"{table_id}:{hand_no}:{client_seed}:deck:{counter}".encode(), hashlib.sha256
            ).digest()
            counter += 1
            words.extend(int.from_bytes(block[i : i + 4], "big") for i in range(0, 32, 4))
        return words.pop(0)

    def uniform(m: int) -> int:
        while True:
            x = next_word()
            if x < 2**32 - (2**32 % m):
                return x % m

    deck = list(cards)
    for i in range(len(deck) - 1, 0, -1):
        j = uniform(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# --- games to audit --------------------------------------------------------------------------------


def counter_money_game(task_queue, *, hands: int = 3):
    owner, staff = person("alice"), person("sam", staff=True)
    spec = Game(
        "counter",
        2,
        people=(0, 1),
        options={"hands": hands, "target": 9},
        stake={"currency": "MXN", "chip_value": "0.50"},
    )
    table_id, clients = set_up(spec, owner, staff)
    play_to_the_end(table_id, clients, task_queue, random.Random(5))
    return table_id, clients, staff


@pytest.fixture
def counter_played(counter_game, task_queue):
    return counter_money_game(task_queue)


def test_cm_5_to_cm_9_players_open_every_hand_audit_and_every_check_passes(counter_played):
    table_id, clients, _ = counter_played
    check_finished_table(table_id)
    alice = clients[0]
    listed = alice.get(f"/api/v1/tables/{table_id}/hands/")
    assert listed.status_code == 200, listed.json()
    hands = listed.json()["results"]
    assert [hand["hand_no"] for hand in hands] == [3, 2, 1]  # newest first
    for summary in hands:
        audit = alice.get(summary["audit"]).json()
        assert audit["hand_no"] == summary["hand_no"] and audit["table_id"] == table_id
        assert hashlib.sha256(bytes.fromhex(audit["server_seed"])).hexdigest() == audit["commitment"]  # CM-5
        assert audit["deck"] == recompute_deck(
            canonical_52(), audit["server_seed"], table_id, audit["hand_no"], audit["client_seed"]
        )
        assert audit["client_seed"] == "|"  # CM-6: two seats, no seeds set
        assert audit["events"] and all(event["hash"] and event["prev_hash"] for event in audit["events"])
        started = next(event for event in audit["events"] if event["type"] == "HandStarted")
        assert started["secret"]["cards"] == audit["deck"][:2]  # unredacted: the dealt cards
        assert {entry["outcome"] for entry in audit["showdown"]} == {"wins", "loses"}
        assert audit["transactions"] and all(txn["postings"] for txn in audit["transactions"])
        statuses = {check["name"]: check["status"] for check in audit["verification"]["checks"]}
        assert statuses == dict.fromkeys(CHECKS, "pass"), audit["verification"]
        verified = alice.get(summary["verify"]).json()
        assert verified["ok"] is True and [c["name"] for c in verified["checks"]] == CHECKS
    # Chips won and lost in each hand add up to nothing: the pot goes to one seat.
    assert all(sum(line["chips"] for line in hand["result"]) == 0 for hand in hands)
    assert all(len(hand["winners"]) == 1 for hand in hands)  # the seat that reached the target
    assert all(sorted(line["outcome"] for line in hand["result"]) == ["loses", "wins"] for hand in hands)


def test_hand_recall_paginates_newest_first(counter_played):
    table_id, clients, _ = counter_played
    page = clients[1].get(f"/api/v1/tables/{table_id}/hands/?limit=2").json()
    assert page["has_more"] is True and [h["hand_no"] for h in page["results"]] == [3, 2]
    rest = clients[1].get(f"/api/v1/tables/{table_id}/hands/?limit=2&cursor={page['next_cursor']}").json()
    assert [h["hand_no"] for h in rest["results"]] == [1]
    assert rest["has_more"] is False and rest["next_cursor"] is None


def test_history_txt_has_one_line_per_event(counter_played):
    table_id, clients, _ = counter_played
    response = clients[0].get(f"/api/v1/tables/{table_id}/hands/2/history.txt")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    text = response.content.decode()
    events = Event.objects.filter(table_id=table_id, hand_no=2).count()
    assert sum(1 for line in text.splitlines() if line.startswith("#")) == events
    assert "Server seed:" in text and " adds " in text  # the game's own line for Added
    phh = clients[0].get(f"/api/v1/tables/{table_id}/hands/2/history.phh")
    assert phh.status_code == 404 and phh.json()["code"] == "no_phh"


def test_a_player_cannot_read_the_audit_of_a_table_they_did_not_play(counter_played):
    table_id, _, staff = counter_played
    mallory = person("mallory")
    for path in ("hands/", "hands/1/audit/", "hands/1/verify/", "hands/1/history.txt"):
        response = mallory.get(f"/api/v1/tables/{table_id}/{path}")
        assert response.status_code == 403, path
        assert response.json()["code"] == "not_your_hand"
    assert staff.get(f"/api/v1/tables/{table_id}/hands/1/audit/").status_code == 200
    auditor = person("audrey")
    auditor.user.groups.add(Group.objects.get_or_create(name="auditors")[0])
    assert auditor.get(f"/api/v1/tables/{table_id}/hands/1/audit/").status_code == 200
    assert auditor.get(f"/api/v1/tables/{table_id}/hands/9/audit/").status_code == 404


def test_cm_10_nobody_reads_the_audit_of_a_hand_in_progress(counter_game, task_queue):
    owner, staff = person("alice"), person("sam", staff=True)
    table_id, clients = set_up(Game("counter", 2, people=(0, 1), options={"hands": 2}), owner, staff)
    for client in (owner, clients[1], staff):
        response = client.get(f"/api/v1/tables/{table_id}/hands/1/audit/")
        assert response.status_code == 409, response.json()
        assert response.json()["code"] == "hand_in_progress"
        assert client.get(f"/api/v1/tables/{table_id}/hands/1/verify/").status_code == 409
    assert owner.get(f"/api/v1/tables/{table_id}/hands/").json()["results"] == []


def test_a_tampered_event_fails_verification_and_is_named(counter_played):
    table_id, clients, _ = counter_played
    added = Event.objects.filter(table_id=table_id, hand_no=2, type="Added").order_by("seq").first()
    tamper_event(table_id, added.seq, data={**added.data, "amount": added.data["amount"] + 1})
    verified = clients[0].get(f"/api/v1/tables/{table_id}/hands/2/verify/").json()
    assert verified["ok"] is False
    failed = {check["name"]: check for check in verified["checks"] if check["status"] == "fail"}
    assert "hash_chain" in failed
    assert any(f"event {added.seq} (Added)" in line for line in failed["hash_chain"]["differences"])
    assert any(f"event {added.seq} (Added)" in line for line in failed["ledger"]["differences"])
    # The other hands are untouched.
    assert clients[0].get(f"/api/v1/tables/{table_id}/hands/1/verify/").json()["ok"] is True
    with pytest.raises(CommandError, match="1 failed"):
        call_command("verify_hands", table=table_id, stdout=open("/dev/null", "w"))  # noqa: SIM115


def test_verify_hands_command_passes_every_hand(counter_played, capsys):
    call_command("verify_hands", "--all")
    out = capsys.readouterr().out
    assert "3 hand(s) verified, 0 failed." in out
    assert out.count("pass hash_chain") == 3


def test_replay_shows_the_public_state_at_any_version(counter_played, counter_game):
    table_id, _, staff = counter_played
    outsider = person("olga")
    table = Table.objects.get(pk=table_id)
    middle = outsider.get(f"/api/v1/tables/{table_id}/replay/?version=5").json()
    assert middle["version"] == 5 and middle["latest_version"] == table.version
    assert middle["state"]["your_card"] is None  # a spectator's view: no hidden card
    assert middle["event"]["seq"] == 5
    assert outsider.get(f"/api/v1/tables/{table_id}/replay/?version={table.version + 1}").status_code == 400
    # A table still running: only staff may replay it, and still as a spectator.
    running_id, _ = set_up(Game("counter", 2, people=(0,)), person("rita"), staff)
    assert outsider.get(f"/api/v1/tables/{running_id}/replay/").status_code == 403
    live = staff.get(f"/api/v1/tables/{running_id}/replay/").json()
    assert live["status"] == "running" and live["state"]["your_card"] is None


def test_gc_2_guerra_audit_recomputes_the_whole_deal_and_verify_hand_script_accepts_it(task_queue, tmp_path):
    """GC-2 (the deal from the shuffled deck) and CM-7..CM-9, checked by docs/verify_hand.py itself."""
    owner, staff = person("alice"), person("sam", staff=True)
    spec = Game("guerra", 3, people=(0,), options={"max_rounds": 60}, stake={"currency": "MXN", "amount": "10.00"})
    table_id, clients = set_up(spec, owner, staff)
    play_to_the_end(table_id, clients, task_queue, random.Random(3))
    response = owner.get(f"/api/v1/tables/{table_id}/hands/1/audit/")
    assert response.status_code == 200
    audit = response.json()
    assert audit["deck_name"] == "english_52"
    assert audit["deck"] == recompute_deck(canonical_52(), audit["server_seed"], table_id, 1, audit["client_seed"])
    started = next(event for event in audit["events"] if event["type"] == "MatchStarted")
    assert started["secret"]["cards"] == audit["deck"]
    assert all(check["status"] == "pass" for check in audit["verification"]["checks"]), audit["verification"]
    outcomes = [entry["outcome"] for entry in audit["showdown"]]
    assert len(outcomes) == 3 and any(outcome in ("wins", "splits") for outcome in outcomes)
    # The match's history is in words naming alice: no generic field=value line is left.
    history = owner.get(f"/api/v1/tables/{table_id}/hands/1/history.txt").content.decode()
    lines = [line for line in history.splitlines() if line.startswith("#")]
    assert lines and not [line for line in lines if "=" in line or "{'" in line or "[" in line], history
    assert "alice" in "".join(lines) and "Round 1: " in history
    # The table's payouts close the last hand: each decision appears in the audit.
    assert audit["payouts"] and all(p["decisions"] or p["status"] == "pending" for p in audit["payouts"])
    path = tmp_path / "audit.json"
    path.write_text(json.dumps(audit))
    run = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "verify_hand.py"), str(path)], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "commitment: matches" in run.stdout and "deck: matches the audit" in run.stdout
    # A deck that is not the one the seed gives is caught by the script too.
    path.write_text(json.dumps({**audit, "deck": audit["deck"][::-1]}))
    bad = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "verify_hand.py"), str(path)], capture_output=True, text=True
    )
    assert bad.returncode == 1 and "DIFFERS" in bad.stdout


def test_a_recorded_outcome_that_the_rules_would_not_decide_fails_the_outcome_check(counter_played):
    table_id, clients, _ = counter_played
    ended = Event.objects.get(table_id=table_id, hand_no=1, type="HandEnded")
    cheat = 1 - ended.data["winner"]
    tamper_event(table_id, ended.seq, data={**ended.data, "winner": cheat})
    checks = {c["name"]: c for c in clients[0].get(f"/api/v1/tables/{table_id}/hands/1/verify/").json()["checks"]}
    assert checks["outcome"]["status"] == "fail"
    assert any(line.startswith(f"HandEnded: seat {cheat} won") for line in checks["outcome"]["differences"])
    assert checks["ledger"]["status"] == "fail"  # the pot went to the real winner's chip account


def test_cm_10_a_finished_table_has_no_hand_in_progress_even_one_never_revealed(counter_played):
    """Should a game end without an event revealing its last seed, the table's end reveals it."""
    from games.models import HandSeed

    table_id, clients, _ = counter_played
    HandSeed.objects.filter(table_id=table_id, hand_no=3).update(revealed_at=None)
    assert [h["hand_no"] for h in clients[0].get(f"/api/v1/tables/{table_id}/hands/").json()["results"]] == [3, 2, 1]
    audit = clients[0].get(f"/api/v1/tables/{table_id}/hands/3/audit/").json()
    assert audit["revealed_at"] is None and audit["verification"]["ok"] is True
    assert clients[0].get(f"/api/v1/tables/{table_id}/hands/4/audit/").status_code == 404  # seeded, never dealt


def test_a_standard_five_card_draw_hand_has_no_phh_and_says_it_of_the_hand(task_queue):
    # PHH covers Five-Card Draw's deuce-to-seven triple draw; the game does export, this hand does not.
    owner, staff = person("alice"), person("sam", staff=True)
    spec = Game("five-card-draw", 2, people=(0,), options={"format": "tournament", "starting_stack": 4})
    table_id, clients = set_up(spec, owner, staff)
    play_to_the_end(table_id, clients, task_queue, random.Random(3), choose=draw.choose)
    phh = owner.get(f"/api/v1/tables/{table_id}/hands/1/history.phh")
    assert phh.status_code == 404 and phh.json()["code"] == "no_phh"
    assert phh.json()["detail"] == "Five-Card Draw has no PHH export for this hand; use history.txt."
