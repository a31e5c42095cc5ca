"""Guerra Chevichona (GC-1..GC-13): given events (a hand-built deck), when commands, then events."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import re
from collections import Counter
from typing import Any

import msgspec
import pytest

from games.engine import fairness
from games.engine.codec import decode_event, decode_state, encode_event, encode_state
from games.engine.decider import Context, event_types_by_name, replay
from games.engine.errors import IllegalAction, InvalidOptions
from games.engine.presence import LeftTable, SatIn, SatOut, is_presence_action
from games.engine.words import Text
from games.engine.words import english as in_english
from games.rules.guerra import DECIDER
from games.rules.guerra.cards import DECKS, VALUE, canonical, deal, match_deck
from games.rules.guerra.events import (
    AmbushMade,
    BattleCardsLaid,
    BattleGrew,
    BattleWon,
    CardsThrown,
    ExtraCardThrown,
    MatchEnded,
    MatchStarted,
    PileShuffled,
    PlayerOut,
    RoundTaken,
    SkirmishPlayed,
    StalemateDrawn,
    ThrowSent,
)
from games.rules.guerra.settlements import split
from games.rules.guerra.state import Play, State

SEED = bytes(range(32))
# CM-20: what a player still in may always send about their presence.
PRESENT = [{"type": "sit_out"}, {"type": "leave"}]
TABLE = "00000000-0000-0000-0000-000000000006"
CTX = Context(table_id=TABLE, hand_no=1, server_seed=SEED, client_seed="", next_commitment="c2")


# --- helpers ------------------------------------------------------------------------------------


def stack(piles: list[list[str]]) -> list[str]:
    """The deck that deals ``piles`` (GC-2: one card at a time from seat 0)."""
    deck: list[str] = []
    for j in range(max(len(pile) for pile in piles)):
        deck.extend(pile[j] for pile in piles if j < len(pile))
    return deck


def given(*piles: str, **options: Any) -> State:
    """A match dealt from a hand-built deck. ``piles`` are space-separated codes, top first.

    Piles the deal cannot make (sizes more than one apart, as late in a match) are set directly;
    ``size`` and ``ambushes`` likewise stand for rounds played before.
    """
    size = options.pop("size", 2)
    ambushes = options.pop("ambushes", 0)
    stake = options.pop("stake", 0)
    lists = [pile.split() for pile in piles]
    config = {**DECIDER.configure(len(lists), options), "stake": stake}
    cards = stack(lists)
    started = MatchStarted(
        hand_no=1,
        table_id=TABLE,
        commitment=fairness.commitment(SEED),
        next_commitment="c2",
        client_seed="",
        seats=len(lists),
        deck=config["deck"],
        jokers=config["jokers"],
        pile_sizes=tuple(len(pile) for pile in lists),
        server_seed=SEED.hex(),
        cards=tuple(cards),
    )
    state = DECIDER.evolve(DECIDER.initial_state(config), started)
    piles_now = tuple(tuple(pile) for pile in lists)
    if state.piles != piles_now:
        state = dataclasses.replace(state, piles=piles_now)
    return dataclasses.replace(state, size=size, ambushes=ambushes)


def act(state: State, command: dict[str, Any]) -> tuple[list[Any], State]:
    events = DECIDER.decide(state, command, CTX)
    for event in events:
        state = DECIDER.evolve(state, event)
    return events, state


def throw_all(state: State) -> tuple[list[Any], State]:
    """Every awaited player throws; the round plays when the last one does."""
    events: list[Any] = []
    for seat in DECIDER.to_act(state):
        new, state = act(state, {"type": "throw", "seat": seat})
        events += new
    return events, state


def of(events: list[Any], kind: type) -> list[Any]:
    return [event for event in events if isinstance(event, kind)]


def pile(state: State, seat: int) -> list[str]:
    return list(state.piles[seat])


# --- GC-1: decks and jokers ----------------------------------------------------------------------


def test_gc_1_decks_in_canonical_order():
    english = match_deck("english", False)
    assert len(english) == 52 and english[:5] == ("2c", "2d", "2h", "2s", "3c") and english[-1] == "As"
    spanish_48 = match_deck("spanish_48", False)
    assert len(spanish_48) == 48 and spanish_48[:5] == ("1o", "1c", "1e", "1b", "2o") and spanish_48[-1] == "12b"
    spanish_40 = match_deck("spanish_40", False)
    assert len(spanish_40) == 40 and not {"8o", "9b"} & set(spanish_40)
    assert spanish_40[27:29] == ("7b", "10o")
    for name in DECKS:
        with_jokers = match_deck(name, True)
        assert with_jokers[-2:] == ("X1", "X2") and with_jokers[:-2] == match_deck(name, False)
        assert len(set(with_jokers)) == len(with_jokers)


def test_gc_1_ranks_one_lowest_to_king_and_jokers_highest_and_equal():
    assert VALUE["1o"] < VALUE["7c"] < VALUE["10e"] < VALUE["12b"]
    assert VALUE["2c"] < VALUE["Tc"] < VALUE["Ac"]
    assert VALUE["X1"] == VALUE["X2"] > max(VALUE["As"], VALUE["12o"])
    # A joker beats a king of oros; two jokers make a battle.
    state = given("X1 3o", "12o 4o", deck="spanish_48", jokers=True)
    events, _ = throw_all(state)
    assert of(events, SkirmishPlayed)[0].seats == (0,)
    state = given("X1 3o 1o 2o 5o 6o", "X2 4o 1c 2c 5c 7o", deck="spanish_48", jokers=True)
    events, _ = throw_all(state)
    assert of(events, SkirmishPlayed)[0].seats == (0, 1) and of(events, BattleWon)[0].seat == 1


def test_gc_1_two_to_eight_players_and_options():
    config = DECIDER.configure(4, {})
    assert config == {
        "deck": "english",
        "jokers": False,
        "ace_high": False,
        "max_rounds": 2000,
        "turn_seconds": 60,
        "auto_play": False,
        "round_seconds": 2,
        "seats": 4,
    }
    for seats in (1, 9):
        with pytest.raises(InvalidOptions, match="is for 2 to 8 players"):
            DECIDER.configure(seats, {})
    with pytest.raises(InvalidOptions, match="deck"):
        DECIDER.configure(2, {"deck": "tarot"})
    with pytest.raises(InvalidOptions, match="Most rounds"):
        DECIDER.configure(2, {"max_rounds": 9})


def test_gc_15_ace_high_puts_the_spanish_one_above_the_king():
    """GC-15: with ``ace_high`` the 1 (as) beats the 12; without it the 12 beats the 1."""
    assert DECIDER.configure(2, {"deck": "spanish_40", "ace_high": True})["ace_high"] is True
    events, _ = throw_all(given("1o 3o", "12o 4o", deck="spanish_48", ace_high=True))
    assert of(events, SkirmishPlayed)[0].seats == (0,) and of(events, RoundTaken)[0].seat == 0
    events, _ = throw_all(given("1o 3o", "12o 4o", deck="spanish_48"))
    assert of(events, SkirmishPlayed)[0].seats == (1,)
    # Jokers stay above the ace.
    events, _ = throw_all(given("1o 3o", "X1 4o", deck="spanish_40", jokers=True, ace_high=True))
    assert of(events, SkirmishPlayed)[0].seats == (1,)
    assert DECIDER.view(given("1o 3o", "12o 4o", deck="spanish_48", ace_high=True), 0)["ace_high"] is True


def test_gc_15_ace_high_is_refused_with_the_english_deck():
    """GC-15: the English deck's ace is always high, so ``ace_high`` is refused with it, by name."""
    with pytest.raises(InvalidOptions, match="'Ace high' is for the Spanish decks"):
        DECIDER.configure(2, {"deck": "english", "ace_high": True})
    with pytest.raises(InvalidOptions, match="'Ace high' is for the Spanish decks"):
        DECIDER.configure(2, {"ace_high": True})
    assert any(option.name == "ace_high" and option.default is False for option in DECIDER.options)


