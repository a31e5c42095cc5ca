"""Euchre's audit hooks against seeded playouts: every hand re-dealt (EU-3), re-played (EU-8..EU-11)
and re-scored (EU-12, EU-13) agrees with its record, and a forged event is named."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import random
from collections import Counter

import pytest

from games.engine import presence
from games.engine.fairness import shuffled, streams
from games.engine.presence import LeftTable, SatIn, SatOut
from games.engine.words import Text
from games.rules.euchre import DECIDER
from games.rules.euchre.cards import DECK, effective_suit
from games.rules.euchre.events import (
    EVENT_TYPES,
    CardPlayed,
    DealerDiscarded,
    HandEnded,
    HandStarted,
    MatchStarted,
    TrickTaken,
    TrumpMade,
)
from tests.rules.playout_euchre import FAKE_TABLE_ID, hand_seed, play_match

# The seats' players, as the hand history names them.
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")

VARIANTS = [
    (4, {}),
    (4, {"stick_the_dealer": True, "no_trump": True, "deal_pattern": "3-2"}),
    (4, {"farmers_hand": True, "ace_no_face": True}),
    (3, {"cutthroat": True, "farmers_hand": True, "ace_no_face": True}),
    (4, {"cutthroat": True, "stick_the_dealer": True}),
]


def split_hands(config, log):
    """The log cut into hands as the service records them: each event belongs to the hand the
    state is in after it; the opening events (hand 0) belong to hand 1."""
    state = DECIDER.initial_state(config)
    hands: dict[int, list] = {}
    for event in log:
        state = DECIDER.evolve(state, event)
        hands.setdefault(max(state.hand_no, 1), []).append(event)
    return hands


def choose(rng, state, seat, legal):
    """A random legal action, passing most of the time so that hands are thrown in too (EU-5)."""
    passes = [action for action in legal if action["type"] == "pass"]
    return passes[0] if passes and rng.random() < 0.75 else rng.choice(legal)


@functools.cache
def playouts():
    """Seeded random matches over every variant: ``(tag, config, hands)``."""
    games = []
    for i in range(30):
        seats, options = VARIANTS[i % len(VARIANTS)]
        config = DECIDER.configure(seats, {"target_points": 4, **options})
        rng = random.Random(hashlib.sha256(f"audit{i}".encode()).digest())
        _, log = play_match(DECIDER, config, functools.partial(choose, rng), f"audit{i}")
        games.append((f"audit{i}", config, split_hands(config, log)))
    return games


def recomputed_deck(tag, hand_no):
    return shuffled(DECK, hand_seed(tag, hand_no), FAKE_TABLE_ID, hand_no, "", "deck")


def hand_streams(tag, hand_no):
    return streams(hand_seed(tag, hand_no), FAKE_TABLE_ID, hand_no, "")


def played_hand(index=0):
    """A played (not thrown-in) hand of a partnership playout: ``(tag, config, hand_no, events)``."""
    tag, config, hands = playouts()[index]
    hand_no, events = next(
        (n, events)
        for n, events in hands.items()
        if any(isinstance(e, HandEnded) and e.outcome == "played" for e in events)
    )
    return tag, config, hand_no, events


def forged(events, kind, change, which=0):
    """The events with the ``which``-th event of type ``kind`` replaced by ``change(event)``."""
    positions = [i for i, event in enumerate(events) if isinstance(event, kind)]
    copy = list(events)
    copy[positions[which]] = change(copy[positions[which]])
    return copy


def test_euchre_has_audit_hooks_but_no_phh():
    """Euchre is no poker game: audit hooks with a history in words, but no PHH export."""
    assert DECIDER.audit is not None
    assert DECIDER.audit.phh({}, [], []) is None


def test_eu_3_eu_11_eu_13_cm_19_every_hook_agrees_with_every_recorded_hand():
    """EU-3 (deal), EU-8..EU-11 (tricks), EU-12/EU-13 (points), EU-14 and CM-19 (first dealer):
    for every hand of seeded playouts in every variant, the hooks find no difference."""
    outcomes = Counter()
    for tag, config, hands in playouts():
        for hand_no, events in hands.items():
            deck = recomputed_deck(tag, hand_no)
            assert DECIDER.audit.audit_deck(config, events) == "euchre_24"
            assert DECIDER.audit.audit_deal(config, deck, events) == [], (tag, hand_no)
            assert DECIDER.audit.audit_outcome(config, events, hand_streams(tag, hand_no)) == [], (tag, hand_no)
            ended = next(e for e in events if isinstance(e, HandEnded))
            outcomes[ended.outcome] += 1
            assert len(DECIDER.audit.showdown(config, events)) == config["seats"]
    # The playouts reach played hands and hands thrown in or redealt alike.
    assert outcomes["played"] > 20 and outcomes["thrown_in"] + outcomes["redeal"] > 0, outcomes


def test_eu_13_showdown_sides_win_when_they_score():
    """EU-6, EU-13: the showdown puts each seat on its side; a side that scored ``wins``; the
    cards shown are the five it played, and the description names its tricks and the result."""
    for _, config, hands in playouts():
        for events in hands.values():
            ended = next(e for e in events if isinstance(e, HandEnded))
            if ended.outcome != "played":
                assert {entry["outcome"] for entry in DECIDER.audit.showdown(config, events)} == {"safe"}
                continue
            made = next(e for e in events if isinstance(e, TrumpMade))
            taken = Counter(e.winner for e in events if isinstance(e, TrickTaken))
            for entry in DECIDER.audit.showdown(config, events):
                seat = entry["seat"]
                assert entry["outcome"] == ("wins" if ended.points[seat] else "loses")
                if seat == made.sitting_out:
                    assert entry["category"] == "sitting out" and entry["cards"] == list(ended.hands[seat])
                    continue
                assert entry["category"] == ("makers" if seat in made.makers else "defenders")
                assert entry["cards"] == [e.card for e in events if isinstance(e, CardPlayed) and e.seat == seat]
                trick_word = "trick" if taken[seat] == 1 else "tricks"
                assert f"ook {taken[seat]} {trick_word}" in entry["description"]
                scored = "euchred" if ended.maker_tricks < 3 else "scored"
                assert scored in entry["description"]


def test_eu_11_a_forged_trick_winner_is_named():
    """EU-8/EU-11: a TrickTaken whose winner is changed is re-decided and named."""
    tag, config, hand_no, events = played_hand()
    taken = next(e for e in events if isinstance(e, TrickTaken) and e.trick_no == 2)
    other = next(seat for seat, _ in taken.plays if seat != taken.winner)
    bad = forged(events, TrickTaken, lambda e: dataclasses.replace(e, winner=other), which=1)
    differences = DECIDER.audit.audit_outcome(config, bad, hand_streams(tag, hand_no))
    assert any(
        d.startswith(f"TrickTaken (trick 2): seat {other} recorded as winner") and f"seat {taken.winner}" in d
        for d in differences
    ), differences


def test_eu_13_forged_points_are_named():
    """EU-12/EU-13: points the tricks do not earn are named in HandEnded."""
    tag, config, hand_no, events = played_hand()
    ended = next(e for e in events if isinstance(e, HandEnded))
    points = tuple(p + 1 for p in ended.points)
    bad = forged(events, HandEnded, lambda e: dataclasses.replace(e, points=points, maker_tricks=e.maker_tricks - 1))
    differences = DECIDER.audit.audit_outcome(config, bad, hand_streams(tag, hand_no))
    assert any(d.startswith(f"HandEnded: points {list(points)}, EU-13 gives {list(ended.points)}") for d in differences)
    assert any(d.startswith(f"HandEnded: the makers took {ended.maker_tricks - 1} tricks") for d in differences)


def test_eu_3_a_forged_dealt_card_is_named():
    """EU-3, CM-9: a HandStarted deck with two cards swapped is named at both positions, and so is a
    turned card the deck does not turn up."""
    tag, config, hand_no, events = played_hand()
    deck = recomputed_deck(tag, hand_no)
    swapped = (deck[1], deck[0], *deck[2:])
    bad = forged(events, HandStarted, lambda e: dataclasses.replace(e, deck=swapped, turned_card=deck[0]))
    differences = DECIDER.audit.audit_deal(config, deck, bad)
    assert f"HandStarted: deck position 0 is {deck[1]}, the seed gives {deck[0]}" in differences
    assert f"HandStarted: deck position 1 is {deck[0]}, the seed gives {deck[1]}" in differences
    assert any(d.startswith(f"HandStarted: the turned card is {deck[0]}") for d in differences)


def test_eu_3_a_card_played_that_was_not_dealt_is_named():
    """EU-3: a CardPlayed changed to a card another seat was dealt is named by the deal audit, and
    the trick's record no longer matches the plays (EU-11)."""
    tag, config, hand_no, events = played_hand()
    first = next(e for e in events if isinstance(e, CardPlayed))
    later = next(e for e in events if isinstance(e, CardPlayed) and e.seat != first.seat)
    bad = forged(events, CardPlayed, lambda e: dataclasses.replace(e, card=later.card))
    deal = DECIDER.audit.audit_deal(config, recomputed_deck(tag, hand_no), bad)
    assert any(d.startswith(f"CardPlayed: seat {first.seat} plays {later.card}, which the deal") for d in deal), deal
    outcome = DECIDER.audit.audit_outcome(config, bad, hand_streams(tag, hand_no))
    assert any(d.startswith("TrickTaken (trick 1): plays") for d in outcome), outcome


