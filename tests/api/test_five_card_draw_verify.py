"""A Five-Card Draw hand with a reshuffle (FD-8, CM-18), recomputed from its audit by
docs/verify_hand.py run as a player would run it: the deck, and every reshuffle's new stock from
the cards it reshuffled."""

from __future__ import annotations

import json
import pathlib
import random
import subprocess
import sys
from typing import Any

import pytest

from tests.api.draw import repeat_deals
from tests.api.test_five_card_draw import drive, people_only, url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("repeatable")]

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "docs" / "verify_hand.py"


@pytest.fixture
def repeatable(monkeypatch):
    repeat_deals(monkeypatch, "fcd verify")


def draw_everything(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Check or call, and throw away the whole hand in every draw: the stock runs out (FD-8)."""
    kinds = {option["type"] for option in view["legal_actions"]}
    if "draw" in kinds:
        return {"type": "draw", "discard": list(view["state"]["hand"]["your_cards"])}
    return {"type": "check" if "check" in kinds else "call"}


def run_script(path: pathlib.Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-I", str(SCRIPT), str(path)], capture_output=True, text=True, timeout=60)


def test_fd_8_cm_18_verify_hand_recomputes_a_real_hands_reshuffles(task_queue, tmp_path):
    """FD-8, CM-18, CM-10: eight players each drawing five cards three times make the stock run out
    several times in hand 1; its audit, saved as a player downloads it, passes the script, which
    prints each reshuffle; a reshuffled stock in another order fails it."""
    table_id, clients = people_only(8, {"variant": "triple_draw_27", "betting": "fixed_limit"})
    players = dict.fromkeys(clients, draw_everything)
    drive(
        table_id,
        dict(clients),
        task_queue,
        random.Random(1),
        until=lambda v: v["state"]["hand_no"] >= 2,
        players=players,
    )
    audit = clients[0].get(url(table_id, "hands/1/audit/")).json()
    reshuffled = [event for event in audit["events"] if event["type"] == "StockReshuffled"]
    assert len(reshuffled) >= 2, [event["type"] for event in audit["events"]]
    path = tmp_path / "audit.json"
    path.write_text(json.dumps(audit))
    run = run_script(path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "deck: matches the audit" in run.stdout
    for event in reshuffled:
        number = event["data"]["number"]
        assert f"reshuffle-{number}: matches the audit" in run.stdout
        assert " ".join(event["secret"]["stock"]) in run.stdout
    forged = json.loads(json.dumps(audit))
    stock = next(event for event in forged["events"] if event["type"] == "StockReshuffled")["secret"]["stock"]
    stock.reverse()
    path.write_text(json.dumps(forged))
    bad = run_script(path)
    assert bad.returncode == 1 and "reshuffle-1: DIFFERS from the audit" in bad.stdout
