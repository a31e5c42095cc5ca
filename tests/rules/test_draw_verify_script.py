"""docs/verify_hand.py recomputes a reshuffle of some cards given on the command line (FD-8,
CM-18), as the engine makes it; the script runs as a separate process with the standard library."""

from __future__ import annotations

import pathlib
import subprocess
import sys

from games.engine import fairness
from games.rules.five_card_draw import cards

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "docs" / "verify_hand.py"
SEED = bytes(range(32))
TABLE = "00000000-0000-0000-0000-00000000fcd0"


def test_fd_8_cm_18_verify_script_reshuffles_the_cards_given_in_canonical_order() -> None:
    thrown = "Jd 7c Ks 2d 9h Qc X1 Th 4s 8d".split()  # in the order thrown, not canonical
    expected = fairness.reshuffled(thrown, cards.pack("joker"), SEED, TABLE, 3, "a||b", "reshuffle-2")
    run = subprocess.run(
        [
            sys.executable, "-I", str(SCRIPT), "--server-seed", SEED.hex(), "--table-id", TABLE, "--hand-no", "3",
            "--client-seed", "a||b", "--deck-name", "english_53", "--purpose", "reshuffle-2", "--cards", " ".join(thrown),
        ],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "deck (10 cards of english_53, purpose reshuffle-2, top card first):" in run.stdout
    assert " ".join(expected) + "\n" in run.stdout
    assert sorted(expected) == sorted(thrown)
