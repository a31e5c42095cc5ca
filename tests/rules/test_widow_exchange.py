"""The widow exchange (WX-1..WX-7), given / when / then in events. Driven through Whiskey Poker at
three seats with points scoring (clockwise; dealer seat 2, so seats 0, 1, 2 act in that order) and
once through La Viuda for the counterclockwise direction."""

from __future__ import annotations

import pytest

from games.engine.errors import IllegalAction
from games.rules.la_viuda import game as la_viuda
from games.rules.whiskey_poker import events as whiskey_poker
from games.rules.whiskey_poker.game import DECIDER as WP
from games.rules.widow import exchange as widow
from games.rules.widow.events import FirstDealerDrawn, HandStarted
from games.rules.widow.exchange import CardExchanged, HandExchanged, Knocked, Passed, WidowTaken, WidowTurnedUp
from tests.rules.widow_helpers import PRESENT, act, ctx, dealt, fold

HANDS = {0: "2c 3c 4c 5c 7d", 1: "Ah Kh Qh Jh 9s", 2: "8s 8h 8d 3d 3h"}
WIDOW = "Tc Td Ts 9c 9d"


def table(max_orbits: int = 6):
    """Given: a three-seat table whose first hand was dealt with known cards."""
    config = WP.configure(3, {"scoring": "points", "max_orbits": max_orbits})
    given = [
        whiskey_poker.GameStarted((0, 1, 2), "points", 0, 0, None),
        FirstDealerDrawn(((0, "Kc"), (1, "Qc"), (2, "2s")), 2),
        dealt(2, (0, 1, 2), HANDS, WIDOW, 3, pot=0),
    ]
    return config, fold(WP, WP.initial_state(config), given)


def types(events):
    return [type(event) for event in events]


def test_wx_1_five_cards_each_and_a_face_down_widow_each_sees_only_their_own():
    """WX-1: five cards each and five in the widow, face down; a seat's view of the deal holds its
    own cards only, a spectator's none."""
    config = WP.configure(3, {"scoring": "points"})
    events = WP.decide(WP.initial_state(config), {"type": "start"}, ctx(1, 3))
    deal = next(event for event in events if type(event) is HandStarted)
    assert [len(hand) for hand in deal.hands] == [5, 5, 5] and len(deal.widow_cards) == 5
    for seat in range(3):
        seen = WP.view_event(deal, seat)
        assert seen["hand"] == list(deal.hands[seat])
        assert "hands" not in seen and "widow_cards" not in seen and "stock" not in seen
    assert "hand" not in WP.view_event(deal, None)
    state = fold(WP, WP.initial_state(config), events)
    assert WP.view(state, 0)["widow"] is None and WP.view(state, 0)["widow_face_up"] is False


def test_wx_2_pass_keeps_the_cards_and_moves_the_turn():
    """WX-2: a pass keeps the hand; the next player acts."""
    _, state = table()
    events, after = act(WP, state, 0, "pass")
    assert events == [Passed(0)]
    assert after.exchange.hands[0] == state.exchange.hands[0] and after.exchange.turn == 1


def test_wx_2_exchange_puts_the_hand_face_up_and_takes_the_widow_unseen():
    """WX-2: exchanging puts the hand face up as the widow, takes the widow unseen and starts
    phase 2 at once; only the taker sees what was taken."""
    _, state = table()
    events, after = act(WP, state, 0, "exchange_all")
    assert events == [WidowTaken(0, tuple(HANDS[0].split()), tuple(WIDOW.split()))]
    assert after.exchange.face_up and after.exchange.widow == tuple(HANDS[0].split())
    assert after.exchange.hands[0] == tuple(WIDOW.split())
    assert WP.view_event(events[0], 0)["took"] == WIDOW.split()
    assert "took" not in WP.view_event(events[0], 1) and "took" not in WP.view_event(events[0], None)
    assert WP.view(after, 1)["widow"] == HANDS[0].split()


def test_wx_2_knock_keeps_the_cards_and_ends_the_hand_before_the_knockers_next_turn():
    """WX-2: a knock gives up exchanging; the hand ends just before the knocker's next turn."""
    _, state = table()
    _, state = act(WP, state, 0, "knock")
    _, state = act(WP, state, 1, "pass")
    events, _ = act(WP, state, 2, "pass")
    assert types(events)[:3] == [Passed, WidowTurnedUp, whiskey_poker.ShowdownHeld]


def test_wx_3_widow_turns_face_up_after_the_dealer_passes():
    """WX-3: nobody exchanged and the dealer passes: the widow is turned face up, phase 2."""
    _, state = table()
    _, state = act(WP, state, 0, "pass")
    _, state = act(WP, state, 1, "pass")
    events, state = act(WP, state, 2, "pass")
    assert events == [Passed(2), WidowTurnedUp(tuple(WIDOW.split()))]
    assert state.exchange.phase == 2 and {"type": "pass"} not in WP.legal_actions(state, 0)


def test_wx_3_widow_turns_face_up_after_the_dealer_knocks():
    """WX-3: the same when the dealer knocks."""
    _, state = table()
    _, state = act(WP, state, 0, "pass")
    _, state = act(WP, state, 1, "pass")
    events, state = act(WP, state, 2, "knock")
    assert events == [Knocked(2, first=True, phase=1), WidowTurnedUp(tuple(WIDOW.split()))]
    assert state.exchange.face_up and state.exchange.turn == 0


