"""Five-Card Draw's audit hooks against seeded pure playouts of every variant: every hand re-dealt
(FD-3, FD-7, FD-8, CM-18), re-decided (FD-6, FD-9..FD-11, FD-17) and told in words agrees with its
record (CM-10), a forged card, reshuffle, share or value is named, and the PHH export of triple draw
is read back and replayed by PokerKit (the pinned test peer)."""

from __future__ import annotations

import dataclasses
import functools
import random
import warnings
from collections import Counter
from typing import Any

import pytest
from pokerkit.notation import HandHistory

from games.engine import between_hands, fairness, hands, presence
from games.engine.card_names import card_name
from games.engine.errors import InvalidOptions
from games.engine.seats import left_of, turn_order
from games.rules.five_card_draw import DECIDER, cards
from games.rules.five_card_draw.cards import has_openers, pack
from games.rules.five_card_draw.events import (
    EVENT_TYPES,
    CardsDealt,
    CardsDrawn,
    FirstDealerDrawn,
    HandEnded,
    HandPassed,
    HandStarted,
    LeaveRequested,
    PlayerActed,
    PotsAwarded,
    ShowdownHeld,
    StockReshuffled,
)
from games.rules.five_card_draw.state import State
from tests.rules.playout_draw import TABLE_ID, context, hand_seed, play, random_action

# The seats' players, as the hand history names them.
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")

AUDIT = DECIDER.audit
DECKS = {"joker": "english_53", "jokers": "english_54"}
VARIANTS: list[tuple[int, dict[str, Any]]] = [
    (3, {}),  # antes, jacks or better (FD-6), no limit
    (4, {"betting": "pot_limit", "wild": "jokers", "shotgun": True, "ace_rule": "five_with_ace"}),
    (5, {"high_low": True, "forced_bets": "blinds"}),
    (2, {"variant": "triple_draw_27", "betting": "fixed_limit"}),
    (8, {"variant": "triple_draw_27", "betting": "fixed_limit"}),  # the stock runs out (FD-8)
    (6, {"wild": "deuces", "ace_rule": "four_with_ace", "betting": "fixed_limit"}),
    (4, {"wild": "joker", "opening": "anything_opens", "format": "tournament", "starting_stack": 30}),
    (3, {"wild": "one_eyed_jacks", "forced_bets": "blinds", "betting": "pot_limit"}),
    (3, {"variant": "triple_draw_27", "forced_bets": "ante"}),
]


def split_hands(config: dict[str, Any], log: list[Any]) -> tuple[dict[int, list[Any]], dict[int, tuple[int, ...]]]:
    """The log cut into hands as the service records them (each event belongs to the hand the state
    is in after it; the opening events go with hand 1), and each seat's chips after each hand."""
    state = DECIDER.initial_state(config)
    hands: dict[int, list[Any]] = {}
    after: dict[int, tuple[int, ...]] = {}
    for event in log:
        state = DECIDER.evolve(state, event)
        hands.setdefault(max(state.hand_no, 1), []).append(event)
        if isinstance(event, HandEnded):
            after[event.hand_no] = state.stacks
    return hands, after


@functools.cache
def playouts() -> list[tuple[str, dict[str, Any], dict[int, list[Any]]]]:
    """Seeded random tables over every variant, with uneven stacks for side pots: ``(tag, config, hands)``."""
    games = []
    for i, (seats, options) in enumerate(VARIANTS):
        config = DECIDER.configure(seats, options)
        _, log = play(seats, options, seed=i, max_hands=12, buy_ins=[20 + 25 * seat for seat in range(seats)])
        games.append((f"play-{i}", config, split_hands(config, log)[0]))
    return games


def deck_of(tag: str, config: dict[str, Any], hand_no: int) -> list[str]:
    return fairness.shuffled(pack(config["wild"]), hand_seed(tag, hand_no), TABLE_ID, hand_no, "", "deck")


def streams_of(tag: str, hand_no: int) -> Any:
    return fairness.streams(hand_seed(tag, hand_no), TABLE_ID, hand_no, "")


