"""Euchre's hand as the audit shows it once it is over (EU-20 reveals every card): each seat's
side and result (``AuditHooks.showdown``) and the hand history in words (``history_line``)."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.card_names import card_name, card_names
from games.engine.words import N, T, Text
from games.rules.euchre.cards import deal_hands
from games.rules.euchre.events import (
    AceNoFaceDeclared,
    CardPlayed,
    ClaimDeclined,
    DealerDiscarded,
    DealPatternChosen,
    FarmersHandSwapped,
    HandEnded,
    HandStarted,
    MatchStarted,
    MatchWon,
    Passed,
    TrickTaken,
    TrumpMade,
    first_event,
)


def suit_words(suit: str | None) -> Text:
    """A suit (or no trump, EU-18) as players read it."""
    if suit == "c":
        return T("clubs")
    if suit == "d":
        return T("diamonds")
    if suit == "h":
        return T("hearts")
    if suit == "s":
        return T("spades")
    return T("no trump")


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else T("seat {seat}", seat=seat)


def _names(names: Sequence[str], seats: Sequence[int]) -> list[str]:
    return [_name(names, seat) for seat in seats]


def _cards(cards: Sequence[str]) -> Text:
    """Cards in words, as the other games' histories name them ("the nine of hearts and the jack of
    clubs"), or "nothing"; the codes stay in the hand's events."""
    return card_names(cards) if cards else T("nothing")


def _packets(pattern: str) -> Text:
    """A deal pattern in words ("two, then three"), never its code ``2-3``."""
    return T("three, then two") if pattern == "3-2" else T("two, then three")


def _tricks(count: int) -> Text:
    return N("{count} trick", "{count} tricks", count)


def showdown(config: Mapping[str, Any], hand: Sequence[Any]) -> list[dict[str, Any]]:
    """Every seat once the hand is over (EU-20 reveals all): the cards it played in trick order (a
    seat sitting out: the hand it laid aside), its side (category ``makers``, ``defenders`` or
    ``sitting out``) and whether its side scored (``wins``) or not (``loses``). A hand thrown in
    (EU-5) or redealt (EU-17) shows every seat's five cards, all ``safe``: nobody scored."""
    ended = first_event(hand, HandEnded)
    started = first_event(hand, HandStarted)
    if ended is None or started is None:
        return []
    if ended.outcome != "played":
        return _nobody_scored(ended)
    made = first_event(hand, TrumpMade)
    taken = Counter(event.winner for event in hand if isinstance(event, TrickTaken))
    played: dict[int, list[str]] = {seat: [] for seat in range(started.seats)}
    for event in hand:
        if isinstance(event, CardPlayed):
            played[event.seat].append(event.card)
    discard = next((event for event in hand if isinstance(event, DealerDiscarded)), None)
    result = _makers_result(ended, taken)
    trump = T("no trump") if made is None or made.suit is None else T("{suit} trump", suit=suit_words(made.suit))
    shown = []
    for seat in range(started.seats):
        category, cards, own = _seat_part(seat, ended, made, played[seat], taken[seat], trump)
        if discard is not None and seat == discard.seat:
            own = T("{own}, discarded {card}", own=own, card=card_name(discard.card))
        shown.append(
            {
                "seat": seat,
                "cards": cards,
                "category": category,
                "description": T("{own}; {result}", own=own, result=result),
                "outcome": "wins" if ended.points[seat] > 0 else "loses",
                "tie_break": [],
            }
        )
    return shown


def _nobody_scored(ended: HandEnded) -> list[dict[str, Any]]:
    """A hand thrown in (EU-5) or redealt (EU-17): every seat's five cards, all ``safe``."""
    if ended.outcome == "thrown_in":
        why = T("The hand was thrown in, everyone having passed twice; nobody scored.")
    else:
        why = T("The hand was redealt by the same dealer after an ace-no-face; nobody scored.")
    return [
        {
            "seat": seat,
            "cards": list(cards),
            "category": None,
            "description": why,
            "outcome": "safe",
            "tie_break": [],
        }
        for seat, cards in enumerate(ended.hands)
    ]


def _makers_result(ended: HandEnded, taken: Counter[int]) -> Text:
    """How the hand went for the makers: the tricks their side took, and who scored what."""
    side_tricks = sum(taken[seat] for seat in ended.makers)
    maker_points = max((ended.points[seat] for seat in ended.makers), default=0)
    if maker_points:
        return N(
            "the makers took {count} trick and scored {points}.",
            "the makers took {count} tricks and scored {points}.",
            side_tricks,
            points=maker_points,
        )
    return N(
        "the makers took {count} trick, euchred: the defenders scored {points}.",
        "the makers took {count} tricks, euchred: the defenders scored {points}.",
        side_tricks,
        points=max(ended.points, default=0),
    )


def _seat_part(
    seat: int, ended: HandEnded, made: TrumpMade | None, played: list[str], tricks: int, trump: Text
) -> tuple[str, list[str], Text]:
    """A seat's side, the cards it shows and what it did: the hand it laid aside sitting out behind a
    lone partner, else the cards it played and the tricks it took (and the trump it made)."""
    own: Text
    if made is not None and seat == made.sitting_out:
        return "sitting out", list(ended.hands[seat]), T("Sat out behind a lone partner")
    category = "makers" if seat in ended.makers else "defenders"
    own = T("Took {tricks}", tricks=_tricks(tricks))
    if made is not None and seat == made.seat and made.alone:
        own = T("Made {trump} alone, took {tricks}", trump=trump, tricks=_tricks(tricks))
    elif made is not None and seat == made.seat:
        own = T("Made {trump}, took {tricks}", trump=trump, tricks=_tricks(tricks))
    return category, played, own


