"""La Viuda's tie-break for the worst hand (LV-7), as a pure function.

Steps 1-3 look only at the tied hands. Steps 4 and 5 draw from the hand's fair stream (CM-7), so
the caller passes ``streams``: a function from a purpose (``"colour-card"``, ``"manotazo-1"``, ...)
to its :class:`~games.engine.fairness.Stream`, such as :func:`games.engine.fairness.streams`.
Every step taken is returned as data (LV-13 records them); :func:`explain` says each in a sentence
a player reads, naming the players, when it is shown.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping, Sequence

from games.engine.card_names import and_list, card_name, colour_name, suit_name
from games.engine.cards import INDEX, JOKERS, RANK_VALUE, colour, is_joker
from games.engine.fairness import Stream, shuffle
from games.engine.words import N, T, Text

WILD_CARDS, RUN, COLOUR, COLOUR_CARD, MANOTAZO = "wild_cards", "run", "colour", "colour_card", "manotazo"

_RANK_SHOWN = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_CODE = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}


@dataclasses.dataclass(frozen=True, slots=True)
class TieBreakStep:
    """One step of LV-7 that was taken: which, what each hand had and who is still worst, as data.

    ``facts`` holds, per seat, what the step looked at, in codes: the number of wild cards (``"2"``),
    the best run's cards (``"8h 9h"``, ``""`` for none), the colour counts (``"red:3 black:2"``), the
    majority colour (``"red"``, ``"black"``, ``"none"``) or the card taken in a manotazo (``"Kd"``).
    ``card`` is the colour card drawn in step 4; ``draws`` the cards taken in a manotazo.
    ``sentence`` is the English of records made before the steps were said when shown; nothing
    shows it any more (:func:`explain` does).
    """

    step: int
    rule: str
    facts: tuple[tuple[int, str], ...]
    still_tied: tuple[int, ...]
    sentence: str = ""
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


def _run_code(run: tuple[int, int, str | None]) -> str:
    """A run as its cards' codes, lowest first: ``"8h 9h"``; no run is ``""``."""
    length, top, suit = run
    if not length or suit is None:
        return ""
    return " ".join(_RANK_CODE.get(rank, str(rank)) + suit for rank in range(top - length + 1, top + 1))


