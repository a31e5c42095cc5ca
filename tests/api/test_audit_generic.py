"""A game without any audit hook still gets its audits: Euchre records its shuffled deck in a
``deck`` secret field, which is enough for the deck and deal checks (CM-7..CM-9, EU-2)."""

from __future__ import annotations

import random

import pytest

from tests.api.play import Game, check_finished_table, person, play_to_the_end, set_up
from tests.api.test_audit import recompute_deck

pytestmark = pytest.mark.django_db(transaction=True)


def test_eu_2_cm_9_euchre_hands_verify_through_the_generic_fallbacks(task_queue):
    alice, sam = person("alice"), person("sam", staff=True)
    spec = Game("euchre", 4, people=(0,), options={"target_points": 3})
    table_id, clients = set_up(spec, alice, sam)
    play_to_the_end(table_id, clients, task_queue, random.Random(8))
    check_finished_table(table_id)
    hands = alice.get(f"/api/v1/tables/{table_id}/hands/?limit=100").json()["results"]
    assert hands
    euchre_24 = [rank + suit for rank in "9TJQKA" for suit in "cdhs"]
    for summary in hands[:4]:
        audit = alice.get(summary["audit"]).json()
        assert audit["deck_name"] == "euchre_24"
        assert audit["deck"] == recompute_deck(
            euchre_24, audit["server_seed"], table_id, audit["hand_no"], audit["client_seed"]
        )
        statuses = {check["name"]: check["status"] for check in audit["verification"]["checks"]}
        assert audit["verification"]["ok"] is True, audit["verification"]
        assert statuses["deck"] == statuses["deal"] == statuses["hash_chain"] == statuses["ledger"] == "pass"
        history = alice.get(summary["history"])
        assert history.status_code == 200 and "HandStarted by " in history.content.decode()