# --- GC-2: the deal ------------------------------------------------------------------------------


def test_gc_2_deal_one_at_a_time_first_seats_get_one_more():
    cards = list(match_deck("english", False))
    piles = deal(cards, 3)
    assert [len(p) for p in piles] == [18, 17, 17]
    assert piles[0][:3] == ("2c", "2s", "3h") and piles[1][0] == "2d"
    assert [len(p) for p in deal(match_deck("spanish_40", True), 8)] == [6, 6, 5, 5, 5, 5, 5, 5]


def test_gc_2_start_shuffles_hand_1_and_keeps_its_seed_secret():
    config = DECIDER.configure(3, {"deck": "spanish_40"})
    ctx = Context(table_id=TABLE, hand_no=1, server_seed=SEED, client_seed="a||c", next_commitment="next")
    events = DECIDER.decide(DECIDER.initial_state(config), {"type": "start"}, ctx)
    started = events[0]
    assert isinstance(started, MatchStarted) and len(events) == 1
    expected = fairness.shuffled(match_deck("spanish_40", False), SEED, TABLE, 1, "a||c", "deck")
    assert list(started.cards) == expected
    assert started.commitment == fairness.commitment(SEED) and started.next_commitment == "next"
    assert started.pile_sizes == (14, 13, 13)
    _, public, secret = encode_event(started)
    assert set(secret) == {"server_seed", "cards"} and "server_seed" not in public
    state = DECIDER.evolve(DECIDER.initial_state(config), started)
    assert state.hand_no == 1 and list(state.piles[1]) == expected[1::3]
    with pytest.raises(IllegalAction, match="already started"):
        DECIDER.decide(state, {"type": "start"}, ctx)
    with pytest.raises(IllegalAction, match="hand 1"):
        DECIDER.decide(DECIDER.initial_state(config), {"type": "start"}, dataclasses.replace(ctx, hand_no=2))


# --- GC-3: 2- and 3-card rounds ------------------------------------------------------------------


def test_gc_3_alternation_after_tie_breaks():
    """2 (tie-break) -> 2 (plain) -> 3 -> 2 (plain) -> 3."""
    state = given(
        "5c 3c 7c Kc Qc 9c 8c 2c Ac As 4c",
        "4d 6d 2d 2h 3h Th Jh 4h 5h 6h 4s",
    )
    sizes = []
    for _ in range(4):
        sizes.append(state.size)
        events, state = throw_all(state)
        assert all(len(e.cards) == sizes[-1] for e in of(events, CardsThrown))
    assert sizes == [2, 2, 3, 2] and state.size == 3
    assert [r.seat for r in of(events, RoundTaken)] == [0]


def test_gc_3_after_a_battle_the_next_round_has_two_cards():
    state = given("Kc 3c 2c 4c 5c Ac 6c", "Kd 2d 3d 4d 5d 7d 6d")
    events, state = throw_all(state)
    assert of(events, BattleWon)[0].seat == 0
    assert of(events, RoundTaken)[0].next_size == 2 and state.size == 2


def test_gc_6_gc_10_a_round_given_when_then():
    """Given a deal, when both throw, then exactly these events: skirmishes split, equal extra
    cards, nobody has another, so one is drawn fairly and the other is out (GC-4..GC-6, GC-10)."""
    state = given("Ac 2c 9c", "Kd 3d 9d")
    first, state = act(state, {"type": "throw", "seat": 1})
    assert first == [ThrowSent(1, 1, False)]
    assert DECIDER.to_act(state) == (0,) and DECIDER.legal_actions(state, 1) == PRESENT
    events, state = act(state, {"type": "throw", "seat": 0})
    assert events == [
        ThrowSent(1, 0, False),
        CardsThrown(1, 0, ("Ac", "2c")),
        CardsThrown(1, 1, ("Kd", "3d")),
        SkirmishPlayed(1, 1, (0,), "Ac"),
        SkirmishPlayed(1, 2, (1,), "3d"),
        ExtraCardThrown(1, 0, "9c", "skirmishes"),
        ExtraCardThrown(1, 1, "9d", "skirmishes"),
        StalemateDrawn(1, "stalemate-1", (0, 1), events[7].seat),
        PlayerOut(1, 1 - events[7].seat, "no_extra", 0, ()),
        RoundTaken(1, events[7].seat, 6, 2, (), events[9].cards),
        MatchEnded(1, SEED.hex(), "all_cards", (events[7].seat,), events[10].pile_sizes),
    ]
    assert sorted(events[9].cards) == sorted(["Ac", "2c", "Kd", "3d", "9c", "9d"])


