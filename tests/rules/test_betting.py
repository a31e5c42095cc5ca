"""The shared betting machinery (FD-4, FD-9..FD-12, FD-20): pure, milliseconds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.errors import IllegalAction
from games.rules.betting.actions import Action, BettingRefused, act
from games.rules.betting.limits import NOTHING, Range, legal_actions
from games.rules.betting.pots import Pot, Win, award, side_pots, totals
from games.rules.betting.state import STRUCTURES, Round, Structure, start_round

FOLD, CHECK, CALL, ALL_IN = Action("fold"), Action("check"), Action("call"), Action("all_in")


def bet(amount: int) -> Action:
    return Action("bet", amount)


def raise_to(amount: int) -> Action:
    return Action("raise", amount)


def blinds(structure: Structure, stack: int = 100) -> Round:
    """Three seats, 1/2 blinds posted: seat 0 (under the gun) acts first, 1 is the small blind."""
    return start_round(structure, (0, 1, 2), {0: stack, 1: stack - 1, 2: stack - 2}, bet_size=2, posted={1: 1, 2: 2})


def play(state: Round, *actions: Action) -> Round:
    for action in actions:
        state = act(state, action)
    return state


# --- FD-4: exact amounts for each structure ----------------------------------------------------


def test_fd_4_no_limit_min_raise_is_the_last_raise_and_max_is_the_stack() -> None:
    state = blinds("no_limit")
    legal = legal_actions(state)
    assert (legal.seat, legal.check, legal.call, legal.bet) == (0, False, 2, None)
    assert legal.raise_ == Range(4, 100)
    assert legal.all_in == 100
    state = act(state, raise_to(10))  # a raise of 8
    legal = legal_actions(state)
    assert (legal.seat, legal.call, legal.raise_) == (1, 9, Range(18, 100))


def test_fd_4_no_limit_opening_bet_is_at_least_the_bet_size_and_check_needs_nothing_to_call() -> None:
    state = start_round("no_limit", (5, 2), {5: 50, 2: 80}, bet_size=4)
    legal = legal_actions(state)
    assert (legal.seat, legal.check, legal.call, legal.bet, legal.raise_) == (5, True, None, Range(4, 50), None)
    state = act(state, bet(7))
    legal = legal_actions(state)
    assert (legal.check, legal.call, legal.raise_) == (False, 7, Range(14, 80))


def test_fd_4_pot_limit_max_is_the_pot_after_calling() -> None:
    state = blinds("pot_limit")
    assert legal_actions(state).raise_ == Range(4, 7)  # call 2 -> pot 5, raise 5
    state = act(state, raise_to(7))  # pot 10
    assert legal_actions(state).raise_ == Range(12, 23)  # call 6 -> pot 16, raise 16
    opening = start_round("pot_limit", (0, 1), {0: 500, 1: 500}, bet_size=2, contributed={0: 10, 1: 10}, dead=5)
    assert legal_actions(opening).bet == Range(2, 25)


def test_fd_2_fd_4_pot_limit_allows_the_minimum_bet_into_a_smaller_pot() -> None:
    """min_bet is the smallest opening bet (FD-2): a pot smaller than it does not forbid betting."""
    antes = start_round("pot_limit", (0, 1), {0: 99, 1: 379}, bet_size=4, contributed={0: 1, 1: 1})
    assert legal_actions(antes).bet == Range(4, 4)
    short = start_round("pot_limit", (0, 1), {0: 3, 1: 379}, bet_size=4, contributed={0: 1, 1: 1})
    assert (legal_actions(short).bet, legal_actions(short).all_in) == (None, 3)
    state = act(antes, bet(4))  # pot 6: a pot-sized raise (to 14) is above the minimum (to 8)
    assert legal_actions(state).raise_ == Range(8, 14)


def test_fd_4_pot_limit_all_in_beyond_the_pot_is_refused() -> None:
    state = blinds("pot_limit")
    assert legal_actions(state).all_in is None
    with pytest.raises(BettingRefused):
        act(state, ALL_IN)
    short = blinds("pot_limit", stack=5)
    assert legal_actions(short).all_in == 5


def test_fd_4_fixed_limit_one_bet_and_three_raises() -> None:
    state = blinds("fixed_limit")
    assert legal_actions(state).raise_ == Range(4, 4)
    state = play(state, raise_to(4), raise_to(6), raise_to(8))  # the blind, then three raises
    legal = legal_actions(state)
    assert (legal.seat, legal.call, legal.raise_, legal.all_in) == (0, 4, None, None)
    with pytest.raises(BettingRefused, match="You may not raise now"):
        act(state, raise_to(10))
    state = play(state, CALL, CALL)
    assert state.over and state.bets == (8, 8, 8)


def test_fd_4_fixed_limit_bet_is_exactly_the_bet_size() -> None:
    state = start_round("fixed_limit", (0, 1), {0: 100, 1: 100}, bet_size=10)
    assert legal_actions(state).bet == Range(10, 10)
    with pytest.raises(BettingRefused, match="from 10 to 10"):
        act(state, bet(20))


def test_fd_4_call_for_more_than_the_stack_is_a_call_all_in() -> None:
    state = start_round("no_limit", (0, 1), {0: 100, 1: 30}, bet_size=2)
    state = act(state, bet(60))
    legal = legal_actions(state)
    assert (legal.call, legal.raise_, legal.all_in) == (30, None, 30)
    state = act(state, CALL)
    assert state.over and state.all_in == (False, True) and state.stacks == (40, 0)


def test_fd_4_all_in_for_less_does_not_reopen_the_betting_to_who_acted() -> None:
    state = start_round("no_limit", (0, 1, 2), {0: 100, 1: 100, 2: 25}, bet_size=10)
    state = play(state, bet(20), CALL, ALL_IN)  # 25: a raise of 5, less than a full raise of 20
    legal = legal_actions(state)
    assert (legal.seat, legal.call, legal.raise_, legal.all_in) == (0, 5, None, None)
    with pytest.raises(BettingRefused):
        act(state, raise_to(45))
    state = play(state, CALL, CALL)
    assert state.over and state.contributed == (25, 25, 25)


def test_fd_4_all_in_for_less_leaves_raising_open_to_who_has_not_acted() -> None:
    state = start_round("no_limit", (0, 2, 1), {0: 100, 1: 100, 2: 25}, bet_size=10)
    state = play(state, bet(20), ALL_IN)
    legal = legal_actions(state)
    assert (legal.seat, legal.call, legal.raise_) == (1, 25, Range(45, 100))
    state = act(state, raise_to(45))  # a full raise reopens the betting
    assert legal_actions(state).raise_ == Range(65, 100)


def test_fd_4_short_all_ins_adding_up_to_a_full_raise_reopen_the_betting() -> None:
    state = start_round("no_limit", (0, 1, 2, 3), {0: 100, 1: 25, 2: 40, 3: 100}, bet_size=10)
    state = play(state, bet(20), ALL_IN, ALL_IN)  # 25, then 40: 20 more than seat 0 bet
    assert legal_actions(state).raise_ == Range(60, 100)
    state = act(state, CALL)
    legal = legal_actions(state)
    assert (legal.seat, legal.call, legal.raise_) == (0, 20, Range(60, 100))


def test_fd_4_a_full_all_in_raise_reopens_the_betting() -> None:
    state = start_round("no_limit", (0, 1, 2), {0: 100, 1: 100, 2: 40}, bet_size=10)
    state = play(state, bet(20), CALL, ALL_IN)  # 40: a raise of 20
    assert legal_actions(state).raise_ == Range(60, 100)


def test_fd_4_illegal_actions_are_refused_with_a_message_and_the_legal_actions() -> None:
    state = blinds("no_limit")
    with pytest.raises(IllegalAction) as refused:
        act(state, CHECK)
    assert refused.value.message == "You cannot check: there are 2 chips to call."
    assert {"type": "raise", "min": 4, "max": 100} in refused.value.legal
    with pytest.raises(BettingRefused, match="from 4 to 100"):
        act(state, raise_to(3))
    with pytest.raises(BettingRefused, match="already a bet"):
        act(state, bet(10))
    done = play(state, FOLD, FOLD)
    assert done.over and legal_actions(done) is NOTHING
    with pytest.raises(BettingRefused, match="over"):
        act(done, CHECK)


# --- FD-20: when the round ends ---------------------------------------------------------------


def test_fd_20_round_ends_when_everyone_able_has_acted_and_matched() -> None:
    state = blinds("no_limit")
    state = play(state, CALL, CALL)
    assert not state.over and state.seat_to_act == 2  # the big blind's option
    state = act(state, CHECK)
    assert state.over and state.pot == 6


def test_fd_20_round_is_skipped_when_fewer_than_two_can_bet() -> None:
    state = start_round("no_limit", (0, 1, 2), {0: 0, 1: 0, 2: 70}, bet_size=2, contributed={0: 30, 1: 30, 2: 30})
    assert state.over
    facing = start_round("no_limit", (0, 1), {0: 0, 1: 70}, bet_size=2, posted={0: 2, 1: 1})
    legal = legal_actions(facing)
    assert (facing.seat_to_act, legal.call, legal.raise_, legal.all_in) == (1, 1, None, None)
    assert act(facing, CALL).over


def test_fd_20_round_ends_when_all_but_one_fold() -> None:
    state = start_round("no_limit", (0, 1, 2), {0: 100, 1: 100, 2: 100}, bet_size=2)
    state = play(state, bet(10), FOLD, FOLD)
    assert state.over and state.folded == (False, True, True)


# --- FD-9, FD-10, FD-11, FD-12: pots ----------------------------------------------------------


def test_fd_11_multiway_all_in_three_side_pots_with_a_folded_contributor() -> None:
    contributed = {0: 20, 1: 50, 2: 100, 3: 100, 4: 30}  # seat 4 folded
    pots = side_pots(contributed, [0, 1, 2, 3])
    assert pots == (Pot(100, (0, 1, 2, 3)), Pot(100, (1, 2, 3)), Pot(100, (2, 3)))
    wins = award(pots, {0: 9, 1: 5, 2: 7, 3: 1}, order=(1, 2, 3, 4, 0))
    assert wins == (Win(0, 0, 100, True), Win(1, 2, 100, True), Win(2, 2, 100, True))
    assert sum(totals(wins).values()) == sum(contributed.values())  # FD-12


def test_fd_10_odd_chips_go_one_at_a_time_from_the_dealers_left() -> None:
    pots = (Pot(101, (0, 2, 4)), Pot(5, (0, 4)))
    wins = award(pots, {0: 3, 2: 3, 4: 3}, order=(4, 0, 2))
    assert totals(wins) == {4: 34 + 3, 0: 34 + 2, 2: 33}


def test_fd_9_an_uncalled_bet_comes_back_unshown() -> None:
    pots = side_pots({0: 100, 1: 40}, [0, 1])
    assert pots == (Pot(80, (0, 1)), Pot(60, (0,)))
    wins = award(pots, {0: 1, 1: 2}, order=(0, 1))
    assert wins == (Win(0, 1, 80, True), Win(1, 0, 60, False))


def test_fd_9_the_last_player_in_wins_unshown() -> None:
    state = start_round("no_limit", (0, 1, 2), {0: 100, 1: 100, 2: 100}, bet_size=2)
    state = play(state, bet(10), CALL, raise_to(30), FOLD, FOLD)
    pots = side_pots(dict(zip(state.seats, state.contributed, strict=True)), [2])
    assert award(pots, {}, order=(0, 1, 2)) == (Win(0, 2, 50, False),)


# --- a property: random legal rounds conserve chips and end -----------------------------------


@st.composite
def rounds(draw: st.DrawFn) -> Round:
    count = draw(st.integers(2, 6))
    stacks = draw(st.lists(st.integers(0, 300), min_size=count, max_size=count))
    structure = draw(st.sampled_from(STRUCTURES))
    bet_size = draw(st.integers(1, 20))
    posted = {}
    if draw(st.booleans()) and stacks[-1] >= bet_size and stacks[-2] >= bet_size:
        posted = {count - 2: bet_size // 2, count - 1: bet_size}
    behind = {seat: chips - posted.get(seat, 0) for seat, chips in enumerate(stacks)}
    return start_round(structure, range(count), behind, bet_size=bet_size, posted=posted)


def choose(data: st.DataObject, state: Round) -> Action:
    legal = legal_actions(state)
    options: list[Action] = [FOLD]
    options += [CHECK] if legal.check else []
    options += [CALL] if legal.call is not None else []
    options += [ALL_IN] if legal.all_in is not None else []
    for kind, span in (("bet", legal.bet), ("raise", legal.raise_)):
        if span is not None:
            options.append(Action(kind, data.draw(st.integers(span.minimum, span.maximum))))  # type: ignore[arg-type]
    return data.draw(st.sampled_from(options))


@settings(max_examples=300, deadline=None)
@given(st.data(), rounds())
def test_fd_12_fd_20_random_legal_rounds_conserve_chips_and_end(data: st.DataObject, state: Round) -> None:
    chips = sum(state.stacks) + sum(state.contributed)
    for _ in range(200):
        if state.over:
            break
        state = act(state, choose(data, state))
        assert sum(state.stacks) + sum(state.contributed) == chips
        assert min(state.stacks) >= 0
    assert state.over
    matched = [
        b == state.current_bet for b, f, a in zip(state.bets, state.folded, state.all_in, strict=True) if not (f or a)
    ]
    assert (
        sum(not f for f in state.folded) == 1
        or all(matched)
        or (len(matched) == 1 and state.current_bet <= max(state.bets))
    )
    still_in = [seat for seat, folded in zip(state.seats, state.folded, strict=True) if not folded]
    contributed = dict(zip(state.seats, state.contributed, strict=True))
    pots = side_pots(contributed, still_in)
    assert sum(pot.amount for pot in pots) == sum(state.contributed)
    ranking = {seat: data.draw(st.integers(0, 3)) for seat in still_in}
    wins = award(pots, ranking, order=state.seats)
    assert sum(totals(wins).values()) == sum(state.contributed)
