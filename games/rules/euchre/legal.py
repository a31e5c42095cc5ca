"""Legality, written once: ``refusal`` is the one judge of a command (EU-1..EU-22, CM-20), each
``*_refusal`` beside it the sentence refusing a move, or ``None``.

``decide`` raises the judge's refusal; ``legal_actions`` lists the candidate commands the judge
lets through; a timed-out seat plays ``timeout_action`` (EU-22).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from games.engine import presence
from games.engine.errors import IllegalAction
from games.engine.words import T, Text
from games.rules.euchre import presence as seating
from games.rules.euchre.cards import (
    SUIT_NAMES,
    SUIT_ORDER,
    ace_no_face,
    effective_suit,
    left_bower,
    low_key,
    only_nines_and_tens,
    parse_card,
)
from games.rules.euchre.state import EuchreState

PHASE_VERBS = {
    "claims": ("keep_hand", "farmers_swap", "ace_no_face"),
    "bidding": ("pass", "order_up", "pick_up", "name_trump", "call_no_trump"),
    "discard": ("discard",),
    "play": ("play",),
}
# The suits in a sentence; a sentence's first word is capitalised, which another language may not do.
SUIT_WORDS = {"c": T("clubs"), "d": T("diamonds"), "h": T("hearts"), "s": T("spades")}
SUIT_WORDS_FIRST = {"c": T("Clubs"), "d": T("Diamonds"), "h": T("Hearts"), "s": T("Spades")}


def _wrong_phase(phase: str, kind: Any) -> Text:
    """Why ``kind`` is not a move of ``phase``: each phase a whole sentence, to translate whole."""
    if phase == "claims":
        return T("You cannot {action} now: the farmer's hand and ace-no-face claims are being offered.", action=kind)
    if phase == "bidding":
        return T("You cannot {action} now: trump is being made.", action=kind)
    if phase == "discard":
        return T("You cannot {action} now: the dealer is discarding.", action=kind)
    return T("You cannot {action} now: the hand is being played.", action=kind)


def to_act(state: EuchreState) -> tuple[int, ...]:
    """The seat awaited, if any."""
    return (state.turn,) if state.phase in PHASE_VERBS and state.turn >= 0 else ()


def forced_to_call(state: EuchreState, seat: int) -> bool:
    """Stick the dealer: the dealer may not pass in the second round (EU-15)."""
    return state.stick_the_dealer and state.bidding_round == 2 and seat == state.dealer


def partner(state: EuchreState, seat: int) -> int | None:
    """The seat opposite (EU-1); nobody's partner in cutthroat (EU-19)."""
    return None if state.cutthroat else (seat + 2) % 4


def makers_of(state: EuchreState, seat: int) -> tuple[int, ...]:
    """The maker's side (EU-6): maker and partner, or the maker alone in cutthroat (EU-19)."""
    mate = partner(state, seat)
    return (seat,) if mate is None else tuple(sorted((seat, mate)))


def parse_suit(value: object) -> str | None:
    """A suit letter from ``"h"``, ``"H"`` or ``"hearts"``."""
    if not isinstance(value, str):
        return None
    text = value.strip().lower()
    for letter, name in SUIT_NAMES.items():
        if text in (letter, name):
            return letter
    return None


def _alone_refusal(state: EuchreState, command: dict[str, Any]) -> str | None:
    alone = command.get("alone", False)
    if not isinstance(alone, bool):
        return T("'alone' must be true or false.")
    if alone and state.cutthroat:
        return T("In cutthroat the maker always plays alone against everyone; leave 'alone' out.")
    return None


def claim_refusal(state: EuchreState, seat: int, command: dict[str, Any]) -> str | None:
    """Farmer's hand (EU-16) and ace-no-face (EU-17) claims, offered one seat at a time."""
    kind = command["type"]
    hand = state.hands[seat]
    if kind == "keep_hand":
        return None
    if kind == "ace_no_face":
        if not state.ace_no_face:
            return T("This table does not play ace-no-face.")
        if not ace_no_face(hand):
            return T("Ace-no-face needs exactly one ace and otherwise only nines and tens.")
        return None
    if not state.farmers_hand:
        return T("This table does not play the farmer's hand.")
    if state.farmer_swapped:
        return T("The farmer's hand was already claimed this deal; only one swap per deal.")
    if not only_nines_and_tens(hand):
        return T("A farmer's hand has only nines and tens.")
    cards = command.get("cards")
    parsed = [parse_card(card) for card in cards] if isinstance(cards, list) else []
    if len(parsed) != 3 or len(set(parsed)) != 3 or not all(card in hand for card in parsed):
        return T("Give three different cards from your hand in 'cards'.")
    return None


def _pass_refusal(state: EuchreState, seat: int, command: dict[str, Any]) -> str | None:
    if forced_to_call(state, seat):
        return T("Stick the dealer: everyone else passed, so you must name a suit.")
    return None