def every_hand() -> list[tuple[str, dict[str, Any], int, list[Any]]]:
    return [(tag, config, n, events) for tag, config, hands in playouts() for n, events in hands.items()]


def find(test: Any) -> tuple[str, dict[str, Any], int, list[Any]]:
    """The first hand of the playouts for which ``test(config, events)`` holds."""
    return next(item for item in every_hand() if test(item[1], item[3]))


def of(events: list[Any], kind: type) -> list[Any]:
    return [event for event in events if isinstance(event, kind)]


def forged(events: list[Any], kind: type, change: Any, which: int = 0) -> list[Any]:
    """The events with the ``which``-th event of type ``kind`` replaced by ``change(event)``."""
    positions = [i for i, event in enumerate(events) if isinstance(event, kind)]
    copy = list(events)
    copy[positions[which]] = change(copy[positions[which]])
    return copy


def audit(tag: str, config: dict[str, Any], hand_no: int, events: list[Any]) -> tuple[list[str], list[str]]:
    deck = deck_of(tag, config, hand_no)
    return AUDIT.audit_deal(config, deck, events), AUDIT.audit_outcome(config, events, streams_of(tag, hand_no))


def test_cm_10_every_honest_hand_of_every_variant_audits_clean() -> None:
    """CM-10, FD-3, FD-7, FD-8, FD-9..FD-11, FD-17, CM-18, CM-19: for every hand of the playouts the
    deal and the outcome agree with the seed and the rules, and the playouts reach what the checks
    are about: reshuffles, side pots, high-low halves, passed hands, shotgun cards and shown aces."""
    seen: Counter[str] = Counter()
    for tag, config, hand_no, events in every_hand():
        assert AUDIT.audit_deck(config, events) == DECKS.get(config["wild"], "english_52")
        assert audit(tag, config, hand_no, events) == ([], []), (tag, hand_no)
        for awarded in of(events, PotsAwarded):
            seen["side pots"] += len(awarded.pots) > 1
            seen["halves"] += any(share.half == "low" for share in awarded.shares)
        seen["reshuffles"] += len(of(events, StockReshuffled))
        seen["passed"] += len(of(events, HandPassed))
        seen["shotgun"] += any(any(cards) for dealt in of(events, CardsDealt) for cards in dealt.face_up)
        seen["aces shown"] += any(drawn.shown_ace for drawn in of(events, CardsDrawn))
        seen["showdowns"] += len(of(events, ShowdownHeld))
    assert all(seen[what] for what in ("side pots", "halves", "reshuffles", "passed", "shotgun", "aces shown")), seen
    assert seen["showdowns"] > 10, seen


def test_cm_9_a_forged_dealt_card_is_named() -> None:
    """FD-3, CM-9: a dealt card changed is named by seat, card and deck position."""
    tag, config, hand_no, events = find(lambda config, events: bool(of(events, CardsDealt)))
    dealt = of(events, CardsDealt)[0]
    seat = next(seat for seat, cards in enumerate(dealt.hands) if cards)
    true = dealt.hands[seat][2]
    other = next(card for card in dealt.stock if card != true)
    hands = list(dealt.hands)
    hands[seat] = (*hands[seat][:2], other, *hands[seat][3:])
    bad = forged(events, CardsDealt, lambda e: dataclasses.replace(e, hands=tuple(hands)))
    deal, _ = audit(tag, config, hand_no, bad)
    assert any(d.startswith(f"CardsDealt: seat {seat}'s card 3 is {other}, the deck deals {true}") for d in deal), deal


