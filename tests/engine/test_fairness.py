"""Known answers for the fair shuffle (CM-5..CM-9)."""

from games.engine import fairness
from games.engine.cards import STANDARD_DECK

SEED = bytes(range(32))
TABLE = "00000000-0000-0000-0000-000000000001"


def test_cm_5_commitment_is_sha256_of_the_seed():
    assert fairness.commitment(SEED) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"


def test_cm_7_cm_8_cm_9_known_deck():
    deck = fairness.shuffled(STANDARD_DECK, SEED, TABLE, 1, "alice|bob", "deck")
    assert deck[:12] == "Th Qc Ad 4s Qs 5d 7c 8h 7s 9s Tc Qh".split()
    assert sorted(deck) == sorted(STANDARD_DECK)


def test_cm_6_client_seed_joins_every_seat():
    assert fairness.hand_client_seed([None, "", None, None]) == "|||"
    assert fairness.hand_client_seed(["alice", "bob"]) == "alice|bob"
    assert not fairness.valid_client_seed("a|b")
    assert not fairness.valid_client_seed("x" * 65)
    assert fairness.valid_client_seed("")
