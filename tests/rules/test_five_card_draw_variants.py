"""Five-Card Draw's variants, formats, refused options, hidden information and chip conservation
(FD-12..FD-19, CM-16, CM-17), pure engine, hand-built decks (tests/rules/draw_decks.py)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from games.engine import fairness
from games.engine.decider import Context
from games.engine.errors import IllegalAction, InvalidOptions
from games.engine.presence import LeftTable
from games.rules.five_card_draw import DECIDER, cards
from games.rules.five_card_draw.events import (
    CardsDealt,
    CardsDrawn,
    FirstDealerDrawn,
    HandEnded,
    HandStarted,
    LeaveRequested,
    PlayerActed,
    PlayerEliminated,
    PlayerLeft,
    PotsAwarded,
    PotShare,
    ShowdownHeld,
    TableEnded,
    TableEndRequested,
    TableStarted,
)
from games.rules.five_card_draw.game import REFUSED
from games.rules.five_card_draw.state import chip_counts
from games.rules.five_card_draw.words import low_description
from tests.rules.draw_decks import every, of, table
from tests.rules.playout_draw import TABLE_ID, hand_seed, new_table, play

# --- FD-13: formats ---------------------------------------------------------------------------


def test_fd_13_cash_buy_ins_come_from_the_context_and_cost_chip_value_each() -> None:
    _, state = new_table(3, {"chip_value": 5, "currency": "EUR"})
    ctx = Context(TABLE_ID, hand_no=1, server_seed=hand_seed("cash", 1), extra={"buy_ins": {"0": 40, 1: 150, 2: 200}})
    started = of(DECIDER.decide(state, {"type": "start"}, ctx), TableStarted)
    assert started.stacks == (40, 150, 200) and started.chip_value == 5
    money = [(m.source, m.amount) for m in DECIDER.settlements(state, started) if m.unit == "MONEY"]
    assert money == [(("wallet", 0), 200), (("wallet", 1), 750), (("wallet", 2), 1000)]


def test_fd_13_cm_20_a_leaver_is_folded_at_their_turn_and_cashed_out_when_the_hand_is_over() -> None:
    """FD-13 with CM-20 (amended: a leaving player used to play the hand to its end): the leaver's
    hand is folded at its next turn, in the command that reaches it, and the stack is cashed out
    when the hand is over."""
    hands = {0: "2c 5d 8h Ts Qc", 1: "Ac Ad 9h Js Kd", 2: "4c 7d 9c Th Kh"}
    options = {"opening": "anything_opens", "chip_value": 2, "currency": "EUR"}
    t = table(3, options, button=2, hands=hands)
    assert t.act(1, "leave") == [LeaveRequested(1), LeftTable(1)]
    assert t.to_act() == 0 and DECIDER.view(t.state, 0)["players"][1]["leaving"]
    with pytest.raises(IllegalAction) as again:
        t.act(1, "leave")
    assert again.value.code == "seat_left"
    bet = t.act(0, "bet", amount=5)
    assert bet[1:] == [PlayerActed(1, "fold", 0, 0, timeout=False)] and t.to_act() == 2
    t.act(2, "fold")
    events = t.log[-6:]
    left = of(events, PlayerLeft)
    assert left == PlayerLeft(1, 100 - 1, 2, "left")
    assert events.index(of(events, PotsAwarded)) < events.index(left) < events.index(of(events, HandStarted))
    assert of(events, HandStarted).players == (2, 0)  # seat 1 is gone
    moves = DECIDER.settlements(t.state, left)
    assert [(m.source, m.destination, m.amount, m.unit) for m in moves] == [
        (("seat", 1), ("bank",), 99, "CHIP"),
        (("escrow",), ("payout", 1), 198, "MONEY"),
    ]
    with pytest.raises(IllegalAction) as refused:
        t.act(1, "leave")
    assert refused.value.code == "cannot_leave"


def test_fd_13_the_owner_ends_a_cash_table_when_the_hand_is_over() -> None:
    t = table(3, {"opening": "anything_opens"}, button=2)
    assert t.command({"type": "end_table"}) == [TableEndRequested()]
    with pytest.raises(IllegalAction, match="already ends"):
        t.command({"type": "end_table"})
    assert not t.state.finished and t.to_act() == 0
    t.act(0, "bet", amount=7)
    events = t.fold_out()
    ended = of(events, TableEnded)
    assert ended.reason == "owner_ended" and ended.cash_out == (102, 99, 99)
    assert not every(events, HandStarted) and t.state.finished and t.state.in_play == 0
    with pytest.raises(IllegalAction) as refused:
        t.act(1, "check")
    assert refused.value.code == "game_over"


def test_fd_13_fd_6_a_table_ended_after_a_passed_hand_gives_its_pot_back() -> None:
    t = table(3, button=2, hands={0: "2c 5d 8h Ts Qc", 1: "3c 6d 9h Js Kd", 2: "4c 7d 9c Th Kh"})
    t.command({"type": "end_table"})
    events = t.check_down()
    assert of(events, PotsAwarded).shares == tuple(
        PotShare(0, seat, 1, "whole", False, "passed_deals") for seat in (0, 1, 2)
    )
    assert of(events, TableEnded).cash_out == (100, 100, 100)


def test_fd_13_a_busted_cash_player_leaves_with_nothing() -> None:
    hands = {0: "Ac Ad 9h Js Kd", 1: "2c 5d 8h Ts Qc", 2: "4c 7d 9c Th Kh"}
    t = table(3, {"opening": "anything_opens", "min_buy_in": 40}, button=2, stacks=[100, 100, 40], hands=hands)
    t.act(0, "bet", amount=10)
    t.act(1, "fold")
    t.act(2, "all_in")
    t.act(0, "call")
    events = t.check_down()
    assert of(events, PlayerLeft) == PlayerLeft(2, 0, 0, "no_chips")
    assert of(events, HandStarted).players == (1, 0)
    assert not t.state.present[2]


def test_fd_13_tournament_eliminations_are_placed_and_the_winner_takes_every_stake() -> None:
    options = {"format": "tournament", "starting_stack": 20, "opening": "anything_opens"}
    t = table(3, options, button=2, hands={0: "Ac Ad 9h Js Kd", 1: "4c 7d 9c Th Kh", 2: "Kc Ks 8h Ts Qc"}, stake=10)
    assert of(t.log, TableStarted).stacks == (20, 20, 20)
    t.act(0, "bet", amount=2)
    t.act(1, "fold")
    t.act(2, "call")
    t.deal_next({0: "Ac Ad As Js Kd", 1: "Kc Ks 8h Ts Qc", 2: "4c 7d 9c Th Kh"})
    t.check_down()
    assert t.state.stacks == (24 - 1, 19 - 1, 17 - 1) and t.state.button == 0
    # CM-20 (amended: leaving a tournament used to be refused): the bot plays the leaver's seat on.
    assert t.act(1, "leave") == [LeftTable(1)] and DECIDER.played_by_bot(t.state) == {1}
    with pytest.raises(IllegalAction, match="one player holds every chip"):
        t.command({"type": "end_table"})
    t.act(1, "all_in")
    t.act(2, "all_in")
    events = t.act(0, "call") + t.check_down()
    # out in the same hand: the one who came into it with fewer chips (seat 2, 17) places lower
    assert every(events, PlayerEliminated) == [PlayerEliminated(2, 3), PlayerEliminated(1, 2)]
    ended = of(events, TableEnded)
    assert (ended.reason, ended.winners, ended.prize, ended.cash_out) == ("one_player_left", (0,), 30, (60, 0, 0))
    payouts = [m for m in DECIDER.settlements(t.state, ended) if m.unit == "MONEY"]
    assert [(m.destination, m.amount) for m in payouts] == [(("payout", 0), 30)]


# --- FD-12: chips conserved after every event, as the ledger sees them ------------------------------


class Ledger:
    """The chip and money accounts the settlements move, checked against chip_counts after every event."""

    def __init__(self, state: Any):
        self.before = state
        self.balances: Counter = Counter()

    def __call__(self, state: Any, event: Any) -> None:
        for move in DECIDER.settlements(self.before, event):
            assert move.amount >= 0
            self.balances[(move.unit, move.source)] -= move.amount
            self.balances[(move.unit, move.destination)] += move.amount
        self.before = state
        counts = chip_counts(state)
        assert sum(counts.values()) == state.in_play
        assert {account: self.balances[("CHIP", account)] for account in counts} == counts
        assert self.balances[("MONEY", ("escrow",))] >= 0


VARIANTS = [
    (3, {}),
    (4, {"betting": "pot_limit", "opening": "anything_opens"}),
    (5, {"betting": "fixed_limit", "forced_bets": "blinds"}),
    (2, {"forced_bets": "blinds"}),
    (6, {"variant": "triple_draw_27"}),
    (8, {"variant": "triple_draw_27", "betting": "fixed_limit"}),
    (4, {"wild": "joker", "shotgun": True}),
    (4, {"wild": "jokers", "ace_rule": "five_with_ace"}),
    (5, {"wild": "deuces", "ace_rule": "four_with_ace"}),
    (7, {"wild": "one_eyed_jacks", "opening": "anything_opens"}),
    (5, {"high_low": True, "betting": "pot_limit"}),
    (4, {"format": "tournament", "starting_stack": 30}),
    (8, {"format": "tournament", "forced_bets": "blinds", "big_blind": 4, "small_blind": 2}),
]


@pytest.mark.parametrize(("seats", "options"), VARIANTS)
def test_fd_12_chips_in_stacks_and_pots_equal_the_ledger_after_every_event(seats: int, options: dict) -> None:
    tournament = options.get("format") == "tournament"
    money = {"stake": 10} if tournament else {}
    cash = {} if tournament else {"chip_value": 3, "currency": "EUR", "min_buy_in": 40}
    for seed in range(3):
        _, state = new_table(seats, {**options, **cash}, **money)
        ledger = Ledger(state)
        buy_ins = None if tournament else [40 + 20 * seat for seat in range(seats)]
        final, _ = play(seats, {**options, **cash}, seed=seed, buy_ins=buy_ins, check=ledger, max_hands=8, **money)
        assert final.finished and final.in_play == 0
        assert ledger.balances[("MONEY", ("escrow",))] == 0  # every coin paid back out (FD-13)
        assert ledger.balances[("CHIP", ("bank",))] == 0


# --- FD-14, CM-16: deuce-to-seven triple draw ------------------------------------------------------


def low27(text: str) -> int:
    return cards.low_value(text.split(), ace_to_five=False)


def test_cm_16_deuce_to_seven_aces_high_straights_and_flushes_count_against() -> None:
    best_first = [
        "7c 5d 4h 3s 2c",
        "7c 6d 4h 3s 2c",
        "8c 5d 4h 3s 2d",
        "Kc Qd Jh 9s 8c",
        "Ac 5d 4h 3s 2c",  # ace high: A-2-3-4-5 is no straight
        "2c 2d 5h 7s 9c",
        "8c 7d 6h 5s 4c",  # a straight
        "7h 5h 4h 3h 2h",  # a flush, worse still
    ]
    values = [low27(hand) for hand in best_first]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    assert cards.low_category("Ac 5d 4h 3s 2c".split(), ace_to_five=False) == "high_card"
    assert low_description(low27("Ac 5d 4h 3s 2c"), ace_to_five=False) == "A-5-4-3-2 low"
    assert low_description(low27("7c 5d 4h 3s 2c"), ace_to_five=False) == "7-5-4-3-2 low"
    assert cards.low_category("6c 5d 4h 3s 2c".split(), ace_to_five=False) == "straight"


def test_fd_14_cm_16_triple_draw_three_draws_of_up_to_five_four_rounds_lowest_hand_wins() -> None:
    config = DECIDER.configure(3, {"variant": "triple_draw_27"})
    assert (config["forced_bets"], config["opening"]) == ("blinds", "anything_opens")
    hands = {0: "Ah 2h 3h 4d 5s", 1: "8c 6d 4c 3d 2d", 2: "9c 9d 9h 5c 5h"}
    t = table(3, {"variant": "triple_draw_27"}, button=0, hands=hands, stock="Kc Kd Kh Ks Qc")
    streets, draws = set(), []
    while t.state.hand_no == 1:
        hand = t.state.hand
        seat = t.to_act()
        if hand.phase == "drawing":
            assert t.legal(seat) == [{"type": "draw", "min": 0, "max": 5}]
            discard = list(hand.cards[2]) if seat == 2 and hand.draw == 1 else []
            drawn = of(t.act(seat, "draw", discard=discard), CardsDrawn)
            draws.append((drawn.draw, drawn.count))
            continue
        streets.add(hand.street)
        t.act(seat, "call" if "call" in [o["type"] for o in t.legal()] else "check")
    assert sorted(streets) == [0, 1, 2, 3]
    assert [draw for draw, _ in draws] == [1] * 3 + [2] * 3 + [3] * 3 and (1, 5) in draws
    shown = of(t.log, ShowdownHeld).hands
    assert [hand.seat for hand in shown] == [1, 2, 0]  # from the dealer's left
    assert shown[1].cards == ("Kc", "Kd", "Kh", "Ks", "Qc")  # seat 2 drew five
    described = [low_description(hand.low or 0, ace_to_five=False) for hand in (shown[0], shown[2])]
    assert described == ["8-6-4-3-2 low", "A-5-4-3-2 low"]
    # the 8 low beats A-5-4-3-2, ace high and no straight (CM-16)
    assert of(t.log, PotsAwarded).shares == (PotShare(0, 1, 6, "whole", True),)


# --- FD-15: wild cards ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wild", "jokers"),
    [("none", []), ("joker", ["X1"]), ("jokers", ["X1", "X2"]), ("deuces", []), ("one_eyed_jacks", [])],
)
def test_fd_15_jokers_are_in_the_deck_only_when_wild(wild: str, jokers: list[str]) -> None:
    t = table(4, {"wild": wild})
    deal = of(t.log, CardsDealt)
    dealt = [card for held in deal.hands for card in held] + list(deal.stock)
    assert len(dealt) == 52 + len(jokers) == len(set(dealt))
    assert sorted(card for card in dealt if card.startswith("X")) == jokers


def test_fd_15_five_of_a_kind_beats_a_royal_flush_with_a_joker() -> None:
    hands = {0: "X1 9c 9d 9h 9s", 1: "Th Jh Qh Kh Ah", 2: "2c 3d 5h 7s 8c"}
    t = table(3, {"wild": "joker", "opening": "anything_opens"}, button=2, hands=hands)
    events = t.check_down()
    shown = {hand.seat: hand.category for hand in of(events, ShowdownHeld).hands}
    assert shown == {0: "five_of_a_kind", 1: "royal_flush", 2: "high_card"}
    assert of(events, PotsAwarded).shares == (PotShare(0, 0, 3, "whole", True),)


@pytest.mark.parametrize(("wild", "winner"), [("one_eyed_jacks", 0), ("none", 1)])
def test_fd_15_one_eyed_jacks_are_the_jack_of_spades_and_of_hearts(wild: str, winner: int) -> None:
    hands = {0: "Js Jh 9c 9d 2h", 1: "Jc Jd 8c 8d 8h", 2: "2c 3d 5h 7s Kc"}
    t = table(3, {"wild": wild, "opening": "anything_opens"}, button=2, hands=hands)
    events = t.check_down()
    categories = {hand.seat: hand.category for hand in of(events, ShowdownHeld).hands}
    expected = {"one_eyed_jacks": ("four_of_a_kind", "full_house"), "none": ("two_pair", "full_house")}[wild]
    assert (categories[0], categories[1]) == expected
    assert [share.seat for share in of(events, PotsAwarded).shares] == [winner]


# --- FD-16: shotgun -------------------------------------------------------------------------------


def test_fd_16_shotgun_first_card_dealt_is_face_up_to_everyone_before_the_betting() -> None:
    t = table(3, {"shotgun": True, "opening": "anything_opens"}, button=2)
    deck = fairness.shuffled(list(cards.pack("none")), hand_seed(t.tag, 1), TABLE_ID, 1, "", "deck")
    deal = of(t.log, CardsDealt)
    assert deal.face_up == ((deck[0],), (deck[1],), (deck[2],))  # dealt from the dealer's left: 0, 1, 2
    for seat in (0, 1, 2, None):
        assert [list(up) for up in DECIDER.view_event(deal, seat)["face_up"]] == [[card] for card in deck[:3]]
        assert [player["face_up"] for player in DECIDER.view(t.state, seat)["players"]] == [[c] for c in deck[:3]]


# --- FD-17, CM-17: high-low ---------------------------------------------------------------------------


def low_a5(text: str) -> int:
    return cards.low_value(text.split(), ace_to_five=True)


def test_cm_17_ace_to_five_aces_low_straights_and_flushes_ignored_pairs_count() -> None:
    best_first = [
        "5h 4h 3h 2h Ah",  # the wheel, suited: still the best low
        "6c 4d 3h 2s Ac",
        "6c 5d 3h 2s Ac",
        "7c 4d 3h 2s Ac",
        "Kc Qd Jh 9s 8c",
        "Ac Ad 2c 3d 4h",
        "2c 2d 3h 3s 4c",
    ]
    values = [low_a5(hand) for hand in best_first]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    assert cards.low_category("5h 4h 3h 2h Ah".split(), ace_to_five=True) == "high_card"
    assert low_description(low_a5("5h 4h 3h 2h Ah"), ace_to_five=True) == "5-4-3-2-A low"
    assert low_a5("Ac 2d 3h 4s 6c") > low_a5("2c 3d 4h 5s 7c")


@pytest.mark.parametrize(
    ("hands", "shares"),
    [
        (
            {0: "Ac 2d 3h 4s 5c", 1: "Kc Kd 9h 8s 7c", 2: "Qc Jd 9s 8h 6d"},
            (PotShare(0, 0, 2, "high", True), PotShare(0, 0, 1, "low", True)),
        ),
        (
            {0: "Kc Kd Kh 8s 7c", 1: "Ac 2d 3h 4s 6c", 2: "Qc Jd 9s 8h 7d"},
            (PotShare(0, 0, 2, "high", True), PotShare(0, 1, 1, "low", True)),
        ),
    ],
)
def test_fd_17_cm_17_high_low_halves_odd_chip_high_one_player_may_take_both(hands: dict, shares: tuple) -> None:
    t = table(3, {"high_low": True, "opening": "anything_opens"}, button=2, hands=hands)
    events = t.check_down()
    assert of(events, PotsAwarded).shares == shares
    shown = of(events, ShowdownHeld).hands
    assert all(hand.low is not None and hand.high is not None for hand in shown)


# --- FD-18: refused combinations -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"variant": "triple_draw_27", "high_low": True}, ["Deuce-to-seven triple draw", "high-low"]),
        ({"forced_bets": "blinds", "opening": "jacks_or_better"}, ["Jacks or better", "blinds"]),
        ({"variant": "triple_draw_27", "wild": "deuces"}, ["Deuces", "Deuce-to-seven triple draw"]),
        ({"high_low": True, "wild": "joker"}, ["One joker", "High-low"]),
        ({"variant": "triple_draw_27", "ace_rule": "four_with_ace"}, ["Four cards with an ace", "triple draw"]),
        ({"variant": "triple_draw_27", "ace_rule": "five_with_ace"}, ["Five cards with an ace", "triple draw"]),
        (
            {"variant": "triple_draw_27", "forced_bets": "ante", "opening": "jacks_or_better"},
            ["Jacks or better", "deuce-to-seven triple draw"],
        ),
        ({"min_buy_in": 300, "max_buy_in": 200}, ["minimum buy-in (300)", "maximum buy-in (200)"]),
        ({"forced_bets": "blinds", "big_blind": 50, "min_buy_in": 40}, ["minimum buy-in (40)", "forced bet (50)"]),
        ({"small_blind": 5, "big_blind": 2, "forced_bets": "blinds"}, ["small blind (5)", "big blind (2)"]),
        ({"format": "tournament", "chip_value": 2, "currency": "EUR"}, ["tournament", "value per chip"]),
        ({"format": "tournament", "max_buy_in": 100}, ["minimum and maximum buy-in", "tournament"]),
        ({"starting_stack": 100}, ["Starting chips", "tournaments"]),
        ({"chip_value": 2}, ["value per chip", "currency"]),
    ],
)
def test_fd_18_refused_combinations_name_the_conflict(options: dict, named: list[str]) -> None:
    """The refusal names the options in players' words, never by their codes."""
    with pytest.raises(InvalidOptions) as refused:
        DECIDER.configure(3, options)
    for word in named:
        assert word in str(refused.value)
    codes = {*options, *(value for value in options.values() if isinstance(value, str))}
    for code in (code for code in codes if "_" in code):
        assert code not in str(refused.value)


