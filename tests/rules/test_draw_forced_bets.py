"""Five-Card Draw's forced bets and the pot of passed deals, pure engine (FD-2, FD-6, FD-11,
FD-13): a player who cannot post the forced bet is never dealt in, not even after a passed deal
whose pot holds their last chip; that pot, paid without a showdown, goes back by the chips each
put in; and every pot goes only to the players eligible for it."""

from __future__ import annotations

import pytest

from games.rules.five_card_draw.events import (
    ForcedBetsPosted,
    HandPassed,
    HandStarted,
    PlayerEliminated,
    PlayerLeft,
    PotsAwarded,
    PotShare,
    TableEnded,
)
from tests.rules.draw_decks import Table, every, of, table
from tests.rules.playout_draw import play

NOTHING = {0: "2c 5d 8h Ts Qc", 1: "3c 6d 9h Js Kd", 2: "4c 7d 9c Th Kh"}  # no pair anywhere
NOTHING_AGAIN = {0: "Qc Qd 2h 5s 8c", 1: "Kc Kd 3h 6s 9c", 2: "4c 7d Th Js Ah"}


def pass_deal(t: Table) -> list:
    """Everyone to act checks the first round: nobody opens and the deal passes (FD-6)."""
    hand_no, events = t.state.hand_no, []
    while t.state.hand_no == hand_no and not t.state.finished:
        events += t.act(t.to_act(), "check")
    return events


def test_fd_2_fd_6_a_cash_player_whose_last_chip_is_a_passed_ante_sits_out_and_gets_it_back() -> None:
    """FD-2: a player at one chip antes it on a deal nobody opens (FD-6); with no chips they cannot
    post the next ante, so they are not dealt in again (no ``[seat, 0]`` post, no cards), their
    ante staying in the pot. The owner ends the table: the pot of the passed deals goes back by the
    chips each put in, so that player gets back their 1 chip, not a third of the pot."""
    t = table(3, button=2, stacks=[1, 100, 100], hands=NOTHING)
    assert t.state.stacks[0] == 0 and of(t.log, ForcedBetsPosted).posts == ((0, 1), (1, 1), (2, 1))
    t.deal_next({1: NOTHING_AGAIN[1], 2: NOTHING_AGAIN[2]})
    events = pass_deal(t)
    assert of(events, HandPassed) == HandPassed(3, (1, 1, 1))
    assert of(events, HandStarted).players == (2, 1)  # the button moved to seat 1
    assert of(events, ForcedBetsPosted) == ForcedBetsPosted("ante", ((2, 1), (1, 1)), 3)
    assert t.state.hand.cards[0] == () and t.state.present[0] and not every(events, PlayerLeft)
    events = pass_deal(t)  # passed again: 0 is still not dealt in
    assert of(events, HandPassed) == HandPassed(5, (1, 2, 2))
    assert 0 not in of(events, HandStarted).players
    t.command({"type": "end_table"})
    events = pass_deal(t)
    assert of(events, HandPassed) == HandPassed(7, (1, 3, 3))
    returned = of(events, PotsAwarded)
    assert returned.pots == ((7, (0, 1, 2)),)
    assert returned.shares == tuple(
        PotShare(0, seat, chips, "whole", False, "passed_deals") for seat, chips in ((0, 1), (1, 3), (2, 3))
    )
    assert of(events, TableEnded).cash_out == (1, 100, 100)  # everyone as they came: the pot was never won


def test_fd_2_fd_6_the_sitting_out_players_ante_goes_to_the_next_hand_won_then_they_leave() -> None:
    """FD-6: the ante of a player who cannot post the next one stays in the pot, which the next
    hand played out wins; with no chips and no share of a pot left, the player is cashed out (with
    nothing) and leaves (FD-13)."""
    t = table(3, button=2, stacks=[1, 100, 100], hands=NOTHING)
    t.deal_next({1: NOTHING_AGAIN[2], 2: "Jc Jd 3h 6s 9c"})
    pass_deal(t)
    assert t.to_act() == 2
    t.act(2, "bet", amount=2)
    events = t.fold_out()
    assert of(events, PotsAwarded).shares == (PotShare(0, 2, 7, "whole", False),)  # 3 carried, 2 antes, 2 bet
    assert of(events, PlayerLeft) == PlayerLeft(0, 0, 0, "no_chips")
    assert 0 not in of(events, HandStarted).players and not t.state.present[0]
    assert t.state.carried == ()


