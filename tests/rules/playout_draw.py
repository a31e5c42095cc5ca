"""Five-Card Draw played without a database: a seeded context per hand, random legal players, and
hand-built decks (a test names the cards it wants dealt; the shuffle is not involved)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.engine.decider import Context
from games.engine.presence import is_presence_action
from games.rules.five_card_draw import DECIDER
from games.rules.five_card_draw.state import State

TABLE_ID = "00000000-0000-0000-0000-00000000fcd0"


def hand_seed(tag: str, hand_no: int) -> bytes:
    """A fixed server seed per hand, so a playout is the same every run."""
    return hashlib.sha256(f"{tag}:{hand_no}".encode()).digest()


def context(
    state: State, tag: str, buy_ins: Mapping[int, int] | None = None, wallet_chips: Mapping[int, int] | None = None
) -> Context:
    """The context the service would give: the next hand's seed and the next commitment (and, when
    given, the chips each person's wallet pays for, FD-13)."""
    hand_no = state.hand_no + 1
    extra: dict[str, Any] = {"buy_ins": dict(buy_ins)} if buy_ins is not None else {}
    if wallet_chips is not None:
        extra["wallet_chips"] = dict(wallet_chips)
    return Context(
        table_id=TABLE_ID,
        hand_no=hand_no,
        server_seed=hand_seed(tag, hand_no),
        client_seed="",
        next_commitment=hashlib.sha256(hand_seed(tag, hand_no + 1)).hexdigest(),
        extra=extra,
    )


def new_table(seats: int, options: Mapping[str, Any] | None = None, **money: Any) -> tuple[dict[str, Any], State]:
    """A configured table and its state before the start."""
    config = DECIDER.configure(seats, dict(options or {}))
    config.update(money)
    return config, DECIDER.initial_state(config)


def apply(state: State, command: Mapping[str, Any], tag: str = "t", **extra: Any) -> tuple[State, list[Any]]:
    """Decide one command and fold its events in."""
    events = DECIDER.decide(state, dict(command), context(state, tag, **extra))
    for event in events:
        state = DECIDER.evolve(state, event)
    return state, events


def random_action(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    """A uniformly chosen legal action with a random legal amount or discard; never sitting out,
    sitting in or leaving (CM-20), which a playout means only when it says so."""
    option = rng.choice([o for o in DECIDER.legal_actions(state, seat) if not is_presence_action(o)])
    kind = option["type"]
    if kind in ("bet", "raise"):
        return {"type": kind, "amount": rng.randint(option["min"], option["max"]), "seat": seat}
    if kind == "draw":
        assert state.hand is not None
        held = list(state.hand.cards[seat])
        count = rng.randint(option["min"], option["max"])
        rule = option.get("show_ace")
        if rule is None or count < rule["min"]:
            return {"type": "draw", "discard": rng.sample(held, count), "seat": seat}
        ace = rng.choice(rule["aces"])
        pool = [card for card in held if card != ace] if rule["keep"] else held
        return {"type": "draw", "discard": rng.sample(pool, count), "show": ace, "seat": seat}
    return {"type": kind, "seat": seat}


Player = Callable[[State, int, random.Random], dict[str, Any]]


def play(
    seats: int,
    options: Mapping[str, Any] | None = None,
    *,
    seed: int = 0,
    buy_ins: Sequence[int] | None = None,
    max_steps: int = 20_000,
    max_hands: int = 30,
    player: Player = random_action,
    check: Callable[[State, Any], None] | None = None,
    **money: Any,
) -> tuple[State, list[Any]]:
    """Play a table to its end with ``player`` in every seat; ``check(state, event)`` after every
    event. The owner ends a cash table after ``max_hands`` hands."""
    rng = random.Random(seed)
    tag = f"play-{seed}"
    config, state = new_table(seats, options, **money)
    chips = dict(enumerate(buy_ins)) if buy_ins is not None else {seat: config["max_buy_in"] for seat in range(seats)}
    history: list[Any] = []
    command: dict[str, Any] = {"type": "start"}
    for _ in range(max_steps):
        events = DECIDER.decide(state, command, context(state, tag, chips))
        for event in events:
            state = DECIDER.evolve(state, event)
            if check is not None:
                check(state, event)
        history.extend(events)
        if state.finished:
            return state, history
        if state.settings.format == "cash" and state.hand_no >= max_hands and not state.end_requested:
            command = {"type": "end_table"}
            continue
        seat = DECIDER.to_act(state)[0]
        command = player(state, seat, rng)
    raise AssertionError(f"the table did not end in {max_steps} actions")
