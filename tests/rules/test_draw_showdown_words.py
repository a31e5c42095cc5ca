"""Wild cards named in every showdown description (CM-14, FD-15): the table's view, the events
feed's ``ShowdownHeld``, the hand history and the audit say the same words, what each wild card
stands for, made by one function (``words.high_description``)."""

from __future__ import annotations

import dataclasses

from games.rules.five_card_draw import DECIDER
from games.rules.five_card_draw.audit import FiveCardDrawAudit
from games.rules.five_card_draw.events import ShowdownHeld
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
    assert f"ann shows Ac 9s 6s X1 7h, {JOKER_PAIR}" in history
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
