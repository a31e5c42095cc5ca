"""Euchre's one judge of a command (``legal.refusal``) and ``decide`` agree on every command.

Random reachable states (matches with every house rule, seats sitting out, in and leaving, CM-20)
and, at each, every candidate command from every seat and some illegal ones: the judge lets a
command through exactly when ``decide`` accepts it, and when ``decide`` refuses it raises the
judge's very refusal (its words, code and legal actions); ``legal_actions`` is the candidates the
judge lets through.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine import presence
from games.engine.errors import IllegalAction
from games.rules.euchre import DECIDER
from games.rules.euchre.legal import candidates, legal_actions, refusal
from tests.rules.playout_euchre import next_context, step
from tests.rules.test_euchre import HANDS, KITTY, given

# Commands no seat may send as they are, whatever the state.
ILLEGAL: tuple[dict[str, Any], ...] = (
    {"type": "fold"},
    {"type": None},
    {"type": "play", "card": "Zz"},
    {"type": "discard", "card": 7},
    {"type": "name_trump", "suit": "stars", "alone": False},
    {"type": "order_up", "alone": "yes"},
    {"type": "farmers_swap", "cards": ["9c"]},
    {"type": "set_deal_pattern", "pattern": "1-4"},
)
# Commands of the system and the table that the judge answers as ``decide`` does too.
OTHERS: tuple[dict[str, Any], ...] = (
    {"type": "start"},
    {"type": "timeout"},
    {"type": "set_deal_pattern", "pattern": "3-2"},
    {"type": "sit_out"},
    {"type": "sit_in"},
    {"type": "leave"},
)
OPTIONS: tuple[tuple[int, dict[str, Any]], ...] = (
    (4, {}),
    (4, {"stick_the_dealer": True, "no_trump": True, "farmers_hand": True, "ace_no_face": True}),
    (3, {"cutthroat": True, "farmers_hand": True, "ace_no_face": True}),
    (4, {"cutthroat": True, "stick_the_dealer": True}),
)


def words(refused: IllegalAction) -> tuple[Any, ...]:
    """What a refusal says, to the letter: its English, message id and values, code and list."""
    message = refused.message
    return str(message), getattr(message, "msgid", None), getattr(message, "values", None), refused.code, refused.legal


def decided(state: Any, command: dict[str, Any]) -> IllegalAction | None:
    """``decide``'s refusal of ``command``, or ``None`` when it accepts it."""
    try:
        DECIDER.decide(state, command, next_context(state, "judge"))
    except IllegalAction as refused:
        return refused
    return None


def commands(state: Any) -> list[tuple[Any, dict[str, Any]]]:
    """Every candidate move of every seat sent from every seat (and from no seat at all), and the
    illegal and other commands, each with the seat the judge is told sends it."""
    moves = [move for seat in range(state.seats) for move in candidates(state, seat)]
    sent = [*moves, *ILLEGAL, *OTHERS]
    seats: list[Any] = [*range(state.seats), -1, state.seats, True]
    listed = [(seat, {**command, "seat": seat}) for seat in seats for command in sent]
    return listed + [(None, dict(command)) for command in (*ILLEGAL, *OTHERS)]


def assert_agree(state: Any) -> int:
    """The judge and ``decide`` agree on every command of ``commands``; the number judged."""
    judged = commands(state)
    for seat, command in judged:
        answer, raised = refusal(state, seat, command), decided(state, command)
        assert (answer is None) == (raised is None), (command, answer, raised)
        if answer is not None and raised is not None:
            assert words(answer) == words(raised), command
    for seat in range(state.seats):
        let_through = [c for c in candidates(state, seat) if refusal(state, seat, {**c, "seat": seat}) is None]
        assert legal_actions(state, seat) == let_through
    return len(judged)


def _next(state: Any, rng: random.Random) -> dict[str, Any]:
    """A command for the next step: mostly a legal move of the awaited seat, now and then a seat
    sits out, sits in or leaves (CM-20), changes its deal (EU-3) or the timer plays (EU-22)."""
    roll = rng.random()
    if roll < 0.06:
        seat = rng.randrange(state.seats)
        listed = [a for a in legal_actions(state, seat) if presence.is_presence_action(a)]
        if listed:
            return {**rng.choice(listed), "seat": seat}
    if roll < 0.09:
        return {"type": "set_deal_pattern", "pattern": rng.choice(("2-3", "3-2")), "seat": rng.randrange(state.seats)}
    (seat,) = DECIDER.to_act(state)
    if roll < 0.2:
        return {"type": "timeout", "seat": seat}
    moves = [a for a in legal_actions(state, seat) if not presence.is_presence_action(a)]
    return {**rng.choice(moves), "seat": seat}


@pytest.mark.parametrize(("seats", "options"), OPTIONS)
def test_eu_1_to_eu_22_cm_20_the_judge_and_decide_agree_on_every_command(seats, options):
    """EU-1..EU-22, CM-20: in random matches (every house rule, seats away and gone), at every
    state, ``refusal`` is ``None`` exactly when ``decide`` does not raise, its refusal is
    ``decide``'s to the letter, and ``legal_actions`` is the candidates it lets through."""
    rng = random.Random(seats * 100 + len(options))
    state = DECIDER.initial_state({**DECIDER.configure(seats, options), "target_points": 4})
    judged = assert_agree(state)
    state, _ = step(DECIDER, state, {"type": "start"}, "judge")
    for _ in range(400):
        judged += assert_agree(state)
        if DECIDER.is_finished(state):
            break
        state, _ = step(DECIDER, state, _next(state, rng), "judge")
    assert DECIDER.is_finished(state) and judged > 10_000
    assert_agree(state)


def test_eu_3_eu_22_cm_20_the_judge_words_and_codes_refusals_outside_the_moves():
    """The refusals ``decide`` used to make before asking about a move are the judge's now: a
    seat not at the table, a stale timeout (EU-22), a deal pattern (EU-3), presence (CM-20)."""
    state = given(HANDS, KITTY, dealer=3)
    assert DECIDER.refusal is refusal
    no_seat = refusal(state, 7, {"type": "pass", "seat": 7})
    assert no_seat is not None and str(no_seat.message) == "There is no seat 7 at this table." and no_seat.legal == []
    stale = refusal(state, 2, {"type": "timeout", "seat": 2})
    assert stale is not None and stale.code == "stale_timeout" and stale.legal == []
    pattern = refusal(state, 1, {"type": "set_deal_pattern", "pattern": "5-0", "seat": 1})
    assert pattern is not None and "deal pattern" in str(pattern.message)
    assert refusal(state, 1, {"type": "set_deal_pattern", "pattern": "3-2", "seat": 1}) is None
    assert refusal(state, 1, {"type": "sit_out", "seat": 1}) is None
    sitting_in = refusal(state, 1, {"type": "sit_in", "seat": 1})
    assert sitting_in is not None and sitting_in.code == "not_sitting_out"
    waiting = DECIDER.initial_state(DECIDER.configure(4, {}))
    before = refusal(waiting, 0, {"type": "leave", "seat": 0})
    assert before is not None and before.code == "not_started"
    started = refusal(state, 0, {"type": "start", "seat": 0})
    assert started is not None and str(started.message) == "The match has already started."
    out_of_turn = refusal(state, 1, {"type": "pass", "seat": 1})
    assert out_of_turn is not None and out_of_turn.legal == legal_actions(state, 1)
