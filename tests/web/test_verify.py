"""verify.js (WebCrypto) against the engine: the same commitments and decks as
games.engine.fairness for the published vectors of docs/fairness.md and for 1,000 random hands,
and a tampered audit is not verified (CM-5..CM-10)."""

from __future__ import annotations

import random
import uuid

import pytest

from games.engine import fairness
from games.engine.cards import DECKS, named_deck
from tests.engine.test_fairness_vectors import VECTORS

# Each check runs in a page of the service itself, so verify.js comes from the static files as a
# client would load it.
IMPORT = "const v = await import('/static/web/verify.js');"


@pytest.fixture
def verify_page(page):
    page.goto("/healthz")
    return page


def test_cm_7_browser_decks_match_the_engine_for_the_fairness_vectors(verify_page):
    results = verify_page.evaluate(
        f"""async (vectors) => {{ {IMPORT}
        return Promise.all(vectors.map((vector) => v.verifyHand(vector, vector.table_id)));
        }}""",
        VECTORS,
    )
    for vector, result in zip(VECTORS, results, strict=True):
        assert result["computed"]["deck"] == vector["deck"], vector["deck_name"]
        assert result["computed"]["commitment"] == vector["commitment"]
        assert result == {
            "verified": True,
            "commitment_ok": True,
            "deck_ok": True,
            "details": result["details"],
            "computed": {**result["computed"], "problem": None, "first_difference": None},
        }


def test_cm_7_browser_knows_every_deck_of_the_engine(verify_page):
    decks = verify_page.evaluate(
        f"async (names) => {{ {IMPORT} return Object.fromEntries(names.map((n) => [n, v.deckByName(n)])); }}",
        list(DECKS),
    )
    assert decks == {name: list(deck) for name, deck in DECKS.items()}
    assert verify_page.evaluate(f"async () => {{ {IMPORT} return v.deckNames; }}") == list(DECKS)


def test_cm_7_browser_decks_match_the_engine_for_1000_random_seeds(verify_page):
    rng = random.Random(17)
    printable = "".join(chr(c) for c in range(32, 127) if chr(c) != "|")
    cases = []
    for _ in range(1000):
        seed = rng.randbytes(fairness.SEED_BYTES)
        table_id = str(uuid.UUID(int=rng.getrandbits(128)))
        hand_no = rng.randint(1, 10_000)
        seats = rng.randint(0, 7)
        client_seed = fairness.hand_client_seed(
            [
                "".join(rng.choices(printable, k=rng.randint(0, 64))) if rng.random() < 0.7 else None
                for _ in range(seats)
            ]
        )
        purpose = rng.choice(["deck", "deck", "deck", "colour-card", "first-dealer", "reshuffle-2"])
        deck_name = rng.choice(list(DECKS))
        cases.append(
            {
                "seed": seed.hex(),
                "table_id": table_id,
                "hand_no": hand_no,
                "client_seed": client_seed,
                "purpose": purpose,
                "deck_name": deck_name,
                "expected": fairness.shuffled(named_deck(deck_name), seed, table_id, hand_no, client_seed, purpose),
            }
        )
    # One evaluate over all the cases: a round trip per hand would take longer than the hashing.
    decks = verify_page.evaluate(
        f"""async (cases) => {{ {IMPORT}
        const decks = [];
        for (const c of cases) {{
            decks.push(await v.shuffled(v.deckByName(c.deck_name), v.fromHex(c.seed), c.table_id, c.hand_no, c.client_seed, c.purpose));
        }}
        return decks;
        }}""",
        [{key: value for key, value in case.items() if key != "expected"} for case in cases],
    )
    mismatches = [case for case, deck in zip(cases, decks, strict=True) if deck != case["expected"]]
    assert not mismatches, mismatches[:3]


def _verify(page, audit, table_id=None):
    return page.evaluate(
        f"async ([audit, tableId]) => {{ {IMPORT} return v.verifyHand(audit, tableId); }}",
        [audit, table_id or audit["table_id"]],
    )


def test_a_tampered_audit_is_not_verified(verify_page):
    honest = dict(VECTORS[0])
    assert _verify(verify_page, honest)["verified"] is True

    # One card of the deck changed: the ninth card swapped for one the deck has not got there.
    deck = list(honest["deck"])
    deck[8] = next(card for card in named_deck(honest["deck_name"]) if card not in deck[:9] and card != deck[8])
    deck[deck.index(deck[8], 9)] = honest["deck"][8]  # still a whole deck: only the order lies
    result = _verify(verify_page, {**honest, "deck": deck})
    assert result["verified"] is False
    assert result["commitment_ok"] is True
    assert result["deck_ok"] is False
    assert result["computed"]["first_difference"] == 8
    assert "at card 9 from the top" in " ".join(result["details"])

    # The seed changed: its commitment no longer matches, nor does the deck it would deal.
    seed = bytearray.fromhex(honest["server_seed"])
    seed[0] ^= 1
    result = _verify(verify_page, {**honest, "server_seed": seed.hex()})
    assert result["verified"] is False
    assert result["commitment_ok"] is False
    assert result["deck_ok"] is False

    # The commitment changed alone.
    result = _verify(verify_page, {**honest, "commitment": "00" * 32})
    assert (result["verified"], result["commitment_ok"], result["deck_ok"]) == (False, False, True)
    assert "The commitment does not match" in result["details"][0]

    # Another table's audit: the stream is keyed by the table the person is looking at.
    result = _verify(verify_page, honest, table_id=str(uuid.UUID(int=5)))
    assert result["verified"] is False
    assert result["computed"]["problem"] == "other_table"

    # No seed revealed (a hand still in play) is not verified either.
    result = _verify(verify_page, {**honest, "server_seed": None})
    assert (result["verified"], result["computed"]["problem"]) == (False, "no_seed")