def _turned_card_refusal(state: EuchreState, seat: int, command: dict[str, Any]) -> str | None:
    """Ordering up or picking up the turned card: the first round only (EU-4)."""
    if state.bidding_round != 1:
        turned = SUIT_WORDS[state.turned_card[1]]
        return T("The turned card was turned down: name a suit other than {suit}, or pass.", suit=turned)
    if command["type"] == "pick_up" and seat != state.dealer:
        return T("Only the dealer picks up; you may order it up.")
    return None


def _naming_refusal(state: EuchreState, seat: int, command: dict[str, Any]) -> str | None:
    """Naming a suit: the second round only, never the suit turned down (EU-5)."""
    turned_suit = state.turned_card[1]
    if state.bidding_round != 2:
        return T("In the first round you may only order up {suit} or pass.", suit=SUIT_WORDS[turned_suit])
    suit = parse_suit(command.get("suit"))
    if suit is None:
        return T("Name a suit: clubs, diamonds, hearts or spades.")
    if suit == turned_suit:
        return T("{suit} was turned down; name another suit.", suit=SUIT_WORDS_FIRST[suit])
    return None


def _no_trump_refusal(state: EuchreState, seat: int, command: dict[str, Any]) -> str | None:
    """No trump is a house rule for the stuck dealer only (EU-18)."""
    if not state.no_trump:
        return T("This table does not play no trump.")
    if not forced_to_call(state, seat):
        return T("Only a dealer forced to call (stick the dealer) may declare no trump.")
    return None


BID_REFUSALS = {
    "order_up": _turned_card_refusal,
    "pick_up": _turned_card_refusal,
    "name_trump": _naming_refusal,
    "call_no_trump": _no_trump_refusal,
}


def bid_refusal(state: EuchreState, seat: int, command: dict[str, Any]) -> str | None:
    """Ordering up, picking up, naming, no trump or passing (EU-4, EU-5, EU-7, EU-15, EU-18)."""
    if command["type"] == "pass":
        return _pass_refusal(state, seat, command)
    return _alone_refusal(state, command) or BID_REFUSALS[command["type"]](state, seat, command)


def discard_refusal(state: EuchreState, seat: int, command: dict[str, Any]) -> str | None:
    """The dealer discards one card of their six (EU-4)."""
    card = parse_card(command.get("card"))
    if card is None or card not in state.hands[seat]:
        return T("You do not hold {card}.", card=repr(command.get("card")))
    return None


def play_refusal(state: EuchreState, seat: int, command: dict[str, Any]) -> str | None:
    """Follow the suit led if you can, by effective suits: the left bower is a trump (EU-10)."""
    card = parse_card(command.get("card"))
    hand = state.hands[seat]
    if card is None or card not in hand:
        return T("You do not hold {card}.", card=repr(command.get("card")))
    if not state.trick:
        return None
    trump = state.trump
    led = effective_suit(state.trick[0][1], trump)
    if effective_suit(card, trump) == led:
        return None
    followers = [held for held in hand if effective_suit(held, trump) == led]
    if not followers:
        return None
    name = SUIT_WORDS[led]
    bower = left_bower(trump)
    if card == bower:
        return T(
            "You must follow {suit}: {suit} were led and you hold {cards}."
            " {card} is the left bower: this hand it is a {trump} card, not a {own} one.",
            suit=name,
            cards=followers,
            card=card,
            trump=SUIT_WORDS[trump],  # type: ignore[index]
            own=SUIT_WORDS[card[1]],
        )
    if bower in followers:
        return T(
            "You must follow {suit}: {suit} were led and you hold {cards}. ({bower}, the left bower, counts as {suit}.)",
            suit=name,
            cards=followers,
            bower=bower,
        )
    return T("You must follow {suit}: {suit} were led and you hold {cards}.", suit=name, cards=followers)


REFUSALS = {
    "claims": claim_refusal,
    "bidding": bid_refusal,
    "discard": discard_refusal,
    "play": play_refusal,
}


def move_refusal(state: EuchreState, seat: int, command: dict[str, Any]) -> str | None:
    """Why ``seat`` may not make the move ``command`` now, or ``None`` if it may."""
    if state.phase == "waiting":
        return T("The match has not started.")
    if state.phase == "finished":
        return T("The match is over.")
    if seat == state.sitting_out:
        return T("You are sitting out this hand: your partner is playing alone.")
    if seat != state.turn or state.phase not in PHASE_VERBS:
        return (
            T("It is seat {seat}'s turn, not yours.", seat=state.turn)
            if state.turn >= 0
            else T("Nobody is to act now.")
        )
    kind = command.get("type")
    if kind not in PHASE_VERBS[state.phase]:
        return _wrong_phase(state.phase, kind)
    return REFUSALS[state.phase](state, seat, command)


def seat_ok(state: EuchreState, seat: object) -> bool:
    """Whether ``seat`` names a seat at this table (an int, not a bool, in range)."""
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.seats