def test_wx_4_widow_stays_face_down_after_a_non_dealer_knocks():
    """WX-4: after seat 0 knocks in phase 1 the widow stays face down for seat 1, who may still
    pass or take it unseen; seat 0 never gets a turn with the widow face up."""
    _, state = table()
    _, state = act(WP, state, 0, "knock")
    assert WP.view(state, 1)["widow"] is None
    assert WP.legal_actions(state, 1) == [{"type": "pass"}, {"type": "exchange_all"}, {"type": "knock"}, *PRESENT]
    events, state = act(WP, state, 1, "exchange_all")
    assert type(events[0]) is WidowTaken and state.exchange.face_up
    events, _ = act(WP, state, 2, "exchange_one", give="3h", take="Ah")
    assert types(events)[0] is CardExchanged and whiskey_poker.ShowdownHeld in types(events)


def phase_two():
    _, state = table()
    for seat in (0, 1, 2):
        _, state = act(WP, state, seat, "pass")
    return state


def test_wx_5_no_pass_in_phase_2():
    """WX-5: once the widow is face up there is no pass."""
    state = phase_two()
    with pytest.raises(IllegalAction) as refused:
        act(WP, state, 0, "pass")
    assert {"type": "pass"} not in refused.value.legal and {"type": "knock"} in refused.value.legal


def test_wx_5_exchange_one_and_exchange_all_with_the_face_up_widow():
    """WX-5: exchange one card for one of the widow, both face up; or all five."""
    state = phase_two()
    events, state = act(WP, state, 0, "exchange_one", give="7d", take="tc")
    assert events == [CardExchanged(0, "7d", "Tc")]
    assert "Tc" in state.exchange.hands[0] and "7d" in state.exchange.widow and "Tc" not in state.exchange.widow
    events, state = act(WP, state, 1, "exchange_all")
    assert events == [HandExchanged(1, tuple(HANDS[1].split()), ("7d", "Td", "Ts", "9c", "9d"))]
    assert state.exchange.widow == tuple(HANDS[1].split())
    assert len(WP.legal_actions(state, 2)) == 2 + 25 + len(PRESENT)


def test_wx_5_exchange_one_refuses_a_card_not_held():
    """WX-5: only a card of your hand for a card of the widow."""
    state = phase_two()
    with pytest.raises(IllegalAction, match="You do not hold"):
        act(WP, state, 0, "exchange_one", give="As", take="Tc")
    with pytest.raises(IllegalAction, match="widow does not hold"):
        act(WP, state, 0, "exchange_one", give="2c", take="2d")


def test_wx_6_after_the_first_knock_everyone_else_has_one_more_turn():
    """WX-6: after the first knock every other player acts exactly once; a later knock is a pass;
    the hand ends when the turn comes back to the first knocker."""
    state = phase_two()
    events, state = act(WP, state, 0, "knock")
    assert events == [Knocked(0, first=True, phase=2)]
    events, state = act(WP, state, 1, "knock")
    assert events == [Knocked(1, first=False, phase=2)]
    events, state = act(WP, state, 2, "exchange_all")
    assert types(events)[:2] == [HandExchanged, whiskey_poker.ShowdownHeld]
    assert state.exchange is not None and state.hand_no == 2 and state.exchange.turn == 1


def test_wx_6_out_of_turn_is_refused():
    """WX-6 (turn order): only the player whose turn it is may act."""
    _, state = table()
    with pytest.raises(IllegalAction, match="It is seat 0's turn, not yours"):
        act(WP, state, 1, "pass")


def test_wx_7_after_max_orbits_of_phase_2_the_player_must_knock():
    """WX-7: with max_orbits 1 and three players, after three phase-2 turns without a knock the
    player to act must knock, and that knock is an ordinary first knock."""
    _, state = act(WP, table(max_orbits=1)[1], 0, "pass")
    _, state = act(WP, state, 1, "pass")
    _, state = act(WP, state, 2, "pass")
    for seat in (0, 1, 2):
        assert WP.legal_actions(state, seat) != [{"type": "knock"}, *PRESENT]
        _, state = act(WP, state, seat, "exchange_all")
    assert WP.legal_actions(state, 0) == [{"type": "knock"}, *PRESENT]
    with pytest.raises(IllegalAction, match="must knock"):
        act(WP, state, 0, "exchange_all")
    events, state = act(WP, state, 0, "knock")
    assert events == [Knocked(0, first=True, phase=2, forced=True)]
    assert WP.legal_actions(state, 1)[0] == {"type": "knock"} and len(WP.legal_actions(state, 1)) == 27 + len(PRESENT)


def test_wx_7_timeout_passes_in_phase_1_and_knocks_in_phase_2():
    """WX-7: the turn timer plays pass in phase 1 and knock in phase 2 for an absent player."""
    config, state = table()
    assert WP.deadline(state, config) == (60.0, {"type": "timeout", "seat": 0})
    events, state = act(WP, state, 0, "timeout")
    assert events == [Passed(0, timed_out=True)]
    _, state = act(WP, state, 1, "pass")
    _, state = act(WP, state, 2, "pass")
    events, state = act(WP, state, 0, "timeout")
    assert events == [Knocked(0, first=True, phase=2, timed_out=True)]
    with pytest.raises(IllegalAction):
        act(WP, state, 0, "timeout")


def test_wx_lv_4_la_viuda_plays_the_exchange_counterclockwise():
    """LV-4 with WX-2: in La Viuda the next player is the one to the right."""
    game = la_viuda.DECIDER
    config = game.configure(4, {})
    state = fold(game, game.initial_state(config), game.decide(game.initial_state(config), {"type": "start"}, ctx()))
    first = state.exchange.turn
    assert first == (state.dealer - 1) % 4
    _events, state = act(game, state, first, "pass")
    assert state.exchange.turn == (first - 1) % 4
    assert widow.next_seat(state.exchange, state.dealer) == first