def test_gc_3_first_round_has_two_cards_then_three():
    state = given("Ac Kc 2c 3c 4c 5c", "2d 3d 4d 5d 6d 7d")
    assert state.size == 2 and DECIDER.view(state, None)["next_round_size"] == 2
    events, state = throw_all(state)
    assert [len(e.cards) for e in of(events, CardsThrown)] == [2, 2]
    assert state.size == 3
    events, state = throw_all(state)
    assert [len(e.cards) for e in of(events, CardsThrown)] == [3, 3]


# --- GC-4, GC-5: skirmishes and the taker --------------------------------------------------------


def test_gc_4_highest_card_wins_each_skirmish_suits_do_not_matter():
    state = given("9s 2c 3s Ks", "9h Ac 4s 5s", "Tc 3d 5d 6d", size=3)
    events, state = throw_all(state)
    assert [(s.seats, s.card) for s in of(events, SkirmishPlayed)] == [((2,), "Tc"), ((1,), "Ac"), ((2,), "5d")]
    assert of(events, RoundTaken)[0].seat == 2


def test_gc_5_taker_puts_cards_under_pile_skirmish_by_skirmish_seat_by_seat():
    state = given("Ac Kc 7c", "2d 3d 8d", "4h 5h 9h")
    events, state = throw_all(state)
    assert of(events, RoundTaken)[0].seat == 0
    assert pile(state, 0) == ["7c", "Ac", "2d", "4h", "Kc", "3d", "5h"]


def test_gc_5_throws_then_battle_layers_then_extras_then_forfeited_piles():
    """Seat 2 holds one card: out before throwing (GC-10), its card goes last. Two battles, won
    one each, then extra cards (GC-8)."""
    state = given(
        "Kc Qc 2c 3c 4c Ac 5c 6c 7c 3d 9c Jc",
        "Kd Qd 2d 4d 5d 8d 6d 7d 9d Kh 8h Jd",
        "Qs",
    )
    events, state = throw_all(state)
    assert [(o.seat, o.reason, o.cards) for o in of(events, PlayerOut)] == [(2, "short", ("Qs",))]
    taken = of(events, RoundTaken)[0]
    assert taken.seat == 0
    assert taken.cards == tuple("Kc Kd Qc Qd 2c 3c 4c Ac 2d 4d 5d 8d 5c 6c 7c 3d 6d 7d 9d Kh 9c 8h Qs".split())
    assert pile(state, 0) == ["Jc", *taken.cards]


# --- GC-6: tie for most skirmishes ---------------------------------------------------------------


def test_gc_6_tied_players_only_throw_extra_cards_again_when_equal():
    state = given("Ac 2c 7c 9c Jc", "2d Ad 7d 8d Jd", "3h 4h Qh Qs Kh")
    events, state = throw_all(state)
    extras = [(e.seat, e.card, e.tie) for e in of(events, ExtraCardThrown)]
    assert extras == [
        (0, "7c", "skirmishes"),
        (1, "7d", "skirmishes"),
        (0, "9c", "skirmishes"),
        (1, "8d", "skirmishes"),
    ]
    taken = of(events, RoundTaken)[0]
    assert taken.seat == 0
    assert taken.cards == ("Ac", "2d", "3h", "2c", "Ad", "4h", "7c", "7d", "9c", "8d")
    assert pile(state, 2) == ["Qh", "Qs", "Kh"]


# --- GC-7: battles -------------------------------------------------------------------------------


def test_gc_7_battle_that_grows_twice_every_player_still_in_takes_part():
    """Skirmish 1 ties on kings; seat 2 (not tied) lays layers too. Queens tie, jacks tie, an ace
    wins the third layer, and seat 0 takes everything although seat 1 won skirmish 2."""
    state = given(
        "Kc 2c 3c 4c 5c Qc 6c 7c 8c Jc 9c Tc 2s Ac 3s",
        "Kd 9d 2d 3d 4d Qd 5d 6d 7d Jd 8d Td Jh 4s 5s",
        "2h 3h 4h 5h 6h 7h 8h 9h Th Js 6s 7s 8s 9s Ts",
    )
    events, state = throw_all(state)
    assert [s.seats for s in of(events, SkirmishPlayed)] == [(0, 1), (1,)]
    assert [(g.layer, g.seats) for g in of(events, BattleGrew)] == [(1, (0, 1)), (2, (0, 1, 2))]
    laid = of(events, BattleCardsLaid)
    assert [(b.layer, b.seat, b.face_up, b.down_count) for b in laid] == [
        (1, 0, "Qc", 3),
        (1, 1, "Qd", 3),
        (1, 2, "7h", 3),
        (2, 0, "Jc", 3),
        (2, 1, "Jd", 3),
        (2, 2, "Js", 3),
        (3, 0, "Ac", 3),
        (3, 1, "4s", 3),
        (3, 2, "9s", 3),
    ]
    assert of(events, RoundTaken)[0].seat == 0 and of(events, RoundTaken)[0].count == 42
    assert [len(p) for p in state.piles] == [43, 1, 1]


