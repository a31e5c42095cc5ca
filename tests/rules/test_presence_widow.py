"""CM-20 in La Viuda and Whiskey Poker: sitting out, sitting in and leaving, given / when / then in
events. La Viuda tables are test_la_viuda's (four seats, dealer 3, seats act 2, 1, 0, 3); Whiskey
Poker tables are test_whiskey_poker's (three seats, dealer 2, seats act 0, 1, 2)."""

from __future__ import annotations

import random

import pytest

from games.engine.decider import Movement
from games.engine.errors import IllegalAction
from games.engine.presence import LeftTable, SatIn, SatOut
from games.engine.words import Text
from games.rules.la_viuda import bot as lv_bot
from games.rules.la_viuda.events import GameEnded as LaViudaEnded
from games.rules.la_viuda.events import WidowDeclined, WidowOffered
from games.rules.la_viuda.game import DECIDER as LV
from games.rules.whiskey_poker import bot as wp_bot
from games.rules.whiskey_poker.events import AntesPaid, GameEnded, LosersPaid, PlayerCashedOut, PotAwarded
from games.rules.whiskey_poker.game import DECIDER as WP
from games.rules.widow.events import HandEnded, HandStarted, PlayerEliminated
from games.rules.widow.exchange import Knocked, Passed
from tests.rules.playout_widow import play
from tests.rules.test_la_viuda import broke_table, showdown
from tests.rules.test_la_viuda import table as lv_table
from tests.rules.test_whiskey_poker import FULL_HOUSE_AT_2, pot_table
from tests.rules.test_whiskey_poker import table as wp_table
from tests.rules.widow_helpers import PRESENT, act, ctx, fold

# Seat 1 holds the worst hand, seat 2 the middle one, in test_la_viuda's table.
LV_HANDS = ("Kd Kh Ks Qd Qh", "4c 5d 7h 9s Jc")
MONEY = {"chip_value": 200, "currency": "MXN"}


