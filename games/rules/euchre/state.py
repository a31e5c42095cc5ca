"""Euchre's state and ``evolve``: one small function per event. A recorded event is a fact;
nothing is re-checked."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import replace
from typing import Any

from games.engine import presence
from games.engine.presence import EVERYONE_HERE, Presence
from games.rules.euchre.cards import deal_hands
from games.rules.euchre.events import (
    AceNoFaceDeclared,
    CardPlayed,
    ClaimDeclined,
    DealerDiscarded,
    DealPatternChosen,
    FarmersHandSwapped,
    HandEnded,
    HandStarted,
    MatchStarted,
    MatchWon,
    Passed,
    Plays,
    TrickTaken,
    TrumpMade,
)


@dataclasses.dataclass(frozen=True, slots=True)
class EuchreState:
    """A Euchre table. ``phase``: ``waiting``, ``claims``, ``bidding``, ``discard``, ``play``,
    ``between`` (a hand ended, the next not dealt yet) or ``finished``. ``turn`` is the seat
    awaited or -1. Per-seat tuples are indexed by seat; in partnerships both partners hold the
    side's score. ``server_seed``, ``hands``, ``kitty`` and ``discard`` are never shown as such:
    only ``view`` turns state into what a seat sees."""

    seats: int = 4
    target_points: int = 10
    stick_the_dealer: bool = False
    farmers_hand: bool = False
    ace_no_face: bool = False
    no_trump: bool = False
    cutthroat: bool = False
    stake: int = 0
    currency: str | None = None
    deal_patterns: tuple[str, ...] = ()
    phase: str = "waiting"
    hand_no: int = 0
    dealer: int = -1
    first_dealer_draws: Plays = ()
    commitment: str = ""
    server_seed: str = ""
    hands: tuple[tuple[str, ...], ...] = ()
    kitty: tuple[str, ...] = ()
    turned_card: str = ""
    turned_down: bool = False
    turn: int = -1
    bidding_round: int = 0
    bids: tuple[tuple[int, str], ...] = ()
    farmer_swapped: bool = False
    shown: tuple[tuple[int, tuple[str, ...]], ...] = ()
    trump: str | None = None
    maker: int = -1
    makers: tuple[int, ...] = ()
    alone: bool = False
    sitting_out: int = -1
    picked_up: bool = False
    discard: str = ""
    trick: Plays = ()
    tricks: tuple[Plays, ...] = ()
    trick_winners: tuple[int, ...] = ()
    tricks_won: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    presence: Presence = EVERYONE_HERE


def next_seat(state: EuchreState, seat: int) -> int:
    """The next seat clockwise that is in the hand (CM-4: a seat sitting out is skipped)."""
    following = (seat + 1) % state.seats
    if following == state.sitting_out:
        following = (following + 1) % state.seats
    return following


def first_leader(state: EuchreState) -> int:
    """The player to the dealer's left, or the next one if that player sits out (EU-9)."""
    return next_seat(state, state.dealer)


def active_count(state: EuchreState) -> int:
    """Players in the hand: one card each makes a trick (EU-9)."""
    return state.seats - (1 if state.sitting_out >= 0 else 0)


