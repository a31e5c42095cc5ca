"""Poker hands in players' words (CM-11, CM-14): a category's name, a made hand described rank by
rank, and what each wild card stands for, worked out again from the hand's value (the evaluator in
``games.engine.hands`` keeps values only, for speed)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from games.engine.card_names import and_list, card_name, rank_name, rank_plural, suit_name
from games.engine.cards import JOKERS, RANK_VALUE, RANKS
from games.engine.hands import (
    _WINDOWS,
    ACE,
    CATEGORIES,
    CATEGORY_SHIFT,
    EXTRA_SHIFT,
    FIVE_OF_A_KIND,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    PAIR,
    ROYAL_FLUSH,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    ranks_of,
)
from games.engine.words import T, Text

NO_WILD: frozenset[str] = frozenset()

CATEGORY_NAMES: tuple[Text, ...] = (
    T("high card"),
    T("pair"),
    T("two pair"),
    T("three of a kind"),
    T("straight"),
    T("flush"),
    T("full house"),
    T("four of a kind"),
    T("straight flush"),
    T("royal flush"),
    T("five of a kind"),
)
"""Each category in words, in the order of :data:`CATEGORIES` (CM-11)."""

_SUIT_BITS = {1: "c", 2: "d", 3: "h", 4: "s"}  # a flush's suit under LV-12, as encoded


def category_name(code: str) -> Text:
    """A category code (``"full_house"``) in words: "full house" (CM-11)."""
    return CATEGORY_NAMES[CATEGORIES.index(code)]


def _kickers(hand: Text, ranks: Sequence[int]) -> Text:
    if not ranks:
        return hand
    if len(ranks) == 1:
        return T("{hand}, {rank} kicker", hand=hand, rank=rank_name(ranks[0]))
    return T("{hand}, kickers {ranks}", hand=hand, ranks=[rank_name(rank) for rank in ranks])


def _made(value: int) -> Text:
    """What a value makes, in words, without its wild cards (CM-11, CM-13)."""
    kind = value >> CATEGORY_SHIFT
    ranks = ranks_of(value)
    if kind == FIVE_OF_A_KIND:
        return T("five of a kind, {ranks}", ranks=rank_plural(ranks[0]))
    if kind == ROYAL_FLUSH:
        return T("royal flush")
    if kind == STRAIGHT_FLUSH:
        return T("straight flush, {rank} high", rank=rank_name(ranks[0]))
    if kind == FOUR_OF_A_KIND:
        return _kickers(T("four of a kind, {ranks}", ranks=rank_plural(ranks[0])), ranks[1:])
    if kind == FULL_HOUSE:
        return T("full house, {high} full of {low}", high=rank_plural(ranks[0]), low=rank_plural(ranks[1]))
    if kind == FLUSH:
        names = [rank_name(rank) for rank in ranks]
        suit = _SUIT_BITS.get((value >> EXTRA_SHIFT) & 15)
        if suit:
            return T(
                "flush in {suit}, {a}-{b}-{c}-{d}-{e}",
                suit=suit_name(suit),
                a=names[0],
                b=names[1],
                c=names[2],
                d=names[3],
                e=names[4],
            )
        return T("flush, {a}-{b}-{c}-{d}-{e}", a=names[0], b=names[1], c=names[2], d=names[3], e=names[4])
    if kind == STRAIGHT:
        return T("straight, {rank} high", rank=rank_name(ranks[0]))
    if kind == THREE_OF_A_KIND:
        return _kickers(T("three of a kind, {ranks}", ranks=rank_plural(ranks[0])), ranks[1:])
    if kind == TWO_PAIR:
        pairs = T("two pair, {high} and {low}", high=rank_plural(ranks[0]), low=rank_plural(ranks[1]))
        return _kickers(pairs, ranks[2:])
    if kind == PAIR:
        return _kickers(T("pair of {ranks}", ranks=rank_plural(ranks[0])), ranks[1:])
    return T("high card {rank}, then {rest}", rank=rank_name(ranks[0]), rest=[rank_name(rank) for rank in ranks[1:]])


def _made_ranks(value: int) -> list[int]:
    """The five ranks a value's hand is made of (2..14), which the wild cards complete."""
    kind = value >> CATEGORY_SHIFT
    ranks = list(ranks_of(value))
    if kind == FIVE_OF_A_KIND:
        return ranks[:1] * 5
    if kind == ROYAL_FLUSH:
        return [10, 11, 12, 13, ACE]
    if kind in (STRAIGHT_FLUSH, STRAIGHT):
        return sorted(_WINDOWS[ranks[0]])
    if kind == FOUR_OF_A_KIND:
        return ranks[:1] * 4 + ranks[1:]
    if kind == FULL_HOUSE:
        return ranks[:1] * 3 + ranks[1:2] * 2
    if kind == THREE_OF_A_KIND:
        return ranks[:1] * 3 + ranks[1:]
    if kind == TWO_PAIR:
        return ranks[:1] * 2 + ranks[1:2] * 2 + ranks[2:]
    if kind == PAIR:
        return ranks[:1] * 2 + ranks[1:]
    return ranks


