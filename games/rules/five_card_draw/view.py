"""What a seat may see of Five-Card Draw (FD-19): its own cards, everyone's face-up cards (the
shotgun card, a shown ace), how many each player drew, the bets and pots, and the hands shown at a
showdown. Never a folded hand, a hand that won unshown, a discard or the stock: those are only in
the hand's audit once it is over."""

from __future__ import annotations

import dataclasses
from typing import Any

from games.engine.codec import encode_event
from games.rules.betting.pots import side_pots
from games.rules.five_card_draw.events import CardsDealt, CardsDrawn, ShowdownHeld, ShownHand
from games.rules.five_card_draw.legal import to_act
from games.rules.five_card_draw.state import CASH, Hand, State, played_by_bot, round_contributions
from games.rules.five_card_draw.topup import cannot_post_notice
from games.rules.five_card_draw.words import category_name, hand_words, low_description, shown_wild

GAME = "five-card-draw"
# Its slug until every slug was kebab-case; still taken (``Game.former_slugs``).
FORMER_GAME = "five_card_draw"


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` (``None``: a spectator) may see it, with the seats the table's bot
    plays (CM-20)."""
    settings = state.settings
    hand = state.hand
    you = seat if seat is not None and 0 <= seat < settings.seats else None
    short = _cannot_post(state)
    data: dict[str, Any] = {
        "game": GAME,
        "status": "finished" if state.finished else "running" if state.started else "waiting",
        "seat": you,
        "format": settings.format,
        "variant": settings.variant,
        "betting": settings.betting,
        "forced_bets": settings.forced_bets,
        "opening": settings.opening,
        "ace_rule": settings.ace_rule,
        "wild": settings.wild,
        "shotgun": settings.shotgun,
        "high_low": settings.high_low,
        "hand_no": state.hand_no,
        "button": state.button if state.button >= 0 else None,
        "pot": state.pot,
        "players": [_player(state, hand, number, number in short) for number in range(settings.seats)],
        "to_act": list(to_act(state)),
        "played_by_bot": sorted(played_by_bot(state)),
        "hand": _hand_view(state, hand, you) if hand is not None else None,
        "last_hand": _last_hand(state.last_hand, state.settings.wild) if state.last_hand is not None else None,
        "end_requested": state.end_requested,
        # CM-21: no person is dealt in, so no hand is dealt until one sits in.
        "waiting_for_players": state.waiting,
        "cannot_post": you in short,
        "notice": cannot_post_notice(state, you) if you is not None and you in short else None,
        "winners": list(state.winners),
        "end_reason": state.end_reason or None,
    }
    return data


def _cannot_post(state: State) -> frozenset[int]:
    """The cash players at the table who sit out for want of the forced bet (FD-2): not in the
    hand under way and short of the ante or big blind, until they top up or leave (FD-13)."""
    settings = state.settings
    if settings.format != CASH or not state.started or state.finished:
        return frozenset()
    playing = state.hand.players if state.hand is not None else ()
    return frozenset(
        seat
        for seat in range(settings.seats)
        if state.present[seat]
        and not state.leaving[seat]
        and seat not in playing
        and state.stacks[seat] < settings.forced_bet
    )


def _player(state: State, hand: Hand | None, seat: int, short: bool) -> dict[str, Any]:
    data: dict[str, Any] = {
        "seat": seat,
        "stack": state.stacks[seat] if state.stacks else 0,
        "present": state.present[seat] if state.present else False,
        "leaving": state.leaving[seat] if state.leaving else False,
        "eliminated": seat in state.eliminated,
        "in_hand": False,
        "cannot_post": short,
    }
    if hand is None or seat not in hand.players:
        return data
    bet, all_in = 0, state.stacks[seat] == 0
    if hand.round is not None and seat in hand.round.seats:
        i = hand.round.position(seat)
        bet, all_in = hand.round.bets[i], hand.round.all_in[i]
    data.update(
        in_hand=not hand.folded[seat],
        folded=hand.folded[seat],
        all_in=all_in and not hand.folded[seat],
        bet=bet,
        contributed=round_contributions(hand)[seat],
        cards_held=len(hand.cards[seat]) if hand.cards else 0,
        face_up=list(hand.face_up[seat]) if hand.face_up else [],
        drew=list(hand.drew[seat]),
    )
    return data


def _hand_view(state: State, hand: Hand, you: int | None) -> dict[str, Any]:
    still_in = hand.in_hand()
    pots = side_pots(round_contributions(hand), still_in) if still_in else ()
    data: dict[str, Any] = {
        "hand_no": hand.hand_no,
        "button": hand.button,
        "players": list(hand.players),
        "phase": hand.phase,
        "street": hand.street,
        "draw": hand.draw,
        "stock": len(hand.stock),
        "current_bet": hand.round.current_bet if hand.round is not None else 0,
        "opener": hand.opener,
        "carried": hand.carried,
        "pots": [{"amount": pot.amount, "eligible": list(pot.eligible)} for pot in pots],
        "your_cards": list(hand.cards[you]) if you is not None and hand.cards and you in hand.players else [],
        "showdown": [_shown(shown, state.settings.wild) for shown in hand.showdown],
    }
    if hand.carried and data["pots"]:
        data["pots"][0]["amount"] += hand.carried
    return data


def _last_hand(hand: Hand, wild: str) -> dict[str, Any]:
    """The hand just over: the hands shown and who won what; an unshown winner's cards stay hidden."""
    return {
        "hand_no": hand.hand_no,
        "showdown": [_shown(shown, wild) for shown in hand.showdown],
        "pots": [{"amount": amount, "eligible": list(eligible)} for amount, eligible in hand.pots],
        "shares": [
            {
                "pot": share.pot,
                "seat": share.seat,
                "chips": share.chips,
                "half": share.half,
                "shown": share.shown,
                "returned": share.returned,
            }
            for share in hand.shares
        ],
        "passed": hand.phase == "passed",
    }


def _shown(shown: ShownHand, wild: str) -> dict[str, Any]:
    """A shown hand: its category codes, and in words their names and the hand's description,
    made from its recorded values (CM-11..CM-17), wild cards named (FD-15)."""
    low = shown.low_category is not None and shown.low is not None
    return {
        "seat": shown.seat,
        "cards": list(shown.cards),
        "category": shown.category,
        "category_name": category_name(shown.category),
        "description": hand_words(dataclasses.replace(shown, low=None), wild) if low else hand_words(shown, wild),
        "low_category": shown.low_category,
        "low_category_name": category_name(shown.low_category) if shown.low_category else None,
        "low_description": low_description(shown.low or 0, ace_to_five=True) if low else None,
    }


def view_event(event: Any, seat: int | None) -> dict[str, Any]:
    """An event's public fields, plus the seat's own cards in a deal or a draw (FD-19)."""
    type_name, public, _secret = encode_event(event)
    data = {"type": type_name, **public}
    if isinstance(event, ShowdownHeld):
        # Words, in the reader's language, in place of whatever the record holds, wild cards named
        # by the wild option the event keeps (FD-15).
        wild = shown_wild(event)
        data["hands"] = [{**shown, **_shown(entry, wild)} for shown, entry in zip(data["hands"], event.hands)]
    if isinstance(event, CardsDealt) and seat is not None and 0 <= seat < len(event.hands):
        data["your_cards"] = list(event.hands[seat])
    if isinstance(event, CardsDrawn) and seat == event.seat:
        data["discarded"] = list(event.discarded)
        data["received"] = list(event.received)
    return data