def test_fd_7_a_forged_drawn_card_is_named() -> None:
    """FD-7: a replacement that is not the stock's next card is named, with where the stock's came from."""
    tag, config, hand_no, events = find(lambda config, events: any(drawn.count for drawn in of(events, CardsDrawn)))
    which, drawn = next((i, drawn) for i, drawn in enumerate(of(events, CardsDrawn)) if drawn.count)
    dealt = of(events, CardsDealt)[0]
    stranger = next(card for card in dealt.hands[drawn.seat] if card not in drawn.received)
    received = (stranger, *drawn.received[1:])
    bad = forged(events, CardsDrawn, lambda e: dataclasses.replace(e, received=received), which)
    deal, _ = audit(tag, config, hand_no, bad)
    prefix = f"CardsDrawn (draw {drawn.draw}): seat {drawn.seat}'s replacement 1 is {stranger}, the stock gives"
    assert any(d.startswith(prefix) and drawn.received[0] in d for d in deal), deal


def test_fd_8_cm_18_a_forged_reshuffle_is_named() -> None:
    """FD-8, CM-18: a reshuffled stock in another order is named by the outcome audit (the seed's
    ``reshuffle-N`` shuffle gives another) and by the deal audit once a card drawn from it differs;
    reshuffling cards that were not discarded is named too."""
    tag, config, hand_no, events = find(lambda config, events: bool(of(events, StockReshuffled)))
    shuffle = of(events, StockReshuffled)[0]
    reordered = (*shuffle.stock[1:], shuffle.stock[0])
    bad = forged(events, StockReshuffled, lambda e: dataclasses.replace(e, stock=reordered))
    deal, outcome = audit(tag, config, hand_no, bad)
    assert any(d.startswith(f"StockReshuffled {shuffle.number}: the new stock is") for d in outcome), outcome
    assert any("(FD-8, CM-18)" in d for d in outcome)
    assert audit(tag, config, hand_no, events) == ([], [])
    held = of(events, CardsDealt)[0].hands
    live = next(card for cards in held for card in cards if card not in shuffle.cards)
    extra = (*shuffle.cards[:-1], live)
    bad = forged(events, StockReshuffled, lambda e: dataclasses.replace(e, cards=extra))
    deal, _ = audit(tag, config, hand_no, bad)
    assert any(d.startswith(f"StockReshuffled {shuffle.number}: reshuffles") and "(FD-8)" in d for d in deal), deal


def test_fd_10_fd_11_a_forged_pot_share_is_named() -> None:
    """FD-9..FD-11: chips of a pot moved from the seat that won them to another are named."""
    tag, config, hand_no, events = find(
        lambda config, events: bool(of(events, ShowdownHeld)) and len(of(events, PotsAwarded)[0].pots) > 1
    )
    awarded = of(events, PotsAwarded)[0]
    share = next(share for share in awarded.shares if len(awarded.pots[share.pot][1]) > 1)
    i = awarded.shares.index(share)
    thief = next(seat for seat in awarded.pots[share.pot][1] if seat != share.seat)
    shares = (*awarded.shares[:i], dataclasses.replace(share, seat=thief), *awarded.shares[i + 1 :])
    bad = forged(events, PotsAwarded, lambda e: dataclasses.replace(e, shares=shares))
    _, outcome = audit(tag, config, hand_no, bad)
    name = "the main pot" if share.pot == 0 else f"side pot {share.pot}"
    assert any(d.startswith("PotsAwarded: ") and name in d and f"seat {thief}" in d for d in outcome), outcome
    pots = ((awarded.pots[0][0] + 1, awarded.pots[0][1]), *awarded.pots[1:])
    bad = forged(events, PotsAwarded, lambda e: dataclasses.replace(e, pots=pots))
    _, outcome = audit(tag, config, hand_no, bad)
    assert any(d.startswith(f"PotsAwarded: the main pot is {pots[0][0]} chips") for d in outcome), outcome


def test_fd_17_a_forged_half_is_named() -> None:
    """FD-17: the low half of a high-low pot recorded as the high half is named."""
    tag, config, hand_no, events = find(
        lambda config, events: any(s.half == "low" for a in of(events, PotsAwarded) for s in a.shares)
    )
    awarded = of(events, PotsAwarded)[0]
    i = next(i for i, share in enumerate(awarded.shares) if share.half == "low")
    shares = list(awarded.shares)
    shares[i] = dataclasses.replace(shares[i], half="high")
    bad = forged(events, PotsAwarded, lambda e: dataclasses.replace(e, shares=tuple(shares)))
    _, outcome = audit(tag, config, hand_no, bad)
    assert any(d.startswith("PotsAwarded: the low half of") for d in outcome), outcome


