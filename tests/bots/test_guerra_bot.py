"""The Guerra bot throws from its view alone (GC-12: bots throw at once)."""

from __future__ import annotations

import random

import pytest

from games.engine.decider import Context
from games.rules.guerra import DECIDER
from games.rules.guerra.bot import choose


def test_gc_12_bots_throw_until_the_match_ends():
    config = DECIDER.configure(3, {"max_rounds": 50})
    ctx = Context(table_id="00000000-0000-0000-0000-000000000007", hand_no=1, server_seed=bytes(32), client_seed="||")
    state = DECIDER.initial_state(config)
    for event in DECIDER.decide(state, {"type": "start"}, ctx):
        state = DECIDER.evolve(state, event)
    rng = random.Random(7)
    while not DECIDER.is_finished(state):
        seat = DECIDER.to_act(state)[0]
        action = choose(DECIDER.view(state, seat), DECIDER.legal_actions(state, seat), rng)
        for event in DECIDER.decide(state, {**action, "seat": seat}, ctx):
            state = DECIDER.evolve(state, event)
    assert state.winners and state.round_no <= 50


def test_the_bot_refuses_when_not_awaited():
    with pytest.raises(ValueError, match="does not await"):
        choose({}, [{"type": "leave"}], random.Random(1))