def test_gc_7_battle_grows_twice_and_is_won_on_the_third_layer():
    state = given(
        "Kc 5c 2c 3c 4c Qc 6c 7c 8c Jc 9c Tc 2s As 3s",
        "Kd 4d 2d 3d 5d Qd 6d 7d 8d Jd 9d Td 2h 3h 4h",
    )
    events, state = throw_all(state)
    assert [(g.layer, g.seats) for g in of(events, BattleGrew)] == [(1, (0, 1)), (2, (0, 1))]
    won = of(events, BattleWon)
    assert len(won) == 1 and (won[0].seat, won[0].layers) == (0, 3)
    assert [b.face_up for b in of(events, BattleCardsLaid)] == ["Qc", "Qd", "Jc", "Jd", "As", "3h"]
    taken = of(events, RoundTaken)[0]
    assert taken.seat == 0 and taken.count == 28 and state.size == 2
    # GC-5: throws, then each layer seat by seat, face-down before face-up.
    assert taken.cards == tuple(
        "Kc Kd 5c 4d 2c 3c 4c Qc 2d 3d 5d Qd 6c 7c 8c Jc 6d 7d 8d Jd 9c Tc 2s As 9d Td 2h 3h".split()
    )
    assert pile(state, 0) == ["3s", *taken.cards]
    assert taken.revealed[0] == (1, 1, 0, ("2c", "3c", "4c"))
    assert pile(state, 1) == ["4h"]


# --- GC-8: battle decides; pitched battle ---------------------------------------------------------


def test_gc_8_a_battle_decides_the_round_whatever_the_other_skirmishes():
    state = given("2c 9c Tc 3c 4c 5c Ac", "3d 9d Jd 6d 7d 8d 2d", size=3)
    events, state = throw_all(state)
    assert [s.seats for s in of(events, SkirmishPlayed)] == [(1,), (0, 1), (1,)]
    assert of(events, BattleWon)[0].seat == 0 and of(events, RoundTaken)[0].seat == 0


def test_gc_8_pitched_battle_with_a_tie_among_battle_winners():
    state = given(
        "Kc Qc 2c 3c 4c 5c Ac 6c 7c 8c 3d 9c 4d Jc",
        "Kd Qd 5d 6d 7d 8d 2d 9d Td Jd Kh 9h 8h Jh",
        size=3,
    )
    events, state = throw_all(state)
    assert [s.seats for s in of(events, SkirmishPlayed)] == [(0, 1), (0, 1), (1,)]
    assert [(w.skirmish, w.seat) for w in of(events, BattleWon)] == [(1, 0), (2, 1)]
    assert [(e.seat, e.card, e.tie) for e in of(events, ExtraCardThrown)] == [
        (0, "9c", "battles"),
        (1, "9h", "battles"),
        (0, "4d", "battles"),
        (1, "8h", "battles"),
    ]
    taken = of(events, RoundTaken)[0]
    assert taken.seat == 1
    assert taken.cards == tuple("Kc Kd Qc Qd 2c 5d 3c 4c 5c Ac 6d 7d 8d 2d 6c 7c 8c 3d 9d Td Jd Kh 9c 9h 4d 8h".split())
    assert pile(state, 1) == ["Jh", *taken.cards]


# --- GC-9: ambush -------------------------------------------------------------------------------


def test_gc_9_ambush_wins_at_once_no_battle_and_the_pile_is_shuffled():
    state = given("7c 7d 7h 2c", "Kc 2d 3d 3c", "Kd 4s 5s 4c", size=3)
    events, state = throw_all(state)
    assert of(events, AmbushMade)[0].seats == (0,)
    assert not of(events, SkirmishPlayed) and not of(events, BattleCardsLaid)
    taken = of(events, RoundTaken)[0]
    assert taken.seat == 0 and taken.cards == tuple("7c Kc Kd 7d 2d 4s 7h 3d 5s".split())
    shuffled = of(events, PileShuffled)[0]
    expected = fairness.shuffled(canonical(["2c", *taken.cards], "english"), SEED, TABLE, 1, "", "ambush-1")
    assert shuffled.purpose == "ambush-1" and list(shuffled.cards) == expected == pile(state, 0)
    assert state.size == 2 and state.ambushes == 1


def test_gc_9_double_ambush_extra_cards_until_one_is_highest():
    state = given("7c 7d 7h 5s 9s 2c", "Jc Jd Jh 5d 3s 3c", "Kc Qc 2s 4c 6c 8c", size=3, ambushes=1)
    events, state = throw_all(state)
    assert of(events, AmbushMade)[0].seats == (0, 1)
    assert [(e.seat, e.card, e.tie) for e in of(events, ExtraCardThrown)] == [
        (0, "5s", "ambush"),
        (1, "5d", "ambush"),
        (0, "9s", "ambush"),
        (1, "3s", "ambush"),
    ]
    taken = of(events, RoundTaken)[0]
    assert taken.seat == 0 and taken.count == 13
    assert of(events, PileShuffled)[0].purpose == "ambush-2"
    assert sorted(pile(state, 0)) == sorted(["2c", *taken.cards])
    assert pile(state, 2) == ["4c", "6c", "8c"]


def test_gc_9_spanish_ambush_shuffles_from_the_spanish_canonical_order():
    assert canonical(["12b", "1o", "X1", "10c"], "spanish_40") == ["1o", "10c", "12b", "X1"]
    assert canonical(["As", "2c", "X2", "Td"], "english") == ["2c", "Td", "As", "X2"]


# --- GC-10, GC-11: running out ----------------------------------------------------------------------


def test_gc_10_a_player_short_for_the_round_is_out_and_the_taker_gets_their_cards():
    state = given("Ac Kc 2c", "2d 3d 4d", "Qh", size=2)
    assert DECIDER.to_act(state) == (0, 1)
    assert DECIDER.legal_actions(state, 2) == PRESENT
    events, state = throw_all(state)
    out = of(events, PlayerOut)
    assert [(o.seat, o.reason, o.cards) for o in out[:1]] == [(2, "short", ("Qh",))]
    assert of(events, RoundTaken)[0].cards == ("Ac", "2d", "Kc", "3d", "Qh")
    assert state.out[2] == "short"