def test_fd_9_a_forged_shown_value_or_category_is_named() -> None:
    """FD-9, FD-14, CM-11..CM-17: a shown hand's value, category or shown cards changed are named."""
    for variant in ("standard", "triple_draw_27"):
        tag, config, hand_no, events = find(
            lambda config, events, variant=variant: config["variant"] == variant and bool(of(events, ShowdownHeld))
        )
        held = of(events, ShowdownHeld)[0]
        first = held.hands[0]
        if variant == "standard":
            changed = dataclasses.replace(first, high=(first.high or 0) + 1, category="five_of_a_kind")
        else:
            changed = dataclasses.replace(first, low=(first.low or 0) + 1)
        bad = forged(
            events, ShowdownHeld, lambda e, changed=changed: dataclasses.replace(e, hands=(changed, *e.hands[1:]))
        )
        _, outcome = audit(tag, config, hand_no, bad)
        value = "high value" if variant == "standard" else "low value"
        assert any(d.startswith(f"ShowdownHeld: seat {first.seat}'s") and value in d for d in outcome), outcome
        other = dataclasses.replace(first, cards=held.hands[1].cards)
        bad = forged(events, ShowdownHeld, lambda e, other=other: dataclasses.replace(e, hands=(other, *e.hands[1:])))
        deal, _ = audit(tag, config, hand_no, bad)
        assert any(d.startswith(f"ShowdownHeld: seat {first.seat} shows") for d in deal), deal


def test_fd_6_an_opener_without_jacks_or_better_and_a_forged_pass_are_named() -> None:
    """FD-6: the first bet needs jacks or better in the opener's dealt hand; a hand nobody opened
    is passed, and one somebody opened is not."""

    def opened(config: dict[str, Any], events: list[Any]) -> bool:
        return config["opening"] == "jacks_or_better" and any(e.to > 0 for e in of(events, PlayerActed))

    tag, config, hand_no, events = find(opened)
    opener = next(e for e in of(events, PlayerActed) if e.to > 0)
    dealt = of(events, CardsDealt)[0]
    weak = ("2c", "4d", "7h", "9s", "Kc")
    assert not has_openers(weak, config["wild"])
    hands = list(dealt.hands)
    hands[opener.seat] = weak
    bad = forged(events, CardsDealt, lambda e: dataclasses.replace(e, hands=tuple(hands)))
    _, outcome = audit(tag, config, hand_no, bad)
    assert any(d.startswith(f"PlayerActed: seat {opener.seat} opens") and "(FD-6)" in d for d in outcome), outcome
    tag, config, hand_no, events = find(lambda config, events: bool(of(events, HandPassed)))
    unpassed = [event for event in events if not isinstance(event, HandPassed)]
    _, outcome = audit(tag, config, hand_no, unpassed)
    assert "HandPassed: nobody opened, yet the hand was not passed (FD-6)" in outcome


def test_fd_6_a_passed_pot_goes_back_when_the_table_ends() -> None:
    """FD-6, FD-10: a table ended after a passed hand gives its pot back to that hand's players,
    equally, odd chips from the button's left; a share moved to another seat is named."""
    config = DECIDER.configure(3, {})
    _, log = play(3, {}, seed=0, max_hands=1, player=lambda state, seat, rng: {"type": "check", "seat": seat})
    hands, _ = split_hands(config, log)
    hand_no, events = max(hands.items())
    assert of(events, HandPassed) and of(events, PotsAwarded)
    assert audit("play-0", config, hand_no, events) == ([], [])
    returned = of(events, PotsAwarded)[0]
    first, second, *rest = returned.shares
    moved = (dataclasses.replace(first, chips=first.chips + 1), dataclasses.replace(second, chips=second.chips - 1))
    bad = forged(events, PotsAwarded, lambda e: dataclasses.replace(e, shares=(*moved, *rest)))
    _, outcome = audit("play-0", config, hand_no, bad)
    assert any(d.startswith("PotsAwarded: the passed pot of") and "FD-6 and FD-10" in d for d in outcome), outcome