def test_eu_4_a_forged_discard_is_named():
    """EU-4: the dealer can only discard a card it holds after picking up."""
    for tag, config, hands in playouts():
        for hand_no, events in hands.items():
            discarded = next((e for e in events if isinstance(e, DealerDiscarded)), None)
            if discarded is None:
                continue
            kept = {e.card for e in events if isinstance(e, CardPlayed) and e.seat == discarded.seat}
            stranger = next(card for card in DECK if card not in kept and card != discarded.card)
            bad = forged(events, DealerDiscarded, lambda e, card=stranger: dataclasses.replace(e, card=card))
            differences = DECIDER.audit.audit_deal(config, recomputed_deck(tag, hand_no), bad)
            assert any(d.startswith(f"DealerDiscarded: seat {discarded.seat} discards {stranger}") for d in differences)
            assert any(d.startswith("HandEnded: the discard is revealed as") for d in differences)
            return
    pytest.fail("no playout hand had a discard")


def test_eu_10_a_renege_is_named():
    """EU-10: swapping a follower's card of the led suit with a later off-suit card of the same seat
    makes a renege the outcome audit names."""
    for tag, config, hands in playouts():
        for hand_no, events in hands.items():
            made = next((e for e in events if isinstance(e, TrumpMade)), None)
            tricks = [e for e in events if isinstance(e, TrickTaken)]
            if made is None or len(tricks) < 2:
                continue
            trump = made.suit
            for i, trick in enumerate(tricks[:-1]):
                led = effective_suit(trick.plays[0][1], trump)
                for seat, card in trick.plays[1:]:
                    later = [
                        c for t in tricks[i + 1 :] for s, c in t.plays if s == seat and effective_suit(c, trump) != led
                    ]
                    if effective_suit(card, trump) != led or not later:
                        continue
                    swap = {card: later[0], later[0]: card}
                    bad = [
                        dataclasses.replace(e, card=swap.get(e.card, e.card))
                        if isinstance(e, CardPlayed) and e.seat == seat
                        else e
                        for e in events
                    ]
                    differences = DECIDER.audit.audit_outcome(config, bad, hand_streams(tag, hand_no))
                    assert any(
                        d.startswith(f"CardPlayed: seat {seat} plays {later[0]} to trick {i + 1}") and "(EU-10)" in d
                        for d in differences
                    ), differences
                    return
    pytest.fail("no playout trick could be turned into a renege")