def test_gc_10_a_tied_player_without_an_extra_card_is_out_and_the_other_takes():
    state = given("Ac 2c 3c", "2d Ad")
    events, state = throw_all(state)
    out = of(events, PlayerOut)
    assert [(o.seat, o.reason) for o in out] == [(1, "no_extra")]
    assert not of(events, ExtraCardThrown)
    assert of(events, RoundTaken)[0].seat == 0
    ended = of(events, MatchEnded)[0]
    assert ended.winners == (0,) and ended.reason == "all_cards" and ended.pile_sizes == (5, 0)


def test_gc_10_when_no_tied_player_has_an_extra_card_one_is_drawn_fairly():
    state = given("Ac 2c", "2d Ad", "3h 4h 5h")
    events, state = throw_all(state)
    draw = of(events, StalemateDrawn)[0]
    index = fairness.pick(2, SEED, TABLE, 1, "", "stalemate-1")
    assert draw.seats == (0, 1) and draw.seat == (0, 1)[index] and draw.purpose == "stalemate-1"
    assert of(events, RoundTaken)[0].seat == draw.seat
    assert [o.seat for o in of(events, PlayerOut) if o.reason == "no_extra"] == [1 - draw.seat]


def test_gc_14_a_round_settled_by_lot_says_so_in_the_view_the_history_and_the_audit():
    """GC-14: nobody tied has an extra card, so the round is settled by a fair draw; the last
    round as players see it, the history line and the audit's showdown say in words that it was
    settled by lot, why (every player still in would have been out at once) and who was drawn."""
    events, state = throw_all(given("Ac 2c", "2d Ad", "3h 4h 5h"))
    draw = of(events, StalemateDrawn)[0]
    (lot,) = DECIDER.view(state, 2)["last_round"]["settled_by_lot"]
    assert lot["players"] == [0, 1] and lot["drawn"] == draw.seat
    assert "Settled by lot" in lot["sentence"] and "would all have been out at once" in lot["sentence"]
    assert f"seat {draw.seat} was drawn" in lot["sentence"] and lot["sentence"].msgid.startswith("Settled by lot")
    names = ("alice", "bob", "carol")
    line = DECIDER.audit.history_line(draw, "dealer", names)
    assert line.startswith("Round 1: Settled by lot: alice, bob would all have been out at once")
    assert f"so {names[draw.seat]} was drawn among them" in line
    events, _ = throw_all(given("Ac 2c 9c", "Kd 3d 9d"))
    winner = of(events, StalemateDrawn)[0].seat
    shown = DECIDER.audit.showdown({}, events)
    (step,) = shown[winner]["tie_break"]
    assert step["rule"] == "GC-14" and step["purpose"] == "stalemate-1" and "by lot" in step["sentence"]
    assert shown[1 - winner]["outcome"] == "out" and "no extra card" in shown[1 - winner]["description"]


def test_gc_14_a_round_won_outright_is_not_settled_by_lot():
    """GC-14: only a stalemate is settled by lot; a plain round's last round says nothing of it."""
    _, state = throw_all(given("Ac 2c 5c", "Kd 3d 6d"))
    last = DECIDER.view(state, None)["last_round"]
    assert last["settled_by_lot"] == []
    assert last["sentence"] == f"Round 1: seat {last['taker']} took the round's {last['cards_taken']} cards."


def test_gc_11_a_player_with_one_card_left_puts_it_down_and_turns_it_up():
    state = given(
        "Kc 5c 2c 3c 4c 6c 7c",
        "Kd 4d As",
        "2h 3h 4h 5h 6h 8h 9h",
    )
    events, state = throw_all(state)
    laid = {b.seat: b for b in of(events, BattleCardsLaid)}
    assert laid[1].face_up == "As" and laid[1].down_count == 0 and laid[1].face_down == ()
    assert laid[0].face_up == "6c" and laid[0].face_down == ("2c", "3c", "4c")
    assert of(events, BattleWon)[0].seat == 1 and of(events, RoundTaken)[0].seat == 1
    assert len(pile(state, 1)) == 15 and state.out[1] == ""


def test_gc_11_with_three_cards_the_last_face_down_one_is_turned_up():
    state = given("Kc 5c 2c 3c 4c Ac", "Kd 4d 7d 8d 9d")
    events, state = throw_all(state)
    laid = {b.seat: b for b in of(events, BattleCardsLaid)}
    assert laid[1].face_down == ("7d", "8d") and laid[1].face_up == "9d"
    assert laid[0].face_up == "Ac" and of(events, RoundTaken)[0].seat == 0
    assert of(events, MatchEnded)[0].winners == (0,)


def test_gc_11_a_player_with_nothing_to_put_down_is_out():
    state = given("Kc 5c 2c 3c 4c 6c 7c", "Kd 4d", "2h 3h 4h 5h 6h 3s 9h")
    events, state = throw_all(state)
    assert [(o.seat, o.reason) for o in of(events, PlayerOut)] == [(1, "no_battle_cards")]
    assert {b.seat for b in of(events, BattleCardsLaid)} == {0, 2}
    assert of(events, RoundTaken)[0].seat == 0 and state.out[1] == "no_battle_cards"


# --- GC-12: the end, timeouts, money --------------------------------------------------------------


def test_gc_12_the_player_with_every_card_wins_and_the_seed_is_revealed():
    state = given("Ac Kc", "2d 3d", stake=500)
    events, state = throw_all(state)
    ended = events[-1]
    assert isinstance(ended, MatchEnded) and ended.winners == (0,) and ended.reason == "all_cards"
    assert ended.server_seed == SEED.hex() and ended.hand_no == 1
    assert "server_seed" in DECIDER.view_event(ended, None)
    assert DECIDER.is_finished(state) and DECIDER.view(state, 1)["server_seed"] == SEED.hex()
    before = dataclasses.replace(state, finished=False)
    movements = DECIDER.settlements(before, ended)
    assert [(m.source, m.destination, m.amount, m.unit) for m in movements] == [
        (("escrow",), ("payout", 0), 1000, "MONEY")
    ]
    with pytest.raises(IllegalAction, match="over"):
        DECIDER.decide(state, {"type": "throw", "seat": 0}, CTX)


