"""Whiskey Poker's event sentences: the widow games' shared ones and its own (the antes, the
showdown's best and worst hands, the pot, points and lives), from each event as the viewer is
served it."""

from __future__ import annotations

from games.engine import between_hands
from games.engine.sentences import Describe, Seen, Sentence, players, seat, the_match_is_over, with_presence
from games.engine.words import N, T
from games.rules.widow import sentences as widow


def game_started(e: Seen) -> Sentence:
    d = e.data
    if d.get("scoring") == "points":
        return (T("The match begins: the best hand of each deal scores a point"),)
    if d.get("scoring") == "loser_pays":
        return (N("The match begins with {count} life each", "The match begins with {count} lives each", d["chips"]),)
    chips = d.get("chips_per_player", d.get("chips"))
    if chips is None:
        return (T("The game begins"),)
    return (N("The game begins with {count} chip each", "The game begins with {count} chips each", chips),)


def antes_paid(e: Seen) -> Sentence:
    return (
        N(
            "{players} ante one chip each: {count} chip in the pot",
            "{players} ante one chip each: {count} chips in the pot",
            e.data["pot"],
            players=players(e.data.get("seats")),
        ),
    )


def showdown_held(e: Seen) -> Sentence:
    best = e.data.get("best") or ()
    if best:
        return (
            N(
                "The hands are shown: {players} has the best hand",
                "The hands are shown: {players} have the best hand",
                len(best),
                players=players(best),
            ),
        )
    return (T("The hands are shown"),)


def pot_awarded(e: Seen) -> Sentence:
    said: list[str] = []
    for index, (number, chips) in enumerate(e.data.get("shares") or ()):
        if index:
            said.append("; ")
        said.append(
            N(
                "{player} takes {count} chip from the pot",
                "{player} takes {count} chips from the pot",
                chips,
                player=seat(number),
            )
        )
    return tuple(said)


def losers_paid(e: Seen) -> Sentence:
    seats = e.data.get("seats") or ()
    return (
        N(
            "{players} has the worst hand and pays a chip",
            "{players} have the worst hand and pay a chip each",
            len(seats),
            players=players(seats),
        ),
    )


def points_scored(e: Seen) -> Sentence:
    seats = e.data.get("seats") or ()
    return (N("{players} scores a point", "{players} score a point each", len(seats), players=players(seats)),)


def player_cashed_out(e: Seen) -> Sentence:
    return (
        N("{player} cashes out {count} chip", "{player} cashes out {count} chips", e.data["chips"], player=e.player),
    )


SENTENCES: dict[str, Describe] = with_presence(
    {
        **widow.SENTENCES,
        "GameStarted": game_started,
        "AntesPaid": antes_paid,
        "ShowdownHeld": showdown_held,
        "PotAwarded": pot_awarded,
        "LosersPaid": losers_paid,
        "PointsScored": points_scored,
        "PlayerCashedOut": player_cashed_out,
        "MatchEndRequested": lambda e: (T("The owner ends the match after this hand"),),
        "GameEnded": the_match_is_over,
        **between_hands.SENTENCES,
    }
)
