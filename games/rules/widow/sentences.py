"""The sentences of the events both widow games share (the first dealer, the deal, the exchange, an
elimination), from each event as the viewer is served it (``games.engine.sentences``). Each game
adds its own in its ``sentences`` module."""

from __future__ import annotations

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
)
from games.engine.words import T


def passed(e: Seen) -> Sentence:
    return late((T("{player} passes", player=e.player),), e.data.get("timed_out"))


def knocked(e: Seen) -> Sentence:
    if e.data.get("forced"):
        return late((T("{player} must knock", player=e.player),), e.data.get("timed_out"))
    return late((T("{player} knocks", player=e.player),), e.data.get("timed_out"))


def widow_taken(e: Seen) -> Sentence:
    gave = e.data.get("gave")
    if gave:
        return (T("{player} takes the widow and lays down {cards}", player=e.player, cards=Cards(gave)),)
    return (T("{player} takes the widow", player=e.player),)


def widow_turned_up(e: Seen) -> Sentence:
    return (T("The widow is turned face up: {cards}", cards=Cards(e.data.get("cards") or ())),)


def hand_exchanged(e: Seen) -> Sentence:
    return (
        T(
            "{player} swaps the whole hand: gives {given}, takes {taken}",
            player=e.player,
            given=Cards(e.data.get("gave") or ()),
            taken=Cards(e.data.get("took") or ()),
        ),
    )


def card_exchanged(e: Seen) -> Sentence:
    return (
        T(
            "{player} gives {given} and takes {taken}",
            player=e.player,
            given=card(e.data["gave"]),
            taken=card(e.data["took"]),
        ),
    )


SENTENCES: dict[str, Describe] = {
    "FirstDealerDrawn": first_dealer_drawn,
    "HandStarted": hand_started,
    "HandEnded": hand_ended,
    "PlayerEliminated": player_eliminated,
    "Passed": passed,
    "Knocked": knocked,
    "WidowTaken": widow_taken,
    "WidowTurnedUp": widow_turned_up,
    "HandExchanged": hand_exchanged,
    "CardExchanged": card_exchanged,
}