def test_fd_2_fd_13_a_tournament_player_with_no_chips_is_out_at_once_their_passed_ante_in_the_pot() -> None:
    """FD-13: a tournament player with no chips is eliminated, even when their last chip is an ante
    of a passed deal (FD-6); it stays in the pot, which the next hand's winner takes, and they never
    get any of it back."""
    options = {"format": "tournament", "starting_stack": 10}
    hands = {0: "Jc Jd 2h 5s 8c", 1: "Ac Ad 3h 6s 9s", 2: NOTHING[2]}
    t = table(3, options, button=2, hands=hands, stake=5)
    t.act(0, "bet", amount=8)
    t.act(1, "call")
    t.act(2, "fold")
    t.deal_next(NOTHING)
    t.check_down()
    assert t.state.stacks == (1 - 1, 20 - 1, 9 - 1)  # seat 0's last chip is hand 2's ante
    t.deal_next({1: NOTHING_AGAIN[1], 2: NOTHING_AGAIN[2]})
    events = pass_deal(t)
    assert of(events, PlayerEliminated) == PlayerEliminated(0, 3)
    assert set(of(events, HandStarted).players) == {1, 2} and 0 not in dict(of(events, ForcedBetsPosted).posts)
    assert t.state.carried == (1, 1, 1) and t.state.pot == 3 + 2
    t.deal_next({1: "Jc Jd 3h 6s 9c", 2: "Qc Qd 4h 7s Tc"})
    pass_deal(t)  # hand 3 passes too; hand 4 deals openers
    opener = t.to_act()
    t.act(opener, "bet", amount=1)
    events = t.fold_out()
    assert of(events, PotsAwarded).shares == (PotShare(0, opener, 3 + 2 + 2 + 1, "whole", False),)
    assert t.state.stacks[0] == 0 and not t.state.present[0] and t.state.carried == ()


class CarriedChecks:
    """After every event: nobody without chips posts a forced bet (FD-2); every share of a pot goes
    to a seat eligible for it (FD-11); a pot of passed deals paid back (a ``PotsAwarded`` between
    hands) gives each player at the table exactly the chips they put in, when all of them are still
    there (FD-6)."""

    def __init__(self) -> None:
        self.stakes: tuple[int, ...] = ()
        self.returned = 0

    def __call__(self, state, event) -> None:
        if isinstance(event, ForcedBetsPosted):
            assert all(chips > 0 for _, chips in event.posts), event
        if isinstance(event, HandPassed):
            self.stakes = event.stakes
        if not isinstance(event, PotsAwarded):
            return
        for share in event.shares:
            assert share.seat in event.pots[share.pot][1], event
        if state.hand is None:
            self.returned += 1
            paid = {share.seat: share.chips for share in event.shares}
            if all(state.present[seat] for seat, chips in enumerate(self.stakes) if chips):
                assert paid == {seat: chips for seat, chips in enumerate(self.stakes) if chips}, (paid, self.stakes)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"format": "tournament", "starting_stack": 12},
        {"ante_amount": 3, "min_buy_in": 3},
        {"high_low": True},
        {"wild": "jokers", "opening": "jacks_or_better"},
    ],
)
def test_fd_2_fd_11_random_tables_deal_in_only_players_who_can_post_and_pay_only_the_eligible(options) -> None:
    """FD-2, FD-6, FD-11: random short stacks at antes with jacks or better (many passed deals),
    cash and tournament, played to the end."""
    tournament = options.get("format") == "tournament"
    checks = CarriedChecks()
    for seed in range(6):
        buy_ins = None if tournament else [1 + seed % 3, 3, 5, 40]
        money = {"stake": 5} if tournament else {}
        final, log = play(4, options, seed=seed, buy_ins=buy_ins, max_hands=25, check=checks, **money)
        assert final.finished
        for started in (event for event in log if isinstance(event, HandStarted)):
            assert all(started.stacks[seat] > 0 for seat in started.players)
    if options.get("ante_amount") == 3:
        assert checks.returned  # the tables end at once, their first deal passed: its pot goes back


def test_fd_6_fd_13_chips_of_a_player_gone_are_shared_when_the_passed_pot_goes_back() -> None:
    """FD-6, FD-10: a cash player leaves between deals nobody opened; their antes stay in the pot.
    When the table ends, everyone still there gets back their own chips, and the gone player's
    are shared equally among them, odd chips from the button's left."""
    t = table(4, button=3)
    pass_deal(t)
    t.act(3, "leave")  # folded at each turn, cashed out when the hand is over
    events = pass_deal(t)
    assert of(events, HandPassed).stakes == (2, 2, 2, 2)
    assert of(events, PlayerLeft) == PlayerLeft(3, 98, 0, "left")
    t.command({"type": "end_table"})
    events = pass_deal(t)
    assert of(events, HandPassed) == HandPassed(11, (3, 3, 3, 2))
    here = [(t.state.last_hand.button + k) % 4 for k in range(1, 5)]
    first, second, third = [seat for seat in here if seat != 3]
    shares = {share.seat: share.chips for share in of(events, PotsAwarded).shares}
    assert shares == {first: 4, second: 4, third: 3}
    assert sum(of(events, TableEnded).cash_out) == 300 + 2