def refused(game, state, seat: int, kind: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        game.decide(state, {"type": kind, "seat": seat}, ctx(state.hand_no + 1, state.seats))
    return caught.value


# --- La Viuda -------------------------------------------------------------------------------------


def test_cm_20_la_viuda_sit_out_hands_the_seat_to_the_bot_and_sit_in_takes_it_back():
    """CM-20: seat 0 sits out while seat 2 is to act; the bot plays seat 0, every view says so;
    seat 0 sits in again before its turn and the bot plays it no more."""
    _, state = lv_table(*LV_HANDS)
    assert LV.to_act(state) == (2,)
    events, state = act(LV, state, 0, "sit_out")
    assert events == [SatOut(0)]
    assert LV.played_by_bot(state) == {0}
    assert LV.view(state, 1)["played_by_bot"] == [0] and LV.view(state, None)["played_by_bot"] == [0]
    assert LV.legal_actions(state, 0) == [{"type": "sit_in"}, {"type": "leave"}]
    assert refused(LV, state, 0, "sit_out").code == "already_sitting_out"
    events, state = act(LV, state, 0, "sit_in")
    assert events == [SatIn(0)] and LV.played_by_bot(state) == frozenset()
    assert LV.view(state, 0)["played_by_bot"] == [] and LV.legal_actions(state, 0) == PRESENT


def test_cm_20_la_viuda_lists_presence_actions_for_a_seat_not_to_act():
    """CM-20: sit_out and leave are listed for every seated player whoever's turn it is; the seat
    to act has its moves first."""
    _, state = lv_table(*LV_HANDS)
    assert LV.to_act(state) == (2,)
    for seat in (0, 1, 3):
        assert LV.legal_actions(state, seat) == PRESENT
    assert LV.legal_actions(state, 2)[-2:] == PRESENT and len(LV.legal_actions(state, 2)) > 2


def test_cm_20_la_viuda_leave_is_final_and_the_bot_plays_the_seat_from_then_on():
    """CM-20: leave on a running La Viuda table is no unknown action; the seat is the bot's from
    then on, and sitting in or leaving again is refused with ``seat_left``."""
    _, state = lv_table(*LV_HANDS)
    events, state = act(LV, state, 1, "leave")
    assert events == [LeftTable(1)]
    assert LV.played_by_bot(state) == {1} and LV.view(state, 0)["played_by_bot"] == [1]
    assert refused(LV, state, 1, "sit_in").code == "seat_left"
    assert refused(LV, state, 1, "leave").code == "seat_left"
    assert refused(LV, state, 1, "sit_out").code == "seat_left"
    _, state = act(LV, state, 2, "knock")
    # Seat 1's turn: its moves are the bot's to choose, and the player has nothing to send.
    assert LV.to_act(state) == (1,)
    legal = LV.legal_actions(state, 1)
    assert legal and all(action["type"] in ("pass", "exchange_all", "knock") for action in legal)
    assert lv_bot.choose(LV.view(state, 1), legal, random.Random(1)) in legal


def test_cm_20_la_viuda_a_player_out_of_the_game_may_leave_but_not_sit_out():
    """CM-20, LV-9: a player eliminated has nothing left to play: sitting out is refused, leaving
    is allowed and changes nothing but presence."""
    _, state = broke_table()
    _, state = showdown(state)
    events, state = act(LV, state, 1, "decline_widow")
    assert WidowDeclined(1, "declined") in events and PlayerEliminated(1, "broke") in events
    assert LV.legal_actions(state, 1) == [{"type": "leave"}]
    assert refused(LV, state, 1, "sit_out").code == "out_of_game"
    chips = state.chips
    events, state = act(LV, state, 1, "leave")
    assert events == [LeftTable(1)] and state.chips == chips and LV.legal_actions(state, 1) == []


def test_cm_20_la_viuda_presence_is_refused_before_the_start_and_after_the_end():
    """CM-20: presence changes while the table runs only."""
    config = LV.configure(4, {})
    waiting = LV.initial_state(config)
    assert LV.legal_actions(waiting, 0) == []
    with pytest.raises(IllegalAction, match="not started"):
        LV.decide(waiting, {"type": "sit_out", "seat": 0}, ctx(1, 4))
    state, _ = play(LV, config, _bots(LV, lv_bot), "00000000-0000-4000-8000-000000000020")
    assert state.finished and LV.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction, match="over"):
        LV.decide(state, {"type": "leave", "seat": 0}, ctx(state.hand_no + 1, 4))


def test_cm_20_la_viuda_the_leavers_seat_plays_to_the_end_and_the_result_counts_it():
    """CM-20: a La Viuda match left by seat 0 in hand 1 is played on by the bot in seat 0's place:
    it is dealt every later hand while it has chips, and the game ends with one winner among all
    four seats, as it would have."""
    config = LV.configure(4, {"chips_per_player": 2})
    left = []

    def choose(state, seat):
        if not left:
            left.append(seat)
            return {"type": "leave"}
        return _bots(LV, lv_bot)(state, seat)

    state, events = play(LV, config, choose, "00000000-0000-4000-8000-000000000021")
    leaver = left[0]
    assert LeftTable(leaver) in events and state.presence.gone == {leaver}
    after = events[events.index(LeftTable(leaver)) :]
    dealt = [event for event in after if type(event) is HandStarted]
    assert dealt and any(leaver in event.order for event in dealt)
    assert any(type(event) is Knocked and event.seat == leaver for event in after)
    ended = events[-1]
    assert type(ended) is LaViudaEnded and ended.winner in range(4) and state.winner == ended.winner
    assert LV.settlements(fold(LV, LV.initial_state(config), events[:-1]), ended) == []  # no money at stake


