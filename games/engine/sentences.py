"""Each event as a sentence for players, written once: who did what, with the cards it shows.

A sentence is made from the event *as the viewer is served it* (the events API's item: its
``type``, its ``data`` through the game's ``view_event``, its ``actor`` and ``actor_seat``), never
from the recorded event, so it can hold no card the viewer could not read in ``data`` itself.

A :data:`Sentence` is a tuple of pieces said one after the other: each a
:class:`~games.engine.words.Text` (a whole sentence for translators) or a plain ``str`` between
them (``" "``, ``"; "``). A card or a row of cards goes into a placeholder as :class:`Cards`,
which reads as its codes; the edge (``api.sentences``) says the pieces in the reader's language and
gives each ``Cards`` as a row of card codes for the client to draw. Players are named by seat
(``T("seat {seat}")``, which the edge names as the table's players, ``games.words.name_seats``).

Each game lists its sentences by event type (``Game.sentences``); the presence events of every
game are here. An event type a game does not list, or an event its sentence cannot read, is
"<player> acts" (or "Something happens at the table"), never its machine name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeGuard

from games.engine.card_names import and_list
from games.engine.words import Amount, N, T, Text

# Said in order; the plain strings are what stands between two sentences.
Sentence = tuple[Text | str, ...]


class Cards(str):
    """A row of card codes inside a sentence: reads as the codes separated by spaces; the edge gives
    ``codes`` as a row of cards."""

    __slots__ = ("codes",)
    codes: tuple[str, ...]

    def __new__(cls, codes: Iterable[Any]) -> Cards:
        kept = tuple(str(code) for code in codes)
        row = super().__new__(cls, " ".join(kept))
        row.codes = kept
        return row

    def __reduce__(self) -> tuple[Any, ...]:
        return (Cards, (self.codes,))


def card(code: Any) -> Cards:
    """One card as a row of one."""
    return Cards([code])


@dataclasses.dataclass(frozen=True, slots=True)
class Seen:
    """An event as its sentence reads it: ``data`` as served, ``player`` the seat the event is about
    (its ``seat``, else the seat that acted, else the actor's name, else "the table") and the table's
    ``currency`` (``None`` without money)."""

    data: Mapping[str, Any]
    player: Any
    currency: str | None = None


Describe = Callable[[Seen], Sentence]


def is_seat(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def seat(number: int) -> Text:
    """The player at a seat, as the edge names them ("Ana", "bot (seat 2)", "seat 3")."""
    return T("seat {seat}", seat=number)


def players(seats: Any) -> Text:
    """Several players: "Ana, Bruno and Carla"."""
    return and_list([seat(number) for number in seats or ()])


def money(amount: Any, currency: str | None) -> Amount:
    """An amount as served (a decimal string) with its currency: "5.00 MXN", said in the reader's
    digits at the edge."""
    return Amount(amount, currency)


def late(said: Sentence, timed_out: Any) -> Sentence:
    """A move the table made when the player's time ran out says so."""
    return (*said, " ", T("(time ran out)")) if timed_out else said


def subject(event: Mapping[str, Any]) -> Any:
    """The event's player: the seat the event is about, else the seat that acted, else the actor's
    name, else ``None``."""
    data = event.get("data") or {}
    if is_seat(data.get("seat")):
        return seat(data["seat"])
    if is_seat(event.get("actor_seat")):
        return seat(event["actor_seat"])
    return event.get("actor") or None


def describe(sentences: Mapping[str, Describe], event: Mapping[str, Any], currency: str | None = None) -> Sentence:
    """The sentence of an event item of the events API, by the game's ``sentences``."""
    player = subject(event)
    said = sentences.get(str(event.get("type")))
    if said is not None:
        try:
            return tuple(said(Seen(event.get("data") or {}, T("the table") if player is None else player, currency)))
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            pass  # An older or odder record than the sentence knows: the generic sentence below.
    if player is not None:
        return (T("{player} acts", player=player),)
    return (T("Something happens at the table"),)


# --- sentences several games share ---------------------------------------------------------------


def first_dealer_drawn(e: Seen) -> Sentence:
    d = e.data
    return (
        T(
            "{player} deals first (cards drawn: {cards})",
            player=seat(d["dealer"]),
            cards=Cards(draw[1] for draw in d.get("draws") or ()),
        ),
    )


def hand_started(e: Seen) -> Sentence:
    """A deal by ``dealer`` (the widow games) or ``button`` (Five-Card Draw)."""
    d = e.data
    dealer = d.get("dealer") if is_seat(d.get("dealer")) else d.get("button")
    if not is_seat(dealer):
        return (T("Hand {number} begins", number=d["hand_no"]),)
    return (T("Hand {number}: {player} deals", number=d["hand_no"], player=seat(dealer)),)


def hand_ended(e: Seen) -> Sentence:
    return (T("Hand {number} is over", number=e.data["hand_no"]),)


def player_eliminated(e: Seen) -> Sentence:
    place = e.data.get("place")
    if place is not None:
        return (T("{player} is out of the game, in place {place}", player=e.player, place=place),)
    return (T("{player} is out of the game", player=e.player),)


def the_match_is_over(e: Seen) -> Sentence:
    """Whiskey Poker's ``GameEnded`` and Guerra's ``MatchEnded``: its winners, if any."""
    winners = e.data.get("winners") or ()
    if winners:
        return (
            N(
                "The match is over: {players} wins",
                "The match is over: {players} win",
                len(winners),
                players=players(winners),
            ),
        )
    return (T("The match is over"),)


# --- presence (every game) -----------------------------------------------------------------------

PRESENCE: dict[str, Describe] = {
    "SatOut": lambda e: (T("{player} sits out", player=e.player),),
    "SatIn": lambda e: (T("{player} sits in again", player=e.player),),
    "LeftTable": lambda e: (T("{player} leaves the table", player=e.player),),
}


def with_presence(sentences: Mapping[str, Describe]) -> dict[str, Describe]:
    """A game's sentences with the presence events' added."""
    return {**PRESENCE, **sentences}
