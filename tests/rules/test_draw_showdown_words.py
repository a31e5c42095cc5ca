"""Wild cards named in every showdown description (CM-14, FD-15): the table's view, the events
feed's ``ShowdownHeld``, the hand history and the audit say the same words, what each wild card
stands for, made by one function (``words.high_description``)."""

from __future__ import annotations

import dataclasses

from games.rules.five_card_draw import DECIDER
from games.rules.five_card_draw.audit import FiveCardDrawAudit
from games.rules.five_card_draw.events import PotsAwarded, ShowdownHeld
from tests.rules.draw_decks import of, table

JOKER_PAIR = "pair of aces, kickers nine, seven, six: the joker stands for the ace of spades"


def joker_showdown():
    hands = {0: "Ac 9s 6s X1 7h", 1: "Kc Kd 8h 4s 3c"}
    t = table(2, {"opening": "anything_opens", "wild": "joker"}, button=1, hands=hands)
    return t, t.check_down()


def test_fd_15_cm_14_the_events_feed_names_what_the_joker_stands_for() -> None:
    _, events = joker_showdown()
    held = of(events, ShowdownHeld)
    assert held.wild == "joker"
    for seat in (0, 1, None):
        shown = {entry["seat"]: entry for entry in DECIDER.view_event(held, seat)["hands"]}
        assert shown[0]["description"] == JOKER_PAIR
        assert "stands for" not in shown[1]["description"]


def test_fd_15_cm_14_history_audit_and_view_say_the_same_words_for_a_wild_card() -> None:
    t, events = joker_showdown()
    held = of(events, ShowdownHeld)
    history = str(FiveCardDrawAudit().history_line(held, "system", ["ann", "bob"]))
    cards = "the ace of clubs, the nine of spades, the six of spades, the joker and the seven of hearts"
    assert f"ann shows {cards}, {JOKER_PAIR}" in history
    config = DECIDER.configure(2, {"opening": "anything_opens", "wild": "joker"})
    hand = t.log[[type(e).__name__ for e in t.log].index("HandStarted") :]
    audited = {entry["seat"]: entry for entry in FiveCardDrawAudit().showdown(config, hand)}
    assert str(audited[0]["description"]).startswith(JOKER_PAIR + ";")
    view = {entry["seat"]: entry for entry in DECIDER.view(t.state, None)["last_hand"]["showdown"]}
    assert view[0]["description"] == JOKER_PAIR


def test_fd_15_an_older_showdown_record_without_its_wild_option_still_names_a_joker() -> None:
    _, events = joker_showdown()
    older = dataclasses.replace(of(events, ShowdownHeld), wild="")
    shown = {entry["seat"]: entry for entry in DECIDER.view_event(older, None)["hands"]}
    assert shown[0]["description"] == JOKER_PAIR


def test_fd_11_an_uncalled_bet_returned_is_named_so_in_events_audit_and_history() -> None:
    """FD-11: the top side pot made of nothing but seat 4's own uncalled raise comes back to it; the
    share says ``returned`` (not a pot won), the audit's outcome for seat 4, which took no pot
    another hand could win, is ``returned`` (not ``loses`` beside a positive ``won``), and the
    history says the bet came back."""
    hands = {0: "2c 3d 5h 8s 9c", 1: "Ac Ad As Kc Kd", 2: "Qc Qd Qs 4c 4d", 3: "Jc Jd Js 3s 3h", 4: "2d 3c 4h 6s 8d"}
    t = table(5, {"opening": "anything_opens", "min_buy_in": 10}, button=4, stacks=[100, 10, 30, 60, 100], hands=hands)
    t.act(0, "bet", amount=5)
    for seat in (1, 2, 3):
        t.act(seat, "all_in")
    t.act(4, "raise", amount=90)
    t.act(0, "fold")
    for seat in (1, 2, 3, 4):
        t.act(seat, "draw", discard=[])
    awarded = of(t.log, PotsAwarded)
    assert [share.returned for share in awarded.shares] == ["", "", "", "uncalled_bet"]
    config = DECIDER.configure(5, {"opening": "anything_opens", "min_buy_in": 10})
    hand = t.log[[type(e).__name__ for e in t.log].index("HandStarted") :]
    audited = {entry["seat"]: entry for entry in FiveCardDrawAudit().showdown(config, hand)}
    assert (audited[4]["outcome"], audited[4]["won"]) == ("returned", 31)
    assert audited[4]["pots"] == [
        {"pot": 3, "name": "side pot 3", "half": "whole", "chips": 31, "uncontested": True, "returned": True}
    ]
    assert "an uncalled bet returned" in str(audited[4]["description"])
    assert [audited[seat]["outcome"] for seat in (1, 2, 3)] == ["wins", "wins", "wins"]
    names = ["ann", "bob", "cy", "di", "eve"]
    line = str(FiveCardDrawAudit().history_line(awarded, "system", names))
    assert "eve gets back an uncalled bet of 31 chips (side pot 3)" in line and "bob wins the main pot" in line
    shares = DECIDER.view(t.state, None)["last_hand"]["shares"]
    assert [share["returned"] for share in shares] == ["", "", "", "uncalled_bet"]


def test_fd_11_a_lone_top_pot_holding_a_folded_players_chips_is_won_not_returned() -> None:
    """FD-11: seat 2's top pot holds chips seat 0 put in before folding: seat 2 wins them, so the
    share is not an uncalled bet returned."""
    hands = {0: "2c 3d 5h 8s 9c", 1: "Ac Ad As Kc Kd", 2: "Qc Qd Qs 4c 4d"}
    t = table(3, {"opening": "anything_opens", "min_buy_in": 6}, button=2, stacks=[100, 6, 100], hands=hands)
    t.act(0, "bet", amount=20)
    t.act(1, "all_in")
    t.act(2, "raise", amount=60)
    t.act(0, "fold")
    for seat in (1, 2):
        t.act(seat, "draw", discard=[])
    awarded = of(t.log, PotsAwarded)
    assert awarded.pots == ((18, (1, 2)), (70, (2,)))
    assert [(share.seat, share.chips, share.returned) for share in awarded.shares] == [(1, 18, ""), (2, 70, "")]
