"""A Euchre bot that sees only its view.

Bidding scores the hand in the proposed trump (bowers, trump count, off-suit aces, voids, and who
gets the turned card); it orders, names or goes alone past fixed thresholds. Play samples the
cards it cannot see, consistently with what the table has shown (the turned card's whereabouts,
the hand sizes, the suits a player failed to follow), plays the rest of the hand out with a
simple policy for every candidate card on the same samples, and keeps the card that scores best
for its side most often.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine import presence
from games.rules.euchre.cards import DECK, SUIT_ORDER, effective_suit, low_key, rank_in_suit

SAMPLES = 16
TRUMP_VALUES = {21: 3.0, 20: 2.6, 14: 2.0, 13: 1.7, 12: 1.5, 10: 1.3, 9: 1.2}
ORDER_AT = 6.2
ALONE_AT = 11.0
CUTTHROAT_EXTRA = 1.8


# --- bidding ------------------------------------------------------------------------------------


def hand_strength(hand: list[str], trump: str) -> float:
    """How many points of strength ``hand`` holds with ``trump`` as trump."""
    strength = 0.0
    trumps = 0
    suits = set()
    for card in hand:
        suit = effective_suit(card, trump)
        suits.add(suit)
        if suit == trump:
            trumps += 1
            strength += TRUMP_VALUES[rank_in_suit(card, trump)]
        elif card[0] == "A":
            strength += 1.0
        elif card[0] == "K":
            strength += 0.3
    if trumps >= 2:
        strength += 0.5 * sum(1 for suit in SUIT_ORDER if suit != trump and suit not in suits)
    return strength


def _best_discard(hand: list[str], trump: str | None) -> str:
    """Keep trumps and aces; shed a low card, preferably one that leaves a void."""

    def cost(card: str) -> tuple[float, ...]:
        suit = effective_suit(card, trump)
        if suit == trump:
            return (3.0, rank_in_suit(card, trump))
        if card[0] == "A":
            return (2.0, 0)
        same = sum(1 for other in hand if effective_suit(other, trump) == suit)
        return (1.0 if same > 1 else 0.5, rank_in_suit(card, trump))

    return min(hand, key=cost)


def _strength_for(view: dict[str, Any], hand: list[str], trump: str, first_round: bool) -> float:
    seat, dealer = view["seat"], view["dealer"]
    turned = view["turned_card"]
    if not first_round:
        return hand_strength(hand, trump)
    if seat == dealer:
        with_turned = [*hand, turned]
        with_turned.remove(_best_discard(with_turned, trump))
        return hand_strength(with_turned, trump)
    gift = TRUMP_VALUES[rank_in_suit(turned, trump)] * 0.6
    partnered = not view["cutthroat"] and (dealer - seat) % 4 == 2
    return hand_strength(hand, trump) + (gift if partnered else -gift)


def _bid(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    hand = view["hand"]
    threshold = ORDER_AT + (CUTTHROAT_EXTRA if view["cutthroat"] else 0.0)
    options: list[tuple[float, dict[str, Any]]] = []
    for action in legal:
        if action["type"] in ("order_up", "pick_up"):
            options.append((_strength_for(view, hand, view["turned_card"][1], True), action))
        elif action["type"] == "name_trump":
            options.append((_strength_for(view, hand, action["suit"], False), action))
        elif action["type"] == "call_no_trump":
            aces = sum(1 for card in hand if card[0] == "A")
            options.append((2.2 * aces + 0.6 * sum(1 for card in hand if card[0] == "K"), action))
    if not options:
        return legal[0]
    strength, best = max(options, key=lambda item: (item[0], not item[1].get("alone", False)))
    wants_alone = strength >= ALONE_AT
    matching = [
        action
        for value, action in options
        if value == strength and action.get("alone", False) == wants_alone and action.get("suit") == best.get("suit")
    ]
    choice = matching[0] if matching else best
    passing = {"type": "pass"} in legal
    return choice if strength >= threshold or not passing else {"type": "pass"}


def _claim(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    if {"type": "ace_no_face"} in legal:
        return {"type": "ace_no_face"}
    swaps = [action for action in legal if action["type"] == "farmers_swap"]
    if swaps:
        # Give the three lowest cards: the unseen kitty cards are better on average.
        return min(swaps, key=lambda action: sum(rank_in_suit(card, None) for card in action["cards"]))
    return {"type": "keep_hand"}


# --- play ---------------------------------------------------------------------------------------


def _voids(view: dict[str, Any], trump: str | None) -> dict[int, set[str]]:
    """The suits each seat has shown it lacks by not following (EU-10)."""
    voids: dict[int, set[str]] = {}
    tricks = [trick["plays"] for trick in view["tricks"]]
    if view["trick"]:
        tricks.append(view["trick"])
    for plays in tricks:
        led = effective_suit(plays[0]["card"], trump)
        for play in plays[1:]:
            if effective_suit(play["card"], trump) != led:
                voids.setdefault(play["seat"], set()).add(led)
    return voids


def _sample_hands(
    view: dict[str, Any], trump: str | None, voids: dict[int, set[str]], rng: random.Random
) -> dict[int, list[str]] | None:
    """One deal of the unseen cards to the other players in the hand, or ``None`` if none fits."""
    me = view["seat"]
    seen = set(view["hand"]) | {p["card"] for t in view["tricks"] for p in t["plays"]}
    seen |= {p["card"] for p in view["trick"]}
    hands: dict[int, list[str]] = {}
    sizes = view["hand_sizes"]
    dealer, turned = view["dealer"], view["turned_card"]
    others = [s for s in range(view["seats"]) if s != me and s != view["sitting_out"]]
    for seat in others:
        hands[seat] = []
    if turned not in seen:
        seen.add(turned)
        # A picked-up card stays with the dealer until played (a dealer rarely discards it).
        if view["picked_up"] and dealer in hands:
            hands[dealer].append(turned)
    unseen = [card for card in DECK if card not in seen]
    rng.shuffle(unseen)
    for seat in sorted(others, key=lambda s: -len(voids.get(s, ()))):
        lacking = voids.get(seat, set())
        need = sizes[seat] - len(hands[seat])
        for card in list(unseen):
            if need == 0:
                break
            if effective_suit(card, trump) not in lacking:
                hands[seat].append(card)
                unseen.remove(card)
                need -= 1
        if need:
            return None
    return hands


def _points(tricks_won: dict[int, int], makers: tuple[int, ...], lone: bool, side: set[int]) -> int:
    maker_tricks = sum(tricks_won.get(s, 0) for s in makers)
    makers_side = bool(side & set(makers))
    if maker_tricks >= 3:
        value = (4 if lone else 2) if maker_tricks == 5 else 1
        return value if makers_side else -value
    return -2 if makers_side else 2


def _rollout(
    hands: dict[int, list[str]],
    trick: list[tuple[int, str]],
    turn: int,
    table: tuple[
        list[int], dict[int, int], str | None, tuple[int, ...], dict[int, int], dict[str, str], dict[str, Any]
    ],
) -> dict[int, int]:
    """Play the hand out with a simple policy for everyone: follow low when a teammate is
    winning, win as cheaply as possible, otherwise throw the lowest card; makers lead their best
    card, defenders an off-suit ace or their lowest card. Returns the tricks won per seat."""
    order, won, trump, makers, teams, suit_of, key = table
    won = dict(won)
    n = len(order)
    position = {seat: i for i, seat in enumerate(order)}
    trick = list(trick)
    while True:
        if len(trick) == n:
            best_seat, _ = _winning(trick, trump, suit_of, key)
            won[best_seat] = won.get(best_seat, 0) + 1
            trick = []
            turn = best_seat
        hand = hands[turn]
        if not hand:
            return won
        if trick:
            led = suit_of[trick[0][1]]
            legal = [c for c in hand if suit_of[c] == led] or hand
            best_seat, best_card = _winning(trick, trump, suit_of, key)
            if teams[best_seat] == teams[turn]:
                card = min(legal, key=key.__getitem__)
            else:
                winners = [c for c in legal if _beats(c, best_card, led, trump, suit_of, key)]
                card = min(winners or legal, key=key.__getitem__)
        else:
            card = max(hand, key=key.__getitem__) if turn in makers else _lead_defending(hand, trump, suit_of, key)
        hand.remove(card)
        trick.append((turn, card))
        turn = order[(position[turn] + 1) % n]


def _winning(
    trick: list[tuple[int, str]], trump: str | None, suit_of: dict[str, str], key: dict[str, Any]
) -> tuple[int, str]:
    led = suit_of[trick[0][1]]
    best_seat, best_card = trick[0]
    for seat, card in trick[1:]:
        if _beats(card, best_card, led, trump, suit_of, key):
            best_seat, best_card = seat, card
    return best_seat, best_card


def _lead_defending(hand: list[str], trump: str | None, suit_of: dict[str, str], key: dict[str, Any]) -> str:
    aces = [c for c in hand if c[0] == "A" and suit_of[c] != trump]
    if aces:
        return aces[0]
    plain = [c for c in hand if suit_of[c] != trump]
    return min(plain or hand, key=key.__getitem__)


def _beats(
    card: str, best: str, led: str, trump: str | None, suit_of: dict[str, str], key: dict[str, tuple[int, int, int]]
) -> bool:
    suit, best_suit = suit_of[card], suit_of[best]
    if suit == best_suit:
        return key[card] > key[best]
    return suit == trump or (suit == led and best_suit != trump and best_suit != led)


def _play(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    if len(legal) == 1:
        return legal[0]
    trump = view["trump"]
    me = view["seat"]
    seats = view["seats"]
    makers = tuple(view["makers"])
    lone = view["alone"] and not view["cutthroat"]
    if view["cutthroat"]:
        teams = {s: (0 if s in makers else 1) for s in range(seats)}
    else:
        teams = {s: s % 2 for s in range(seats)}
    side = {s for s in range(seats) if teams[s] == teams[me]}
    order = [(view["dealer"] + 1 + i) % seats for i in range(seats)]
    order = sorted((s for s in order if s != view["sitting_out"]), key=lambda s: (s - me) % seats)
    won = dict(enumerate(view["tricks_won"]))
    trick = [(p["seat"], p["card"]) for p in view["trick"]]
    voids = _voids(view, trump)
    suit_of = {card: effective_suit(card, trump) for card in DECK}
    key = {card: low_key(card, trump) for card in DECK}
    table = (order, won, trump, makers, teams, suit_of, key)
    cards = [action["card"] for action in legal]
    totals = dict.fromkeys(cards, 0)
    for _ in range(SAMPLES):
        hands = _sample_hands(view, trump, voids, rng) or _sample_hands(view, trump, {}, rng)
        if hands is None:
            break
        for card in cards:
            trial = {seat: list(held) for seat, held in hands.items()}
            trial[me] = [held for held in view["hand"] if held != card]
            result = _rollout(trial, [*trick, (me, card)], order[1 % len(order)], table)
            score = _points(result, makers, lone, side)
            totals[card] += 10 * score + sum(result.get(s, 0) for s in side)
    best = max(totals.values())
    return {"type": "play", "card": min((c for c in cards if totals[c] == best), key=lambda c: low_key(c, trump))}


def choose(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The bot's action for the seat whose ``view`` this is, among the ``legal`` actions."""
    # Plain copies: the policies below index and return them as they are. Sitting out, sitting in
    # and leaving are the player's to choose, never the bot's (CM-20).
    view, legal_actions = dict(view), [dict(action) for action in legal if not presence.is_presence_action(action)]
    if not legal_actions:
        raise ValueError("The bot was asked to act with no legal action.")
    phase = view["phase"]
    if phase == "claims":
        return _claim(view, legal_actions)
    if phase == "bidding":
        return _bid(view, legal_actions)
    if phase == "discard":
        return {"type": "discard", "card": _best_discard(view["hand"], view["trump"])}
    return _play(view, legal_actions, rng)
