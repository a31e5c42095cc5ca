"""La Viuda's event sentences: the widow games' shared ones and its own (the stake, the worst hand
and its chip, the widow's offer), from each event as the viewer is served it."""

from __future__ import annotations

from games.engine.sentences import Describe, Seen, Sentence, is_seat, money, seat, with_presence
from games.engine.words import N, T
from games.rules.widow import sentences as widow


def game_started(e: Seen) -> Sentence:
    chips = e.data.get("chips_per_player", e.data.get("chips"))
    if chips is None:
        return (T("The game begins"),)
    return (N("The game begins with {count} chip each", "The game begins with {count} chips each", chips),)


def showdown_held(e: Seen) -> Sentence:
    loser = e.data.get("loser")
    if is_seat(loser):
        return (T("The hands are shown: {player} has the worst hand", player=seat(loser)),)
    return (T("The hands are shown"),)


def worst_hand_paid(e: Seen) -> Sentence:
    return (
        N(
            "{player} pays a chip into the pot: {count} chip left",
            "{player} pays a chip into the pot: {count} chips left",
            e.data["chips_left"],
            player=e.player,
        ),
    )


def widow_offered(e: Seen) -> Sentence:
    price = e.data.get("price")
    if price is not None:
        return (T("{player} may buy the widow for {price}", player=e.player, price=money(price, e.currency)),)
    return (T("{player} may buy the widow", player=e.player),)


REASONS = {
    "expired": T("time ran out"),
    "cannot_afford": T("not enough money"),
    "away": T("away from the table"),
}


def widow_declined(e: Seen) -> Sentence:
    why = REASONS.get(str(e.data.get("reason")))
    if why is not None:
        return (T("{player} does not buy the widow ({reason})", player=e.player, reason=why),)
    return (T("{player} does not buy the widow", player=e.player),)


def game_ended(e: Seen) -> Sentence:
    winner = e.data.get("winner")
    if is_seat(winner):
        return (T("{player} wins the game", player=seat(winner)),)
    return (T("The match is over"),)


SENTENCES: dict[str, Describe] = with_presence(
    {
        **widow.SENTENCES,
        "GameStarted": game_started,
        "ShowdownHeld": showdown_held,
        "WorstHandPaid": worst_hand_paid,
        "WidowOffered": widow_offered,
        "WidowBought": lambda e: (T("{player} buys the widow", player=e.player),),
        "WidowDeclined": widow_declined,
        "GameEnded": game_ended,
    }
)
