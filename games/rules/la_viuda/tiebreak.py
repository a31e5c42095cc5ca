"""La Viuda's tie-break for the worst hand (LV-7), as a pure function.

Steps 1-3 look only at the tied hands. Steps 4 and 5 draw from the hand's fair stream (CM-7), so
the caller passes ``streams``: a function from a purpose (``"colour-card"``, ``"manotazo-1"``, ...)
to its :class:`~games.engine.fairness.Stream`, such as :func:`games.engine.fairness.streams`.
Every step taken is returned with a sentence a player can read (LV-13 records them).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping, Sequence

from games.engine.cards import INDEX, JOKERS, RANK_VALUE, colour, is_joker
from games.engine.fairness import Stream, shuffle

WILD_CARDS, RUN, COLOUR, COLOUR_CARD, MANOTAZO = "wild_cards", "run", "colour", "colour_card", "manotazo"

_SUIT_WORDS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
_RANK_SHOWN = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}


@dataclasses.dataclass(frozen=True, slots=True)
class TieBreakStep:
    """One step of LV-7 that was taken: which, what each hand had, who is still worst, and why.

    ``facts`` holds, per seat, what the step looked at ("2 wild cards", "run 8-9 of hearts",
    "4 red"); ``card`` is the colour card drawn in step 4; ``draws`` the cards taken in a manotazo.
    """

    step: int
    rule: str
    facts: tuple[tuple[int, str], ...]
    still_tied: tuple[int, ...]
    sentence: str
    card: str | None = None
    purpose: str | None = None
    draws: tuple[tuple[int, str], ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class TieBreak:
    """The outcome of LV-7: the seats that lose (one, unless a draw cannot separate them) and the steps."""

    losers: tuple[int, ...]
    steps: tuple[TieBreakStep, ...]


def natural_cards(cards: Sequence[str], wild: Collection[str]) -> tuple[str, ...]:
    """The cards of a hand that are not wild (LV-7 step 2 looks only at these)."""
    return tuple(card for card in cards if card not in wild and not is_joker(card))


def wild_count(cards: Sequence[str], wild: Collection[str]) -> int:
    """How many wild cards (jokers and the wild rank) a hand holds (LV-7 step 1)."""
    return sum(1 for card in cards if card in wild or is_joker(card))


def best_run(cards: Sequence[str], wild: Collection[str]) -> tuple[int, int, str | None]:
    """A hand's best run of 2+ consecutive natural cards of one suit (LV-7 step 2).

    Returns ``(length, top, suit)``; longer is better, then higher top. The ace is high, or low in
    ``A-2`` (top 2). No run at all is ``(0, 0, None)``.
    """
    best: tuple[int, int, str | None] = (0, 0, None)
    by_suit: dict[str, set[int]] = {}
    for card in natural_cards(cards, wild):
        ranks = by_suit.setdefault(card[1], set())
        ranks.add(RANK_VALUE[card[0]])
        if card[0] == "A":
            ranks.add(1)
    for suit, ranks in by_suit.items():
        for top in ranks:
            length = 0
            while top - length in ranks:
                length += 1
            if length >= 2 and (length, top) > best[:2]:
                best = (length, top, suit)
    return best


def colour_counts(cards: Sequence[str], wild: Collection[str] = ()) -> tuple[int, int]:
    """The numbers of red and black cards of a hand by their printed suit (LV-7 step 3): cards of
    the wild rank count like any other, jokers have no suit and do not count. ``wild`` is unused
    (the source counts "las cartas rojas y negras de cada mano"), kept so every step reads alike."""
    red = sum(1 for card in cards if colour(card) == "red")
    black = sum(1 for card in cards if colour(card) == "black")
    return red, black


def majority_colour(cards: Sequence[str], wild: Collection[str] = ()) -> str | None:
    """``"red"`` or ``"black"`` when one colour has more cards by printed suit, else ``None`` (LV-7 step 3)."""
    red, black = colour_counts(cards, wild)
    return "red" if red > black else "black" if black > red else None


def _seats(seats: Sequence[int]) -> str:
    names = [f"seat {seat}" for seat in seats]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return listed[0].upper() + listed[1:]


def _outcome(before: Sequence[int], after: Sequence[int]) -> str:
    if len(after) == 1:
        return f"{_seats(after)} loses."
    if len(after) == len(before):
        return f"{_seats(after)} are still tied."
    saved = [seat for seat in before if seat not in after]
    return f"{_seats(saved)} {'is' if len(saved) == 1 else 'are'} saved; {_seats(after)} are still tied."


def _run_words(run: tuple[int, int, str | None]) -> str:
    length, top, suit = run
    if not length or suit is None:
        return "no run"
    ranks = [_RANK_SHOWN.get(rank, str(rank)) for rank in range(top - length + 1, top + 1)]
    return f"run {'-'.join(ranks)} of {_SUIT_WORDS[suit]}"


def _keep_worst(
    step: int,
    rule: str,
    title: str,
    tied: Sequence[int],
    hands: Mapping[int, Sequence[str]],
    score: Callable[[Sequence[str]], tuple[int, ...]],
    fact: Callable[[Sequence[str]], str],
    worst_is_high: bool,
) -> TieBreakStep:
    scores = {seat: score(hands[seat]) for seat in tied}
    worst = max(scores.values()) if worst_is_high else min(scores.values())
    still = tuple(seat for seat in tied if scores[seat] == worst)
    facts = tuple((seat, fact(hands[seat])) for seat in tied)
    listed = "; ".join(f"seat {seat}: {text}" for seat, text in facts)
    return TieBreakStep(step, rule, facts, still, f"{title} ({listed}). {_outcome(tied, still)}")


def la_viuda_tie_break(
    tied: Sequence[tuple[int, Sequence[str]]],
    wild: Collection[str],
    turn_order: Sequence[int],
    *,
    stock: Sequence[str] = (),
    streams: Callable[[str], Stream] | None = None,
) -> TieBreak:
    """Settle a tie for the worst hand by LV-7's steps, each applied to the hands still tied.

    ``tied`` is ``(seat, cards)`` for each hand tied for worst; ``wild`` the deal's wild cards
    (jokers and the wild rank); ``turn_order`` the seats in the order they acted, first actor first
    (the manotazo deals in that order); ``stock`` the undealt cards, for the colour card; ``streams``
    gives the fair stream of a purpose, needed only if step 4 or 5 is reached.
    """
    hands = {seat: tuple(cards) for seat, cards in tied}
    order = {seat: position for position, seat in enumerate(turn_order)}
    seats = tuple(sorted(hands, key=lambda seat: order.get(seat, len(order) + seat)))
    steps: list[TieBreakStep] = []
    if len(seats) <= 1:
        return TieBreak(seats, ())

    checks = (
        (
            WILD_CARDS,
            "Step 1, wild cards: the hand with more loses",
            lambda cards: (wild_count(cards, wild),),
            lambda cards: f"{wild_count(cards, wild)} wild",
            True,
        ),
        (
            RUN,
            "Step 2, best run of one suit: the shorter or lower run loses, no run is worst",
            lambda cards: best_run(cards, wild)[:2],
            lambda cards: _run_words(best_run(cards, wild)),
            False,
        ),
        (
            COLOUR,
            "Step 3, colours: the hand whose larger colour count is smaller loses",
            lambda cards: (max(colour_counts(cards, wild)),),
            lambda cards: "{} red, {} black".format(*colour_counts(cards, wild)),
            False,
        ),
    )
    for number, (rule, title, score, fact, worst_is_high) in enumerate(checks, start=1):
        taken = _keep_worst(number, rule, title, seats, hands, score, fact, worst_is_high)
        steps.append(taken)
        seats = taken.still_tied
        if len(seats) == 1:
            return TieBreak(seats, tuple(steps))

    majorities = {seat: majority_colour(hands[seat], wild) for seat in seats}
    if len(set(majorities.values())) > 1:
        taken = _colour_card(seats, majorities, stock, _need(streams))
        steps.append(taken)
        seats = taken.still_tied
        if len(seats) == 1:
            return TieBreak(seats, tuple(steps))

    round_no = 1
    while len(seats) > 1:
        taken = _manotazo(round_no, seats, hands, _need(streams))
        steps.append(taken)
        seats = taken.still_tied
        round_no += 1
    return TieBreak(seats, tuple(steps))


def _need(streams: Callable[[str], Stream] | None) -> Callable[[str], Stream]:
    if streams is None:
        raise ValueError("this tie reaches a draw (LV-7 step 4 or 5): pass the hand's streams")
    return streams


def _colour_card(
    seats: Sequence[int], majorities: dict[int, str | None], stock: Sequence[str], streams: Callable[[str], Stream]
) -> TieBreakStep:
    """Step 4: a uniform pick among the stock's non-joker cards, taken in canonical order (CM-3)."""
    facts = tuple((seat, f"mostly {majorities[seat]}" if majorities[seat] else "no majority colour") for seat in seats)
    candidates = sorted((card for card in stock if card not in JOKERS), key=INDEX.__getitem__)
    if not candidates:
        sentence = "Step 4, colour card: the stock has no card to draw. " + _outcome(seats, seats)
        return TieBreakStep(4, COLOUR_CARD, facts, tuple(seats), sentence)
    card = candidates[streams("colour-card").uniform(len(candidates))]
    drawn = colour(card)
    still = tuple(seat for seat in seats if majorities[seat] != drawn)
    sentence = f"Step 4, colour card: {card} is drawn, {drawn}; hands mostly {drawn} are saved. " + _outcome(
        seats, still
    )
    return TieBreakStep(4, COLOUR_CARD, facts, still, sentence, card=card, purpose="colour-card")


def _manotazo(
    round_no: int, seats: Sequence[int], hands: Mapping[int, Sequence[str]], streams: Callable[[str], Stream]
) -> TieBreakStep:
    """Step 5: the tied hands' cards in canonical order, shuffled (CM-18); each seat takes one in turn."""
    purpose = f"manotazo-{round_no}"
    pile = sorted((card for seat in seats for card in hands[seat]), key=INDEX.__getitem__)
    pile = shuffle(pile, streams(purpose))
    draws = tuple(zip(seats, pile))
    strength = {seat: 15 if is_joker(card) else RANK_VALUE[card[0]] for seat, card in draws}
    lowest = min(strength.values())
    still = tuple(seat for seat in seats if strength[seat] == lowest)
    listed = ", ".join(f"seat {seat} takes {card}" for seat, card in draws)
    sentence = f"Step 5, manotazo {round_no}: {listed}; the lowest card loses. " + _outcome(seats, still)
    facts = tuple((seat, card) for seat, card in draws)
    return TieBreakStep(5, MANOTAZO, facts, still, sentence, purpose=purpose, draws=draws)