def _deal_pattern_refusal(state: EuchreState, command: dict[str, Any]) -> IllegalAction | None:
    """A seat may change how it deals at any time while the match is on (EU-3)."""
    if state.phase == "finished" or command.get("pattern") not in ("2-3", "3-2"):
        return IllegalAction(T("Choose a deal pattern '2-3' or '3-2' while the match is on."))
    return None


def _judged(state: EuchreState, seat: int | None, command: dict[str, Any]) -> str | IllegalAction | None:
    """The judge's verdict: ``None``; a move's sentence, whose refusal lists the seat's legal
    actions; or a whole ``IllegalAction``, which lists none."""
    kind = command.get("type")
    if kind == "start":
        return None if state.phase == "waiting" else IllegalAction(T("The match has already started."))
    if seat is None or not seat_ok(state, seat):
        return IllegalAction(T("There is no seat {seat} at this table.", seat=repr(seat)))
    if kind == "set_deal_pattern":
        return _deal_pattern_refusal(state, command)
    if kind in presence.COMMANDS:
        # Any seat, whoever's turn it is (CM-20).
        return seating.refusal(state, seat, command)
    if kind == "timeout":
        if seat not in to_act(state):
            return IllegalAction(T("Seat {seat} is not awaited; nothing timed out.", seat=seat), code="stale_timeout")
        command = {**timeout_action(state, seat), "seat": seat}
    return move_refusal(state, seat, command)


def refusal(
    state: EuchreState, seat: int | None, command: Mapping[str, Any], extra: Mapping[str, Any] | None = None
) -> IllegalAction | None:
    """The one judge of a command: the refusal ``decide`` raises for it, with its words, code and
    the legal actions it lists, or ``None`` when ``decide`` accepts it. ``seat`` is the seat
    sending it (the command's own ``seat``); ``extra`` (``Context.extra``) judges nothing here."""
    judged = _judged(state, seat, dict(command))
    if judged is None or isinstance(judged, IllegalAction):
        return judged
    assert seat is not None  # a move's sentence is only said to a seat at the table
    return IllegalAction(judged, legal=legal_actions(state, seat))


def _moves(state: EuchreState, seat: int) -> list[dict[str, Any]]:
    hand = state.hands[seat]
    alones = (False,) if state.cutthroat else (False, True)
    if state.phase == "claims":
        swaps = [{"type": "farmers_swap", "cards": list(cards)} for cards in combinations(hand, 3)]
        return [{"type": "keep_hand"}, *swaps, {"type": "ace_no_face"}]
    if state.phase == "bidding":
        verb = "pick_up" if seat == state.dealer else "order_up"
        bids: list[dict[str, Any]] = [{"type": "pass"}]
        if state.bidding_round == 1:
            bids += [{"type": verb, "alone": alone} for alone in alones]
        else:
            bids += [{"type": "name_trump", "suit": suit, "alone": alone} for suit in SUIT_ORDER for alone in alones]
            bids += [{"type": "call_no_trump", "alone": alone} for alone in alones]
        return bids
    verb = "discard" if state.phase == "discard" else "play"
    return [{"type": verb, "card": card} for card in hand]


def candidates(state: EuchreState, seat: int) -> list[dict[str, Any]]:
    """The commands ``seat`` might be offered now, before the judge: the moves of the phase when
    it is awaited (none else: the judge refuses every move out of turn), and sitting out,
    sitting in and leaving."""
    if not seat_ok(state, seat):
        return []
    moves = _moves(state, seat) if seat in to_act(state) else []
    return moves + [dict(command) for command in seating.CANDIDATES]


def legal_actions(state: EuchreState, seat: int) -> list[dict[str, Any]]:
    """The commands ``seat`` may send now, shaped like the API's ``action``: the candidates the
    judge lets through, its moves when it is awaited and, whoever's turn it is, sitting out,
    sitting in or leaving (CM-20)."""
    return [command for command in candidates(state, seat) if _judged(state, seat, command) is None]


def legal_moves(state: EuchreState, seat: int) -> list[dict[str, Any]]:
    """The moves of the game ``seat`` may make now: none unless it is awaited."""
    if seat not in to_act(state):
        return []
    return [command for command in _moves(state, seat) if move_refusal(state, seat, command) is None]


def timeout_action(state: EuchreState, seat: int) -> dict[str, Any]:
    """What a timed-out seat plays (EU-22): a bidder passes, a forced dealer names the first
    allowed suit in clubs, diamonds, hearts, spades order; a player plays (and a dealer discards)
    the lowest legal card by EU-8 order, ties by that suit order; a claim offer is declined."""
    if state.phase == "claims":
        return {"type": "keep_hand"}
    if state.phase == "bidding":
        if forced_to_call(state, seat):
            suit = next(suit for suit in SUIT_ORDER if suit != state.turned_card[1])
            return {"type": "name_trump", "suit": suit, "alone": False}
        return {"type": "pass"}
    verb = "discard" if state.phase == "discard" else "play"
    legal = [action["card"] for action in legal_moves(state, seat)]
    return {"type": verb, "card": min(legal, key=lambda card: low_key(card, state.trump))}
