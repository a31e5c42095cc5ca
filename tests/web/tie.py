"""A client seed that makes a La Viuda table's first hand end in a tie for the worst hand.

Ties for the worst hand are rare (about one hand in 600 when bots play), so a browser test that must
read a tie-break cannot wait for one to come. The test harness is the house: it reads the first
hand's server seed from the server's database, as an operator could. The person chooses their client
seed (CM-6) on the table page. Before choosing, the harness plays the first hand in the pure engine
for one candidate client seed after another until the showdown ties. It builds each command's
context as the service does (``games.play.execute``), the bots choose as the service's bots do
(``games.play.worker.choose_for``: the seat's view, a ``Random`` of table, version and seat) and the
person chooses as the test will click (``person_choice``). Nothing in the service knows about this.
"""

from __future__ import annotations

import random
import sqlite3
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from games.engine import fairness, presence, registry
from games.engine.decider import Context

# What the person clicks on their turn, the first of these on offer.
PREFERENCE = ("knock", "pass")


def person_choice(kinds: Sequence[str]) -> str:
    """The kind of action the person chooses from those offered (never a presence action)."""
    offered = [kind for kind in kinds if kind not in presence.COMMANDS]
    return next((kind for kind in PREFERENCE if kind in offered), offered[0])


def server_seeds(database: Path, table_id: str) -> dict[int, bytes]:
    """The committed server seeds of a table, read from the server's SQLite database."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        rows = db.execute(
            "SELECT hand_no, server_seed FROM games_handseed WHERE table_id = ?", [uuid.UUID(table_id).hex]
        ).fetchall()
    return {int(hand_no): bytes(seed) for hand_no, seed in rows}


def first_hand_ties(
    *,
    config: Mapping[str, Any],
    table_id: str,
    seeds: Mapping[int, bytes],
    client_seeds: Sequence[str],
    version: int,
    person: int,
    extra: Mapping[str, Any],
    max_commands: int = 500,
) -> bool:
    """Whether the first hand's showdown ties for the worst hand and a bot loses the tie, started at
    ``version``. The person keeps their chip, so the next hand waits for them and its showdown
    cannot take the first one's place before the page is read, however fast the bots play."""
    decider = registry.get("la-viuda")
    state = decider.initial_state(config)
    command: dict[str, Any] = {"type": "start"}
    for _ in range(max_commands):
        next_hand = decider.hand_no(state) + 1
        ctx = Context(
            table_id=table_id,
            hand_no=next_hand,
            server_seed=seeds[next_hand],
            client_seed=fairness.hand_client_seed(client_seeds),
            # Only recorded, never drawn from: the hand's draws do not depend on it.
            next_commitment=fairness.commitment(seeds.get(next_hand + 1, b"")),
            extra=extra,
        )
        for event in decider.decide(state, command, ctx):
            state = decider.evolve(state, event)
            version += 1
            if type(event).__name__ == "ShowdownHeld":
                return len(event.tied) >= 2 and event.loser != person
        seat = decider.to_act(state)[0]
        legal = [action for action in decider.legal_actions(state, seat) if not presence.is_presence_action(action)]
        if seat == person:
            kind = person_choice([action["type"] for action in legal])
            action = next(action for action in legal if action["type"] == kind)
        else:
            rng = random.Random(f"{uuid.UUID(table_id)}:{version}:{seat}")
            action = dict(decider.bot(decider.view(state, seat), legal, rng))
            action.pop("seat", None)
        command = {**action, "seat": seat}
    raise AssertionError("the first hand did not reach its showdown")


def client_seed_for_a_tie(*, tries: int = 100_000, **table: Any) -> str:
    """The first client seed ``tie-<n>`` for the person's seat that makes the first hand tie."""
    person = table["person"]
    bots = list(table.pop("client_seeds"))
    for n in range(tries):
        seed = f"tie-{n}"
        seats = [seed if number == person else bots[number] for number in range(len(bots))]
        if first_hand_ties(client_seeds=seats, **table):
            return seed
    raise AssertionError(f"no client seed among {tries} ties the first hand")