def test_cm_19_a_forged_first_dealer_is_named() -> None:
    """CM-19 (FD-1): the first-dealer draw is re-drawn from hand 1's stream."""
    tag, config, hands = playouts()[0]
    drawn = of(hands[1], FirstDealerDrawn)[0]
    other = (drawn.dealer + 1) % config["seats"]
    bad = forged(hands[1], FirstDealerDrawn, lambda e: dataclasses.replace(e, dealer=other))
    _, outcome = audit(tag, config, 1, bad)
    assert f"FirstDealerDrawn: seat {other} deals, the seed makes seat {drawn.dealer} (CM-19)" in outcome


def test_fd_11_showdown_lists_the_side_pots_each_hand_took() -> None:
    """FD-9, FD-11: a shown hand lists every pot it took, side pots by name, and its outcome."""
    found = 0
    for _, config, _, events in every_hand():
        awarded = of(events, PotsAwarded)
        listed = AUDIT.showdown(config, events)
        if not of(events, ShowdownHeld):
            assert listed == []
            continue
        for entry in listed:
            mine = [s for s in awarded[0].shares if s.seat == entry["seat"]]
            assert entry["won"] == sum(s.chips for s in mine)
            assert [(p["pot"], p["half"], p["chips"]) for p in entry["pots"]] == [
                (s.pot, s.half, s.chips) for s in mine
            ]
            assert entry["outcome"] in ("wins", "splits", "returned", "loses")
            assert (entry["outcome"] == "loses") == (entry["won"] == 0)  # never loses beside a positive won
            if entry["outcome"] == "returned":
                assert all(taken["uncontested"] for taken in entry["pots"])
            for taken in entry["pots"]:
                if taken["pot"] > 0 and not taken["uncontested"]:
                    found += 1
                    assert taken["name"] == f"side pot {taken['pot']}"
                    assert f"side pot {taken['pot']}" in entry["description"]
    assert found, "no side pot was won at a showdown"


def test_fd_10_a_tie_splits_the_pot_with_the_odd_chip_from_the_dealers_left(monkeypatch: pytest.MonkeyPatch) -> None:
    """FD-10: two hands of the same ranks split the pot, the odd chip to the first from the dealer's
    left; the showdown lists both as ``splits`` with the tie-break step. The deck is hand-built: the
    deal's shuffle (purpose ``deck``) is replaced, every other shuffle is the seed's."""
    dealer = fairness.first_dealer(pack("none"), [0, 1, 2], hand_seed("tie", 1), TABLE_ID, "").dealer
    order = turn_order(left_of(dealer, 3), 3, (0, 1, 2))
    first, loser, last = order
    hands = {
        first: ("Ah", "Kd", "9c", "7s", "4h"),
        loser: ("Qs", "Jd", "8c", "6h", "3s"),
        last: ("As", "Kc", "9d", "7h", "4c"),
    }
    dealt = [hands[seat][j] for j in range(5) for seat in order]
    deck = dealt + [card for card in pack("none") if card not in dealt]
    shuffled = fairness.shuffled
    monkeypatch.setattr(fairness, "shuffled", lambda *args: deck if args[-1] == "deck" else shuffled(*args))
    config = DECIDER.configure(3, {"opening": "anything_opens"})
    state: State = DECIDER.initial_state(config)
    log: list[Any] = []
    commands = [
        {"type": "start"},
        {"type": "check", "seat": first},
        {"type": "bet", "seat": loser, "amount": 2},
        {"type": "call", "seat": last},
        {"type": "call", "seat": first},
        *({"type": "draw", "seat": seat, "discard": []} for seat in order),
        *({"type": "check", "seat": seat} for seat in order),
    ]
    for command in commands:
        for event in DECIDER.decide(state, command, context(state, "tie", {0: 50, 1: 50, 2: 50})):
            state = DECIDER.evolve(state, event)
            log.append(event)
    hand = split_hands(config, log)[0][1]
    awarded = of(hand, PotsAwarded)[0]
    assert sorted((s.seat, s.chips) for s in awarded.shares) == sorted([(first, 5), (last, 4)])  # 9 chips
    assert AUDIT.audit_deal(config, deck, hand) == []
    assert AUDIT.audit_outcome(config, hand, streams_of("tie", 1)) == []
    listed = {entry["seat"]: entry for entry in AUDIT.showdown(config, hand)}
    assert listed[first]["outcome"] == listed[last]["outcome"] == "splits" and listed[loser]["outcome"] == "loses"
    (tie,) = listed[first]["tie_break"]
    assert tie == listed[last]["tie_break"][0] and listed[loser]["tie_break"] == []
    assert tie["rule"] == "FD-10" and tie["seats"] == [first, last] and "odd chips" in tie["sentence"]


