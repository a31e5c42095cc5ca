"""Guerra Chevichona's event sentences (the throws, the ambushes, skirmishes and battles, the
rounds and piles), from each event as the viewer is served it: a battle's face-down cards and a
shuffled or forfeited pile are in no view of the event, so no sentence shows them."""

from __future__ import annotations

from games.engine.sentences import (
    Cards,
    Describe,
    Seen,
    Sentence,
    card,
    is_seat,
    late,
    players,
    seat,
    the_match_is_over,
    with_presence,
)
from games.engine.words import N, T

REASONS = {
    "short": T("too few cards to throw"),
    "no_extra": T("no extra card for the tie"),
    "no_battle_cards": T("no card for the battle"),
    "left": T("left the table"),
    "no_cards": T("no cards left"),
}


def match_started(e: Seen) -> Sentence:
    dealer = e.data.get("dealer")
    if is_seat(dealer):
        return (T("The match begins: {player} deals first", player=seat(dealer)),)
    return (T("The match begins"),)


def player_out(e: Seen) -> Sentence:
    why = REASONS.get(str(e.data.get("reason")))
    if why is not None:
        return (T("{player} is out ({reason})", player=e.player, reason=why),)
    return (T("{player} is out of the game", player=e.player),)


def battle_won(e: Seen) -> Sentence:
    if e.data.get("by_draw"):
        return (T("{player} wins the battle of skirmish {number} by lot", player=e.player, number=e.data["skirmish"]),)
    return (T("{player} wins the battle of skirmish {number}", player=e.player, number=e.data["skirmish"]),)


SENTENCES: dict[str, Describe] = with_presence(
    {
        "MatchStarted": match_started,
        "ThrowSent": lambda e: late((T("{player} throws", player=e.player),), e.data.get("by_timeout")),
        "CardsThrown": lambda e: (
            T("{player} throws {cards}", player=e.player, cards=Cards(e.data.get("cards") or ())),
        ),
        "PlayerOut": player_out,
        "AmbushMade": lambda e: (T("Ambush by {players}", players=players(e.data.get("seats"))),),
        "SkirmishPlayed": lambda e: (
            T(
                "Skirmish {number}: {card} is highest, by {players}",
                number=e.data["skirmish"],
                card=card(e.data["card"]),
                players=players(e.data.get("seats")),
            ),
        ),
        "BattleCardsLaid": lambda e: (
            N(
                "{player} lays {count} card face down and {card} face up",
                "{player} lays {count} cards face down and {card} face up",
                e.data["down_count"],
                player=e.player,
                card=card(e.data["face_up"]),
            ),
        ),
        "BattleGrew": lambda e: (
            T(
                "The battle of skirmish {number} goes on: {players} tie again",
                number=e.data["skirmish"],
                players=players(e.data.get("seats")),
            ),
        ),
        "BattleWon": battle_won,
        "ExtraCardThrown": lambda e: (
            T("{player} throws an extra card: {card}", player=e.player, card=card(e.data["card"])),
        ),
        "StalemateDrawn": lambda e: (
            T("Drawn by lot among {players}: {player}", player=e.player, players=players(e.data.get("seats"))),
        ),
        "RoundTaken": lambda e: (
            N(
                "{player} takes round {number}: {count} card",
                "{player} takes round {number}: {count} cards",
                e.data["count"],
                player=e.player,
                number=e.data["round_no"],
            ),
        ),
        "PileShuffled": lambda e: (T("{player}'s pile is shuffled", player=e.player),),
        "ForfeitsTaken": lambda e: (
            N(
                "{player} takes {count} card left by the players out",
                "{player} takes {count} cards left by the players out",
                e.data["count"],
                player=e.player,
            ),
        ),
        "MatchEnded": the_match_is_over,
    }
)
