"""FD-4, FD-5, FD-9..FD-11, FD-14, FD-20, CM-16: whole Five-Card Draw hands against PokerKit.

Seeded hands of standard five-card draw (high hands) in no-limit, pot-limit and fixed limit, with
antes (anything opens) or blinds, and of deuce-to-seven triple draw (fixed limit, blinds; lowest
hand wins, CM-16), 2 to 6 players with random stacks, forced bets and bet sizes. Each hand is played
through our engine with random legal actions of random sizes, then replayed through PokerKit's state
machine with the same forced bets, stacks, cards (our deal and our draw replacements) and actions
(``tests/rules/pokerkit_draw.py``). At every betting decision both must name the same seat to act
(FD-5) and offer the same fold, check, call amount, and smallest and largest "raise to" (FD-4);
all-in players still draw and rounds nobody can bet in are skipped (FD-20); at the end the pots
must match in amounts and eligible players (FD-11), the hands shown must be the same, and every
final stack must match (FD-9, FD-10, with CM-16 for triple draw).

Readings of ours that PokerKit does not share, each excluded where it shows and nowhere else:

- FD-4: an all-in for less than a full bet or raise does not reopen the betting to players who
  have already acted, even when it is the first wager of the round (or the first over the big
  blind). PokerKit measures such an all-in against the round's previous wager, nothing at the
  round's start (its blinds are not a wager there), so it reopens the betting; while no full bet
  has been made in the round, a raise PokerKit offers and we do not is not compared.
- FD-4, fixed limit: a short all-in is not one of the three raises, and with blinds the big blind
  is the round's bet (``Round.raises``). The driver builds PokerKit's first street with a cap of
  three raises when there are blinds, and takes a short all-in off its count.
- FD-10: odd chips of a split pot go one at a time from the dealer's left; PokerKit gives every
  odd chip to the first winner. Only a three-way (or wider) split with two or more odd chips
  differs, and our stacks are compared after moving those chips PokerKit's way.
- FD-20: after a fold with nothing to call leaves one player who can bet, our round ends;
  PokerKit asks that player to check, and the driver does.

A fast subset runs in every ``make test``; the full thousand hands per structure are ``long``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable

import pytest
from pokerkit import State as PokerKitState

from games.rules.five_card_draw.state import TRIPLE_DRAW
from tests.rules.pokerkit_draw import STRUCTURES, Hand, Offer, random_table, record, replay, their_offer

HANDS = 1000
FAST = 50
CASES = [(betting, "standard") for betting in STRUCTURES] + [("fixed_limit", TRIPLE_DRAW)]
IDS = [f"{betting}-{variant}" for betting, variant in CASES]


def compare_offers(hand: Hand) -> Callable[[Offer, PokerKitState], None]:
    """The check of every betting decision: our offer against PokerKit's."""

    def check(ours: Offer, state: PokerKitState) -> None:
        theirs = their_offer(state, hand.order)
        if (
            ours.raise_to is None
            and theirs.raise_to is not None
            and state.street is not None
            and state.completion_betting_or_raising_amount < state.street.min_completion_betting_or_raising_amount
        ):
            # FD-4 (see the module docstring): a short all-in reopened the betting for PokerKit.
            theirs = Offer(theirs.seat, theirs.fold, theirs.check, theirs.call, None)
        assert ours == theirs, f"ours {ours}, PokerKit's {theirs}"

    return check


def expected_pots(hand: Hand) -> list[tuple[int, tuple[int, ...]]]:
    """Our pots as PokerKit cuts them at a showdown: it hands an uncalled bet back before it makes
    the pots, where ours is a last pot of one player (FD-11) taken back unshown."""
    pots = list(hand.pots)
    if len(pots[-1][1]) == 1:
        top, second = sorted(hand.contributed)[-2:][::-1]
        amount, eligible = pots.pop()
        if amount > top - second:
            pots.append((amount - (top - second), eligible))
    return pots


def stacks_with_pokerkit_odd_chips(hand: Hand) -> tuple[int, ...]:
    """Our final stacks with each split pot's odd chips given all to its first winner from the
    dealer's left, as PokerKit does (FD-10: ours hands them out one at a time)."""
    assert hand.awarded is not None
    stacks = list(hand.stacks)
    by_pot: dict[int, list[tuple[int, int]]] = {}
    for share in hand.awarded.shares:
        by_pot.setdefault(share.pot, []).append((share.seat, share.chips))
    for shares in by_pot.values():
        quotient, odd = divmod(sum(chips for _, chips in shares), len(shares))
        for k, (seat, chips) in enumerate(shares):
            stacks[seat] += quotient + (odd if k == 0 else 0) - chips
    return tuple(stacks)


def play_and_compare(betting: str, variant: str, seed: int) -> Hand:
    rng = random.Random(f"{betting}-{variant}-{seed}")
    hand = record(random_table(rng, betting, variant), seed)
    outcome = replay(hand, compare_offers(hand))
    if hand.showdown:
        assert outcome.pots == expected_pots(hand)
        assert outcome.showdown == hand.showdown
        # FD-11: our share is an uncalled bet returned exactly when PokerKit hands the whole of our
        # last pot back as an uncalled bet before it cuts its pots.
        assert hand.awarded is not None
        returned = {share.pot for share in hand.awarded.shares if share.returned == "uncalled_bet"}
        assert returned == ({len(hand.pots) - 1} if len(outcome.pots) < len(hand.pots) else set())
    else:
        [(total, (winner,))] = hand.pots
        assert {eligible for _, eligible in outcome.pots} == {(winner,)}
        assert sum(amount for amount, _ in outcome.pots) + outcome.uncollected == total
    assert outcome.stacks == stacks_with_pokerkit_odd_chips(hand)
    return hand


def play_all(betting: str, variant: str, seeds: Iterable[int]) -> Counter[str]:
    """Every hand compared; what they covered."""
    seen: Counter[str] = Counter()
    for seed in seeds:
        try:
            hand = play_and_compare(betting, variant, seed)
        except AssertionError as error:
            raise AssertionError(f"{betting} {variant}, seed {seed}: {error}") from error
        seen["hands"] += 1
        seen["decisions"] += sum(step.offer is not None for step in hand.steps)
        seen["showdowns"] += bool(hand.showdown)
        seen["side pots"] += len(hand.pots) > 1 and len(expected_pots(hand)) > 1
        seen["heads up"] += len(hand.order) == 2
        seen["all-in"] += 0 in hand.stacks or any(step.command["type"] == "all_in" for step in hand.steps)
        seen["uncalled bets returned"] += any(share.returned for share in hand.awarded.shares) if hand.awarded else 0
    return seen


@pytest.mark.parametrize(("betting", "variant"), CASES, ids=IDS)
def test_fd_4_fd_11_hands_match_pokerkit(betting: str, variant: str) -> None:
    """A quick sample: the first hands of each structure and of triple draw."""
    play_all(betting, variant, range(FAST))


@pytest.mark.long
@pytest.mark.parametrize(("betting", "variant"), CASES, ids=IDS)
def test_fd_4_fd_11_a_thousand_hands_match_pokerkit(betting: str, variant: str) -> None:
    """A thousand more hands per structure, and they must cover what the comparison is for."""
    seen = play_all(betting, variant, range(FAST, FAST + HANDS))
    assert seen["hands"] == HANDS
    assert seen["showdowns"] >= HANDS // 5
    assert seen["uncalled bets returned"] > 0
    assert seen["side pots"] >= HANDS // 20
    assert seen["heads up"] >= HANDS // 10
    assert seen["all-in"] >= HANDS // 5