def test_fd_18_the_games_listing_names_every_refused_combination() -> None:
    assert DECIDER.refused_combinations == REFUSED
    listed = " | ".join(REFUSED)
    for pair in [
        ("Deuce-to-seven triple draw", "high-low"),
        ("Jacks or better", "blinds"),
        ("Wild cards", "triple draw", "high-low"),
        ("ace rule", "triple draw"),
        ("minimum buy-in", "maximum buy-in"),
        ("Jacks or better", "triple draw", "no opening requirement"),
    ]:
        assert any(all(word in line for word in pair) for line in REFUSED), (pair, listed)


# --- FD-19: hidden information ------------------------------------------------------------------------


def strings(value: Any) -> set[str]:
    """Every string anywhere in a JSON-like value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(item) for item in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(strings(item) for item in value)) if value else set()
    return set()


class Secrets:
    """What each viewer may know of the hand under way, from the secret data of the events (FD-19):
    their own cards, face-up cards, shown aces and hands shown at a showdown."""

    def __init__(self, seats: int):
        self.viewers: list[int | None] = [*range(seats), None]
        self.deck = set(cards.pack("jokers"))
        self.known: dict[int | None, set[str]] = {viewer: set() for viewer in self.viewers}

    def learn(self, event: Any) -> None:
        if isinstance(event, HandStarted):
            self.known = {viewer: set() for viewer in self.viewers}
        everyone: set[str] = set()
        if isinstance(event, CardsDealt):
            everyone = {card for up in event.face_up for card in up}
            for seat, held in enumerate(event.hands):
                self.known[seat] |= set(held)
        if isinstance(event, CardsDrawn):
            self.known[event.seat] |= set(event.received)
            everyone = {event.shown_ace} - {None}
        if isinstance(event, ShowdownHeld):
            everyone = {card for hand in event.hands for card in hand.cards}
        for viewer in self.viewers:
            self.known[viewer] |= everyone

    def check(self, state: Any, event: Any) -> None:
        if isinstance(event, FirstDealerDrawn):
            return  # CM-19's cards come from their own shuffle and are public
        self.learn(event)
        for viewer in self.viewers:
            hidden = self.deck - self.known[viewer]
            assert not strings(DECIDER.view_event(event, viewer)) & hidden, (viewer, event)
            seen = DECIDER.view(state, viewer)
            last = seen.pop("last_hand")
            assert not strings(seen) & hidden, (viewer, event)
            shown = {card for hand in (last or {}).get("showdown", []) for card in hand["cards"]}
            if state.last_hand is not None:
                assert shown == {card for hand in state.last_hand.showdown for card in hand.cards}


@pytest.mark.parametrize(
    ("seats", "options"),
    [
        (4, {"shotgun": True, "ace_rule": "five_with_ace"}),
        (3, {"ace_rule": "four_with_ace", "opening": "anything_opens"}),
        (6, {"variant": "triple_draw_27"}),
        (8, {"wild": "jokers", "shotgun": True}),
    ],
)
def test_fd_19_fd_16_views_show_own_cards_face_up_and_shown_hands_only(seats: int, options: dict) -> None:
    for seed in range(2):
        play(seats, options, seed=seed, check=Secrets(seats).check, max_hands=4)


def test_fd_19_folded_hand_unshown_winner_discards_and_stock_stay_hidden_draw_counts_public() -> None:
    hands = {0: "Ac Ad 9h Js Kd", 1: "2c 5d 8h Ts Qc", 2: "4c 7d 9c Th Kh"}
    t = table(3, {"opening": "anything_opens"}, button=2, hands=hands, stock="3c 3d 3h")
    deal = of(t.log, CardsDealt)
    assert DECIDER.view_event(deal, 1)["your_cards"] == list(hands[1].split())
    assert "hands" not in DECIDER.view_event(deal, 1) and "stock" not in DECIDER.view_event(deal, None)
    assert "server_seed" not in DECIDER.view_event(of(t.log, HandStarted), 0)
    t.act(0, "bet", amount=3)
    t.act(1, "call")
    t.act(2, "fold")
    drawn = of(t.act(0, "draw", discard=["9h", "Js", "Kd"]), CardsDrawn)
    assert DECIDER.view_event(drawn, 0)["discarded"] == ["9h", "Js", "Kd"]
    for viewer in (1, 2, None):
        public = DECIDER.view_event(drawn, viewer)
        assert (public["count"], "discarded" in public, "received" in public) == (3, False, False)
        seen = DECIDER.view(t.state, viewer)
        assert seen["players"][0]["drew"] == [3] and seen["hand"]["stock"] == 37 - 3
        assert not strings(seen) & {"9h", "Js", "Kd", "3c", "3d", "3h", *hands[2].split()} - set(
            hands.get(viewer, "").split()
        )
    t.act(1, "draw", discard=[])
    t.act(0, "bet", amount=5)
    events = t.act(1, "fold")  # seat 0 wins without a showdown
    assert not every(events, ShowdownHeld)
    events = events[: events.index(of(events, HandEnded)) + 1]  # the next hand deals these cards again
    for viewer in (1, 2, None):
        last = DECIDER.view(t.state, viewer)["last_hand"]
        seen = strings(last) | strings([DECIDER.view_event(e, viewer) for e in events])
        assert not seen & {"Ac", "Ad", "3c", "3d", "3h", *hands[2].split()}


def test_cm_11_fd_15_a_shown_hand_keeps_its_category_code_and_is_described_in_words() -> None:
    """CM-11, CM-14, FD-15: the hands shown at a showdown keep ``category`` as the machine code and
    add ``category_name`` in words; the description is a sentence saying what the wild card held
    stands for."""
    hands = {0: "2c Ad Ah 9s 5d", 1: "Kc Kd 7h 8s 4c"}
    t = table(2, {"opening": "anything_opens", "wild": "deuces"}, button=1, hands=hands, stock="3c 3d 3h")
    for seat in (0, 1):
        t.act(seat, "check")
    for seat in (0, 1):
        t.act(seat, "draw", discard=[])
    for seat in (0, 1):
        t.act(seat, "check")
    shown = {entry["seat"]: entry for entry in DECIDER.view(t.state, None)["last_hand"]["showdown"]}
    assert shown[0]["category"] == "three_of_a_kind" and shown[0]["category_name"] == "three of a kind"
    assert (
        shown[0]["description"]
        == "three of a kind, aces, kickers nine, five: the two of clubs stands for the ace of spades"
    )
    assert shown[1]["category"] == "pair" and shown[1]["category_name"].msgid == "pair"
    assert "wild" not in shown[1]["description"]