def test_gc_12_max_rounds_most_cards_win_and_a_shared_stake_splits_to_the_cent():
    state = given("Ac Kc 2c 3c", "2d 3d 4d 5d 6d 7d 8d 9d Td Jd", "4h 5h 6h 7h", max_rounds=10, stake=333)
    state = dataclasses.replace(state, round_no=9)
    events, state = throw_all(state)
    ended = events[-1]
    assert isinstance(ended, MatchEnded) and ended.reason == "max_rounds"
    assert ended.pile_sizes == (8, 8, 2) and ended.winners == (0, 1)
    movements = DECIDER.settlements(dataclasses.replace(state, finished=False), ended)
    assert [(m.destination, m.amount) for m in movements] == [(("payout", 0), 500), (("payout", 1), 499)]
    assert sum(m.amount for m in movements) == 999
    assert split(1000, (5, 2, 7)) == [(2, 334), (5, 333), (7, 333)]


def test_gc_12_stakes_go_to_escrow_at_the_start_and_no_money_without_a_stake():
    config = {**DECIDER.configure(3, {}), "stake": 250}
    state = DECIDER.initial_state(config)
    started = DECIDER.decide(state, {"type": "start"}, CTX)[0]
    assert [(m.source, m.destination, m.amount, m.unit) for m in DECIDER.settlements(state, started)] == [
        (("wallet", seat), ("escrow",), 250, "MONEY") for seat in range(3)
    ]
    free = DECIDER.initial_state(DECIDER.configure(3, {}))
    assert DECIDER.settlements(free, started) == []


def test_gc_12_turn_timeout_throws_for_every_absent_player():
    state = given("Ac Kc 2c", "2d 3d 4d", "5h 6h 7h")
    config = DECIDER.configure(3, {"turn_seconds": 30})
    _, state = act(state, {"type": "throw", "seat": 1})
    assert DECIDER.deadline(state, config) == (30.0, {"type": "timeout", "seat": 0})
    events, state = act(state, {"type": "timeout", "seat": 0})
    assert [(e.seat, e.by_timeout) for e in events[:2]] == [(0, True), (2, True)]
    assert of(events, RoundTaken)[0].seat == 0


def test_gc_12_auto_play_plays_the_round_itself():
    state = given("Ac Kc 2c", "2d 3d 4d", auto_play=True)
    config = DECIDER.configure(2, {"auto_play": True, "round_seconds": 3})
    assert DECIDER.deadline(state, config) == (3.0, {"type": "play_round"})
    events, state = act(state, {"type": "play_round"})
    assert of(events, RoundTaken)[0].seat == 0 and state.round_no == 1
    with pytest.raises(IllegalAction, match="only with automatic play"):
        DECIDER.decide(given("Ac Kc", "2d 3d"), {"type": "play_round"}, CTX)


def test_cm_20_sit_out_hands_the_seat_to_the_bot_and_sit_in_takes_it_back():
    """CM-20: sitting out and in are events, allowed whoever the round awaits; the view says which
    seats the bot plays; a sat-out seat still throws (the bot sends its throw)."""
    state = given("Ac Kc 2c", "2d 3d 4d")
    _, state = act(state, {"type": "throw", "seat": 0})
    assert DECIDER.to_act(state) == (1,) and DECIDER.legal_actions(state, 0) == PRESENT
    events, state = act(state, {"type": "sit_out", "seat": 0})
    assert events == [SatOut(0)] and DECIDER.played_by_bot(state) == {0}
    assert DECIDER.view(state, 1)["played_by_bot"] == [0] and DECIDER.view(state, None)["played_by_bot"] == [0]
    assert DECIDER.legal_actions(state, 0) == [{"type": "sit_in"}, {"type": "leave"}]
    with pytest.raises(IllegalAction) as twice:
        DECIDER.decide(state, {"type": "sit_out", "seat": 0}, CTX)
    assert twice.value.code == "already_sitting_out"
    _, state = act(state, {"type": "throw", "seat": 1})
    assert {"type": "throw"} in DECIDER.legal_actions(state, 0)
    events, state = act(state, {"type": "sit_in", "seat": 0})
    assert events == [SatIn(0)] and DECIDER.played_by_bot(state) == frozenset()
    assert DECIDER.view(state, 0)["played_by_bot"] == []
    assert DECIDER.legal_actions(state, 0) == [{"type": "throw"}, *PRESENT]
    with pytest.raises(IllegalAction) as not_out:
        DECIDER.decide(state, {"type": "sit_in", "seat": 0}, CTX)
    assert not_out.value.code == "not_sitting_out"


def test_cm_20_a_player_out_of_the_match_has_no_presence_to_change():
    """CM-20 applies to players still in the match, and only while it runs."""
    state = given("Ac Kc 2c", "2d 3d 4d", "Qh", size=2)
    _, state = throw_all(state)
    assert state.out[2] and DECIDER.legal_actions(state, 2) == []
    with pytest.raises(IllegalAction, match="out of the match"):
        DECIDER.decide(state, {"type": "sit_out", "seat": 2}, CTX)
    fresh = DECIDER.initial_state(DECIDER.configure(2, {}))
    with pytest.raises(IllegalAction, match="not started"):
        DECIDER.decide(fresh, {"type": "sit_out", "seat": 0}, CTX)


