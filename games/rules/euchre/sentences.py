"""Euchre's event sentences (the deal and its turned card, the bidding, the tricks, the match),
from each event as the viewer is served it: the dealer's discard shows only to the dealer, whose
view of the event alone carries it."""

from __future__ import annotations

from games.engine.card_names import suit_name
from games.engine.sentences import Cards, Describe, Seen, Sentence, card, is_seat, players, seat, with_presence
from games.engine.words import N, T


def match_started(e: Seen) -> Sentence:
    dealer = e.data.get("dealer")
    if is_seat(dealer):
        return (T("The match begins: {player} deals first", player=seat(dealer)),)
    return (T("The match begins"),)


def hand_started(e: Seen) -> Sentence:
    d = e.data
    if d.get("turned_card"):
        return (
            T(
                "Hand {number}: {player} deals and turns up {card}",
                number=d["hand_no"],
                player=seat(d["dealer"]),
                card=card(d["turned_card"]),
            ),
        )
    if not is_seat(d.get("dealer")):
        return (T("Hand {number} begins", number=d["hand_no"]),)
    return (T("Hand {number}: {player} deals", number=d["hand_no"], player=seat(d["dealer"])),)


def hand_ended(e: Seen) -> Sentence:
    d = e.data
    if d.get("outcome") == "played" and d.get("maker_tricks") is not None:
        return (
            N(
                "Hand {number} is over: the makers took {count} trick",
                "Hand {number} is over: the makers took {count} tricks",
                d["maker_tricks"],
                number=d["hand_no"],
            ),
        )
    if d.get("outcome") in ("redeal", "thrown_in"):
        return (T("Hand {number} is thrown in: a new deal", number=d["hand_no"]),)
    return (T("Hand {number} is over", number=d["hand_no"]),)


def trump_made(e: Seen) -> Sentence:
    d = e.data
    suit = d.get("suit")
    if suit not in ("c", "d", "h", "s"):
        if d.get("alone"):
            return (T("{player} calls no trump and goes alone", player=e.player),)
        return (T("{player} calls no trump", player=e.player),)
    if d.get("alone"):
        return (T("{player} makes {suit} trump and goes alone", player=e.player, suit=suit_name(suit)),)
    return (T("{player} makes {suit} trump", player=e.player, suit=suit_name(suit)),)


def dealer_discarded(e: Seen) -> Sentence:
    if e.data.get("card"):
        return (T("{player} discards {card}", player=e.player, card=card(e.data["card"])),)
    return (T("{player} discards a card face down", player=e.player),)


def match_won(e: Seen) -> Sentence:
    winners = e.data.get("winners") or ()
    return (N("{players} wins the match", "{players} win the match", len(winners), players=players(winners)),)


SENTENCES: dict[str, Describe] = with_presence(
    {
        "MatchStarted": match_started,
        "DealPatternChosen": lambda e: (
            T("{player} deals in packets of {pattern}", player=e.player, pattern=e.data["pattern"]),
        ),
        "HandStarted": hand_started,
        "ClaimDeclined": lambda e: (T("{player} keeps the hand", player=e.player),),
        "FarmersHandSwapped": lambda e: (
            T(
                "{player} shows a farmer's hand ({cards}) and swaps three cards",
                player=e.player,
                cards=Cards(e.data.get("shown") or ()),
            ),
        ),
        "AceNoFaceDeclared": lambda e: (
            T(
                "{player} shows an ace and no face card ({cards}): a new deal",
                player=e.player,
                cards=Cards(e.data.get("shown") or ()),
            ),
        ),
        "Passed": lambda e: (T("{player} passes", player=e.player),),
        "TrumpMade": trump_made,
        "DealerDiscarded": dealer_discarded,
        "CardPlayed": lambda e: (T("{player} plays {card}", player=e.player, card=card(e.data["card"])),),
        "TrickTaken": lambda e: (
            T("{player} takes trick {number}", player=seat(e.data["winner"]), number=e.data["trick_no"]),
        ),
        "HandEnded": hand_ended,
        "MatchWon": match_won,
    }
)
