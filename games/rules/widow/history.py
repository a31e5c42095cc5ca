"""The lines of a widow hand's plain-text history both games share (the deal, the exchange, the end
of a hand, an elimination), in players' words: players by name, every card named (the hand is
over, so nothing is secret any more). Each game's ``audit.history_line`` adds its own events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine.card_names import and_list, card_name, card_names, rank_plural
from games.engine.words import N, T, Text
from games.rules.widow import exchange
from games.rules.widow.events import FirstDealerDrawn, HandEnded, HandStarted, PlayerEliminated

# ``cannot ante`` is how records made before the reason became a code say ``cannot_ante``.
_REASONS = {
    "broke": T("they have no chips left"),
    "cannot_ante": T("they cannot pay the ante"),
    "cannot ante": T("they cannot pay the ante"),
}


def player(names: Sequence[str], seat: int) -> str:
    """The name of the player in ``seat`` ("seat 2" if the history does not know it)."""
    return names[seat] if 0 <= seat < len(names) else T("seat {seat}", seat=seat)


def players(names: Sequence[str], seats: Sequence[int]) -> Text:
    """Several players by name: "Ana, Bruno and Carla"."""
    return and_list([player(names, seat) for seat in seats])


def chips(count: int) -> Text:
    """A number of chips in words: "1 chip", "3 chips"."""
    return N("{count} chip", "{count} chips", count)


def hand_started(event: HandStarted, names: Sequence[str]) -> Text:
    """The deal: who deals, every hand dealt and the widow, who plays first, and the wild cards
    (La Viuda, LV-5) when the hand has them."""
    dealt = [
        T("{player} gets {cards}", player=player(names, seat), cards=card_names(event.hands[seat]))
        for seat in event.order
    ]
    line = T(
        "Hand {number}, dealt by {dealer}: {dealt}; the widow, face down, is {widow}; {first} plays first",
        number=event.hand_no,
        dealer=player(names, event.dealer),
        dealt=in_turn(dealt),
        widow=card_names(event.widow_cards),
        first=player(names, event.order[0]),
    )
    if event.wild_rank:
        line = T(
            "{line}; with {pot} in the pot, {rank} and the jokers are wild",
            line=line,
            pot=chips(event.pot),
            rank=rank_plural(event.wild_rank),
        )
    return line


def shared_line(event: Any, names: Sequence[str]) -> Text | None:
    """The history line of an event both widow games have, or ``None`` for a game's own event."""
    kind = type(event)
    if kind is FirstDealerDrawn:
        draws = [
            T("{player} draws {card}", player=player(names, seat), card=card_name(card)) for seat, card in event.draws
        ]
        return T(
            "To choose the first dealer, {draws}: {dealer} has the lowest card and deals first",
            draws=and_list(draws),
            dealer=player(names, event.dealer),
        )
    if kind is HandStarted:
        return hand_started(event, names)
    if kind is HandEnded:
        return T("Hand {number} is over and its server seed is revealed", number=event.hand_no)
    if kind is PlayerEliminated:
        reason = _REASONS.get(event.reason)
        if reason is None:
            return T("{player} is out of the game", player=player(names, event.seat))
        return T("{player} is out of the game: {reason}", player=player(names, event.seat), reason=reason)
    return _exchange_line(event, names)


def _exchange_line(event: Any, names: Sequence[str]) -> Text | None:
    """A move of the widow exchange (WX-2..WX-7) in words."""
    kind = type(event)
    if kind is exchange.Passed:
        if event.timed_out:
            return T("{player} runs out of time and passes", player=player(names, event.seat))
        return T("{player} passes", player=player(names, event.seat))
    if kind is exchange.Knocked:
        who = player(names, event.seat)
        if event.timed_out:
            return T("{player} runs out of time and knocks", player=who)
        if event.forced:
            return T("{player} must knock: the widow has gone round the table the most times allowed", player=who)
        if event.first:
            return T("{player} knocks: every other player has one more turn", player=who)
        return T("{player} knocks too", player=who)
    if kind is exchange.WidowTaken:
        return T(
            "{player} lays {gave} face up as the new widow and takes the face-down widow: {took}",
            player=player(names, event.seat),
            gave=card_names(event.gave),
            took=card_names(event.took),
        )
    if kind is exchange.WidowTurnedUp:
        return T("Nobody took the widow, so it is turned face up: {cards}", cards=card_names(event.cards))
    if kind is exchange.HandExchanged:
        return T(
            "{player} swaps the whole hand with the widow, giving {gave} and taking {took}",
            player=player(names, event.seat),
            gave=card_names(event.gave),
            took=card_names(event.took),
        )
    if kind is exchange.CardExchanged:
        return T(
            "{player} gives {gave} to the widow and takes {took}",
            player=player(names, event.seat),
            gave=card_name(event.gave),
            took=card_name(event.took),
        )
    return None


def in_turn(parts: Sequence[Text]) -> Text:
    """Sentences or clauses one after another, separated by semicolons."""
    said = parts[0]
    for part in parts[1:]:
        said = T("{before}; {after}", before=said, after=part)
    return said


def shown_hands(entries: Sequence[dict[str, Any]], names: Sequence[str]) -> Text:
    """The hands of a showdown (as a game's ``showdown_entries`` lists them) in words: who shows
    which cards and what they make, with what the wild cards stand for."""
    return in_turn(
        [
            T(
                "{player} shows {cards}: {description}",
                player=player(names, entry["seat"]),
                cards=card_names(entry["cards"]),
                description=entry["description"],
            )
            for entry in entries
        ]
    )