def _keep_worst(
    step: int,
    rule: str,
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
    return TieBreakStep(step, rule, facts, still)


# A counted step: its rule, a hand's score, the fact the audit shows, and whether the worst is the highest.
_CountedStep = tuple[str, Callable[[Sequence[str]], tuple[int, ...]], Callable[[Sequence[str]], str], bool]


def _counted_steps(wild: Collection[str]) -> tuple[_CountedStep, ...]:
    """LV-7's steps 1 to 3, counted from the hands alone; worst is the hand with the most wild
    cards, then the shorter (or lower) best run, then the smaller count of its majority colour."""
    return (
        (WILD_CARDS, lambda cards: (wild_count(cards, wild),), lambda cards: str(wild_count(cards, wild)), True),
        (RUN, lambda cards: best_run(cards, wild)[:2], lambda cards: _run_code(best_run(cards, wild)), False),
        (
            COLOUR,
            lambda cards: (max(colour_counts(cards)),),
            lambda cards: "red:{} black:{}".format(*colour_counts(cards)),
            False,
        ),
    )


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

    for number, (rule, score, fact, worst_is_high) in enumerate(_counted_steps(wild), start=1):
        taken = _keep_worst(number, rule, seats, hands, score, fact, worst_is_high)
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
    facts = tuple((seat, majorities[seat] or "none") for seat in seats)
    candidates = sorted((card for card in stock if card not in JOKERS), key=INDEX.__getitem__)
    if not candidates:
        return TieBreakStep(4, COLOUR_CARD, facts, tuple(seats))
    card = candidates[streams("colour-card").uniform(len(candidates))]
    drawn = colour(card)
    still = tuple(seat for seat in seats if majorities[seat] != drawn)
    return TieBreakStep(4, COLOUR_CARD, facts, still, card=card, purpose="colour-card")


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
    facts = tuple((seat, card) for seat, card in draws)
    return TieBreakStep(5, MANOTAZO, facts, still, purpose=purpose, draws=draws)


# --- the steps in words ------------------------------------------------------------------------


def explain(
    steps: Sequence[TieBreakStep], hands: Mapping[int, Sequence[str]], wild: Collection[str], names: Sequence[str]
) -> list[Text]:
    """Each step of LV-7 said in a sentence a player reads, a step that decided nothing included:
    what each tied player's hand had, naming them (``names[seat]``), and what the step decided.
    The counts are found again from ``hands`` (each seat's shown cards) and ``wild``."""
    said = []
    for step in steps:
        before = [seat for seat, _ in step.facts]
        players = {seat: names[seat] if 0 <= seat < len(names) else T("seat {seat}", seat=seat) for seat in before}
        if step.rule == WILD_CARDS:
            text = _wild_words(before, hands, wild, players)
        elif step.rule == RUN:
            text = _run_words(before, hands, wild, players)
        elif step.rule == COLOUR:
            text = _colour_words(before, hands, players)
            majorities = {majority_colour(hands[seat]) for seat in step.still_tied}
            if len(step.still_tied) > 1 and len(majorities) == 1:
                # Step 4 draws only when the majorities differ; say why it is left out.
                (majority,) = majorities
                text = (
                    T(
                        "{facts}; every hand is mostly {colour}, so no colour card can tell them apart",
                        facts=text,
                        colour=colour_name(majority),
                    )
                    if majority
                    else T("{facts}; no hand has a main colour, so there is no colour card to draw", facts=text)
                )
        elif step.rule == COLOUR_CARD:
            text = _colour_card_words(step, before, hands, players)
        else:
            text = _manotazo_words(step, players)
        outcome = _decided(before, step.still_tied, players)
        said.append(T("Step {number}. {facts}: {outcome}.", number=step.step, facts=text, outcome=outcome))
    return said


def _decided(before: Sequence[int], after: Sequence[int], players: Mapping[int, str]) -> Text:
    """What a step decided: nothing, the player with the worst hand, or who is saved."""
    if len(after) == len(before):
        return T("this step decides nothing")
    if len(after) == 1:
        return T("{player} has the worst hand", player=players[after[0]])
    saved = [players[seat] for seat in before if seat not in after]
    still = and_list([players[seat] for seat in after])
    return N(
        "{saved} is saved and {tied} are still tied",
        "{saved} are saved and {tied} are still tied",
        len(saved),
        saved=and_list(saved),
        tied=still,
    )


def _all_alike(before: Sequence[int], players: Mapping[int, str]) -> Text:
    """The players of a step that found their hands alike: "Ana and Bruno both", "Ana, Bruno and Carla all"."""
    listed = and_list([players[seat] for seat in before])
    return T("{players} both", players=listed) if len(before) == 2 else T("{players} all", players=listed)


def _wild_words(
    before: Sequence[int], hands: Mapping[int, Sequence[str]], wild: Collection[str], players: Mapping[int, str]
) -> Text:
    counts = {seat: wild_count(hands[seat], wild) for seat in before}
    if len(set(counts.values())) == 1:
        count = counts[before[0]]
        return N(
            "{players} hold {count} wild card",
            "{players} hold {count} wild cards",
            count,
            players=_all_alike(before, players),
        )
    held = [
        N("{player} holds {count} wild card", "{player} holds {count} wild cards", counts[seat], player=players[seat])
        for seat in before
    ]
    return T("{held}, and more wild cards make the worse hand", held=and_list(held))


def _run_of(cards: Sequence[str], wild: Collection[str]) -> Text | None:
    length, top, suit = best_run(cards, wild)
    if not length or suit is None:
        return None
    ranks = "-".join(_RANK_SHOWN.get(rank, str(rank)) for rank in range(top - length + 1, top + 1))
    return T("{ranks} of {suit}", ranks=ranks, suit=suit_name(suit))


def _run_words(
    before: Sequence[int], hands: Mapping[int, Sequence[str]], wild: Collection[str], players: Mapping[int, str]
) -> Text:
    runs = {seat: best_run(hands[seat], wild)[:2] for seat in before}
    said = {seat: _run_of(hands[seat], wild) for seat in before}
    if all(run is None for run in said.values()):
        return T("{players} have no run of two or more cards of one suit", players=_all_alike(before, players))
    held = [
        T("{player}'s best run is {run}", player=players[seat], run=run)
        if run is not None
        else T("{player} has no run", player=players[seat])
        for seat, run in said.items()
    ]
    if len(set(runs.values())) == 1:
        return T("{held}, runs of the same length and height", held=and_list(held))
    return T("{held}, and the shorter or lower run, or none, makes the worse hand", held=and_list(held))


def _colour_words(before: Sequence[int], hands: Mapping[int, Sequence[str]], players: Mapping[int, str]) -> Text:
    counts = {seat: colour_counts(hands[seat]) for seat in before}
    if len(set(counts.values())) == 1:
        red, black = counts[before[0]]
        return T(
            "{players} have {red} red and {black} black cards (wild cards count by their suit, jokers have no colour)",
            players=_all_alike(before, players),
            red=red,
            black=black,
        )
    held = [
        T("{player} has {red} red and {black} black", player=players[seat], red=counts[seat][0], black=counts[seat][1])
        for seat in before
    ]
    if len({max(count) for count in counts.values()}) == 1:
        return T(
            "{held}, as many cards of each hand's main colour (wild cards count by their suit, jokers have no colour)",
            held=and_list(held),
        )
    return T(
        "{held} (wild cards count by their suit, jokers have no colour), and fewer cards of the main colour make "
        "the worse hand",
        held=and_list(held),
    )


def _colour_card_words(
    step: TieBreakStep, before: Sequence[int], hands: Mapping[int, Sequence[str]], players: Mapping[int, str]
) -> Text:
    held = []
    for seat in before:
        majority = majority_colour(hands[seat])
        if majority is None:
            held.append(T("{player}'s hand has as many red cards as black", player=players[seat]))
        else:
            held.append(T("{player}'s hand is mostly {colour}", player=players[seat], colour=colour_name(majority)))
    if step.card is None:
        return T("{held}; the stock has no card left to draw as the colour card", held=and_list(held))
    drawn = colour(step.card)
    return T(
        "{held}; the colour card drawn from the stock is {card}, {colour}, which saves the hands mostly {colour}",
        held=and_list(held),
        card=card_name(step.card),
        colour=colour_name(drawn or ""),
    )


def _manotazo_words(step: TieBreakStep, players: Mapping[int, str]) -> Text:
    taken = [T("{player} takes {card}", player=players[seat], card=card_name(card)) for seat, card in step.draws]
    return T(
        "Manotazo {number}: the tied hands' cards are shuffled together and each player takes one, {taken}; "
        "the lowest card loses (aces high, jokers highest)",
        number=int((step.purpose or "manotazo-1").rsplit("-", 1)[-1]),
        taken=and_list(taken),
    )
