"""The published test vectors of docs/fairness.md (CM-5..CM-9), checked against the engine and
against docs/verify_hand.py run as a separate process; CM-18 reshuffles and CM-19 first dealers."""

from __future__ import annotations

import json
import pathlib
import re
import subprocess
import sys

import pytest

from games.engine import fairness
from games.engine.cards import EUCHRE_DECK, LA_VIUDA_DECK, STANDARD_DECK, low_rank, named_deck, spanish_deck

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"
VECTORS = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", (DOCS / "fairness.md").read_text(), re.S)]
SEED = bytes(range(32))
TABLE = "00000000-0000-0000-0000-000000000001"


def run_script(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-I", str(DOCS / "verify_hand.py"), *args], capture_output=True, text=True, timeout=60
    )


def test_cm_9_vectors_cover_every_deck_kind():
    names = {vector["deck_name"] for vector in VECTORS}
    assert {"english_52", "english_54", "euchre_24", "spanish_40", "spanish_48"} <= names
    assert VECTORS[0]["deck"][:12] == "Th Qc Ad 4s Qs 5d 7c 8h 7s 9s Tc Qh".split()  # the rules' known answer


@pytest.mark.parametrize("vector", VECTORS, ids=[vector["deck_name"] for vector in VECTORS])
def test_cm_5_to_cm_9_vectors_match_the_engine(vector):
    seed = bytes.fromhex(vector["server_seed"])
    assert fairness.commitment(seed) == vector["commitment"]
    deck = named_deck(vector["deck_name"])
    shuffled = fairness.shuffled(deck, seed, vector["table_id"], vector["hand_no"], vector["client_seed"])
    assert shuffled == vector["deck"]
    assert sorted(shuffled) == sorted(deck)


@pytest.mark.parametrize("vector", VECTORS, ids=[vector["deck_name"] for vector in VECTORS])
def test_cm_10_verify_script_confirms_each_vector(vector, tmp_path):
    audit = tmp_path / "audit.json"
    audit.write_text(json.dumps(vector))
    result = run_script(str(audit))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "commitment: matches" in result.stdout
    assert " ".join(vector["deck"]) in result.stdout
    assert "deck: matches the audit" in result.stdout


def test_cm_10_verify_script_catches_a_wrong_commitment_and_a_wrong_deck(tmp_path):
    vector = dict(VECTORS[0])
    vector["commitment"] = "00" * 32
    vector["deck"] = [vector["deck"][1], vector["deck"][0], *vector["deck"][2:]]
    audit = tmp_path / "audit.json"
    audit.write_text(json.dumps(vector))
    result = run_script(str(audit))
    assert result.returncode == 1
    assert "DOES NOT MATCH" in result.stdout
    assert "DIFFERS from the audit at position 0" in result.stdout


def test_cm_10_verify_script_takes_the_values_on_the_command_line():
    vector = VECTORS[1]
    result = run_script(
        "--server-seed", vector["server_seed"], "--commitment", vector["commitment"],
        "--table-id", vector["table_id"], "--hand-no", str(vector["hand_no"]),
        "--client-seed", vector["client_seed"], "--deck-name", vector["deck_name"],
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert " ".join(vector["deck"]) in result.stdout


def test_cm_10_verify_script_recomputes_other_purposes():
    result = run_script(
        "--server-seed", SEED.hex(), "--table-id", TABLE, "--hand-no", "3", "--client-seed", "a|b",
        "--deck-name", "euchre_24", "--purpose", "manotazo-1",
    )  # fmt: skip
    expected = fairness.shuffled(EUCHRE_DECK, SEED, TABLE, 3, "a|b", "manotazo-1")
    assert " ".join(expected) in result.stdout


def test_cm_18_reshuffle_puts_cards_in_canonical_order_first():
    cards = ["X1", "As", "7d", "2c", "Kh"]
    first = fairness.reshuffled(cards, LA_VIUDA_DECK, SEED, TABLE, 5, "", "manotazo-1")
    again = fairness.reshuffled(list(reversed(cards)), LA_VIUDA_DECK, SEED, TABLE, 5, "", "manotazo-1")
    assert first == again
    assert first == fairness.shuffled(["2c", "7d", "Kh", "As", "X1"], SEED, TABLE, 5, "", "manotazo-1")
    assert first != fairness.reshuffled(cards, LA_VIUDA_DECK, SEED, TABLE, 5, "", "manotazo-2")


def _first_dealer_checks(deck, seats, client_seed):
    result = fairness.first_dealer(deck, seats, SEED, TABLE, client_seed)
    drawn = fairness.shuffled([c for c in deck if c not in ("X1", "X2")], SEED, TABLE, 1, client_seed, "first-dealer")
    assert [card for _, card in result.draws] == drawn[: len(result.draws)]
    assert [seat for seat, _ in result.draws[: len(seats)]] == sorted(seats)
    # replay the rule: the lowest (aces low) of each round's draws stay, until one is left
    drawing, position = sorted(seats), 0
    while len(drawing) > 1:
        taken = list(zip(drawing, drawn[position : position + len(drawing)]))
        position += len(drawing)
        lowest = min(low_rank(card) for _, card in taken)
        drawing = [seat for seat, card in taken if low_rank(card) == lowest]
    assert result.dealer == drawing[0]
    return result


def test_cm_19_first_dealer_draws_the_lowest_card_aces_low():
    result = _first_dealer_checks(LA_VIUDA_DECK, [0, 1, 2, 3], "|||")
    assert "X1" not in dict(result.draws).values()
    assert result.dealer == 1 and result.draws[1] == (1, "Ah")  # the ace is low


def test_cm_19_ties_for_lowest_draw_again_in_seat_order():
    ties = []
    for number in range(200):
        result = _first_dealer_checks(STANDARD_DECK, [0, 1, 2, 3, 4, 5, 6], f"seed-{number}")
        if len(result.draws) > 7:
            ties.append(result)
    assert ties, "some of these 200 draws should tie for lowest"
    for result in ties:
        first_round = result.draws[:7]
        lowest = min(low_rank(card) for _, card in first_round)
        tied = [seat for seat, card in first_round if low_rank(card) == lowest]
        assert [seat for seat, _ in result.draws[7 : 7 + len(tied)]] == tied


def test_cm_19_spanish_deck_first_dealer():
    _first_dealer_checks(spanish_deck(40), [0, 1, 2], "||")
