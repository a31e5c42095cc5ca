"""Guerra Chevichona's one judge of a command (``legal.refusal``) and ``decide`` agree on every
command.

Random reachable states (2 to 8 players, every deck, with ``auto_play`` and without, players out,
sitting out, in and leaving, CM-20) and, at each, every candidate command from every seat and some
illegal ones: the judge lets a command through exactly when ``decide`` accepts it, and when
``decide`` refuses it raises the judge's very refusal (its words, code and legal actions);
``legal_actions`` is the candidates the judge lets through.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from games.engine.decider import Context
from games.engine.errors import IllegalAction
from games.engine.presence import is_presence_action
from games.rules.guerra import DECIDER
from games.rules.guerra.cards import DECKS
from games.rules.guerra.legal import CANDIDATES, legal_actions, refusal
from tests.rules.test_guerra import given

SENT: tuple[dict[str, Any], ...] = (
    *CANDIDATES,
    {"type": "timeout"},
    {"type": "play_round"},
    {"type": "start"},
    {"type": "fold"},
    {"type": None},
    {"type": ["throw"]},
)


def words(refused: IllegalAction) -> tuple[Any, ...]:
    """What a refusal says, to the letter: its English, message id and values, code and list."""
    message = refused.message
    return str(message), getattr(message, "msgid", None), getattr(message, "values", None), refused.code, refused.legal


def context(i: int) -> Context:
    """The context of match ``i``: the seed of hand 1, the whole match (GC-2)."""
    seed = hashlib.sha256(f"judge{i}".encode()).digest()
    return Context(table_id=f"00000000-0000-0000-0000-{i:012d}", hand_no=1, server_seed=seed, next_commitment="n")


def decided(state: Any, command: dict[str, Any], ctx: Context) -> IllegalAction | None:
    """``decide``'s refusal of ``command``, or ``None`` when it accepts it."""
    try:
        DECIDER.decide(state, command, ctx)
    except IllegalAction as refused:
        return refused
    return None


def assert_agree(state: Any, ctx: Context) -> int:
    """The judge and ``decide`` agree on every command of ``SENT`` from every seat, from seats
    not at the table and from none; ``legal_actions`` is what it lets through. The number judged."""
    seats: list[Any] = [*range(state.seats), -1, state.seats, True, "0"]
    judged = [(seat, {**command, "seat": seat}) for seat in seats for command in SENT]
    judged += [(None, dict(command)) for command in SENT]
    for seat, command in judged:
        answer, raised = refusal(state, seat, command), decided(state, command, ctx)
        assert (answer is None) == (raised is None), (command, answer, raised)
        if answer is not None and raised is not None:
            assert words(answer) == words(raised), command
    for number in range(state.seats):
        let_through = [dict(c) for c in CANDIDATES if refusal(state, number, {**c, "seat": number}) is None]
        assert legal_actions(state, number) == let_through
    return len(judged)


def _next(state: Any, rng: random.Random) -> dict[str, Any]:
    """A command for the next step: mostly a throw, now and then a presence command (CM-20), the
    turn timer or, with ``auto_play``, the round's clock (GC-12)."""
    roll = rng.random()
    if roll < 0.05:
        seat = rng.randrange(state.seats)
        listed = [a for a in legal_actions(state, seat) if is_presence_action(a)]
        if listed:
            return {**rng.choice(listed), "seat": seat}
    awaited = DECIDER.to_act(state)
    if state.match.auto_play and (roll < 0.5 or not awaited):
        return {"type": "play_round"}
    if roll < 0.15:
        return {"type": "timeout", "seat": awaited[0]}
    return {"type": "throw", "seat": rng.choice(awaited)}


def play_judged(i: int) -> int:
    """Play random match ``i``, judging every command at every state: the number judged."""
    rng = random.Random(i)
    options = {"deck": DECKS[i % 3], "jokers": i % 2 == 0, "auto_play": i % 4 == 1, "max_rounds": 40}
    state, ctx = DECIDER.initial_state(DECIDER.configure(2 + i % 7, options)), context(i)
    judged = assert_agree(state, ctx)
    command: dict[str, Any] = {"type": "start"}
    while True:
        for event in DECIDER.decide(state, command, ctx):
            state = DECIDER.evolve(state, event)
        judged += assert_agree(state, ctx)
        if state.finished:
            return judged
        command = _next(state, rng)


@pytest.mark.parametrize("block", range(4))
def test_gc_2_gc_10_gc_12_cm_20_the_judge_and_decide_agree_on_every_command(block):
    """GC-2, GC-3, GC-10, GC-12, CM-20: in random matches, at every state, ``refusal`` is ``None``
    exactly when ``decide`` does not raise, its refusal is ``decide``'s to the letter, and
    ``legal_actions`` is the candidates it lets through."""
    judged = sum(play_judged(i) for i in range(block * 14, block * 14 + 14))
    assert judged > 10_000


def test_gc_10_cm_20_the_judge_words_and_codes_refusals():
    """The judge's refusals, with ``decide``'s words and codes: a throw by a short player (GC-10)
    lists the seat's legal actions; presence refused by the engine (CM-20) lists none."""
    state = given("Ac Kc 2c", "2d", size=2)
    assert DECIDER.refusal is refusal
    short = refusal(state, 1, {"type": "throw", "seat": 1})
    assert short is not None and str(short.message).startswith("You have 1 card for a 2-card round")
    assert short.code == "illegal_action" and short.legal == [{"type": "sit_out"}, {"type": "leave"}]
    sitting_in = refusal(state, 0, {"type": "sit_in", "seat": 0})
    assert sitting_in is not None and sitting_in.code == "not_sitting_out" and sitting_in.legal == []
    for event in DECIDER.decide(state, {"type": "leave", "seat": 0}, context(0)):
        state = DECIDER.evolve(state, event)
    gone = refusal(state, 0, {"type": "sit_out", "seat": 0})
    assert gone is not None and gone.code == "seat_left"
    no_seat = refusal(state, 9, {"type": "throw", "seat": 9})
    assert no_seat is not None and str(no_seat.message) == "There is no seat 9 at this table." and no_seat.legal == []
    started = refusal(state, 1, {"type": "start", "seat": 1})
    assert started is not None and str(started.message) == "The match has already started."
    unknown = refusal(state, 1, {"type": "fold", "seat": 1})
    assert unknown is not None and "Unknown action 'fold'" in str(unknown.message)
    clock = refusal(state, None, {"type": "play_round"})
    assert clock is not None and str(clock.message) == "Rounds play themselves only with automatic play."