def _plays(names: Sequence[str], plays: Sequence[tuple[int, str]]) -> list[Text]:
    return [T("{player} {card}", player=_name(names, seat), card=card_name(card)) for seat, card in plays]


@functools.singledispatch
def history_line(event: Any, names: Sequence[str]) -> Text | None:
    """One line per event in words, players by name (``names[seat]``), every card shown (the hand
    is over); ``None`` for anything that is not a Euchre event (presence has its own lines)."""
    return None


@history_line.register
def _(event: MatchStarted, names: Sequence[str]) -> Text:
    return N(
        "The match starts with {count} player; {dealer} deals first, with the lowest card drawn ({draws}).",
        "The match starts with {count} players; {dealer} deals first, with the lowest card drawn ({draws}).",
        event.seats,
        dealer=_name(names, event.dealer),
        draws=_plays(names, event.draws),
    )


@history_line.register
def _(event: DealPatternChosen, names: Sequence[str]) -> Text:
    return T(
        "{player} deals in packets of {pattern} from now on.",
        player=_name(names, event.seat),
        pattern=_packets(event.pattern),
    )


@history_line.register
def _(event: HandStarted, names: Sequence[str]) -> Text:
    hands, kitty = deal_hands(event.deck, event.dealer, event.seats, event.pattern)
    dealt = [T("{player} {cards}", player=_name(names, seat), cards=_cards(cards)) for seat, cards in enumerate(hands)]
    return T(
        "Hand {hand}: {dealer} deals in packets of {pattern} and turns up {card}. Dealt: {dealt}; the kitty {kitty}.",
        hand=event.hand_no,
        dealer=_name(names, event.dealer),
        pattern=_packets(event.pattern),
        card=card_name(event.turned_card),
        dealt=dealt,
        kitty=_cards(kitty),
    )


@history_line.register
def _(event: ClaimDeclined, names: Sequence[str]) -> Text:
    return T("{player} keeps the hand.", player=_name(names, event.seat))


@history_line.register
def _(event: FarmersHandSwapped, names: Sequence[str]) -> Text:
    return T(
        "{player} shows a farmer's hand, {shown}, and swaps {given} for the kitty's {taken}.",
        player=_name(names, event.seat),
        shown=_cards(event.shown),
        given=_cards(event.given),
        taken=_cards(event.taken),
    )


@history_line.register
def _(event: AceNoFaceDeclared, names: Sequence[str]) -> Text:
    return T(
        "{player} shows ace-no-face, {shown}: the same dealer deals again.",
        player=_name(names, event.seat),
        shown=_cards(event.shown),
    )


@history_line.register
def _(event: Passed, names: Sequence[str]) -> Text:
    if event.round == 1:
        return T("{player} passes in the first round of bidding.", player=_name(names, event.seat))
    return T("{player} passes in the second round of bidding.", player=_name(names, event.seat))


@history_line.register
def _(event: TrumpMade, names: Sequence[str]) -> Text:
    player = _name(names, event.seat)
    suit = suit_words(event.suit)
    if event.suit is None:
        if event.alone:
            return T("{player} calls no trump and goes alone.", player=player)
        return T("{player} calls no trump.", player=player)
    if event.round == 1:
        if event.alone:
            return T("{player} orders up {suit} and goes alone.", player=player, suit=suit)
        return T("{player} orders up {suit}.", player=player, suit=suit)
    if event.alone:
        return T("{player} names {suit} and goes alone.", player=player, suit=suit)
    return T("{player} names {suit}.", player=player, suit=suit)


@history_line.register
def _(event: DealerDiscarded, names: Sequence[str]) -> Text:
    return T("{player} discards {card} face down.", player=_name(names, event.seat), card=card_name(event.card))


@history_line.register
def _(event: CardPlayed, names: Sequence[str]) -> Text:
    return T("{player} plays {card}.", player=_name(names, event.seat), card=card_name(event.card))


@history_line.register
def _(event: TrickTaken, names: Sequence[str]) -> Text:
    return T(
        "Trick {trick}: {player} takes it ({plays}).",
        trick=event.trick_no,
        player=_name(names, event.winner),
        plays=_plays(names, event.plays),
    )


def _scores(names: Sequence[str], scores: Sequence[int]) -> list[Text]:
    return [T("{player} {score}", player=_name(names, seat), score=score) for seat, score in enumerate(scores)]


@history_line.register
def _(event: HandEnded, names: Sequence[str]) -> Text:
    if event.outcome == "thrown_in":
        return T("Hand {hand} is thrown in: everyone passed twice.", hand=event.hand_no)
    if event.outcome == "redeal":
        return T("Hand {hand} is redealt by the same dealer.", hand=event.hand_no)
    makers = _names(names, event.makers)
    maker_points = max((event.points[seat] for seat in event.makers), default=0)
    if maker_points:
        result = N(
            "Hand {hand} is over: {makers} made it with {count} trick and score {points}.",
            "Hand {hand} is over: {makers} made it with {count} tricks and score {points}.",
            event.maker_tricks,
            hand=event.hand_no,
            makers=makers,
            points=maker_points,
        )
    else:
        result = N(
            "Hand {hand} is over: {makers} took only {count} trick and are euchred; the defenders score {points}.",
            "Hand {hand} is over: {makers} took only {count} tricks and are euchred; the defenders score {points}.",
            event.maker_tricks,
            hand=event.hand_no,
            makers=makers,
            points=max(event.points, default=0),
        )
    return T("{result} Scores: {scores}.", result=result, scores=_scores(names, event.scores))


@history_line.register
def _(event: MatchWon, names: Sequence[str]) -> Text:
    return T(
        "The match is won by {players}. Final scores: {scores}.",
        players=_names(names, event.winners),
        scores=_scores(names, event.scores),
    )