def test_cm_20_lv_8_the_bot_never_buys_la_viuda_with_an_away_players_money():
    """CM-20, LV-8: buying La Viuda spends the player's own money, so a broke player who sat out is
    not offered it: they decline at once (``away``) and are out, and no money moves; one who is
    there is offered it as before."""
    _config, state = broke_table(chip_value=500)
    away = fold(LV, state, LV.decide(state, {"type": "sit_out", "seat": 1}, ctx(state.hand_no + 1, 4)))
    events, after = showdown(away)
    assert not any(type(event) is WidowOffered for event in events)
    declined = events.index(WidowDeclined(1, "away"))
    assert events[declined + 1] == PlayerEliminated(1, "broke") and after.out[1]
    assert all(move.unit != "MONEY" for event in events for move in LV.settlements(away, event))
    history = LV.audit.history_line(events[declined], "dealer", ("ana", "bruno", "carla", "dani"))
    assert history == "bruno is away, and the bot does not buy La Viuda with their money"
    there, _ = showdown(state)
    assert there[-1] == WidowOffered(1, 1000)


# --- Whiskey Poker: pot ---------------------------------------------------------------------------


def test_cm_20_pot_leaver_passes_its_turns_is_cashed_out_and_dealt_no_more():
    """CM-20, WP-5, WP-6: seat 1 leaves on seat 0's turn. Its turns are passed at once in the same
    command (a pass with the widow face down, a knock once it is up); when the hand ends its chips
    are cashed out at chip_value, and the next hand is dealt and anted without it."""
    _, state = pot_table(FULL_HOUSE_AT_2, options=MONEY)
    events, state = act(WP, state, 1, "leave")
    assert events == [LeftTable(1)] and WP.to_act(state) == (0,)
    events, state = act(WP, state, 0, "pass")
    assert events == [Passed(0), Passed(1)] and WP.to_act(state) == (2,)
    events, state = act(WP, state, 2, "knock")
    assert events[0] == Knocked(2, first=True, phase=1) and WP.to_act(state) == (0,)
    before = state
    events, state = act(WP, state, 0, "knock")
    assert events[:2] == [Knocked(0, first=False, phase=2), Knocked(1, first=False, phase=2)]
    assert PotAwarded(((2, 3),)) in events  # seat 2's full house takes the three antes
    ended = events.index(HandEnded(1, before.server_seed))
    cashed = events[ended + 1]
    assert cashed == PlayerCashedOut(1, 4, 200)
    after_cash = fold(WP, before, events[: ended + 1])
    assert WP.settlements(after_cash, cashed) == [
        Movement(("seat", 1), ("bank",), 4, "CHIP", "cashed out"),
        Movement(("escrow",), ("payout", 1), 800, "MONEY", "cash-out"),
    ]
    antes = next(event for event in events if type(event) is AntesPaid)
    dealt = next(event for event in events if type(event) is HandStarted)
    assert 1 not in antes.seats and 1 not in dealt.order and dealt.hands[1] == ()
    assert state.out[1] and state.chips[1] == 0 and WP.legal_actions(state, 1) == []
    assert WP.played_by_bot(state) == {1}


def test_cm_20_pot_leaver_left_with_no_chips_is_out_as_anyone_who_cannot_ante():
    """CM-20, WP-6: a leaver whose last chip went into the lost pot has nothing to cash out."""
    _, state = pot_table(FULL_HOUSE_AT_2, chips=1)
    _, state = act(WP, state, 1, "leave")
    events = []
    for seat in (0, 2):
        step, state = act(WP, state, seat, "knock")
        events += step
    assert PlayerEliminated(1, "cannot_ante") in events
    assert not any(type(event) is PlayerCashedOut for event in events)
    assert state.finished and state.winners == (2,)


def test_cm_20_pot_leaver_on_its_own_turn_passes_at_once():
    """CM-20: leaving on your own turn passes it in the same command; the next seat is awaited."""
    _, state = pot_table(FULL_HOUSE_AT_2)
    events, state = act(WP, state, 0, "leave")
    assert events == [LeftTable(0), Passed(0)] and WP.to_act(state) == (1,)


