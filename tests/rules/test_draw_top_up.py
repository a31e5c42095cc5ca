"""FD-13's top-up (with FD-2): a cash player holding no cards in the hand under way buys more chips,
the stack staying at most ``max_buy_in`` and the wallet paying; a player who cannot post the forced
bet is told so and offered the top-up and leaving. Pure engine, hand-built tables
(tests/rules/draw_decks.py), which check FD-12 after every event."""

from __future__ import annotations

from typing import Any

import pytest
from pokerkit.notation import HandHistory

from games.engine import fairness
from games.engine.errors import IllegalAction
from games.engine.words import english
from games.rules.five_card_draw import DECIDER
from games.rules.five_card_draw.cards import pack
from games.rules.five_card_draw.events import ChipsToppedUp, ForcedBetsPosted, HandStarted
from tests.rules.draw_decks import Table, every, of, table
from tests.rules.playout_draw import TABLE_ID, hand_seed
from tests.rules.test_draw_audit import split_hands

BLINDS = {"forced_bets": "blinds", "min_buy_in": 2, "max_buy_in": 200, "chip_value": 5, "currency": "EUR"}
ANTES = {"ante_amount": 5, "min_buy_in": 5, "max_buy_in": 150, "opening": "anything_opens"}


def kinds(legal: list[dict[str, Any]]) -> list[str]:
    return [option["type"] for option in legal]


def top_up_of(t: Table, seat: int) -> dict[str, Any] | None:
    return next((o for o in DECIDER.legal_actions(t.state, seat) if o["type"] == "top_up"), None)


def refusal(t: Table, seat: int, **fields: Any) -> IllegalAction:
    with pytest.raises(IllegalAction) as refused:
        t.act(seat, "top_up", **fields)
    return refused.value


def short_at_blinds() -> Table:
    """Seat 2 buys 2 chips, posts the small blind of hand 1 and loses it: 1 chip, short of the big blind."""
    t = table(4, BLINDS, button=1, stacks=[100, 100, 2, 100])
    assert of(t.log, ForcedBetsPosted).posts == ((2, 1), (3, 2))
    t.fold_out()
    assert t.state.stacks[2] == 1 and 2 not in t.state.hand.players
    return t


def test_fd_13_fd_2_a_player_short_of_the_big_blind_is_told_so_and_offered_the_top_up_and_leaving() -> None:
    t = short_at_blinds()
    mine = DECIDER.view(t.state, 2)
    assert mine["cannot_post"] is True and mine["players"][2]["cannot_post"] is True
    notice = english(mine["notice"])
    assert "fewer than the forced bet of 2" in notice and "top up" in notice and "leave" in notice
    # Everyone sees who sits out for want of chips; only the player reads the notice.
    for seat in (0, None):
        seen = DECIDER.view(t.state, seat)
        assert seen["players"][2]["cannot_post"] is True and not seen["cannot_post"] and seen["notice"] is None
    assert [p["cannot_post"] for p in DECIDER.view(t.state, None)["players"]] == [False, False, True, False]
    legal = DECIDER.legal_actions(t.state, 2)
    assert {"type": "top_up", "min": 1, "max": 199} in legal and "leave" in kinds(legal)


def test_fd_13_a_top_up_is_paid_as_a_buy_in_and_deals_the_player_in_again() -> None:
    t = short_at_blinds()
    before = t.state.in_play
    assert t.act(2, "top_up", chips=49) == [ChipsToppedUp(2, 49, 5)]
    assert t.state.stacks[2] == 50 and t.state.in_play == before + 49
    moves = [(m.source, m.destination, m.amount, m.unit) for m in DECIDER.settlements(t.state, ChipsToppedUp(2, 49, 5))]
    assert moves == [(("wallet", 2), ("escrow",), 245, "MONEY"), (("bank",), ("seat", 2), 49, "CHIP")]
    seen = DECIDER.view(t.state, 2)
    assert not seen["cannot_post"] and seen["notice"] is None and seen["players"][2]["stack"] == 50
    events = t.fold_out()
    assert 2 in of(events, HandStarted).players


def test_fd_13_the_stack_stays_at_most_max_buy_in() -> None:
    t = short_at_blinds()
    over = refusal(t, 2, chips=200)
    assert over.code == "above_max_buy_in" and "above the table's most of 200" in english(over.message)
    assert {"type": "top_up", "min": 1, "max": 199} in over.legal
    for chips in (0, -3, "10", True, None):
        assert refusal(t, 2, chips=chips).code == "no_top_up"
    t.act(2, "top_up", chips=199)
    assert t.state.stacks[2] == 200 and top_up_of(t, 2) is None
    assert refusal(t, 2, chips=1).code == "above_max_buy_in"