def test_fd_19_every_event_type_has_a_line_in_words_showing_every_card() -> None:
    """The history names every event in words; the hand is over, so it shows what FD-19 kept
    secret during it: every hand dealt, the discards and the replacements."""
    lines: dict[str, list[str]] = {}
    for _, _, _, events in every_hand():
        for event in events:
            line = AUDIT.history_line(event, "alice", NAMES)
            assert line, event
            # In words: no field=value, no dict or list shown as data, players by name.
            assert "=" not in line and "{'" not in line and "[" not in line and "seat " not in line, line
            lines.setdefault(type(event).__name__, []).append(line)
    # The playouts never sit out, sit in or leave: test_draw_presence checks those lines (CM-20);
    # nor top up: test_draw_top_up checks its line (FD-13); nor wait for a person (CM-21), whose
    # lines are checked here.
    presence_events = {kind.__name__ for kind in presence.EVENT_TYPES}
    waits = {kind.__name__ for kind in between_hands.EVENT_TYPES}
    missing = (
        {kind.__name__ for kind in EVENT_TYPES}
        - set(lines)
        - {"LeaveRequested", "ChipsToppedUp"}
        - presence_events
        - waits
    )
    assert not missing, missing
    assert "waits for a player" in AUDIT.history_line(between_hands.DealPostponed(), "system", NAMES)
    assert "as if its owner had ended it" in AUDIT.history_line(between_hands.IdleEnded(), "system", NAMES)
    assert AUDIT.history_line(object(), "x", NAMES) is None
    assert any(line.startswith("alice raises to ") for line in lines["PlayerActed"])
    assert any(line.startswith("alice draws ") and "discards" in line for line in lines["CardsDrawn"])
    assert any(": " in line and " shows " in line for line in lines["ShowdownHeld"])
    assert any(line.endswith("unshown.") and "wins the main pot (" in line for line in lines["PotsAwarded"])
    assert AUDIT.history_line(LeaveRequested(2), "bob", NAMES) == (
        "carol asks to leave: their chips are cashed out when the hand is over."
    )


