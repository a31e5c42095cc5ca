"""CM-20 in Euchre: sitting out, sitting in and leaving, out of turn too. Tables are test_euchre's
standard deal: dealer 3, seat 0 (the dealer's left) bids first."""

from __future__ import annotations

import random

import pytest

from games.engine.errors import IllegalAction
from games.engine.presence import LeftTable, SatIn, SatOut
from games.rules.euchre import DECIDER, bot
from games.rules.euchre.events import CardPlayed, MatchWon, Passed
from games.rules.euchre.legal import timeout_action
from tests.rules.playout_euchre import next_context, step
from tests.rules.test_euchre import HANDS, KITTY, PRESENT, config, given, refused, when


def test_cm_20_euchre_sit_out_out_of_turn_hands_the_seat_to_the_bot_and_sit_in_takes_it_back():
    """CM-20: seat 2 sits out while seat 0 bids; the bot plays seat 2 and every view says so;
    seat 2 sits in again and the bot plays it no more."""
    state = given(HANDS, KITTY, dealer=3)
    assert DECIDER.to_act(state) == (0,)
    state, events = when(state, 2, type="sit_out")
    assert events == [SatOut(2)] and DECIDER.to_act(state) == (0,)
    assert DECIDER.played_by_bot(state) == {2}
    assert DECIDER.view(state, 0)["played_by_bot"] == [2] and DECIDER.view(state, None)["played_by_bot"] == [2]
    assert DECIDER.legal_actions(state, 2) == [{"type": "sit_in"}, {"type": "leave"}]
    assert refused(state, 2, type="sit_out").code == "already_sitting_out"
    state, events = when(state, 2, type="sit_in")
    assert events == [SatIn(2)] and DECIDER.played_by_bot(state) == frozenset()
    assert DECIDER.legal_actions(state, 2) == PRESENT


def test_cm_20_euchre_lists_presence_actions_for_every_seat_whoever_is_to_act():
    """CM-20: sit_out and leave are listed for the seats not to act, after the moves of the one
    that is."""
    state = given(HANDS, KITTY, dealer=3)
    for seat in (1, 2, 3):
        assert DECIDER.legal_actions(state, seat) == PRESENT
    bids = [{"type": "pass"}, {"type": "order_up", "alone": False}, {"type": "order_up", "alone": True}]
    assert DECIDER.legal_actions(state, 0) == [*bids, *PRESENT]


def test_cm_20_euchre_leave_out_of_turn_is_final():
    """CM-20: seat 3 leaves while seat 0 bids (once answered "It is seat 0's turn"); the bot plays
    seat 3 from then on; sitting in or leaving again is refused with ``seat_left``."""
    state = given(HANDS, KITTY, dealer=3)
    state, events = when(state, 3, type="leave")
    assert events == [LeftTable(3)] and DECIDER.to_act(state) == (0,)
    assert DECIDER.played_by_bot(state) == {3} and DECIDER.legal_actions(state, 3) == []
    assert refused(state, 3, type="sit_in").code == "seat_left"
    assert refused(state, 3, type="leave").code == "seat_left"
    for seat in (0, 1, 2):
        state, _ = when(state, seat, type="pass")
    # Seat 3's turn: its moves are the bot's to choose, never a presence action.
    assert DECIDER.to_act(state) == (3,)
    legal = DECIDER.legal_actions(state, 3)
    assert legal and all(action["type"] in ("pass", "pick_up") for action in legal)
    assert bot.choose(DECIDER.view(state, 3), legal, random.Random(0)) in legal


def test_cm_20_euchre_presence_is_refused_before_the_start_and_after_the_end():
    """CM-20: presence changes while the match is on only."""
    waiting = DECIDER.initial_state(config())
    assert DECIDER.legal_actions(waiting, 0) == []
    with pytest.raises(IllegalAction, match="not started"):
        DECIDER.decide(waiting, {"type": "sit_out", "seat": 0}, next_context(waiting, "x"))
    state = _play(config(target_points=3), "cm20-over", leaver=None)[0]
    assert DECIDER.is_finished(state) and DECIDER.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction, match="over"):
        DECIDER.decide(state, {"type": "leave", "seat": 0}, next_context(state, "x"))


def test_cm_20_euchre_the_timer_and_the_bot_ignore_presence_actions():
    """CM-20, EU-22: the timer still plays the lowest legal card and the bot a move, although
    legal actions list sit_out and leave."""
    state = given(HANDS, KITTY, dealer=3)
    state, _ = when(state, 0, type="order_up")
    state, _ = when(state, 3, type="discard", card="9c")
    assert timeout_action(state, 0)["type"] == "play"
    legal = DECIDER.legal_actions(state, 0)
    assert PRESENT[1] in legal
    assert bot.choose(DECIDER.view(state, 0), legal, random.Random(0))["type"] == "play"


def test_cm_20_euchre_the_leavers_seat_plays_to_the_end_and_the_result_counts_it():
    """CM-20, EU-14: seat 1 leaves in hand 1; the bot plays its cards for the rest of the match,
    which ends with a side past the target, seat 1's side scored like any other."""
    state, log = _play(config(target_points=5), "cm20-leaver", leaver=1)
    assert LeftTable(1) in log and state.presence.gone == {1}
    after = log[log.index(LeftTable(1)) :]
    assert any(isinstance(event, CardPlayed) and event.seat == 1 for event in after)
    won = log[-1]
    assert isinstance(won, MatchWon) and won.winners in ((0, 2), (1, 3))
    assert state.scores[1] == state.scores[3] and max(state.scores) >= 5


def _play(cfg, tag, *, leaver):
    """The bot plays every seat; ``leaver`` leaves before the first bid."""
    state, log = step(DECIDER, DECIDER.initial_state(cfg), {"type": "start"}, tag)
    if leaver is not None:
        state, events = step(DECIDER, state, {"type": "leave", "seat": leaver}, tag)
        log += events
    rng = random.Random(tag)
    for _ in range(5_000):
        if DECIDER.is_finished(state):
            return state, log
        (seat,) = DECIDER.to_act(state)
        action = bot.choose(DECIDER.view(state, seat), DECIDER.legal_actions(state, seat), rng)
        state, events = step(DECIDER, state, {**action, "seat": seat}, tag)
        log += events
    raise AssertionError("the match did not end")


def test_cm_20_euchre_a_pass_by_the_bot_for_a_seat_sitting_out_is_the_seats_own():
    """CM-20: the bot's move for a seat sitting out is recorded as that seat's, like any other."""
    state = given(HANDS, KITTY, dealer=3)
    state, _ = when(state, 0, type="sit_out")
    state, events = when(state, 0, type="pass")
    assert events == [Passed(seat=0, round=1)] and DECIDER.to_act(state) == (1,)