def test_cm_19_a_forged_first_dealer_is_named():
    """CM-19: hand 1's MatchStarted is re-drawn from the seed's first-dealer stream."""
    tag, config, hands = playouts()[0]
    started = next(e for e in hands[1] if isinstance(e, MatchStarted))
    other = (started.dealer + 1) % started.seats
    bad = forged(hands[1], MatchStarted, lambda e: dataclasses.replace(e, dealer=other))
    differences = DECIDER.audit.audit_outcome(config, bad, hand_streams(tag, 1))
    assert differences == [f"MatchStarted: seat {other} deals first, the seed makes seat {started.dealer} (CM-19)"]


def test_history_lines_read_as_play():
    """Every Euchre event has its own line; bids and plays read as sentences."""
    seen = set()
    for _, _, hands in playouts():
        for events in hands.values():
            for event in events:
                line = DECIDER.audit.history_line(event, "alice", NAMES)
                assert line, event
                # In words: no field=value, no dict or list shown as data, no seat numbers.
                assert "=" not in line and "{'" not in line and "[" not in line and "seat " not in line, line
                seen.add(type(event))
    assert TrickTaken in seen and HandEnded in seen
    made = TrumpMade(seat=1, round=1, suit="h", alone=False, makers=(1, 3), sitting_out=-1, dealer_picks_up=True)
    assert DECIDER.audit.history_line(made, "alice", NAMES) == "bob orders up hearts."
    named = dataclasses.replace(made, round=2, suit="s", alone=True, sitting_out=3, dealer_picks_up=False)
    assert DECIDER.audit.history_line(named, "alice", NAMES) == "bob names spades and goes alone."
    assert (
        DECIDER.audit.history_line(CardPlayed(seat=2, card="Jh"), "dealer", NAMES) == "carol plays the jack of hearts."
    )
    # The playouts reach nearly every event type; never sitting out, sitting in or leaving (CM-20,
    # whose lines test_cm_20_presence_history_lines_name_the_player checks).
    assert len(seen) >= len(EVENT_TYPES) - len(presence.EVENT_TYPES) - 4


def test_cm_20_presence_history_lines_name_the_player():
    """CM-20: sitting out, sitting in and leaving each read as a line naming the seat's player."""
    lines = [DECIDER.audit.history_line(event, "alice", NAMES) for event in (SatOut(1), SatIn(1), LeftTable(2))]
    assert lines == [
        f"{NAMES[1]} sits out; the table's bot plays for them",
        f"{NAMES[1]} sits in again",
        f"{NAMES[2]} leaves the table",
    ]
    assert all(isinstance(line, Text) for line in lines)
