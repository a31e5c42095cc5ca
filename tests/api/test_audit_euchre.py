"""Euchre's hand audits over HTTP: its own hooks re-deal every hand (EU-3) and re-decide its tricks
and points (EU-8..EU-13), so every verification check passes and none is skipped; the audit JSON
satisfies ``docs/verify_hand.py`` (CM-9); a forged trick is named. With the hooks hidden, the generic
fallbacks still check the deck and the deal from the ``deck`` secret field (CM-7..CM-9, EU-2)."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from games.engine import registry
from games.models import Event
from tests.api.play import Game, check_finished_table, person, play_to_the_end, set_up
from tests.api.test_audit import CHECKS, ROOT, recompute_deck
from tests.games.tamper import tamper_event

pytestmark = pytest.mark.django_db(transaction=True)

EUCHRE_24 = [rank + suit for rank in "9TJQKA" for suit in "cdhs"]


@pytest.fixture
def euchre_played(task_queue):
    """A finished partnership match, alice at seat 0 with three bots: ``(table_id, alice)``."""
    alice, sam = person("alice"), person("sam", staff=True)
    table_id, clients = set_up(Game("euchre", 4, people=(0,), options={"target_points": 3}), alice, sam)
    play_to_the_end(table_id, clients, task_queue, random.Random(8))
    check_finished_table(table_id)
    return table_id, alice


def test_eu_3_eu_11_eu_13_cm_9_euchre_hands_verify_deal_and_outcome(euchre_played, tmp_path):
    """EU-3 (deal), EU-8..EU-13 (tricks and points), CM-9 (deck) and CM-19 (hand 1's first dealer):
    every check of every hand passes, the showdown shows each side's result, the history reads as play."""
    table_id, alice = euchre_played
    hands = alice.get(f"/api/v1/tables/{table_id}/hands/?limit=100").json()["results"]
    played = 0
    for summary in hands:
        audit = alice.get(summary["audit"]).json()
        assert audit["deck_name"] == "euchre_24"
        assert audit["deck"] == recompute_deck(
            EUCHRE_24, audit["server_seed"], table_id, audit["hand_no"], audit["client_seed"]
        )
        statuses = {check["name"]: check["status"] for check in audit["verification"]["checks"]}
        assert statuses == dict.fromkeys(CHECKS, "pass"), audit["verification"]
        ended = next(event for event in audit["events"] if event["type"] == "HandEnded")
        showdown = {entry["seat"]: entry for entry in audit["showdown"]}
        assert sorted(showdown) == [0, 1, 2, 3]
        if ended["data"]["outcome"] == "played":
            played += 1
            # EU-13: exactly one side scores, and both its partners win.
            winners = {seat for seat, entry in showdown.items() if entry["outcome"] == "wins"}
            assert winners in ({0, 2}, {1, 3}) and winners == {s for s, p in enumerate(ended["data"]["points"]) if p}
        history = alice.get(summary["history"]).content.decode()
        assert f"Hand {audit['hand_no']}: " in history and "HandStarted by " not in history
        # Every event's line is in words and names the players: no field=value, no data.
        lines = [line for line in history.splitlines() if line.startswith("#")]
        assert lines and not [line for line in lines if "=" in line or "{'" in line or "[" in line]
        assert "alice" in "".join(lines)
        if ended["data"]["outcome"] == "played":
            assert " plays " in history and "Trick 5: " in history
    assert played >= 2, f"{played} of {len(hands)} hands were played out"
    # The audit JSON as served is what docs/verify_hand.py checks with the standard library alone.
    path = tmp_path / "audit.json"
    path.write_text(json.dumps(alice.get(hands[-1]["audit"]).json()))
    run = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "verify_hand.py"), str(path)], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0 and "deck: matches the audit" in run.stdout, run.stdout + run.stderr


def test_eu_11_a_forged_trick_winner_fails_the_outcome_check(euchre_played):
    """EU-11: a TrickTaken row rewritten to another winner is named by the outcome check."""
    table_id, alice = euchre_played
    taken = Event.objects.filter(table_id=table_id, type="TrickTaken").order_by("seq").first()
    winner = taken.data["winner"]
    cheat = next(seat for seat, _ in taken.data["plays"] if seat != winner)
    tamper_event(table_id, taken.seq, data={**taken.data, "winner": cheat})
    response = alice.get(f"/api/v1/tables/{table_id}/hands/{taken.hand_no}/verify/").json()
    checks = {check["name"]: check for check in response["checks"]}
    assert checks["outcome"]["status"] == "fail"
    trick_no = taken.data["trick_no"]
    assert any(
        line.startswith(
            f"TrickTaken (trick {trick_no}): seat {cheat} recorded as winner, EU-8 and EU-11 give seat {winner}"
        )
        for line in checks["outcome"]["differences"]
    ), checks["outcome"]
    assert checks["deal"]["status"] == "pass" and checks["hash_chain"]["status"] == "fail"


def test_eu_2_cm_9_without_hooks_the_generic_fallbacks_still_check_deck_and_deal(euchre_played, monkeypatch):
    """A game without audit hooks: the ``deck`` secret field of HandStarted is enough for the deck
    and deal checks (CM-7..CM-9, EU-2); the outcome is skipped and history lines are generic."""
    table_id, alice = euchre_played
    monkeypatch.setattr(type(registry.get("euchre")), "audit", None)
    summary = alice.get(f"/api/v1/tables/{table_id}/hands/?limit=1").json()["results"][0]
    audit = alice.get(summary["audit"]).json()
    assert audit["deck_name"] == "euchre_24" and audit["showdown"] == []
    statuses = {check["name"]: check["status"] for check in audit["verification"]["checks"]}
    assert statuses["deck"] == statuses["deal"] == statuses["hash_chain"] == statuses["ledger"] == "pass"
    assert statuses["outcome"] == "skip"
    assert "HandStarted by " in alice.get(summary["history"]).content.decode()