def test_cm_20_the_history_names_who_sat_out_sat_in_and_left():
    names = ["alice", "bob"]
    lines = [DECIDER.audit.history_line(event, "x", names) for event in (SatOut(1), SatIn(1), LeftTable(0))]
    assert lines[0].startswith("bob sits out") and lines[1].startswith("bob sits in")
    assert lines[2].startswith("alice leaves the match") and "result stays theirs" in lines[2]
    assert all(
        isinstance(line, Text) and line.values == {"player": name}
        for line, name in zip(lines, ["bob", "bob", "alice"], strict=True)
    )


def test_cm_20_a_leaver_stays_in_and_the_bot_throws_for_their_seat():
    """CM-20 (amended GC rule: leaving used to put the player out, their pile forfeited): Guerra is
    a match, so the leaver's seat stays in, awaited, played by the bot; they cannot sit in again."""
    state = given("Ac Kc 2c", "2d 3d 4d", "5h 6h 7h")
    events, state = act(state, {"type": "leave", "seat": 2})
    assert events == [LeftTable(2)]
    assert DECIDER.to_act(state) == (0, 1, 2) and not state.out[2]
    assert DECIDER.played_by_bot(state) == {2} and DECIDER.view(state, 0)["played_by_bot"] == [2]
    assert DECIDER.legal_actions(state, 2) == [{"type": "throw"}]
    with pytest.raises(IllegalAction) as refused:
        DECIDER.decide(state, {"type": "sit_in", "seat": 2}, CTX)
    assert refused.value.code == "seat_left"
    with pytest.raises(IllegalAction) as again:
        DECIDER.decide(state, {"type": "leave", "seat": 2}, CTX)
    assert again.value.code == "seat_left"
    events, state = throw_all(state)
    assert [e.seat for e in of(events, CardsThrown)] == [0, 1, 2]
    assert of(events, RoundTaken)[0].seat == 0 and pile(state, 2) == ["7h"] and not state.out[2]


def test_cm_20_the_leavers_seat_plays_to_the_end_and_the_result_is_theirs():
    """CM-20: the leaver's seat, played on by the bot, wins the match when its cards win it."""
    state = given("2c 3c 4c", "Ad Kd Qd Jd Td 9d")
    events, state = act(state, {"type": "leave", "seat": 1})
    assert events == [LeftTable(1)] and not state.finished
    while not state.finished:
        _, state = throw_all(state)
    assert state.winners == (1,) and len(pile(state, 1)) == 9
    assert DECIDER.view(state, None)["winners"] == [1]


def test_refusals_carry_the_legal_actions():
    state = given("Ac Kc 2c", "2d 3d 4d")
    _, state = act(state, {"type": "throw", "seat": 0})
    with pytest.raises(IllegalAction, match="already thrown") as refused:
        DECIDER.decide(state, {"type": "throw", "seat": 0}, CTX)
    assert refused.value.legal == PRESENT
    with pytest.raises(IllegalAction, match="no seat"):
        DECIDER.decide(state, {"type": "throw", "seat": 5}, CTX)
    with pytest.raises(IllegalAction, match="Unknown"):
        DECIDER.decide(state, {"type": "fold", "seat": 1}, CTX)
    fresh = DECIDER.initial_state(DECIDER.configure(2, {}))
    with pytest.raises(IllegalAction, match="not started"):
        DECIDER.decide(fresh, {"type": "throw", "seat": 0}, CTX)
    assert DECIDER.legal_actions(fresh, 0) == [] and DECIDER.deadline(fresh, {}) is None


# --- GC-13: what players see ----------------------------------------------------------------------


def test_gc_13_view_shows_pile_sizes_and_the_last_round_never_a_piles_order():
    state = given(
        "Kc 5c 2c 3c 4c 6c 7c 8c",
        "Kd 4d 9d Td Jd 5d 7d 8d",
    )
    events, state = throw_all(state)
    view = DECIDER.view(state, 0)
    assert [p["cards"] for p in view["players"]] == [14, 2]
    last = view["last_round"]
    assert last["taker"] == 0 and last["cards_taken"] == 12
    assert last["plays"][2] == {
        "seat": 0,
        "kind": "battle",
        "skirmish": 1,
        "layer": 1,
        "face_up": "6c",
        "face_down_count": 3,
        "face_down": ["2c", "3c", "4c"],
    }
    assert not {"7c", "8c", "7d", "8d"} & _cards_in(view, frozenset(VALUE))  # still in the piles
    laid = of(events, BattleCardsLaid)[0]
    shown = DECIDER.view_event(laid, 1)
    assert "face_down" not in shown and shown["down_count"] == 3
    assert list(DECIDER.view_event(of(events, RoundTaken)[0], None)["revealed"][0][3]) == ["2c", "3c", "4c"]
    assert "cards" not in DECIDER.view_event(of(events, RoundTaken)[0], None)
    midround = dataclasses.replace(state, table=(Play(0, "battle", ("2c", "3c", "4c", "6c"), 1, 1),))
    assert DECIDER.view(midround, None)["table"] == [
        {"seat": 0, "kind": "battle", "skirmish": 1, "layer": 1, "face_up": "6c", "face_down_count": 3}
    ]


# --- random matches: invariants ------------------------------------------------------------------


_STRING = re.compile(r'"([^"\\]*)"')


def _cards_in(value: Any, deck: frozenset[str]) -> set[str]:
    """Every card code among the strings of a JSON-able value."""
    return set(_STRING.findall(msgspec.json.encode(value, enc_hook=str).decode())) & deck


def _put_face_up(event: Any) -> set[str]:
    """The cards ``event`` shows face up (or reveals) in the round being played."""
    if isinstance(event, CardsThrown):
        return set(event.cards)
    if isinstance(event, BattleCardsLaid):
        return {event.face_up}
    if isinstance(event, ExtraCardThrown):
        return {event.card}
    if isinstance(event, RoundTaken):
        return {card for *_, cards in event.revealed for card in cards}
    return set()