def steady(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    """A random player that folds seldom, to reach showdowns, and never goes all-in for less than a
    full raise: PokerKit counts such an all-in towards fixed limit's cap of a bet and three raises,
    where FD-4 (``games.rules.betting``) counts full bets and raises only, so a hand with one may not
    replay there."""
    hand = state.hand
    assert hand is not None
    if hand.round is None:
        return random_action(state, seat, rng)
    legal = DECIDER.legal_actions(state, seat)
    full = min((option["min"] for option in legal if option["type"] in ("bet", "raise")), default=None)
    bet = hand.round.current_bet
    calm = [o for o in legal if not (o["type"] == "all_in" and bet < o["amount"] < (full or o["amount"] + 1))]
    staying = [option for option in calm if option["type"] != "fold"]
    option = rng.choice(staying if staying and rng.random() < 0.85 else calm)
    if option["type"] in ("bet", "raise"):
        return {"type": option["type"], "amount": option["min"], "seat": seat}
    return {"type": option["type"], "seat": seat}


@pytest.mark.parametrize("seats,options", [(2, {}), (4, {"forced_bets": "ante", "ante_amount": 2}), (8, {})])
def test_phh_of_triple_draw_reads_back_and_replays_in_pokerkit(seats: int, options: dict[str, Any]) -> None:
    """PHH (``F2L3D``) of fixed-limit triple draw: PokerKit's ``HandHistory.loads`` reads every hand,
    and replaying it through PokerKit ends with the stacks our engine ends with (FD-8's reshuffles
    included: PokerKit deals from the mucked cards)."""
    options = {"variant": "triple_draw_27", "betting": "fixed_limit", **options}
    config = DECIDER.configure(seats, options)
    _, log = play(seats, options, seed=seats, max_hands=10, buy_ins=[30 + 20 * s for s in range(seats)], player=steady)
    hands, after = split_hands(config, log)
    names = [f"player{seat}" for seat in range(seats)]
    for hand_no, events in hands.items():
        text = AUDIT.phh(config, events, names)
        assert text is not None
        history = HandHistory.loads(text)
        started = of(events, HandStarted)[0]
        assert history.variant == "F2L3D" and history.hand == hand_no
        assert history.players == [names[seat] for seat in started.players]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # folds with nothing to call; cards from PokerKit's reserve
            states = list(history)
        ours = [after[hand_no][seat] for seat in started.players]
        assert list(states[-1].stacks) == ours == history.finishing_stacks, (hand_no, text)


def test_phh_only_for_the_variant_it_names() -> None:
    """PHH names fixed-limit deuce-to-seven triple draw (F2L3D); five-card draw high, high-low and
    no-limit triple draw have no PHH code: ``None``."""
    for _, config, _, events in every_hand():
        text = AUDIT.phh(config, events, [f"p{seat}" for seat in range(config["seats"])])
        named = config["variant"] == "triple_draw_27" and config["betting"] == "fixed_limit"
        assert (text is not None) == named, config
        if text is not None:
            assert HandHistory.loads(text).variant == "F2L3D"


def test_fd_14_triple_draw_has_no_opening_requirement() -> None:
    """FD-14, FD-18: triple draw with antes opens with anything; jacks or better is refused."""
    assert DECIDER.configure(3, {"variant": "triple_draw_27", "forced_bets": "ante"})["opening"] == "anything_opens"
    with pytest.raises(InvalidOptions, match="no opening requirement"):
        DECIDER.configure(3, {"variant": "triple_draw_27", "forced_bets": "ante", "opening": "jacks_or_better"})


def test_cm_11_fd_15_showdown_categories_keep_their_code_and_gain_words() -> None:
    """CM-11, FD-15: a shown hand's ``category`` stays the machine code and ``category_name`` says
    it in words; the description is a sentence (a ``T`` message) that says what each wild card held
    stands for (CM-14)."""
    wild_seen = 0
    for _, config, _, events in every_hand():
        wild = cards.WILD_CARDS[config.get("wild", "none")]
        for entry in AUDIT.showdown(config, events):
            assert entry["category"] in hands.CATEGORIES
            assert entry["category_name"] == entry["category"].replace("_", " ")
            assert entry["category_name"].msgid and entry["description"].msgid
            assert "=" not in entry["description"] and "[" not in entry["description"]
            held = sorted(card for card in entry["cards"] if card in wild)
            if held and entry["category"] != "high_card" and not config.get("high_low"):
                wild_seen += 1
                said = str(entry["description"])
                assert " stand" in said and all(str(card_name(card)) in said or "joker" in said for card in held), said
            if "low_category" in entry:
                assert entry["low_category_name"] == entry["low_category"].replace("_", " ")
    assert wild_seen, "no wild card was shown at a showdown"
