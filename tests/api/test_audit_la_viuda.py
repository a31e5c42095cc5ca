"""The issue's demonstration with La Viuda: after a money game with bots, a player opens every hand
audit, every check passes, a standard-library recomputation gives the same deck (CM-5..CM-9), the
deal follows LV-4 and the showdown shows LV-13's values; a tampered event is named."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys

import pytest

from games.models import Event
from tests.api.play import Game, check_finished_table, person, play_to_the_end, set_up
from tests.api.test_audit import CHECKS, ROOT, canonical_52, recompute_deck
from tests.games.tamper import tamper_event

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def la_viuda_played(task_queue):
    alice, sam = person("alice"), person("sam", staff=True)
    spec = Game(
        "la-viuda", 4, people=(0,), options={"chips_per_player": 2}, stake={"currency": "MXN", "chip_value": "5.00"}
    )
    table_id, clients = set_up(spec, alice, sam)
    play_to_the_end(table_id, clients, task_queue, random.Random(2))
    check_finished_table(table_id)
    return table_id, alice


def test_lv_4_lv_13_cm_5_to_cm_9_a_player_verifies_every_hand_of_a_la_viuda_game(la_viuda_played, tmp_path):
    table_id, alice = la_viuda_played
    hands = alice.get(f"/api/v1/tables/{table_id}/hands/?limit=100").json()["results"]
    assert len(hands) >= 2
    for summary in hands:
        assert [line["outcome"] for line in summary["result"]].count("pays") == 1  # LV-6: the worst hand pays
        # The three bots share the house's bankroll: no bot's money is told, the person's always is.
        assert {line["bot"]: line["money_minor"] is None for line in summary["result"]} == {True: True, False: False}
        audit = alice.get(summary["audit"]).json()
        assert audit["deck_name"] == "english_54"
        assert hashlib.sha256(bytes.fromhex(audit["server_seed"])).hexdigest() == audit["commitment"]
        expected = recompute_deck(
            [*canonical_52(), "X1", "X2"], audit["server_seed"], table_id, audit["hand_no"], audit["client_seed"]
        )
        assert audit["deck"] == expected
        statuses = {check["name"]: check["status"] for check in audit["verification"]["checks"]}
        assert statuses == dict.fromkeys(CHECKS, "pass"), audit["verification"]
        shown = audit["showdown"]
        assert shown and sum(entry["outcome"] == "pays" for entry in shown) == 1
        assert all(entry["category"] and entry["description"] and len(entry["cards"]) == 5 for entry in shown)
    path = tmp_path / "audit.json"
    path.write_text(json.dumps(alice.get(hands[-1]["audit"]).json()))
    run = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "verify_hand.py"), str(path)], capture_output=True, text=True
    )
    assert run.returncode == 0 and "deck: matches the audit" in run.stdout, run.stdout + run.stderr


def test_a_tampered_la_viuda_deal_is_named_by_verify(la_viuda_played):
    table_id, alice = la_viuda_played
    started = Event.objects.get(table_id=table_id, hand_no=1, type="HandStarted")
    hands = [list(cards) for cards in started.secret["hands"]]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]  # swap two dealt cards
    tamper_event(table_id, started.seq, secret={**started.secret, "hands": hands})
    verified = alice.get(f"/api/v1/tables/{table_id}/hands/1/verify/").json()
    failed = {check["name"]: check for check in verified["checks"] if check["status"] == "fail"}
    assert verified["ok"] is False and {"deal", "hash_chain"} <= set(failed)
    assert any(f"event {started.seq} (HandStarted)" in line for line in failed["hash_chain"]["differences"])
    assert any(line.startswith("HandStarted: seat 0 holds") for line in failed["deal"]["differences"])


@pytest.mark.parametrize(
    ("options", "stake", "deck_name"),
    [
        ({"scoring": "pot", "chips_per_player": 3}, {"currency": "MXN", "chip_value": "2.00"}, "english_52"),
        ({"reduced_pack": True, "scoring": "points", "target_points": 2}, None, "reduced_3"),
    ],
    ids=["pot", "reduced_pack"],
)
def test_wp_3_wp_8_whiskey_poker_hands_verify_with_their_pack(options, stake, deck_name, task_queue):
    alice, sam = person("alice"), person("sam", staff=True)
    table_id, clients = set_up(Game("whiskey-poker", 3, people=(0,), options=options, stake=stake), alice, sam)
    play_to_the_end(table_id, clients, task_queue, random.Random(4))
    hands = alice.get(f"/api/v1/tables/{table_id}/hands/?limit=100").json()["results"]
    assert hands
    for summary in hands[:3]:
        audit = alice.get(summary["audit"]).json()
        assert audit["deck_name"] == deck_name
        assert audit["verification"]["ok"] is True, audit["verification"]
        assert {check["status"] for check in audit["verification"]["checks"]} == {"pass"}
        assert any(entry["outcome"] in ("wins", "splits") for entry in audit["showdown"])


def test_cm_19_the_first_dealer_draw_is_in_hand_1s_audit_and_re_drawn_from_the_seed(la_viuda_played):
    table_id, alice = la_viuda_played
    audit = alice.get(f"/api/v1/tables/{table_id}/hands/1/audit/").json()
    assert [event["type"] for event in audit["events"][:3]] == ["GameStarted", "FirstDealerDrawn", "HandStarted"]
    drawn = Event.objects.get(table_id=table_id, type="FirstDealerDrawn")
    other = (drawn.data["dealer"] + 1) % 4
    tamper_event(table_id, drawn.seq, data={**drawn.data, "dealer": other})
    checks = {c["name"]: c for c in alice.get(f"/api/v1/tables/{table_id}/hands/1/verify/").json()["checks"]}
    assert checks["outcome"]["status"] == "fail"
    assert any(f"FirstDealerDrawn: seat {other} deals" in line for line in checks["outcome"]["differences"])


def _event_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("#")]


def test_lv_13_the_history_of_a_la_viuda_hand_is_in_words_naming_the_players(la_viuda_played):
    """LV-13: history.txt says every event in words with the players' usernames (bots as "bot
    (seat 2)"); no line is a field=value dump. The audit's shown hands keep their category code
    beside its name in words (CM-11)."""
    table_id, alice = la_viuda_played
    text = alice.get(f"/api/v1/tables/{table_id}/hands/1/history.txt").content.decode()
    lines = _event_lines(text)
    assert lines and not [line for line in lines if "=" in line or "{'" in line or "[" in line]
    assert any("alice" in line for line in lines) and any("bot (seat " in line for line in lines)
    assert any(" Showdown: " in line for line in lines)
    audit = alice.get(f"/api/v1/tables/{table_id}/hands/1/audit/").json()
    for entry in audit["showdown"]:
        assert entry["category"] == entry["category_name"].replace(" ", "_")
        assert "_" not in entry["description"]


def test_wp_7_loser_pays_hands_say_pays_and_safe_and_the_history_is_in_words(task_queue):
    """WP-7: under loser_pays the hands list and the audit mark the worst hands `pays`, the others
    `safe`, and no hand `wins`; the history names the players in words."""
    alice, sam = person("alice"), person("sam", staff=True)
    spec = Game("whiskey-poker", 3, people=(0,), options={"scoring": "loser_pays", "lives": 2})
    table_id, clients = set_up(spec, alice, sam)
    play_to_the_end(table_id, clients, task_queue, random.Random(5))
    hands = alice.get(f"/api/v1/tables/{table_id}/hands/?limit=100").json()["results"]
    assert hands
    for summary in hands:
        outcomes = [line["outcome"] for line in summary["result"]]
        assert "pays" in outcomes and set(outcomes) <= {"pays", "safe"}
        audit = alice.get(summary["audit"]).json()
        assert {entry["outcome"] for entry in audit["showdown"]} <= {"pays", "safe"}
    lines = _event_lines(alice.get(hands[-1]["history"]).content.decode())
    assert not [line for line in lines if "=" in line or "{'" in line or "[" in line]
    assert any("alice" in line for line in lines)
