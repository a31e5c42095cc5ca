"""Five-Card Draw's event sentences (the table, the forced bets, the deal's face-up cards, the
betting, the draw, the pots, leaving and topping up), from each event as the viewer is served it:
a seat's own cards dealt or drawn are in its view of the event, and no sentence shows them."""

from __future__ import annotations

from games.engine import between_hands
from games.engine.sentences import (
    Cards,
    Describe,
    Seen,
    Sentence,
    card,
    first_dealer_drawn,
    hand_ended,
    hand_started,
    late,
    player_eliminated,
    players,
    seat,
    with_presence,
)
from games.engine.words import N, T


def table_started(e: Seen) -> Sentence:
    return (T("The tournament begins") if e.data.get("format") == "tournament" else T("The table begins"),)


def forced_bets_posted(e: Seen) -> Sentence:
    total = sum(post[1] for post in e.data.get("posts") or ())
    if e.data.get("kind") == "blinds":
        return (N("The blinds are posted: {count} chip", "The blinds are posted: {count} chips", total),)
    return (N("The antes are posted: {count} chip", "The antes are posted: {count} chips", total),)


def cards_dealt(e: Seen) -> Sentence:
    up = [code for row in e.data.get("face_up") or () for code in row if code]
    if up:
        return (T("The cards are dealt; face up: {cards}", cards=Cards(up)),)
    return (T("The cards are dealt"),)


def player_acted(e: Seen) -> Sentence:
    d, p = e.data, e.player
    action = d.get("action")
    if action == "fold":
        said = T("{player} folds", player=p)
    elif action == "check":
        said = T("{player} checks", player=p)
    elif action == "call":
        said = N("{player} calls {count} chip", "{player} calls {count} chips", d["chips"], player=p)
    elif action == "bet":
        said = N("{player} bets {count} chip", "{player} bets {count} chips", d["chips"], player=p)
    elif action == "raise":
        said = N("{player} raises to {count} chip", "{player} raises to {count} chips", d["to"], player=p)
    elif action == "all_in":
        said = N(
            "{player} goes all in with {count} chip", "{player} goes all in with {count} chips", d["chips"], player=p
        )
    else:
        said = T("{player} acts", player=p)
    return late((said,), d.get("timeout"))


def cards_drawn(e: Seen) -> Sentence:
    d, p = e.data, e.player
    if d.get("shown_ace"):
        said = N(
            "{player} shows {card} and draws {count} card",
            "{player} shows {card} and draws {count} cards",
            d["count"],
            player=p,
            card=card(d["shown_ace"]),
        )
    elif not d.get("count"):
        said = T("{player} stands pat", player=p)
    else:
        said = N("{player} draws {count} card", "{player} draws {count} cards", d["count"], player=p)
    return late((said,), d.get("timeout"))


def pots_awarded(e: Seen) -> Sentence:
    said: list[str] = []
    for index, share in enumerate(e.data.get("shares") or ()):
        if index:
            said.append("; ")
        said.append(
            N("{player} wins {count} chip", "{player} wins {count} chips", share["chips"], player=seat(share["seat"]))
        )
    return tuple(said)


def table_ended(e: Seen) -> Sentence:
    winners = e.data.get("winners") or ()
    if winners:
        return (
            N(
                "The table is over: {players} wins",
                "The table is over: {players} win",
                len(winners),
                players=players(winners),
            ),
        )
    return (T("The table is over"),)


SENTENCES: dict[str, Describe] = with_presence(
    {
        "TableStarted": table_started,
        "FirstDealerDrawn": first_dealer_drawn,
        "HandStarted": hand_started,
        "ForcedBetsPosted": forced_bets_posted,
        "CardsDealt": cards_dealt,
        "PlayerActed": player_acted,
        "StockReshuffled": lambda e: (
            N(
                "The discards are shuffled into a new stock of {count} card",
                "The discards are shuffled into a new stock of {count} cards",
                e.data["size"],
            ),
        ),
        "CardsDrawn": cards_drawn,
        "HandPassed": lambda e: (
            N(
                "Nobody opens: the pot of {count} chip carries over",
                "Nobody opens: the pot of {count} chips carries over",
                e.data["pot"],
            ),
        ),
        "ShowdownHeld": lambda e: (T("The hands are shown"),),
        "PotsAwarded": pots_awarded,
        "HandEnded": hand_ended,
        "LeaveRequested": lambda e: (T("{player} leaves after this hand", player=e.player),),
        "PlayerLeft": lambda e: (
            N(
                "{player} leaves the table with {count} chip",
                "{player} leaves the table with {count} chips",
                e.data["chips"],
                player=e.player,
            ),
        ),
        "PlayerEliminated": player_eliminated,
        "TableEndRequested": lambda e: (T("The owner ends the table after this hand"),),
        "TableEnded": table_ended,
        "ChipsToppedUp": lambda e: (
            N(
                "{player} tops up with {count} chip",
                "{player} tops up with {count} chips",
                e.data["chips"],
                player=e.player,
            ),
        ),
        **between_hands.SENTENCES,
    }
)
