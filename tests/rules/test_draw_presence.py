"""Five-Card Draw's sitting out, sitting in and leaving (CM-20, FD-13), pure engine, hand-built
decks (tests/rules/draw_decks.py): the bot plays a sat-out seat; a cash leaver is folded at each of
its turns and cashed out when the hand is over; a tournament leaver's seat plays on, theirs."""

from __future__ import annotations

import random

import pytest

from games.engine.errors import IllegalAction
from games.engine.presence import LeftTable, SatIn, SatOut, is_presence_action
from games.engine.words import Text
from games.rules.five_card_draw import DECIDER, bot
from games.rules.five_card_draw.events import (
    CardsDrawn,
    HandStarted,
    LeaveRequested,
    PlayerActed,
    PlayerLeft,
    TableEnded,
)
from tests.rules.draw_decks import every, of, table
from tests.rules.playout_draw import new_table

NOTHING = {0: "2c 5d 8h Ts Qc", 1: "3c 6d 9h Js Kd", 2: "4c 7d 9c Th Kh"}  # no pair anywhere
OPEN = {"opening": "anything_opens"}


def test_cm_20_legal_actions_list_sitting_out_and_leaving_for_a_seat_not_to_act() -> None:
    t = table(3, OPEN, button=2, hands=NOTHING)
    assert t.to_act() == 0
    assert DECIDER.legal_actions(t.state, 2) == [{"type": "sit_out"}, {"type": "leave"}]
    turn = DECIDER.legal_actions(t.state, 0)
    assert [o["type"] for o in turn if is_presence_action(o)] == ["sit_out", "leave"]
    assert any(o["type"] == "bet" for o in turn)
    _, fresh = new_table(3)
    assert DECIDER.legal_actions(fresh, 0) == []


def test_cm_20_sit_out_hands_the_seat_to_the_bot_and_sit_in_takes_it_back() -> None:
    t = table(3, OPEN, button=2, hands=NOTHING)
    assert t.act(2, "sit_out") == [SatOut(2)]
    assert DECIDER.played_by_bot(t.state) == {2}
    assert all(DECIDER.view(t.state, seat)["played_by_bot"] == [2] for seat in (0, 1, 2, None))
    assert DECIDER.legal_actions(t.state, 2) == [{"type": "sit_in"}, {"type": "leave"}]
    with pytest.raises(IllegalAction) as twice:
        t.act(2, "sit_out")
    assert twice.value.code == "already_sitting_out"
    t.act(0, "check")
    t.act(1, "check")
    # Seat 2's turn: the table's bot plays it (the service asks ``played_by_bot``), from its view.
    legal = DECIDER.legal_actions(t.state, 2)
    action = bot.choose(DECIDER.view(t.state, 2), legal, random.Random(1))
    assert not is_presence_action(action) and bot.is_legal(action, legal)
    assert t.act(2, "sit_in") == [SatIn(2)]
    assert DECIDER.played_by_bot(t.state) == frozenset() and DECIDER.view(t.state, None)["played_by_bot"] == []
    with pytest.raises(IllegalAction) as not_out:
        t.act(2, "sit_in")
    assert not_out.value.code == "not_sitting_out"
    t.act(2, "check")  # sat in before the turn: the player plays it


def test_cm_20_leaving_is_final() -> None:
    t = table(3, OPEN, button=2, hands=NOTHING)
    t.act(2, "sit_out")
    assert t.act(2, "leave") == [LeaveRequested(2), LeftTable(2)]
    assert DECIDER.legal_actions(t.state, 2) == []
    for kind in ("sit_in", "sit_out", "leave"):
        with pytest.raises(IllegalAction) as refused:
            t.act(2, kind)
        assert refused.value.code == "seat_left"
    # A cash leaver's seat is the engine's to fold, not the bot's to play.
    assert DECIDER.played_by_bot(t.state) == frozenset()