def _set(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


@functools.singledispatch
def evolve(event: Any, state: EuchreState) -> EuchreState:
    """The state after ``event``."""
    raise TypeError(f"Not a Euchre event: {event!r}")


@evolve.register
def _(event: MatchStarted, state: EuchreState) -> EuchreState:
    return replace(
        state, dealer=event.dealer, first_dealer_draws=event.draws, scores=(0,) * state.seats, phase="between"
    )


@evolve.register
def _(event: DealPatternChosen, state: EuchreState) -> EuchreState:
    return replace(state, deal_patterns=_set(state.deal_patterns, event.seat, event.pattern))


@evolve.register
def _(event: HandStarted, state: EuchreState) -> EuchreState:
    hands, kitty = deal_hands(event.deck, event.dealer, state.seats, event.pattern)
    claims = state.farmers_hand or state.ace_no_face
    return replace(
        state,
        phase="claims" if claims else "bidding",
        hand_no=event.hand_no,
        dealer=event.dealer,
        commitment=event.commitment,
        server_seed=event.server_seed,
        hands=hands,
        kitty=kitty,
        turned_card=event.turned_card,
        turned_down=False,
        turn=(event.dealer + 1) % state.seats,
        bidding_round=0 if claims else 1,
        bids=(),
        farmer_swapped=False,
        shown=(),
        trump=None,
        maker=-1,
        makers=(),
        alone=False,
        sitting_out=-1,
        picked_up=False,
        discard="",
        trick=(),
        tricks=(),
        trick_winners=(),
        tricks_won=(0,) * state.seats,
    )


def _after_claim(state: EuchreState, seat: int) -> EuchreState:
    if seat == state.dealer:
        return replace(state, phase="bidding", bidding_round=1, turn=(state.dealer + 1) % state.seats)
    return replace(state, turn=(seat + 1) % state.seats)


@evolve.register
def _(event: ClaimDeclined, state: EuchreState) -> EuchreState:
    return _after_claim(state, event.seat)


@evolve.register
def _(event: FarmersHandSwapped, state: EuchreState) -> EuchreState:
    kept = tuple(card for card in state.hands[event.seat] if card not in event.given)
    hands = _set(state.hands, event.seat, kept + event.taken)
    kitty = (state.kitty[0], *event.given, *state.kitty[4:])
    state = replace(
        state, hands=hands, kitty=kitty, farmer_swapped=True, shown=(*state.shown, (event.seat, event.shown))
    )
    return _after_claim(state, event.seat)


@evolve.register
def _(event: AceNoFaceDeclared, state: EuchreState) -> EuchreState:
    return replace(state, shown=(*state.shown, (event.seat, event.shown)), turn=-1)


@evolve.register
def _(event: Passed, state: EuchreState) -> EuchreState:
    state = replace(state, bids=(*state.bids, (event.seat, "pass")))
    if event.seat != state.dealer:
        return replace(state, turn=(event.seat + 1) % state.seats)
    if event.round == 1:
        return replace(state, bidding_round=2, turned_down=True, turn=(state.dealer + 1) % state.seats)
    return replace(state, turn=-1)


@evolve.register
def _(event: TrumpMade, state: EuchreState) -> EuchreState:
    bid = ("no_trump" if event.suit is None else f"trump {event.suit}") + (" alone" if event.alone else "")
    state = replace(
        state,
        bids=(*state.bids, (event.seat, bid)),
        trump=event.suit,
        maker=event.seat,
        makers=event.makers,
        alone=event.alone,
        sitting_out=event.sitting_out,
    )
    if event.dealer_picks_up:
        hands = _set(state.hands, state.dealer, (*state.hands[state.dealer], state.turned_card))
        return replace(state, hands=hands, kitty=state.kitty[1:], picked_up=True, phase="discard", turn=state.dealer)
    return replace(state, phase="play", turn=first_leader(state))


@evolve.register
def _(event: DealerDiscarded, state: EuchreState) -> EuchreState:
    kept = tuple(card for card in state.hands[event.seat] if card != event.card)
    return replace(
        state, hands=_set(state.hands, event.seat, kept), discard=event.card, phase="play", turn=first_leader(state)
    )


@evolve.register
def _(event: CardPlayed, state: EuchreState) -> EuchreState:
    kept = tuple(card for card in state.hands[event.seat] if card != event.card)
    trick = (*state.trick, (event.seat, event.card))
    turn = -1 if len(trick) == active_count(state) else next_seat(state, event.seat)
    return replace(state, hands=_set(state.hands, event.seat, kept), trick=trick, turn=turn)


@evolve.register
def _(event: TrickTaken, state: EuchreState) -> EuchreState:
    tricks = (*state.tricks, event.plays)
    return replace(
        state,
        trick=(),
        tricks=tricks,
        trick_winners=(*state.trick_winners, event.winner),
        tricks_won=_set(state.tricks_won, event.winner, state.tricks_won[event.winner] + 1),
        turn=event.winner if len(tricks) < 5 else -1,
    )


@evolve.register
def _(event: HandEnded, state: EuchreState) -> EuchreState:
    return replace(state, scores=event.scores, phase="between", turn=-1)


@evolve.register
def _(event: MatchWon, state: EuchreState) -> EuchreState:
    return replace(state, winners=event.winners, scores=event.scores, phase="finished", turn=-1)


def _presence_changed(event: Any, state: EuchreState) -> EuchreState:
    """A player sat out, sat in or left (CM-20)."""
    return replace(state, presence=presence.evolve(state.presence, event))


for _kind in presence.EVENT_TYPES:
    evolve.register(_kind, _presence_changed)
