"""What each seat may see (EU-20): its own cards, the turned card, the bids, the tricks and who won
them; never another hand, the kitty or the dealer's discard until ``HandEnded`` reveals them."""

from __future__ import annotations

from typing import Any

import msgspec

from games.engine.codec import encode_event
from games.engine.words import T, Text
from games.rules.euchre.cards import deal_hands
from games.rules.euchre.events import DealerDiscarded, FarmersHandSwapped, HandStarted, Plays
from games.rules.euchre.legal import to_act
from games.rules.euchre.state import EuchreState

# The game's slug, which every view names.
GAME = "euchre"


def _plays_json(plays: Plays) -> list[dict[str, Any]]:
    return [{"seat": seat, "card": card} for seat, card in plays]


def _trick_sentence(number: int, plays: Plays, winner: int) -> Text:
    """A taken trick as players read it (EU-11)."""
    card = next((card for seat, card in plays if seat == winner), "")
    return T("Trick {trick}: seat {seat} took it with {card}.", trick=number, seat=winner, card=card)


def _table(state: EuchreState, seat: int | None) -> dict[str, Any]:
    """What everyone sees of the match and the deal, and whose view it is."""
    return {
        "game": GAME,
        "phase": state.phase,
        "seats": state.seats,
        "seat": seat,
        "cutthroat": state.cutthroat,
        "target_points": state.target_points,
        "hand_no": state.hand_no,
        "commitment": state.commitment,
        "dealer": state.dealer,
        "deal_patterns": list(state.deal_patterns),
        "first_dealer_draws": _plays_json(state.first_dealer_draws),
        "scores": list(state.scores),
        "turn": state.turn,
        "to_act": list(to_act(state)),
        "turned_card": state.turned_card or None,
        "turned_down": state.turned_down,
        "picked_up": state.picked_up,
        "played_by_bot": sorted(state.presence.away),
    }


def _hand_in_play(state: EuchreState) -> dict[str, Any]:
    """What everyone sees of the bidding and the tricks."""
    return {
        "bidding_round": state.bidding_round,
        "bids": [{"seat": bidder, "bid": bid} for bidder, bid in state.bids],
        "shown": [{"seat": shower, "cards": list(cards)} for shower, cards in state.shown],
        "trump": state.trump,
        "no_trump": state.maker >= 0 and state.trump is None,
        "maker": state.maker,
        "makers": list(state.makers),
        "alone": state.alone,
        "sitting_out": state.sitting_out,
        "trick": _plays_json(state.trick),
        "tricks": [
            {"plays": _plays_json(plays), "winner": winner, "sentence": _trick_sentence(number, plays, winner)}
            for number, (plays, winner) in enumerate(zip(state.tricks, state.trick_winners), start=1)
        ],
        "tricks_won": list(state.tricks_won),
        "hand_sizes": [len(hand) for hand in state.hands],
        "winners": list(state.winners),
    }


def view(state: EuchreState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` sees; a spectator (or a seat not at the table) gets ``seat`` None and no hand."""
    seated = seat is not None and 0 <= seat < state.seats
    data = {**_table(state, seat if seated else None), **_hand_in_play(state)}
    if seat is not None and seated and state.hands:
        data["hand"] = list(state.hands[seat])
        if seat == state.dealer and state.discard:
            data["discard"] = state.discard
    return data


def view_event(event: Any, seat: int | None) -> dict[str, Any]:
    """The event's public fields, plus what is private to ``seat``: its own dealt cards, its own
    farmer's swap, the dealer's own discard."""
    type_name, public, _ = encode_event(event)
    data = {"type": type_name, **msgspec.json.decode(msgspec.json.encode(public))}
    if seat is None:
        return data
    if isinstance(event, HandStarted) and 0 <= seat < event.seats:
        hands, _ = deal_hands(event.deck, event.dealer, event.seats, event.pattern)
        data["hand"] = list(hands[seat])
    elif isinstance(event, FarmersHandSwapped) and seat == event.seat:
        data["given"], data["taken"] = list(event.given), list(event.taken)
    elif isinstance(event, DealerDiscarded) and seat == event.seat:
        data["card"] = event.card
    return data
