"""Euchre's hand as the audit shows it once it is over (EU-20 reveals every card): each seat's
side and result (``AuditHooks.showdown``) and the hand history in words (``history_line``)."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.euchre.cards import SUIT_NAMES, cards_text, deal_hands
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


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


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
        why = "thrown in (EU-5)" if ended.outcome == "thrown_in" else "redealt by the same dealer (EU-17)"
        return [
            {
                "seat": seat,
                "cards": list(cards),
                "category": None,
                "description": f"the hand was {why}; nobody scored",
                "outcome": "safe",
                "tie_break": [],
            }
            for seat, cards in enumerate(ended.hands)
        ]
    made = first_event(hand, TrumpMade)
    taken = Counter(event.winner for event in hand if isinstance(event, TrickTaken))
    played: dict[int, list[str]] = {seat: [] for seat in range(started.seats)}
    for event in hand:
        if isinstance(event, CardPlayed):
            played[event.seat].append(event.card)
    discard = next((event for event in hand if isinstance(event, DealerDiscarded)), None)
    side_tricks = sum(taken[seat] for seat in ended.makers)
    maker_points = max((ended.points[seat] for seat in ended.makers), default=0)
    if maker_points:
        result = f"the makers took {_plural(side_tricks, 'trick')} and scored {maker_points}"
    else:
        defender_points = max(ended.points, default=0)
        result = f"the makers took {_plural(side_tricks, 'trick')}, euchred: the defenders scored {defender_points}"
    trump = "no trump" if made is None or made.suit is None else f"{SUIT_NAMES[made.suit]} trump"
    shown = []
    for seat in range(started.seats):
        out = made is not None and seat == made.sitting_out
        if out:
            category, cards, own = "sitting out", list(ended.hands[seat]), "sat out behind a lone partner"
        else:
            category = "makers" if seat in ended.makers else "defenders"
            cards, own = played[seat], f"took {_plural(taken[seat], 'trick')}"
            if made is not None and seat == made.seat:
                own = f"made {trump}{' alone' if made.alone else ''}, {own}"
        if discard is not None and seat == discard.seat:
            own += f", discarded {discard.card}"
        shown.append(
            {
                "seat": seat,
                "cards": cards,
                "category": category,
                "description": f"{own}; {result}",
                "outcome": "wins" if ended.points[seat] > 0 else "loses",
                "tie_break": [],
            }
        )
    return shown


@functools.singledispatch
def history_line(event: Any, actor: str) -> str | None:
    """One readable line per event: bids, plays and tricks in words, every card shown (the hand is
    over); ``None`` (the audit's generic line) for anything that is not a Euchre event."""
    return None


@history_line.register
def _(event: MatchStarted, actor: str) -> str:
    draws = ", ".join(f"seat {seat} {card}" for seat, card in event.draws)
    return f"Match starts with {event.seats} players; seat {event.dealer} deals first (drew {draws or 'nothing'})"


@history_line.register
def _(event: DealPatternChosen, actor: str) -> str:
    return f"{actor} deals {event.pattern} from now on"


@history_line.register
def _(event: HandStarted, actor: str) -> str:
    hands, kitty = deal_hands(event.deck, event.dealer, event.seats, event.pattern)
    dealt = "; ".join(f"seat {seat} {cards_text(cards)}" for seat, cards in enumerate(hands))
    return (
        f"Hand {event.hand_no}: seat {event.dealer} deals {event.pattern} and turns up {event.turned_card}; "
        f"{dealt}; kitty {cards_text(kitty)}"
    )


@history_line.register
def _(event: ClaimDeclined, actor: str) -> str:
    return f"{actor} keeps the hand"


@history_line.register
def _(event: FarmersHandSwapped, actor: str) -> str:
    return (
        f"{actor} shows a farmer's hand {cards_text(event.shown)} "
        f"and swaps {cards_text(event.given)} for {cards_text(event.taken)}"
    )


@history_line.register
def _(event: AceNoFaceDeclared, actor: str) -> str:
    return f"{actor} shows ace-no-face {cards_text(event.shown)}; the same dealer deals again"


@history_line.register
def _(event: Passed, actor: str) -> str:
    return f"{actor} passes (round {event.round})"


@history_line.register
def _(event: TrumpMade, actor: str) -> str:
    if event.suit is None:
        verb = "calls no trump"
    elif event.round == 1:
        verb = f"orders up {SUIT_NAMES[event.suit]}"
    else:
        verb = f"names {SUIT_NAMES[event.suit]}"
    return f"{actor} {verb}{' alone' if event.alone else ''}"


@history_line.register
def _(event: DealerDiscarded, actor: str) -> str:
    return f"{actor} discards {event.card}"


@history_line.register
def _(event: CardPlayed, actor: str) -> str:
    return f"{actor} plays {event.card}"


@history_line.register
def _(event: TrickTaken, actor: str) -> str:
    plays = ", ".join(f"seat {seat} {card}" for seat, card in event.plays)
    return f"Trick {event.trick_no}: seat {event.winner} takes it ({plays})"


@history_line.register
def _(event: HandEnded, actor: str) -> str:
    if event.outcome == "thrown_in":
        return f"Hand {event.hand_no} is thrown in: everyone passed twice"
    if event.outcome == "redeal":
        return f"Hand {event.hand_no} is redealt"
    return (
        f"Hand {event.hand_no} over: makers {list(event.makers)} took {_plural(event.maker_tricks, 'trick')}; "
        f"points {list(event.points)}, scores {list(event.scores)}"
    )


@history_line.register
def _(event: MatchWon, actor: str) -> str:
    return f"Match won by seats {list(event.winners)} with scores {list(event.scores)}"