def _random_command(state: State, seats: int, rng: random.Random) -> dict[str, Any]:
    """A command for the match's next step: now and then a player sits out, sits in or leaves
    (CM-20) or the timer throws; a throw or a presence command is legal."""
    awaited = DECIDER.to_act(state)
    roll = rng.random()
    players = [s for s in range(seats) if not state.out[s] and s not in state.presence.gone]
    if roll < 0.01 and players:
        seat = rng.choice(players)
        command = {**rng.choice([a for a in DECIDER.legal_actions(state, seat) if is_presence_action(a)]), "seat": seat}
    elif state.match.auto_play and roll < 0.7:
        command = {"type": "play_round"}
    elif roll < 0.1:
        command = {"type": "timeout", "seat": awaited[0]}
    else:
        command = {"type": "throw", "seat": rng.choice(awaited)}
    if command["type"] in {"throw", "sit_out", "sit_in", "leave"}:
        assert {"type": command["type"]} in DECIDER.legal_actions(state, command["seat"])
    return command


def _play_match(i: int, check_views: bool) -> list[Any]:
    rng = random.Random(i)
    seats = 2 + i % 7
    deck_name = DECKS[(i // 7) % 3]
    options = {
        "deck": deck_name,
        "jokers": i % 2 == 0,
        "auto_play": i % 3 == 0,
        "max_rounds": 10 if i % 10 == 0 else 2000,
    }
    config = DECIDER.configure(seats, options)
    full = match_deck(deck_name, options["jokers"])
    deck_set = frozenset(full)
    expected = sorted(full)
    ctx = Context(
        table_id=f"00000000-0000-0000-0000-{i:012d}",
        hand_no=1,
        server_seed=hashlib.sha256(f"seed{i}".encode()).digest(),
        client_seed="|" * (seats - 1),
        next_commitment="next",
    )
    state = DECIDER.initial_state(config)
    history: list[Any] = []
    command: dict[str, Any] = {"type": "start"}
    while True:
        events = DECIDER.decide(state, command, ctx)
        assert events, command
        public: set[str] = set()  # cards shown face up (or revealed) in the round being played
        for event in events:
            state = DECIDER.evolve(state, event)
            history.append(event)
            # Cards conserved after every event (piles, the table, forfeited piles).
            held = [card for pile in state.piles for card in pile]
            held += [card for play in state.table for card in play.cards]
            held += state.forfeited
            assert sorted(held) == expected
            public |= _put_face_up(event)
            # GC-13: no event shows a card that was not put face up (or revealed) in its round.
            if check_views:
                assert _cards_in(DECIDER.view_event(event, None), deck_set) <= public, event
            if isinstance(event, RoundTaken):
                public = set()
        if check_views:
            view = DECIDER.view(state, rng.randrange(seats))
            last = state.last_round.plays if state.last_round else ()
            assert _cards_in(view, deck_set) <= {card for play in last for card in play.cards}
            assert [p["cards"] for p in view["players"]] == [len(p) for p in state.piles]
        if state.finished:
            break
        command = _random_command(state, seats, rng)
    # GC-12: the match ended with a winner holding every card, or by max_rounds.
    ended = history[-1]
    assert isinstance(ended, MatchEnded) and ended.winners
    if ended.reason == "all_cards":
        assert len(state.piles[ended.winners[0]]) == len(full)
    else:
        assert state.round_no == 10
    assert DECIDER.to_act(state) == () and DECIDER.deadline(state, config) is None
    # Replay from stored JSON equals the state; the state round-trips through JSON.
    types = event_types_by_name(DECIDER)
    stored = msgspec.json.decode(msgspec.json.encode([encode_event(event) for event in history]))
    replayed = replay(DECIDER, config, (decode_event(types, name, data, secret) for name, data, secret in stored))
    assert replayed == state
    assert decode_state(State, json.loads(json.dumps(encode_state(state)))) == state
    return history


def test_gc_12_gc_13_five_hundred_random_matches_conserve_cards_end_and_replay():
    """Cards conserved after every event, every match ends, replay and JSON round-trip equal
    (GC-2..GC-12), 2 to 8 players, every deck, with and without jokers; in one match out of five
    every view and event served is checked: none shows a pile's order or an unrevealed card
    (GC-13)."""
    kinds: Counter[str] = Counter()
    for i in range(500):
        _play_match(i, check_views=i % 5 == 0)
        kinds[DECKS[(i // 7) % 3]] += 1
    assert set(kinds) == set(DECKS)


NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")


def test_gc_history_of_whole_matches_is_in_words_and_names_the_players():
    """GC-1..GC-14 in the hand history: every event of a played match has a line in words (no
    ``field=value``, no ``{'``, no ``[``), and the lines name the players by name, not by seat."""
    kinds: set[str] = set()
    for i in range(60):
        history = _play_match(i, check_views=False)
        seats = history[0].seats
        names = NAMES[:seats]
        lines = [DECIDER.audit.history_line(event, "dealer", names) for event in history]
        for event, line in zip(history, lines):
            assert line, event
            assert "=" not in line and "{'" not in line and "[" not in line and "seat " not in line, line
            assert line.msgid, line
            kinds.add(type(event).__name__)
        text = "\n".join(lines)
        assert all(name in text for name in names)
    assert {"StalemateDrawn", "BattleCardsLaid", "ExtraCardThrown", "PlayerOut", "RoundTaken"} <= kinds


@pytest.mark.parametrize(("deck", "suit"), [("spanish_48", "cups"), ("spanish_40", "cups"), ("english", "clubs")])
def test_gc_1_history_names_cards_by_the_match_s_deck(deck: str, suit: str):
    """GC-1: ``2c`` is the two of cups in a Spanish deck and the two of clubs in the English one;
    the history line names it by the table's deck, never by its code."""
    line = DECIDER.audit.history_line(CardsThrown(1, 0, ("2c", "7c")), "dealer", NAMES[:2], {"deck": deck})
    said = str(in_english(line))
    assert f"the two of {suit}" in said and f"the seven of {suit}" in said, said
    assert "2c" not in said and "7c" not in said, said