def wild_substitutes(value: int, cards: Sequence[str], wild: Collection[str]) -> tuple[tuple[str, str], ...]:
    """What each wild card of ``cards`` stands for in the hand ``value`` is worth (CM-14), as
    ``(wild card, card it stands for)`` in the hand's order; empty when the hand has no wild card.

    The evaluator keeps only values, so the substitution is found again from the value: the five
    ranks the value's hand is made of, less the natural cards' ranks, are the wild cards' ranks. A
    wild card of the wild rank that may stand for itself does; in a flush every wild takes the
    flush's suit (a copy of a card in the hand if need be, CM-14); otherwise a suit the hand does
    not hold yet, spades first.
    """
    wilds = [card for card in cards if card in wild or card in JOKERS]
    if not wilds:
        return ()
    naturals = [card for card in cards if card not in wilds]
    needed = Counter(_made_ranks(value))
    needed.subtract(RANK_VALUE[card[0]] for card in naturals)
    if any(count < 0 for count in needed.values()) or sum(needed.values()) != len(wilds):
        return ()  # a value that is not this hand's: nothing to say about its wild cards
    flush_like = value >> CATEGORY_SHIFT in (FLUSH, STRAIGHT_FLUSH, ROYAL_FLUSH)
    flush_suit = naturals[0][1] if naturals else "s"
    taken = set(naturals)
    chosen: dict[str, str] = {}
    for card in wilds:  # a wild card of the wild rank stands for itself where it can
        own = RANK_VALUE.get(card[0], 0)
        if card not in JOKERS and needed[own] > 0 and (not flush_like or card[1] == flush_suit):
            chosen[card] = card
            needed[own] -= 1
            taken.add(card)
    ranks = sorted(needed.elements(), reverse=True)
    for card in (card for card in wilds if card not in chosen):
        rank = RANKS[ranks.pop(0) - 2]
        if flush_like:
            stands = rank + flush_suit
        else:
            stands = next((rank + suit for suit in "shdc" if rank + suit not in taken), rank + "s")
        chosen[card] = stands
        taken.add(stands)
    return tuple((card, chosen[card]) for card in wilds)


def describe(value: int, cards: Sequence[str] = (), wild: Collection[str] = NO_WILD) -> Text:
    """A high value in words (CM-11, CM-13): "two pair, kings and nines, ace kicker". Given the
    hand's ``cards`` and the deal's ``wild`` cards, it also says what each wild card stands for
    (CM-14): "full house, kings full of fives: the joker stands for the king of spades"."""
    made = _made(value)
    substitutes = wild_substitutes(value, cards, wild) if cards else ()
    if not substitutes:
        return made
    both_jokers = sum(1 for card, _ in substitutes if card in JOKERS) == 2
    jokers_named = 0
    seen = set(cards)
    themselves = [card_name(card) for card, stands in substitutes if stands == card]
    clauses = []
    if len(themselves) == 1:
        clauses.append(T("{wild} stands for itself", wild=themselves[0]))
    elif themselves:
        clauses.append(T("{wilds} stand for themselves", wilds=and_list(themselves)))
    for card, stands in substitutes:
        if stands == card:
            continue
        name = card_name(card)
        if card in JOKERS and both_jokers:
            name = T("one joker") if jokers_named == 0 else T("the other joker")
            jokers_named += 1
        if stands in seen:
            rank, suit = rank_name(stands[0]), suit_name(stands[1])
            clauses.append(T("{wild} stands for a second {rank} of {suit}", wild=name, rank=rank, suit=suit))
        else:
            clauses.append(T("{wild} stands for {card}", wild=name, card=card_name(stands)))
        seen.add(stands)
    return T("{hand}: {wilds}", hand=made, wilds=_in_order(clauses))


def _in_order(clauses: Sequence[Text]) -> Text:
    """Clauses said one after another: "a, b and c" for up to two, semicolons beyond, since the
    clauses hold commas of their own."""
    if len(clauses) <= 2:
        return and_list(clauses)
    said = clauses[0]
    for clause in clauses[1:]:
        said = T("{before}; {after}", before=said, after=clause)
    return said