def test_cm_20_fd_13_a_cash_leaver_whose_turn_it_is_folds_at_once() -> None:
    t = table(3, OPEN, button=2, hands=NOTHING)
    assert t.to_act() == 0
    events = t.act(0, "leave")
    assert events == [LeaveRequested(0), LeftTable(0), PlayerActed(0, "fold", 0, 0, timeout=False)]
    assert t.to_act() == 1 and t.state.hand is not None and t.state.hand.folded[0]


def test_cm_20_fd_13_a_cash_leaver_stands_pat_in_the_draw_folds_next_and_is_not_dealt_in_again() -> None:
    """The draw has no fold: the leaver stands pat at once, then folds their next betting turn in
    the command that reaches it; the stack is cashed out when the hand is over."""
    t = table(3, OPEN, button=2, hands={0: "Ac Ad 9h Js Kd", 1: "Kc Ks 8h Ts Qc", 2: "4c 7d 9c Th Kh"})
    t.act(0, "bet", amount=4)
    t.act(1, "call")
    t.act(2, "call")
    assert t.state.hand is not None and t.state.hand.drawing == (0, 1, 2)
    t.act(2, "leave")
    t.act(0, "draw", discard=["9h"])
    drawn = t.act(1, "draw", discard=[])
    assert every(drawn, CardsDrawn)[-1] == CardsDrawn(2, 1, 0, None, False, discarded=(), received=())
    assert t.to_act() == 0
    t.act(0, "check")
    events = t.act(1, "check")
    assert every(events, PlayerActed)[-1] == PlayerActed(2, "fold", 0, 0, timeout=False)
    assert of(events, PlayerLeft) == PlayerLeft(2, 100 - 1 - 4, 0, "left")
    assert of(events, HandStarted).players == (1, 0)
    assert not t.state.present[2] and DECIDER.legal_actions(t.state, 2) == []


def test_cm_20_a_tournament_leavers_seat_plays_on_and_wins_the_prize() -> None:
    """CM-20 in a match (amended FD-13 reading: a tournament leave used to be refused): the bot plays
    the leaver's seat to the end, and the place and prize stay the player's."""
    t = table(2, {"format": "tournament", "starting_stack": 8, **OPEN}, button=1, stake=10)
    assert t.act(1, "leave") == [LeftTable(1)]
    assert DECIDER.played_by_bot(t.state) == {1} and DECIDER.view(t.state, 0)["played_by_bot"] == [1]
    assert t.to_act() == 0 and DECIDER.legal_actions(t.state, 1) == []  # nothing left to say about presence
    rng = random.Random(3)
    for _ in range(2_000):
        if t.state.finished:
            break
        seat = t.to_act()
        legal = DECIDER.legal_actions(t.state, seat)
        if seat == 1:
            action = bot.choose(DECIDER.view(t.state, 1), legal, rng)
        else:  # the person at seat 0 never puts a chip in: folds, stands pat
            kinds = {o["type"] for o in legal}
            action = {"type": "draw", "discard": []} if "draw" in kinds else {"type": "fold"}
        assert not is_presence_action(action)
        t.command({**action, "seat": seat})
    ended = of(t.log, TableEnded)
    assert ended.winners == (1,) and ended.prize == 20
    paid = [(m.destination, m.amount) for m in DECIDER.settlements(t.state, ended) if m.unit == "MONEY"]
    assert paid == [(("payout", 1), 20)]


def test_cm_20_the_hand_history_says_who_sat_out_sat_in_and_left() -> None:
    names = ["alice", "bob"]
    lines = [DECIDER.audit.history_line(event, "bob", names) for event in (SatOut(1), SatIn(1), LeftTable(1))]
    assert lines == [
        "bob sits out: the bot plays for them.",
        "bob sits in again and plays their own turns.",
        "bob leaves the table.",
    ]
    assert all(isinstance(line, Text) and line.values == {"player": "bob"} for line in lines)
