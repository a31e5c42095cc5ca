"""FD-4, FD-11: our no-limit betting rounds against PokerKit's state machine.

A few hundred seeded random pre-flop rounds (3 to 6 players, 1/2 blinds, random stacks): at every
turn our legal bet or raise range matches PokerKit's, and when the round ends with a showdown still
to come, our side pots match PokerKit's (an uncalled bet is a pot of one for us, handed back by
PokerKit: a pot of one holding only an uncalled bet is not among its pots).
"""

from __future__ import annotations

import random

import pokerkit  # the peer: a pinned test requirement, so a missing one fails rather than skips
import pytest
from pokerkit import State

from games.rules.betting.actions import Action, act
from games.rules.betting.limits import legal_actions
from games.rules.betting.pots import side_pots
from games.rules.betting.state import Round, start_round

ROUNDS = 300


def pokerkit_state(stacks: list[int]) -> State:
    automations = (
        pokerkit.Automation.ANTE_POSTING,
        pokerkit.Automation.BET_COLLECTION,
        pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
        pokerkit.Automation.CARD_BURNING,
        pokerkit.Automation.HOLE_DEALING,
        pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        pokerkit.Automation.HAND_KILLING,
        pokerkit.Automation.CHIPS_PUSHING,
        pokerkit.Automation.CHIPS_PULLING,
    )
    return pokerkit.NoLimitTexasHoldem.create_state(automations, True, 0, (1, 2), 2, tuple(stacks), len(stacks))


def our_round(stacks: list[int]) -> Round:
    """PokerKit's player 0 posts the small blind, 1 the big blind, and 2 acts first."""
    count = len(stacks)
    order = (*range(2, count), 0, 1)
    behind = {seat: stacks[seat] - (1, 2, *([0] * count))[seat] for seat in range(count)}
    return start_round("no_limit", order, behind, bet_size=2, posted={0: 1, 1: 2})


def their_range(state: State) -> tuple[int, int] | None:
    low = state.min_completion_betting_or_raising_to_amount
    high = state.max_completion_betting_or_raising_to_amount
    return None if low is None or high is None else (low, high)


def our_range(state: Round) -> tuple[int, int] | None:
    legal = legal_actions(state)
    span = legal.raise_ or legal.bet
    if span is not None:
        return (span.minimum, span.maximum)
    if legal.all_in is not None and legal.all_in > state.current_bet:
        return (legal.all_in, legal.all_in)
    return None


def pick(rng: random.Random, state: Round) -> Action:
    legal = legal_actions(state)
    roll = rng.random()
    span = legal.raise_ or legal.bet
    if roll < 0.15 and not legal.check:
        return Action("fold")
    if roll < 0.3 and legal.all_in is not None:
        return Action("all_in")
    if roll < 0.6 and span is not None:
        return Action("raise" if legal.raise_ else "bet", rng.randint(span.minimum, span.maximum))
    return Action("check") if legal.check else Action("call")


def apply_to_theirs(theirs: State, action: Action, target: int) -> None:
    if action.kind == "fold":
        theirs.fold()
    elif action.kind in ("check", "call") or target <= max(theirs.bets):
        theirs.check_or_call()
    else:
        theirs.complete_bet_or_raise_to(target)


@pytest.mark.parametrize("seed", range(ROUNDS))
def test_fd_4_fd_11_no_limit_rounds_match_pokerkit(seed: int) -> None:
    rng = random.Random(seed)
    stacks = [rng.choice((rng.randint(3, 40), rng.randint(40, 400))) for _ in range(rng.randint(3, 6))]
    ours, theirs = our_round(stacks), pokerkit_state(stacks)
    while not ours.over:
        seat = ours.seat_to_act
        assert seat is not None and seat == theirs.actor_index
        assert our_range(ours) == their_range(theirs)
        action = pick(rng, ours)
        ours = act(ours, action)
        apply_to_theirs(theirs, action, ours.bets[ours.position(seat)])
    assert theirs.actor_index is None
    still_in = [seat for seat, folded in zip(ours.seats, ours.folded, strict=True) if not folded]
    if len(still_in) < 2 or not theirs.status:
        return
    contributed = dict(zip(ours.seats, ours.contributed, strict=True))
    pots = [(pot.amount, pot.eligible) for pot in side_pots(contributed, still_in)]
    top, second = sorted(contributed.values())[-2:][::-1]
    if len(pots[-1][1]) == 1:  # PokerKit hands the uncalled part back before it cuts the pots
        amount, eligible = pots.pop()
        pots += [(amount - (top - second), eligible)] if amount > top - second else []
    assert pots == [(pot.amount, tuple(sorted(pot.player_indices))) for pot in theirs.pots]
