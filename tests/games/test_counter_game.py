"""The counter test game keeps the Decider conventions the store, service and API tests rely on."""

from __future__ import annotations

import hashlib
import random

import pytest

from games.engine.codec import decode_event, decode_state, encode_event, encode_state
from games.engine.decider import Context, event_types_by_name, replay
from games.engine.errors import IllegalAction, InvalidOptions
from games.engine.fairness import commitment
from tests.games.counter import DECIDER
from tests.games.counter.bot import choose
from tests.games.counter.events import HandEnded, HandStarted

TABLE = "00000000-0000-0000-0000-00000000c0de"


def seed(i: int, hand: int) -> bytes:
    return hashlib.sha256(f"seed{i}:{hand}".encode()).digest()


def ctx(i: int, state) -> Context:
    hand = state.hand_no + 1
    return Context(
        table_id=TABLE, hand_no=hand, server_seed=seed(i, hand), next_commitment=commitment(seed(i, hand + 1))
    )


def playout(i: int, seats: int, hands: int, stake: int = 0, chip_value: int = 0):
    """A seeded random game; yields (state_before, event) for every event recorded."""
    rng = random.Random(i)
    config = {**DECIDER.configure(seats, {"hands": hands}), "stake": stake, "chip_value": chip_value}
    state = DECIDER.initial_state(config)
    command = {"type": "start"}
    while True:
        for event in DECIDER.decide(state, command, ctx(i, state)):
            yield state, event
            state = DECIDER.evolve(state, event)
        if DECIDER.is_finished(state):
            return
        (seat,) = DECIDER.to_act(state)
        legal = DECIDER.legal_actions(state, seat)
        if rng.random() < 0.1:
            command = DECIDER.deadline(state, config)[1]
        else:
            command = {
                **(choose if rng.random() < 0.3 else (lambda v, lg, r: r.choice(lg)))(None, legal, rng),
                "seat": seat,
            }


@pytest.mark.parametrize("i", range(60))
def test_random_games_end_conserve_chips_round_trip_and_hide_cards(i):
    seats, hands = 2 + i % 5, 1 + i % 3
    balances: dict[tuple, int] = {}
    types = event_types_by_name(DECIDER)
    config = {**DECIDER.configure(seats, {"hands": hands}), "stake": 10, "chip_value": 2}
    events = []
    for state, event in playout(i, seats, hands, stake=10, chip_value=2):
        events.append(event)
        for move in DECIDER.settlements(state, event):
            balances[(move.unit, *move.source)] = balances.get((move.unit, *move.source), 0) - move.amount
            balances[(move.unit, *move.destination)] = balances.get((move.unit, *move.destination), 0) + move.amount
        after = DECIDER.evolve(state, event)
        # The ledger's chips agree with the state's chips after every event.
        assert [balances.get(("CHIP", "seat", s), 0) for s in range(seats)] == list(after.chips)
        assert balances.get(("CHIP", "pot"), 0) == after.pot
        assert decode_state(DECIDER.state_type, encode_state(after)) == after
        assert decode_event(types, *encode_event(event)) == event
        # Views never show another seat's card while the hand is on.
        if after.turn is not None:
            for seat in range(seats):
                view = DECIDER.view(after, seat)
                assert view["your_card"] == after.cards[seat]
                others = set(after.cards) - {after.cards[seat]}
                # Last hand's revealed cards are public; nothing else may name this hand's other cards.
                shown = {v for k, v in view.items() if k != "revealed" and isinstance(v, str)}
                assert not others & shown
            assert DECIDER.view(after, None)["your_card"] is None
        if isinstance(event, HandStarted):
            assert "server_seed" not in DECIDER.view_event(event, 0)
            assert DECIDER.view_event(event, 1)["your_card"] == event.cards[1]
            assert "cards" not in DECIDER.view_event(event, None)
        if isinstance(event, HandEnded):
            assert bytes.fromhex(event.server_seed) == seed(i, event.hand_no)  # revealed at hand end (CM-10)
    final = replay(DECIDER, config, events)
    assert final.finished and final.hand_no == hands
    assert sum(final.chips) == 0 and balances.get(("CHIP", "bank"), 0) == 0
    assert balances[("MONEY", "escrow")] == 0  # every stake and chip paid back out
    assert sum(v for (unit, *acct), v in balances.items() if unit == "MONEY" and acct[0] == "payout") == seats * (
        10 + 100 * 2
    )


def test_out_of_turn_and_bad_amounts_are_refused_with_legal_actions():
    state = DECIDER.initial_state(DECIDER.configure(2, {}))
    state = replay(DECIDER, {}, DECIDER.decide(state, {"type": "start"}, ctx(0, state)), state)
    with pytest.raises(IllegalAction, match="seat 0's turn"):
        DECIDER.decide(state, {"type": "add", "seat": 1, "amount": 1}, ctx(0, state))
    with pytest.raises(IllegalAction) as refused:
        DECIDER.decide(state, {"type": "add", "seat": 0, "amount": 6}, ctx(0, state))
    assert refused.value.legal == [{"type": "add", "amount": k} for k in range(1, 6)]
    with pytest.raises(IllegalAction, match="already started"):
        DECIDER.decide(state, {"type": "start"}, ctx(0, state))
    with pytest.raises(IllegalAction):
        DECIDER.decide(state, {"type": "timeout", "seat": 1}, ctx(0, state))


def test_configure_refuses_bad_options():
    with pytest.raises(InvalidOptions, match="start_chips"):
        DECIDER.configure(2, {"start_chips": 10})
    with pytest.raises(InvalidOptions, match="seats"):
        DECIDER.configure(7, {})
    assert DECIDER.configure(3, {})["seats"] == 3


def test_deadline_names_the_seat_to_act_and_timeout_adds_one():
    config = DECIDER.configure(2, {"turn_seconds": 30})
    state = DECIDER.initial_state(config)
    state = replay(DECIDER, config, DECIDER.decide(state, {"type": "start"}, ctx(0, state)), state)
    assert DECIDER.deadline(state, config) == (30.0, {"type": "timeout", "seat": 0})
    (added,) = DECIDER.decide(state, {"type": "timeout", "seat": 0}, ctx(0, state))
    assert (added.seat, added.amount, added.by_timeout) == (0, 1, True)