def test_fd_13_the_wallet_must_pay_for_the_chips() -> None:
    t = short_at_blinds()
    t.wallet_chips = {2: 30}
    short = refusal(t, 2, chips=31)
    assert short.code == "insufficient_funds" and "pays for 30 chips at most, not 31" in english(short.message)
    assert {"type": "top_up", "min": 1, "max": 30} in short.legal  # the wallet narrows the range
    assert t.act(2, "top_up", chips=30) == [ChipsToppedUp(2, 30, 5)]
    t.wallet_chips = {2: 0}
    assert refusal(t, 2, chips=1).code == "insufficient_funds"


def test_fd_13_no_top_up_while_holding_cards_but_a_folded_player_may() -> None:
    t = table(3, {**ANTES, "max_buy_in": 200}, button=2)
    seat = t.to_act()
    assert top_up_of(t, seat) is None
    assert refusal(t, seat, chips=10).code == "no_top_up"
    t.act(seat, "fold")
    assert top_up_of(t, seat) == {"type": "top_up", "min": 1, "max": 105}
    t.act(seat, "top_up", chips=5)
    events = t.fold_out()
    assert of(events, HandStarted).stacks[seat] == 100


def test_fd_13_fd_2_antes_a_player_short_of_the_ante_sits_out_until_the_top_up() -> None:
    t = table(3, ANTES, button=1, stacks=[100, 100, 7])
    assert of(t.log, HandStarted).players == (2, 0, 1)
    t.fold_out()  # seat 2 folds first and loses its ante
    assert t.state.stacks[2] == 2 and set(t.state.hand.players) == {0, 1}
    seen = DECIDER.view(t.state, 2)
    assert seen["cannot_post"] and "forced bet of 5" in english(seen["notice"])
    assert {"type": "top_up", "min": 1, "max": 148} in DECIDER.legal_actions(t.state, 2)
    t.act(2, "top_up", chips=48)
    assert not DECIDER.view(t.state, 2)["cannot_post"]
    assert 2 in of(t.fold_out(), HandStarted).players


def test_fd_13_a_leaving_player_cannot_top_up() -> None:
    t = short_at_blinds()
    t.act(2, "leave")
    assert top_up_of(t, 2) is None
    assert refusal(t, 2, chips=10).code in ("no_top_up", "cannot_leave")


def test_fd_13_a_tournament_has_no_top_up() -> None:
    t = table(3, {"format": "tournament", "starting_stack": 30, "opening": "anything_opens"}, button=2, stake=10)
    t.act(t.to_act(), "fold")
    assert all(top_up_of(t, seat) is None for seat in range(3))
    assert not any(DECIDER.view(t.state, seat)["cannot_post"] for seat in range(3))
    assert refusal(t, 0, chips=5).code == "no_top_up"
    assert not every(t.log, ChipsToppedUp)


def test_fd_13_a_top_up_has_its_line_in_the_hand_history() -> None:
    line = DECIDER.audit.history_line(ChipsToppedUp(1, 40, 5), "alice", ["alice", "bob", "carol"])
    assert english(line) == "bob tops up, buying 40 chips more."


def test_fd_13_cm_10_a_hand_with_a_top_up_in_it_audits_clean() -> None:
    """A folded player's top-up is one of the hand's events: the deal, the outcome, the history and
    the PHH export of that hand read it without a difference (the deal is the seed's own)."""
    options = {"variant": "triple_draw_27", "betting": "fixed_limit", "max_buy_in": 200}
    t = table(3, options, button=0)
    folded = t.to_act()
    t.act(folded, "fold")
    t.act(folded, "top_up", chips=20)
    t.check_down()
    config = DECIDER.configure(3, options)
    hand = split_hands(config, t.log)[0][1]
    assert any(isinstance(event, ChipsToppedUp) for event in hand)
    deck = fairness.shuffled(pack(config["wild"]), hand_seed(t.tag, 1), TABLE_ID, 1, "", "deck")
    streams = fairness.streams(hand_seed(t.tag, 1), TABLE_ID, 1, "")
    audit = DECIDER.audit
    assert audit.audit_deal(config, deck, hand) == []
    assert audit.audit_outcome(config, hand, streams) == []
    assert all(audit.history_line(event, "alice", ["alice", "bob", "carol"]) for event in hand)
    exported = audit.phh(config, hand, ["alice", "bob", "carol"])
    assert exported and HandHistory.loads(exported)