def test_cm_20_pot_match_ends_after_the_hand_when_every_person_has_left():
    """CM-20, WP-6: seat 1 holds the table's only person; once they leave, the hand is played out
    and the match ends as the owner's end would, the most chips winning and every chip cashed."""
    _, state = pot_table(FULL_HOUSE_AT_2, options=MONEY)
    people = {"people": [1]}
    events = WP.decide(state, {"type": "leave", "seat": 1}, ctx(2, 3, **people))
    state = fold(WP, state, events)
    for _ in range(30):
        if state.finished:
            break
        (seat,) = WP.to_act(state)
        assert seat != 1  # the leaver's turns are passed, never awaited
        step = WP.decide(state, {**_bots(WP, wp_bot)(state, seat), "seat": seat}, ctx(2, 3, **people))
        state = fold(WP, state, step)
        events += step
    ended = events[-1]
    assert type(ended) is GameEnded and state.finished
    cashed = next(event for event in events if type(event) is PlayerCashedOut)
    assert cashed.seat == 1 and ended.cash_out[1] == 0
    assert sum(ended.cash_out) + cashed.chips == 15  # every chip bought is cashed out once
    assert not any(type(event) is HandStarted for event in events)


def test_cm_20_whiskey_poker_bot_never_chooses_a_presence_action():
    """CM-20: given legal actions that list sit_out and leave, the bot still makes a move."""
    _, state = pot_table(FULL_HOUSE_AT_2)
    for _ in range(20):
        (seat,) = WP.to_act(state)
        legal = WP.legal_actions(state, seat)
        assert PRESENT[0] in legal
        action = wp_bot.choose(WP.view(state, seat), legal, random.Random(seat))
        assert action in legal and action["type"] not in ("sit_out", "sit_in", "leave")
        _, state = act(WP, state, seat, action.pop("type"), **action)
        if state.hand_no > 1:
            break


# --- Whiskey Poker: matches -----------------------------------------------------------------------


def test_cm_20_loser_pays_leaver_is_played_by_the_bot_and_the_result_stays_theirs():
    """CM-20, WP-7: seat 0 (the worst hand, one life) leaves; the bot plays its turns, the hand is
    shown with seat 0's cards, and seat 0 loses the match as it would have had it stayed."""
    _, state = wp_table(FULL_HOUSE_AT_2, scoring="loser_pays", chips=1)
    events, state = act(WP, state, 0, "leave")
    assert events == [LeftTable(0)] and WP.to_act(state) == (0,)  # nothing passed: the bot plays on
    events = []
    for seat in (0, 1, 2):
        step, state = act(WP, state, seat, "knock")
        events += step
    assert any(type(event) is LosersPaid and event.seats == (0,) for event in events)
    assert state.finished and state.losers == (0,) and state.winners == (1, 2)


def test_cm_20_points_leaver_keeps_scoring():
    """CM-20, WP-8: in points scoring the leaver's seat still scores its best hands."""
    _, state = wp_table({0: "8s 8h 8d Ks Kd", 1: "4c 5d 7h 9s Jc", 2: "Ah Kh Qh Jh 9h"}, scoring="points")
    _, state = act(WP, state, 0, "leave")
    for seat in (0, 1, 2):
        _, state = act(WP, state, seat, "knock")
    assert state.points[0] == 1 and WP.played_by_bot(state) == {0}


def test_cm_20_presence_history_lines_name_the_player():
    """CM-20: sitting out, sitting in and leaving read as lines naming the seat's player, in both games."""
    names = ("alice", "bob", "carol", "dave")
    for game in (LV, WP):
        lines = [game.audit.history_line(event, "alice", names) for event in (SatOut(1), SatIn(1), LeftTable(2))]
        assert lines == ["bob sits out; the table's bot plays for them", "bob sits in again", "carol leaves the table"]
        assert all(isinstance(line, Text) for line in lines)
        # Other events keep the game's own lines.
        assert (
            game.audit.history_line(HandEnded(1, ""), "dealer", names)
            == "Hand 1 is over and its server seed is revealed"
        )
    cashed = WP.audit.history_line(PlayerCashedOut(2, 4, 200), "dealer", names)
    assert cashed == "carol is cashed out with 4 chips" and isinstance(cashed, Text)


def _bots(game, bot):
    """Every seat played by the game's bot, from its own view, moves only."""

    def choose(state, seat):
        return bot.choose(game.view(state, seat), game.legal_actions(state, seat), random.Random(state.hand_no))

    return choose
